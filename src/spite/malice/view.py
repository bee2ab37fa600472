"""What one seat may know: the only thing that leaves the engine towards a bot, client or spectator.

A :class:`SeatView` holds the seat's own hand, every face-up card on the table (stock tops, build
piles, discard piles), and counts of what lies face down (stocks, draw pile, set-aside heap,
other hands). It never holds another hand, a face-down card, the draw order or the seed.

>>> from spite.malice import Options, State
>>> state = State.new(Options(), seed=3)
>>> view = state.view(0)
>>> view.hand is not None and len(view.hand) == len(state.hands[0])
True
>>> state.view(None).hand is None
True

The state's module depends on this one, not the other way round: :meth:`State.view
<spite.malice.state.State.view>` is :func:`SeatView.of`, and this module reads a state through the
:class:`Position` protocol.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final, Protocol

from spite.cards import format_card, format_cards
from spite.malice.legal import MoveTables, move_tables
from spite.malice.legal import build_moves as _build_moves
from spite.malice.legal import end_moves as _end_moves
from spite.malice.moves import BUILD, Move
from spite.malice.options import Options
from spite.malice.result import Result

__all__ = ["FIELDS", "Position", "SeatView"]


class Position(Protocol):
    """What a view is made from: a game's position (:class:`spite.malice.state.State`, which makes its
    views with :meth:`SeatView.of`; so this module stays below the state's)."""

    opts: Options
    _tables: MoveTables
    _public_tops: tuple[tuple[tuple[int, ...], ...], tuple[int, ...]] | None
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

    def public_stocks(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]: ...

FIELDS: Final = (
    "opts", "seat", "to_move", "turn", "result", "hand", "hand_sizes", "stock_sizes", "stock_tops", "builds",
    "discards", "draw_size", "set_aside_size", "played_this_turn", "idle_turns", "moves",
)
"""A view's fields, in the order :class:`SeatView` takes them (and in which it compares)."""

_set = object.__setattr__

# Where the view of the seat to move keeps its move inputs in ``_play`` (see ``_of_mover``): the
# move tables, the stock's playable top card and the seat's discard piles, then every field in
# FIELDS order (so the hand and the build piles are fields too).
# build_moves and end_moves read them by number (0, 8, 1, 2, 12: a constant's name is one more load).
_FIRST_FIELD = 3
assert (_FIRST_FIELD + FIELDS.index("hand"), _FIRST_FIELD + FIELDS.index("builds")) == (8, 12)


class SeatView:
    """A seat's knowledge of a position. ``seat`` is ``None`` for a spectator.

    An immutable snapshot (its fields are ints and tuples, and assigning one raises
    :class:`AttributeError`), so a view cannot reach back into the state, and a view kept by a bot
    does not change when the game goes on. Views of equal positions are equal (and hash alike).

    * ``hand``: the seat's own hand in hand order (``None`` for a spectator);
    * ``hand_sizes``, ``stock_sizes`` (per stock: one per seat, or per team), ``stock_tops`` (the
      face-up cards of each stock, bottom to top), ``builds``, ``discards`` (per seat, per pile);
    * ``draw_size``, ``set_aside_size``; ``to_move``, ``turn`` (turns ended), ``played_this_turn``
      (build plays so far in this turn), ``idle_turns`` (turns in a row that ended with a pass
      and no build play), ``result``;
    * ``moves``: the legal moves as given by whoever made the view (a server's list); ``None``
      (the engine's views): :meth:`build_moves`, :meth:`end_moves` and :attr:`legal_moves` work
      them out from the view itself when asked, since they depend only on cards the player to
      move sees.

    ``SeatView(opts=..., seat=..., ...)`` makes one from its fields (a server's or a client's view);
    the engine's come from :meth:`of` and :meth:`of_mover`. The face-up piles are the state's own
    tuples (the state replaces a pile rather than changing it), so a view copies no pile.
    """

    __slots__ = (*FIELDS, "_play")

    opts: Options
    seat: int | None
    to_move: int
    turn: int
    result: Result | None
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    stock_sizes: tuple[int, ...]
    stock_tops: tuple[tuple[int, ...], ...]
    builds: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[tuple[int, ...], ...], ...]
    draw_size: int
    set_aside_size: int
    played_this_turn: int
    idle_turns: int
    moves: tuple[Move, ...] | None
    _play: tuple[Any, ...] | None
    """In the engine's view of the seat to move: its move inputs and its fields (see ``_of_mover``);
    ``None`` otherwise."""

    def __init__(self, opts: Options, seat: int | None, to_move: int, turn: int, result: Result | None,
                 hand: tuple[int, ...] | None, hand_sizes: tuple[int, ...], stock_sizes: tuple[int, ...],
                 stock_tops: tuple[tuple[int, ...], ...], builds: tuple[tuple[int, ...], ...],
                 discards: tuple[tuple[tuple[int, ...], ...], ...], draw_size: int, set_aside_size: int,
                 played_this_turn: int, idle_turns: int, moves: tuple[Move, ...] | None = None) -> None:
        for name, value in zip(FIELDS, (opts, seat, to_move, turn, result, hand, hand_sizes, stock_sizes, stock_tops,
                                        builds, discards, draw_size, set_aside_size, played_this_turn, idle_turns,
                                        moves), strict=True):
            _set(self, name, value)
        _set(self, "_play", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a SeatView is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a SeatView is immutable: cannot delete {name!r}")

    def _fields(self) -> tuple[Any, ...]:
        """Every field, in :data:`FIELDS` order."""
        return tuple([getattr(self, name) for name in FIELDS])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return self is other or self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[Any, ...]:
        return (SeatView, self._fields())

    def __repr__(self) -> str:
        return f"<SeatView seat={self.seat} to_move={self.to_move} turn={self.turn}>"

    def _asdict(self) -> dict[str, Any]:
        """The fields by name."""
        return dict(zip(FIELDS, self._fields(), strict=True))

    def _replace(self, /, **changes: Any) -> SeatView:
        """A copy with ``changes`` (field names); its moves are worked out from its own fields."""
        fields = self._asdict()
        unknown = changes.keys() - fields.keys()
        if unknown:
            raise TypeError(f"a SeatView has no field {', '.join(sorted(unknown))}")
        fields.update(changes)
        return SeatView(**fields)

    # ------------------------------------------------------------------ making views
    of_mover: Callable[[Position], SeatView]  # below the class (a staticmethod of _of_mover, no extra call)

    @classmethod
    def of(cls, state: Position, seat: int | None) -> SeatView:
        """The view of ``seat`` (``None``: spectator) of ``state``."""
        if seat == state.to_move:
            return _of_mover(state)
        if seat is not None and not 0 <= seat < state.opts.players:
            raise ValueError(f"there is no seat {seat} (seats 0 to {state.opts.players - 1})")
        # the table is the same for every seat: only the hand differs (and no moves to work out)
        return _of_mover(state)._replace(seat=seat, hand=None if seat is None else tuple(state.hands[seat]))

    # ------------------------------------------------------------------ legal moves
    def build_moves(self) -> list[Move]:
        """The seat's legal build plays (none unless it is to move)."""
        play = self._play
        if play is not None:  # the engine's view of the seat to move: its inputs are at hand
            return _build_moves(play[0], play[8], play[1], play[2], play[12])
        return self._moves(True)

    def end_moves(self) -> list[Move]:
        """The seat's legal turn-ending moves (none unless it is to move)."""
        play = self._play
        if play is not None:
            return _end_moves(play[0], play[8], play[1], play[2], play[12])
        return self._moves(False)

    def _moves(self, builds_wanted: bool) -> list[Move]:
        """The build plays or the turn ends of a view made from its fields: from the maker's list,
        else worked out from the cards the view shows."""
        if self.moves is not None:
            return [m for m in self.moves if (m.kind == BUILD) is builds_wanted]
        seat, hand = self.seat, self.hand
        if seat is None or seat != self.to_move or hand is None or self.result is not None:
            return []
        tops = self.stock_tops[self.opts.stock_of(seat)]
        generate = _build_moves if builds_wanted else _end_moves
        return generate(move_tables(self.opts), hand, tops[-1] if tops else None, self.discards[seat], self.builds)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move of the seat, build plays first (empty unless it is to move)."""
        if self.moves is not None:
            return self.moves
        return (*self.build_moves(), *self.end_moves())

    # ------------------------------------------------------------------ helpers for bots
    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None

    def stock_index(self, seat: int) -> int:
        """Which stock ``seat`` plays from."""
        return self.opts.stock_of(seat)

    def stock_top(self, seat: int) -> int | None:
        """The playable top card of ``seat``'s stock (``None`` if empty)."""
        tops = self.stock_tops[self.stock_index(seat)]
        return tops[-1] if tops else None

    def build_values(self) -> tuple[int, ...]:
        """The value of each build pile (0 for an empty slot)."""
        return tuple(len(b) for b in self.builds)

    def visible_cards(self) -> Counter[int]:
        """Every card this seat can see: own hand, stock tops, build and discard piles."""
        seen: Counter[int] = Counter()
        if self.hand:
            seen.update(self.hand)
        for tops in self.stock_tops:
            seen.update(tops)
        for pile in self.builds:
            seen.update(pile)
        for piles in self.discards:
            for pile in piles:
                seen.update(pile)
        return seen

    def unseen_cards(self) -> Counter[int]:
        """The cards this seat cannot see (other hands, face-down stock cards, draw pile, set-aside heap)."""
        unseen = Counter(self.opts.deck_cards())
        unseen.subtract(self.visible_cards())
        return +unseen

    # ------------------------------------------------------------------ JSON (records.md §5)
    def to_json(self, full: Position | None = None) -> dict[str, Any]:
        """``spite show --json``: this view, or with ``full`` the whole table of that state."""
        opts = self.opts
        players = []
        for s in range(opts.players):
            si = opts.stock_of(s)
            if full is not None:
                hand: list[str] | None = format_cards(full.hands[s])
            elif self.seat == s and self.hand is not None:
                hand = format_cards(self.hand)
            else:
                hand = None
            entry: dict[str, Any] = {
                "stock": self.stock_sizes[si],
                "stock_top": format_cards(self.stock_tops[si]),
                "hand": hand,
                "hand_size": self.hand_sizes[s],
                "discards": [format_cards(p) for p in self.discards[s]],
            }
            if opts.partnerships:
                entry["team"] = s % 2
            if full is not None:
                entry["stock_cards"] = format_cards(full.stocks[si])
            players.append(entry)
        out: dict[str, Any] = {
            "to_move": self.to_move,
            "turn": self.turn + 1,
            "finished": self.result is not None,
            "result": self.result.to_json() if self.result else None,
            "builds": [
                {"value": len(b), "cards": len(b), "top": format_card(b[-1]) if b else None} for b in self.builds
            ],
            "draw": self.draw_size,
            "set_aside": self.set_aside_size,
            "players": players,
        }
        if self.seat is not None and full is None:
            out["seat"] = self.seat
        if full is not None:
            out["draw_pile"] = format_cards(full.draw)
            out["set_aside_pile"] = format_cards(full.set_aside)
        return out


class _MoverView(SeatView):
    """The engine's view of the seat to move, as :func:`_of_mover` makes it: only ``_play`` is set.

    A tournament makes one at every move, and most bots there only ask for moves, which come
    straight from ``_play``; so the fields are not set until one is read. The first read sets them
    all (from ``_play``) and turns the object into a plain :class:`SeatView` (the same slots:
    ``__class__`` may change), whose fields are then plain slot reads. Until then each field name
    is a read-only property here; ``__setattr__`` is object's so that the maker's one store is a
    plain one (the fields still cannot be set: a property without a setter refuses).
    """

    __slots__ = ()

    # object's own: made by ``_MoverView()`` (cheaper than ``object.__new__``) and set by a plain store
    # (``__setattr__`` and ``__delattr__`` share one type slot, which stays C only if neither is Python)
    __init__ = object.__init__
    __setattr__ = object.__setattr__  # type: ignore[assignment]  # (same call, object's C slot)
    __delattr__ = object.__delattr__


def _fill(view: SeatView) -> None:
    """Set the fields of a :class:`_MoverView` from its ``_play`` and make it a plain :class:`SeatView`."""
    if type(view) is not _MoverView:  # another thread filled it first
        return
    play = view._play
    assert play is not None
    _set(view, "__class__", SeatView)
    for name, value in zip(FIELDS, play[_FIRST_FIELD:], strict=True):
        _set(view, name, value)


def _field_reader(name: str) -> property:
    def read(view: SeatView) -> Any:
        _fill(view)
        return getattr(view, name)

    read.__name__ = name
    return property(read, doc=f"The view's ``{name}`` (set on first read).")


for _name in FIELDS:
    setattr(_MoverView, _name, _field_reader(_name))
del _name


def _of_mover(state: Position) -> SeatView:
    """The view of the seat to move of ``state`` (see :class:`_MoverView`)."""
    if state.result is not None:  # nothing to play: a plain view, no moves to work out
        return _fields_of(state)
    seat = state.to_move
    hands = state.hands
    hand = tuple(hands[seat])
    builds = tuple(state.builds)
    discards = tuple(state.discards)
    # the state keeps these as tuples until a stock changes (see State.public_stocks)
    tops, stock_sizes = state._public_tops or state.public_stocks()
    own = tops[seat % len(tops)]  # one stock per seat or per team (two stocks): seat % stocks is the seat's own
    view: SeatView = _MoverView()
    # one tuple: making it costs a fraction of setting sixteen slots; FIELDS order after the inputs
    view._play = (
        state._tables, own[-1] if own else None, discards[seat],
        state.opts, seat, seat, state.turn, None, hand,
        # the usual game has two hands: two lengths cost a third of a tuple made by an iterator
        (len(hands[0]), len(hands[1])) if len(hands) == 2 else tuple(map(len, hands)),
        stock_sizes, tops, builds, discards, len(state.draw), len(state.set_aside),
        state.played_this_turn, state.idle_turns, None,
    )
    return view


def _fields_of(state: Position) -> SeatView:
    """The view of the seat to move made field by field (a game that is over: no moves)."""
    seat = state.to_move
    hands = state.hands
    tops, stock_sizes = state._public_tops or state.public_stocks()
    return SeatView(state.opts, seat, seat, state.turn, state.result, tuple(hands[seat]), tuple(map(len, hands)),
                    stock_sizes, tops, tuple(state.builds), tuple(state.discards), len(state.draw),
                    len(state.set_aside), state.played_this_turn, state.idle_turns)


SeatView.of_mover = staticmethod(_of_mover)
"""The view of the seat to move (:meth:`SeatView.of` for ``state.to_move``): the one a deciding bot
gets, made at every move of a tournament (see :class:`_MoverView`)."""
