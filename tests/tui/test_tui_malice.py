"""The Spite and Malice screen driven by keys through Textual's pilot."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import (
    as_one_line,
    check_table_and_log,
    keyed_move,
    keys_for,
    malice,
    region_text,
    run,
    type_keys,
    wait_for,
    wait_for_human,
)

from spite.bots import make_bot
from spite.cards import RANKS, TOKENS
from spite.malice import BUILD, DISCARD, HAND, STOCK, Options, State
from spite.malice.moves import rank_token
from spite.malice.tui.screen import PassScreen, SummaryScreen
from spite.malice.tui.session import sorted_hand
from spite.malice.tui.words import malice_card, malice_move_words, malice_words
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.render import card_label
from waiting import bounded


def test_whole_game_against_a_bot_by_keys() -> None:
    """A short game to the end: every human move is typed (source key, target key)."""
    config = TuiConfig(preset="short", options={"stock_size": 5}, seats="human,easy", seed=23, bot_delay=0)
    chooser = make_bot("medium")
    rng = random.Random(0)
    typed: list[str] = []

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        human = screen.table.humans[0]
        chooser.start_game(screen.table.opts, human)
        for _ in range(400):
            await wait_for_human(pilot, app)
            if screen.table.state.is_over:
                break
            view = screen.table.view(human)
            move = chooser.decide(view, rng).move
            plies = screen.table.state.plies
            await type_keys(pilot, *keys_for(view, move, screen.hand_slots(view)))
            assert screen.table.state.plies > plies, (move, screen.message)
            typed.append(keyed_move(view, move, screen.hand_slots(view)).text)
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
        text = app.screen_text()
        assert "Game over" in text
        assert "wins" in text or "draw" in text.lower()
        state = screen.table.state
        assert state.is_over and state.result is not None
        human_moves = [e.move for e in screen.table.log if e.seat == human]
        assert human_moves == typed
        await pilot.press("q")

    run(config, body)


def test_hot_seat_hides_hands_between_turns() -> None:
    config = TuiConfig(preset="short", seats="human,human", seed=4, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        first = screen.table.to_move
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        assert screen.shown is None
        cover = app.screen_text()
        assert "Pass the keyboard" in cover and "P" + str(first + 1) in cover
        assert "Hand" not in cover and "Stock" not in cover  # nothing of the table shows
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.waiting_for_human)
        assert screen.shown == first
        view = screen.table.view(first)
        # end the turn with a discard typed by keys
        move = next(m for m in view.legal_moves if m.kind != BUILD)
        await pilot.press(*keys_for(view, move))
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        assert screen.table.to_move != first
        assert screen.shown is None  # nobody's hand is on screen behind the cover
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.shown == screen.table.to_move)
        assert screen.bottom == screen.table.to_move

    run(config, body)


def _seed_with(predicate: Any, preset: str = "short") -> int:
    opts = Options.from_preset(preset)
    for seed in range(500):
        state = State.new(opts, seed, first=0)
        if predicate(state):
            return seed
    raise AssertionError("no seed found")


def _hand_build(state: State) -> Any:
    return next((m for m in state.legal_moves() if m.kind == BUILD and m.source == HAND), None)


def test_undo_inside_a_turn() -> None:
    """A hand build play is taken back; after the turn ends nothing can be undone."""
    seed = _seed_with(lambda s: _hand_build(s) is not None and
                      not any(m.source == STOCK and m.kind == BUILD for m in s.legal_moves()))
    config = TuiConfig(preset="short", seats="human,human", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        table = screen.table
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.waiting_for_human)
        before = (list(table.state.hands[0]), [list(b) for b in table.state.builds])
        view = table.view(0)
        move = _hand_build(table.state)
        await pilot.press(*keys_for(view, move))
        assert table.log[-1].move == keyed_move(view, move).text
        assert table.can_undo()
        await pilot.press("u")
        assert (list(table.state.hands[0]), [list(b) for b in table.state.builds]) == before
        taken = next(c for c in sorted_hand(view) if RANKS[c] == move.rank)  # the card under the key pressed
        assert f"Took back {card_label(taken)} from the hand onto build pile {move.target + 1}" in app.screen_text()
        assert not table.can_undo()
        await pilot.press("u")
        assert "Nothing to undo" in app.screen_text()
        # a discard ends the turn: the next player cannot take anything back
        view = table.view(0)
        end = next(m for m in view.legal_moves if m.kind != BUILD)
        await pilot.press(*keys_for(view, end))
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.waiting_for_human)
        plies = table.state.plies
        await pilot.press("u")
        assert table.state.plies == plies

    run(config, body)


def test_no_undo_after_the_stock_card_is_played() -> None:
    seed = _seed_with(lambda s: any(m.source == STOCK and m.kind == BUILD for m in s.legal_moves()))
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        table = screen.table
        await wait_for(pilot, lambda: screen.waiting_for_human)
        move = next(m for m in table.state.legal_moves() if m.source == STOCK and m.kind == BUILD)
        await pilot.press(*keys_for(table.view(0), move))
        assert table.log[-1].move == keyed_move(table.view(0), move).text
        plies = table.state.plies
        await pilot.press("u")
        assert table.state.plies == plies
        assert "Nothing to undo" in app.screen_text()

    run(config, body)


def test_mouse_click_source_then_target_and_highlights() -> None:
    seed = _seed_with(lambda s: _hand_build(s) is not None)
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        table = screen.table
        await wait_for(pilot, lambda: screen.waiting_for_human)
        view = table.view(0)
        move = _hand_build(table.state)
        keys = keys_for(view, move)
        await pilot.click(f"#H{int(keys[0]) - 1}")
        assert screen.source == ("H", int(keys[0]) - 1)
        target = screen.query_one(f"#B{move.target}")
        assert target.has_class("-target")
        assert "→" in str(target.border_title)
        await pilot.press("escape")
        assert screen.source is None and not target.has_class("-target")
        await pilot.click(f"#H{int(keys[0]) - 1}")
        await pilot.click(f"#B{move.target}")
        assert table.log[-1].move == keyed_move(view, move).text

    run(config, body)


def test_hint_and_illegal_target_message() -> None:
    config = TuiConfig(preset="short", seats="human,easy", seed=2, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        await pilot.press("question_mark")
        hint = screen.table.hint().move
        view = screen.table.view(0)
        assert screen.message.startswith(f"Hint: {malice_move_words('en', hint, malice_card(view, hint))} — ")
        # the stock onto a (still empty) discard pile is no move: the engine's reason is shown (or, when
        # the stock card fits nowhere, it is not even picked)
        await pilot.press("s")
        if any(m.source == STOCK for m in screen.table.view(0).legal_moves):
            await pilot.press("d", "1")
            assert "Not allowed" in screen.message and "only hand cards" in screen.message
        else:
            assert "cannot be played now" in screen.message and screen.source is None
        # a hand card where it does not fit
        view = screen.table.view(0)
        legal = {m.text for m in view.legal_moves}
        for slot, card in enumerate(sorted_hand(view)):
            token = "H" + rank_token(RANKS[card], False)
            bad = [b for b in range(4) if f"{token}-B{b + 1}" not in legal]
            if bad:
                await pilot.press(str(slot + 1), "b", str(bad[0] + 1))
                assert f"cannot go on build pile {bad[0] + 1}" in screen.message
                assert f"cannot go on build pile {bad[0] + 1}" in app.screen_text()
                break
        else:
            raise AssertionError("every card fits everywhere")

    run(config, body)


def test_german_labels() -> None:
    config = TuiConfig(preset="classic", seats="human,easy", seed=5, bot_delay=0, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await wait_for_human(pilot, app)
        text = app.screen_text()
        for word in ("Vorratsstapel", "Mittelstapel", "Ablagestapel", "Blatt", "Nachziehstapel", "Tipp", "Zug"):
            assert word in text, word
        await pilot.press("1")
        assert "wohin?" in app.screen_text()

    run(config, body)


def test_layout_80x24_shows_counts_piles_and_hand() -> None:
    """A snapshot-style check of the regions of an 80×24 screen."""
    config = TuiConfig(preset="short", seats="human,easy", seed=9, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        lines = app.screen_text().splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        text = "\n".join(lines)
        view = screen.table.view(0)
        me, other = 0, 1
        assert f"Stock {view.stock_sizes[other]}:" in lines[1]  # the opponent's line
        build_rows = [line for line in lines if "B1" in line]
        assert build_rows and all(f"B{b}" in build_rows[0] for b in range(1, 5))
        assert "Draw pile" in build_rows[0]
        stock_box = next(i for i, line in enumerate(lines) if "─ S " in line)
        assert f" {view.stock_sizes[me]} " in lines[stock_box + 2]
        hand_row = next(i for i, line in enumerate(lines) if "─ 1 " in line)
        from spite.malice.tui.session import sorted_hand
        from spite.tui.render import card_label
        for card in sorted_hand(view):
            assert card_label(card) in lines[hand_row + 1] or card_label(card) + "★" in lines[hand_row + 1]
        # only what may be played now: at the start the discard piles are empty, so no D keys
        stock = "S stock, " if any(m.source == STOCK for m in view.legal_moves) else ""
        assert f"Pick a card: {stock}1-5 hand · ? hint" in text and "D1-D4 discard" not in text
        svg = app.export_screenshot()
        assert svg.startswith("<svg")

    run(config, body)


def test_match_score_and_next_game() -> None:
    """The match preset scores: the head shows the match score, the summary offers the next game."""
    config = TuiConfig(preset="match", options={"stock_size": 2, "match_target": 100}, seats="easy,easy",
                       seed=3, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        assert re.search(r"Match \d+:\d+ \(to 100\)", app.screen_text())
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
        text = app.screen_text()
        assert "Match " in text and "N next game" in text
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.table.games == 2)
        assert screen.table.match is not None and len(screen.table.match.results) >= 1
        assert sum(screen.table.match.scores) > 0 or screen.table.match.results[0].winner is None

    run(config, body)


def test_large_terminal_fans_discards_and_shows_the_log() -> None:
    """At 120×40 the cards grow, discard piles show every card (up to 8), the log is a side panel."""
    config = TuiConfig(preset="short", seats="human,easy", seed=23, bot_delay=0)
    chooser = make_bot("medium")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        assert screen.has_class("-large") and screen.has_class("-wide")
        chooser.start_game(screen.table.opts, 0)
        rng = random.Random(1)
        for _ in bounded(200, "the 8th turn", until=lambda: screen.table.state.turn >= 8 or screen.table.state.is_over):
            await wait_for_human(pilot, app)
            if screen.table.state.is_over:
                break
            view = screen.table.view(0)
            await type_keys(pilot, *keys_for(view, chooser.decide(view, rng).move, screen.hand_slots(view)))
        await wait_for_human(pilot, app)
        text = app.screen_text()
        lines = text.splitlines()
        assert len(lines) == 40
        log = region_text(app, "#log")
        assert log[0].strip() == "Log" and "P1 (you): " in as_one_line(log) and "P2 (easy): " in as_one_line(log)
        view = screen.table.view(0)
        deep = [pile for pile in view.discards[0] if len(pile) > 1]
        if deep:
            from spite.tui.render import card_label
            labels = [card_label(c) for c in deep[0]]
            assert all(any(label in line for line in lines) for label in labels)

    run(config, body, size=(120, 40))


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
def test_the_table_and_the_log_share_the_terminal(size: tuple[int, int]) -> None:
    """Issue 41: two bots play a game to its end. Below 112 columns the log is under the table, from
    there a panel beside it that takes every column the table does not need (at 200×50 no empty strip
    between them, and a move in words fits one line); on the final table the log ends with the last
    move, in words, and with ``L`` in notation."""
    config = TuiConfig(preset="short", seats="easy,hard", seed=2, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), rounds=20000)
        await pilot.press("escape")
        await pilot.pause()
        last = screen.table.log[-1]
        log = check_table_and_log(app, "#log")
        words = f"{screen.seat_name(last.seat)}: {malice_words('en', last.move, last.card)}"
        assert as_one_line(log).endswith(words), (log, words)
        if size[0] >= 112:
            assert log[0] == "Log"
        if size[0] >= 160:
            assert log[-1] == words and not any(line.startswith("  ") for line in log)  # nothing wrapped
        else:
            assert len(log) >= 4
        # L: the log in notation, by turns
        await type_keys(pilot, "l")
        log = as_one_line(region_text(app, "#log"))
        assert f"{last.turn} P{last.seat + 1}:" in log, log
        assert log.endswith(last.move), log

    run(config, body, size=size)


def _plan_seed() -> int:
    """A deal where the first player can build two hand cards in a row from the hand (to B1 and on)."""
    opts = Options.from_preset("short")
    for seed in range(2000):
        state = State.new(opts, seed, first=0)
        hand = sorted(state.hands[0], key=lambda c: (RANKS[c], c))
        first = next((m for m in state.legal_moves() if m.kind == BUILD and m.source == HAND
                      and RANKS[hand[0]] == m.rank), None)
        if first is None or len({RANKS[c] for c in hand}) < 5:
            continue
        state.play(first)
        if len(state.hands[0]) == 4 and any(m.kind == BUILD and m.source == HAND for m in state.legal_moves()):
            return seed
    raise AssertionError("no seed found")


def test_hand_keys_stay_put_for_the_whole_turn() -> None:
    """After a hand card is played its key stays empty and every other card keeps its key, so a plan
    typed ahead plays the cards it named."""
    config = TuiConfig(preset="short", seats="human,easy", seed=_plan_seed(), bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        view = screen.table.view(0)
        before = sorted_hand(view)
        move = next(m for m in view.legal_moves if m.kind == BUILD and m.source == HAND and m.rank == RANKS[before[0]])
        await type_keys(pilot, "1", "b", str(move.target + 1))
        assert screen.table.log[-1].move == keyed_move(view, move).text
        # key 1 is empty now; keys 2-5 still show the cards they showed
        from spite.tui.render import card_label
        assert screen.hand_slots(screen.table.view(0)) == [None, *before[1:]]
        assert screen.query_one("#H0").has_class("-hidden")
        for i, card in enumerate(before[1:], start=1):
            assert card_label(card) in str(screen.query_one(f"#H{i}").render())
        # key 1 now names nothing: pressing it picks nothing
        await type_keys(pilot, "1")
        assert screen.source is None
        # key 2 still plays the card it showed at the start of the turn
        view = screen.table.view(0)
        nxt = next(m for m in view.legal_moves if m.source == HAND)
        slot = next(i for i, c in enumerate(before) if RANKS[c] == nxt.rank)
        target = "b" if nxt.kind == BUILD else "d"
        await type_keys(pilot, str(slot + 1), target, str(nxt.target + 1))
        assert screen.table.log[-1].move == keyed_move(view, nxt, before).text

    run(config, body)


def test_a_card_that_cannot_move_is_not_picked() -> None:
    """The stock's card with nowhere to go: the line says so, nothing is picked, the next key is a new source."""
    seed = _seed_with(lambda s: not any(m.source == STOCK for m in s.legal_moves()) and _hand_build(s) is not None)
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        await type_keys(pilot, "s")
        assert "cannot be played now" in app.screen_text()
        assert screen.source is None and "●" not in str(screen.query_one("#S").border_title)
        view = screen.table.view(0)
        move = _hand_build(screen.table.state)
        await type_keys(pilot, *keys_for(view, move))
        assert screen.table.log[-1].move == keyed_move(view, move).text

    run(config, body)


def test_q_asks_before_quitting_a_game_in_progress() -> None:
    config = TuiConfig(preset="short", seats="human,easy", seed=2, bot_delay=0, first=0, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        await pilot.press("q")
        assert "Dieses Spiel beenden? J ja" in app.screen_text()
        await pilot.press("n")  # no: play on, the question is gone
        assert app.is_running and "beenden?" not in app.screen_text()
        assert screen.waiting_for_human
        await pilot.press("q", "j")
        await pilot.pause()
        assert not app.is_running

    run(config, body)


def test_refusals_use_the_screens_names_and_suit_symbols() -> None:
    """A stock card that fits one build pile but not another: the refusal shows it as on the table (Q♣, not QC)."""
    config = TuiConfig(preset="short", seats="human,easy", seed=7, bot_delay=0, first=0)
    chooser = make_bot("medium")
    rng = random.Random(3)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        table = screen.table
        chooser.start_game(table.opts, 0)
        for _ in range(600):
            await wait_for_human(pilot, app)
            assert not table.state.is_over, "no position found"
            view = table.view(0)
            fits = {m.target for m in view.legal_moves if m.source == STOCK and m.kind == BUILD}
            if fits and len(fits) < 4:
                break
            await type_keys(pilot, *keys_for(view, chooser.decide(view, rng).move, screen.hand_slots(view)))
        from spite.cards import TOKENS
        from spite.tui.render import card_label
        top = view.stock_tops[0][-1]
        wrong = next(b for b in range(4) if b not in fits)
        await type_keys(pilot, "s", "b", str(wrong + 1))
        text = app.screen_text()
        assert f"your stock card {card_label(top)} cannot go on build pile {wrong + 1}" in " ".join(text.split())
        assert TOKENS[top] not in screen.message

    run(config, body)


def test_the_prompt_offers_only_what_is_legal_now() -> None:
    """No build pile is offered for a card that fits none, nor the stock when it cannot move."""
    seed = _seed_with(lambda s: not any(m.source == STOCK for m in s.legal_moves()) and _hand_build(s) is not None)
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        view = screen.table.view(0)
        text = " ".join(app.screen_text().split())
        assert "Pick a card: 1-5 hand · ? hint" in text and "S stock" not in text and "U undo" not in text
        hand = sorted_hand(view)
        builds = {m.rank: m for m in view.legal_moves if m.kind == BUILD and m.source == HAND}
        stuck = next(i for i, c in enumerate(hand) if RANKS[c] not in builds)
        await type_keys(pilot, str(stuck + 1))
        text = " ".join(app.screen_text().split())
        assert "→ where? D1-D4 discard (ends the turn) · Esc cancel" in text and "build" not in text
        await type_keys(pilot, "escape")
        move = _hand_build(screen.table.state)
        slot = next(i for i, c in enumerate(hand) if RANKS[c] == move.rank)
        await type_keys(pilot, str(slot + 1))
        targets = sorted(m.target + 1 for m in view.legal_moves if m.kind == BUILD and m.rank == move.rank)
        text = " ".join(app.screen_text().split())
        assert f"B{targets[0]}" in text.split("→ where?")[1].split("build")[0]
        assert all(f"B{b}" not in text.split("→ where?")[1].split("build")[0] for b in range(1, 5) if b not in targets)
        await type_keys(pilot, "b", str(move.target + 1))
        assert " · U undo" in " ".join(app.screen_text().split()) or not screen.table.can_undo()

    run(config, body)


def test_below_80x24_a_notice_instead_of_a_cut_off_table() -> None:
    """At 60×18 the screen says how big the terminal must be (in German too); at 80×24 the table is back."""
    config = TuiConfig(preset="short", seats="human,easy", seed=9, bot_delay=0, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await wait_for_human(pilot, app)
        text = " ".join(app.screen_text().split())
        assert "Bitte das Terminal auf 80×24 vergrößern, um den Tisch zu sehen (jetzt 60×18)." in text
        assert "Vorratsstapel" not in text and "─ B1" not in app.screen_text()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = app.screen_text()
        assert "vergrößern" not in text and "─ B1" in text and "Vorratsstapel" in text

    run(config, body, size=(60, 18))


def test_summary_says_1_stock_card_in_the_singular() -> None:
    """One-card stocks: whoever plays theirs first wins, the other has 1 stock card left, and the summary says so."""
    config = TuiConfig(preset="short", options={"stock_size": 1}, seats="easy,easy", seed=5, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), rounds=20000)
        text = app.screen_text()
        assert "1 stock card left" in text and "1 stock cards" not in text

    run(config, body)


def _twins_seed() -> tuple[int, int, int]:
    """A deal whose first player holds two cards of one rank that may be built, the rank form taking (the
    first it holds) the one the screen sorts second: ``(seed, card the rank form takes, card it leaves)``."""
    opts = Options.from_preset("short")
    for seed in range(3000):
        state = State.new(opts, seed, first=0)
        hand = state.hands[0]
        for move in state.legal_moves():
            if move.kind != BUILD or move.source != HAND:
                continue
            twins = [c for c in hand if RANKS[c] == move.rank]
            if len(twins) == 2 and twins[0] != twins[1] and twins[0] > twins[1]:
                return seed, twins[0], twins[1]
    raise AssertionError("no seed found")


def test_a_hand_card_keeps_its_key_from_turn_to_turn() -> None:
    """Issue 41 and 48: the card under the key pressed is the card that moves, even when the rank form
    (``H7-B1``) would take the other card of its rank; the other card stays under its key; and the next
    turn does not deal the keys out anew: the cards still held keep theirs, the drawn ones take the
    empty keys."""
    seed, first_held, picked = _twins_seed()
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        view = screen.table.view(0)
        keys = screen.hand_slots(view)
        pressed, other = keys.index(picked), keys.index(first_held)
        assert pressed < other  # sorted by rank, then by card: the rank form's card is shown second
        move = next(m for m in view.legal_moves if m.kind == BUILD and m.source == HAND and m.rank == RANKS[picked])
        await type_keys(pilot, str(pressed + 1), "b", str(move.target + 1))
        assert screen.table.view(0).builds[move.target][-1] == picked  # the card pressed, not the first held
        assert screen.table.log[-1].move == f"H{TOKENS[picked]}-B{move.target + 1}"
        assert card_label(picked) in screen.log_texts()[-1]
        after = screen.hand_slots(screen.table.view(0))
        assert after[pressed] is None and after[other] == first_held
        assert [c for k, c in enumerate(after) if k not in (pressed, other)] == \
               [c for k, c in enumerate(keys) if k not in (pressed, other)]
        assert card_label(first_held) in str(screen.query_one(f"#H{other}").render())
        # end the turn with a discard, let the bot play, and look at the keys of the next turn
        view = screen.table.view(0)
        discard = next(m for m in view.legal_moves if m.kind == DISCARD)
        await type_keys(pilot, *keys_for(view, discard, screen.hand_slots(view)))
        kept = list(screen.hand_slots(screen.table.view(0)))
        await wait_for_human(pilot, app)
        if screen.table.state.is_over:
            return
        again = screen.hand_slots(screen.table.view(0))
        assert all(again[k] == c for k, c in enumerate(kept) if c is not None), (kept, again)
        assert None not in again[:5] and sorted(c for c in again if c is not None) == \
               sorted(screen.table.view(0).hand or ())

    run(config, body)


def _triplets_seed() -> tuple[int, list[int]]:
    """A deal whose first player holds three different cards of one rank (not aces: they may be
    discarded): ``(seed, the three cards in hand order)``."""
    opts = Options.from_preset("short")
    for seed in range(5000):
        hand = State.new(opts, seed, first=0).hands[0]
        for rank in range(2, 14):
            same = [c for c in hand if RANKS[c] == rank]
            if len(same) == 3 and len(set(same)) == 3:
                return seed, same
    raise AssertionError("no seed found")


@pytest.mark.parametrize("which", [0, 1, 2])
def test_of_three_cards_of_one_rank_the_key_pressed_discards_that_card(which: int) -> None:
    """Three cards of one rank under three keys: each key discards its own card (by keys and by a click on
    the card), and the log and the discard pile show it."""
    seed, same = _triplets_seed()
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        view = screen.table.view(0)
        slots = screen.hand_slots(view)
        card = sorted(same)[which]
        key = slots.index(card)
        if which == 1:  # a click on the card, then on the discard pile's key
            await pilot.click(f"#H{key}")
            await type_keys(pilot, "d", "2")
        else:
            await type_keys(pilot, str(key + 1), "d", "2")
        entry = next(e for e in reversed(screen.table.log) if e.seat == 0)
        assert entry.move == f"H{TOKENS[card]}-D2" and entry.card == card
        assert screen.table.state.discards[0][1] == (card,)
        assert card_label(card) in screen.log_texts()[screen.table.log.index(entry)]

    run(config, body)
