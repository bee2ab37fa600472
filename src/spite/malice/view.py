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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from spite.cards import format_card, format_cards
from spite.malice.legal import MoveTables, move_tables
from spite.malice.legal import build_moves as _build_moves
from spite.malice.legal import end_moves as _end_moves
from spite.malice.moves import BUILD, Move
from spite.malice.options import Options

if TYPE_CHECKING:
    from spite.malice.state import Result, State

__all__ = ["PlayInputs", "SeatView"]

_new = tuple.__new__

PlayInputs = tuple[MoveTables, tuple[int, ...], int | None, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
"""What the seat to move plays from, as move generation takes it: the move tables of the options,
the hand, the stock's playable top card (``None``: empty), the seat's discard piles, the build piles."""


def _moves_method(generate: Callable[..., list[Move]], builds_wanted: bool,
                  doc: str) -> Callable[[SeatView], list[Move]]:
    """A view method giving the build plays (``builds_wanted``) or the turn ends: from the maker's
    list, else worked out by ``generate`` from the view's cards."""

    # a closure, not a shared helper called by two methods: bots ask for moves at every move, and
    # the call saved there is a tenth or more of what a tournament adds to the engine's playouts
    def moves(view: SeatView) -> list[Move]:
        inputs = view[16]  # ``to_play`` by index: the field's descriptor would cost another call
        if inputs is not None:  # the engine's view of the seat to move: no field to unpack
            tables, own_hand, stock_top, own_discards, all_builds = inputs
            return generate(tables, own_hand, stock_top, own_discards, all_builds)
        opts, seat, to_move, _, result, hand, _, _, stock_tops, builds, discards, _, _, _, _, given, _ = view[:]
        if given is not None:
            return [m for m in given if (m.kind == BUILD) is builds_wanted]
        if seat != to_move or hand is None or result is not None:
            return []
        tops = stock_tops[seat % 2 if opts.partnerships else seat]
        return generate(move_tables(opts), hand, tops[-1] if tops else None, discards[seat], builds)

    moves.__name__ = generate.__name__
    moves.__qualname__ = f"SeatView.{generate.__name__}"
    moves.__doc__ = doc
    return moves


def _of_mover_python(cls: type[SeatView], state: State) -> SeatView:
    """The view of the seat to move: :meth:`SeatView.of` for ``state.to_move``, the one a deciding
    bot gets. A tournament makes one at every move, so :meth:`SeatView.of_mover` is this made in C
    (``spite.malice._viewc``) where the package could be compiled; this is its reference."""
    seat = state.to_move
    result = state.result
    # the state keeps these as tuples until they change (see State.public_stocks)
    tops, stock_sizes = state._public_tops or state.public_stocks()
    hands = state.hands
    hand = tuple(hands[seat])
    builds = tuple(state.builds)
    discards = tuple(state.discards)
    if result is None:
        # gathered here, where they are at hand, so that every request for moves is a call;
        # one stock per seat or per team (two stocks): seat % stocks is the seat's own
        own = tops[seat % len(tops)]
        to_play: PlayInputs | None = (state._tables, hand, own[-1] if own else None, discards[seat], builds)
    else:
        to_play = None
    return _new(cls, (
        state.opts,
        seat,
        seat,
        state.turn,
        result,
        hand,
        # the usual game has two hands: two lengths cost a third of a tuple made by an iterator
        (len(hands[0]), len(hands[1])) if len(hands) == 2 else tuple(map(len, hands)),
        stock_sizes,
        tops,
        builds,
        discards,
        len(state.draw),
        len(state.set_aside),
        state.played_this_turn,
        state.idle_turns,
        None,
        to_play,
    ))


try:
    from spite.malice._viewc import of_mover as _of_mover
except ImportError:  # built without a C compiler: the same in Python
    _of_mover = _of_mover_python


class _ViewFields(NamedTuple):
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
    moves: tuple[Move, ...] | None = None
    to_play: PlayInputs | None = None


class SeatView(_ViewFields):
    """A seat's knowledge of a position. ``seat`` is ``None`` for a spectator.

    An immutable snapshot (a named tuple of ints and tuples), so a view cannot reach back into the
    state, and a view kept by a bot does not change when the game goes on.

    * ``hand``: the seat's own hand in hand order (``None`` for a spectator);
    * ``hand_sizes``, ``stock_sizes`` (per stock: one per seat, or per team), ``stock_tops`` (the
      face-up cards of each stock, bottom to top), ``builds``, ``discards`` (per seat, per pile);
    * ``draw_size``, ``set_aside_size``; ``to_move``, ``turn`` (turns ended), ``played_this_turn``
      (build plays so far in this turn), ``idle_turns`` (turns in a row that ended with a pass
      and no build play), ``result``;
    * ``moves``: the legal moves as given by whoever made the view (a server's list); ``None``
      (the engine's views): :meth:`build_moves`, :meth:`end_moves` and :attr:`legal_moves` work
      them out from the view itself when asked, since they depend only on cards the player to
      move sees;
    * ``to_play``: in the engine's view of the seat to move, the fields those moves are worked
      out from, gathered once (:data:`PlayInputs`: nothing a field above does not show); ``None``
      otherwise, and dropped by ``_replace``, which could change the fields it repeats.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<SeatView seat={self.seat} to_move={self.to_move} turn={self.turn}>"

    of_mover = classmethod(_of_mover)
    """The view of the seat to move (see :func:`_of_mover_python`)."""

    def _replace(self, /, **changes: Any) -> SeatView:
        """A copy with ``changes``; ``to_play`` is dropped unless given (it repeats other fields)."""
        changes.setdefault("to_play", None)
        return super()._replace(**changes)

    @classmethod
    def of(cls, state: State, seat: int | None) -> SeatView:
        """The view of ``seat`` (``None``: spectator) of ``state``."""
        if seat == state.to_move:
            return cls.of_mover(state)
        if seat is not None and not 0 <= seat < state.opts.players:
            raise ValueError(f"there is no seat {seat} (seats 0 to {state.opts.players - 1})")
        # the table is the same for every seat: only the hand differs (and no moves to work out)
        return cls.of_mover(state)._replace(seat=seat, hand=None if seat is None else tuple(state.hands[seat]))

    # ------------------------------------------------------------------ legal moves
    build_moves = _moves_method(_build_moves, True, "The seat's legal build plays (none unless it is to move).")
    end_moves = _moves_method(_end_moves, False, "The seat's legal turn-ending moves (none unless it is to move).")

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
    def to_json(self, full: State | None = None) -> dict[str, Any]:
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
