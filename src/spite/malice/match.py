"""Match play: games until a side reaches the target score, the loser of a game beginning the next.

With ``scoring: "payoff"`` a winner scores one point per card left in the opponents' stocks
(docs/rules.md §1.3 rule 6); without scoring, a win counts one point. The first game's starter is
cut at random; after a won game the loser begins (with 3 or 4 players: the loser with the most
stock cards left, ties going to the first such seat after the winner; with partnerships: the seat
after the winner); after a drawn game, the seat after the one that began it.

>>> from spite.malice import Match, Options
>>> match = Match(Options.from_preset("match", {"match_target": 5}), seed=11)
>>> while not match.is_over:
...     game = match.start_game()
...     while not game.is_over:
...         _ = game.play(game.legal_moves()[0])
...     match.finish_game(game)
>>> max(match.scores) >= 5 and match.winner is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spite.cards import chance_rng
from spite.errors import refusal
from spite.malice.options import Options
from spite.malice.state import Result, State

__all__ = ["Match"]


@dataclass
class Match:
    """A match of several games under one set of options."""

    opts: Options
    seed: int | str = 0
    scores: list[int] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    starters: list[int] = field(default_factory=list)
    _current: State | None = None

    def __post_init__(self) -> None:
        if not self.scores:
            self.scores = [0] * self.sides

    @property
    def sides(self) -> int:
        """Scoring sides: teams with partnerships, else seats."""
        return 2 if self.opts.partnerships else self.opts.players

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return seat % 2 if self.opts.partnerships else seat

    @property
    def target(self) -> int:
        """Points that win the match."""
        return self.opts.match_target

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        return max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        """The side that won the match (``None`` while it goes on)."""
        if not self.is_over:
            return None
        return max(range(self.sides), key=lambda s: self.scores[s])

    def game_seed(self, index: int) -> int:
        """The seed of the ``index``-th game of the match (derived from the match seed)."""
        return chance_rng(self.seed, "match-game", index).getrandbits(48)

    def next_starter(self) -> int | None:
        """Who begins the next game (``None`` for the first game: the cut decides)."""
        if not self.results:
            return None
        last, began = self.results[-1], self.starters[-1]
        n = self.opts.players
        if last.winner is None:
            return (began + 1) % n
        winner = last.winner
        if self.opts.partnerships or n == 2:
            return (winner + 1) % n
        prev = self._current
        stock_left = [len(prev.stock_of(s)) for s in range(n)] if prev is not None else [0] * n
        order = [(winner + k) % n for k in range(1, n)]
        return max(order, key=lambda s: (stock_left[s], -order.index(s)))

    def start_game(self, seed: int | str | None = None) -> State:
        """Deal the next game from ``seed`` (a fair table's own seed for it, docs/fairness.md; by
        default the one derived from the match seed)."""
        if self.is_over:
            raise refusal("the match is over", "refuse.match-over")
        if seed is None:
            seed = self.game_seed(len(self.results))
        state = State.new(self.opts, seed, first=self.next_starter())
        self._current = state
        return state

    def finish_game(self, state: State) -> None:
        """Count a finished game into the match."""
        if state.result is None:
            raise refusal("the game is not over yet", "refuse.game-not-over")
        result = state.result
        self.starters.append(state.initial["to_move"])
        self.results.append(result)
        if result.winner is not None:
            side = self.side_of(result.winner)
            self.scores[side] += result.points if result.points is not None else 1
        self._current = state
