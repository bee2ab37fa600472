"""Report a table or a player's name to the server's operator from a server table (``!``; docs/protocol.md,
"Moderation"): a small modal with the table and each other person's name, one key each; the report is
``POST /api/reports`` with this user's player key."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from spite.tui.i18n import tr
from spite.tui.link import RemoteError, _http_json, player_key

__all__ = ["ReportScreen", "choices", "send_report"]


def choices(info: dict[str, Any], my_seat: int | None) -> list[tuple[str, int | None, str]]:
    """What may be reported at a table (its ``TableInfo``): ``(kind, seat, name)``, the table first, then
    every other seat a person sits at under a name."""
    out: list[tuple[str, int | None, str]] = [("table", None, "")]
    for seat in sorted(info.get("seats", []), key=lambda s: int(s["seat"])):
        if seat.get("kind") == "person" and seat.get("player") and seat["seat"] != my_seat:
            out.append(("name", int(seat["seat"]), str(seat["player"])))
    return out


def send_report(base: str, table_id: str, kind: str, seat: int | None) -> None:
    """Send the report (:class:`RemoteError` with one line when the server refuses it)."""
    body: dict[str, Any] = {"kind": kind, "table": table_id, "playerKey": player_key()}
    if seat is not None:
        body["seat"] = seat
    _http_json(f"{base}/api/reports", body)


class ReportScreen(ModalScreen[tuple[str, int | None] | None]):
    """1 the table, 2… a name; Esc: nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ReportScreen { align: center middle; }
    ReportScreen > Static { width: 60; height: auto; border: double $accent; padding: 1 2; background: $panel; }
    """

    def __init__(self, options: list[tuple[str, int | None, str]], lang: str = "en") -> None:
        super().__init__()
        self.options = options
        self.lang = lang

    def compose(self) -> ComposeResult:
        lines = [f"{i + 1}  " + (tr(self.lang, "rp_table") if kind == "table" else tr(self.lang, "rp_name", name=name))
                 for i, (kind, _seat, name) in enumerate(self.options)]
        yield Static(Text.assemble((tr(self.lang, "rp_title") + "\n\n", "bold"), "\n".join(lines), "\n\nEsc ✕"),
                     id="report")

    def on_key(self, event: Any) -> None:
        key = str(event.key)
        if key.isdigit() and 1 <= int(key) <= len(self.options):
            kind, seat, _name = self.options[int(key) - 1]
            event.stop()
            self.dismiss((kind, seat))

    def action_cancel(self) -> None:
        self.dismiss(None)


async def report_from(screen: Any) -> None:
    """``!`` at a server table: ask what, send it, say how it went on the screen's message line."""
    import asyncio

    table = screen.table
    options = choices(table.info, table.seat)

    async def chosen(choice: tuple[str, int | None] | None) -> None:
        if choice is None:
            return
        try:
            await asyncio.to_thread(send_report, table.link.base, table.link.table_id, *choice)
        except RemoteError as exc:
            screen.message = str(exc)
        else:
            screen.message = tr(screen.lang, "rp_sent")
        screen.redraw()

    screen.app.push_screen(ReportScreen(options, screen.lang), chosen)
