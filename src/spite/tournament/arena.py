"""Arena pairing and points: a fixed time; whoever is free is paired at once with someone free.

**Pairing.** The entrants free now are paired as a maximum-cardinality, maximum-weight matching
(:func:`networkx.max_weight_matching`), as a Swiss round is (``spite.tournament.swiss``):

1. never the same opponent twice in a row: two entrants who have just met have no edge;
2. near in points: a pair costs the difference of their points;
3. near in rating, the lightest term.

An odd pool leaves one alone, who waits for the next to come free: the one who came free last (who
has waited least). Someone whose only free partner is their last opponent waits too. Large pools are
matched in windows of consecutive entrants by points, as Swiss groups are, floaters carried on.
In a pairing the entrant who has begun fewer games sits at seat 0 (ties: who has waited longer).

**Points** (lichess's arena): a win 2, a draw 1, a loss 0; from the third win in a row each win counts
double, 4 — the entrant is *on a streak* (:func:`arena_points`) until a game that is not a win. A game
lost by not coming to the table is a loss.

>>> pool = [ArenaPlayer("a", 4, waiting_since=10.0), ArenaPlayer("b", 2, last_opponent="c", waiting_since=11.0),
...         ArenaPlayer("c", 2, last_opponent="b", waiting_since=12.0)]
>>> pair_arena(pool)
ArenaPairing(pairs=(('a', 'b'),), waiting=('c',))
>>> [arena_points(o, s) for o, s in (("win", 0), ("win", 1), ("win", 2), ("draw", 3), ("loss", 0))]
[(2, 1), (2, 2), (4, 3), (1, 0), (0, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ARENA_DRAW",
    "ARENA_LOSS",
    "ARENA_WIN",
    "STREAK_FROM",
    "ArenaPairing",
    "ArenaPlayer",
    "arena_points",
    "pair_arena",
]

ARENA_WIN = 2
ARENA_DRAW = 1
ARENA_LOSS = 0
STREAK_FROM = 3
"""The win in a row from which wins count double."""
DEFAULT_WINDOW = 16

_POINTS = 1e6      # × points apart
_RATING = 1.0      # × rating apart (capped below one point's worth)


def arena_points(outcome: str, streak: int) -> tuple[int, int]:
    """(points, streak after) for a game's ``outcome`` (``win``, ``draw`` or ``loss``) by an entrant
    who had won ``streak`` games in a row before it."""
    if outcome == "win":
        return (2 * ARENA_WIN if streak + 1 >= STREAK_FROM else ARENA_WIN), streak + 1
    if outcome == "draw":
        return ARENA_DRAW, 0
    if outcome == "loss":
        return ARENA_LOSS, 0
    raise ValueError(f"an outcome is win, draw or loss, not {outcome!r}")


@dataclass(frozen=True)
class ArenaPlayer:
    """An entrant free to play now."""

    id: str
    points: int
    rating: float = 0.0
    last_opponent: str | None = None
    waiting_since: float = 0.0
    """When they came free (seconds; only the order matters)."""
    firsts: int = 0
    """Games begun at seat 0."""
    games: int = 0


@dataclass(frozen=True)
class ArenaPairing:
    """``pairs`` (``pair[0]`` sits at seat 0) and who waits."""

    pairs: tuple[tuple[str, str], ...]
    waiting: tuple[str, ...]


def _met_last(a: ArenaPlayer, b: ArenaPlayer) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def _match(group: list[ArenaPlayer]) -> tuple[list[tuple[ArenaPlayer, ArenaPlayer]], list[ArenaPlayer]]:
    if len(group) < 2:
        return [], list(group)
    import networkx as nx  # here, not at the top: a server or a command that pairs nobody never loads it

    graph = nx.Graph()
    for i, a in enumerate(group):
        for j in range(i + 1, len(group)):
            b = group[j]
            if _met_last(a, b):
                continue
            cost = _POINTS * abs(a.points - b.points) + _RATING * min(abs(a.rating - b.rating), 1e5)
            graph.add_edge(i, j, weight=-cost)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [(group[min(u, v)], group[max(u, v)]) for u, v in matched]
    used = {min(u, v) for u, v in matched} | {max(u, v) for u, v in matched}
    return pairs, [p for i, p in enumerate(group) if i not in used]


def _pair_all(pool: list[ArenaPlayer], window: int) -> tuple[list[tuple[ArenaPlayer, ArenaPlayer]], list[ArenaPlayer]]:
    """As many of ``pool`` (by points) paired as windows allow; those left over once more with the last window."""
    pairs: list[tuple[ArenaPlayer, ArenaPlayer]] = []
    carry: list[ArenaPlayer] = []
    for start in range(0, len(pool), window):
        got, carry = _match(carry + pool[start:start + window])
        pairs += got
    if carry and pairs:  # those left over: once more together with the last pairs made
        redo = pairs[-window:]
        got, rest = _match([p for pair in redo for p in pair] + carry)
        if len(got) > len(redo):
            pairs = pairs[:len(pairs) - len(redo)] + got
            carry = rest
    return pairs, carry


def pair_arena(free: Sequence[ArenaPlayer], *, window: int = DEFAULT_WINDOW) -> ArenaPairing:
    """Pair the entrants free now (see the module's text); who cannot be paired waits."""
    if window < 2:
        raise ValueError(f"a window holds 2 entrants or more, not {window}")
    if len({p.id for p in free}) != len(free):
        raise ValueError("an entrant is named twice")
    order = sorted(range(len(free)), key=lambda i: (-free[i].points, -free[i].rating, i))
    pool = [free[i] for i in order]
    if len(pool) % 2:
        last = max(range(len(pool)), key=lambda i: (pool[i].waiting_since, i))
        pairs, waiting = _pair_all(pool[:last] + pool[last + 1:], window)
        waiting.append(pool[last])
        if len(waiting) > 1:  # another may wait instead, so that more can play
            more, left = _pair_all(pool, window)
            if len(more) > len(pairs):
                pairs, waiting = more, left
    else:
        pairs, waiting = _pair_all(pool, window)
    out: list[tuple[str, str]] = []
    for a, b in pairs:
        ka, kb = (2 * a.firsts - a.games, a.waiting_since), (2 * b.firsts - b.games, b.waiting_since)
        out.append((a.id, b.id) if ka <= kb else (b.id, a.id))
    waited = sorted(waiting, key=lambda p: p.waiting_since)
    return ArenaPairing(tuple(out), tuple(p.id for p in waited))
