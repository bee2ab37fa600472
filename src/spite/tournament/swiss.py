"""Swiss pairing as a maximum-weight matching, with the Dutch system's rules as the weights.

Each round every entrant still in meets one opponent (an odd field: one *bye*). Who meets whom is a
maximum-cardinality, maximum-weight matching (:func:`networkx.max_weight_matching`) on a graph whose
edges are the pairs allowed and whose weights say, from the heaviest term to the lightest, what the
Dutch system (FIDE C.04.3) asks for:

1. **no rematch**: two entrants who have met have no edge (only when no pairing of everyone exists
   without one — a tiny field late in the event — rematches are allowed, each at a penalty above all
   the terms below);
2. **seats within bounds**: nobody's count of games begun at seat 0 may drift more than 2 from their
   count of games begun at seat 1 (the Dutch system's absolute colour rule), so two entrants who both
   must begin (or both must not) are kept apart;
3. **the same score**: a pair within one score group costs nothing, a pair across groups costs the
   square of the difference of their scores (in half points) plus one: fewer floaters, and two who
   float one group down each rather than one who floats two;
4. **seat preference**: a pair whose members both prefer the same seat (one would reach a difference
   of 2) costs a little, two who both began (or both did not) last time a little less;
5. **rating order**: within a score group the top half meets the bottom half (1 meets 1 + n/2, ...),
   each step away from that the lightest cost.

In a pairing the entrant with the fewer games begun at seat 0 (then: who did not begin last time;
then, on odd boards the higher-ranked, on even boards the lower) is ``pair[0]``: seat 0 in game 1,
seat 1 in game 2 (the same deal, seats swapped).

**Byes.** An odd field's bye goes to the lowest-ranked entrant (by score, then rating, then the order
given) who has had the fewest byes — never a second while someone has had none, unless every such
choice would force a rematch among the rest (then the next candidates in that order are tried: no
rematch weighs more than the order of byes). A bye counts as one game won: 1 match point
(``spite.tournament.standings``).

**Speed.** A blossom matching on a dense graph of 500 vertices takes seconds in pure Python, so the
pool is matched in *windows*: score groups top down, each cut into windows of ``window`` consecutive
entrants by rank. An odd window's lowest-ranked entrant floats into the next window before it is
matched (the Dutch system's downfloater), as does whoever the matching leaves unpaired (no partner
without a rematch or beyond the seat bounds); from a group's last window they float into the next
group. Should entrants be left at the end, the last pairs made are matched again together with them,
twice as many each time (the seat bounds give way from four windows' worth, rematches only on the
whole field). Round 1 (everyone on 0) is windows of the one group.
``spite bench pairing --entrants 500`` measures it (docs/tournaments.md).

>>> field = [SwissPlayer(f"e{i}", 0.0, rating=1500.0 - i) for i in range(1, 6)]
>>> first = pair_swiss(field)
>>> first.pairs, first.bye
((('e1', 'e3'), ('e4', 'e2')), 'e5')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["BYE_POINTS", "DEFAULT_WINDOW", "SwissPairing", "SwissPlayer", "pair_swiss"]

DEFAULT_WINDOW = 12
"""Entrants of one window: 12 pairs a round of 500 well within 100 ms (docs/tournaments.md)."""
BYE_POINTS = 1.0
"""What a bye scores: one game won of the pairing's two."""

# the weights, heaviest first; each level outweighs everything below it summed over a window. Floats
# holding whole numbers well below 2**53 (exact): networkx checks an integer-weighted optimum again,
# which would cost a tenth of the time.
_REMATCH = 1e15
_ABSOLUTE_SEAT = 1e12
_SCORE = 1e7             # × (the square of the half-points of difference (at most 20) + 1)
_SEAT_PREFERENCE = 1e4
_SEAT_REPEAT = 1e3
_RATING = 1.0            # × steps from the top-half-against-bottom-half partner

_STRICT, _RELAXED, _ANY = 0, 1, 2
_RELAX_FROM = 4
_BYE_TRIES = 8
"""Candidates for the bye tried when the first leaves a pairing that needs a rematch."""
"""Windows' worth of entrants matched again together before the seat bounds may give."""
"""How much a matching may give up: nothing; the seat bounds (at a penalty); rematches too (at a penalty)."""


@dataclass(frozen=True)
class SwissPlayer:
    """An entrant as the pairing sees them before a round."""

    id: str
    points: float
    """Match points so far (games won; a draw ½; a bye 1)."""
    rating: float = 0.0
    """Orders a score group (higher first); ties keep the order given (joining order)."""
    opponents: frozenset[str] = field(default_factory=frozenset)
    """Everyone met so far."""
    firsts: int = 0
    """Rounds in which they sat at seat 0 in the pairing's first game."""
    played: int = 0
    """Rounds paired with an opponent (byes not counted)."""
    last_first: bool | None = None
    """Whether they sat at seat 0 in game 1 of their last pairing (None: not paired yet)."""
    byes: int = 0

    @property
    def balance(self) -> int:
        """Games begun at seat 0 minus games begun at seat 1."""
        return 2 * self.firsts - self.played


@dataclass(frozen=True)
class SwissPairing:
    """One round's pairing: ``pairs`` board by board (``pair[0]`` sits at seat 0 in game 1), the bye."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    rematches: int = 0
    """Pairs of entrants who had met (only when no pairing without one existed)."""


@dataclass
class _Entry:
    player: SwissPlayer
    rank: int          # 0 = the top of the pool
    half: int          # points in half-points
    balance: int = 0
    began_last: bool = False

    def __post_init__(self) -> None:
        self.balance = self.player.balance
        self.began_last = self.player.last_first is True


def _first_of(a: _Entry, b: _Entry) -> tuple[_Entry, _Entry]:
    """(who begins, who follows) by seat balance, then who did not begin last time; ties: higher rank."""
    if a.balance != b.balance:
        return (a, b) if a.balance < b.balance else (b, a)
    if a.began_last != b.began_last:
        return (b, a) if a.began_last else (a, b)
    return (a, b) if a.rank < b.rank else (b, a)


def _seat_cost(a: _Entry, b: _Entry) -> float:
    low, high = (a.balance, b.balance) if a.balance <= b.balance else (b.balance, a.balance)
    worst = max(abs(low + 1), abs(high - 1))
    cost = 0.0
    if worst >= 3:
        cost += _ABSOLUTE_SEAT
    if worst >= 2:
        cost += _SEAT_PREFERENCE
    la, lb = a.player.last_first, b.player.last_first
    if la is not None and la == lb:
        cost += _SEAT_REPEAT
    return cost


def _match(group: list[_Entry], mode: int) -> tuple[list[tuple[_Entry, _Entry]], list[_Entry]]:
    """A maximum-cardinality, maximum-weight matching of ``group`` (sorted by rank): (pairs, left over)."""
    if len(group) < 2:
        return [], list(group)
    # positions within each score group of the window, for the top-half-against-bottom-half term
    position: dict[int, int] = {}
    size: dict[int, int] = {}
    for entry in group:
        position[entry.rank] = size.get(entry.half, 0)
        size[entry.half] = size.get(entry.half, 0) + 1
    edges: list[tuple[int, int, float]] = []
    for i, a in enumerate(group):
        met_a = a.player.opponents
        for b in group[i + 1:]:
            met = b.player.id in met_a
            if met and mode < _ANY:
                continue
            cost = _seat_cost(a, b)
            if cost >= _ABSOLUTE_SEAT and mode == _STRICT:
                continue
            if met:
                cost += _REMATCH
            if a.half != b.half:
                cost += _SCORE * (min(abs(a.half - b.half), 20) ** 2 + 1)
            else:
                cost += _RATING * abs(abs(position[b.rank] - position[a.rank]) - size[a.half] // 2)
            edges.append((a.rank, b.rank, -cost))
    import networkx as nx  # here, not at the top: a server or a command that pairs nobody never loads it

    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    by_rank = {entry.rank: entry for entry in group}
    pairs = [(by_rank[min(u, v)], by_rank[max(u, v)]) for u, v in matched]
    used = {e.rank for pair in pairs for e in pair}
    return pairs, [e for e in group if e.rank not in used]


def _windows(pool: list[_Entry], window: int) -> tuple[list[tuple[_Entry, _Entry]], list[_Entry]]:
    """Score groups top down, each in windows of ``window``; floaters carried on. (pairs, left over)."""
    done: list[tuple[_Entry, _Entry]] = []
    carry: list[_Entry] = []
    for _, members in itertools.groupby(pool, key=lambda e: e.half):
        bracket = list(members)
        i = 0
        while i < len(bracket):
            end = i + window
            if len(bracket) - end < window // 2:  # a small rest joins this window
                end = len(bracket)
            chunk = carry + bracket[i:end]
            i = end
            # an odd window's lowest-ranked entrant floats on (the Dutch system's downfloater)
            spare = [chunk.pop()] if len(chunk) % 2 else []
            pairs, carry = _match(chunk, _STRICT)
            carry += spare
            done += pairs
    return done, carry


def _pair_pool(ranked: list[SwissPlayer], window: int) -> list[tuple[_Entry, _Entry]]:
    """Everyone of an even ``ranked`` (best first) paired: windows, then wider (see the module's text)."""
    pool = [_Entry(p, rank, round(p.points * 2)) for rank, p in enumerate(ranked)]
    pairs, left = _windows(pool, window)
    size = window
    while left:  # match the last pairs made again with those left, more each time, until everyone is paired
        size *= 2
        take = min(len(pairs), max(1, (size - len(left)) // 2))
        redo = pairs[len(pairs) - take:]
        group = sorted([e for pair in redo for e in pair] + left, key=lambda e: e.rank)
        whole = take == len(pairs)
        again, rest = _match(group, _STRICT)
        if rest and (len(group) >= _RELAX_FROM * window or whole):  # give up the seat bounds before going far
            again, rest = _match(group, _RELAXED)
        if rest and whole:
            again, rest = _match(group, _ANY)
        if not rest or whole:
            pairs = pairs[:len(pairs) - take] + again
            left = rest
            break
    if left:
        raise ValueError("no pairing of these entrants exists")  # unreachable: rematches allowed, an even count
    return pairs


def pair_swiss(players: Sequence[SwissPlayer], *, window: int = DEFAULT_WINDOW) -> SwissPairing:
    """Pair one round of a Swiss among ``players`` (those still in: leave the withdrawn out).

    Everyone is paired exactly once, or has the bye; see the module's text for the rules.
    """
    if window < 2:
        raise ValueError(f"a window holds 2 entrants or more, not {window}")
    if len({p.id for p in players}) != len(players):
        raise ValueError("an entrant is named twice")
    order = sorted(range(len(players)), key=lambda i: (-players[i].points, -players[i].rating, i))
    ranked = [players[i] for i in order]
    if len(ranked) % 2 == 0:
        bye: str | None = None
        pairs = _pair_pool(ranked, window)
    else:
        # the bye: the lowest-ranked of those with the fewest byes; should the rest then need a rematch,
        # the next candidates are tried (a few: only a small field late in the event comes to that)
        candidates = sorted(range(len(ranked)), key=lambda i: (ranked[i].byes, -i))[:_BYE_TRIES]
        tried: list[tuple[str, list[tuple[_Entry, _Entry]]]] = []
        for i in candidates:
            rest = ranked[:i] + ranked[i + 1:]
            made = _pair_pool(rest, window)
            tried.append((ranked[i].id, made))
            if not any(b.player.id in a.player.opponents for a, b in made):
                break
            if len(tried) == 1 and len(ranked) > _BYE_TRIES * window:
                break  # a large field: the rematch is not for want of another bye
        bye, pairs = next(((who, made) for who, made in tried
                           if not any(b.player.id in a.player.opponents for a, b in made)), tried[0])
    pairs.sort(key=lambda pair: min(pair[0].rank, pair[1].rank))
    boards: list[tuple[str, str]] = []
    rematches = 0
    for board, (a, b) in enumerate(pairs):
        first, second = _first_of(a, b)
        if (first.balance, first.began_last) == (second.balance, second.began_last):
            high, low = (a, b) if a.rank < b.rank else (b, a)
            first, second = (high, low) if board % 2 == 0 else (low, high)
        boards.append((first.player.id, second.player.id))
        rematches += b.player.id in a.player.opponents
    return SwissPairing(tuple(boards), bye, rematches)
