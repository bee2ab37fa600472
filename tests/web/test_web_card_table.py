"""The table a person sees (issue 41): a game of three or four on one screen with the own cards in
view, a refused move said next to where it was tried (by click, by drag, by key, at the Spite and
Malice table and at Spit), Spit's cards dragged by mouse and finger, the moves in words with the
notation only on request, every computer player named, and the hooks that screen readers and these
tests share (the log a ``role="log"`` region, a refusal a ``role="alert"``, every card and pile
named). At desktop and phone sizes."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import PHONE, SIZES, WebServer, open_side_panel, shoot, sync_api
from test_web_page import play_one_move, start_quick_game, version, wait_for_turn
from test_web_spit import SLOW_BOT, create_table, take_seat

SMALL_LAPTOP = {"width": 1280, "height": 720}
LAPTOP = {"width": 1366, "height": 768}
EN_CARD = r"(Ace|King|Queen|Jack|[2-9]|10) of (hearts|spades|diamonds|clubs)|Joker"

BOX_JS = "sel => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect().toJSON())"


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.evaluate(BOX_JS, selector))


def inside(box: dict[str, float], viewport: dict[str, int]) -> bool:
    """The whole box is on the screen (a pixel of rounding allowed)."""
    return (box["left"] >= -1 and box["top"] >= -1 and box["right"] <= viewport["width"] + 1
            and box["bottom"] <= viewport["height"] + 1)


def drag(page: Any, source: str, target: str) -> None:
    """Carry what lies at ``source`` onto ``target`` with the mouse (pointer events, in small steps)."""
    src, dst = page.locator(source).first.bounding_box(), page.locator(target).first.bounding_box()
    assert src and dst, (source, target)
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()


# --------------------------------------------------------------------------- one screen (point 1)

@pytest.mark.parametrize("viewport", [SMALL_LAPTOP, LAPTOP, PHONE], ids=["1280x720", "1366x768", "phone"])
@pytest.mark.parametrize("preset", ["party", "partners"])
def test_a_game_of_three_or_four_fits_one_screen_with_the_own_cards_in_view(
        web_server: WebServer, page: Any, viewport: dict[str, int], preset: str) -> None:
    start_quick_game(page, web_server, name="Ann", stock=5, level="easy", preset=preset)
    assert wait_for_turn(page)
    players = 3 if preset == "party" else 4
    assert page.locator(".board .player").count() == players
    # no scrolling, either way
    assert page.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # every player's area, the middle and every own card whole on the screen
    for selector in (".board .player", ".center", ".me .hand-card", '.me [data-source="S"]', ".me [data-target^=D]"):
        found = boxes(page, selector)
        assert found and all(inside(b, viewport) for b in found), (selector, found)
    me = boxes(page, ".me")[0]
    if viewport == PHONE:
        # the own area pinned to the bottom of the phone's screen, the side panel folded away
        assert me["bottom"] >= viewport["height"] - 24, me
        assert page.get_attribute("#panel-toggle", "aria-expanded") == "false"
    else:
        # the side panel beside the table, not over it
        side = boxes(page, "#side")[0]
        assert page.is_visible("#log") and side["left"] >= me["right"], (side, me)
        assert all(b["right"] <= side["left"] for b in boxes(page, ".board .player"))
    # cards as large as the space allows: the own hand's cards are not postage stamps
    assert min(b["height"] for b in boxes(page, ".me .hand-card")) >= (70 if viewport == PHONE else 90)
    # every computer player has a name of its own, with its level
    heads = page.eval_on_selector_all(".board .player.opponent", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(set(heads)) == players - 1 and not any(h.startswith("Computer") for h in heads), heads
    for s in range(1, players):
        assert "computer · easy" in page.inner_text(f'.board .player[data-seat="{s}"] h3')
    if preset == "partners" and viewport == LAPTOP:
        shoot(page, "web-table-partners.png", full_page=False)


# --------------------------------------------------------------------------- refusals (point 3)

REFUSABLE_JS = """() => {
  for (const el of document.querySelectorAll('.me .hand-card[data-card]')) {
    const card = el.dataset.card, rank = card.slice(0, -1);
    if (!rank || rank === 'K' || card === 'X') continue;
    const offered = (el.dataset.targets || '').split(' ');
    for (const b of ['B1', 'B2', 'B3', 'B4']) if (!offered.includes(b)) return [Number(el.dataset.index), b];
  }
  return null;
}"""
"""A hand card (its index) and a build pile the page does not offer it: the rules refuse that move."""


def refusal_at(page: Any, target: str) -> str:
    """The refusal shown at build pile ``target``: an alert with the engine's reason."""
    bubble = page.locator(f'.board [data-target="{target}"] .refusal[role="alert"]')
    bubble.wait_for()
    return str(bubble.inner_text())


@SIZES
def test_a_refused_move_says_why_at_the_pile_tried_by_click_drag_and_key(
        web_server: WebServer, page: Any, viewport: dict[str, int]) -> None:
    # the page's clock, so that a refusal's 4.5 s on screen (table.js REFUSAL_MS) can be skipped: it runs
    # as the real one does until the test moves it on
    page.clock.install()
    start_quick_game(page, web_server, name="Ann", stock=8, level="easy")
    assert wait_for_turn(page)
    found = page.evaluate(REFUSABLE_JS)
    assert found, "no hand card to refuse"
    index, pile = found
    card = f'.me .hand-card[data-index="{index}"]'
    before = version(page)
    reason = re.compile(rf"cannot go on build pile {pile[1:]}.*needs|needs")

    # a click on the card, then on the pile
    page.click(card)
    page.click(f'.board [data-target="{pile}"]')
    said = refusal_at(page, pile)
    assert reason.search(said), said
    assert version(page) == before  # nothing was played

    # a drag of the card onto the pile (pointer events: mouse here, a finger on a phone)
    page.keyboard.press("Escape")
    page.clock.fast_forward(5000)
    page.locator(".refusal").wait_for(state="detached")
    drag(page, card, f'.board [data-target="{pile}"]')
    assert reason.search(refusal_at(page, pile))

    # the keys: the card's number, then B and the pile's number
    page.clock.fast_forward(5000)
    page.locator(".refusal").wait_for(state="detached")
    page.keyboard.press(str(index + 1))
    page.keyboard.press("b")
    page.keyboard.press(pile[1:])
    assert reason.search(refusal_at(page, pile))
    assert version(page) == before


def spit_plays(page: Any) -> list[tuple[str, list[str]]]:
    return [(p, ts.split()) for p, ts in page.eval_on_selector_all(
        '.me .sp-tableau .sp-pile[data-cards]:not([data-cards="0"])',
        "els => els.map(e => [e.dataset.place, e.dataset.targets || ''])")]


@SIZES
def test_spit_cards_are_dragged_and_a_refused_one_says_why(web_server: WebServer, page: Any,
                                                            viewport: dict[str, int]) -> None:
    """Spit by pointer: a card dragged onto a center it fits is played; onto one it does not fit it
    stays, with the reason on the card tried; a click on the card, then on the center, the same."""
    table_id, token = create_table(web_server, SLOW_BOT)
    take_seat(page, web_server, table_id, 0, token)
    page.wait_for_selector('.spit-table[data-phase="play"]')
    centers = page.eval_on_selector_all(".sp-centers [data-target]", "els => els.map(e => e.dataset.target)")

    def refused(act: Callable[[str, str], None]) -> Any:
        """``act`` on a card and a center it does not fit: the card stays, with its reason. The computer may
        play onto that center in the instant between the page's marks and the act, so that the card
        fits after all and is played: then another is tried, three at most."""
        tried: list[tuple[str, str]] = []
        for _ in range(3):
            wrong = next(((p, c) for p, ts in spit_plays(page) for c in centers if c not in ts), None)
            assert wrong, "every card fits every center"
            tried.append(wrong)
            place, center = wrong
            act(place, center)
            verdict = page.locator(f'.me .sp-pile[data-place="{place}"] .sp-verdict[role="alert"]')
            with contextlib.suppress(sync_api.TimeoutError):
                verdict.wait_for(timeout=5000)
                return verdict
        raise AssertionError(f"no card that did not fit was refused with its reason (tried {tried})")

    verdict = refused(lambda place, center: drag(page, f'.me .sp-pile[data-place="{place}"]',
                                                 f'.sp-centers [data-target="{center}"]'))
    assert "center" in verdict.inner_text()
    verdict.wait_for(state="detached", timeout=8000)

    # by clicks: the card, then the center
    verdict = refused(lambda place, center: (page.click(f'.me .sp-pile[data-place="{place}"]'),
                                             page.click(f'.sp-centers [data-target="{center}"]')))
    assert "center" in verdict.inner_text()

    # a card that fits, dragged: played. The computer may play onto that center in the instant
    # between the page's marks and the drop ("too late"): then another card that fits is dragged,
    # three tries at most (the slow computer makes a second race unlikely)
    verdict.wait_for(state="detached", timeout=8000)
    mine = r"""() => [...document.querySelectorAll('#sp-log li')].some((li) =>
        /Ann( \(you\))?: .+ from tableau pile \d onto center pile \d/.test(li.textContent))"""
    tried: list[tuple[str, str]] = []
    for _ in range(3):
        fits = [(p, c) for p, ts in spit_plays(page) for c in ts if c.startswith("C")]
        if not fits:
            break
        place, center = fits[0]
        tried.append(fits[0])
        drag(page, f'.me .sp-pile[data-place="{place}"]', f'.sp-centers [data-target="{center}"]')
        with contextlib.suppress(sync_api.TimeoutError):
            page.wait_for_function(mine, timeout=5000)
            break
    else:
        raise AssertionError(f"no dragged card that fit was played (tried {tried})")
    if tried:
        open_side_panel(page)
        assert page.evaluate(mine), page.inner_text("#sp-log")


def test_on_a_touch_phone_a_finger_drags_and_no_key_hints_show(web_server: WebServer, browser: Any) -> None:
    """A phone without a keyboard: no key hints on the buttons, and a finger's drag plays a card."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        fits: list[tuple[str, str]] = []
        for _deal in range(12):  # a new table until a card of the deal fits a center at the start
            table_id, token = create_table(web_server, SLOW_BOT)
            take_seat(page, web_server, table_id, 0, token)
            page.wait_for_selector('.spit-table[data-phase="play"]')
            hints = page.eval_on_selector_all("kbd.key-hint, .keys-help",
                                              "els => els.filter(e => e.offsetParent).length")
            assert hints == 0
            fits = [(p, c) for p, ts in spit_plays(page) for c in ts if c.startswith("C")]
            if fits:
                break
        assert fits, "no deal of twelve had a card that fits a center at the start"
        place, center = fits[0]
        before = int(page.get_attribute(".spit-table", "data-version"))
        src = page.locator(f'.me .sp-pile[data-place="{place}"]').bounding_box()
        dst = page.locator(f'.sp-centers [data-target="{center}"]').bounding_box()
        # a finger: pointer events of type touch, as a phone sends them
        page.evaluate("""([sx, sy, dx, dy]) => {
          const fire = (type, x, y) => {
            const el = document.elementFromPoint(x, y) || document.body;
            el.dispatchEvent(new PointerEvent(type, {bubbles: true, cancelable: true, pointerId: 7,
              pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, button: 0, buttons: 1}));
          };
          fire('pointerdown', sx, sy);
          for (let i = 1; i <= 8; i++) fire('pointermove', sx + (dx - sx) * i / 8, sy + (dy - sy) * i / 8);
          fire('pointerup', dx, dy);
        }""", [src["x"] + src["width"] / 2, src["y"] + src["height"] / 2,
               dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2])
        page.wait_for_function("v => Number(document.querySelector('.spit-table').dataset.version) > v", arg=before)
    finally:
        ctx.close()


# --------------------------------------------------------------------------- words (point 2)

@SIZES
def test_the_log_tells_moves_in_words_and_the_notation_view_adds_the_notation(
        web_server: WebServer, page: Any, viewport: dict[str, int]) -> None:
    start_quick_game(page, web_server, name="Ann", stock=6, level="easy")
    assert wait_for_turn(page)
    play_one_move(page)
    wait_for_turn(page)
    open_side_panel(page)
    log = page.inner_text("#log")
    worded = r"Ann( \(you\))?: .+ (from the (hand|stock)|from discard pile \d) onto (build|discard) pile \d"
    assert re.search(worded, log), log
    assert not re.search(r"\b(H|S|D\d)[0-9A-Z]{0,2}-[BD]\d\b", log), log   # no notation by default
    # one fact, one line: the seat taken is logged once (taken and connected to), seats counted from 1
    assert log.count("Ann took seat 1") + log.count("Ann is at seat 1") == 1 and "seat 0" not in log, log
    page.click("#notation")
    page.wait_for_selector("html[data-notation='1']")
    assert re.search(r"\b(H|S|D\d)[0-9A-Z]{0,2}-[BD]\d\b|\bpass\b", page.inner_text("#log"))
    page.click("#notation")
    page.wait_for_selector("html:not([data-notation='1'])")


# --------------------------------------------------------------------------- shared hooks (point 10)

@SIZES
def test_the_log_is_a_live_region_and_every_card_and_pile_is_named(
        web_server: WebServer, page: Any, viewport: dict[str, int]) -> None:
    start_quick_game(page, web_server, name="Ann", stock=6, level="easy")
    assert wait_for_turn(page)
    assert page.get_attribute("#log", "role") == "log"
    assert page.get_by_role("log").count() == 1
    # every card face is an image with its spoken name, every pile a button named by place and card
    faces = page.eval_on_selector_all(".board .card svg", "els => els.map(e => [e.getAttribute('role'),"
                                      " e.getAttribute('aria-label')])")
    assert faces and all(role == "img" and name for role, name in faces), faces
    places = page.eval_on_selector_all(".board [data-pile]", "els => els.map(e => e.getAttribute('aria-label') || '')")
    assert places and all(places), places
    assert any(n.startswith("Build pile 1") for n in places) and any(n.startswith("Draw pile: ") for n in places)
    assert sum(n.startswith("Stock: ") for n in places) == 2, places   # the computer's stock too
    hand = page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.getAttribute('aria-label')"
                                     " || e.querySelector('svg').getAttribute('aria-label'))")
    assert any(re.fullmatch(rf"Hand card \d: ({EN_CARD})", n) for n in hand), hand

    # at Spit as well: the log, the cards, the piles
    table_id, token = create_table(web_server, SLOW_BOT)
    take_seat(page, web_server, table_id, 0, token)
    assert page.get_attribute("#sp-log", "role") == "log"
    faces = page.eval_on_selector_all(".spit-table .card svg", "els => els.map(e => e.getAttribute('aria-label'))")
    assert faces and all(faces), faces
    places = page.eval_on_selector_all(".spit-table .sp-pile",
                                       "els => els.map(e => e.getAttribute('aria-label') || '')")
    assert places and all(places), places

