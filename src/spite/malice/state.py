"""The game state of the Spite and Malice family: deal, legal moves, play, undo, views.

The rules are those of docs/rules.md §1.3, which also writes down every choice the engine makes
where the rule texts are silent. A state is pure and deterministic: everything that chance
decides comes from the game's seed (one generator per chance event, see
:func:`spite.cards.chance_rng`) or from outcomes the caller queues in :attr:`State.chance_queue`
(a record's chance entries).

>>> from spite.malice import Options, State
>>> state = State.new(Options.from_preset("short"), seed=7)
>>> len(state.hands[state.to_move]), len(state.stocks[0]), state.is_over
(5, 13, False)
>>> move = state.legal_moves()[0]
>>> played = state.play(move)
>>> played.move is move, played.seat == state.history[-1].seat
(True, True)
>>> state.undo() is move
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from spite.cards import (
    RANKS,
    chance_rng,
    describe_rank,
    format_card,
    format_cards,
    multiset_difference,
    rank_param,
    shuffle_cards,
)
from spite.errors import ChanceError, DealError, IllegalMoveError, MissingChanceError, Phrase, refusal
from spite.malice.legal import MoveTables, blocking_play, move_tables
from spite.malice.legal import build_moves as _build_moves
from spite.malice.legal import end_moves as _end_moves
from spite.malice.moves import (
    BUILD,
    DISCARD,
    HAND,
    STOCK,
    Move,
    parse_move,
)
from spite.malice.options import Options
from spite.malice.result import Result
from spite.malice.view import SeatView

__all__ = ["Played", "Result", "State"]

COMPLETE = 12
"""A build pile is complete when its value reaches the Queen (12)."""


Draw = tuple[int, list[int]] | tuple[int, list[int], int, tuple[int, ...], tuple[int, ...]]
"""What a draw took: ``(seat, cards)`` straight from the draw pile, or ``(seat, cards, hand length
before, draw pile before, set-aside cards before)`` when the set-aside cards were shuffled in on the
way (the undo puts the piles back as they were). ``cards`` (in the order drawn) is a list only
because slicing the hand is the cheapest copy; nothing changes it."""

_NO_SHUFFLES: tuple[tuple[int, ...], ...] = ()


class Played(NamedTuple):
    """What one :meth:`State.play` did: the move, the chance events it caused and what it turned up.

    It is also the move's entry in :attr:`State.history` (what :meth:`State.undo` needs), so making
    it costs play nothing beyond the undo record it already kept. Read the named fields and the
    properties; the fields marked *undo* are the engine's own.

    >>> from spite.malice import Options
    >>> state = State.new(Options.from_preset("short"), seed=7)
    >>> first = state.play(state.end_moves()[0])    # the next seat holds 5 cards: it draws none
    >>> played = state.play(state.end_moves()[0])   # the first seat draws the card it discarded
    >>> played.ends_turn, played.reveals, played.drawn_by == first.seat == state.to_move, len(played.drawn)
    (True, True, True, 1)
    """

    move: Move
    """The move played (interned)."""
    seat: int
    """The seat that played it."""
    card: int
    """The card the move put on a build or discard pile (-1 for ``pass``); now face up."""
    hand_pos: int
    """*undo*: where a build play's card was in the hand (-1: not from the hand)."""
    completed: tuple[int, tuple[int, ...], tuple[int, ...] | None, int] | None
    """*undo*: the build pile the move completed (index, its cards, the draw pile before they were
    shuffled in or ``None``, the set-aside length before), or ``None``."""
    drew: Draw | None
    """*undo*: the draw the move caused (see :data:`Draw`): the mover's refilled empty hand, or the
    next seat's draw at the start of its turn; ``None``: none."""
    turn_end: tuple[int, int] | None
    """*undo*: a discard's card and where it was in the hand."""
    shuffles: tuple[tuple[int, ...], ...]
    """Every shuffle the move caused, in order, as the new draw pile (bottom to top): a completed
    pile shuffled in, set-aside cards shuffled when the draw pile ran out. These are the record's
    chance entries after the move."""
    turned: int
    """The stock card a stock play turned face up (-1: none)."""
    turn: int
    """*undo*: :attr:`State.turn` before the move (the rest of what it changed is above; the result
    was ``None``: a move is only played while the game goes on)."""
    idle_turns: int
    """*undo*: :attr:`State.idle_turns` before the move."""
    played_this_turn: int
    """*undo*: :attr:`State.played_this_turn` before the move."""
    shuffle_count: int
    """*undo*: :attr:`State.shuffles` before the move."""

    @property
    def ends_turn(self) -> bool:
        """True for a discard or ``pass``."""
        return self.move.kind != BUILD

    @property
    def completed_pile(self) -> tuple[int, tuple[int, ...]] | None:
        """The build pile the move completed (0-based) and its cards, which left the table."""
        done = self.completed
        return None if done is None else (done[0], done[1])

    @property
    def drawn_by(self) -> int | None:
        """The seat whose hand the move filled from the draw pile, or ``None``."""
        drew = self.drew
        return None if drew is None else drew[0]

    @property
    def drawn(self) -> tuple[int, ...]:
        """The cards drawn (only :attr:`drawn_by` may see them), in the order they were drawn."""
        drew = self.drew
        return () if drew is None else tuple(drew[1])

    @property
    def turned_up(self) -> tuple[int, ...]:
        """The cards that came face up for everyone besides :attr:`card`: the new stock top."""
        return () if self.turned < 0 else (self.turned,)

    @property
    def reveals(self) -> bool:
        """True when the move showed a card that was hidden or ended the turn (a stock play, a draw,
        a discard or pass): a player may not take it back."""
        move = self.move
        return move.kind != BUILD or move.source == STOCK or self.drew is not None

    def record_entries(self) -> list[Any]:
        """The move as a record's ``moves`` entries: its text, then a ``{"shuffle": [...]}`` per
        shuffle it caused."""
        return [self.move.text, *({"shuffle": format_cards(cards)} for cards in self.shuffles)]


_new_played = tuple.__new__
"""``Played`` made without its generated ``__new__`` (a Python call: twice the cost, on the hot path)."""


class State:
    """A position of a Spite and Malice game, and the game so far (for undo and records).

    Piles are lists of card codes, bottom to top (``pile[-1]`` is the top); the face-up build and
    discard piles are tuples, replaced rather than changed, so views share them without copying.
    Attributes are public for reading; change a state only through :meth:`play` and :meth:`undo`.

    * ``stocks[i]``: stock ``i`` (one per seat, or per team with partnerships);
    * ``hands[seat]``, ``discards[seat][j]``, ``builds[b]``, ``draw``, ``set_aside``;
    * ``to_move``; ``turn`` (turns ended so far); ``result`` (``None`` while the game goes on).
    """

    __slots__ = (
        "_public_tops",
        "_tables",
        "_value",
        "builds",
        "chance_log",
        "chance_queue",
        "discards",
        "draw",
        "hands",
        "history",
        "idle_turns",
        "initial",
        "opts",
        "played_this_turn",
        "result",
        "seed",
        "set_aside",
        "shuffles",
        "stocks",
        "to_move",
        "turn",
    )

    opts: Options
    seed: int | str | None
    _tables: MoveTables
    _value: tuple[int, ...]
    _public_tops: tuple[tuple[tuple[int, ...], ...], tuple[int, ...]] | None
    """The face-up stock cards as tuples and the stock sizes (for views), ``None`` once a stock has
    changed."""
    stocks: list[list[int]]
    hands: list[list[int]]
    discards: list[tuple[tuple[int, ...], ...]]
    builds: list[tuple[int, ...]]
    draw: list[int]
    set_aside: list[int]
    to_move: int
    turn: int
    idle_turns: int
    played_this_turn: int
    result: Result | None
    shuffles: int
    history: list[Played]
    """Every move played so far, with what :meth:`undo` needs (:class:`Played`)."""
    chance_log: list[tuple[int, tuple[int, ...]]]
    chance_queue: list[list[int]]
    initial: dict[str, Any]

    # ================================================================== construction
    @classmethod
    def new(cls, opts: Options | None = None, seed: int | str = 0, *, first: int | None = None) -> State:
        """A fresh game dealt from ``seed``; ``first`` fixes who begins (else the cut decides)."""
        opts = opts or Options()
        rng = chance_rng(seed, "deal", 0)
        deck = opts.deck_cards()
        shuffle_cards(deck, rng)
        starter = rng.randrange(opts.players) if first is None else first
        ss, hs = opts.stock_size, opts.hand_size
        stocks = [deck[i * ss:(i + 1) * ss] for i in range(opts.n_stocks)]
        pos = opts.n_stocks * ss
        hands = [deck[pos + i * hs: pos + (i + 1) * hs] for i in range(opts.players)]
        draw = deck[pos + opts.players * hs:]
        return cls.from_deal(opts, stocks=stocks, hands=hands, draw=draw, to_move=starter, seed=seed)

    @classmethod
    def from_deal(
        cls,
        opts: Options,
        *,
        stocks: Sequence[Sequence[int]],
        hands: Sequence[Sequence[int]],
        draw: Sequence[int],
        builds: Sequence[Sequence[int]] | None = None,
        discards: Sequence[Sequence[Sequence[int]]] | None = None,
        set_aside: Sequence[int] = (),
        to_move: int = 0,
        seed: int | str | None = None,
        chance_queue: Iterable[Sequence[int]] = (),
    ) -> State:
        """A game from an explicit position at the start of ``to_move``'s turn (the engine draws first).

        Raises :class:`DealError` when the position is not one of this game (records.md §3).
        """
        self = object.__new__(cls)
        self.opts = opts
        self.seed = seed
        self._prepare()
        n = opts.players
        if len(stocks) != opts.n_stocks:
            what = "teams" if opts.partnerships else "players"
            raise DealError(f"deal: {len(stocks)} stocks, but {opts.n_stocks} {what} need one each")
        if len(hands) != n:
            raise DealError(f"deal: {len(hands)} hands for {n} players")
        if builds is None or len(builds) == 0:
            builds = [[] for _ in range(opts.build_piles)]
        if len(builds) != opts.build_piles:
            raise DealError(f"deal: {len(builds)} build piles, the options say {opts.build_piles}")
        if discards is None or len(discards) == 0:
            discards = [[[] for _ in range(opts.discard_piles)] for _ in range(n)]
        if len(discards) != n:
            raise DealError(f"deal: discard piles for {len(discards)} players, there are {n}")
        for seat, piles in enumerate(discards):
            if len(piles) != opts.discard_piles:
                raise DealError(
                    f"deal: player {seat} has {len(piles)} discard piles, the options say {opts.discard_piles}")
        if not 0 <= to_move < n:
            raise DealError(f"deal: to_move must be a seat from 0 to {n - 1}, not {to_move}")
        for i, stock in enumerate(stocks):
            if not stock:
                raise DealError(f"deal: stock {i} is empty, so the game would be over before it starts")
        for b, pile in enumerate(builds):
            if len(pile) >= COMPLETE:
                raise DealError(f"deal: build pile {b + 1} holds {len(pile)} cards, a complete pile leaves at once")
            for pos, card in enumerate(pile):
                value = self._value[card]
                if value != 0 and value != pos + 1:
                    raise DealError(
                        f"deal: build pile {b + 1} has {format_card(card)} as its card {pos + 1}, "
                        f"it needs {describe_rank(pos + 1, opts.skipbo)} or a wild card")
        everything: Counter[int] = Counter()
        for group in (stocks, hands, builds):
            for pile in group:
                everything.update(pile)
        for piles in discards:
            for pile in piles:
                everything.update(pile)
        everything.update(draw)
        everything.update(set_aside)
        deck = Counter(opts.deck_cards())
        if everything != deck:
            raise DealError(f"deal: {multiset_difference(everything, deck)}")
        for piles in discards:
            for pile in piles:
                for card in pile:
                    if RANKS[card] == 1 and not opts.discard_aces:
                        raise DealError(f"deal: {format_card(card)} lies on a discard pile, aces may not be discarded")

        self.stocks = [list(s) for s in stocks]
        self.hands = [list(h) for h in hands]
        self.discards = [tuple([tuple(p) for p in piles]) for piles in discards]
        self.builds = [tuple(b) for b in builds]
        self.draw = list(draw)
        self.set_aside = list(set_aside)
        self.to_move = to_move
        self.turn = 0
        self.idle_turns = 0
        self.played_this_turn = 0
        self.result = None
        self.shuffles = 0
        self.history = []
        self.chance_log = []
        self.chance_queue = [list(c) for c in chance_queue]
        self.initial = {
            "stocks": [list(s) for s in stocks],
            "hands": [list(h) for h in hands],
            "draw": list(draw),
            "builds": [list(b) for b in builds],
            "discards": [[list(p) for p in piles] for piles in discards],
            "set_aside": list(set_aside),
            "to_move": to_move,
        }
        # The position is the one before the turn-start draw: the engine draws first. What this
        # draw shuffles is logged at ply -1 (before the first move).
        self._draw(to_move, opts.hand_size - len(self.hands[to_move]))
        self.chance_log = [(-1, outcome) for _, outcome in self.chance_log]
        return self

    def __getstate__(self) -> dict[str, object]:
        """What a pickle keeps: the position and its record, not the tables and caches that
        :meth:`_prepare` makes again from the options (so a state crosses to another process)."""
        return {name: getattr(self, name) for name in State.__slots__ if not name.startswith("_")}

    def __setstate__(self, saved: dict[str, object]) -> None:
        for name, value in saved.items():
            setattr(self, name, value)
        self._prepare()

    def _prepare(self) -> None:
        """Set the move tables of the options and empty the view cache (a new or rebuilt state)."""
        self._tables = move_tables(self.opts)
        self._value = self._tables.value
        self._public_tops = None

    def public_stocks(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The face-up cards of every stock as tuples, and the stock sizes (what every view shows),
        made again only after a stock has changed."""
        out = self._public_tops
        if out is None:
            k = self.opts.open_stock
            stocks = self.stocks
            out = self._public_tops = (tuple([tuple(s[-k:]) for s in stocks]), tuple(map(len, stocks)))
        return out

    def copy(self, *, stack: bool = True) -> State:
        """An independent copy; with ``stack=False`` the copy cannot undo what came before it."""
        other = object.__new__(State)
        other.opts = self.opts
        other.seed = self.seed
        other._tables = self._tables
        other._value = self._value
        other._public_tops = self._public_tops
        other.stocks = [s[:] for s in self.stocks]
        other.hands = [h[:] for h in self.hands]
        other.discards = self.discards[:]
        other.builds = self.builds[:]
        other.draw = self.draw[:]
        other.set_aside = self.set_aside[:]
        other.to_move = self.to_move
        other.turn = self.turn
        other.idle_turns = self.idle_turns
        other.played_this_turn = self.played_this_turn
        other.result = self.result
        other.shuffles = self.shuffles
        other.history = self.history[:] if stack else []
        other.chance_log = self.chance_log[:] if stack else []
        other.chance_queue = []
        other.initial = self.initial
        return other

    # ================================================================== facts
    @property
    def is_over(self) -> bool:
        """True once the game has ended (a stock was emptied, or a draw)."""
        return self.result is not None

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.opts.players

    @property
    def plies(self) -> int:
        """Moves played so far (chance outcomes not counted)."""
        return len(self.history)

    def stock_of(self, seat: int) -> list[int]:
        """The stock ``seat`` plays from (its team's with partnerships)."""
        return self.stocks[seat % 2 if self.opts.partnerships else seat]

    def build_value(self, pile: int) -> int:
        """The value of build pile ``pile`` (0-based): 0 when empty, else the value of its top card."""
        return len(self.builds[pile])

    def card_value(self, card: int) -> int:
        """The value ``card`` is played as: 1..12, 0 for a wild card, 13 for a King that is not wild."""
        return self._value[card]

    # ================================================================== legal moves
    def build_moves(self) -> list[Move]:
        """Every legal build play of the player to move (none once the game is over)."""
        if self.result is not None:
            return []
        seat = self.to_move
        stock = self.stocks[seat % 2 if self.opts.partnerships else seat]
        return _build_moves(self._tables, self.hands[seat], stock[-1] if stock else None, self.discards[seat],
                            self.builds)

    def end_moves(self) -> list[Move]:
        """Every legal turn-ending move (discards, or ``pass`` when no card may be discarded)."""
        if self.result is not None:
            return []
        seat = self.to_move
        stock = self.stocks[seat % 2 if self.opts.partnerships else seat]
        return _end_moves(self._tables, self.hands[seat], stock[-1] if stock else None, self.discards[seat],
                          self.builds)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: build plays first, then turn-ending moves."""
        moves = self.build_moves()
        moves.extend(self.end_moves())
        return moves

    def is_legal(self, move: Move | str) -> bool:
        """True if ``move`` may be played now."""
        try:
            self._check(self._as_move(move))
        except IllegalMoveError:
            return False
        return True

    def _blocking_play(self) -> tuple[str, Phrase] | None:
        """A legal build play of a non-wild card (no_blocking forbids ending the turn while there is one)."""
        seat = self.to_move
        stock = self.stock_of(seat)
        return blocking_play(self._tables, self.hands[seat], stock[-1] if stock else None, self.discards[seat],
                             self.builds)

    # ================================================================== checking a move
    def _as_move(self, move: Move | str) -> Move:
        if isinstance(move, str):
            return parse_move(move, self.opts.skipbo)
        if move.skipbo != self.opts.skipbo:
            return parse_move(move.text, self.opts.skipbo)
        return move

    def _name(self, card: int) -> str:
        return describe_rank(RANKS[card], self.opts.skipbo)

    def _check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` with a player's reason unless ``move`` is legal now."""
        opts = self.opts
        if self.result is not None:
            raise refusal("the game is over", "refuse.game-over")
        seat = self.to_move
        if move.kind == BUILD:
            b = move.target
            if b >= opts.build_piles:
                raise refusal(f"there is no build pile {b + 1} (there are {opts.build_piles})",
                              "refuse.no-build-pile", pile=b + 1, count=opts.build_piles)
            need = len(self.builds[b]) + 1
            if move.source == STOCK:
                stock = self.stock_of(seat)
                card = stock[-1]
                where = "your stock card"
                source = "stock"
                params: dict[str, str | int] = {"card": format_card(card)}
            elif move.source == HAND:
                card = self._hand_card(seat, move)
                where = ""
                source = "hand"
                params = {"rank": rank_param(RANKS[card], opts.skipbo)}
            else:
                j = move.pile
                if j >= opts.discard_piles:
                    raise refusal(f"there is no discard pile {j + 1} (there are {opts.discard_piles})",
                                  "refuse.no-discard-pile", pile=j + 1, count=opts.discard_piles)
                pile = self.discards[seat][j]
                if not pile:
                    raise refusal(f"your discard pile {j + 1} is empty", "refuse.discard-empty", pile=j + 1)
                card = pile[-1]
                where = f"the top of your discard pile {j + 1},"
                source = "discard"
                params = {"card": format_card(card), "from": j + 1}
            v = self._value[card]
            if v != 0 and v != need:
                what = f"{where} {format_card(card)}" if where else self._name(card)
                if v > COMPLETE:
                    raise refusal(f"{what} cannot go on a build pile: kings are not wild in this game",
                                  f"refuse.king-not-wild.{source}", **params)
                raise refusal(f"{what} cannot go on build pile {b + 1}, it needs {describe_rank(need, opts.skipbo)}",
                              f"refuse.needs.{source}", **params, pile=b + 1, need=rank_param(need, opts.skipbo))
            return
        if move.kind == DISCARD:
            d = move.target
            if d >= opts.discard_piles:
                raise refusal(f"there is no discard pile {d + 1} (there are {opts.discard_piles})",
                              "refuse.no-discard-pile", pile=d + 1, count=opts.discard_piles)
            card = self._hand_card(seat, move)
            if RANKS[card] == 1 and not opts.discard_aces:
                raise refusal(f"{self._name(card)} may not be discarded", "refuse.no-discard-ace",
                              rank=rank_param(1, opts.skipbo))
            if opts.no_blocking:
                blocking = self._blocking_play()
                if blocking is not None:
                    raise IllegalMoveError(f"no blocking: you may not end your turn while {blocking[0]}",
                                           phrase=blocking[1])
            return
        # pass
        if self.end_moves() != [self._tables.pass_move]:
            if opts.no_blocking and (blocking := self._blocking_play()) is not None:
                raise IllegalMoveError(f"no blocking: you may not end your turn while {blocking[0]}",
                                       phrase=blocking[1])
            raise refusal("you may pass only when you have no card that may be discarded", "refuse.pass")

    def _hand_card(self, seat: int, move: Move) -> int:
        """The card ``move`` takes from ``seat``'s hand: the very card it names, else the first of its
        rank; a refusal when the hand holds none."""
        named = move.card
        if named >= 0:
            if named in self.hands[seat]:
                return named
            raise refusal(f"you hold no {format_card(named)}", "refuse.not-in-hand.card", card=format_card(named))
        rank = move.rank
        for card in self.hands[seat]:
            if RANKS[card] == rank:
                return card
        raise refusal(f"you hold no {describe_rank(rank, self.opts.skipbo).split(' ', 1)[1]}", "refuse.not-in-hand",
                      rank=rank_param(rank, self.opts.skipbo))

    # ================================================================== playing
    def play(self, move: Move | str) -> Played:
        """Play ``move`` (a :class:`Move` or its text) for the player to move; what happened.

        Raises :class:`IllegalMoveError` with a player's reason if the move may not be made; the
        state is then unchanged.
        """
        if isinstance(move, str) or move.skipbo != self.opts.skipbo:
            move = self._as_move(move)
        if self.result is not None:
            raise refusal("the game is over", "refuse.game-over")
        seat = self.to_move
        kind = move.kind
        shuffles = self.shuffles
        if kind == BUILD:
            b = move.target
            builds = self.builds
            if b >= len(builds):
                self._check(move)
            pile = builds[b]
            need = len(pile) + 1
            source = move.source
            hand = self.hands[seat]
            hand_pos = -1
            turned = -1
            if source == STOCK:
                stock = self.stocks[seat % 2 if self.opts.partnerships else seat]
                card = stock[-1]
                v = self._value[card]
                if v and v != need:
                    self._check(move)
                stock.pop()
                self._public_tops = None
                k = self.opts.open_stock
                if len(stock) >= k:
                    turned = stock[-k]
            elif source == HAND:
                card = move.card
                if card < 0:  # the rank form: the first card of its rank
                    r = move.rank
                    for i, card in enumerate(hand):  # noqa: B007 (i is used after the loop)
                        if RANKS[card] == r:
                            break
                    else:
                        self._check(move)
                        raise AssertionError("unreachable")
                elif card in hand:  # the very card named
                    i = hand.index(card)
                else:
                    self._check(move)
                    raise AssertionError("unreachable")
                v = self._value[card]
                if v and v != need:
                    self._check(move)
                del hand[i]
                hand_pos = i
            else:
                piles = self.discards[seat]
                j = move.pile
                if j >= len(piles) or not piles[j]:
                    self._check(move)
                dpile = piles[j]
                card = dpile[-1]
                v = self._value[card]
                if v and v != need:
                    self._check(move)
                self.discards[seat] = (*piles[:j], dpile[:-1], *piles[j + 1:])
            pile = builds[b] = (*pile, card)
            self.played_this_turn += 1
            completed: tuple[int, tuple[int, ...], tuple[int, ...] | None, int] | None = None
            refill: Draw | None = None
            ply = len(self.history)
            if source == STOCK and not stock:
                self._win(seat)
            else:
                if len(pile) == COMPLETE:
                    done = pile
                    builds[b] = ()
                    if self.opts.completed == "shuffle_in":
                        old = tuple(self.draw)
                        merged = [*self.draw, *pile]
                        self.draw = self._shuffled(merged, ply)
                        completed = (b, done, old, -1)
                    else:
                        completed = (b, done, None, len(self.set_aside))
                        self.set_aside.extend(pile)
                if not hand and self.opts.refill_empty_hand:
                    refill = self._draw(seat, self.opts.hand_size)
            # a build play changes neither the turn nor the idle count
            played = _new_played(Played, (move, seat, card, hand_pos, completed, refill, None,
                                          _NO_SHUFFLES if self.shuffles == shuffles else self._shuffled_since(ply),
                                          turned, self.turn, self.idle_turns, self.played_this_turn - 1, shuffles))
            self.history.append(played)
            return played
        # a turn-ending move
        if kind == DISCARD:
            self._check(move)
            hand = self.hands[seat]
            card = move.card
            if card < 0:  # the rank form: the first card of its rank
                r = move.rank
                for i, card in enumerate(hand):  # noqa: B007 (i is used after the loop)
                    if RANKS[card] == r:
                        break
            else:  # the very card named (_check found it in the hand)
                i = hand.index(card)
            del hand[i]
            piles = self.discards[seat]
            d = move.target
            self.discards[seat] = (*piles[:d], (*piles[d], card), *piles[d + 1:])
            turn_end: tuple[int, int] | None = (card, i)
            passed = False
        else:
            self._check(move)
            turn_end = None
            card = -1
            passed = True
        turn, idle, played_before = self.turn, self.idle_turns, self.played_this_turn
        drew = self._end_turn(passed)
        played = _new_played(Played, (move, seat, card, -1, None, drew, turn_end,
                                      _NO_SHUFFLES if self.shuffles == shuffles else
                                      self._shuffled_since(len(self.history)), -1, turn, idle, played_before,
                                      shuffles))
        self.history.append(played)
        return played

    def _shuffled_since(self, ply: int) -> tuple[tuple[int, ...], ...]:
        """The shuffles logged for ``ply`` (the move being played)."""
        log = self.chance_log
        k = len(log)
        while k and log[k - 1][0] == ply:
            k -= 1
        return tuple([cards for _, cards in log[k:]])

    def _win(self, seat: int) -> None:
        opts = self.opts
        team = None
        if opts.partnerships:
            team = seat % 2
            losers = [self.stocks[1 - team]]
        else:
            losers = [s for i, s in enumerate(self.stocks) if i != seat]
        points = sum(len(s) for s in losers) if opts.scoring == "payoff" else None
        self.result = Result(seat, "stock", points, team)

    def _draw_result(self, reason: str) -> None:
        self.result = Result(None, reason, 0 if self.opts.scoring == "payoff" else None)

    def _end_turn(self, passed: bool) -> Draw | None:
        if passed and self.played_this_turn == 0:
            self.idle_turns += 1
        else:
            self.idle_turns = 0
        self.turn += 1
        if self.idle_turns >= self.opts.players:
            self._draw_result("blocked")
            return None
        if self.turn >= self.opts.turn_limit:
            self._draw_result("turn-limit")
            return None
        nxt = self.to_move + 1
        if nxt == self.opts.players:
            nxt = 0
        self.to_move = nxt
        self.played_this_turn = 0
        return self._draw(nxt, self.opts.hand_size - len(self.hands[nxt]))

    def _draw(self, seat: int, due: int) -> Draw | None:
        """Draw ``due`` cards for ``seat``, one by one from the top; what was drawn, with the undo
        information (``None`` if nothing happened)."""
        if due <= 0:
            return None
        draw = self.draw
        if len(draw) >= due:
            hand = self.hands[seat]
            for _ in range(due):  # cheaper than slicing for the one or two cards of most draws
                hand.append(draw.pop())
            return (seat, hand[-due:])
        if self.opts.on_empty_draw == "draw_game" and len(draw) + len(self.set_aside) < due:
            self._draw_result("draw-pile-empty")
            return None
        hand = self.hands[seat]
        hand_len = len(hand)
        old_draw, old_aside = tuple(draw), tuple(self.set_aside)
        ply = len(self.history)
        while due:
            if not self.draw:
                if not self.set_aside:
                    break
                heap = self.set_aside
                self.set_aside = []
                self.draw = self._shuffled(heap, ply)
            hand.append(self.draw.pop())
            due -= 1
        return (seat, hand[hand_len:], hand_len, old_draw, old_aside)

    def _shuffled(self, cards: list[int], ply: int) -> list[int]:
        """The cards shuffled as chance decides: a queued outcome, else the seed."""
        if self.chance_queue:
            given = self.chance_queue.pop(0)
            if Counter(given) != Counter(cards):
                have = Counter(given)
                want = Counter(cards)
                diff = "; ".join(
                    f"{have.get(c, 0)} of {format_card(c)}, the shuffled cards hold {want.get(c, 0)}"
                    for c in sorted(set(have) | set(want)) if have.get(c, 0) != want.get(c, 0))
                raise ChanceError(f"the shuffle entry is not the {len(cards)} cards being shuffled: {diff}")
            out = list(given)
        elif self.seed is not None:
            out = list(cards)
            shuffle_cards(out, chance_rng(self.seed, "shuffle", self.shuffles))
        else:
            raise MissingChanceError(
                f"the rules shuffle {len(cards)} cards here, but the record gives no shuffle entry and no seed")
        self.shuffles += 1
        self.chance_log.append((ply, tuple(out)))
        return out

    # ================================================================== undo
    def undo(self) -> Move:
        """Take back the last move and return it; the state is exactly as before that move."""
        if not self.history:
            raise refusal("there is no move to undo", "refuse.nothing-to-undo")
        (move, seat, card, hand_pos, completed, drew, turn_end, _, _, turn, idle_turns, played_this_turn,
         shuffles) = self.history.pop()
        ply = len(self.history)
        while self.chance_log and self.chance_log[-1][0] == ply:
            self.chance_log.pop()
        self._undo_draw(drew)
        if move.kind == BUILD:
            if completed is not None:
                b, done, old_draw, aside_len = completed
                self.builds[b] = done
                if old_draw is not None:
                    self.draw = list(old_draw)
                else:
                    del self.set_aside[aside_len:]
            self.builds[move.target] = self.builds[move.target][:-1]
            if move.source == STOCK:
                self.stock_of(seat).append(card)
                self._public_tops = None
            elif move.source == HAND:
                self.hands[seat].insert(hand_pos, card)
            else:
                piles = self.discards[seat]
                j = move.pile
                self.discards[seat] = (*piles[:j], (*piles[j], card), *piles[j + 1:])
        elif turn_end is not None:
            dcard, pos = turn_end
            piles = self.discards[seat]
            d = move.target
            self.discards[seat] = (*piles[:d], piles[d][:-1], *piles[d + 1:])
            self.hands[seat].insert(pos, dcard)
        self.to_move, self.turn, self.idle_turns, self.played_this_turn = seat, turn, idle_turns, played_this_turn
        self.result = None
        self.shuffles = shuffles
        return move

    def _undo_draw(self, drew: Draw | None) -> None:
        if drew is None:
            return
        if len(drew) == 2:
            seat, cards = drew
            hand = self.hands[seat]
            del hand[len(hand) - len(cards):]
            self.draw.extend(reversed(cards))  # the last card drawn goes back first
            return
        seat, _, hand_len, draw, aside = drew
        del self.hands[seat][hand_len:]
        self.draw = list(draw)
        self.set_aside = list(aside)

    # ================================================================== records
    def move_log(self) -> list[Move]:
        """The moves played so far, in order."""
        return [entry.move for entry in self.history]

    def record_moves(self) -> list[Any]:
        """The record's ``moves``: every move's text, each followed by the shuffles it caused."""
        out: list[Any] = []
        chance = self.chance_log
        k = 0
        while k < len(chance) and chance[k][0] == -1:
            out.append({"shuffle": format_cards(chance[k][1])})
            k += 1
        for ply, entry in enumerate(self.history):
            out.append(entry.move.text)
            while k < len(chance) and chance[k][0] == ply:
                out.append({"shuffle": format_cards(chance[k][1])})
                k += 1
        return out

    def deal_json(self) -> dict[str, Any]:
        """The start position as a record's ``deal`` object (records.md §3)."""
        ini = self.initial
        return {
            "stocks": [format_cards(s) for s in ini["stocks"]],
            "hands": [format_cards(h) for h in ini["hands"]],
            "draw": format_cards(ini["draw"]),
            "builds": [format_cards(b) for b in ini["builds"]],
            "discards": [[format_cards(p) for p in piles] for piles in ini["discards"]],
            "set_aside": format_cards(ini["set_aside"]),
            "to_move": ini["to_move"],
        }

    # ================================================================== views
    def view(self, seat: int | None) -> SeatView:
        """Exactly what ``seat`` may know (``None``: a spectator, who sees no hand)."""
        return SeatView.of(self, seat)

    def show_json(self, seat: int | None = None, *, everything: bool = False) -> dict[str, Any]:
        """``spite show --json`` (records.md §5): with ``everything`` the whole table, else ``seat``'s view."""
        return self.view(None if everything else seat).to_json(full=self if everything else None)

    def stock_tops(self, stock_index: int) -> list[int]:
        """The face-up cards of a stock, bottom to top (1 card, or 3 with ``open_stock: 3``)."""
        stock = self.stocks[stock_index]
        return stock[-self.opts.open_stock:] if stock else []

    def apply_all(self, moves: Iterable[Move | str]) -> None:
        """Play several moves in order (a convenience for tests and examples)."""
        for move in moves:
            self.play(move)

    def __repr__(self) -> str:
        status = f"result={self.result.to_json()}" if self.result else f"to_move={self.to_move}"
        stocks = "/".join(str(len(s)) for s in self.stocks)
        return f"<State turn={self.turn} {status} stocks={stocks} draw={len(self.draw)}>"

