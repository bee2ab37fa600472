"""Records of Spit and Speed: replay, write, and the three commands' answers.

The family's part of :mod:`spite.records` (which re-exports it), kept in the family's package so that
the game adapter (:mod:`spite.spit.game`) records and replays without importing a layer above.

Move entries are objects ``{"t": ms, "p": seat, "m": "T3-C1"}`` with ``t`` never decreasing. The
replayer lets the time pass to ``t`` (firing what falls due: automatic spit calls and slaps, the
time limit), then plays the move. A bare ``{"t": ms}`` only lets the time pass (the engine writes
one where the time limit ended the game). Chance entries (``{"deal": {...}}`` for a Spit round,
``{"shuffle": [...]}`` for Speed's side piles) stand right after the entry whose play made the
chance event happen.

>>> record = new_record("spit", None, {"auto_spit_ms": 0}, 5)
>>> replayed = replay_spit(record)
>>> replayed.check()["finished"], replayed.plies
(False, 0)
>>> state = replayed.state
>>> t = 0
>>> while not state.finished and t < 400_000:
...     t += 100
...     for seat in (0, 1):
...         moves = state.legal_moves(seat)
...         if moves:
...             _ = state.apply(seat, moves[0], t)
>>> again = replay_spit(record_from_state(state))
>>> again.show() == replayed.show(), again.check()["result"] == state.result, again.plies > 0
(True, True, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from spite.cards import format_card, format_cards
from spite.errors import IllegalMoveError, MalformedRecordError, OptionsError, RecordMoveError
from spite.games import Record
from spite.spit import AnyState, Event, new_game
from spite.spit.deals import parse_speed_deal, parse_spit_deal
from spite.spit.options import SpitOptions
from spite.spit.speed import SpeedState
from spite.spit.state import SpitState
from spite.spit.table import SLAPPING

__all__ = [
    "EntryReplayer",
    "SpitReplay",
    "new_record",
    "positions",
    "record_from_state",
    "render_text",
    "replay_spit",
    "state_from_record",
    "step_of",
    "steps",
    "whole_table",
]


class SpitReplay:
    """A Spit or Speed record replayed to its last entry (see :class:`spite.records.Replay`)."""

    def __init__(self, state: AnyState, plies: int) -> None:
        self.state = state
        self.plies = plies

    def check(self) -> dict[str, Any]:
        """``spite check``: Spit has no player to move, so ``to_move`` is null."""
        return {
            "ok": True,
            "plies": self.plies,
            "to_move": None,
            "finished": self.state.finished,
            "result": self.state.result,
        }

    def legal(self) -> list[str]:
        """``spite legal``: ``"<seat> <move>"`` lines, sorted, each once; nothing once the game is over."""
        return sorted({f"{seat} {move}" for seat in (0, 1) for move in self.state.legal_moves(seat)})

    def show(self, seat: int | None = None) -> dict[str, Any]:
        """``spite show --json``: the whole table, or what ``seat`` may know (records.md §5)."""
        _check_seat(seat)
        if seat is None:
            return self.state.full_view().to_json()
        return self.state.view(seat).to_json()

    def show_text(self, seat: int | None = None) -> str:
        """``spite show``: the table drawn in plain text."""
        return render_text(self.state, seat)


def _check_seat(seat: int | None) -> None:
    if seat is not None and seat not in (0, 1):
        raise ValueError(f"there is no seat {seat} (seats 0 and 1)")


# ---------------------------------------------------------------------- reading
def _options(record: Record) -> SpitOptions:
    try:
        return SpitOptions.from_preset(record.preset, record.options, game=record.game)
    except OptionsError as exc:
        raise MalformedRecordError(str(exc)) from None


def state_from_record(record: Record) -> AnyState:
    """The start of the game a record describes (its deal, else its seed), no move played."""
    opts = _options(record)
    preset = record.preset if record.preset is not None else record.game
    if record.deal is None and record.seed is None:
        raise MalformedRecordError("the record has neither a deal nor a seed")
    if opts.game == "speed":
        deal = None if record.deal is None else parse_speed_deal(record.deal, opts)
        return SpeedState.new(opts, seed=record.seed, deal=deal, preset=preset)
    sdeal = None if record.deal is None else parse_spit_deal(record.deal, opts)
    return SpitState.new(opts, seed=record.seed, deal=sdeal, preset=preset)


def _is_chance(entry: object) -> bool:
    return isinstance(entry, dict) and ("deal" in entry or "shuffle" in entry)


def _entry_text(entry: object) -> str:
    return json.dumps(entry, ensure_ascii=False)


OnEntry = Callable[[int | None, str | None, int, list[Event], AnyState], None]
"""``on_entry(seat, move, t, events, state)``: one move or time entry replayed (seat and move None
for a bare ``{"t": ms}``), with the engine's events and the state after it (its chance entries
used)."""


def replay_spit(record: Record, on_entry: OnEntry | None = None) -> SpitReplay:
    """Replay every entry of a Spit or Speed record.

    ``on_entry`` (if given) is called after each move or time entry has been played.

    Raises :class:`MalformedRecordError` for a record that cannot be read (bad options or deal, a
    bad entry, time going backwards, a chance entry where nothing is shuffled, a missing chance
    entry) and :class:`RecordMoveError` for a move that may not be made where it stands.
    """
    replayer = EntryReplayer(state_from_record(record), on_entry)
    replayer.feed(record.moves)
    return SpitReplay(replayer.state, replayer.ply)


class EntryReplayer:
    """Plays a record's entries on ``state``, a batch at a time (each batch whole: a move entry with
    the chance entries it caused), as :func:`replay_spit` does for a whole record. A server table
    keeps one beside its game to tell the steps of each stored change (``moveLog``) without replaying
    the game from its start."""

    def __init__(self, state: AnyState, on_entry: OnEntry | None = None, ply: int = 0) -> None:
        self.state = state
        self.on_entry = on_entry
        self.ply = ply
        """Entries played so far (the next entry's index in the record, for error messages)."""

    def feed(self, moves: list[Any]) -> None:
        """Play ``moves`` (see :func:`replay_spit` for what it raises)."""
        state = self.state
        n = len(moves)
        i = 0
        while i < n:
            ply = self.ply + i
            entry = moves[i]
            if _is_chance(entry):
                raise MalformedRecordError(f"ply {ply}: a chance entry where the rules shuffle nothing")
            if not isinstance(entry, dict):
                raise MalformedRecordError(
                    f'ply {ply}: a {state.options.game} move is an object {{"t": ms, "p": seat, "m": move}}, '
                    f"not {_entry_text(entry)}"
                )
            unknown = sorted(set(entry) - {"t", "p", "m"})
            if unknown:
                raise MalformedRecordError(f"ply {ply}: unknown field {unknown[0]!r} in a move entry")
            t = entry.get("t")
            if isinstance(t, bool) or not isinstance(t, int) or t < 0:
                raise MalformedRecordError(f"ply {ply}: 't' must be a time in ms (a whole number, 0 or more)")
            if t < state.now:
                raise MalformedRecordError(f"ply {ply}: time goes backwards ({t} ms after {state.now} ms)")
            is_tick = "p" not in entry and "m" not in entry
            seat, text = entry.get("p"), entry.get("m")
            if not is_tick:
                if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
                    raise MalformedRecordError(f"ply {ply}: 'p' must be a seat, 0 or 1")
                if not isinstance(text, str):
                    raise MalformedRecordError(f"ply {ply}: 'm' must be a move written as text")
            j = i + 1
            while j < n and _is_chance(moves[j]):
                state.supply_chance(moves[j])
                j += 1
            try:
                events = (state.apply(seat, text, t) if isinstance(seat, int) and isinstance(text, str)
                          else state.advance(t))
            except IllegalMoveError as exc:
                raise RecordMoveError(ply, _entry_text(entry), str(exc)) from None
            except MalformedRecordError as exc:
                raise type(exc)(f"ply {ply}: {exc}") from None
            if state.pending_chance:
                raise MalformedRecordError(
                    f"ply {self.ply + j - state.pending_chance}: a chance entry where the rules shuffle nothing"
                )
            if self.on_entry is not None:
                self.on_entry(seat if isinstance(seat, int) else None, text if isinstance(text, str) else None, t,
                              events, state)
            i = j
        self.ply += n


def step_of(seat: int | None, move: str | None, t: int, events: list[Event]) -> dict[str, Any]:
    """One step of :func:`steps`: the entry's seat, move and time, and what else happened with it (its
    own move's event left out)."""
    own = next((k for k, e in enumerate(events) if e.kind == "move" and e.seat == seat), None)
    return {"seat": seat, "move": move, "t": t,
            "events": [{"kind": e.kind, "seat": e.seat, "text": e.text} for k, e in enumerate(events) if k != own]}


def whole_table(state: AnyState) -> dict[str, Any]:
    """The whole table for the replay viewer: ``spite show --json`` of the whole table
    (``full_view()``), every key and value as it is there, and besides

    * the clock: ``t`` (ms), ``phase`` (``"play"``, ``"slap"``, ``"over"``), ``play_from`` (no
      card to a center pile before it: the slowpoke wait) and ``round_winner`` (Spit; None);
    * per player, the face-down cards too: Spit ``tableau_cards`` (each pile bottom to top),
      ``spit_cards`` (bottom to top) and ``rounds_won``; Speed ``draw_cards`` and ``side_cards``
      (bottom to top) and ``side`` (the side pile's size).

    >>> from spite.spit import new_game
    >>> table = whole_table(new_game("spit", seed=4))
    >>> table["t"], table["phase"], [len(p) for p in table["players"][0]["tableau_cards"]]
    (0, 'play', [1, 2, 3, 4, 5])
    >>> [p["tableau"][1]["top"] == p["tableau_cards"][1][-1] for p in table["players"]]
    [True, True]
    """
    out = state.full_view().to_json()
    out["t"] = state.now
    out["phase"] = state.phase
    out["play_from"] = state.play_from
    if isinstance(state, SpitState):
        out["round_winner"] = state.round_winner
        for s, player in enumerate(out["players"]):
            player["tableau_cards"] = [format_cards(p) for p in state.tableaus[s]]
            player["spit_cards"] = format_cards(state.spits[s])
            player["rounds_won"] = state.rounds_won[s]
    else:
        out["round_winner"] = None
        for s, player in enumerate(out["players"]):
            player["draw_cards"] = format_cards(state.draws[s])
            player["side_cards"] = format_cards(state.sides[s])
            player["side"] = len(state.sides[s])
    return out


def positions(record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every step of a Spit or Speed record and the whole table before the first and after each.

    Gives ``(steps, positions)``. A step is one move or time entry of the record (chance entries
    belong to the step whose play made them happen): ``{"seat", "move", "t", "events"}``, where
    ``seat`` and ``move`` are None for a bare ``{"t": ms}`` (the time limit ended the game there),
    ``t`` is the entry's time (ms) and ``events`` lists what else happened with it
    (``{"kind", "seat", "text"}``: ``flip``, ``round-won``, ``deal``, ``shuffle``, ``game-over``;
    see :class:`spite.spit.Event`). ``positions[0]`` is the start (the first flip made) and
    ``positions[k + 1]`` the table after ``steps[k]``, each as :func:`whole_table` (``spite show
    --json`` of the whole table, with the clock and the face-down cards besides).

    >>> record = new_record("spit", None, {"auto_spit_ms": 0}, 5)
    >>> state = replay_spit(record).state
    >>> for t in range(100, 2000, 100):
    ...     for seat in (0, 1):
    ...         moves = state.legal_moves(seat)
    ...         if moves:
    ...             _ = state.apply(seat, moves[0], t)
    >>> steps, shown = positions(record_from_state(state))
    >>> len(shown) == len(steps) + 1 and len(steps) > 3
    True
    >>> shown[-1] == whole_table(state), steps[0]["t"] >= 100, shown[0]["t"]
    (True, True, 0)
    """
    done: list[dict[str, Any]] = []
    shown = [whole_table(state_from_record(record))]

    def on_entry(seat: int | None, move: str | None, t: int, events: list[Event], state: AnyState) -> None:
        done.append(step_of(seat, move, t, events))
        shown.append(whole_table(state))

    replay_spit(record, on_entry)
    return done, shown


def steps(record: Record) -> list[dict[str, Any]]:
    """Every step of a record as :func:`positions` gives them, without the tables: what every seat
    was told of the game so far (no face-down card, no chance entry), e.g. a table's ``moveLog``.

    >>> record = new_record("spit", None, {"auto_spit_ms": 0}, 5)
    >>> state = replay_spit(record).state
    >>> _ = state.apply(0, state.legal_moves(0)[0], 100)
    >>> steps(record_from_state(state)) == positions(record_from_state(state))[0]
    True
    """
    done: list[dict[str, Any]] = []
    replay_spit(record, lambda seat, move, t, events, state: done.append(step_of(seat, move, t, events)))
    return done


# ---------------------------------------------------------------------- writing
def record_from_state(state: AnyState) -> Record:
    """A complete record of a game so far: the start deal (and seed), every move (automatic ones
    written as the seat's own), every chance entry, and the result."""
    return Record(
        game=state.options.game,
        preset=state.preset,
        options=state.options.overrides_from(state.preset),
        seed=state.seed,
        deal=state.start_deal,
        moves=state.to_record_moves(),
        result=state.result,
    )


def new_record(game: str, preset: str | None, options: dict[str, Any] | None, seed: int | str) -> Record:
    """A fresh game's record, dealt from ``seed`` (``spite new --game spit``). Raises
    :class:`OptionsError` for bad options."""
    return record_from_state(new_game(game, preset, options, seed=seed))


# ---------------------------------------------------------------------- plain text
def _pile(top: int | None, cards: int) -> str:
    return "--" if top is None else f"{format_card(top)}({cards})"


def render_text(state: AnyState, seat: int | None = None) -> str:
    """A plain drawing of the table for a terminal (``spite show`` without ``--json``)."""
    _check_seat(seat)
    name = "Spit" if state.game == "spit" else "Speed"
    head = f"{name}" + (f", round {state.round}" if isinstance(state, SpitState) else "")
    head += f", {state.now / 1000:.1f} s"
    res = state.result
    if res is not None:
        who = f"seat {res['winner']} wins" if res["winner"] is not None else "nobody wins"
        head += f": game over, {who} ({res['reason']})"
    elif isinstance(state, SpitState) and state.phase == SLAPPING:
        head += f": round won by seat {state.round_winner}, who slaps a center pile"
    elif state.stuck:
        called = [s for s in (0, 1) if state.called[s]]
        head += ": stuck, call spit" + (f" (called: seat {', '.join(map(str, called))})" if called else "")
    else:
        head += ": playing"
        if state.now < state.play_from:
            head += f" from {state.play_from / 1000:.1f} s (slowpoke)"
    lines = [head]
    lines.append(
        "Centers   " + "  ".join(f"C{j + 1} {_pile(c[-1] if c else None, len(c))}" for j, c in enumerate(state.centers))
    )
    for s in (0, 1):
        who = f"Seat {s}" + (" (you)" if seat == s else "")
        if isinstance(state, SpitState):
            tab = "  ".join(f"T{i + 1} {_pile(p[-1] if p else None, len(p))}" for i, p in enumerate(state.tableaus[s]))
            extra = f"spit {len(state.spits[s])}, {state.cards_held(s)} cards, rounds won {state.rounds_won[s]}"
            lines.append(f"{who:<14}{tab}   {extra}")
        else:
            hand = state.hands[s]
            shown = " ".join(format_cards(hand)) if seat is None or seat == s else f"{len(hand)} cards"
            lines.append(
                f"{who:<14}hand {shown or '-'}   draw {len(state.draws[s])}, side {len(state.sides[s])}, "
                f"{state.cards_held(s)} cards"
            )
    return "\n".join(lines)
