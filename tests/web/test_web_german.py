"""The German page says everything in German (issue 20, "every word in the player's language"): a
whole short game against the computer, with a move the server refuses and a hint, shows no English
word. What the server says comes as a catalogue key with parameters (docs/protocol.md, "Words");
the page words it from the catalogue (``messages/de.json`` and the families' ``words/de.json``).

An English word is one of the English catalogue's words that the German catalogue does not use
(so "Computer", "Spit" or "Match" count as German); card codes, the move notation and the players'
names are no words of either."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from conftest import (
    PHONE,
    SIZES,
    ConsoleWatch,
    WebServer,
    close_side_panel_on_a_phone,
    open_more_options,
    open_seat,
    open_side_panel,
)
from test_web_page import play_one_move, start_quick_game, wait_for_turn

from helpers import finished_bot_game, finished_table, started_spit_game
from spite.catalogue import PLACEHOLDER, catalogue
from waiting import bounded

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
ALLOWED = {"udo"}  # the player's name

# the page's own socket, so that the test can send what a client may send: a move the rules refuse
SOCKET_JS = """(() => {
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(...args) { super(...args); window.__socket = this; }
  };
})();"""


def vocabulary(lang: str) -> set[str]:
    words: set[str] = set()
    for entry in catalogue(lang).values():
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            words |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
    return words


ENGLISH = vocabulary("en") - vocabulary("de") - ALLOWED


def english_words(page: Any) -> list[str]:
    """The English words on the page now (its text, its title, and the tooltips)."""
    text = page.evaluate("""() => [document.title, document.body.innerText,
      ...[...document.querySelectorAll('[title]')].map(e => e.title)].join(' ')""")
    return sorted({w for w in WORD.findall(text) if w.lower() in ENGLISH})


def refused_move(page: Any) -> str:
    """A hand card onto a build pile the page does not offer it (the rules refuse it)."""
    move = page.evaluate("""() => {
      for (const el of document.querySelectorAll('.me .hand-card[data-card]')) {
        const card = el.dataset.card;
        const rank = card.slice(0, -1);
        if (!rank || rank === 'K' || card === 'X') continue;
        const offered = (el.dataset.targets || '').split(' ');
        for (const b of ['B1', 'B2', 'B3', 'B4']) if (!offered.includes(b)) return `H${rank}-${b}`;
      }
      return null;
    }""")
    assert move, "no hand card to refuse"
    return str(move)


def german_table_with_a_refusal_and_a_hint(page: Any, server: WebServer, stock: int = 3) -> None:
    """The lobby in English and then German, a quick game in German against the computer (stocks of
    ``stock``), a move the rules refuse and a hint: all of it in German."""
    assert {"cannot", "needs", "wins", "turn", "stock", "pile"} <= ENGLISH  # the check has teeth
    page.add_init_script(SOCKET_JS)
    page.goto(server.base + "/")
    open_more_options(page)   # the lobby is drawn, its more options open
    page.click("button.lang[data-lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en' && document.querySelector('#create-table')")
    assert {"Create", "Refresh", "Your"} <= set(english_words(page))
    page.click("button.lang[data-lang=de]")
    assert english_words(page) == []
    start_quick_game(page, server, name="Udo", stock=stock, level="random")
    assert wait_for_turn(page)
    assert english_words(page) == []

    # a move the rules refuse, sent on the page's own connection: the reason is worded in German
    move = refused_move(page)
    page.evaluate("""(move) => window.__socket.send(JSON.stringify({type: 'move', move,
      stateVersion: Number(document.querySelector('.table').dataset.version), id: 'refused'}))""", move)
    page.wait_for_function("() => document.querySelector('.message')?.textContent.startsWith('Nicht erlaubt')")
    message = page.inner_text(".message")
    assert "passt nicht auf Mittelstapel" in message and "braucht" in message, message
    assert english_words(page) == []

    # a hint: the move and why, in German
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-move]")
    hint = page.inner_text("#hint-text")
    assert hint.startswith("Tipp: "), hint
    assert english_words(page) == [], hint


@pytest.mark.timeout(180)  # a whole game by clicks, every view read
def test_a_whole_german_game_shows_no_english(web_server: WebServer, page: Any) -> None:
    # stocks of 2: a whole game in about 10 moves of the person's (15 at stocks of 3)
    german_table_with_a_refusal_and_a_hint(page, web_server, stock=2)
    moves = 0
    while wait_for_turn(page):
        assert moves < 200
        play_one_move(page)
        moves += 1
        assert english_words(page) == []
    page.locator("#game-over").wait_for()
    over = page.inner_text("#game-over")
    assert "gewinnt" in over or "Unentschieden" in over, over
    assert english_words(page) == []
    # the log has the seat events in German
    assert "Udo sitzt auf Platz 1" in page.inner_text("#log")


PHONE_MOVES = 6
"""Moves of the phone's German walk: enough for the computer's turns and a refill to be worded,
without doubling the whole game of the desktop walk."""


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_german_game_on_a_phone_shows_no_english(web_server: WebServer, page: Any) -> None:
    """The German walk on a phone (where the top bar wraps and the log moves under the board), over
    the first moves of a game rather than a whole one: the end is worded in German in
    ``test_a_finished_table_says_its_state_in_german_on_a_phone`` and in the desktop walk."""
    german_table_with_a_refusal_and_a_hint(page, web_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for _ in range(PHONE_MOVES):
        if not wait_for_turn(page):
            break
        play_one_move(page)
        assert english_words(page) == []
    assert "Udo sitzt auf Platz 1" in page.inner_text("#log")
    assert page.locator("#log li[data-seat]").count() >= 2   # moves of both seats were worded


def test_a_finished_table_says_its_state_in_german_on_a_phone(web_server: WebServer, browser: Any) -> None:
    """A table's state comes as a word of the catalogue ("Dieser Tisch ist beendet", not "… ist
    finished"), here for a finished table opened by its link on a phone."""
    game_id = finished_bot_game(web_server.base, stock_size=3)
    table_id = httpx.get(f"{web_server.base}/api/games/{game_id}/positions").json()["tableId"]
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        page.goto(web_server.base + "/")
        page.click("button.lang[data-lang=de]")
        page.goto(f"{web_server.base}/t/{table_id}")
        page.wait_for_selector("#replay-link")
        assert "Dieser Tisch ist beendet." in page.inner_text("main")
        assert page.text_content("#status") == "Dieser Tisch ist beendet."
        assert english_words(page) == []
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


# ------------------------------------------------------------------ every page and dialog (issue 41)

GERMAN = vocabulary("de")
HEX = re.compile(r"[0-9a-f]*\d[0-9a-f]*")
"""A deal's fingerprint or commitment ("73f6…"): no word of any language."""

SHOWN_TEXT_JS = """() => {
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    // the notation view's codes and the fingerprint are no words; what is out of sight is not read
    if (!el || el.closest('code, script, style') || !el.checkVisibility()) continue;
    parts.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    // a card in flight is a copy in a layer no reader hears (aria-hidden), gone in a moment: the
    // language may change while it flies, the card it lands as is worded anew
    if (el.closest('code, [aria-hidden="true"]')) continue;
    for (const name of ['title', 'aria-label', 'placeholder']) parts.push(el.getAttribute(name) || '');
  }
  return parts.join(' ');
}"""


def not_german(page: Any, *names: str) -> list[str]:
    """Every word shown (text, title, tooltips, spoken names) that the German catalogue does not have:
    a leftover in English, or anything else not worded from ``de.json``. Names, numbers, card symbols
    and the fingerprint's hex digits are no words."""
    text = page.evaluate(SHOWN_TEXT_JS)
    tokens = [tok for tok in re.findall(r"\w+", text) if not HEX.fullmatch(tok)]
    return sorted({w for tok in tokens for w in WORD.findall(tok)
                   if w.lower() not in GERMAN | ALLOWED and w not in names})


def no_english_outside_the_glossary(page: Any) -> list[str]:
    """The rules' German prose lives in each game's rules-text.js (not the catalogue); its glossary names each term in
    English on purpose: everything else has no English word."""
    text = page.eval_on_selector_all(".rules > :not(#terms)", "els => els.map(e => e.innerText).join(' ')")
    return sorted({w for w in WORD.findall(text) if w.lower() in ENGLISH - BOTH_LANGUAGES})


BOTH_LANGUAGES = {"deck", "standard"}
"""Words German says as English does ("ein Standard-Kartendeck", "das Deck mischen")."""


@pytest.fixture(scope="module")
def reviewed_game(web_server: WebServer) -> int:
    """A finished game of two bots for the replay and its review, one for both sizes' walks: the
    server makes its review once and keeps it (what a review costs grows with the turns, hence the
    turn limit: seconds, whatever the deal)."""
    game_id = finished_bot_game(web_server.base, stock_size=3, turn_limit=12)
    # the review begun now (answered 202), so that it is made while the walk goes through the pages before it
    assert httpx.get(f"{web_server.base}/api/games/{game_id}/review?wait=false", timeout=30).status_code in (200, 202)
    return game_id


@pytest.mark.timeout(180)  # every page and dialog, a game played to its end
@SIZES
def test_every_page_and_dialog_says_only_german_words(web_server: WebServer, context: Any,
                                                      viewport: dict[str, int], reviewed_game: int) -> None:
    """The lobby with a refusal, a table for a friend, a game against the computer with its panel,
    fair-deal details, a hint and the game over with a declined rematch; the statistics, the rules,
    the replay and its review; Spit with a refusal, its game over and its replay: nothing shown that
    the German catalogue does not say."""
    assert {"cannot", "needs", "wins", "turn", "stock", "pile"} <= ENGLISH and "vorratsstapel" in GERMAN
    base = web_server.base
    spit_table = started_spit_game(base)  # for its replay at the end: the bots play it meanwhile
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(base + "/")
    open_more_options(page)
    page.click("button.lang[data-lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en' && document.querySelector('#create-table')")
    assert {"Create", "Refresh", "Your"} <= set(not_german(page))   # the check has teeth
    page.click("button.lang[data-lang=de]")
    assert not_german(page) == []

    # the lobby's refusal of options the deck cannot deal
    page.fill("#name", "Udo")
    page.select_option("#quick select[name=preset]", "party")
    page.fill("#quick input[name=stock_size]", "50")
    page.click("#quick-play")
    page.wait_for_function("() => document.querySelector('#quick .error').textContent")
    assert page.inner_text("#quick .error").startswith("3 Vorratsstapel mit je 50 Karten")
    assert not_german(page, "Udo") == []

    # a table for a friend, waiting with its link
    page.fill("#friend input[name=stock_size]", "3")
    page.click("#create-table")
    page.wait_for_selector(".table[data-status=open]")
    assert not_german(page, "Udo") == []

    # a game against the computer: the table, its side panel, the fair deal's details, a hint (stocks of
    # 2: at stocks of 1, five quick games in a row were once over before the person's first move in CI)
    start_quick_game(page, web_server, name="Udo", stock=2, level="random")
    assert not_german(page, "Udo") == []
    open_side_panel(page)
    assert not_german(page, "Udo") == []
    close_side_panel_on_a_phone(page)
    page.click("#fair-mark")
    page.wait_for_selector("#fair-details:not([hidden])")
    assert not_german(page, "Udo") == []
    page.click("#fair-mark")
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-move]")
    assert not_german(page, "Udo") == []
    for _ in bounded(400, "the game's end", until=lambda: not wait_for_turn(page)):
        play_one_move(page)
    page.wait_for_selector("#game-over #rematch-no")
    assert not_german(page, "Udo") == []
    page.click("#rematch-no")
    page.wait_for_selector("#rematch-declined")
    assert not_german(page, "Udo") == []

    # the statistics, the rules, a replay and its review
    game_id = reviewed_game
    for path in ("/stats", "/stats/Udo", "/stats/bot%3Aeasy"):
        page.goto(base + path)
        page.wait_for_selector('.stats-page[data-loaded="1"]')
        assert not_german(page, "Udo") == [], path
    for game in ("spite-malice", "spit"):
        page.goto(f"{base}/rules/{game}")
        page.wait_for_selector(f'.rules[data-game="{game}"][data-lang="de"]')
        assert no_english_outside_the_glossary(page) == [], game
    page.goto(f"{base}/replay/{game_id}")
    page.wait_for_selector(".table.replay")
    assert not_german(page) == []
    page.click("#review-open")
    page.wait_for_selector("#review[data-state=done]", timeout=240_000)
    page.click("#wp-bar .wp-turn >> nth=0")
    page.wait_for_selector("#review-turn")
    if page.locator("#review-better").count():
        page.click("#review-better")
    assert not_german(page) == []

    # Spit: the table with a refusal, its game over, its replay
    r = httpx.post(base + "/api/tables", json={
        "game": "spit", "name": "Udo", "options": {"time_limit_s": 4, "auto_spit_ms": 200, "auto_slap_ms": 300},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:3000"}]})
    assert r.status_code == 200, r.text
    open_seat(page, base, r.json()["table"]["id"], r.json()["token"], ready='.spit-table[data-phase="play"]')
    assert not_german(page, "Udo") == []
    tops = page.eval_on_selector_all('.me .sp-tableau .sp-pile[data-cards]:not([data-cards="0"])',
                                     "els => els.map(e => [e.dataset.place, e.dataset.targets || ''])")
    wrong = next(((p, c) for p, ts in tops for c in ("C1", "C2") if c not in ts.split()), None)
    if wrong is not None:
        page.keyboard.press(wrong[0][1:])
        page.keyboard.press({"C1": "q", "C2": "w"}[wrong[1]])
        page.wait_for_selector(".sp-verdict")
        assert not_german(page, "Udo") == []
    page.wait_for_selector("#game-over", timeout=60_000)
    assert not_german(page, "Udo") == []
    spit_id = finished_table(base, spit_table)["gameId"]
    page.goto(f"{base}/replay/{spit_id}")
    page.wait_for_selector(".spit-table.replay")
    assert not_german(page) == []
    # the browser's own note of the refused request (400) is the only one
    assert watch.errors == ["console.error: Failed to load resource: the server responded with a status of 400"
                            " (Bad Request)"], watch.errors
