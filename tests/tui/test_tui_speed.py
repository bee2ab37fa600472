"""Speed against a bot in the terminal, played by keys on a virtual clock, at 120×40, 80×24 and 60×18."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import FakeClock, past_the_countdown, run, type_keys

from spite.cards import RANK_TOKENS, RANKS
from spite.spit.tui.session import TimedOpponent
from spite.spit.tui.speed_screen import SpeedScreen, hand_move
from spite.tui.app import SpiteApp, TuiConfig, check_config, tui_games
from spite.tui.render import card_label


def speed_screen(app: SpiteApp) -> SpeedScreen:
    screen = app.game_screen
    assert isinstance(screen, SpeedScreen), screen
    return screen


def keys_of(screen: SpeedScreen, move: str) -> list[str]:
    """The keys of a Speed move on the screen: ``H7-C2`` → the key of a 7 in the hand, then ``w``."""
    if move == "spit":
        return ["space"]
    rank = move[1:move.index("-")]
    slot = next(i for i, c in enumerate(screen.slots) if c is not None and RANK_TOKENS[RANKS[c]] == rank)
    return [str(slot + 1), "qw"[int(move[-1]) - 1]]


def test_speed_is_offered_and_checked_like_spit() -> None:
    assert "speed" in tui_games()
    check_config(TuiConfig(game="speed", seats="human,hard"))
    with pytest.raises(Exception, match="human,LEVEL"):
        check_config(TuiConfig(game="speed", seats="easy,hard"))


def test_a_speed_game_to_the_end_by_keys_at_120x40() -> None:
    """Digits then Q/W play hand cards, Space calls spit when stuck; the bot plays; the end is worded once."""
    clock = FakeClock()
    config = TuiConfig(game="speed", seats="human,easy", seed=5, clock=clock, tick_seconds=60)
    pressed: set[str] = set()
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = speed_screen(app)
        table = screen.table
        await pilot.pause()
        for _ in range(6000):
            clock.now += 0.25
            screen.tick()
            if table.over:
                break
            legal = screen.speed_view().legal
            plays = [m for m in legal if "-C" in m]
            if plays:
                before = list(screen.slots)
                keys = keys_of(screen, plays[0])
                played = before[int(keys[0]) - 1]
                moves = len(table.events)
                await type_keys(pilot, *keys)
                assert len(table.events) > moves, screen.message
                pressed.add("play")
                # one card of that rank left the hand (Speed names a rank: the engine plays the first 7 it
                # holds), and every other card kept its key; the card drawn took the freed key
                after = screen.slots
                changed = [k for k, (a, b) in enumerate(zip(before, after, strict=True)) if a is not None and a != b]
                assert len(changed) == 1 and RANKS[before[changed[0]] or 0] == RANKS[played or 0], (before, after)
            elif "spit" in legal:
                await type_keys(pilot, "space")
                pressed.add("space")
        assert table.over
        await pilot.pause()
        seen["text"] = app.screen_text()
        seen["events"] = list(table.events)

    run(config, body, size=(120, 40))
    text = seen["text"]
    assert "play" in pressed
    mine = [e.text for e in seen["events"] if e.kind == "move" and e.seat == 0 and not e.auto]
    assert mine and all(m.startswith("H") or m == "spit" for m in mine)
    assert any(e.kind == "move" and e.seat == 1 for e in seen["events"])  # the bot played too
    assert any(e.kind == "flip" for e in seen["events"])
    assert "out-of-cards" not in text
    assert text.count("Game over: ") == 1 and "wins (out of cards)" in text


def test_speed_layout_at_80x24_in_german_pick_and_refusal() -> None:
    clock = FakeClock()
    config = TuiConfig(game="speed", seats="human,medium", seed=4, clock=clock, tick_seconds=60, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = speed_screen(app)
        await past_the_countdown(pilot, clock)
        text = app.screen_text()
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        assert "Speed" in text and "Leertaste" in text and "Nachz." in text and "Seite" in text
        for key in ("─ 1 ", "─ 5 ", "─ Q ", "─ W "):
            assert key in text, key
        assert "─ S" not in text.replace("─ Seite", "")  # no slap key in Speed
        assert "Abschlagen" not in text
        view = screen.speed_view()
        assert view.players[0].hand is not None and view.players[1].hand is None
        assert text.count("▒▒▒") == view.players[1].hand_size  # the bot's hand: backs only
        legal = view.legal
        playable = {i for i, c in enumerate(screen.slots) if c is not None
                    and any(f"H{RANK_TOKENS[RANKS[c]]}-C{j}" in legal for j in (1, 2))}
        # a card that fits: picked, the centers it fits on marked; Esc drops it
        good = min(playable)
        await type_keys(pilot, str(good + 1))
        assert screen.source == good and "gewählt" in app.screen_text()
        assert any(screen.query_one(f"#C{j}").has_class("-target") for j in (0, 1))
        await type_keys(pilot, "escape")
        assert screen.source is None
        # a card that fits nowhere is not picked, and the screen says so
        bad = next((i for i in range(5) if i not in playable and screen.slots[i] is not None), None)
        if bad is not None:
            await type_keys(pilot, str(bad + 1))
            assert screen.source is None and "kann jetzt nicht gespielt werden" in screen.message
        # a click picks a card too
        await pilot.click(f"#H{good}")
        assert screen.source == good

    run(config, body)


def test_speed_below_80x24_says_to_enlarge_the_terminal() -> None:
    config = TuiConfig(game="speed", seats="human,medium", seed=4, clock=FakeClock(), tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await pilot.pause()
        text = " ".join(app.screen_text().split())
        assert "Enlarge the terminal to 80×24 to see the table (it is 60×18 now)." in text
        assert "Centers" not in text

    run(config, body, size=(60, 18))


def test_a_speed_spectator_sees_backs_only() -> None:
    """Watching a server's Speed table (no server here: the link keeps retrying): both hands are
    backs, the side piles are worked out from the counts, and no key plays."""
    from spite.spit.tui.remote import SPEED_WELCOME_EXAMPLE, RemoteSpeedTable
    from spite.tui.link import TableLink

    welcome = {**SPEED_WELCOME_EXAMPLE, "seat": None,
               "view": {**SPEED_WELCOME_EXAMPLE["view"],
                        "players": [{**p, "hand": None} for p in SPEED_WELCOME_EXAMPLE["view"]["players"]]}}
    table = RemoteSpeedTable.from_welcome(TableLink("http://127.0.0.1:9", "v7", None), welcome)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await pilot.pause()
        text = app.screen_text()
        assert text.count("▒▒▒") == 10 and "4♠" not in text
        assert [p.side for p in table.view().players] == [5, 5]
        await type_keys(pilot, "1", "q")
        assert table.pending is None and not table.acked

    run(TuiConfig(remote=table), body)


def _twins_seed() -> tuple[int, int, int]:
    """A Speed deal whose first hand holds two cards of one rank, one of which fits a center at once:
    ``(seed, the card the engine plays, the card it leaves)``."""
    from spite.spit.tui.session import SpitTable

    for seed in range(3000):
        table = SpitTable(seed=seed, game="speed", level="easy", opponent=TimedOpponent("easy"))
        hand = table.state.hands[0]
        for move in table.state.view(0).legal:
            twins = [c for c in hand if RANK_TOKENS[RANKS[c]] == move[1:move.index("-")]]
            if len(twins) == 2:
                return seed, twins[0], twins[1]
    raise AssertionError("no seed found")


def test_two_cards_of_one_rank_keep_their_keys() -> None:
    """Issue 41: the card under a key stays there while it is in the hand, so two 7s never swap keys:
    pressing the 7 the engine does not play (a move names a rank) frees the other 7's key, and the
    pressed one stays under its own."""
    seed, played, kept = _twins_seed()
    clock = FakeClock()
    config = TuiConfig(game="speed", seats="human,easy", seed=seed, clock=clock, tick_seconds=60)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = speed_screen(app)
        await past_the_countdown(pilot, clock)
        before = list(screen.slots)
        pressed, freed = before.index(kept), before.index(played)
        center = next(j for j in range(2) if hand_move(kept, j) in screen.speed_view().legal)
        await type_keys(pilot, str(pressed + 1), "qw"[center])
        after = list(screen.slots)
        assert screen.speed_view().centers[center].top == played  # the engine played its first 7
        assert after[pressed] == kept and after[freed] != played, (before, after)
        assert all(after[k] == c for k, c in enumerate(before) if k != freed)
        assert card_label(kept) in str(screen.query_one(f"#H{pressed}").render())

    run(config, body)


def test_the_speed_log_in_german_words() -> None:
    """Issue 41: a card played by keys is logged in German words from the catalogue, the card as the
    page words it (a Queen is a "D", Dame): "P1 (du): D♥ aus der Hand auf Mittelstapel 1"."""
    from tui_helpers import region_text

    from spite import catalogue
    from spite.cards import TOKENS

    clock = FakeClock()
    config = TuiConfig(game="speed", seats="human,easy", seed=4, clock=clock, tick_seconds=60, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = speed_screen(app)
        await past_the_countdown(pilot, clock)
        move = next(m for m in screen.speed_view().legal if "-C" in m)
        keys = keys_of(screen, move)
        card = screen.slots[int(keys[0]) - 1]
        assert card is not None
        await type_keys(pilot, *keys)
        name = catalogue.text("de", "tui.card", card=TOKENS[card])
        log = region_text(app, "#spit-log")
        assert f"P1 (du): {name} aus der Hand auf Mittelstapel {move[-1]}" in log, log
        assert move not in " ".join(log)

    run(config, body)
