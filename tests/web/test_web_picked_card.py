"""Issue 48 at the Spite and Malice table: the card a person picks is the card that moves, by a click,
a drag and the keys, with three and then two cards of one rank in the hand (the move names the card:
records.md §2, ``H5C-D1``), and the log and the flying card show it; and the log a reload shows is
the log the page showed before it, entry by entry. At desktop (1366×768) and phone (390×844) size.

The deal is fixed: a server of predictable deals (``--predictable-deals``) and a page whose random
numbers (its nonce) are always the same deal the same first table every time. Seed 165 gives Ann,
who begins, 5♠ A♠ 5♥ 5♣ 8♣ (found with the server's own functions: see ``hand_of_seed``)."""

from __future__ import annotations

import base64
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import NO_PACE, PHONE, ConsoleWatch, WebServer, open_side_panel
from test_web_page import start_quick_game, version, wait_for_turn
from test_web_table_items import FIXED_RANDOM

from spite.cards import TOKENS
from spite.malice import Options, State
from spite.server.table.fair import FairDeal

LAPTOP = {"width": 1366, "height": 768}
SEED = 165
"""The server's deal seed: the first quick game (short, stocks of 10) gives Ann, who begins, three 5s."""
NONCE = "07" * 16
"""The page's nonce under ``FIXED_RANDOM``."""

FLIGHTS_JS = """document.addEventListener('spite:flight', (e) => {
  const ghost = [...document.querySelectorAll('#anim-layer .flying')].pop();
  const name = ghost?.querySelector('svg')?.getAttribute('aria-label') ?? null;
  (window.__flights = window.__flights || []).push([e.detail.move, name]);
});"""
"""Every flight the table starts: its move and the name of the card drawn flying."""

LOG_JS = """() => [...document.querySelectorAll('#log li')].map((li) => li.textContent.replace(/\\s+/g, ' ').trim())"""


def hand_of_seed(seed: int) -> tuple[list[str], int]:
    """Ann's first hand at the first quick game of a server of predictable deals ``seed`` (as the
    server makes it: the table id and the secret from the seed, the page's fixed nonce), and the seat
    that begins."""
    entropy = random.Random(seed).randbytes
    table_id = base64.urlsafe_b64encode(entropy(9)).decode()
    fair = FairDeal.draw(table_id, 1, 2, entropy=entropy)
    fair.take_nonce(0, NONCE)
    state = State.new(Options.from_preset("short", {"stock_size": 10}), fair.seed())
    return [TOKENS[c] for c in state.hands[0]], state.to_move


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[WebServer]:
    """A fresh server of predictable deals for each test: its first table is the seeded deal."""
    server = WebServer(tmp_path / "spite.db", "--predictable-deals", str(SEED))
    try:
        yield server
    finally:
        server.stop()


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    # the flights drawn: the card drawn flying is checked (conftest's StillBrowser asks for none)
    ctx = browser.new_context(viewport=viewport, locale="en-US", reduced_motion="no-preference")
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(NO_PACE)
    ctx.add_init_script(FIXED_RANDOM)
    ctx.add_init_script(FLIGHTS_JS)
    page = ctx.new_page()
    page.watch = ConsoleWatch(page)
    return page


def hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.dataset.card)"))


def fives(page: Any) -> list[int]:
    """Where the 5s are in the hand, in hand order (the rank form ``H5`` takes the first)."""
    return [i for i, card in enumerate(hand(page)) if card[:-1] == "5"]


def card_name(page: Any, index: int) -> str:
    return str(page.get_attribute(f'.me .hand-card[data-index="{index}"] svg', "aria-label"))


def drag(page: Any, source: str, target: str) -> None:
    src, dst = page.locator(source).first.bounding_box(), page.locator(target).first.bounding_box()
    assert src and dst, (source, target)
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()


def discard_by(page: Any, how: str, index: int, pile: int) -> None:
    """Discard the hand card at ``index`` onto own discard pile ``pile``, as a person does ``how``."""
    card = f'.me .hand-card[data-index="{index}"]'
    target = f'.me [data-pile="discard"][data-index="{pile}"]'
    if how == "click":
        page.click(card)
        page.click(target)
    elif how == "drag":
        drag(page, card, target)
    else:  # the keys: the card's number, then D and the pile's number
        page.keyboard.press(str(index + 1))
        page.keyboard.press("d")
        page.keyboard.press(str(pile))


def test_the_seed_deals_three_fives_to_ann_who_begins() -> None:
    cards, first = hand_of_seed(SEED)
    assert first == 0 and [c for c in cards if c[:-1] == "5"] == ["5S", "5H", "5C"], cards


@pytest.mark.parametrize(("viewport", "ways"),
                         [(LAPTOP, ("click", "drag", "keys")), (PHONE, ("keys", "click", "drag"))],
                         ids=["1366x768", "phone"])
def test_the_card_picked_is_the_card_that_moves(seeded: WebServer, browser: Any, viewport: dict[str, int],
                                                ways: tuple[str, str, str]) -> None:
    page = new_page(browser, viewport)
    try:
        start_quick_game(page, seeded, name="Ann", stock=10, level="random")
        assert hand(page) == hand_of_seed(SEED)[0]
        for turn, how in enumerate(ways):
            assert wait_for_turn(page)
            where = fives(page)
            # three 5s at first, then at least two (the hand is filled up from the draw pile each turn)
            assert len(where) == 3 if turn == 0 else len(where) >= 3 - turn, hand(page)
            # the last 5 in hand order: with two or three, not the one the rank form (H5) would take
            index = where[-1]
            card, name = hand(page)[index], card_name(page, index)
            others = Counter(hand(page)[i] for i in where[:-1])
            pile = turn + 1
            before = version(page)
            discard_by(page, how, index, pile)
            page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
            move = f"H{card}-D{pile}"
            # that card lies on the discard pile, the other 5s are still in the hand
            top = page.get_attribute(f'.me [data-pile="discard"][data-index="{pile}"] .card[data-card]', "data-card")
            assert top == card, (how, top, card)
            assert not others - Counter(hand(page)), (how, hand(page))
            # the log says that card, and the notation view names it (records.md §2)
            entry = page.locator(f'#log li[data-seat="0"][data-move="{move}"]')
            assert entry.count() == 1, (how, move)
            shown = card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
            assert f"Ann (you): {shown} from the hand onto discard pile {pile}" in entry.inner_text()
            # the card drawn flying is that card
            flights = page.evaluate("window.__flights || []")
            assert [move, name] in flights, (how, flights)
        assert page.watch.errors == [], page.watch.errors
    finally:
        page.context.close()


RELOAD_MOVES = 5
"""Ann's moves before the reload: in the seeded deal the second is a build play from the hand, taken back
and played again, and the computer has had two turns in between."""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "phone"])
def test_a_reload_shows_the_same_log_entry_by_entry(seeded: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    """Issue 48, point 2: what the page logged live (each card, the moves taken back, the table's
    events in their place) is what it shows after a reload; the reload's own news (the seat left and
    came back) comes after it."""
    page = new_page(browser, viewport)
    try:
        start_quick_game(page, seeded, name="Ann", stock=10, level="random")
        played = 0
        undone = False
        while played < RELOAD_MOVES and wait_for_turn(page):
            offers = page.eval_on_selector_all('.board [data-playable="1"]',
                                               "els => els.map(e => [e.dataset.source, e.dataset.targets])")
            builds = [(s, t) for s, ts in offers for t in ts.split() if t.startswith("B")]
            before = version(page)
            if builds:
                src, target = builds[0]
                page.click(f'.board [data-source="{src}"][data-playable="1"] >> nth=-1')
                page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
                page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
                if not undone and page.get_attribute(".table", "data-can-undo") == "1":
                    page.click("#undo")  # a move taken back: its line and the undo's stay in the log
                    page.wait_for_function("v => Number(document.querySelector('.table').dataset.version) > v",
                                           arg=before + 1)
                    undone = True
            else:
                discard_by(page, "click", len(hand(page)) - 1, 1 + played % 4)
                page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
            played += 1
        assert undone, "no build play came up to take back"
        wait_for_turn(page)
        open_side_panel(page)
        live = page.evaluate(LOG_JS)
        assert sum(" from the hand onto " in e for e in live) >= 3, live
        assert sum(" took back: " in e for e in live) == 1, live
        assert live[0].endswith("Ann is at seat 1"), live  # the news the page heard first, in its place
        page.reload()
        page.wait_for_selector('.table[data-seat="0"]')
        open_side_panel(page)
        page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=len(live))
        again = page.evaluate(LOG_JS)
        for k, (was, now) in enumerate(zip(live, again, strict=False)):
            assert was == now, (k, was, now)
        # after it, only the reload's own news: Ann's page left and came back
        assert all("Ann" in e and "seat 1" in e for e in again[len(live):]), again[len(live):]
        assert page.watch.errors == [], page.watch.errors
    finally:
        page.context.close()
