"""What every screen for a seat at a server table (``spite tui --connect``) shares: it is its
:class:`~spite.tui.link.TableLink`'s listener (the link runs as a Textual worker and speaks the
protocol). It hands the server's messages to its table and shows what the link tells it: the
connection's state on the prompt line, requests a dropped connection left unanswered, and the fair
deal (the fingerprint on the head line, an alarm or the record's verdict on the message line and in
the summary). Each game's screen module adds its remote screen on this (Spite and Malice:
:class:`~spite.malice.tui.screen.RemoteMaliceScreen`; Spit and Speed: ``RemoteSpitScreen``,
``RemoteSpeedScreen``), the same screens, keys and drawing as a local game.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from spite.tui.i18n import has_text, say, tr
from spite.tui.link import FairNote, FairWatch, Line, LinkStatus, Pending, TableLink
from spite.tui.widgets import set_text

__all__ = ["LinkedScreen", "fair_words", "link_reason", "with_fair"]


def link_reason(lang: str, reason: str) -> str:
    return tr(lang, "reason_" + reason) if has_text("reason_" + reason) else reason


def fair_words(lang: str, watch: FairWatch, game: int | None = None) -> str:
    """The deal fingerprint of ``game`` (default: the game in play; docs/fairness.md) with its mark: ✓
    once the revealed secret gave the pinned commitment, ✗ after any alarm."""
    head = watch.head(game)
    if head is None:
        return ""
    short, ok = head
    return tr(lang, "fair" if ok is None else "fair_ok" if ok else "fair_bad", print=short)


def with_fair(widget: Static, words: str) -> None:
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
