"""Spit against a bot in real time, played by keys, on a virtual clock."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import FakeClock, check_table_and_log, past_the_countdown, region_text, run, type_keys

from spite.cards import RANK_TOKENS, RANKS
from spite.server.config import ServerConfig
from spite.spit import SLAPPING
from spite.spit.tui.screen import FACE_DOWN, SpitScreen
from spite.spit.tui.session import START_COUNTDOWN_S
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.render import card_label


def spit_screen(app: SpiteApp) -> SpitScreen:
    screen = app.game_screen
    assert isinstance(screen, SpitScreen)
    return screen


def test_a_spit_round_against_a_bot_by_keys() -> None:
    """Keys 1-5 then Q/W play on the centers, Space calls spit, S slaps; the bot plays on its timer."""
    clock = FakeClock()
    config = TuiConfig(game="spit", seats="human,easy", seed=21, clock=clock, tick_seconds=60)
    pressed: set[str] = set()

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        table = screen.table
        for _ in range(3000):
            clock.now += 0.25
            screen.tick()
            view = table.view()
            if view.phase == SLAPPING and view.round_winner == 0:
                await type_keys(pilot, "s")
                pressed.add("s")
            elif view.phase == SLAPPING or view.round > 1 or table.over:
                if table.state.round > 1 or table.over:
                    break
                continue
            plays = [m for m in view.legal if "-C" in m]
            if plays:
                pile, center = int(plays[0][1]), int(plays[0][-1])
                moves_before = len(table.events)
                await type_keys(pilot, str(pile), "qwe"[center - 1])
                pressed.add("play")
                assert len(table.events) > moves_before or "Not allowed" in screen.message
            elif "spit" in view.legal:
                await type_keys(pilot, "space")
                pressed.add("space")
        assert table.state.round > 1 or table.over
        kinds = {e.kind for e in table.events}
        assert "round-won" in kinds and "flip" in kinds
        mine = [e.text for e in table.events if e.kind == "move" and e.seat == 0 and not e.auto]
        assert any(m.startswith("T") for m in mine)
        assert any(e.kind == "move" and e.seat == 1 for e in table.events)  # the bot played too
        assert "play" in pressed

    run(config, body)


def test_spit_layout_in_german_and_cancel() -> None:
    clock = FakeClock()
    config = TuiConfig(game="spit", seats="human,medium", seed=4, clock=clock, tick_seconds=60, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        await pilot.pause()
        text = app.screen_text()
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        assert "Runde 1" in text and "Leertaste" in text
        for key in ("─ 1 ", "─ 5 ", "─ Q ", "─ W "):
            assert key in text, key
        await past_the_countdown(pilot, clock)
        await type_keys(pilot, "1")
        assert screen.source == 0
        await type_keys(pilot, "escape")
        assert screen.source is None
        # a card onto a center where it does not fit: the engine's reason
        view = screen.table.view()
        bad = next(((i, j) for i in range(5) for j in range(2)
                    if view.players[0].tableau[i].cards and f"T{i + 1}-C{j + 1}" not in view.legal), None)
        if bad is not None:
            await type_keys(pilot, str(bad[0] + 1), "qw"[bad[1]])
            assert "Nicht erlaubt" in screen.message

    run(config, body)


def test_spit_slot_move_by_keys_and_click() -> None:
    """T1 is played out, then 5 then 1 moves pile 5's top card into the empty slot."""
    clock = FakeClock()
    config = TuiConfig(game="spit", seats="human,easy", seed=2, clock=clock, tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        await past_the_countdown(pilot, clock)
        assert "T1-C1" in screen.table.view().legal
        await type_keys(pilot, "1", "q")
        assert screen.table.view().players[0].tableau[0].cards == 0
        await type_keys(pilot, "5")
        assert screen.query_one("#T0").has_class("-target")  # the empty slot is a legal target
        await pilot.click("#T0")
        mine = [e.text for e in screen.table.events if e.kind == "move" and e.seat == 0]
        assert mine == ["T1-C1", "T5-T1"]
        assert screen.table.view().players[0].tableau[0].cards == 1

    run(config, body)


def _play_spit_to_the_end(lang: str) -> str:
    """The person plays whatever fits (by the screen's own move path) until the game ends; the screen's text."""
    clock = FakeClock()
    config = TuiConfig(game="spit", seats="human,expert", seed=3, clock=clock, tick_seconds=60, lang=lang)
    seen: list[str] = []

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        for _ in range(5000):
            clock.now += 0.3
            screen.tick()
            if screen.table.over:
                break
            legal = screen.table.view().legal
            move = next((m for m in legal if "-C" in m), None) or next(
                (m for m in legal if m == "spit" or m.startswith("slap")), None)
            if move is not None:
                screen.try_move(move)
        assert screen.table.over
        await pilot.pause()
        seen.append(app.screen_text())

    run(config, body)
    return seen[0]


def test_spit_game_over_is_worded_once() -> None:
    """The end names the winner and the reason in words, on one line, not the record's ``out-of-cards``."""
    text = _play_spit_to_the_end("en")
    assert "out-of-cards" not in text
    assert text.count("Game over: P1 (you) wins (out of cards)") == 1
    text = _play_spit_to_the_end("de")
    assert "out-of-cards" not in text and text.count("Spielende: P1 (du) gewinnt (keine Karten mehr)") == 1


def test_spit_below_80x24_says_to_enlarge_the_terminal() -> None:
    config = TuiConfig(game="spit", seats="human,medium", seed=4, clock=FakeClock(), tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await pilot.pause()
        text = " ".join(app.screen_text().split())
        assert "Enlarge the terminal to 80×24 to see the table (it is 79×24 now)." in text
        assert "Centers" not in text

    run(config, body, size=(79, 24))


def _center_row(text: str, label: str) -> str:
    """The screen's line with the center piles' cards (the one that carries the row's label)."""
    return next(line for line in text.splitlines() if line.lstrip().startswith(label))


@pytest.mark.parametrize(("game", "lang"), [("spit", "en"), ("speed", "de")])
def test_a_new_game_counts_down_before_play(game: str, lang: str) -> None:
    """Issue 41: "one, two, three — spit!" as at a server's table, for the server's 3 s: the clock stands
    at 0, the center cards lie face down, a key is refused with the time left and the bot waits; then
    "Spit!", the centers turn up and the keys play."""
    assert START_COUNTDOWN_S == ServerConfig().start_countdown == 3.0
    assert TuiConfig().countdown is None  # the game's own: START_COUNTDOWN_S
    clock = FakeClock()
    config = TuiConfig(game=game, seats="human,expert", seed=3, clock=clock, tick_seconds=60, lang=lang)
    ready = {"en": "Ready… the game starts in {s}", "de": "Achtung… das Spiel beginnt in {s}"}[lang]
    refused = {"en": "Not allowed: the game starts in {s} s", "de": "Nicht erlaubt: das Spiel beginnt in {s} s"}[lang]
    centers = {"en": "Centers", "de": "Mitte"}[lang]

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        table = screen.table
        await pilot.pause()
        faces = [card_label(pile[-1]) for pile in table.state.centers]
        for left in (3, 2, 1):
            screen.tick()
            await pilot.pause()
            text = app.screen_text()
            assert ready.format(s=left) in text, text
            assert " 0.0 s " in text.splitlines()[0]
            row = _center_row(text, centers)
            assert row.count(FACE_DOWN) == 2 and not any(face in row for face in faces), row
            await type_keys(pilot, "1", "q")
            assert screen.message == refused.format(s=left)
            clock.now += 1.0 if left > 1 else 0.95
        screen.tick()
        assert table.events == [] and table.state.now == 0  # nobody played: the expert bot waited too
        clock.now += 0.05  # 3 s after the deal
        screen.tick()
        await pilot.pause()
        text = app.screen_text()
        assert "Spit!" in text and ready.format(s=1) not in text
        row = _center_row(text, centers)
        assert FACE_DOWN not in row and all(face in row for face in faces), row
        clock.now += 1.0
        screen.tick()
        assert "Spit!" not in app.screen_text()  # said once, for a moment
        legal = [m for m in table.view().legal if "-C" in m]
        if legal:
            before = len(table.events)
            if game == "spit":
                await type_keys(pilot, legal[0][1], "qw"[int(legal[0][-1]) - 1])
            else:
                rank = legal[0][1:legal[0].index("-")]
                slot = next(i for i, c in enumerate(screen.slots) if c is not None and RANK_TOKENS[RANKS[c]] == rank)
                await type_keys(pilot, str(slot + 1), "qw"[int(legal[0][-1]) - 1])
            assert len(table.events) > before, screen.message

    run(config, body)


def test_a_servers_countdown_is_shown_as_a_local_one() -> None:
    """At a server's Spit table (no server here: the test hands the link the welcome) the clock's
    ``startsIn`` counts down the same way: face-down centers, the time left, no move sent."""
    from tui_helpers import QuietLink

    from spite.spit.tui.remote import SPIT_WELCOME_EXAMPLE, RemoteSpitTable

    clock = FakeClock()
    welcome = {**SPIT_WELCOME_EXAMPLE, "legal": [],
               "view": {**SPIT_WELCOME_EXAMPLE["view"], "centers": [{"top": None, "cards": 1}] * 2},
               "game": {"clock": {**SPIT_WELCOME_EXAMPLE["game"]["clock"], "startsIn": 3000}}}
    link = QuietLink(welcome)
    table = RemoteSpitTable.from_welcome(link, welcome)
    table.clock = clock
    table.received_at = clock()

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        screen.tick()
        await pilot.pause()
        text = app.screen_text()
        assert "Ready… the game starts in 3" in text and _center_row(text, "Centers").count(FACE_DOWN) == 2
        clock.now += 1.2
        screen.tick()
        assert "Ready… the game starts in 2" in app.screen_text()
        await type_keys(pilot, "1", "q")
        assert screen.message == "Not allowed: the game starts in 2 s"
        assert not [m for m in link.sent if m.get("type") == "move"]
        assert table.now_ms() == 0

    run(TuiConfig(remote=table, clock=clock, tick_seconds=60), body)


def test_the_spit_log_in_words_and_in_notation() -> None:
    """Issue 41: the log says who played which card from where (the card as the catalogue words it),
    the spit calls and the flips, a line each; ``L`` shows the records' notation instead."""
    clock = FakeClock()
    config = TuiConfig(game="spit", seats="human,medium", seed=3, clock=clock, tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        table = screen.table
        await past_the_countdown(pilot, clock)
        played: list[tuple[str, int]] = []
        for _ in range(400):
            clock.now += 0.25
            screen.tick()
            view = table.view()
            plays = [m for m in view.legal if "-C" in m]
            if plays:
                card = view.players[0].tableau[int(plays[0][1]) - 1].top
                assert card is not None
                await type_keys(pilot, plays[0][1], "qw"[int(plays[0][-1]) - 1])
                played.append((plays[0], card))
            elif "spit" in view.legal:
                await type_keys(pilot, "space")
            if len(played) >= 2 and any(e.kind == "flip" for e in table.events):
                break
        await pilot.pause()
        move, card = played[-1]
        log = check_table_and_log(app, "#spit-log")
        words = f"P1 (you): {card_label(card)} from tableau pile {move[1]} onto center pile {move[-1]}"
        lines = screen.log_texts()
        assert words in lines
        assert any(line.startswith("Spit! turned up ") and " on center pile " in line for line in lines), lines
        assert any(line.startswith("P2 (medium): ") for line in lines), lines
        assert not any(re.search(r"\bT\d-C\d\b", line) for line in lines), lines
        assert log == [line for line in lines[-len(log):]]  # the newest lines, one a line
        await type_keys(pilot, "l")
        assert f"P1 {move}" in screen.log_texts()
        assert check_table_and_log(app, "#spit-log")[-1] == screen.log_texts()[-1]

    run(config, body)


def test_a_servers_spit_moves_in_words() -> None:
    """At a server's table the move sent waits in words, and the moves the server reports are logged in
    words with the card the position after them shows (no server here: the test hands the link its
    messages)."""
    from tui_helpers import QuietLink

    from spite.spit.tui.remote import SPIT_WELCOME_EXAMPLE, RemoteSpitTable

    clock = FakeClock()
    link = QuietLink(SPIT_WELCOME_EXAMPLE)
    table = RemoteSpitTable.from_welcome(link, SPIT_WELCOME_EXAMPLE)
    table.clock = clock

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        await type_keys(pilot, "1", "q")
        assert [m["move"] for m in link.sent if m.get("type") == "move"] == ["T1-C1"]
        assert "sent 4♠ from tableau pile 1 onto center pile 1 …" in app.screen_text()
        view = {**SPIT_WELCOME_EXAMPLE["view"], "centers": [{"top": "4S", "cards": 2}, {"top": "9C", "cards": 1}]}
        link.receive({"type": "ack", "move": "T1-C1", "game": {"t": 120}, "stateVersion": 2})
        link.receive({"type": "state", "stateVersion": 2, "view": view, "legal": [],
                      "game": {"clock": {**SPIT_WELCOME_EXAMPLE["game"]["clock"], "now": 120},
                               "events": [{"t": 120, "kind": "move", "seat": 1, "text": "T1-C1"}]}})
        screen.tick()
        await pilot.pause()
        assert "P1 (you): 4♠ from tableau pile 1 onto center pile 1" in region_text(app, "#spit-log")

    run(TuiConfig(remote=table, clock=clock, tick_seconds=60), body)


@pytest.mark.parametrize("game", ["spit", "speed"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
def test_the_real_time_table_and_its_log_share_the_terminal(game: str, size: tuple[int, int]) -> None:
    """Issue 41: under the table the log fills the lines down to the footer; from 112 columns it is a
    panel beside the table that takes every column the table does not need (no empty strip between),
    its newest line always in view."""
    clock = FakeClock()
    config = TuiConfig(game=game, seats="human,medium", seed=3, clock=clock, tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = spit_screen(app)
        await past_the_countdown(pilot, clock)
        for _ in range(60):
            clock.now += 0.25
            screen.tick()
            legal = [m for m in screen.table.view().legal if "-C" in m or m == "spit"]
            if legal:
                screen.try_move(legal[0])
        await pilot.pause()
        log = check_table_and_log(app, "#spit-log")
        lines = screen.log_texts()
        assert len(lines) >= 8
        if size[0] >= 112:
            assert log[0] == "Log"
        if size[0] >= 160:
            assert log[-1] == lines[-1] and not any(line.startswith("  ") for line in log)  # nothing wrapped
        else:
            assert " ".join(lines[-1].split()) in " ".join(" ".join(log).split())
        if size == (80, 24):
            assert log == lines[-len(log):] and len(log) >= 5  # the lines left under the table

    run(config, body, size=size)
