"""Records of the Spite and Malice family: replay, write, and the three commands' answers.

The family's part of :mod:`spite.records` (which re-exports it), kept in the family's package so that
the game adapter (:mod:`spite.malice.game`) records and replays without importing a layer above.

>>> from spite.malice import Options, State
>>> state = State.new(Options.from_preset("short"), seed=5)
>>> for _ in range(30):
...     _ = state.play(state.legal_moves()[-1])
>>> record = record_from_state(state, "short")
>>> replayed = replay_malice(record)
>>> replayed.state.show_json(everything=True) == state.show_json(everything=True)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spite.cards import format_card, format_cards, parse_cards
from spite.errors import (
    CardError,
    IllegalMoveError,
    MalformedRecordError,
    OptionsError,
    RecordMoveError,
)
from spite.games import Record
from spite.malice.options import Options
from spite.malice.state import State

__all__ = ["MaliceReplay", "new_record", "positions", "record_from_state", "replay_malice", "state_from_record"]


class MaliceReplay:
    """A Spite and Malice record replayed to its end."""

    def __init__(self, state: State, plies: int, preset: str) -> None:
        self.state = state
        self.plies = plies
        self.preset = preset

    def check(self) -> dict[str, Any]:
        state = self.state
        return {
            "ok": True,
            "plies": self.plies,
            "to_move": state.to_move,
            "finished": state.is_over,
            "result": state.result.to_json() if state.result else None,
        }

    def legal(self) -> list[str]:
        return sorted({m.text for m in self.state.legal_moves()})

    def show(self, seat: int | None = None) -> dict[str, Any]:
        if seat is None:
            return self.state.show_json(everything=True)
        return self.state.show_json(seat)

    def show_text(self, seat: int | None = None) -> str:
        return render_text(self.state, seat)


def options_of(record: Record) -> tuple[str, Options]:
    """The preset name and checked options of a record (malformed if unknown or nonsensical)."""
    preset = record.preset if record.preset is not None else "classic"
    try:
        return preset, Options.from_preset(preset, record.options)
    except OptionsError as exc:
        raise MalformedRecordError(str(exc)) from None


def _pile(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise MalformedRecordError(f"deal: {what} must be a list of cards")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise MalformedRecordError(f"deal: {what}: {exc}") from None


def _piles(value: object, what: str) -> list[list[int]]:
    if not isinstance(value, list):
        raise MalformedRecordError(f"deal: {what} must be a list of piles")
    return [_pile(p, f"{what} {i}") for i, p in enumerate(value)]


def _shuffle_entry(entry: object, ply: int) -> list[int]:
    if not isinstance(entry, dict) or set(entry) != {"shuffle"}:
        raise MalformedRecordError(f"ply {ply}: {entry!r} is neither a move nor a shuffle entry")
    cards = entry["shuffle"]
    if not isinstance(cards, list):
        raise MalformedRecordError(f"ply {ply}: a shuffle entry holds a list of cards")
    try:
        return parse_cards(cards)
    except CardError as exc:
        raise MalformedRecordError(f"ply {ply}: {exc}") from None


def state_from_record(record: Record, chance: Sequence[list[int]] = ()) -> tuple[str, State]:
    """The start position of a record (deal or seed), with ``chance`` queued for its first draw."""
    preset, opts = options_of(record)
    deal = record.deal
    if deal is None:
        if record.seed is None:
            raise MalformedRecordError("the record has neither a deal nor a seed")
        state = State.new(opts, record.seed)
        state.chance_queue = [list(c) for c in chance]
        return preset, state
    known = {"stocks", "hands", "draw", "builds", "discards", "set_aside", "to_move"}
    unknown = sorted(set(deal) - known)
    if unknown:
        raise MalformedRecordError(f"deal: unknown field {unknown[0]!r}")
    for key in ("stocks", "hands", "draw"):
        if key not in deal:
            raise MalformedRecordError(f"deal: {key} is missing")
    discards_raw = deal.get("discards") or []
    if not isinstance(discards_raw, list):
        raise MalformedRecordError("deal: discards must be a list (one list of piles per player)")
    to_move = deal.get("to_move", 0)
    if isinstance(to_move, bool) or not isinstance(to_move, int):
        raise MalformedRecordError("deal: to_move must be a seat number")
    try:
        state = State.from_deal(
            opts,
            stocks=_piles(deal["stocks"], "stock"),
            hands=_piles(deal["hands"], "hand"),
            draw=_pile(deal["draw"], "draw"),
            builds=_piles(deal.get("builds") or [], "build pile"),
            discards=[_piles(p, f"discard piles of player {i}") for i, p in enumerate(discards_raw)],
            set_aside=_pile(deal.get("set_aside") or [], "set_aside"),
            to_move=to_move,
            seed=record.seed,
            chance_queue=chance,
        )
    except MalformedRecordError as exc:
        message = str(exc)
        if not message.startswith(("deal", "the ")):
            message = f"ply 0: {message}"
        raise MalformedRecordError(message) from None
    return preset, state


def replay_malice(record: Record, on_move: Callable[[int, str, State], None] | None = None) -> MaliceReplay:
    """Replay every entry of a Spite and Malice record (records.md §3, §5).

    ``on_move(seat, move, state)`` is called after each move (with its shuffles) has been played."""
    moves = record.moves
    i = 0
    leading: list[list[int]] = []
    while i < len(moves) and isinstance(moves[i], dict):
        leading.append(_shuffle_entry(moves[i], i))
        i += 1
    preset, state = state_from_record(record, leading)
    if state.chance_queue:
        raise MalformedRecordError(f"ply {i - len(state.chance_queue)}: a shuffle entry, but no shuffle is due there")
    while i < len(moves):
        entry = moves[i]
        if not isinstance(entry, str):
            if isinstance(entry, dict):
                raise MalformedRecordError(f"ply {i}: a shuffle entry, but no shuffle is due there")
            raise MalformedRecordError(f"ply {i}: a move must be a string, not {entry!r}")
        j = i + 1
        queue: list[list[int]] = []
        while j < len(moves) and isinstance(moves[j], dict):
            queue.append(_shuffle_entry(moves[j], j))
            j += 1
        state.chance_queue = queue
        seat = state.to_move
        try:
            state.play(entry)
        except MalformedRecordError as exc:
            used = len(queue) - len(state.chance_queue)
            raise MalformedRecordError(f"ply {i + 1 + used}: {exc}") from None
        except IllegalMoveError as exc:
            raise RecordMoveError(i, entry, str(exc)) from None
        if state.chance_queue:
            raise MalformedRecordError(
                f"ply {j - len(state.chance_queue)}: a shuffle entry, but {entry} shuffles nothing there")
        if on_move is not None:
            on_move(seat, entry, state)
        i = j
    state.chance_queue = []
    return MaliceReplay(state, len(moves), preset)


def positions(record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every move of a record and the whole table before the first and after each move, in one pass.

    Gives ``(moves, positions)``: ``moves[k]`` is ``{"seat", "move"}`` and ``positions[k + 1]`` is
    ``show_json(everything=True)`` after it; ``positions[0]`` is the deal.

    >>> from spite.malice import Options, State
    >>> state = State.new(Options.from_preset("short"), seed=5)
    >>> for _ in range(12):
    ...     _ = state.play(state.legal_moves()[-1])
    >>> moves, shown = positions(record_from_state(state, "short"))
    >>> len(shown) == len(moves) + 1 == 13 and shown[-1] == state.show_json(everything=True)
    True
    """
    moves: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []

    def on_move(seat: int, move: str, state: State) -> None:
        moves.append({"seat": seat, "move": move})
        shown.append(state.show_json(everything=True))

    # the deal: the start position before any move (leading shuffle entries need no draw here)
    _, start = state_from_record(record)
    shown.append(start.show_json(everything=True))
    replay_malice(record, on_move)
    return moves, shown


def record_from_state(state: State, preset: str = "classic") -> Record:
    """A complete record of a game so far: deal, every move and chance entry, and the result."""
    return Record(
        game="spite-malice",
        preset=preset,
        options=state.opts.overrides_from(preset),
        seed=state.seed,
        deal=state.deal_json(),
        moves=state.record_moves(),
        result=state.result.to_json() if state.result else None,
    )


def new_record(preset: str, options: dict[str, Any], seed: int) -> Record:
    """A fresh game's record (dealt from ``seed``); raises :class:`OptionsError` for bad options."""
    opts = Options.from_preset(preset, options)
    return record_from_state(State.new(opts, seed), preset)


# ---------------------------------------------------------------------- plain text
def render_text(state: State, seat: int | None = None) -> str:
    """A plain drawing of the table for a terminal (``spite show`` without ``--json``)."""
    opts = state.opts
    if seat is not None and not 0 <= seat < opts.players:
        raise ValueError(f"there is no seat {seat} (seats 0 to {opts.players - 1})")
    lines: list[str] = []
    if state.result:
        res = state.result
        who = f"seat {res.winner} wins" if res.winner is not None else "a draw"
        pts = f", {res.points} points" if res.points else ""
        lines.append(f"Game over after {state.turn} turns: {who} ({res.reason}{pts}).")
    else:
        lines.append(f"Turn {state.turn + 1}: seat {state.to_move} to move.")
    builds = "  ".join(
        f"B{b + 1}:{format_card(p[-1]) + '=' + str(len(p)) if p else '--'}" for b, p in enumerate(state.builds))
    lines.append(f"Build piles  {builds}")
    lines.append(f"Draw pile    {len(state.draw)} cards" + (f", set aside {len(state.set_aside)}" if
                                                            state.set_aside else ""))
    for s in range(opts.players):
        stock = state.stock_of(s)
        tops = " ".join(format_cards(state.stock_tops(opts.stock_of(s))))
        mark = ">" if s == state.to_move and not state.result else " "
        team = f" (team {s % 2})" if opts.partnerships else ""
        lines.append(f"{mark} Seat {s}{team}: stock {len(stock):>2} top {tops or '--'}")
        if seat is None or seat == s:
            lines.append(f"    hand     {' '.join(format_cards(state.hands[s])) or '(empty)'}")
        else:
            lines.append(f"    hand     {len(state.hands[s])} cards")
        piles = "  ".join(f"D{j + 1}:{' '.join(format_cards(p)) or '--'}" for j, p in enumerate(state.discards[s]))
        lines.append(f"    discards {piles}")
    return "\n".join(lines)
