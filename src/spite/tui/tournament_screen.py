"""The tournament of ``spite tui --tournament`` as a screen of the app: what it plays and how (Swiss rounds
or an arena's minutes), its state with the time to the next round or to its end (by the server's
clock), the standings, and this player's next table. Each table opens by itself the moment the server
makes it (the same remote game screen a seek opens, found through the game's ``tui`` hook); once the
server says its game is over, the view comes back after a short pause (the game's summary can be read
meanwhile; Q there comes back at once), then the next table opens, until the tournament is over.

The tournament was joined before the app opened (:func:`spite.tui.tournament.join_tournament`: a
refusal is one line on the command line); this screen follows it with two long polls in worker
threads (:func:`~spite.tui.tournament.ask_tournament`, :func:`~spite.tui.tournament.ask_next`). The
pauses and the countdown go by the app's clock (``TuiConfig.clock``). Names no game.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from spite.tui.i18n import has_text, preset_name, tr
from spite.tui.link import RemoteError, connect_table
from spite.tui.tournament import ask_next, ask_tournament
from spite.tui.widgets import set_text, translate_bindings

if TYPE_CHECKING:
    from spite.tui.config import TuiConfig
    from spite.tui.tournament import OpenTournament

__all__ = ["TournamentScreen", "clock_text", "number_text", "off_the_loop"]

T = TypeVar("T")

RETRY_S = 2.0
"""After the server did not answer, the next ask comes this much later."""
SEATED_POLL_S = 2.0
"""While this player's table is in play (or they have a bye) the server answers ``next`` at once: the
next ask then comes this much later."""


async def off_the_loop(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` (a blocking request, a long poll of up to its wait) in a thread of its own that does not
    hold the app up when it ends: ``asyncio.to_thread``'s pool would be waited for, a long poll's whole wait."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if done.cancelled():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = fn(*args), None
        except Exception as exc:  # handed to the awaiting coroutine
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the app's loop has closed meanwhile
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="spite-tournament-ask", daemon=True).start()
    return await done


def number_text(value: object) -> str:
    """Points as people write them: 2, 1.5 (not 2.0).

    >>> number_text(2.0), number_text(1.5), number_text(None)
    ('2', '1.5', '')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def clock_text(seconds: float) -> str:
    """A countdown as people read it.

    >>> clock_text(245), clock_text(3729), clock_text(-3)
    ('4:05', '1:02:09', '0:00')
    """
    s = max(0, math.ceil(seconds))
    h, m = divmod(s, 3600)
    m, s = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TournamentScreen(Screen[None]):
    """A tournament this terminal entered (``config.tournament``); its tables open over it and go again
    when their game is over (:meth:`take_table_back`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open_table", "To the table"),
                                             Binding("escape", "leave_view", "Leave")]
    DEFAULT_CSS = """
    TournamentScreen { align: center middle; }
    #tn-box { width: 90; height: auto; max-height: 100%; border: double $accent; padding: 0 1; }
    #tn-title { text-style: bold; }
    #tn-box Static { padding: 0 1; }
    #tn-next { text-style: bold; }
    #tn-error { color: $error; }
    """

    takes_table_back = True
    """The app hands a table left (Q at its end) back to this screen instead of ending (SpiteApp.leave_table)."""

    def __init__(self, config: TuiConfig) -> None:
        super().__init__()
        assert config.tournament is not None
        self.config = config
        self.lang = config.lang
        self.tournament: OpenTournament = config.tournament
        self.info: dict[str, Any] = self.tournament.info
        self.clock_offset = 0.0
        """The server's clock minus the app's, from the last answer."""
        self.next: dict[str, Any] | None = None
        self.playing: str | None = None
        """The table whose screen is open over this one."""
        self.remote: Any = None
        self.done: set[str] = set()
        """Tables whose game is over (never opened again)."""
        self.ready: dict[str, Any] | None = None
        """The next seat, made and not yet taken."""
        self.back_at: float | None = None
        self.open_at: float | None = None
        self.opening = False
        self.played = 0
        """Games this screen opened (tests and the summary line read it)."""
        self.stopped = False
        self.drawn = False
        """Its widgets are there to draw in (mounted)."""
        self.error = ""
        self._take(self.info)
        translate_bindings(self, config.lang)

    # ------------------------------------------------------------------ what it shows
    def compose(self) -> ComposeResult:
        with Vertical(id="tn-box"):
            yield Static("", id="tn-title")
            yield Static("", id="tn-what")
            yield Static("", id="tn-clock")
            yield Static("", id="tn-me")
            yield Static("", id="tn-next")
            yield Static("", id="tn-standings")
            yield Static("", id="tn-error")
        yield Footer()

    def on_mount(self) -> None:
        self.drawn = True
        self.redraw()
        self.set_interval(1.0, self._tick)
        self.run_worker(self._follow_info(), group="tournament", name="tournament-info")
        self.run_worker(self._follow_next(), group="tournament", name="tournament-next")

    def _take(self, info: dict[str, Any]) -> None:
        self.info = info
        self.tournament.info = info
        if isinstance(info.get("now"), int | float):
            self.clock_offset = float(info["now"]) - self.config.clock()

    def _word(self, prefix: str, name: str) -> str:
        return tr(self.lang, prefix + name) if has_text(prefix + name) else name

    def what_words(self) -> str:
        i, t = self.info, self.lang
        minutes = float(i.get("minutes") or 0)
        system = tr(t, "tn_what_arena", n=int(minutes) if minutes.is_integer() else minutes) \
            if i.get("system") == "arena" \
            else tr(t, "tn_what_swiss", n=i.get("roundCount") or 0)
        rated = tr(t, "seek_rated" if i.get("rated") else "seek_casual")
        count = sum(1 for e in i.get("entrants", []) if not e.get("withdrawn"))
        line = " · ".join((system, rated, tr(t, "tn_by", name=i.get("creator") or "—"),
                           self._word("tn_state_", str(i.get("state"))), tr(t, "tn_entrants", n=count)))
        options = i.get("options") or {}
        if not options:
            return line
        changed = ", ".join(f"{self._word('tb_option.', str(name))}: {value}" for name, value in options.items())
        return f"{line}\n{tr(t, 'tn_options', options=changed)}"

    def clock_words(self) -> str:
        i, t = self.info, self.lang
        now = self.config.clock() + self.clock_offset
        state = i.get("state")
        if state == "open":
            return tr(t, "tn_waits_for_start")
        if state == "finished":
            top = (i.get("standings") or [None])[0]
            return tr(t, "tn_over") + (" " + tr(t, "tn_winner", name=top["name"]) if top else "")
        if i.get("system") == "arena" and i.get("endsAt") is not None:
            left = float(i["endsAt"]) - now
            return tr(t, "tn_ends_in", time=clock_text(left)) if left > 0 else tr(t, "tn_ends_now")
        line = tr(t, "tn_round_of", n=i.get("round", 0), of=i.get("roundCount") or 0)
        if i.get("nextRoundAt") is not None:
            return f"{line} · {tr(t, 'tn_next_round_in', time=clock_text(float(i['nextRoundAt']) - now))}"
        return f"{line} · {tr(t, 'tn_round_playing')}"

    def next_words(self) -> str:
        t = self.lang
        if self.info.get("state") == "finished":
            return tr(t, "tn_over")
        if self.ready is not None and self.open_at is not None:
            return tr(t, "tn_next_in", s=max(0, math.ceil(self.open_at - self.config.clock())))
        state = (self.next or {}).get("state")
        if state == "bye":
            return tr(t, "tn_next_bye")
        if state == "withdrawn":
            return tr(t, "tn_left")
        if state == "seated" or self.ready is not None:
            return tr(t, "tn_next_seated")
        return tr(t, "tn_next_waiting")

    def standings(self) -> Table | Text:
        rows = self.info.get("standings") or []
        if not rows:
            return Text(tr(self.lang, "tn_no_entrants"))
        t = self.lang
        arena = self.info.get("system") == "arena"
        table = Table(title=tr(t, "tn_standings"), expand=True, title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(tr(t, "rt_player"))
        for key in ("tn_points", "st_games", "tn_wins", "tn_streak" if arena else "tn_tiebreak"):
            table.add_column(tr(t, key), justify="right")
        mine = self.tournament.entrant.get("id")
        for s in rows:
            name = str(s.get("name", ""))
            if mine is not None and s.get("entrant") == mine:
                name += f" ({tr(t, 'tn_you')})"
            if s.get("withdrawn"):
                name += f" · {tr(t, 'tn_withdrawn')}"
            last = s.get("streak", 0) if arena else s.get("tiebreak", "")
            table.add_row(str(s.get("rank", "")), name, number_text(s.get("points")), number_text(s.get("games")),
                          number_text(s.get("wins")), number_text(last),
                          style="bold" if s.get("entrant") == mine else None)
        return table

    def redraw(self) -> None:
        if not self.drawn:
            return
        i, t = self.info, self.lang
        game = i.get("game", "")
        game_word = tr(t, f"game.{game}") if has_text(f"game.{game}") else str(game)
        set_text(self.query_one("#tn-title", Static),
                 tr(t, "tn_title", game=game_word, preset=preset_name(t, str(i.get("preset", "")))))
        set_text(self.query_one("#tn-what", Static), self.what_words())
        set_text(self.query_one("#tn-clock", Static), self.clock_words())
        set_text(self.query_one("#tn-me", Static),
                 tr(t, "tn_joined", name=self.tournament.entrant.get("name", "")))
        set_text(self.query_one("#tn-next", Static), self.next_words())
        self.query_one("#tn-standings", Static).update(self.standings())
        set_text(self.query_one("#tn-error", Static), self.error)

    def screen_words(self) -> str:
        """The view's words as plain text (tests read them)."""
        parts = [str(w.render()) for w in self.query(Static)]
        return "\n".join(parts)

    # ------------------------------------------------------------------ the long polls
    async def _follow_info(self) -> None:
        """The tournament as it changes, until it is over."""
        while not self.stopped:
            try:
                info = await off_the_loop(ask_tournament, self.tournament.base, self.tournament.id,
                                               int(self.info.get("version", 0)))
            except RemoteError as exc:
                self.error = tr(self.lang, "tn_lost") + f" ({exc})"
                self.redraw()
                await asyncio.sleep(RETRY_S)
                continue
            self.error = ""
            self._take(info)
            self.redraw()
            if info.get("state") == "finished":
                return

    async def _follow_next(self) -> None:
        """This player's tables, each the moment the server makes it."""
        while not self.stopped:
            try:
                nxt = await off_the_loop(ask_next, self.tournament.base, self.tournament.id)
            except RemoteError as exc:
                self.error = tr(self.lang, "tn_lost") + f" ({exc})"
                self.redraw()
                await asyncio.sleep(RETRY_S)
                continue
            self.next = nxt
            state, table = nxt.get("state"), nxt.get("table")
            current = state == "seated" and table is not None and table == self.playing
            if self.playing is not None and not current and self.playing not in self.done:
                self._game_over(self.playing)
            if state == "seated" and table and table != self.playing and table not in self.done \
                    and (self.ready is None or self.ready.get("table") != table):
                self.ready = nxt
                self.open_at = self.config.clock() + (self.config.between_games if self.played else 0.0)
            self._step()
            self.redraw()
            if state in ("finished", "withdrawn") and self.playing is None:
                return
            if state != "waiting":  # the server answers at once while this stands (a table in play, a bye)
                await asyncio.sleep(SEATED_POLL_S)

    # ------------------------------------------------------------------ the tables
    def _game_over(self, table: str) -> None:
        """The server says the game at ``table`` is over: the view comes back after the pause."""
        self.done.add(table)
        self.back_at = self.config.clock() + self.config.between_games
        self.error = tr(self.lang, "tn_game_over", table=table)

    def _tick(self) -> None:
        self._step()
        if self.drawn:
            set_text(self.query_one("#tn-clock", Static), self.clock_words())
            set_text(self.query_one("#tn-next", Static), self.next_words())

    def _step(self) -> None:
        """Bring the view back, or open the next table, when its time has come."""
        now = self.config.clock()
        if self.playing is not None and self.back_at is not None and now >= self.back_at:
            self.take_table_back()
        if self.playing is None and self.ready is not None and not self.opening \
                and self.open_at is not None and now >= self.open_at:
            self.opening = True
            self.run_worker(self._open(self.ready), group="tournament-open", name="tournament-open")

    async def _open(self, seat: dict[str, Any]) -> None:
        """Take the seat the server made and open its table's screen over this one."""
        from spite.tui.config import build_screen

        try:
            remote = await asyncio.to_thread(connect_table, self.tournament.base, str(seat["table"]),
                                             token=str(seat["token"]))
        except RemoteError as exc:
            self.error = str(exc)
            self.opening = False
            self.open_at = self.config.clock() + RETRY_S
            self.redraw()
            return
        self.opening = False
        if self.stopped:
            remote.link.stop()
            return
        self.ready, self.open_at, self.back_at = None, None, None
        self.playing, self.remote = str(seat["table"]), remote
        self.played += 1
        self.error = ""
        self.config = replace(self.config, remote=remote)
        self.app.push_screen(build_screen(self.config))

    def take_table_back(self) -> None:
        """The table on show goes (its link stops) and this view comes back."""
        while len(self.app.screen_stack) > 1 and self.app.screen is not self:
            self.app.pop_screen()
        if self.remote is not None:
            self.remote.link.stop()
        if self.playing is not None:
            self.done.add(self.playing)
        self.playing, self.remote, self.back_at = None, None, None
        if self.ready is not None:
            self.open_at = max(self.open_at or 0.0, self.config.clock() + self.config.between_games)
        self.redraw()

    # ------------------------------------------------------------------ keys
    def action_open_table(self) -> None:
        """Enter: the next table now, without the pause."""
        if self.ready is not None and self.playing is None:
            self.open_at = self.config.clock()
            self._step()

    def action_leave_view(self) -> None:
        """Esc: leave the app (the entry stays: the same command comes back to it)."""
        self.stopped = True
        self.app.exit()
