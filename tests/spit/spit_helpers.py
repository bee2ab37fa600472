"""Helpers for Spit and Speed tests: explicit deals, a deterministic policy, state fingerprints."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from spite.cards import format_cards, parse_cards, standard_deck
from spite.spit import SpeedState, SpitOptions, SpitState, new_game


def cards(text: str) -> list[int]:
    """``cards("AS 2H X")`` → card codes, bottom to top."""
    return parse_cards(text.split()) if text.strip() else []


def spit_deal(
    tableaus: Sequence[Sequence[str]],
    spits: Sequence[str],
    centers: Sequence[str] | None = None,
    *,
    jokers: int = 0,
    ncenters: int = 2,
    rest: str = "spits",
) -> dict[str, Any]:
    """A records.md §3 Spit deal; the cards of the deck not named go to ``rest``:
    ``"spits"`` (under both spit piles, half each), ``"spit0"`` / ``"spit1"`` (under one spit
    pile) or ``"centers"`` (under the center piles, half each)."""
    tabs = [[cards(p) for p in tab] for tab in tableaus]
    sp = [cards(s) for s in spits]
    cs = [cards(c) for c in (centers or [""] * ncenters)]
    used: Counter[int] = Counter()
    for group in (*[p for t in tabs for p in t], *sp, *cs):
        used.update(group)
    left = Counter(standard_deck(1, jokers)) - used
    assert not (used - Counter(standard_deck(1, jokers))), "a card is named twice"
    spare = sorted(left.elements())
    half = len(spare) // 2
    if rest == "spits":
        sp[0] = spare[:half] + sp[0]
        sp[1] = spare[half:] + sp[1]
    elif rest == "spit0":
        sp[0] = spare + sp[0]
    elif rest == "spit1":
        sp[1] = spare + sp[1]
    elif rest == "centers":
        cs[0] = spare[:half] + cs[0]
        cs[1] = spare[half:] + cs[1]
    else:  # pragma: no cover
        raise ValueError(rest)
    return {
        "tableaus": [[format_cards(p) for p in t] for t in tabs],
        "spits": [format_cards(s) for s in sp],
        "centers": [format_cards(c) for c in cs],
    }


def spit(
    tableaus: Sequence[Sequence[str]],
    spits: Sequence[str],
    center_cards: Sequence[str] | None = None,
    *,
    rest: str = "spits",
    seed: int | None = 1,
    **options: Any,
) -> SpitState:
    """A Spit state (time 0, first flip made) from a compact deal; options as keyword arguments
    (``auto_spit_ms`` and ``auto_slap_ms`` default to 0 here so that nothing fires by itself)."""
    options.setdefault("auto_spit_ms", 0)
    options.setdefault("auto_slap_ms", 0)
    opts = SpitOptions.from_preset("spit", options)
    deal = spit_deal(tableaus, spits, center_cards, jokers=opts.jokers, ncenters=opts.centers, rest=rest)
    return SpitState.new(opts, seed=seed, deal=deal)


def speed(
    hands: Sequence[str],
    draws: Sequence[str],
    sides: Sequence[str],
    centers: Sequence[str] = ("", ""),
    *,
    rest: str = "centers",
    seed: int | None = 1,
    **options: Any,
) -> SpeedState:
    """A Speed state from a compact deal; the deck's other cards go under the center piles
    (``rest="centers"``, half each) or under one draw pile (``"draw0"``, ``"draw1"``)."""
    options.setdefault("auto_spit_ms", 0)
    opts = SpitOptions.from_preset("speed", options)
    hs, ds, ss, cs = ([cards(x) for x in group] for group in (hands, draws, sides, centers))
    used: Counter[int] = Counter()
    for group in (*hs, *ds, *ss, *cs):
        used.update(group)
    spare = sorted((Counter(standard_deck()) - used).elements())
    half = len(spare) // 2
    if rest == "centers":
        cs[0] = spare[:half] + cs[0]
        cs[1] = spare[half:] + cs[1]
    else:
        seat = int(rest[-1])
        ds[seat] = spare + ds[seat]
    deal = {
        "hands": [format_cards(h) for h in hs],
        "draws": [format_cards(d) for d in ds],
        "sides": [format_cards(s) for s in ss],
        "centers": [format_cards(c) for c in cs],
    }
    return SpeedState.new(opts, seed=seed, deal=deal)


def tops(state: SpitState | SpeedState) -> list[str | None]:
    """The center tops as tokens (None for an empty pile)."""
    return [format_cards(c[-1:])[0] if c else None for c in state.centers]


def fingerprint(state: SpitState | SpeedState) -> Any:
    """Everything observable about a state, for "nothing changed" assertions."""
    return (state.full_view().to_json(), state.now, state.to_record_moves(), state.legal_moves(0), state.legal_moves(1))


def total_cards(state: SpitState | SpeedState) -> Counter[int]:
    """Every card on the table, wherever it lies."""
    out: Counter[int] = Counter()
    for c in state.centers:
        out.update(c)
    if isinstance(state, SpitState):
        for s in (0, 1):
            for p in state.tableaus[s]:
                out.update(p)
            out.update(state.spits[s])
    else:
        for s in (0, 1):
            out.update(state.hands[s])
            out.update(state.draws[s])
            out.update(state.sides[s])
    return out


def greedy_move(state: SpitState | SpeedState, seat: int, lazy: bool = False) -> str | None:
    """A simple deterministic policy: a center play (first in order), else a slot move, else
    spit, else slap the smallest center pile; None when the seat has nothing to do. A ``lazy``
    seat never calls spit and never slaps (the engine's automatic events do it)."""
    moves = state.legal_moves(seat)
    if lazy:
        moves = [m for m in moves if m != "spit" and not m.startswith("slap")]
    if not moves:
        return None
    slaps = [m for m in moves if m.startswith("slap")]
    if slaps:
        sizes = [len(c) for c in state.centers]
        return f"slap C{sizes.index(min(sizes)) + 1}"
    plays = [m for m in moves if "-C" in m]
    if plays:
        return plays[0]
    slots = [m for m in moves if "-T" in m]
    if slots:
        return slots[0]
    return moves[0]


def play_out(
    game: str,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    step_ms: tuple[int, int] = (400, 700),
    max_steps: int = 5000,
    lazy: tuple[bool, bool] = (False, False),
) -> SpitState | SpeedState:
    """Play a game with :func:`greedy_move` for both seats: seat 0 acts every ``step_ms[0]`` ms,
    seat 1 every ``step_ms[1]`` ms (so the seats race); a seat whose flag in ``lazy`` is True
    leaves spit calls and slaps to the engine's automatic events."""
    state = new_game(game, options=options, seed=seed)
    next_t = [step_ms[0], step_ms[1]]
    steps = 0
    while not state.finished and steps < max_steps:
        steps += 1
        seat = 0 if next_t[0] <= next_t[1] else 1
        t = next_t[seat]
        next_t[seat] += step_ms[seat]
        state.advance(t)
        if state.finished:
            break
        move = greedy_move(state, seat, lazy[seat])
        if move is not None:
            state.apply(seat, move, t)
    return state
