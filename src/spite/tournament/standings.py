"""Standings: match points, the duplicate tiebreak and Buchholz (Swiss); points and streaks (arena).

**Swiss.** Each pairing plays two games on the round's deal, seats swapped (game 1: ``entrants[0]`` at
seat 0; game 2: ``entrants[1]`` at seat 0). An entrant's *match points* are games won: 1 for each game
won, ½ for a game drawn or left unfinished, 0 for a game lost — so a pairing gives 2 points in all
(2–0, 1½–½, 1–1, ...). A game lost by not coming to the table is lost (0; both absent: 0 each). A *bye*
is 1 point: one game won of the two.

Ties are broken by, in this order:

1. **the duplicate comparison** (``tiebreak``): every pairing of a round played the same deal, so an
   entrant's game can be compared with how the field did *on the same cards*: for each game, the
   entrant's game score minus the mean game score of everyone who sat at that seat on that deal, summed
   over the games. A game's score is the game's own (``GameResult.scores``: the server passes each
   seat's points, e.g. Spite and Malice's winner scores by the cards left in the loser's stock, the
   loser 0) where it gives one, else 1 for a win, ½ for a draw, 0 for a loss (on a deal where games
   gave scores, a game without any, a draw or one left unfinished, scores 0). Games not played (a
   no-show) and byes do not count. With won/lost alone the comparison says no more than the points
   (an entrant plays each seat once a deal, and the two seats' means add up to one game, so the sum is
   the points minus one a round): it rewards winning *by more* than the field did with the same cards.
2. **Buchholz**: the sum of the opponents' match points (how strong the field one met was; an
   opponent counts once a game of the pairing has a result).

Entrants equal on all three share a rank (1, 2, 2, 4, ...); ``standings`` lists them in joining order.

**Arena.** Points as ``spite.tournament.arena.arena_points`` gives them game by game in the order the
games ended (win 2, draw 1, loss 0; a win from the third in a row 4); ties by more wins, then by fewer
games.

>>> g = GameResult
>>> rounds = [SwissGames(1, ("a", "b"), (g(winner=0), g(winner=0))),     # a won at seat 0, b won at seat 0
...           SwissGames(1, ("c", "d"), (g(winner=0), g(winner=1))),     # c won both
...           SwissGames(2, ("a", "c"), (g(winner=1), g(winner=None)))]  # c won game 1, game 2 drawn
>>> for s in swiss_standings(["a", "b", "c", "d"], rounds):
...     print(s.rank, s.entrant, s.points, s.tiebreak, s.buchholz)
1 c 3.5 1.5 1.5
2 a 1.5 -0.5 4.5
3 b 1.0 0.0 1.5
4 d 0.0 -1.0 3.5

(Deal 1, seat 0: a, b, c won, d lost: mean ¾; seat 1: only c won: mean ¼. So c's deal 1 is
(1 − ¾) + (1 − ¼) = 1; deal 2, seat 1: c 1, a ½ (mean ¾), seat 0: a 0, c ½ (mean ¼): c's is ¼ + ¼.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spite.tournament.arena import arena_points

__all__ = [
    "ArenaGame",
    "ArenaTally",
    "GameResult",
    "Standing",
    "SwissGames",
    "arena_standings",
    "swiss_standings",
]


@dataclass(frozen=True)
class GameResult:
    """How one game ended, by seat."""

    winner: int | None = None
    """The seat that won; ``None``: a draw, or unfinished."""
    scores: tuple[float, ...] | None = None
    """Each seat's score where the game gives one (compared in the duplicate tiebreak)."""
    noshow: tuple[int, ...] = ()
    """Seats that did not come to the table within the grace time: they lost."""

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in (0, 1):
            raise ValueError(f"a winner is seat 0 or 1, not {self.winner}")
        if any(s not in (0, 1) for s in self.noshow):
            raise ValueError("a no-show is seat 0 or 1")
        if len(self.noshow) == 1 and self.winner is None:
            object.__setattr__(self, "winner", 1 - self.noshow[0])
        if self.winner is not None and self.winner in self.noshow:
            raise ValueError("a seat that did not come cannot win")

    @property
    def played(self) -> bool:
        """Whether the game was played (nobody failed to come)."""
        return not self.noshow

    def outcome(self, seat: int) -> str:
        """``win``, ``draw`` or ``loss`` for ``seat``."""
        if seat in self.noshow:
            return "loss"
        if self.winner is None:
            return "draw"
        return "win" if self.winner == seat else "loss"

    def match_points(self, seat: int) -> float:
        """1 won, ½ drawn or unfinished, 0 lost."""
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[self.outcome(seat)]

    def score(self, seat: int) -> float:
        """The game score the duplicate tiebreak compares: the game's own, else 1, ½ or 0."""
        if self.scores is not None:
            return float(self.scores[seat])
        return self.match_points(seat)

    def to_json(self) -> dict[str, object]:
        return {"winner": self.winner, "scores": None if self.scores is None else list(self.scores),
                "noshow": list(self.noshow)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> GameResult:
        scores = data.get("scores")
        noshow = data.get("noshow") or []
        winner = data.get("winner")
        assert winner is None or isinstance(winner, int)
        assert isinstance(noshow, list) and (scores is None or isinstance(scores, list))
        return cls(winner, None if scores is None else tuple(float(x) for x in scores), tuple(int(x) for x in noshow))


@dataclass(frozen=True)
class SwissGames:
    """A Swiss pairing's games: deal ``deal`` (the round), ``entrants`` (one: a bye), a result per game
    (``None``: not finished yet)."""

    deal: int
    entrants: tuple[str, ...]
    games: tuple[GameResult | None, ...] = ()

    def seat_of(self, game: int, entrant: str) -> int:
        """The seat of ``entrant`` in game ``game`` (0-based index into ``games``)."""
        first = self.entrants[0] if game % 2 == 0 else self.entrants[1]
        return 0 if entrant == first else 1


@dataclass(frozen=True)
class Standing:
    """One row of the standings."""

    rank: int
    entrant: str
    points: float
    games: int
    wins: int
    tiebreak: float | None = None
    """Swiss: the duplicate comparison; arena: ``None``."""
    buchholz: float | None = None
    streak: int | None = None
    """Arena: wins in a row now."""


def _ranked(rows: list[Standing], key: Iterable[tuple[float, ...]]) -> list[Standing]:
    keys = list(key)
    order = sorted(range(len(rows)), key=lambda i: (keys[i], i))
    out: list[Standing] = []
    for place, i in enumerate(order):
        rank = place + 1
        if out and keys[order[place - 1]] == keys[i]:
            rank = out[-1].rank
        row = rows[i]
        out.append(Standing(rank, row.entrant, row.points, row.games, row.wins, row.tiebreak, row.buchholz,
                            row.streak))
    return out


def swiss_standings(entrants: Sequence[str], pairings: Iterable[SwissGames]) -> list[Standing]:
    """The Swiss standings of ``entrants`` (joining order) from the pairings so far (see the module's text)."""
    pairings = list(pairings)
    points = dict.fromkeys(entrants, 0.0)
    games = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    opponents: dict[str, list[str]] = {e: [] for e in entrants}
    field: dict[tuple[int, int], list[float]] = {}
    # a deal where the game gave scores compares scores; there a game without any (a draw, one left
    # unfinished) scores 0 at both seats rather than ½ on another scale
    scored = {p.deal for p in pairings for r in p.games if r is not None and r.scores is not None}

    def score(result: GameResult, seat: int, deal: int) -> float:
        if result.scores is None and deal in scored:
            return 0.0
        return result.score(seat)

    for p in pairings:
        if len(p.entrants) == 1:
            points[p.entrants[0]] += 1.0
            continue
        a, b = p.entrants
        if any(result is not None for result in p.games):  # a pairing not begun yet counts for nobody
            opponents[a].append(b)
            opponents[b].append(a)
        for i, result in enumerate(p.games):
            if result is None:
                continue
            for who in (a, b):
                seat = p.seat_of(i, who)
                points[who] += result.match_points(seat)
                games[who] += result.played
                wins[who] += result.outcome(seat) == "win"
                if result.played:
                    field.setdefault((p.deal, seat), []).append(score(result, seat, p.deal))
    mean = {key: sum(v) / len(v) for key, v in field.items()}
    duplicate = dict.fromkeys(entrants, 0.0)
    for p in pairings:
        if len(p.entrants) == 1:
            continue
        for i, result in enumerate(p.games):
            if result is None or not result.played:
                continue
            for who in p.entrants:
                seat = p.seat_of(i, who)
                duplicate[who] += score(result, seat, p.deal) - mean[(p.deal, seat)]
    buchholz = {e: sum(points[o] for o in opponents[e]) for e in entrants}
    rows = [Standing(0, e, points[e], games[e], wins[e], round(duplicate[e], 6), buchholz[e]) for e in entrants]
    return _ranked(rows, ((-r.points, -(r.tiebreak or 0.0), -(r.buchholz or 0.0)) for r in rows))


@dataclass(frozen=True)
class ArenaGame:
    """An arena game that ended: ``entrants`` by seat and how it ended."""

    entrants: tuple[str, str]
    result: GameResult


class ArenaTally:
    """The arena's points, added up game by game in the order the games ended (so that the server's
    state need not count them all again for each game that ends)."""

    def __init__(self) -> None:
        self.points: dict[str, int] = {}
        self.games: dict[str, int] = {}
        self.wins: dict[str, int] = {}
        self.streak: dict[str, int] = {}
        self.last: dict[str, str] = {}
        """Each entrant's opponent in their last game."""
        self.firsts: dict[str, int] = {}
        """Games begun at seat 0."""
        self.per_game: list[dict[str, int]] = []

    def add(self, game: ArenaGame) -> dict[str, int]:
        """Count the next game to end; returns the points it gave each entrant."""
        got: dict[str, int] = {}
        a, b = game.entrants
        self.last[a], self.last[b] = b, a
        self.firsts[a] = self.firsts.get(a, 0) + 1
        for seat, who in enumerate(game.entrants):
            outcome = game.result.outcome(seat)
            gained, self.streak[who] = arena_points(outcome, self.streak.get(who, 0))
            got[who] = gained
            self.points[who] = self.points.get(who, 0) + gained
            self.games[who] = self.games.get(who, 0) + 1
            self.wins[who] = self.wins.get(who, 0) + (outcome == "win")
        self.per_game.append(got)
        return got

    def standings(self, entrants: Sequence[str]) -> list[Standing]:
        """The standings of ``entrants`` (joining order) by the games counted so far."""
        rows = [Standing(0, e, float(self.points.get(e, 0)), self.games.get(e, 0), self.wins.get(e, 0), None, None,
                         self.streak.get(e, 0)) for e in entrants]
        return _ranked(rows, ((-r.points, -r.wins, r.games) for r in rows))


def arena_standings(entrants: Sequence[str], games: Iterable[ArenaGame]) -> tuple[list[Standing], list[dict[str, int]]]:
    """(the arena standings of ``entrants`` (joining order), each game's points by entrant) from the games
    in the order they ended."""
    tally = ArenaTally()
    for game in games:
        tally.add(game)
    return tally.standings(entrants), tally.per_game
