"""The terminal app in German words refusals and hint reasons in German (issue 23), from the message
catalogue it shares with the browser page: the same keys, the same words. Locally and with
``--connect`` (the server's error frames carry their words)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import QuietLink, malice, run, wait_for_human

from spite import catalogue
from spite.cards import RANKS
from spite.malice.moves import rank_token
from spite.malice.tui.remote import WELCOME_EXAMPLE, RemoteMaliceTable
from spite.malice.tui.screen import RemoteMaliceScreen
from spite.malice.tui.session import sorted_hand
from spite.malice.tui.words import malice_card, malice_move_words
from spite.tui.app import SpiteApp, TuiConfig

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")


def vocabulary(lang: str) -> set[str]:
    words: set[str] = set()
    for entry in catalogue.catalogue(lang).values():
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            words |= {w.lower() for w in WORD.findall(catalogue.PLACEHOLDER.sub(" ", text))}
    return words


ENGLISH = vocabulary("en") - vocabulary("de")


def english(text: str) -> list[str]:
    return sorted({w for w in WORD.findall(text) if w.lower() in ENGLISH})


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_a_refusal_and_a_hint_reason_in_german(size: tuple[int, int]) -> None:
    config = TuiConfig(preset="short", seats="human,easy", seed=2, bot_delay=0, first=0, lang="de")
    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        await pilot.press("question_mark")
        decision = screen.table.hint()
        seen["hint"] = screen.message
        assert decision.why_phrases, "the hint bot gives its reason as catalogue phrases"
        view = screen.table.view(0)
        move = malice_move_words("de", decision.move, malice_card(view, decision.move))
        assert screen.message == f"Tipp: {move} — {catalogue.words('de', decision.why_phrases)}"
        # a hand card where it does not fit: the engine's reason, worded from the catalogue
        view = screen.table.view(0)
        legal = {m.text for m in view.legal_moves}
        for slot, card in enumerate(sorted_hand(view)):
            token = "H" + rank_token(RANKS[card], False)
            bad = [b for b in range(4) if f"{token}-B{b + 1}" not in legal]
            if bad and RANKS[card] != 13:
                await pilot.press(str(slot + 1), "b", str(bad[0] + 1))
                seen["refusal"] = screen.message
                seen["screen"] = " ".join(app.screen_text().split())
                break

    run(config, body, size=size)
    assert seen["hint"].startswith("Tipp: ") and english(seen["hint"]) == [], seen["hint"]
    refusal = seen["refusal"]
    assert re.fullmatch(r"Nicht erlaubt: (ein|eine) \S+ passt nicht auf Mittelstapel \d, "
                        r"er braucht (ein|eine|einen) \S+", refusal), refusal
    assert english(refusal) == []
    assert refusal[:50] in seen["screen"]


def test_the_servers_refusal_in_german_over_connect() -> None:
    """``--connect`` in German: the server's error frame is worded from its words; a frame with an
    unknown key (a newer server) shows the server's English line."""
    link = QuietLink(dict(WELCOME_EXAMPLE))
    remote = RemoteMaliceTable.from_welcome(link, dict(WELCOME_EXAMPLE))
    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = next(s for s in app.screen_stack if isinstance(s, RemoteMaliceScreen))
        link.receive({"type": "error", "code": "illegal", "id": "m1", "stateVersion": 0,
                      "message": "your stock card 7S cannot go on build pile 2, it needs an Ace",
                      "words": {"key": "refuse.needs.stock", "params": {"card": "7S", "pile": 2, "need": "A"}}})
        seen["known"] = screen.message
        link.receive({"type": "error", "code": "illegal", "id": "m2", "stateVersion": 0,
                      "message": "a rule of a newer server", "words": {"key": "refuse.newer", "params": {}}})
        seen["unknown"] = screen.message
        link.receive({"type": "error", "code": "not-your-turn", "id": "m3", "stateVersion": 0,
                      "message": "it is seat 1's turn", "words": {"key": "error.not-your-turn.seat",
                                                                  "params": {"seat": 1}}})
        seen["seat"] = screen.message

    run(TuiConfig(remote=remote, lang="de"), body)
    assert seen["known"] == "Nicht erlaubt: deine Vorratskarte 7♠ passt nicht auf Mittelstapel 2, er braucht ein Ass"
    assert seen["unknown"] == "Nicht erlaubt: a rule of a newer server"
    assert seen["seat"].startswith("Nicht erlaubt: P2") and seen["seat"].endswith("ist am Zug"), seen["seat"]


def test_every_word_of_the_screen_is_in_the_shared_catalogue() -> None:
    """The terminal app has no words of its own any more: every key it asks for by name is in the
    catalogue (``tui.KEY`` or a key shared with the page), and none is left in ``_TEXTS``."""
    from spite.tui import i18n

    assert i18n._TEXTS == {}, "run python tools/move_i18n_keys.py"
    asked: set[str] = set()
    package = Path(catalogue.__file__).parent
    for path in [*(package / "tui").glob("*.py"), *package.glob("*/tui/*.py")]:  # the shell's and each family's
        asked |= set(re.findall(r'\b(?:tr\([\w.]+, |has_text\()"([\w.-]+)"[,)]', path.read_text(encoding="utf-8")))
    assert len(asked) > 50
    assert sorted(k for k in asked if not i18n.has_text(k)) == []
    for lang in ("en", "de"):
        assert i18n.tr(lang, "pick_source", sources="S", undo="") != "pick_source"


def test_the_start_screen_and_the_table_in_german_words() -> None:
    """Issue 41: the start screen is worded anew when German is picked (presets and levels as the page
    names them, its error from the catalogue, ``Strg+S`` in its footer); the table then names the
    preset and the computer level in German, and its footer's keys too."""
    from textual.widgets import Input, Select
    from tui_helpers import type_keys, wait_for

    from spite.tui.app import StartScreen

    config = TuiConfig(start_screen=True, seed=1, bot_delay=0, first=0)
    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, StartScreen)
        seen["english"] = " ".join(app.screen_text().split())
        app.screen.query_one("#start-lang", Select).value = "de"
        await wait_for(pilot, lambda: "Variante" in app.screen_text())
        seen["german"] = " ".join(app.screen_text().split())
        app.screen.query_one("#start-seats", Input).value = "Mensch,Zauberer"
        await type_keys(pilot, "ctrl+s")
        seen["error"] = " ".join(app.screen_text().split())
        app.screen.query_one("#start-preset", Select).value = "short"
        app.screen.query_one("#start-seats", Input).value = "Mensch,Experte"
        await type_keys(pilot, "ctrl+s")
        await wait_for(pilot, lambda: app.game_screen is not None)
        await wait_for_human(pilot, app)
        await pilot.pause()
        seen["table"] = app.screen_text()

    run(config, body)
    assert "classic" in seen["english"] and "Ctrl+S Start" in seen["english"] and "^s" not in seen["english"]
    assert "human, easy, medium, hard, expert" in seen["english"]
    german = seen["german"]
    assert "klassisch" in german and "Mensch,mittel" in german and "Strg+S Los" in german, german
    assert "Mensch, leicht, mittel, schwer, Experte" in german and english(german.replace("Spite and Malice", "")) == []
    assert "„Zauberer“ ist kein Spieler: Mensch oder eine Computerstufe" in seen["error"], seen["error"]
    table = seen["table"]
    head = table.splitlines()[0]
    assert "· kurz ·" in head and "short" not in table, head
    assert "P2 (Experte)" in table and "expert" not in table
    footer = table.splitlines()[-1]
    assert "? Tipp" in footer and "U Zurück" in footer and "Q Beenden" in footer, footer


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_the_real_time_footers_name_their_keys_in_words(game: str) -> None:
    """``Space``/``Leertaste`` in the footers, not Textual's ``space``."""
    seen: dict[str, str] = {}
    for lang in ("en", "de"):
        async def body(app: SpiteApp, pilot: Pilot[Any], lang: str = lang) -> None:
            await pilot.pause()
            seen[lang] = app.screen_text().splitlines()[-1]

        run(TuiConfig(game=game, seats="human,easy", seed=1, tick_seconds=60, lang=lang), body)
    assert "Space Spit" in seen["en"] and "Leertaste Spit" in seen["de"], seen
    assert "space" not in seen["en"] + seen["de"]
    if game == "spit":
        assert "S Slap" in seen["en"] and "S Abschlagen" in seen["de"], seen


NOTATION = re.compile(r"\b(?:H(?:10|[2-9AJQKX])|S|D\d)-[BD]\d\b")
"""A Spite and Malice move in the records' notation (``H7-B2``, ``S-B1``, ``D3-B1``)."""


def test_the_log_and_the_hint_in_german_words_and_notation_on_request() -> None:
    """Issue 41: the log says who played which card from where to where, in German words from the
    catalogue ("P2 (leicht): 9♥ aus dem Blatt auf Ablagestapel 1"); the hint names its move the same
    way. ``L`` shows the records' notation instead (and back)."""
    from tui_helpers import as_one_line, region_text, type_keys

    from spite.malice.tui.words import malice_words

    config = TuiConfig(preset="short", seats="human,easy", seed=4, bot_delay=0, first=1, lang="de")
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        seen["log"] = as_one_line(region_text(app, "#log"))
        seen["entries"] = screen.table.game_log()
        await pilot.press("question_mark")
        seen["hint"] = screen.message
        await type_keys(pilot, "l")
        seen["notation"] = as_one_line(region_text(app, "#log"))
        seen["hint_notation"] = screen.table.hint().move.text
        await type_keys(pilot, "l")
        seen["again"] = as_one_line(region_text(app, "#log"))

    run(config, body, size=(120, 40))
    entries = seen["entries"]
    assert entries and all(e.seat == 1 for e in entries)
    log = seen["log"]
    for e in entries:
        line = f"P2 (leicht): {malice_words('de', e.move, e.card)}"
        assert line in log, (line, log)
    assert "aus dem Blatt auf Ablagestapel" in log and NOTATION.search(log) is None, log
    assert english(log.replace("P2", "")) == [], log
    assert seen["hint"].startswith("Tipp: ") and NOTATION.search(seen["hint"]) is None, seen["hint"]
    assert "1 P2: " + " ".join(e.move for e in entries) in seen["notation"], seen["notation"]
    assert seen["again"] == log


def test_a_servers_moves_in_german_words() -> None:
    """``--connect``: the move sent waits on the prompt line in words, and the server's moves are logged in
    words with the card the position after them shows (no server: the test hands the link its messages)."""
    from tui_helpers import as_one_line, region_text, type_keys

    link = QuietLink(dict(WELCOME_EXAMPLE))
    remote = RemoteMaliceTable.from_welcome(link, dict(WELCOME_EXAMPLE))
    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await type_keys(pilot, "s", "b", "1")
        assert [m["move"] for m in link.sent if m.get("type") == "move"] == ["S-B1"]
        seen["waiting"] = " ".join(app.screen_text().split())
        view = json.loads(json.dumps(WELCOME_EXAMPLE["view"]))
        view["builds"][0] = {"value": 1, "cards": 1, "top": "AS"}
        view["players"][0]["stock"], view["players"][0]["stock_top"] = 2, ["5D"]
        link.receive({"type": "ack", "id": link.sent[-1]["id"], "move": "S-B1", "stateVersion": 1})
        link.receive({"type": "state", "stateVersion": 1, "view": view, "legal": ["H2-B1"],
                      "last": {"seat": 0, "move": "S-B1"}})
        await pilot.pause()
        seen["log"] = as_one_line(region_text(app, "#log"))

    run(TuiConfig(remote=remote, lang="de"), body)
    waiting = "A♠ vom Vorratsstapel auf Mittelstapel 1 gesendet, warte auf den Server …"
    assert waiting in seen["waiting"], seen["waiting"]
    assert seen["log"] == "P1 (du): A♠ vom Vorratsstapel auf Mittelstapel 1", seen["log"]
