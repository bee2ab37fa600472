"""Widgets shared by the screens: a card pile that shows its key and can be clicked.

A :class:`PileWidget` is a bordered box: the border title is the key that picks it (``S``, ``3``,
``D2``, ``B1``), the subtitle a count, the inside the top card (or a fan of cards). States are
shown by the border's *shape* as well as its colour, so they survive any theme: a picked source has
a double border, a legal target a heavy one (and an arrow in its title), a hint a dashed one.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace

from rich.text import Text
from textual import events
from textual.dom import DOMNode
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from spite.tui.i18n import has_text, tr

__all__ = ["LOG_MIN_WIDTH", "MIN_SIZE", "WIDE", "LogPanel", "PileWidget", "TableScreen", "TooSmall", "set_text",
           "translate_bindings"]

MIN_SIZE = (80, 24)
"""The smallest terminal a table fits into (columns, lines)."""

WIDE = 112
"""From this many columns the log is a panel beside the table (below it, under the table)."""

LOG_MIN_WIDTH = 32
"""The narrowest log panel beside a table: the table gives up columns for it below this."""


class TableScreen(Screen[None]):
    """The screen of a game's table, whichever game: what the app looks for on its screen stack.

    Each game's ``tui`` hook (see :mod:`spite.games`) brings its own subclass, so the app itself
    names no game.
    """

    composed: bool = False
    """True once the screen's widgets are all mounted (each game's screen sets it)."""

    @property
    def drawable(self) -> bool:
        """Its widgets are there to draw on: composed, and not being taken down. When the app quits
        or another screen replaces this one, Textual removes the widgets before the screen hears it
        is unmounted, and a message the table's link delivers meanwhile must draw nothing."""
        return self.composed and not (self._closing or self._closed or self._pruning)

    def leave(self) -> None:
        """Leave the table (Q): the app ends, or goes back to the screen the table was opened from
        (a tournament's view) when the app has one."""
        leave_table = getattr(self.app, "leave_table", None)
        if leave_table is None:
            self.app.exit()
        else:
            leave_table()


def set_text(widget: Static, content: Text | str, *, layout: bool = True) -> None:
    """Update a Static only when its content changed (a redraw of the whole table stays cheap)."""
    text = content if isinstance(content, Text) else Text(content)
    key = (text.plain, tuple(text.spans), text.style)
    if getattr(widget, "_spite_shown", None) == key:
        return
    widget._spite_shown = key  # type: ignore[attr-defined]
    widget.update(text, layout=layout)


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Put the footer's descriptions of ``node``'s key bindings into ``lang`` (keys ``key_<action>``)."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            replace(b, description=tr(lang, name)) if has_text(name := "key_" + b.action.split(".")[-1]) else b
            for b in bindings
        ]


class LogPanel(Static):
    """A log that shows its newest entries, as many as fit its size, each wrapped to its width (a long
    one takes two or three lines, continued lines indented), so the newest is always in view. The
    screen hands it every entry (:meth:`show`); it fits them again whenever its size changes."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.entries: list[str] = []
        self.title = ""

    def show(self, entries: list[str], title: str = "") -> None:
        """Show the newest of ``entries`` (oldest first) under ``title`` (none: no title line)."""
        self.entries, self.title = entries, title
        self.fit()

    def fitted(self, width: int, height: int) -> list[str]:
        """The lines shown in ``width`` columns and ``height`` lines: the title, then the newest entries
        that fit, whole (a single entry longer than the panel: its end)."""
        title = [self.title] if self.title else []
        rows = max(height - len(title), 1)
        out: list[str] = []
        for entry in reversed(self.entries):
            wrapped = textwrap.wrap(entry, max(width, 8), subsequent_indent="  ", break_on_hyphens=False) or [""]
            if len(out) + len(wrapped) > rows:
                if not out:
                    out = wrapped[-rows:]
                break
            out = wrapped + out
        return title + out

    def fit(self) -> None:
        """Draw the lines that fit the panel's size now (nothing before its first layout)."""
        width, height = self.content_size
        if width and height:
            set_text(self, "\n".join(self.fitted(width, height)), layout=False)

    def on_resize(self, event: events.Resize) -> None:
        """A new size: other lines fit."""
        self.fit()


class TooSmall(Static):
    """Stands in for a table that does not fit: a cut-off table would hide cards without a word.

    A screen yields it and sets its own class ``-small`` (see :meth:`fit`) when the terminal is
    smaller than :data:`MIN_SIZE`; the screen's CSS then hides everything else and shows this.
    """

    DEFAULT_CSS = """
    TooSmall { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__("", id="too-small")
        self.lang = lang

    def fit(self, screen: DOMNode, size: tuple[int, int]) -> bool:
        """Set ``screen``'s ``-small`` class for a terminal of ``size``; True when the table fits."""
        width, height = size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        screen.set_class(small, "-small")
        if small:
            self.update(tr(self.lang, "too_small", w=MIN_SIZE[0], h=MIN_SIZE[1], now=f"{width}×{height}"))
        return not small


class PileWidget(Static):
    """One pile (or hand card) on the table; ``place`` is what it means to the screen."""

    DEFAULT_CSS = """
    PileWidget {
        width: 9;
        height: 3;
        border: round $foreground 60%;
        border-title-align: left;
        border-subtitle-align: right;
        content-align: center middle;
        text-align: center;
        margin: 0 1 0 0;
    }
    PileWidget.-faded { border: round $foreground 25%; color: $text-muted; }
    PileWidget.-source { border: double $accent; text-style: bold; }
    PileWidget.-target { border: heavy $success; text-style: bold; }
    PileWidget.-hint { border: dashed $warning; }
    PileWidget.-hidden { visibility: hidden; }
    """

    class Clicked(Message):
        """The pile was clicked."""

        def __init__(self, pile: PileWidget) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self, place: tuple[str, ...] | tuple[str, int] | None, key: str = "", **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.place = place
        self.key_label = key
        self.border_title = key
        self._shown: object = None

    def show(self, content: Text, count: str = "", *, marks: frozenset[str] = frozenset(),
             layout: bool = False) -> None:
        """Draw ``content`` with ``count`` in the subtitle; ``marks`` among source/target/hint/faded/hidden.

        Nothing is redrawn when nothing changed; ``layout`` for a pile whose height follows its cards.
        """
        key = (content.plain, tuple(content.spans), content.style, count, marks)
        if key == self._shown:
            return
        self._shown = key
        arrow = "→" if "target" in marks else ("●" if "source" in marks else "")
        self.border_title = f"{self.key_label}{arrow}" if self.key_label else arrow
        self.border_subtitle = count
        for mark in ("source", "target", "hint", "faded", "hidden"):
            self.set_class(mark in marks, f"-{mark}")
        self.update(content, layout=layout)

    def on_click(self, event: events.Click) -> None:
        """Tell the screen."""
        event.stop()
        self.post_message(self.Clicked(self))
