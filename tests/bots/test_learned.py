"""The learned value: features from the seat's view only, ``spite train`` reproducible from its seed,
the shipped weights load and the bot that uses them plays legal games."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import hidden_reshuffled
from spite.bots import make_bot
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.bots.learned import (
    FEATURES,
    SHIPPED_BLENDS,
    SHIPPED_VALUES,
    EndFeatures,
    LearnedBot,
    ValueModel,
    features,
    load_value,
    shipped_blend,
    shipped_value,
    value_preset,
)
from spite.malice.determinize import determinize
from waiting import bounded


def positions(preset: str, count: int, seed: int) -> list[State]:
    """States somewhere into random games, the seat to move about to end its turn or play on."""
    out = []
    for k in range(count):
        state = State.new(Options.from_preset(preset), seed + k)
        rng = random.Random(seed + k)
        for _ in range(rng.randrange(10, 120)):
            if state.is_over:
                break
            state.play(rng.choice(state.build_moves() or state.end_moves()))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize("preset", ["classic", "skip-bo", "match", "party"])
def test_features_depend_only_on_the_seats_view(preset: str) -> None:
    """The features of a position equal those of any state the seat cannot tell from it: the
    value never reads another hand, a face-down card or the draw order."""
    for state in positions(preset, 6, 40):
        seat = state.to_move
        twin = hidden_reshuffled(state, seat, 7)
        guess = determinize(state.view(seat), random.Random(3))
        for end in [None, *state.end_moves()]:
            real = features(state, seat, end)
            assert len(real) == len(FEATURES)
            assert features(twin, seat, end) == real
            assert features(guess, seat, end) == real


@pytest.mark.parametrize("preset", ["classic", "match", "party"])
def test_the_planners_fast_features_are_the_features(preset: str) -> None:
    """The learned bot scores ends with :class:`EndFeatures` (worked out once per position): the
    same numbers as :func:`features`, which the training used."""
    fast = EndFeatures()
    for state in positions(preset, 8, 90):
        seat = state.to_move
        for end in [None, *state.end_moves()]:
            for known in (True, False):
                assert fast(state, seat, end, None, stock_known=known) == features(state, seat, end,
                                                                                    stock_known=known)
        for move in state.build_moves()[:3]:  # and after build plays, with the caches already filled
            state.play(move)
            for end in state.end_moves() if state.to_move == seat else []:
                assert fast(state, seat, end, None) == features(state, seat, end)
            state.undo()


def test_a_discard_changes_what_the_features_say_about_the_hand_and_piles() -> None:
    state = next(s for s in positions("classic", 10, 60) if any(m.kind == 1 for m in s.end_moves()))
    seat = state.to_move
    before = dict(zip(FEATURES, features(state, seat), strict=True))
    discard = next(m for m in state.end_moves() if m.kind == 1)
    after = dict(zip(FEATURES, features(state, seat, discard), strict=True))
    assert after["hand_left"] == pytest.approx(before["hand_left"] - 1 / state.opts.hand_size)
    assert after["discard_cards"] == pytest.approx(before["discard_cards"] + 1 / 20)


@pytest.mark.parametrize("preset", ["classic", "match"])
def test_the_shipped_weights_load_and_say_a_big_stock_lead_wins(preset: str) -> None:
    opts = Options.from_preset(preset)
    model = shipped_value(opts)
    assert model.meta["preset"] == preset and model.meta["games"] >= 100 and len(model.weights) == len(FEATURES)
    path = Path(__file__).parents[2] / "src" / "spite" / "malice" / "bots" / SHIPPED_VALUES[preset]
    assert path.stat().st_size < 5_000_000
    state = positions(preset, 1, 5)[0]
    seat = state.to_move
    x = dict(zip(FEATURES, features(state, seat), strict=True))
    full = opts.stock_size
    # the same position, but the seat two cards from winning and its opponent with a full stock
    ahead = dict(x, own_stock=2 / full, own_near_win=1 / 3, opp_stock=1.0, opp_near_win=1 / (full + 1),
                 stock_log_ratio=math.log(3 / (full + 1)))
    behind = dict(x, own_stock=1.0, own_near_win=1 / (full + 1), opp_stock=2 / full, opp_near_win=1 / 3,
                  stock_log_ratio=math.log((full + 1) / 3))
    assert model.win_chance([ahead[f] for f in FEATURES]) > 0.7 > 0.3 > model.win_chance([behind[f] for f in FEATURES])


def test_each_game_is_valued_with_the_weights_of_its_nearest_preset() -> None:
    """The match game has weights of its own, also with an option changed; the other presets are
    valued with the classic rules' weights, and so is a game of no preset."""
    for preset, options, expected in [("classic", {}, "classic"), ("match", {"match_target": 20}, "match"),
                                      ("match", {"players": 3}, "match"), ("skip-bo", {}, "classic"),
                                      ("party", {}, "classic"),
                                      ("short", {}, "classic"), ("kings-only", {}, "classic")]:
        opts = Options.from_preset(preset, options or None)
        assert value_preset(opts) == expected, preset
        assert shipped_value(opts) is shipped_value(Options.from_preset(expected))
    assert shipped_value() is shipped_value(Options())
    assert len({id(shipped_value(Options.from_preset(p))) for p in SHIPPED_VALUES}) == len(SHIPPED_VALUES)


def test_the_learned_bot_plans_with_the_weights_of_its_game() -> None:
    """On the match game ``learned`` plays as with the match weights (and their BLEND) given as a file, and not
    as with the classic rules' weights (the plans differ somewhere in a few positions)."""
    root = Path(__file__).parents[2] / "src" / "spite" / "malice" / "bots"
    states = positions("match", 24, 60)
    blend = f"{SHIPPED_BLENDS['match']:g}"
    chosen = {spec: [make_bot(spec).choose(s.view(s.to_move), random.Random(1)) for s in states]
              for spec in ("learned", f"learned:{blend},weights={root / SHIPPED_VALUES['match']}",
                           f"learned:{blend},weights={root / SHIPPED_VALUES['classic']}")}
    mine, match_file, classic_file = chosen.values()
    assert mine == match_file and mine != classic_file


@pytest.mark.parametrize("preset", ["classic", "skip-bo", "partners"])
def test_the_learned_bot_plays_legal_games_to_the_end(preset: str) -> None:
    opts = Options.from_preset(preset, {"stock_size": 8})
    state = State.new(opts, 12)
    specs = ["learned", "heuristic", "learned", "greedy"][: opts.players]
    bots = [make_bot(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.start_game(opts, seat)
    rngs = [random.Random(seat) for seat in range(opts.players)]
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        move = bots[state.to_move].choose(state.view(state.to_move), rngs[state.to_move])
        assert move in state.legal_moves()
        state.play(move)
    assert state.result is not None


def test_learned_takes_a_blend_and_refuses_nonsense() -> None:
    assert isinstance(make_bot("learned"), LearnedBot)
    assert make_bot("learned").blend is None  # type: ignore[attr-defined]  # the shipped value's own
    assert shipped_blend(Options.from_preset("skip-bo")) == SHIPPED_BLENDS["classic"]
    assert shipped_blend(Options.from_preset("match")) == SHIPPED_BLENDS["match"]
    assert make_bot("learned:250").blend == 250  # type: ignore[attr-defined]
    capped = make_bot("learned:500,nodes=800")
    assert (capped.blend, capped.max_nodes) == (500, 800)  # type: ignore[attr-defined]
    for spec in ("learned:x", "learned:-1", "learned:nan", "learned:5,nodes=0", "learned:5,depth=2"):
        with pytest.raises(OptionsError, match="learned:BLEND"):
            make_bot(spec)


def test_blend_zero_plays_as_the_heuristic() -> None:
    for state in positions("classic", 4, 80):
        view = state.view(state.to_move)
        assert make_bot("learned:0").choose(view, random.Random(1)) is make_bot("heuristic").choose(
            view, random.Random(1))


def test_learned_plays_with_a_weights_file_it_is_given(tmp_path: Path) -> None:
    data = shipped_value().to_json()
    data["weights"] = [-w for w in data["weights"]]  # a value that wants to lose
    path = tmp_path / "upside-down.json"
    path.write_text(json.dumps(data))
    bot = make_bot(f"learned:1000,weights={path}")
    assert bot.model is not None and bot.model.weights == tuple(data["weights"])  # type: ignore[attr-defined]
    chosen = [make_bot(spec).choose(state.view(state.to_move), random.Random(1))
              for state in positions("classic", 6, 60) for spec in ("learned", f"learned:1000,weights={path}")]
    assert chosen[0::2] != chosen[1::2]  # another value, other plans
    with pytest.raises(OptionsError, match="cannot read"):
        make_bot(f"learned:1000,weights={tmp_path / 'missing.json'}")


def test_a_weights_file_for_other_features_is_refused(tmp_path: Path) -> None:
    data = shipped_value().to_json()
    data["features"] = data["features"][:-1]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(OptionsError, match="other features"):
        load_value(path)
    with pytest.raises(OptionsError, match="cannot read"):
        load_value(tmp_path / "missing.json")


# ---------------------------------------------------------------- training (numpy and matplotlib: the plot extra)
def run_spite(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spite", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.timeout(180)  # a training run, twice
def test_a_small_training_run_writes_loadable_weights_and_its_curve_reproducibly(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("matplotlib")
    from spite.malice.bots.training import train, write_weights

    args = ("train", "--games", "12", "--seed", "5", "--epochs", "40", "--preset", "short", "--json")
    proc = run_spite(*args, "--out", str(tmp_path / "a.json"))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["games"] == 12 and summary["positions"] > 100 and summary["holdout_games"] >= 1
    assert summary["plot"] == str(tmp_path / "a.png")
    png = (tmp_path / "a.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    model = load_value(tmp_path / "a.json")
    assert isinstance(model, ValueModel) and any(w != 0 for w in model.weights)
    assert summary["train_log_loss"] < 0.6931  # it learned something: better than a coin
    # the same seed in another process, with two workers: the same weights, byte for byte
    proc = run_spite(*args, "--jobs", "2", "--out", str(tmp_path / "b.json"), "--plot", str(tmp_path / "b.png"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    # another seed: other games, other weights
    other = train(4, 6, preset="short", epochs=40)
    write_weights(other.fit.model, tmp_path / "c.json")
    assert (tmp_path / "c.json").read_bytes() != (tmp_path / "a.json").read_bytes()
    # the curve falls: the last epoch fits better than the first
    assert other.fit.train_loss[-1] < other.fit.train_loss[0]


@pytest.mark.timeout(180)  # two rounds of training games
def test_a_round_of_training_plays_with_the_weights_of_the_round_before(tmp_path: Path) -> None:
    """``--bots learned:700,weights=FILE``: the self-play of ``learned`` with a weights file (how the shipped
    value was made, docs/bots.md); other weights play other games and so fit other weights."""
    pytest.importorskip("numpy")
    pytest.importorskip("matplotlib")
    from spite.malice.bots.training import train, write_weights

    for seed, name in ((5, "a"), (6, "b")):
        write_weights(train(6, seed, preset="short", epochs=40).fit.model, tmp_path / f"{name}.json")
    outs = []
    for name in ("a", "b"):
        proc = run_spite("train", "--games", "6", "--seed", "7", "--epochs", "40", "--preset", "short", "--json",
                         "--bots", f"learned:700,weights={tmp_path / name}.json",
                         "--out", str(tmp_path / f"{name}2.json"))
        assert proc.returncode == 0, proc.stderr
        written = json.loads((tmp_path / f"{name}2.json").read_text())
        assert written["pool"] == [f"learned:700,weights={tmp_path / name}.json"]
        outs.append(written["weights"])
    assert outs[0] != outs[1]


def test_train_refuses_bad_arguments_in_one_line(tmp_path: Path) -> None:
    for args in (("--games", "0"), ("--bots", "chess"), ("--preset", "nope"),
                 ("--bots", f"learned:700,weights={tmp_path / 'missing.json'}")):
        proc = run_spite("train", *args, "--out", str(tmp_path / "w.json"))
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
        assert not (tmp_path / "w.json").exists()
