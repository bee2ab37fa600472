"""The Spit figures: games per second, and the reaction-gap curve (small runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spite.errors import OptionsError
from spite.spit.bench import DEFAULT_GAPS, crossing, logistic_fit, reaction_gap_curve, run_spit_bench


def test_run_spit_bench() -> None:
    out = run_spit_bench(0.2, seed=3)
    assert out["games"] >= 1 and out["games_per_s"] > 0 and out["moves_per_s"] > 0
    assert out["bots"] == ["expert", "expert"] and out["virtual_s_per_s"] > 1
    assert sum(out["wins"].values()) <= out["games"]
    with pytest.raises(OptionsError):
        run_spit_bench(0)


def test_reaction_gap_curve_small(tmp_path: Path) -> None:
    png = tmp_path / "gap.png"
    out = reaction_gap_curve(base_ms=300, gaps=(0, 900), deals=3, game="speed", seed=2, png=png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p["gap_ms"] for p in out["points"]] == [0, 900]
    assert [p["games"] for p in out["points"]] == [6, 6]
    assert [(p["fast_ms"], p["slow_ms"]) for p in out["points"]] == [(300, 300), (300, 1200)]
    assert out["points"][1]["win_rate"] >= 0.5
    assert out["png"] == str(png)


def test_reaction_gap_curve_checks() -> None:
    with pytest.raises(OptionsError, match="ascending"):
        reaction_gap_curve(gaps=(100, 0), png=None)
    with pytest.raises(OptionsError, match="ascending"):
        reaction_gap_curve(gaps=(), png=None)
    with pytest.raises(OptionsError, match="between 1 and 60000"):
        reaction_gap_curve(base_ms=0, png=None)
    with pytest.raises(OptionsError, match="deals"):
        reaction_gap_curve(deals=0, png=None)
    assert set(DEFAULT_GAPS) == {"spit", "speed"}


def test_crossing_and_fit() -> None:
    assert crossing([0, 100, 200], [0.5, 0.6, 0.9]) == pytest.approx(150)
    assert crossing([0, 100], [0.5, 0.6]) is None
    assert crossing([0, 100], [0.8, 0.9]) == 0
    a, b = logistic_fit([0, 50, 100], [50, 62, 75], [100, 100, 100])
    assert abs(a) < 0.1 and b > 0
