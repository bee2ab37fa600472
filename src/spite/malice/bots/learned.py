"""A learned value of a seat's view, and the bot that plans its turns with it.

:func:`features` describes the end of a turn as a seat sees it: the stocks, what the opponents'
stock tops need and whether the build piles left hand it to them, what the seat keeps for its
next turn (wild cards, hand, discard piles, how far its own stock top is), how scarce the cards
are. A logistic model over those features (:class:`ValueModel`) gives the chance that the seat
wins from there, fitted to the outcomes of self-play games by ``spite train``
(:mod:`spite.malice.bots.training`): the classic rules' to games of ``learned`` itself playing with a first
value fitted to games of the heuristics (``make value``), the match game's to games of the
heuristics. Both ship beside this module (:data:`SHIPPED_VALUES`, each loaded on first use); a game is
valued with those of the preset nearest its options (:func:`value_preset`).

The features read only what the seat's view holds: its own hand, the face-up cards, and the
counts of what lies face down. A planner works on a determinization of the view
(:func:`~spite.malice.determinize.determinize`), and the features of a determinization are those
of the real position (a test checks it), so the value never depends on a card the seat cannot see.

:class:`LearnedBot` (``learned``) plans its turns as the heuristic does (every sequence of build
plays, every discard) and scores each end of turn by the heuristic's score plus ``blend`` times
the learned win chance. Inference is pure Python: the core install needs no numpy.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from spite.cards import RANKS
from spite.errors import OptionsError
from spite.malice import DISCARD, Move, Options, SeatView, State
from spite.malice.bots.heuristic import (
    HARD_WEIGHTS,
    ExtraScore,
    HeuristicBot,
    Plan,
    Weights,
    _opponents,
    plan_turn,
    reach_chance,
    reach_table,
)
from spite.malice.legal import move_tables

__all__ = ["FEATURES", "SHIPPED_VALUE", "SHIPPED_VALUES", "EndFeatures", "LearnedBot", "ValueModel", "features",
           "learned_score", "load_value", "shipped_blend", "shipped_value", "value_preset"]

FEATURES: tuple[str, ...] = (
    "own_stock",          # own stock left, as a share of a full stock
    "opp_stock",          # the leading opponent's stock left, as a share
    "stock_log_ratio",    # log((own + 1) / (opponent + 1)): who leads the race, and by how much
    "own_near_win",       # 1 / (own stock + 1): the last cards count most
    "opp_near_win",       # 1 / (opponent's stock + 1)
    "opp_top_wild",       # the opponent's stock top is a wild card: it plays whatever we leave
    "opp_top_now",        # a build pile stands one below the opponent's stock top
    "opp_top_now_factor",  # the same times the heuristic's behind/ahead factor
    "opp_reach",          # chance the opponent reaches its stock top next turn through its discard piles
    "opp_reach_factor",   # the same times the behind/ahead factor
    "opp_gap",            # how far the nearest build pile is below the opponent's stock top (/12)
    "opp_tops_playable",  # opponent's discard tops that play on the build piles as left
    "opp_tops_wild",      # wild cards on the opponent's discard tops
    "own_top_now",        # own stock top (still known) plays on a build pile as left, or is wild
    "own_gap",            # how far the nearest build pile is below the own stock top (/12)
    "own_bridge",         # own hand and discard tops can carry a pile up to the own stock top
    "hand_wilds",         # wild cards kept in hand
    "top_wilds",          # wild cards on own discard tops
    "buried_wilds",       # wild cards under other cards in own discard piles
    "hand_left",          # cards kept in hand (the fewer, the more drawn next turn), as a share
    "hand_playable",      # hand cards that play on the build piles as left
    "tops_playable",      # own discard tops that play on the build piles as left
    "empty_piles",        # empty own discard piles, as a share
    "discard_cards",      # cards in own discard piles (/20)
    "discard_disorder",   # cards lying on a lower natural card in own discard piles (/10)
    "distinct_needs",     # distinct values the build piles need, as a share of the piles
    "own_values",         # distinct values among own hand and discard tops (/12)
    "stuck_aces",         # aces held that cannot be played or discarded
    "draw_share",         # cards in the draw pile and set aside, as a share of the deck
    "scarcity",           # 10 / (cards in the draw pile and set aside + 10)
)
"""The names of :func:`features`' values, in order (the weights file lists them too and must agree)."""


_DECK_SIZE: dict[Options, int] = {}


def _deck_size(opts: Options) -> int:
    size = _DECK_SIZE.get(opts)
    if size is None:
        if len(_DECK_SIZE) > 256:  # a long-running server meets many option sets: stay bounded
            _DECK_SIZE.clear()
        size = _DECK_SIZE[opts] = len(opts.deck_cards())
    return size


def _stock_reach(top: int, builds: list[int], needs: set[int]) -> tuple[float, float]:
    """Whether the stock's top (its value, 0 wild) can be played now (1.0 or 0.0), and else how far
    the nearest build pile below it is from taking it (in twelfths; 1.0 when none is below)."""
    if top == 0 or top in needs:
        return 1.0, 0.0
    below = [top - 1 - b for b in builds if b < top - 1]
    return 0.0, min(below) / 12 if below else 1.0


def _discard_shape(piles: Any, vt: Any) -> tuple[int, int, int, int, list[tuple[int, int]]]:
    """A seat's discard piles in numbers: cards buried under a wild card, cards on a lower one (out of
    order), cards in all, empty piles, and each pile's size and top value (-1 when empty)."""
    buried = disorder = cards = empty = 0
    shape: list[tuple[int, int]] = []
    for p in piles:
        n = len(p)
        cards += n
        if not n:
            empty += 1
            shape.append((0, -1))
            continue
        lower = vt[p[0]]
        for k in range(1, n):
            upper = vt[p[k]]
            if lower == 0:
                buried += 1
            elif upper != 0 and upper > lower:
                disorder += 1
            lower = upper
        shape.append((n, lower))
    return buried, disorder, cards, empty, shape


def features(state: State, seat: int, end: Move | None = None,
             reach: dict[int, tuple[float, ...]] | None = None, *, stock_known: bool = True,
             cache: dict[tuple[object, ...], list[float]] | None = None) -> list[float]:
    """The features of ``seat`` ending its turn in ``state`` with ``end`` (a discard, a pass, or
    ``None``: the position as it is), from what ``seat`` sees only.

    ``reach`` is :func:`~spite.malice.bots.heuristic.reach_table` of the state for ``seat`` (worked out
    when not given; a planner gives it once for all the ends it scores). ``stock_known`` false: the
    own stock top was turned up in a sampled state (a planner's look past a stock play), so the
    features that read it take their "unknown" values. ``cache``: a dict kept for one turn's plan
    (the opponents' part depends only on the build piles and the stocks, shared by many ends).
    """
    opts = state.opts
    vt = move_tables(state.opts).value  # the engine's table of the values cards play as
    full = opts.stock_size
    hand = list(state.hands[seat])
    piles = list(state.discards[seat])
    if end is not None and end.kind == DISCARD:
        for card in hand:
            if RANKS[card] == end.rank:
                hand.remove(card)
                piles[end.target] = (*piles[end.target], card)
                break
    builds = [len(b) for b in state.builds]
    needs = {b + 1 for b in builds}
    stock = state.stock_of(seat)
    own = len(stock)
    key = (tuple(builds), own)
    opp_part = cache.get(key) if cache is not None else None
    if opp_part is None:
        opp_part = _opponent_features(state, seat, builds, needs, own, reach)
        if cache is not None:
            cache[key] = opp_part
    own_now = 0.0
    own_gap = 1.0
    bridge = 0.0
    own_tops = [p[-1] for p in piles if p]
    hand_values = [vt[c] for c in hand]
    top_values = [vt[c] for c in own_tops]
    if stock and stock_known:
        s = vt[stock[-1]]
        own_now, own_gap = _stock_reach(s, builds, needs)
        if not own_now:
            mine = set(hand_values) | set(top_values)
            wild_help = 0 in mine
            for b in builds:
                if b + 1 < s and (wild_help or all(v in mine for v in range(b + 1, s))):
                    bridge = 1.0
                    break
    buried, disorder, cards, empty, _ = _discard_shape(piles, vt)
    hand_wilds = hand_values.count(0)
    aces_stuck = 0.0
    if 1 not in needs and not opts.discard_aces:
        aces_stuck = float(hand_values.count(1))
    left = len(state.draw) + len(state.set_aside)
    return [
        own / full,
        *opp_part,
        own_now,
        own_gap,
        bridge,
        float(hand_wilds),
        float(top_values.count(0)),
        float(buried),
        len(hand) / opts.hand_size,
        float(hand_wilds + sum(1 for v in hand_values if v in needs)),
        float(sum(1 for v in top_values if v == 0 or v in needs)),
        empty / opts.discard_piles,
        cards / 20,
        disorder / 10,
        len(needs) / opts.build_piles,
        len(set(hand_values) | set(top_values)) / 12,
        aces_stuck,
        left / _deck_size(opts),
        10.0 / (left + 10),
    ]


def _opponent_features(state: State, seat: int, builds: list[int], needs: set[int], own: int,
                       reach: dict[int, tuple[float, ...]] | None) -> list[float]:
    """The features from ``opp_stock`` to ``opp_tops_wild``: the race, and what the opponent to
    fear (the one with the fewest stock cards left) can do with the build piles as left."""
    vt = move_tables(state.opts).value  # the engine's table of the values cards play as
    full = state.opts.stock_size
    opps = [o for o in _opponents(state, seat) if state.stock_of(o)]
    opp = min(opps, key=lambda o: len(state.stock_of(o))) if opps else None
    ostock = state.stock_of(opp) if opp is not None else []
    other = len(ostock)
    factor = min(3.0, max(0.1, (own + 1) / (other + 1)))
    top_wild = top_now = reach_now = 0.0
    opp_gap = 1.0
    tops_playable = tops_wild = 0.0
    if opp is not None:
        t = vt[ostock[-1]]
        if t == 0:
            top_wild = 1.0
            opp_gap = 0.0
        elif t in needs:
            top_now = 1.0
            opp_gap = 0.0
        else:
            if reach is None:
                reach = reach_table(state, seat)
            chances = reach.get(opp)
            if chances:
                reach_now = reach_chance(chances, builds)
            below = [t - 1 - b for b in builds if b < t - 1]
            opp_gap = min(below) / 12 if below else 1.0
        for p in state.discards[opp]:
            if p:
                v = vt[p[-1]]
                tops_wild += v == 0
                tops_playable += v == 0 or v in needs
    return [
        other / full,
        math.log((own + 1) / (other + 1)),
        1.0 / (own + 1),
        1.0 / (other + 1) if opp is not None else 0.0,
        top_wild,
        top_now,
        top_now * factor,
        reach_now,
        reach_now * factor,
        opp_gap,
        tops_playable,
        tops_wild,
    ]


class EndFeatures:
    """:func:`features` for the many ends of one turn's plan, faster: what depends only on the
    position before the discard (the opponents, the stocks, the build piles, the own piles' order)
    is worked out once per position, and each discard only changes its hand card and its pile.
    Gives exactly :func:`features`' values (a test compares them)."""

    def __init__(self) -> None:
        self._opponents: dict[tuple[object, ...], list[float]] = {}
        self._nodes: dict[tuple[object, ...], tuple[Any, ...]] = {}

    def __call__(self, state: State, seat: int, end: Move | None,
                 reach: dict[int, tuple[float, ...]] | None, *, stock_known: bool = True) -> list[float]:
        hand = state.hands[seat]
        key = (tuple(hand), state.discards[seat], tuple(state.builds), len(state.stock_of(seat)), stock_known,
               len(state.draw) + len(state.set_aside))
        node = self._nodes.get(key)
        if node is None:
            if len(self._nodes) > 4096:
                self._nodes.clear()
            node = self._nodes[key] = self._node(state, seat, reach, stock_known)
        (head, tail, hand_values, tops, piles, cards, empty, buried, disorder, needs, builds, s, check_bridge,
         hand_size, discard_aces) = node
        top_values = tops
        if end is not None and end.kind == DISCARD:
            for card in hand:
                if RANKS[card] == end.rank:
                    dv = state.card_value(card)
                    hand_values = list(hand_values)
                    hand_values.remove(dv)
                    n, top = piles[end.target]
                    cards += 1
                    if n:
                        buried += top == 0
                        disorder += top != 0 and dv != 0 and dv > top
                    else:
                        empty -= 1
                    target = end.target
                    top_values = [dv if i == target else t for i, (k, t) in enumerate(piles) if k or i == target]
                    break
        bridge = 0.0
        if check_bridge:
            mine = set(hand_values) | set(top_values)
            wild_help = 0 in mine
            for b in builds:
                if b + 1 < s and (wild_help or all(v in mine for v in range(b + 1, s))):
                    bridge = 1.0
                    break
        hand_wilds = hand_values.count(0)
        opts = state.opts
        return [
            *head,
            bridge,
            float(hand_wilds),
            float(top_values.count(0)),
            float(buried),
            len(hand_values) / hand_size,
            float(hand_wilds + sum(1 for v in hand_values if v in needs)),
            float(sum(1 for v in top_values if v == 0 or v in needs)),
            empty / opts.discard_piles,
            cards / 20,
            disorder / 10,
            tail[0],
            len(set(hand_values) | set(top_values)) / 12,
            float(hand_values.count(1)) if 1 not in needs and not discard_aces else 0.0,
            *tail[1:],
        ]

    def _node(self, state: State, seat: int, reach: dict[int, tuple[float, ...]] | None,
              stock_known: bool) -> tuple[Any, ...]:
        opts = state.opts
        vt = move_tables(state.opts).value  # the engine's table of the values cards play as
        builds = [len(b) for b in state.builds]
        needs = {b + 1 for b in builds}
        stock = state.stock_of(seat)
        own = len(stock)
        okey = (tuple(builds), own)
        opp_part = self._opponents.get(okey)
        if opp_part is None:
            opp_part = self._opponents[okey] = _opponent_features(state, seat, builds, needs, own, reach)
        own_now = 0.0
        own_gap = 1.0
        s = 0
        check_bridge = False
        if stock and stock_known:
            s = vt[stock[-1]]
            own_now, own_gap = _stock_reach(s, builds, needs)
            check_bridge = not own_now
        buried, disorder, cards, empty, piles = _discard_shape(state.discards[seat], vt)
        tops = [top for n, top in piles if n]
        left = len(state.draw) + len(state.set_aside)
        head = [own / opts.stock_size, *opp_part, own_now, own_gap]
        tail = [len(needs) / opts.build_piles, left / _deck_size(opts) if left else 0.0, 10.0 / (left + 10)]
        hand_values = [vt[c] for c in state.hands[seat]]
        return (head, tail, hand_values, tops, piles, cards, empty, buried, disorder, needs, builds, s,
                check_bridge, opts.hand_size, opts.discard_aces)


@dataclass(frozen=True)
class ValueModel:
    """A logistic model of the win chance over :func:`features`: ``sigmoid(bias + w · x)``.

    The weights are stored as fitted (on standardised features, ``mean`` and ``scale``) and folded
    into one dot product when loaded.
    """

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    meta: dict[str, Any]

    def __post_init__(self) -> None:
        folded = tuple(w / s for w, s in zip(self.weights, self.scale, strict=True))
        object.__setattr__(self, "_folded", folded)
        object.__setattr__(self, "_offset", self.bias - sum(f * m for f, m in zip(folded, self.mean, strict=True)))

    def logit(self, x: Sequence[float]) -> float:
        """The log-odds of winning from features ``x``."""
        folded: tuple[float, ...] = self._folded  # type: ignore[attr-defined]
        total: float = self._offset  # type: ignore[attr-defined]
        for w, v in zip(folded, x, strict=True):
            total += w * v
        return total

    def win_chance(self, x: Sequence[float]) -> float:
        """The chance of winning from features ``x`` (0..1)."""
        z = self.logit(x)
        if z < -30:
            return 0.0
        if z > 30:
            return 1.0
        return 1.0 / (1.0 + math.exp(-z))

    def to_json(self) -> dict[str, Any]:
        """The weights file's content (``spite train --out``)."""
        return {"format": "spite-value/1", "model": "logistic", "features": list(FEATURES),
                "weights": list(self.weights), "bias": self.bias, "mean": list(self.mean),
                "scale": list(self.scale), **self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        """A model from a weights file's content; refuses one made for other features."""
        if data.get("format") != "spite-value/1" or data.get("model") != "logistic":
            raise OptionsError("not a spite-value/1 logistic weights file")
        if tuple(data.get("features", ())) != FEATURES:
            raise OptionsError("the weights file was trained on other features than this version computes")
        meta = {k: v for k, v in data.items()
                if k not in ("format", "model", "features", "weights", "bias", "mean", "scale")}
        return cls(tuple(map(float, data["weights"])), float(data["bias"]), tuple(map(float, data["mean"])),
                   tuple(map(float, data["scale"])), meta)


SHIPPED_VALUE = "learned_value.json"
"""The weights that ship in the package for the classic rules, beside this module (made by the
command in docs/bots.md)."""

SHIPPED_VALUES: dict[str, str] = {
    "classic": SHIPPED_VALUE,
    "match": "learned_value_match.json",
}
"""The shipped weights by the preset whose self-play games they were fitted to. A game is valued
with the file of the preset nearest its options (:func:`value_preset`): a value fitted to the classic
rules misjudges the match game (three build piles, no jokers, stocks of 20). Skip-Bo has none of its
own: weights fitted to its games played worse there than the classic rules' (docs/bots.md)."""

_shipped: dict[str, ValueModel] = {}


def load_value(path: str | Path) -> ValueModel:
    """The model in weights file ``path``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise OptionsError(f"cannot read the weights file {path}: {exc}") from None
    return ValueModel.from_json(data)


_NEAREST: dict[Options, str] = {}


def value_preset(opts: Options) -> str:
    """The preset of :data:`SHIPPED_VALUES` nearest ``opts``: the one that differs from them in the
    fewest options (the classic rules on a tie), so ``match`` with another target is still the match
    game, and ``party``, ``short`` or ``skip-bo`` are valued as the classic rules.

    >>> value_preset(Options.from_preset("match", {"match_target": 100}))
    'match'
    >>> value_preset(Options.from_preset("match", {"players": 3}))
    'match'
    >>> value_preset(Options.from_preset("party"))
    'classic'
    """
    nearest = _NEAREST.get(opts)
    if nearest is None:
        if len(_NEAREST) > 256:  # a long-running server meets many option sets: stay bounded
            _NEAREST.clear()
        mine = asdict(opts)

        def distance(preset: str) -> int:
            theirs = asdict(Options.from_preset(preset))
            return sum(1 for name, value in mine.items() if theirs[name] != value)

        nearest = _NEAREST[opts] = min(SHIPPED_VALUES, key=distance)  # dicts keep order: classic first
    return nearest


def shipped_value(opts: Options | None = None) -> ValueModel:
    """The shipped model for games with ``opts`` (the classic rules' when none), each file read
    once, on first use."""
    preset = "classic" if opts is None else value_preset(opts)
    model = _shipped.get(preset)
    if model is None:
        text = resources.files("spite.malice.bots").joinpath(SHIPPED_VALUES[preset]).read_text(encoding="utf-8")
        model = _shipped[preset] = ValueModel.from_json(json.loads(text))
    return model


SHIPPED_BLENDS: dict[str, float] = {
    "classic": 2500.0,
    "match": 2500.0,
}
"""BLEND by shipped value (:data:`SHIPPED_VALUES`' keys): how many of the heuristic's points a certain
win is worth beside its score (a stock card is 1,000), when a spec gives none. Each was chosen by
tournaments against ``heuristic-v1`` for its value (docs/bots.md): both values, fitted to the learned
bot's own games, guide best when they outweigh the heuristic's terms."""


def shipped_blend(opts: Options | None = None) -> float:
    """The BLEND of :data:`SHIPPED_BLENDS` for games with ``opts`` (the value's preset, :func:`value_preset`)."""
    return SHIPPED_BLENDS["classic" if opts is None else value_preset(opts)]


class LearnedBot(HeuristicBot):
    """The heuristic's planner, each end of turn scored by the heuristic plus ``blend`` times the
    learned win chance (``learned``, ``learned:BLEND``, ``learned:BLEND,nodes=N``; ``blend`` 0 plays
    as ``heuristic``; ``None``, the shipped value's own, :func:`shipped_blend`)."""

    name = "learned"

    def __init__(self, blend: float | None = None, model: ValueModel | None = None,
                 weights: Weights = HARD_WEIGHTS) -> None:
        super().__init__(weights=weights)
        self.blend = blend
        self.model = model

    def make_plan(self, view: SeatView, rng: random.Random, budget: float | None) -> Plan:
        blend = shipped_blend(view.opts) if self.blend is None else self.blend
        extra = learned_score(self.model or shipped_value(view.opts), blend, exact=False) if blend else None
        return plan_turn(view, rng, max_nodes=self.max_nodes, w=self.weights, extra=extra)


def learned_score(model: ValueModel, blend: float, *, exact: bool) -> ExtraScore:
    """The planner's added score for one plan (a fresh one for each: it keeps that plan's caches):
    ``blend`` times the win chance ``model`` gives each end of turn.

    With ``exact`` false the value is worked out only for ends that could still be the best (the
    value adds at most ``blend``: an end whose score plus ``blend`` does not beat the best total so
    far cannot win), which is all a single plan needs; a planner that keeps alternatives (the
    search's candidates) needs ``exact``, every end's whole score."""
    end_features = EndFeatures()
    best = -math.inf

    def score(state: State, seat: int, end: Move | None, reach: dict[int, tuple[float, ...]] | None,
              heuristic: float) -> float:
        nonlocal best
        if not exact and heuristic + blend <= best:
            return 0.0
        added = blend * model.win_chance(end_features(state, seat, end, reach, stock_known=end is not None))
        best = max(best, heuristic + added)
        return added

    return score


def _factory(arg: str) -> LearnedBot:
    """``learned``, ``learned:BLEND``, ``learned:BLEND,nodes=N,weights=PATH`` (the planner's node limit,
    3,000; a weights file of ``spite train`` instead of the shipped one)."""
    if not arg:
        return LearnedBot()
    first, *rest = arg.split(",")
    try:
        blend = float(first) if first else None
    except ValueError:
        raise OptionsError(f"learned:BLEND takes a number of points, not {first!r}") from None
    if blend is not None and not (blend >= 0 and math.isfinite(blend)):
        raise OptionsError(f"learned:BLEND must be 0 or more, not {first!r}")
    bot = LearnedBot(blend=blend)
    for setting in rest:
        key, _, value = (part.strip() for part in setting.partition("="))
        if key == "nodes" and value.isdigit() and int(value) >= 1:
            bot.max_nodes = int(value)
        elif key == "weights" and value:
            bot.model = load_value(value)
        else:
            raise OptionsError(f"learned:BLEND takes the settings nodes=N (N at least 1) and weights=PATH, "
                               f"not {setting!r}")
    return bot


def _register() -> None:
    from spite.bots import register_bot

    register_bot("learned", _factory)


_register()
