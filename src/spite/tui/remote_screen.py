"""The screens for a seat at a server table (``spite tui --connect``): Spite and Malice, Spit and Speed.

The same screens, keys and drawing as a local game; the table is a remote one
(:class:`~spite.tui.remote.RemoteMaliceTable`, :class:`~spite.tui.remote_spit.RemoteSpitTable`) whose
position comes from the server, and its :class:`~spite.tui.link.TableLink` (run as a Textual worker)
speaks the protocol. Each screen is the link's listener: it hands the server's messages to its table
and shows what the link tells it (the connection's state on the prompt line, requests a dropped
connection left unanswered, and the fair deal: the fingerprint on the head line, an alarm or the
record's verdict on the message line and in the summary). The person's intents go through the link:
moves, ``U`` (undo, while the server's ``canUndo`` allows), ``?`` (the server's hint), ``N`` (a
match's next game; after the table's last game, another game there).

A Spit table (:class:`RemoteSpitScreen`) uses the local Spit screen and its keys the same way: moves go
out at once, the server's clock and reflex bots run the game, and a move that lost a race
(``too-late``) shows the engine's reason for a moment. A Speed table (:class:`RemoteSpeedScreen`) is
the Speed screen driven the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Static

from spite.cards import RANKS
from spite.catalogue import phrase_of
from spite.errors import IllegalMoveError, Phrase
from spite.malice.moves import parse_move
from spite.spit.rules import HAND, PLAY, SLOT
from spite.spit.rules import parse_move as parse_spit_move
from spite.spit.views import SpeedPlayerView, SpitPlayerView
from spite.tui.i18n import has_text, say, say_all, tr
from spite.tui.link import FairNote, FairWatch, Line, LinkStatus, Pending, TableLink
from spite.tui.malice_screen import MaliceScreen, SummaryScreen
from spite.tui.remote import RemoteMaliceTable
from spite.tui.remote_spit import RemoteSpeedTable, RemoteSpitTable
from spite.tui.report import report_from
from spite.tui.session import move_places
from spite.tui.speed_screen import SpeedScreen
from spite.tui.spit_screen import SpitScreen
from spite.tui.widgets import set_text
from spite.tui.words import malice_card, spit_move_words

__all__ = ["RemoteMaliceScreen", "RemoteSpeedScreen", "RemoteSpitScreen", "fair_words"]


def _reason(lang: str, reason: str) -> str:
    return tr(lang, "reason_" + reason) if has_text("reason_" + reason) else reason


def fair_words(lang: str, watch: FairWatch, game: int | None = None) -> str:
    """The deal fingerprint of ``game`` (default: the game in play; docs/fairness.md) with its mark: ✓
    once the revealed secret gave the pinned commitment, ✗ after any alarm."""
    head = watch.head(game)
    if head is None:
        return ""
    short, ok = head
    return tr(lang, "fair" if ok is None else "fair_ok" if ok else "fair_bad", print=short)


def _with_fair(widget: Static, words: str) -> None:
    """Append the fingerprint to a head line the local screen just drew."""
    shown = getattr(widget, "_spite_shown", None)
    if not words or shown is None or shown[0].endswith(words):
        return
    set_text(widget, Text(shown[0], style=shown[2], spans=list(shown[1])) + Text(f" · {words}"), layout=False)


class LinkedScreen:
    """What every remote screen does with its link (a mixin after the local screen class, whose
    ``redraw`` and ``seat_name`` it uses)."""

    lang: str
    message: str
    link: TableLink
    link_line: Line | None = None
    """The connection's state to show on the prompt line (``None``: all is well)."""

    def redraw(self) -> None:
        """Draw the table (the local screen's)."""
        raise NotImplementedError

    def seat_name(self, seat: int) -> str:
        """How the screen names a seat (the local screen's)."""
        raise NotImplementedError

    def worded(self, line: Line) -> str:
        """A line of the link (or of the server), in the screen's language and names."""
        return say(self.lang, line.phrase, line.english, self.seat_name)

    def link_status(self, status: LinkStatus) -> None:
        """The connection changed: its line goes on the prompt line until it is well again."""
        self.link_line = status.line
        self.redraw()

    def link_dropped(self, dropped: list[Pending]) -> None:
        """Requests the connection took down with it: say so (the welcome will show what stands)."""
        moves = [p.text for p in dropped if p.kind in ("move", "undo") and p.text]
        if moves:
            self.message = tr(self.lang, "link_dropped", move=", ".join(moves))
        self.redraw()

    def link_fair(self, note: FairNote) -> None:
        """A fair-deal check came to a result: an alarm or the record's verdict on the message line."""
        if note.line is not None:
            self.message = self.worded(note.line)
        self.redraw()

    def fair_lines(self, game: int | None = None) -> list[str]:
        """The fingerprint of ``game``'s deal and what its checks found, for the summary."""
        words = fair_words(self.lang, self.link.fair, game)
        return ([words] if words else []) + [self.worded(line) for line in self.link.fair.lines(game)]


class RemoteMaliceScreen(MaliceScreen, LinkedScreen):
    """A server's Spite and Malice table, played (or watched) from this keyboard."""

    table: RemoteMaliceTable  # type: ignore[assignment]
    BINDINGS: ClassVar[list[BindingType]] = [Binding("exclamation_mark", "report", "Report")]

    async def action_report(self) -> None:
        """!: report the table or a player's name to the server's operator."""
        await report_from(self)

    def __init__(self, table: RemoteMaliceTable, lang: str = "en") -> None:
        super().__init__(table, lang, 0.0, table.preset)  # type: ignore[arg-type]
        self.link = table.link
        self.asked_hint: str | None = None
        """The id of the ``hint`` asked for and not yet answered."""
        if table.seat is None:
            self.bottom = 0

    def on_mount(self) -> None:
        """Run the link. (Textual calls every class's ``on_mount`` in turn, so the table's own set-up
        runs once, after this, without a ``super()`` call: with one it ran twice.)"""
        self.run_worker(self.link.run(self), group="remote", name="remote-link")

    # ------------------------------------------------------------------ what the link says
    def link_message(self, msg: dict[str, Any]) -> None:
        """A server message: the table takes it in, the screen says what it means."""
        update = self.table.handle(msg)
        if msg.get("type") == "hint":
            self._hinted(msg)
        elif update.error is not None:
            self.message = tr(self.lang, "illegal", reason=say(self.lang, update.error_words, update.error,
                                                               self.seat_name))
        elif update.undone is not None:
            self.message = tr(self.lang, "undone", move=self.move_words(update.undone))
        elif update.new_game:
            match = self.table.match
            self.message = tr(self.lang, "next_game", game=match.game) if match is not None else ""
        elif update.notice is not None:
            self.message = say(self.lang, update.notice_words, update.notice, self.seat_name)
        if update.new_game:
            self.source = self.prefix = None
            self.hinted = None
            if self.summary_open or isinstance(self.app.screen, SummaryScreen):
                if isinstance(self.app.screen, SummaryScreen):
                    self.app.screen.dismiss("resume")  # the server dealt the next game (its pause ran out)
                self.summary_open = False
        self.advance()
        if msg.get("type") == "gameOver":
            self._refresh_summary()

    def link_fair(self, note: FairNote) -> None:
        """A fair-deal verdict: on the message line, and in the summary if it is open."""
        super().link_fair(note)
        self._refresh_summary()

    def _refresh_summary(self) -> None:
        summary = self.app.screen
        if isinstance(summary, SummaryScreen):
            summary.more = not self.table.match_over  # the gameOver may offer another game (a rematch)
            summary.text = self.summary_text()  # before it is drawn, or
            for widget in summary.query("#summary").results(Static):  # once it is
                widget.update(summary.text)

    def _hinted(self, msg: dict[str, Any]) -> None:
        """The server's hint: shown (with its places marked) while the position is the one it was for."""
        if msg.get("id") != self.asked_hint:
            return
        self.asked_hint = None
        view = self.table.view(self.shown)
        move = next((m for m in view.legal_moves if m.text == msg.get("move")), None)
        if move is None or msg.get("stateVersion") != self.table.version:
            return  # the position moved on while the server thought
        sources, target = move_places(view, move)
        self.hinted = (self._screen_places(view, sources), target)
        phrases = [p for p in (phrase_of(w) for w in msg.get("whyWords") or []) if isinstance(p, Phrase)]
        why = say_all(self.lang, phrases, str(msg.get("why") or "—"), self.seat_name)
        self.message = tr(self.lang, "hint", move=self.move_words(move, malice_card(view, move)), why=why)

    # ------------------------------------------------------------------ turn flow
    def advance(self) -> None:
        """No bots here: show this seat's view; the summary once the game is over."""
        table = self.table
        self.shown = table.seat
        if table.seat is not None:
            self.bottom = table.seat
        if table.state.is_over and table.awaiting_next is None:
            super().advance()
            return
        self.redraw()

    def _summary_closed(self, choice: str | None) -> None:
        """N sends ``next`` and waits for the server's deal (the table shows the finished game meanwhile)."""
        if choice != "next":
            super()._summary_closed(choice)
            return
        self.summary_open = False
        try:
            self.table.new_game()
        except IllegalMoveError as exc:
            self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
        else:
            self.message = ""
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        """N on the finished table (after Esc closed the summary) opens the summary again (then
        :meth:`MaliceScreen.on_key` runs, as Textual calls each class's handler)."""
        if event.key.lower() == "n" and self.table.state.is_over and self.table.awaiting_next is None:
            self.summary_open = False

    def action_hint(self) -> None:
        """?: ask the server's hint bot (the ``hard`` bot, from this seat's view alone); its answer shows
        when it comes."""
        if not self._may_act():
            return
        try:
            self.asked_hint = self.link.hint()
        except IllegalMoveError as exc:
            self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
        else:
            self.message = tr(self.lang, "hint_asked")
        self.redraw()

    def action_undo(self) -> None:
        """U: ask the server to take back the last build play of this turn (while its ``canUndo`` allows);
        its answer shows when it comes."""
        if not self._may_act():
            return
        if not self.table.can_undo():
            self.message = tr(self.lang, "no_undo")
        else:
            try:
                self.table.undo()  # the prompt line says what was asked; the answer shows here
            except IllegalMoveError as exc:
                self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
            else:
                self.message = ""
        self.source = None
        self.hinted = None
        self.redraw()

    @property
    def waiting_for_human(self) -> bool:
        """True when this seat may move (its turn, connected, no move waiting for the server)."""
        return self.table.human_to_move and self.shown == self.table.to_move

    def redraw(self) -> None:
        """The local drawing, the connection's state on the prompt line, the deal's fingerprint."""
        super().redraw()
        if not self.composed:
            return
        table = self.table
        line: str | None = None
        if self.link_line is not None:
            line = self.worded(self.link_line)
        elif table.pending is not None and table.pending_undo:
            move = table.pending[1]
            line = tr(self.lang, "undo_asked", move=self.move_words(move)) if move else tr(self.lang, "undo_asked_last")
        elif table.pending is not None:
            line = tr(self.lang, "waiting_server", move=self.sent_words(table.pending[1]))
        elif table.awaiting_next is not None and table.state.is_over:
            ready = ", ".join(f"P{s + 1}" for s in table.ready_seats) or "—"
            line = tr(self.lang, "waiting_rematch" if table.rematch is not None else "waiting_next", ready=ready)
        elif table.seat is None:
            line = tr(self.lang, "watching", id=table.table_id)
        if line is not None:
            set_text(self.query_one("#prompt", Static), Text(line, style="italic"), layout=False)
        _with_fair(self.query_one("#head", Static), fair_words(self.lang, self.link.fair))

    def sent_words(self, text: str) -> str:
        """A move sent and not yet answered, in words: its card from the position it was sent in."""
        try:
            move = parse_move(text, self.table.opts.skipbo)
        except IllegalMoveError:
            return text
        return self.move_words(move, malice_card(self.table.view(self.table.seat), move))

    def link_dropped(self, dropped: list[Pending]) -> None:
        """Requests the connection took down with it: say so, with the moves in words."""
        moves = [self.sent_words(p.text) if p.kind == "move" else self.move_words(p.text)
                 for p in dropped if p.kind in ("move", "undo") and p.text]
        if moves:
            self.message = tr(self.lang, "link_dropped", move=", ".join(moves))
        self.redraw()

    def seat_name(self, seat: int) -> str:
        """``P1 (you)``, ``P2 (hard)``, ``P2 (bob)``."""
        s = self.table.seats[seat]
        who = tr(self.lang, "you") if s.human else s.name
        return f"P{seat + 1} ({who})"

    def summary_text(self) -> Text:
        """Result, turns, stocks left (from the view), where the record is, and what the deal's checks found."""
        t = self.lang
        view = self.table.view(self.table.seat)
        result = view.result
        assert result is not None
        out = Text(tr(t, "game_over") + "\n\n", style="bold")
        if result.winner is not None:
            name = self.seat_name(result.winner) if result.team is None else self.table.side_name(result.team)
            out.append(tr(t, "wins", name=name), style="bold")
            out.append(f" — {_reason(t, result.reason)}")
            if result.points is not None:
                out.append(" · " + tr(t, "points", points=result.points))
        else:
            out.append(tr(t, "draw_result", reason=_reason(t, result.reason)), style="bold")
        out.append("\n" + tr(t, "turns_played", turns=view.turn + (0 if result.reason != "stock" else 1),
                                 moves=self.table.state.plies) + "\n")
        for i in range(view.opts.n_stocks):
            name = self.seat_name(i) if not view.opts.partnerships else tr(t, "team", n=i + 1)
            left = view.stock_sizes[i]
            out.append(tr(t, "stock_left_one" if left == 1 else "stock_left", name=name, n=left) + "\n")
        over = self.table.game_over or {}
        if over.get("recordUrl"):
            out.append("\n" + tr(t, "record", url=self.table.base + str(over["recordUrl"])) + "\n")
        fair = over.get("fair")
        game = fair.get("game") if isinstance(fair, dict) and isinstance(fair.get("game"), int) else None
        for line in self.fair_lines(game):
            out.append(line + "\n")
        match = self.table.match
        if match is not None:
            out.append("\n" + self.score_text() + "\n", style="bold")
            if match.is_over and match.winner is not None:
                out.append(tr(t, "match_over", name=self.side_label(match.winner)) + "\n", style="bold")
            elif self.table.seat is None:
                out.append(tr(t, "watch_next") + "\n")
        ending = "end_keys_final" if self.table.match_over else "end_keys_rematch" if self.table.rematch_open \
            else "end_keys"
        out.append("\n" + tr(t, ending))
        return out


class RemoteSpitScreen(SpitScreen, LinkedScreen):
    """A server's Spit table, played (or watched) from this keyboard."""

    table: RemoteSpitTable  # type: ignore[assignment]
    BINDINGS: ClassVar[list[BindingType]] = [Binding("exclamation_mark", "report", "Report")]

    async def action_report(self) -> None:
        """!: report the table or a player's name to the server's operator."""
        await report_from(self)

    FLASH_SECONDS = 2.5
    """How long a lost race's reason (``too-late``) stays on the message line."""

    def __init__(self, table: RemoteSpitTable, lang: str = "en", clock: Callable[[], float] = time.monotonic,
                 tick_seconds: float = 0.1) -> None:
        super().__init__(table, clock, lang, tick_seconds)  # type: ignore[arg-type]
        self.link = table.link
        self.message_until: float | None = None

    def on_mount(self) -> None:
        """Run the link. (Textual calls every class's ``on_mount`` in turn: the screen's own, which
        starts the drawing timer, runs after this; with a ``super()`` call it ran twice, and the
        screen was drawn twice a tick.)"""
        self.run_worker(self.link.run(self), group="remote", name="remote-link")

    def now_ms(self) -> int:
        """The server's game time (as last told, plus the time since)."""
        return self.table.now_ms()

    def link_message(self, msg: dict[str, Any]) -> None:
        """A server message: the table takes it in, the screen says what it means."""
        update = self.table.handle(msg)
        if update.error is not None:
            reason = say(self.lang, update.error_words, update.error, self.seat_name)
            if update.too_late:
                self.message = reason
                self.message_until = self.clock() + self.FLASH_SECONDS
            else:
                self.message = tr(self.lang, "illegal", reason=reason)
                self.message_until = None
        elif update.notice is not None:
            self.message = say(self.lang, update.notice_words, update.notice, self.seat_name)
            self.message_until = self.clock() + self.FLASH_SECONDS
        if self.table.over and msg.get("type") in ("state", "gameOver"):
            self._at_the_end()
        self.redraw()

    def _at_the_end(self) -> None:
        """The prompt line says who won; the message line what the deal's checks found (so far)."""
        self.message = " · ".join(self.worded(line) for line in self.link.fair.lines())
        self.message_until = None

    def link_fair(self, note: FairNote) -> None:
        """A fair-deal verdict stays on the message line (no lost race's reason fades it)."""
        self.message_until = None
        super().link_fair(note)

    def tick(self) -> None:
        """Take the events the server reported, let a lost race's reason fade, redraw (the time runs)."""
        for ev in self.table.tick(self.now_ms()):
            if ev.kind == "game-over":
                self._at_the_end()
        self.count_down()
        self.redraw()

    def try_move(self, move: str) -> bool:
        """Send the move (the server answers); a refusal here is only for a spectator or no connection."""
        self.message_until = None
        return super().try_move(move)

    def redraw(self) -> None:
        """The local drawing, the connection's state on the prompt line, the deal's fingerprint."""
        super().redraw()
        if not self.composed:
            return
        table = self.table
        line: str | None = None
        if self.link_line is not None:
            line = self.worded(self.link_line)
        elif table.seat is None:
            line = tr(self.lang, "watching", id=table.table_id)
        elif table.pending is not None and not table.over:
            line = tr(self.lang, "sent", move=self.sent_words(table.pending[1]))
        if line is not None:
            set_text(self.query_one("#spit-prompt", Static), Text(line, style="italic"))
        _with_fair(self.query_one("#spit-head", Static), fair_words(self.lang, self.link.fair))


    def sent_words(self, text: str) -> str:
        """A move sent and not yet answered, in words (its card from the position it was sent in), or
        in notation after ``L``."""
        if self.notation:
            return text
        view = self.table.view()
        card: int | None = None
        try:
            kind, a, _ = parse_spit_move(text, self.table.game)
        except IllegalMoveError:
            return text
        me = view.players[0]
        if kind in (PLAY, SLOT) and isinstance(me, SpitPlayerView) and 0 < a <= len(me.tableau):
            card = me.tableau[a - 1].top
        elif kind == HAND and isinstance(me, SpeedPlayerView):
            card = next((c for c in me.hand or () if RANKS[c] == a), None)
        return spit_move_words(self.lang, text, card)


class RemoteSpeedScreen(RemoteSpitScreen, SpeedScreen):
    """A server's Speed table: the link and messages of :class:`RemoteSpitScreen`, the table of
    :class:`~spite.tui.speed_screen.SpeedScreen`."""

    table: RemoteSpeedTable  # type: ignore[assignment]
