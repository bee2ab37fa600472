"""Reflex bots: specs, the reaction model, strategy from the seed's tips, views only."""

from __future__ import annotations

import random
import statistics

import pytest
from sim_helpers import exact_bot, shuffle_hidden_speed, shuffle_hidden_spit, spit_deal, spit_state

from spite.errors import OptionsError
from spite.spit import SpeedState, SpeedView, SpitOptions, SpitState, SpitView, new_game
from spite.spit.bots import LEVELS, Reaction, ReflexBot, make_reflex_bot, reflex_bot_names

# ---------------------------------------------------------------------- specs


@pytest.mark.parametrize(("spec", "mean"), [("beginner", 1500), ("club", 700), ("expert", 350),
                                            ("reflex:420", 420), ("Reflex: 99.5", 99.5), ("EXPERT", 350)])
def test_specs(spec: str, mean: float) -> None:
    bot = make_reflex_bot(spec)
    assert bot.reaction.mean_ms == mean


def test_reflex_spec_keeps_the_expert_strategy() -> None:
    bot = make_reflex_bot("reflex:900")
    assert bot.strategy == LEVELS["expert"].strategy
    assert bot.reaction.sigma == LEVELS["expert"].reaction.sigma
    assert reflex_bot_names() == ["easy", "medium", "hard", "expert", "beginner", "club", "reflex:MS"]


@pytest.mark.parametrize(("spec", "words"), [
    ("grandmaster", "unknown Spit bot 'grandmaster'"),
    ("", "unknown Spit bot"),
    ("reflex", "reflex needs a mean reaction in ms"),
    ("reflex:", "MS must be a number"),
    ("reflex:fast", "MS must be a number"),
    ("reflex:0", "between|must be 1 to 60000"),
    ("reflex:-5", "must be 1 to 60000"),
    ("reflex:nan", "must be 1 to 60000"),
    ("reflex:1e9", "must be 1 to 60000"),
    ("expert:3", "unknown Spit bot 'expert:3'"),
])
def test_bad_specs(spec: str, words: str) -> None:
    with pytest.raises(OptionsError, match=words):
        make_reflex_bot(spec)


def test_bad_spec_type() -> None:
    with pytest.raises(OptionsError, match="named by a text"):
        make_reflex_bot(350)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- reaction model


@pytest.mark.parametrize("level", ["beginner", "club", "expert"])
def test_delay_mean_and_jitter(level: str) -> None:
    r = LEVELS[level].reaction
    rng = random.Random(5)
    draws = [r.draw(rng) for _ in range(6000)]
    assert abs(statistics.fmean(draws) / r.mean_ms - 1) < 0.03
    assert statistics.pstdev(draws) > 0.15 * r.mean_ms  # jitter
    slow = [r.draw(rng, r.flip_factor) for _ in range(6000)]
    assert statistics.fmean(slow) > 1.2 * statistics.fmean(draws)


def test_levels_are_ordered() -> None:
    means = [LEVELS[n].reaction.mean_ms for n in ("beginner", "club", "expert")]
    assert means == sorted(means, reverse=True)


def test_no_jitter_is_exact() -> None:
    r = Reaction(mean_ms=300, sigma=0)
    assert {r.draw(random.Random(k)) for k in range(5)} == {300}
    assert r.draw(random.Random(0), 1.5) == 450


def test_slower_after_a_flip() -> None:
    """The first card of the game (after the opening flip) takes flip_factor times longer; the
    next one, after the bot's own play, the plain mean."""
    state = new_game("spit", seed=2)
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    plan = bot.plan(state.view(0), 0, random.Random(1))
    assert plan == (round(300 * bot.reaction.flip_factor), "T5-C1")
    t, move = plan
    state.apply(0, move, t)
    bot.outcome(move, True, "", t)
    nxt = bot.plan(state.view(0), t, random.Random(1))
    assert nxt is not None and nxt[0] == t + 300


# ---------------------------------------------------------------------- only views


def _plans(state: SpitState | SpeedState, seat: int, spec: str = "expert", k: int = 7) -> list[object]:
    out = []
    for r in range(k):
        bot = make_reflex_bot(spec)
        bot.start_game(state.options, seat)
        out.append(bot.plan(state.view(seat), state.now, random.Random(r)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_spit_plan_ignores_hidden_cards(seed: int) -> None:
    """Reshuffling the other seat's face-down cards changes neither seat 0's view nor its plan,
    at the start or after a few moves of seat 0."""
    a = new_game("spit", seed=seed)
    deal_b = shuffle_hidden_spit(a.start_deal, 1, random.Random(seed + 100))
    assert deal_b != a.start_deal
    b = SpitState.new(a.options, seed=seed, deal=deal_b)
    t = 0
    for _ in range(4):
        assert a.view(0) == b.view(0)
        assert _plans(a, 0) == _plans(b, 0)
        moves = [m for m in a.legal_moves(0) if m != "spit"]
        if not moves:
            break
        t += 250
        a.apply(0, moves[0], t)
        b.apply(0, moves[0], t)


@pytest.mark.parametrize("seed", range(4))
def test_speed_plan_ignores_hidden_cards(seed: int) -> None:
    a = new_game("speed", seed=seed)
    b = SpeedState.new(a.options, seed=seed, deal=shuffle_hidden_speed(a.start_deal, 1, random.Random(seed)))
    assert a.view(0) == b.view(0)
    assert a.view(0).players[1].hand is None
    assert _plans(a, 0) == _plans(b, 0)


def test_simulator_hands_bots_views_only() -> None:
    from spite.spit.sim import simulate

    seen: list[object] = []

    class Spy(ReflexBot):
        def plan(self, view, now_ms, rng):  # type: ignore[no-untyped-def]
            seen.append((type(view), view.seat, self.seat))
            return super().plan(view, now_ms, rng)

    for game in ("spit", "speed"):
        seen.clear()
        expert = LEVELS["expert"]
        bots = (Spy(expert.reaction, expert.strategy), Spy(expert.reaction, expert.strategy))
        res = simulate(game, bots=bots, seed=3)
        assert res.finished
        assert seen and all(kind in (SpitView, SpeedView) and v == s for kind, v, s in seen)
        assert {s for _, _, s in seen} == {0, 1}


# ---------------------------------------------------------------------- strategy


def test_reveal_first_biggest_pile_first() -> None:
    state = new_game("spit", seed=2)
    assert state.legal_moves(0) == ["T1-C1", "T3-C2", "T5-C1"]
    for level in ("club", "expert"):
        plans = _plans(state, 0, level, k=10)
        assert {p[1] for p in plans if p is not None} == {"T5-C1"}  # type: ignore[index]


def test_spit_at_once_when_stuck() -> None:
    # seat 0: 9D (no fit on 6S or KC); seat 1: 9H; both have spit cards: the table is stuck
    deal = spit_deal([["9D"], ["9H"]], ["2C 6S", "KC"])
    state = spit_state(deal)
    assert state.stuck and state.legal_moves(0) == ["spit"]
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    assert bot.plan(state.view(0), 0, random.Random(0)) == (round(300 * bot.reaction.spit_factor), "spit")


def test_empty_slot_uncovers_the_biggest_pile() -> None:
    # seat 0 cannot play (tops 9D, 10C), has empty slots 3-5 and piles of 2 and 3 cards;
    # seat 1 can play 7D on 6S, so the table is not stuck
    deal = spit_deal([["2C 9D", "3C 4C 10C"], ["7D"]], ["6S", "KC"])
    state = spit_state(deal)
    assert not state.stuck
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    plan = bot.plan(state.view(0), 0, random.Random(0))
    assert plan is not None and plan[1] == "T2-T3"


@pytest.mark.parametrize("rest", ["spit1", "centers"])
def test_slap_the_smaller_pile(rest: str) -> None:
    deal = spit_deal([["5H"], ["9H"]], ["6S", "2D KC"], rest=rest)
    state = spit_state(deal)
    state.apply(0, "T1-C1", 500)
    assert state.phase == "slap" and state.round_winner == 0
    sizes = [len(c) for c in state.centers]
    smaller = f"slap C{sizes.index(min(sizes)) + 1}"
    for r in range(5):
        bot = make_reflex_bot("expert")
        bot.start_game(state.options, 0)
        plan = bot.plan(state.view(0), 500, random.Random(r))
        assert plan is not None and plan[1] == smaller
        other = make_reflex_bot("expert")
        other.start_game(state.options, 1)
        assert other.plan(state.view(1), 500, random.Random(r)) is None


def test_speed_bot_plays_from_its_hand() -> None:
    state = new_game("speed", seed=4)
    legal = state.legal_moves(0)
    plans = _plans(state, 0, "expert", k=5)
    for p in plans:
        assert p is None if not legal else p[1] in legal  # type: ignore[index]


# ---------------------------------------------------------------------- intentions


def _race_state() -> SpitState:
    # C1 shows 6S, C2 KC; seat 0 holds 5H, seat 1 holds 7D: both fit center 1 only
    return spit_state(spit_deal([["5H", "2C 9D"], ["7D", "3C 9H"]], ["6S", "KC"]))


def test_intention_kept_while_it_makes_sense() -> None:
    state = _race_state()
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    first = bot.plan(state.view(0), 0, random.Random(0))
    assert first == (390, "T1-C1")
    assert bot.plan(state.view(0), 10, random.Random(9)) == first  # nothing changed: same intention


def test_uncommitted_intention_dropped_when_the_pile_moves() -> None:
    state = _race_state()
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    assert bot.plan(state.view(0), 0, random.Random(0)) == (390, "T1-C1")
    state.apply(1, "T1-C1", 100)  # the opponent covers 6S with 7D before seat 0's hand moves
    again = bot.plan(state.view(0), 100, random.Random(0))
    assert again != (390, "T1-C1")


def test_committed_intention_is_carried_out() -> None:
    state = _race_state()
    bot = exact_bot(300)
    bot.start_game(state.options, 0)
    assert bot.plan(state.view(0), 0, random.Random(0)) == (390, "T1-C1")
    state.apply(1, "T1-C1", 300)  # too late to stop: the hand is already moving (last 35%)
    assert bot.plan(state.view(0), 300, random.Random(0)) == (390, "T1-C1")
    bot.outcome("T1-C1", False, "too late", 390)
    assert bot.intent is None


def test_start_game_checks_the_seat() -> None:
    with pytest.raises(OptionsError, match="no seat"):
        make_reflex_bot("club").start_game(SpitOptions.from_preset("spit"), 2)


# ---------------------------------------------------------------------- the terminal app's opponent


def test_tick_opponent_plays_a_whole_game() -> None:
    from spite.spit.bots import TUI_LEVELS, make_tui_opponent

    assert set(TUI_LEVELS) == {"easy", "medium", "hard", "expert"}
    with pytest.raises(OptionsError):
        make_tui_opponent("godlike")
    state = new_game("spit", seed=5)
    opponents = [make_tui_opponent("expert", seed=1), make_tui_opponent("easy", seed=2)]
    for t in range(0, 3_600_000, 50):
        state.advance(t)
        for seat in (0, 1):
            if state.finished:
                break
            move = opponents[seat].act(state.view(seat), t)
            if move is not None:
                try:
                    state.apply(seat, move, t)
                except Exception as exc:  # a lost race
                    assert "too late" in str(exc) or "does not fit" in str(exc) or "not stuck" in str(exc)
        if state.finished:
            break
    assert state.finished and state.result is not None
