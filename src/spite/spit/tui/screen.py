"""Spit against a bot in real time, with the keys of the web page.

``1``–``5`` pick an own tableau pile, then ``Q``/``W`` (``E`` with three centers) put its top card
on that center pile, or another digit moves it into that empty slot. ``Space`` calls spit, ``S``
slaps the smaller center pile once you have won a round (``Q``/``W`` slap that pile instead).
``Esc`` cancels. Clicking works the same way (a pile, then a center).

A Textual interval timer reads the clock (``time.monotonic`` unless the app was given another) and
feeds the engine's ``advance(t)`` through :meth:`~spite.spit.tui.session.SpitTable.tick`. A game
begins with the server's countdown ("one, two, three — spit!"): the prompt line counts down, the
center cards lie face down, every key is refused with the time left, and "Spit!" starts play.

:class:`RemoteSpitScreen` is the same screen at a server table (``spite tui --connect``): moves go out
at once, the server's clock and reflex bots run the game, and a move that lost a race (``too-late``)
shows the engine's reason for a moment (its link's listener: :class:`~spite.tui.linked.LinkedScreen`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from spite.cards import RANKS
from spite.errors import IllegalMoveError, OptionsError, Phrase
from spite.spit import OVER, SLAPPING, SPIT_MOVE, SpitView
from spite.spit.rules import HAND, PLAY, SLOT
from spite.spit.rules import parse_move as parse_spit_move
from spite.spit.tui.remote import RemoteSpitTable
from spite.spit.tui.session import REACTION_MS, START_COUNTDOWN_S, SpitTable, starts_in_refusal
from spite.spit.tui.words import spit_event_words, spit_move_words
from spite.spit.views import SpeedPlayerView, SpitPlayerView
from spite.tui.i18n import has_text, level_name, say, seat_word, tr
from spite.tui.link import FairNote, TableLink
from spite.tui.linked import LinkedScreen, fair_words, with_fair
from spite.tui.render import card_text, on_screen
from spite.tui.report import report_from
from spite.tui.widgets import (
    LOG_MIN_WIDTH,
    WIDE,
    LogPanel,
    PileWidget,
    TableScreen,
    TooSmall,
    set_text,
    translate_bindings,
)

if TYPE_CHECKING:
    from spite.tui.config import TuiConfig
    from spite.tui.link import TableLink

__all__ = ["FACE_DOWN", "TUI", "RemoteSpitScreen", "SpitScreen", "SpitTui", "center_text", "spit_level"]

CENTER_KEYS = "qwe"

FACE_DOWN = "▒▒▒"
"""How a card nobody may see is drawn."""


class SpitScreen(TableScreen):
    """The Spit table: the bot's tableau at the top, the centers, yours at the bottom."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "spit", "Spit"),
        Binding("s", "slap", "Slap"),
        Binding("l", "notation", "Notation"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    SpitScreen { layout: vertical; }
    SpitScreen.-small > * { display: none; }
    SpitScreen.-small > TooSmall { display: block; }
    #spit-head { height: auto; min-height: 1; background: $panel; padding: 0 1; }
    .row { height: auto; padding: 0 1; }
    .label { width: 14; height: 3; content-align: left middle; color: $text-muted; }
    #spit-prompt { height: 2; padding: 0 1; text-style: bold; }
    #spit-message { height: auto; min-height: 2; padding: 0 1; }
    #spit-log { height: 1fr; min-height: 3; padding: 0 1; color: $text-muted; }
    /* beside the table: the head line keeps the whole width above both */
    SpitScreen.-wide #spit-head { split: top; }
    SpitScreen.-wide #spit-log { split: right; height: 100%; border-left: solid $foreground 30%; }
    #bot-spit, #my-spit { width: 12; }
    """

    def __init__(self, table: SpitTable, clock: Callable[[], float], lang: str = "en",
                 tick_seconds: float = 0.05) -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.composed = False
        self.table = table
        self.clock = clock
        self.lang = lang
        self.tick_seconds = tick_seconds
        self.start = clock()
        self.source: int | None = None
        self.message = ""
        self.message_until: float | None = None
        """When the message line's words run out (``None``: at the next key)."""
        self.counting = False
        """The start countdown is on (its end says "Spit!")."""
        self.notation = False
        """The log names moves in the records' notation (``T3-C1``) rather than in words (``L``)."""

    def compose(self) -> ComposeResult:
        """Head, bot row, centers, own row, prompt, message, log, footer."""
        t = self.lang
        n_centers = len(self.table.state.centers)
        yield TooSmall(t)
        yield Static(id="spit-head")
        with Horizontal(classes="row"):
            yield Static(f"P2 ({level_name(self.lang, self.table.level)})", classes="label", id="bot-label")
            for i in range(5):
                yield PileWidget(None, f"T{i + 1}", id=f"bot-T{i}")
            yield PileWidget(None, tr(t, "spit"), id="bot-spit")
        with Horizontal(classes="row"):
            yield Static(tr(t, "centers"), classes="label")
            for j in range(n_centers):
                yield PileWidget(("C", j), f"{CENTER_KEYS[j].upper()}", id=f"C{j}")
        with Horizontal(classes="row"):
            yield Static(f"P1 ({tr(t, 'you')})", classes="label", id="me-label")
            for i in range(5):
                yield PileWidget(("T", i), str(i + 1), id=f"T{i}")
            yield PileWidget(None, tr(t, "spit"), id="my-spit")
        yield Static(id="spit-prompt")
        yield Static(id="spit-message")
        yield LogPanel(id="spit-log")
        yield Footer()

    def on_mount(self) -> None:
        """Start the clock."""
        self.composed = True
        self.start = self.clock()
        self.fit_size()
        self.redraw()
        self.set_interval(self.tick_seconds, self.tick)

    def on_resize(self, event: events.Resize) -> None:
        """Below 80×24 a notice instead of a cut-off table; from 112 columns the log beside the table."""
        self.fit_size()
        self.redraw()

    def fit_size(self) -> None:
        """The size classes: too small for a table, or wide enough for the log beside it (taking every
        column the table does not need: no gap between them)."""
        width, _ = self.app.size
        self.query_one(TooSmall).fit(self, self.app.size)
        wide = width >= WIDE
        self.set_class(wide, "-wide")
        self.query_one("#spit-log").styles.width = max(LOG_MIN_WIDTH, width - self.table_width()) if wide else None

    def table_width(self) -> int:
        """The columns the table needs: its widest row (a label, five piles, the spit pile; the padding)."""
        return 2 + 14 + 5 * 10 + 13

    def now_ms(self) -> int:
        """Ms since play began, by the clock (negative during the start countdown)."""
        return int((self.clock() - self.start) * 1000) - self.table.countdown_ms

    def starts_in_ms(self) -> int:
        """Ms of the start countdown left (0 once play has begun)."""
        return self.table.starts_in_ms()

    GO_SECONDS = 1.0
    """How long "Spit!" stays on the message line when the countdown ends."""

    def count_down(self) -> None:
        """The start countdown: once it ends, "Spit!" on the message line (for a moment); a message
        with its time up goes."""
        if self.starts_in_ms() > 0:
            self.counting = True
        elif self.counting:
            self.counting = False
            self.message = tr(self.lang, "sp_go_banner")
            self.message_until = self.clock() + self.GO_SECONDS
        elif self.message_until is not None and self.clock() >= self.message_until:
            self.message, self.message_until = "", None

    def tick(self) -> None:
        """Let the time pass: automatic events, the bot's moves; then draw."""
        if self.table.over:
            return
        events = self.table.tick(self.now_ms())
        self.count_down()
        for ev in events:
            if ev.kind == "game-over":
                self.message = ""  # the prompt line says who won; once is enough
        self.redraw()

    def refused_early(self) -> bool:
        """During the start countdown a key is refused with the time left (the server's words)."""
        wait = self.starts_in_ms()
        if wait <= 0:
            return False
        self.source = None
        self.message, self.message_until = tr(self.lang, "illegal", reason=self.refusal(starts_in_refusal(wait))), None
        self.redraw()
        return True

    # ------------------------------------------------------------------ drawing
    def spit_view(self) -> SpitView:
        """The person's view of the Spit table."""
        # for mypy only: this screen is only ever given a Spit table (its game's ``tui`` hook makes it)
        return cast(SpitView, self.table.view())

    def seat_name(self, seat: int) -> str:
        """``P1 (you)``, ``P2 (medium)``: the names the screen uses."""
        return f"P1 ({tr(self.lang, 'you')})" if seat == 0 else f"P2 ({level_name(self.lang, self.table.level)})"

    def words(self, text: str) -> str:
        """An engine's line with the screen's seat names and suit symbols."""
        return on_screen(text, self.seat_name)

    def refusal(self, exc: IllegalMoveError) -> str:
        """Why a move was refused, in the screen's language (the shared catalogue's words)."""
        return say(self.lang, exc.phrase, str(exc), self.seat_name)

    def _result_text(self) -> str:
        result = self.table.state.result or {}
        winner = result.get("winner")
        reason = str(result.get("reason"))
        worded = tr(self.lang, "reason_" + reason) if has_text("reason_" + reason) else reason
        return (tr(self.lang, "wins", name=self.seat_name(winner)) if winner is not None else "—") + f" ({worded})"

    def redraw(self) -> None:
        """Draw the table from the person's view."""
        if not self.drawable:
            return
        t = self.lang
        view = self.spit_view()
        me, bot = view.players[0], view.players[1]
        head = Text(f"{tr(t, 'spit')} · {tr(t, 'round', n=view.round)} · {view.t / 1000:.1f} s · "
                    f"P1 {tr(t, 'rounds_won', n=me.rounds_won)} · P2 {tr(t, 'rounds_won', n=bot.rounds_won)}",
                    style="bold")
        set_text(self.query_one("#spit-head", Static), head)
        targets = self._targets(view)
        for i, pile in enumerate(bot.tableau):
            self.query_one(f"#bot-T{i}", PileWidget).show(card_text(pile.top), str(pile.cards or ""))
        self.query_one("#bot-spit", PileWidget).show(Text(FACE_DOWN if bot.spit else "", style="dim"), str(bot.spit),
                                                     marks=frozenset({"source"} if bot.called_spit else set()))
        for j, center in enumerate(view.centers):
            marks = {"target"} if ("C", j) in targets else set()
            self.query_one(f"#C{j}", PileWidget).show(center_text(center.top, center.cards), str(center.cards),
                                                      marks=frozenset(marks))
        for i, pile in enumerate(me.tableau):
            marks = set()
            if self.source == i:
                marks.add("source")
            if ("T", i) in targets:
                marks.add("target")
            self.query_one(f"#T{i}", PileWidget).show(card_text(pile.top), str(pile.cards or ""),
                                                      marks=frozenset(marks))
        self.query_one("#my-spit", PileWidget).show(Text(FACE_DOWN if me.spit else "", style="dim"), str(me.spit),
                                                    marks=frozenset({"source"} if me.called_spit else set()))
        set_text(self.query_one("#spit-prompt", Static), self._prompt(view))
        set_text(self.query_one("#spit-message", Static), Text(self.message, style="italic"))
        self.draw_log()

    LOG_KINDS: tuple[str, ...] = ("move", "flip", "round-won", "deal")
    """The events the log shows (who played what, the flips, the rounds)."""

    def log_texts(self) -> list[str]:
        """The log, oldest first: a line an event in words ("P2 (medium): K♦ from tableau pile 3 onto
        center pile 1"), or with ``L`` in notation (``P2 T3-C1``)."""
        cards = self.table.cards
        out: list[str] = []
        for i, e in enumerate(self.table.events):
            if e.kind not in self.LOG_KINDS:
                continue
            if self.notation:
                out.append(f"{'P1' if e.seat == 0 else 'P2' if e.seat == 1 else '--'} {self.words(e.text)}")
            elif (line := spit_event_words(self.lang, e, cards.get(i), self.seat_name)) is not None:
                out.append(line)
        return out

    def draw_log(self) -> None:
        """The newest lines of the log that fit: under the table, or beside it with a title."""
        title = tr(self.lang, "log") if self.has_class("-wide") else ""
        self.query_one("#spit-log", LogPanel).show(self.log_texts(), title)

    def action_notation(self) -> None:
        """L: the log in notation (``T3-C1``), or in words again."""
        self.notation = not self.notation
        self.redraw()

    def _prompt(self, view: SpitView) -> Text:
        t = self.lang
        if view.phase == OVER:
            return Text(tr(t, "spit_over", text=self._result_text()))
        if self.starts_in_ms() > 0:
            return Text(tr(t, "sp_ready", s=math.ceil(self.starts_in_ms() / 1000)))
        if view.phase == SLAPPING:
            if view.round_winner == 0:
                return Text(tr(t, "slap_now"))
            return Text(tr(t, "slap_wait", name=self.seat_name(1)))
        if view.t < view.play_from:
            return Text(tr(t, "wait"))
        if SPIT_MOVE in view.legal:
            return Text(tr(t, "stuck"))
        if self.source is not None:
            return Text(tr(t, "selected", n=self.source + 1) + " · " + tr(t, "spit_keys", e=self._e(view)))
        return Text(tr(t, "spit_keys", e=self._e(view)))

    @staticmethod
    def _e(view: SpitView) -> str:
        return "/E" if len(view.centers) == 3 else ""

    def _targets(self, view: SpitView) -> set[tuple[str, int]]:
        out: set[tuple[str, int]] = set()
        if self.source is None:
            return out
        prefix = f"T{self.source + 1}-"
        for move in view.legal:
            if move.startswith(prefix):
                kind, number = move[len(prefix)], int(move[len(prefix) + 1:]) - 1
                out.add(("C" if kind == "C" else "T", number))
        return out

    # ------------------------------------------------------------------ input
    def try_move(self, move: str) -> bool:
        """Play the person's move now; a refusal (a lost race too) shows the engine's reason."""
        self.message_until = None
        try:
            self.table.play(move, self.now_ms())
        except IllegalMoveError as exc:
            self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
            self.redraw()
            return False
        self.message = ""
        self.redraw()
        return True

    def on_key(self, event: events.Key) -> None:
        """Digits, Q/W/E and S."""
        key = event.key.lower()
        if key in "12345" and len(key) == 1:
            event.stop()
            self.pick(("T", int(key) - 1))
        elif len(key) == 1 and key in CENTER_KEYS[: len(self.table.state.centers)]:
            event.stop()
            self.pick(("C", CENTER_KEYS.index(key)))
        elif key == "q" and self.table.over:
            event.stop()
            self.leave()

    @on(PileWidget.Clicked)
    def _clicked(self, message: PileWidget.Clicked) -> None:
        place = message.pile.place
        if place is not None:
            self.pick((str(place[0]), int(place[1])))

    def pick(self, place: tuple[str, int]) -> None:
        """A pile or center was named."""
        kind, number = place
        view = self.spit_view()
        if self.table.over or self.refused_early():
            return
        if kind == "C":
            if view.phase == SLAPPING:
                self.try_move(f"slap C{number + 1}")
            elif self.source is not None:
                source, self.source = self.source, None
                self.try_move(f"T{source + 1}-C{number + 1}")
            return
        if self.source is None or self.source == number:
            self.source = None if self.source == number else number
        elif view.players[0].tableau[number].cards == 0:
            source, self.source = self.source, None
            self.try_move(f"T{source + 1}-T{number + 1}")
            return
        else:
            self.source = number
        self.redraw()

    def action_spit(self) -> None:
        """Space: call spit."""
        self.source = None
        if not self.refused_early():
            self.try_move(SPIT_MOVE)

    def action_slap(self) -> None:
        """S: slap the smaller center pile (after winning a round)."""
        if self.refused_early():
            return
        view = self.table.view()
        sizes = [c.cards for c in view.centers]
        self.try_move(f"slap C{sizes.index(min(sizes)) + 1}")

    def action_cancel(self) -> None:
        """Esc: drop the picked pile."""
        self.source = None
        self.message = ""
        self.redraw()


def center_text(top: int | None, cards: int) -> Text:
    """A center pile's top, or its back while its cards lie face down (the start countdown)."""
    return Text(FACE_DOWN, style="dim") if top is None and cards else card_text(top)


def spit_level(config: TuiConfig) -> str:
    """The bot level of a local Spit or Speed table (``--seats human,LEVEL``, the page's words too:
    ``Mensch,leicht``); :class:`OptionsError` otherwise."""
    names = [s.strip().lower() for s in (config.seats or "human,medium").split(",")]
    words = [seat_word(name) for name in names]
    if len(names) != 2 or words[0] != "human" or words[1] not in REACTION_MS:
        game = "Speed" if config.game == "speed" else "Spit"
        raise OptionsError(
            f"{game} is played by you against a bot: --seats human,LEVEL with LEVEL one of {', '.join(REACTION_MS)}"
            f" (not {config.seats!r})", phrase=Phrase("tui.err_vs_computer", {"game": game}))
    return str(words[1])


class SpitTui:
    """Spit in the terminal app: the ``tui`` hook of its registry entry (:mod:`spite.games`)."""

    label = "spit"
    """The message catalogue's name of the game (:mod:`spite.tui.i18n`)."""
    default_preset = "spit"
    game = "spit"
    """The registered game a local table plays."""

    def check(self, config: TuiConfig) -> None:
        """Raise :class:`OptionsError` with one line when a local table cannot be set up."""
        spit_level(config)
        SpitTable(config.preset or self.default_preset, config.options, config.seed, level="easy", game=self.game)

    def table(self, config: TuiConfig) -> SpitTable:
        """The local table of a checked configuration."""
        countdown = START_COUNTDOWN_S if config.countdown is None else config.countdown
        return SpitTable(config.preset or self.default_preset, config.options, config.seed,
                         level=spit_level(config), game=self.game, countdown_ms=round(countdown * 1000))

    def screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a local table for a checked configuration."""
        return SpitScreen(self.table(config), config.clock, config.lang, config.tick_seconds)

    def remote_table(self, link: TableLink, welcome: dict[str, Any]) -> Any:
        """The client side of a server's Spit table (``spite tui --connect``)."""
        from spite.spit.tui.remote import RemoteSpitTable

        return RemoteSpitTable.from_welcome(link, welcome)

    def remote_screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a server's Spit table (``config.remote``)."""
        return RemoteSpitScreen(config.remote, config.lang, config.clock)


TUI = SpitTui()
"""The registered ``tui`` hook of ``spit``."""


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
        if not self.drawable:
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
        with_fair(self.query_one("#spit-head", Static), fair_words(self.lang, self.link.fair))


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
