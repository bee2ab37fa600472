"""The wait of ``spite tui --seek`` as a screen of the app: what is sought (game, preset, rated or
casual), the seeker's rating, the time waited and the window of ratings it reaches now, when a
computer will come instead; ``Esc`` (or Ctrl-C) cancels. Once the server pairs the seek, the seat is
joined and the table's screen opens in its place.

The seek was made before the app opened (:func:`spite.tui.seek.open_seek`: a refusal is one line on
the command line); this screen follows it with long polls (:func:`spite.tui.seek.ask_seek`) in a
worker thread, so the server's answer at the pairing reaches it at once. The time waited counts on
between answers by the app's clock (``TuiConfig.clock``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from spite.tui.i18n import preset_name, tr
from spite.tui.link import RemoteError, connect_table
from spite.tui.seek import ask_seek, cancel_seek
from spite.tui.widgets import set_text, translate_bindings

if TYPE_CHECKING:
    from spite.tui.config import TuiConfig

__all__ = ["SeekScreen"]

RETRY_S = 2.0
"""After the server did not answer, the next ask comes this much later (the screen says so)."""


class SeekScreen(Screen["TuiConfig | None"]):
    """Waits for the seek ``config.seek`` (the server's answer to ``POST /api/seeks``); once seated it
    asks the app to open the table in its place (:class:`~spite.tui.config.OpenTable`); dismissed with
    ``None`` when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel"),
                                             Binding("ctrl+c", "cancel", "Cancel", show=False)]
    DEFAULT_CSS = """
    SeekScreen { align: center middle; }
    #seek-box { width: 72; height: auto; border: double $accent; padding: 0 1; }
    #seek-title { text-style: bold; }
    #seek-box Static { padding: 0 1; }
    #seek-error { color: $error; }
    """

    def __init__(self, config: TuiConfig) -> None:
        super().__init__()
        assert config.seek is not None
        self.config = config
        self.lang = config.lang
        self.seek: dict[str, Any] = config.seek.answer
        self.answered_at = config.clock()
        self.over = False
        """Cancelled or seated: no more asking."""
        translate_bindings(self, config.lang)

    @property
    def base(self) -> str:
        assert self.config.seek is not None
        return self.config.seek.base

    def compose(self) -> ComposeResult:
        from spite.tui.config import tui_game

        s, t = self.seek, self.lang
        what = " · ".join((tr(t, tui_game(s["game"]).label), preset_name(t, s["preset"]),
                           tr(t, "seek_rated" if s["rated"] else "seek_casual")))
        computer = (tr(t, "seek_computer_after", s=round(s["computerAfter"]))
                    if s.get("computerAfter") is not None else "")
        with Vertical(id="seek-box"):
            yield Static(tr(t, "seek_title"), id="seek-title")
            yield Static(what, id="seek-what")
            yield Static(f"{tr(t, 'seek_rating', rating=s['rating'])} · {tr(t, 'rg_' + s['group'])}",
                         id="seek-rating")
            yield Static(self._wait_words(), id="seek-window")
            yield Static(computer, id="seek-computer")
            yield Static("", id="seek-error")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)
        self.run_worker(self._follow(), exclusive=True, name="seek")

    def _wait_words(self) -> str:
        waited = self.seek["waited"] + max(0.0, self.config.clock() - self.answered_at)
        return tr(self.lang, "seek_window", n=round(self.seek["window"]), s=round(waited))

    def _tick(self) -> None:
        set_text(self.query_one("#seek-window", Static), self._wait_words())

    def _say(self, words: str) -> None:
        set_text(self.query_one("#seek-error", Static), words)

    async def _follow(self) -> None:
        """Ask with long polls until the seek is matched (then sit down) or over."""
        while not self.over:
            if self.seek["state"] == "matched" and isinstance(self.seek.get("matched"), dict):
                await self._sit(self.seek["matched"])
                return
            if self.seek["state"] != "waiting":
                self._say(tr(self.lang, "seek_ended", state=self.seek["state"]))
                return
            try:
                answer = await asyncio.to_thread(ask_seek, self.base, str(self.seek["id"]))
            except RemoteError as exc:
                self._say(tr(self.lang, "seek_lost", why=str(exc)))
                await asyncio.sleep(RETRY_S)
                continue
            if self.over:
                return
            self.seek, self.answered_at = answer, self.config.clock()
            self._say("")
            self._tick()

    async def _sit(self, matched: dict[str, Any]) -> None:
        """Join the seat the pairing gave and open its table in this screen's place."""
        self.over = True
        key = "seek_matched_computer" if matched.get("computer") else "seek_matched"
        set_text(self.query_one("#seek-window", Static), tr(self.lang, key, level=matched.get("computer") or ""))
        try:
            remote = await asyncio.to_thread(connect_table, self.base, str(matched["table"]),
                                             token=str(matched["token"]))
        except RemoteError as exc:
            self._say(str(exc))
            return
        from spite.tui.config import OpenTable

        self.post_message(OpenTable(replace(self.config, remote=remote, seek=None)))

    async def action_cancel(self) -> None:
        """Cancel the seek and leave; a seek paired meanwhile takes its seat instead."""
        await self.before_quit()
        if self.seek["state"] == "matched" and isinstance(self.seek.get("matched"), dict):
            await self._sit(self.seek["matched"])
        else:
            self.dismiss(None)

    async def before_quit(self) -> None:
        """The app is leaving (or the person cancelled): cancel the seek at the server."""
        if self.over:
            return
        self.over = True
        try:
            self.seek = await asyncio.to_thread(cancel_seek, self.base, str(self.seek["id"]))
        except RemoteError as exc:  # the server is gone: the seek expires there by itself
            self._say(str(exc))
