"""Game review (``spite.review``, ``spite review``): what a person reads from it, and that it only
ever looks at the reviewed seat's view."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import spite.malice.review as review_malice
from helpers import hidden_reshuffled
from spite.bots import make_bot
from spite.cli import app
from spite.games import Record, get_game
from spite.malice import Options, SeatView, State
from spite.malice.record import record_from_state, replay_malice
from spite.malice.review.bench import play_game
from spite.malice.review.winprob import race_model
from spite.records import dump_record
from spite.review import BLUNDER, INACCURACY, Review, accuracy, review_record
from waiting import bounded

pytestmark = pytest.mark.timeout(300)
"""A review plays out thousands of rollouts a turn: tens of seconds a game, minutes on a busy machine."""

BUDGET = 0.05
"""Small: the tests check what the review says, not how finely it searched."""

runner = CliRunner()


def play(specs: list[str], preset: str, seed: int, **options: Any) -> State:
    return play_game(specs, Options.from_preset(preset, options or None), seed)


@cache
def short_game() -> Record:
    """A short finished game of the heuristic against greedy (stocks of 2 cards: 25 moves; each test
    that reviews it spends about a third of a second a turn)."""
    return record_from_state(play(["heuristic", "greedy"], "short", 1, stock_size=2), "short")


@cache
def short_review() -> Review:
    return review_record(short_game(), budget=BUDGET, seed=3)


def write(tmp_path: Path, record: Record | dict[str, Any], name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(dump_record(record) if isinstance(record, Record) else json.dumps(record))
    return str(path)


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------------- what the review says
def test_every_turn_is_reviewed_in_order_with_the_moves_played() -> None:
    record, review = short_game(), short_review()
    moves = [m for m in record.moves if isinstance(m, str)]
    assert [m for t in review.turns for m in t.played] == moves  # every move, once, in order
    assert [t.turn for t in review.turns] == list(range(1, len(review.turns) + 1))
    for turn in review.turns:
        assert moves[turn.ply: turn.ply + len(turn.played)] == turn.played
        assert all(0.0 <= d.win_after <= d.win_before <= 1.0 for d in turn.decisions)
        assert turn.win_before == turn.decisions[0].win_before and turn.win_after == turn.decisions[-1].win_after
        assert turn.loss == pytest.approx(sum(d.loss for d in turn.decisions))
        assert turn.best  # expert always has a plan to show
        assert turn.mark == ("blunder" if turn.loss >= BLUNDER else "inaccuracy" if turn.loss >= INACCURACY else None)
    last = review.turns[-1]
    winner = record.result["winner"] if record.result else None
    assert last.win_after == (1.0 if last.seat == winner else 0.0)  # the game ended on this turn


def test_a_turn_splits_where_the_seat_learned_a_card() -> None:
    """A stock play turns up a card the seat could not see: it plans again there."""
    review = short_review()
    split = [t for t in review.turns if len(t.decisions) > 1]
    assert split
    ends = [d.played[-1] for turn in split for d in turn.decisions[:-1]]
    assert all("-B" in move for move in ends)  # a build play: the turn went on
    assert any(move.startswith("S-") for move in ends)
    for turn in review.turns:  # a turn ends with a discard or a pass, or the game ends
        assert "-D" in turn.played[-1] or turn.played[-1] == "pass" or turn is review.turns[-1]


def test_the_summary_gives_accuracy_and_the_three_costliest_turns() -> None:
    review = short_review()
    for seat in (0, 1):
        summary = review.summary(seat)
        mine = [t for t in review.turns if t.seat == seat]
        assert summary.turns == len(mine)
        assert summary.accuracy == pytest.approx(sum(accuracy(t.loss) for t in mine) / len(mine), abs=0.05)
        costly = sorted((t.loss for t in mine if t.loss > 0), reverse=True)[:3]
        assert [t.loss for t in summary.costliest] == costly
        assert summary.blunders == sum(t.mark == "blunder" for t in mine)


def test_the_same_seed_gives_the_same_review() -> None:
    again = review_record(short_game(), budget=BUDGET, seed=3)
    assert again.to_json() == short_review().to_json()


def test_one_seat_and_progress() -> None:
    calls: list[tuple[int, int]] = []
    review = review_record(short_game(), seats=[1], budget=BUDGET, seed=3,
                           progress=lambda done, total: calls.append((done, total)))
    assert review.seats == [1] and all(t.seat == 1 for t in review.turns)
    assert calls == [(k, len(review.turns)) for k in range(1, len(review.turns) + 1)]
    # a turn's review does not depend on which other seats are reviewed
    full = {t.turn: t.to_json() for t in short_review().turns}
    assert all(t.to_json() == full[t.turn] for t in review.turns)


def test_worker_processes_give_the_same_review() -> None:
    calls: list[tuple[int, int]] = []
    review = review_record(short_game(), budget=BUDGET, seed=3, jobs=2,
                           progress=lambda done, total: calls.append((done, total)))
    assert review.to_json() == short_review().to_json()
    assert calls == [(k, len(review.turns)) for k in range(1, len(review.turns) + 1)]


def test_the_json_is_one_documented_object() -> None:
    data = json.loads(json.dumps(short_review().to_json()))
    assert data["format"] == "spite-review/1" and data["game"] == "spite-malice" and data["preset"] == "short"
    assert data["seats"] == [0, 1] and data["players"] == 2 and data["sides"] == 2 and data["seed"] == 3
    assert data["thresholds"] == {"inaccuracy": INACCURACY, "blunder": BLUNDER}
    turn = data["turns"][0]
    assert set(turn) == {"turn", "seat", "ply", "played", "best", "best_ply", "win_before", "win_after", "loss",
                         "mark", "accuracy", "decisions"}
    assert set(turn["decisions"][0]) == {"ply", "played", "best", "win_before", "win_after", "loss", "samples"}
    assert {s["seat"] for s in data["summary"]} == {0, 1}
    assert set(data["summary"][0]) == {"seat", "turns", "accuracy", "inaccuracies", "blunders", "costliest"}


# ---------------------------------------------------------------------- hidden information
def test_the_evaluation_is_handed_only_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay hands each decision the view of the seat to move, nothing else."""
    record = short_game()
    states: dict[int, State] = {}
    ply = 0

    def keep(seat: int, move: str, state: State) -> None:
        nonlocal ply
        ply += 1
        states[ply] = state.copy()

    replay_malice(record, keep)
    _, start = __import__("spite.malice.record", fromlist=["state_from_record"]).state_from_record(record)
    states[0] = start
    seen: list[tuple[Any, ...]] = []
    original = review_malice.review_decision

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args + tuple(kwargs.values()))
        return original(*args, **kwargs)

    monkeypatch.setattr(review_malice, "review_decision", spy)
    review_record(record, budget=BUDGET, seed=3)
    assert seen
    for args in seen:
        view, ply_at = args[0], args[-1]
        assert isinstance(view, SeatView)
        real = states[ply_at]
        assert view == real.view(real.to_move)
        assert not any(isinstance(a, State) for a in args)


def test_hidden_cards_do_not_change_a_decisions_review() -> None:
    """Dealing the cards the seat cannot see differently gives the same review of its decision."""
    state = play(["heuristic", "heuristic"], "short", 5, stock_size=6)
    replayed = State.new(state.opts, 5)
    for entry in record_from_state(state, "short").moves[:12]:
        if isinstance(entry, str):
            replayed.play(entry)
    for _ in bounded(200, "a turn's start", until=lambda: not replayed.played_this_turn):
        replayed.play(replayed.legal_moves()[-1])
    seat = replayed.to_move
    model = race_model(replayed.opts)
    planned = make_bot("heuristic").decide(replayed.view(seat), random.Random(1)).move.text
    reviews = [review_malice.review_decision(s.view(seat), [planned], 30, random.Random(9), model)
               for s in (replayed, hidden_reshuffled(replayed, seat, 1), hidden_reshuffled(replayed, seat, 2))]
    assert reviews[0] == reviews[1] == reviews[2]


# ---------------------------------------------------------------------- marks
@pytest.mark.slow
def test_a_random_player_is_marked_where_a_strong_one_is_not() -> None:
    """``random`` against ``hard`` (a seeded game, stocks of 10): ``random`` is marked, ``hard`` is not,
    and most of the turns where ``random`` gave away anything measurable gave away enough to be marked.

    Not most of ``random``'s turns: in half of them every plan compared comes out the same on every
    sample (a discard with no build play to choose), and over the whole game ``random`` can only give
    away its starting chance, about 50 points, spread over some 25 turns; docs/bots.md, "What it does
    not see", has the figures."""
    state = play(["random", "hard"], "classic", 4, stock_size=10)
    review = review_record(record_from_state(state, "classic"), budget=0.3, seed=1)
    rand, strong = review.summary(0), review.summary(1)
    rand_marks, strong_marks = rand.inaccuracies + rand.blunders, strong.inaccuracies + strong.blunders
    assert rand_marks >= 3 and strong_marks * 4 <= rand_marks
    gave_away = [t for t in review.turns if t.seat == 0 and t.loss > 0]
    assert 2 * rand_marks > len(gave_away)
    rand_loss = sum(t.loss for t in review.turns if t.seat == 0)
    strong_loss = sum(t.loss for t in review.turns if t.seat == 1)
    assert rand_loss > 0.2 and rand_loss > 5 * strong_loss
    assert rand.accuracy < strong.accuracy - 3
    assert all(t.mark for t in rand.costliest[:rand_marks])


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["search:iters=16,value=turn", "search:iters=16"], ids=["expert", "judge"])
def test_the_search_against_itself_is_marked_on_few_turns(spec: str) -> None:
    """``expert`` (hard with the rest of its turn sampled) and the review's own judge (the stock-valued
    search), each at 16 samples a plan and on stocks of 6 to keep the test short (17 and 28 turns; the
    judge took 18 s at stocks of 10), against itself: fewer than 15 % of the turns marked."""
    state = play([spec, spec], "classic", 4, stock_size=6)
    review = review_record(record_from_state(state, "classic"), budget=0.3, seed=1)
    marked = [t for t in review.turns if t.mark]
    assert len(marked) < 0.15 * len(review.turns), [(t.turn, round(t.loss, 3)) for t in review.turns]
    assert min(review.summary(s).accuracy for s in (0, 1)) > 90


# ---------------------------------------------------------------------- the command
def test_review_prints_a_table_and_the_summary(tmp_path: Path) -> None:
    code, out, _ = cli("review", write(tmp_path, short_game()), "--budget", str(BUDGET), "--seed", "3")
    assert code == 0
    assert "turn" in out.splitlines()[2] and "expert" not in out.splitlines()[0]
    assert "seat 0: accuracy" in out and "seat 1: accuracy" in out
    first = short_review().turns[0]
    assert " ".join(first.played) in out


def test_review_json_is_the_librarys_object(tmp_path: Path) -> None:
    code, out, _ = cli("review", write(tmp_path, short_game()), "--json", "--budget", str(BUDGET), "--seed", "3",
                       "--as", "0")
    assert code == 0
    data = json.loads(out)
    assert data == json.loads(json.dumps(review_record(short_game(), seats=[0], budget=BUDGET, seed=3).to_json()))


@pytest.mark.parametrize(("args", "message"), [
    (["--as", "2"], "there is no seat 2"),
    (["--budget", "0"], "--budget must be"),
    (["--budget", "nan"], "--budget must be"),
    (["--jobs", "0"], "--jobs must be 1 or more"),
])
def test_review_refuses_bad_flags_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = cli("review", write(tmp_path, short_game()), *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_review_refuses_an_unfinished_a_broken_and_a_realtime_game(tmp_path: Path) -> None:
    unfinished = get_game("spite-malice").new("short", seed=2).to_record()
    code, _, err = cli("review", write(tmp_path, unfinished))
    assert code == 2 and "not finished" in err
    spit = get_game("spit").new(seed=2).to_record()
    code, _, err = cli("review", write(tmp_path, spit))
    assert code == 2 and "real time" in err and "turn-based" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("review", write(tmp_path, {"game": "spite-malice", "seed": 1, "moves": ["H7-B9"]}))
    assert code == 1 and err.startswith("spite: ply 0")
    code, _, err = cli("review", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err


def test_the_bench_counts_the_marks_of_two_bots(capsys: pytest.CaptureFixture[str]) -> None:
    from spite.malice.review.bench import main

    main(["random", "greedy", "--games", "2", "--stock", "2", "--budget", "0.05"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("random (seat 0) against greedy (seat 1)")
    rows = [line.split() for line in out[2:-2]]
    assert [row[0] for row in rows] == ["1", "1", "2", "2"] and [row[2] for row in rows] == ["0", "1", "0", "1"]
    turns = sum(int(row[3]) for row in rows if row[2] == "0")
    marked = sum(int(row[4]) for row in rows if row[2] == "0")
    assert out[-2].startswith(f"seat 0 (random): {marked} of {turns} turns marked")


def test_a_review_made_in_parts_is_the_whole_review() -> None:
    """A server makes a review part by part to show its first turns at once (``part``, ``merge_parts``):
    the parts put together are the whole review, to the last digit, and each says how many turns
    there are in all."""
    from spite.review import merge_parts

    game = get_game("spite-malice").new("short", {"stock_size": 1}, seed=1)  # ten turns
    rng = random.Random(2)
    for _ in bounded(400, "the game's end", until=lambda: game.is_over):
        (seat,) = game.to_act()
        legal = game.legal_moves(seat)
        # a stock play when there is one: a short game (each of its turns is reviewed three times)
        game.apply(seat, rng.choice([m for m in legal if m.startswith("S-")] or legal))
    record = game.to_record()
    whole = review_record(record, budget=0.01, seed=0)
    assert whole.total == len(whole.turns) > 8
    parts = [review_record(record, budget=0.01, seed=0, part=(start, stop))
             for start, stop in ((0, 3), (3, 9), (9, 999))]
    assert [p.total for p in parts] == [whole.total] * 3 and [len(p.turns) for p in parts][:2] == [3, 6]
    assert merge_parts([p.to_json() for p in parts]) == whole.to_json()
