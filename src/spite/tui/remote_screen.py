"""The screens for a seat at a server table (``spite tui --connect``): Spite and Malice, and Spit.

The same screen, keys and drawing as a local game (:class:`~spite.tui.malice_screen.MaliceScreen`);
the table is a :class:`~spite.tui.remote.RemoteMaliceTable` whose position comes from the server,
and a :class:`~spite.tui.remote.RemoteLink` worker carries the messages. The server's bots and
people play the other seats, so nothing runs here between moves: each ``state`` redraws the table.
``U`` asks the server to take back a build play of this turn (while its ``canUndo`` allows); at a
match table the head shows the score, and between games the summary's ``N`` tells the server this
seat is ready and waits for the next deal.

A Spit table (:class:`RemoteSpitScreen`) uses the local Spit screen and its keys the same way: the
table is a :class:`~spite.tui.remote_spit.RemoteSpitTable`, moves go out at once, the server's
clock and reflex bots run the game, and a move that lost a race (``too-late``) shows the engine's
reason for a moment. A Speed table (:class:`RemoteSpeedScreen`) is the Speed screen driven the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import Static

from spite.errors import IllegalMoveError
from spite.tui.i18n import has_text, say, tr
from spite.tui.malice_screen import MaliceScreen, SummaryScreen
from spite.tui.remote import RemoteLink, RemoteMaliceTable, fair_state
from spite.tui.remote_spit import RemoteSpeedTable, RemoteSpitTable
from spite.tui.speed_screen import SpeedScreen
from spite.tui.spit_screen import SpitScreen
from spite.tui.widgets import set_text

__all__ = ["RemoteMaliceScreen", "RemoteSpeedScreen", "RemoteSpitScreen"]


def _reason(lang: str, reason: str) -> str:
    return tr(lang, "reason_" + reason) if has_text("reason_" + reason) else reason


def fair_words(lang: str, fair: dict[str, Any] | None, table_id: str) -> str:
    """The deal fingerprint (docs/fairness.md), and once the game is over whether it checked out."""
    found = fair_state(fair, table_id)
    if found is None:
        return ""
    short, ok = found
    return tr(lang, "fair" if ok is None else "fair_ok" if ok else "fair_bad", print=short)


def _with_fair(widget: Static, words: str) -> None:
    """Append the fingerprint to a head line the local screen just drew."""
    shown = getattr(widget, "_spite_shown", None)
    if not words or shown is None or shown[0].endswith(words):
        return
    set_text(widget, Text(shown[0], style=shown[2], spans=list(shown[1])) + Text(f" · {words}"), layout=False)


class RemoteMaliceScreen(MaliceScreen):
    """A server's Spite and Malice table, played (or watched) from this keyboard."""

    table: RemoteMaliceTable  # type: ignore[assignment]

    def __init__(self, table: RemoteMaliceTable, lang: str = "en") -> None:
        super().__init__(table, lang, 0.0, table.preset)  # type: ignore[arg-type]
        self.link: RemoteLink | None = None
        if table.seat is None:
            self.bottom = 0

    def on_mount(self) -> None:
        """Open the link. (Textual calls every class's ``on_mount`` in turn, so the table's own set-up
        runs once, after this, without a ``super()`` call: with one it ran twice.)"""
        self.link = RemoteLink(self.table, self._received, self._status)
        self.run_worker(self.link.run(), group="remote", name="remote-link")

    # ------------------------------------------------------------------ messages
    fair: dict[str, Any] | None = None
    """The last ``fair`` the server sent (docs/fairness.md)."""

    def _received(self, msg: dict[str, Any]) -> None:
        if isinstance(msg.get("fair"), dict):
            self.fair = msg["fair"]
        update = self.table.handle(msg)
        if update.sync and self.link is not None:
            self.link.send({"type": "sync"})
        if update.error is not None:
            self.message = tr(self.lang, "illegal", reason=say(self.lang, update.error_words, update.error,
                                                               self.seat_name))
        elif update.undone is not None:
            self.message = tr(self.lang, "undone", move=update.undone)
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
        summary = self.app.screen
        if msg.get("type") == "gameOver" and isinstance(summary, SummaryScreen):
            summary.text = self.summary_text()  # before it is drawn, or
            for widget in summary.query("#summary").results(Static):  # once it is
                widget.update(summary.text)

    def _status(self, text: str) -> None:
        self.table.status = text
        self.redraw()

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
        """The local drawing, and the connection's state on the prompt line."""
        super().redraw()
        if not self.composed:
            return
        table = self.table
        line: str | None = None
        if table.status:
            line = table.status
        elif table.pending is not None and table.pending_undo:
            move = table.pending[1]
            line = tr(self.lang, "undo_asked", move=move) if move else tr(self.lang, "undo_asked_last")
        elif table.pending is not None:
            line = tr(self.lang, "waiting_server", move=table.pending[1])
        elif table.awaiting_next is not None and table.state.is_over:
            ready = table.match.ready if table.match is not None else []
            line = tr(self.lang, "waiting_next", ready=", ".join(f"P{s + 1}" for s in ready) or "—")
        elif table.seat is None:
            line = tr(self.lang, "watching", id=table.table_id)
        if line is not None:
            set_text(self.query_one("#prompt", Static), Text(line, style="italic"), layout=False)
        _with_fair(self.query_one("#head", Static), fair_words(self.lang, self.fair, table.table_id))

    def seat_name(self, seat: int) -> str:
        """``P1 (you)``, ``P2 (hard)``, ``P2 (bob)``."""
        s = self.table.seats[seat]
        who = tr(self.lang, "you") if s.human else s.name
        return f"P{seat + 1} ({who})"

    def summary_text(self) -> Text:
        """Result, turns, stocks left (from the view) and where the record is."""
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
        if words := fair_words(t, over.get("fair") or self.fair, self.table.table_id):
            out.append(words + "\n")
        match = self.table.match
        if match is not None:
            out.append("\n" + self.score_text() + "\n", style="bold")
            if match.is_over and match.winner is not None:
                out.append(tr(t, "match_over", name=self.side_label(match.winner)) + "\n", style="bold")
            elif self.table.seat is None:
                out.append(tr(t, "watch_next") + "\n")
        out.append("\n" + tr(t, "end_keys" if not self.table.match_over else "end_keys_final"))
        return out


class RemoteSpitScreen(SpitScreen):
    """A server's Spit table, played (or watched) from this keyboard."""

    table: RemoteSpitTable  # type: ignore[assignment]

    FLASH_SECONDS = 2.5
    """How long a lost race's reason (``too-late``) stays on the message line."""

    def __init__(self, table: RemoteSpitTable, lang: str = "en", clock: Callable[[], float] = time.monotonic,
                 tick_seconds: float = 0.1) -> None:
        super().__init__(table, clock, lang, tick_seconds)  # type: ignore[arg-type]
        self.link: RemoteLink | None = None
        self.message_until: float | None = None

    def on_mount(self) -> None:
        """Open the link. (Textual calls every class's ``on_mount`` in turn: the screen's own, which
        starts the drawing timer, runs after this; with a ``super()`` call it ran twice, and the
        screen was drawn twice a tick.)"""
        self.link = RemoteLink(self.table, self._received, self._status)
        self.run_worker(self.link.run(), group="remote", name="remote-link")

    def now_ms(self) -> int:
        """The server's game time (as last told, plus the time since)."""
        return self.table.now_ms()

    fair: dict[str, Any] | None = None
    """The last ``fair`` the server sent (docs/fairness.md)."""

    def _received(self, msg: dict[str, Any]) -> None:
        if isinstance(msg.get("fair"), dict):
            self.fair = msg["fair"]
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
        if self.table.over:
            self.message = ""  # the prompt line says who won
            self.message_until = None
        self.redraw()

    def _status(self, text: str) -> None:
        self.table.status = text
        self.redraw()

    def tick(self) -> None:
        """Take the events the server reported, let a lost race's reason fade, redraw (the time runs)."""
        for ev in self.table.tick(self.now_ms()):
            if ev.kind == "game-over":
                self.message = ""  # the prompt line says who won
                self.message_until = None
        if self.message_until is not None and self.clock() >= self.message_until:
            self.message, self.message_until = "", None
        self.redraw()

    def try_move(self, move: str) -> bool:
        """Send the move (the server answers); a refusal here is only for a spectator or no connection."""
        self.message_until = None
        return super().try_move(move)

    def redraw(self) -> None:
        """The local drawing, and the connection's state on the prompt line."""
        super().redraw()
        if not self.composed:
            return
        table = self.table
        line: str | None = None
        if table.status:
            line = table.status
        elif table.seat is None:
            line = tr(self.lang, "watching", id=table.table_id)
        elif table.pending is not None and not table.over:
            line = tr(self.lang, "sent", move=table.pending[1])
        if line is not None:
            set_text(self.query_one("#spit-prompt", Static), Text(line, style="italic"))
        _with_fair(self.query_one("#spit-head", Static), fair_words(self.lang, self.fair, table.table_id))


class RemoteSpeedScreen(RemoteSpitScreen, SpeedScreen):
    """A server's Speed table: the link and messages of :class:`RemoteSpitScreen`, the table of
    :class:`~spite.tui.speed_screen.SpeedScreen`."""

    table: RemoteSpeedTable  # type: ignore[assignment]
