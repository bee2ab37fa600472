"""The Spite and Malice table screen, the hot-seat hand-over screen and the end-of-game summary.

Keys (shown on the cards' borders and in the prompt line): ``S`` the own stock, ``1``–``9`` hand
cards (the hand is shown sorted by rank), ``D`` + digit (or ``F1``–``F9``) an own discard pile,
``B`` + digit a build pile; first the source, then the target. ``Esc`` cancels, ``?``/``H`` asks the
``hard`` bot for a hint, ``U`` takes back a build play of this turn, ``P`` passes when no card may
be discarded. German aliases: ``V`` (Vorrat), ``A`` + digit (Ablage), ``M`` + digit (Mitte).
The mouse works the same way: click a source, then a target.

The screen draws from :class:`~spite.malice.SeatView` objects only (what the seat at the keyboard
may know); the rules stay in the engine: a target is offered when the view's legal moves have it,
and a refused move shows the engine's reason.

:class:`RemoteMaliceScreen` is the same screen for a seat at a server table (``spite tui --connect``):
its table is a :class:`~spite.malice.tui.remote.RemoteMaliceTable` whose position comes from the server, and
it is its link's listener (:class:`~spite.tui.linked.LinkedScreen`). The person's intents go through
the link: moves, ``U`` (undo, while the server's ``canUndo`` allows), ``?`` (the server's hint), ``N``
(a match's next game; after the table's last game, another game there).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from spite.cards import JOKER, KING, RANKS
from spite.catalogue import phrase_of
from spite.errors import IllegalMoveError, Phrase
from spite.malice import PASS, Move, Options, SeatView
from spite.malice.moves import parse_move, rank_token, with_card
from spite.malice.tui.remote import RemoteMaliceTable
from spite.malice.tui.session import (
    MaliceTable,
    Place,
    move_places,
    parse_seats,
    sorted_hand,
    sources_of,
    targets_of,
)
from spite.malice.tui.words import malice_card, malice_words
from spite.tui.i18n import level_name, preset_name, say, say_all, tr
from spite.tui.link import FairNote, Pending, TableLink
from spite.tui.linked import LinkedScreen, fair_words, link_reason, with_fair
from spite.tui.render import card_label, card_text, on_screen
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

__all__ = ["TUI", "MaliceScreen", "MaliceTui", "PassScreen", "RemoteMaliceScreen", "SummaryScreen"]

_PREFIX_KEYS = {"d": "D", "a": "D", "b": "B", "m": "B"}
PASS_MOVE = "pass"
"""The text of a pass (the engine decides whether it may be made)."""
_DIGITS = {str(n): n for n in range(1, 10)} | {"0": 10}


def is_wild(card: int, opts: Options) -> bool:
    """True for a card that is wild in this game (jokers, Skip-Bo wilds, wild Kings)."""
    return card == JOKER or (opts.kings_wild and not opts.skipbo and RANKS[card] == KING and card < JOKER)


def _key_list(prefix: str, numbers: list[int]) -> str:
    """Keys as the prompt names them: runs joined (``B1-B3,B5``; ``1-3,5``; a tenth card is key 0).

    >>> _key_list("B", [1, 2, 3, 5]), _key_list("", [2]), _key_list("", [9, 10])
    ('B1-B3,B5', '2', '9-0')
    """
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])

    def name(n: int) -> str:
        return f"{prefix}{n % 10 if not prefix else n}"

    return ",".join(name(r[0]) if len(r) == 1 else f"{name(r[0])}-{name(r[-1])}" for r in runs)


class PassScreen(Screen[None]):
    """Hot-seat: covers the whole table until the next person presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "go", "Show my hand")]
    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    PassScreen > Static { width: 60; height: auto; border: double $accent; padding: 1 2; text-align: center; }
    """

    def __init__(self, lang: str, name: str) -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.lang = lang
        self.player = name

    def compose(self) -> ComposeResult:
        """A single notice."""
        yield Static(Text.assemble((tr(self.lang, "pass_title") + "\n\n", "bold"),
                                   tr(self.lang, "pass_body", name=self.player)), id="pass-notice")

    def action_go(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class SummaryScreen(ModalScreen[str]):
    """The end of a game: result, counts, the match score; N for the next game of a match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "Next game"),
        Binding("q", "leave", "Quit"),
        Binding("escape", "close", "Look at the table"),
    ]
    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > Static { width: 64; height: auto; border: double $accent; padding: 1 2; background: $panel; }
    """

    def __init__(self, text: Text, more: bool, lang: str = "en") -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.text = text
        self.more = more

    def compose(self) -> ComposeResult:
        """The summary text."""
        yield Static(self.text, id="summary")

    def action_next(self) -> None:
        """N: the next game of the match (only while it goes on)."""
        if self.more:
            self.dismiss("next")

    def action_leave(self) -> None:
        """Q: quit the app."""
        self.dismiss("quit")

    def action_close(self) -> None:
        """Esc: look at the final table."""
        self.dismiss("close")


class MaliceScreen(TableScreen):
    """The table of a Spite and Malice game played at this keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("p", "pass_turn", "Pass"),
        Binding("l", "notation", "Notation"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("q", "quit_game", "Quit"),
    ]
    DEFAULT_CSS = """
    MaliceScreen { layout: vertical; }
    MaliceScreen.-small > * { display: none; }
    MaliceScreen.-small > TooSmall { display: block; }
    #head { height: auto; min-height: 1; background: $panel; padding: 0 1; }
    #opponents { height: auto; padding: 0 1; }
    #main { height: auto; }
    #table { width: 1fr; height: auto; }
    .row { height: auto; padding: 0 1; }
    .label { width: 14; height: 3; content-align: left middle; color: $text-muted; }
    .label2 { width: 13; height: 3; content-align: right middle; color: $text-muted; }
    #prompt { height: auto; min-height: 1; padding: 0 1; text-style: bold; }
    #message { height: auto; min-height: 2; padding: 0 1; }
    #log { height: 1fr; min-height: 4; padding: 0 1; color: $text-muted; }
    #drawpile { width: 20; }
    #top { height: auto; }
    /* beside the table: the head line and the opponents keep the whole width above both */
    MaliceScreen.-wide #top { split: top; }
    MaliceScreen.-wide #log { split: right; height: 100%; border-left: solid $foreground 30%; }
    MaliceScreen.-large PileWidget { width: 11; height: 5; }
    MaliceScreen.-large .label, MaliceScreen.-large .label2 { height: 5; }
    MaliceScreen.-large PileWidget.discard { height: auto; min-height: 5; max-height: 12; content-align: center top; }
    """

    def __init__(self, table: MaliceTable, lang: str = "en", bot_delay: float = 0.5, preset: str = "") -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.composed = False
        self.table = table
        self.lang = lang
        self.bot_delay = bot_delay
        self.preset = preset
        self.source: Place | None = None
        self.prefix: str | None = None
        self.hinted: tuple[list[Place], Place | None] | None = None
        self.shown: int | None = None
        """The seat whose hand is on screen (None: no hand shown)."""
        self.bottom = table.humans[0] if table.humans else 0
        """The seat drawn at the bottom (its stock, discards and hand in big boxes)."""
        self.message = ""
        self.bots_running = False
        self.handing_over = False
        self.summary_open = False
        self.asking_quit = False
        """Q was pressed in a game in progress: the next key says yes (Y, J) or no."""
        self.notation = False
        """The log and the prompts name moves in the records' notation (``H7-B2``) rather than in words (``L``)."""
        self.slots: list[int | None] = []
        """The card under each hand key of the hand on show (``None``: an empty key); see :meth:`hand_slots`."""
        self._keys: dict[int, list[int | None]] = {}
        """Each seat's hand keys (hot-seat: every person keeps their own)."""
        self._keys_game = 0
        """The game the keys are for (a new game deals them out anew)."""
        self._vacated: dict[int, dict[int, int]] = {}
        """Seat → card → the key it left this turn, so that an undo puts it back under its old key."""
        self._vacated_turn: dict[int, int] = {}
        """The turn each seat's :attr:`_vacated` is for."""

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Head line, opponents, build piles, own stock and discards, hand, prompt, log, footer."""
        opts = self.table.opts
        t = self.lang
        yield TooSmall(t)
        with Vertical(id="top"):
            yield Static(id="head")
            yield Static(id="opponents")
        with Horizontal(id="main"), Vertical(id="table"):
            with Horizontal(classes="row", id="builds"):
                yield Static(tr(t, "build"), classes="label")
                for b in range(opts.build_piles):
                    yield PileWidget(("B", b), f"B{b + 1}", id=f"B{b}", classes="build")
                yield PileWidget(None, "", id="drawpile")
            with Horizontal(classes="row", id="own"):
                yield Static(tr(t, "stock"), classes="label", id="stock-label")
                yield PileWidget(("S",), "S", id="S", classes="stock")
                yield Static(tr(t, "discard"), classes="label2")
                for j in range(opts.discard_piles):
                    yield PileWidget(("D", j), f"D{j + 1}", id=f"D{j}", classes="discard")
            with Horizontal(classes="row", id="hand"):
                yield Static(tr(t, "hand"), classes="label", id="hand-label")
                for i in range(min(opts.hand_size, 10)):
                    yield PileWidget(("H", i), str((i + 1) % 10), id=f"H{i}", classes="handcard")
            yield Static(id="prompt")
            yield Static(id="message")
        yield LogPanel(id="log")
        yield Footer()

    def on_mount(self) -> None:
        """Size classes, then the first move, once the piles inside the rows are mounted too: a screen
        that replaces another (a seek's wait, once seated) is told it is mounted before its rows'
        own children are."""
        if not self.query("#B0"):
            self.call_after_refresh(self.on_mount)
            return
        self.composed = True
        self.query_one("#opponents", Static).styles.height = self.table.opts.players - 1
        self._size_classes()
        self.advance()

    def on_unmount(self) -> None:
        """The screen is going (the app quits, another screen replaces it): a message its link still
        delivers meanwhile draws nothing (its widgets are being removed)."""
        self.composed = False

    def on_resize(self, event: events.Resize) -> None:
        """Bigger terminals: bigger cards, fanned discard piles, a log panel."""
        self._size_classes()
        self.redraw()

    def _size_classes(self) -> None:
        width, height = self.app.size
        self.query_one(TooSmall).fit(self, (width, height))
        self.set_class(height >= 34 and width >= 90, "-large")
        wide = width >= WIDE
        self.set_class(wide, "-wide")
        # beside the table the log takes every column the table does not need: no gap between them
        self.query_one("#log").styles.width = max(LOG_MIN_WIDTH, width - self.table_width()) if wide else None

    def table_width(self) -> int:
        """The columns the table needs (its widest row: labels, piles and their gaps, the rows' padding)."""
        pile = 12 if self.has_class("-large") else 10  # a pile and the gap after it
        opts = self.table.opts
        rows = (14 + opts.build_piles * pile + 21, 14 + pile + 13 + opts.discard_piles * pile,
                14 + min(opts.hand_size, 10) * pile)
        return 2 + max(rows)

    # ------------------------------------------------------------------ turn flow
    @property
    def waiting_for_human(self) -> bool:
        """True when a person at this keyboard may act now (tests wait for this)."""
        return (self.table.human_to_move and not self.bots_running and not self.handing_over
                and self.shown == self.table.to_move)

    def advance(self) -> None:
        """After any change: the summary, the hand-over, or the bots' moves."""
        table = self.table
        if table.state.is_over:
            self.source = self.prefix = None
            self.redraw()
            if not self.summary_open:
                self.show_summary()
            return
        seat = table.to_move
        if table.seats[seat].human:
            if table.hot_seat and self.shown != seat:
                self.shown = None
                self.bottom = seat
                self.redraw()
                self.handing_over = True
                self.app.push_screen(PassScreen(self.lang, self.seat_name(seat)), self._handed_over)
                return
            self.shown = seat
            self.bottom = seat
            self.redraw()
            return
        if table.hot_seat:
            self.shown = None
        elif table.humans:
            self.shown = table.humans[0]
        self.redraw()
        if not self.bots_running:
            self.bots_running = True
            self.run_worker(self._bots(), group="bots")

    def _handed_over(self, _: None = None) -> None:
        self.handing_over = False
        self.shown = self.table.to_move
        self.message = ""
        self.redraw()

    async def _bots(self) -> None:
        """Let the non-human seats play until a person is to move or the game ends."""
        table = self.table
        try:
            while not table.state.is_over and not table.human_to_move:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                seat = table.to_move
                driver = table.seats[seat].driver
                assert driver is not None
                decision = await driver.choose(table.view(seat))
                table.play(decision.move)
                self.redraw()
        finally:
            self.bots_running = False
        self.advance()

    def show_summary(self) -> None:
        """The end-of-game screen."""
        self.summary_open = True
        more = not self.table.match_over
        self.app.push_screen(SummaryScreen(self.summary_text(), more, self.lang), self._summary_closed)

    def _summary_closed(self, choice: str | None) -> None:
        self.summary_open = choice == "close"
        if choice == "quit":
            self.leave()
        elif choice == "next":
            self.table.new_game()
            self.shown = None
            self.message = ""
            self.advance()

    # ------------------------------------------------------------------ names and texts
    def seat_name(self, seat: int) -> str:
        """``P1 (you)``, ``P2 medium``; with hot-seat every person is named by seat."""
        s = self.table.seats[seat]
        if s.human:
            who = tr(self.lang, "you") if not self.table.hot_seat else tr(self.lang, "human")
        else:
            who = level_name(self.lang, s.name)
        return f"P{seat + 1} ({who})"

    def summary_text(self) -> Text:
        """What the summary says: result, turns, stocks left, match score."""
        t = self.lang
        state = self.table.state
        result = state.result
        assert result is not None
        out = Text(tr(t, "game_over") + "\n\n", style="bold")
        if result.winner is not None:
            name = self.seat_name(result.winner)
            if result.team is not None:
                name = self.table.side_name(result.team)
            out.append(tr(t, "wins", name=name), style="bold")
            out.append(f" — {tr(t, 'reason_' + result.reason)}")
            if result.points is not None:
                out.append(" · " + tr(t, "points", points=result.points))
        else:
            out.append(tr(t, "draw_result", reason=tr(t, "reason_" + result.reason)), style="bold")
        out.append("\n" + tr(t, "turns_played", turns=state.turn + (0 if result.reason != "stock" else 1),
                                 moves=state.plies) + "\n")
        for i in range(state.opts.n_stocks):
            name = self.seat_name(i) if not state.opts.partnerships else tr(t, "team", n=i + 1)
            left = len(state.stocks[i])
            out.append(tr(t, "stock_left_one" if left == 1 else "stock_left", name=name, n=left) + "\n")
        match = self.table.match
        if match is not None:
            out.append("\n" + self.score_text() + "\n", style="bold")
            if match.is_over and match.winner is not None:
                out.append(tr(t, "match_over", name=self.side_label(match.winner)) + "\n", style="bold")
        out.append("\n" + tr(t, "end_keys" if not self.table.match_over else "end_keys_final"))
        return out

    def side_label(self, side: int) -> str:
        """A scoring side's name."""
        if self.table.opts.partnerships:
            return tr(self.lang, "team", n=side + 1)
        return self.seat_name(side)

    def score_text(self) -> str:
        """``Match 12:4 (to 50)``."""
        match = self.table.match
        assert match is not None
        self.table.finish()
        return tr(self.lang, "score", scores=":".join(str(s) for s in match.scores), target=match.target)

    # ------------------------------------------------------------------ drawing
    def redraw(self) -> None:
        """Draw everything from the views."""
        if not self.drawable:
            return
        table = self.table
        t = self.lang
        large = self.has_class("-large")
        view = table.view(self.shown)
        opts = table.opts
        skipbo = opts.skipbo
        # head
        head = Text(f"{tr(t, 'malice')} · {preset_name(t, self.preset)} · {tr(t, 'turn')} {view.turn + 1} · ",
                    style="bold")
        if view.result is None:
            mover = self.seat_name(view.to_move)
            head.append(tr(t, "thinking" if self.bots_running and not table.human_to_move else "to_move",
                           name=mover))
        else:
            head.append(tr(t, "game_over"))
        if table.match is not None:
            head.append(" · " + self.score_text())
        set_text(self.query_one("#head", Static), head, layout=False)
        # opponents
        lines = Text()
        for seat in range(opts.players):
            if seat == self.bottom:
                continue
            if lines:
                lines.append("\n")
            lines.append_text(self._seat_line(view, seat))
        set_text(self.query_one("#opponents", Static), lines, layout=False)
        # marks
        legal_targets: dict[Place, object] = {}
        human_view = self.shown is not None and self.shown == view.to_move and view.result is None
        if self.source is not None and human_view:
            legal_targets = self._targets(view, self.source)
        hint_places: set[Place] = set()
        if self.hinted is not None:
            hint_places = {*self.hinted[0], *([self.hinted[1]] if self.hinted[1] else [])}

        def marks(place: Place) -> frozenset[str]:
            out = set()
            if place == self.source:
                out.add("source")
            if place in legal_targets:
                out.add("target")
            if place in hint_places:
                out.add("hint")
            return frozenset(out)

        # build piles
        for b, pile in enumerate(view.builds):
            top = pile[-1] if pile else None
            wild = top is not None and is_wild(top, opts)
            content = card_text(top, wild=wild, empty=tr(t, "empty"))
            self.query_one(f"#B{b}", PileWidget).show(content, f"={len(pile)}" if pile else "", marks=marks(("B", b)))
        draw = Text("▒▒▒", style="dim")
        extra = f"+{view.set_aside_size}" if view.set_aside_size else ""
        self.query_one("#drawpile", PileWidget).show(draw, f"{view.draw_size}{extra}")
        self.query_one("#drawpile", PileWidget).border_title = tr(t, "draw")
        # own stock and discards (of the bottom seat)
        seat = self.bottom
        si = opts.stock_of(seat)
        tops = view.stock_tops[si]
        if large and len(tops) > 1:
            stock = Text("\n").join([card_text(c, wild=is_wild(c, opts)) for c in tops])
        else:
            stock = card_text(tops[-1] if tops else None, wild=bool(tops) and is_wild(tops[-1], opts),
                              empty=tr(t, "empty"))
        self.query_one("#S", PileWidget).show(stock, str(view.stock_sizes[si]), marks=marks(("S",)))
        set_text(self.query_one("#stock-label", Static),
                 Text.assemble((self.seat_name(seat) + "\n", "bold"), tr(t, "stock")), layout=False)
        for j, pile in enumerate(view.discards[seat]):
            if large and len(pile) > 1:
                shown = pile[-8:]
                content = Text("\n").join([card_text(c, wild=is_wild(c, opts)) for c in shown])
                if len(pile) > 8:
                    content = Text(f"+{len(pile) - 8}\n", style="dim") + content
            else:
                content = card_text(pile[-1] if pile else None, wild=bool(pile) and is_wild(pile[-1], opts))
            self.query_one(f"#D{j}", PileWidget).show(content, str(len(pile)) if pile else "", marks=marks(("D", j)),
                                                      layout=large)
        # hand
        hand = self.hand_slots(view)
        size = view.hand_sizes[seat]
        for i in range(min(opts.hand_size, 10)):
            widget = self.query_one(f"#H{i}", PileWidget)
            if view.hand is None:
                widget.show(Text("▒▒▒", style="dim"), "", marks=frozenset({"faded"} if i < size else {"hidden"}))
            elif i < len(hand) and (card := hand[i]) is not None:
                wild = is_wild(card, opts)
                widget.show(card_text(card, wild=wild), "", marks=marks(("H", i)))
            else:
                widget.show(Text(""), "", marks=frozenset({"hidden"}))
        set_text(self.query_one("#hand-label", Static),
                 tr(t, "hand") + (f" ({size})" if view.hand is None else ""), layout=False)
        # prompt, message, log
        set_text(self.query_one("#prompt", Static), self._prompt(view, skipbo), layout=False)
        set_text(self.query_one("#message", Static), Text(self.message, style="italic"), layout=False)
        self.query_one("#log", LogPanel).show(self.log_texts(), tr(t, "log") if self.has_class("-wide") else "")

    def move_words(self, move: Move | str, card: int | None = None) -> str:
        """A move as the log and the prompts name it: in words ("7♥ from the hand onto build pile 2"),
        or in the records' notation (``H7-B2``) after ``L``. Without ``card`` the log's card of the
        newest such move, if any, else the words name the rank."""
        text = move if isinstance(move, str) else move.text
        if self.notation:
            return text
        if card is None:
            card = next((e.card for e in reversed(self.table.game_log()) if e.move == text), None)
        return malice_words(self.lang, move, card, self.table.opts.skipbo)

    def log_texts(self) -> list[str]:
        """The log of the game in play, oldest first: a line a move in words ("P2 (hard): 9♥ from the
        hand onto discard pile 1"); with ``L`` a line a turn in notation (``12 P2: H7-B2 S-B1``)."""
        if self.notation:
            return self.table.turn_log()
        skipbo = self.table.opts.skipbo
        return [tr(self.lang, "log_line", name=self.seat_name(e.seat),
                   move=malice_words(self.lang, e.move, e.card, skipbo)) for e in self.table.game_log()]

    def _seat_line(self, view: SeatView, seat: int) -> Text:
        t = self.lang
        opts = view.opts
        si = opts.stock_of(seat)
        tops = view.stock_tops[si]
        line = Text()
        marker = "▶ " if seat == view.to_move and view.result is None else "  "
        line.append(f"{marker}{self.seat_name(seat)}", style="bold")
        if opts.partnerships:
            mate = seat % 2 == self.bottom % 2
            line.append(f" [{tr(t, 'team', n=seat % 2 + 1)}{' ★' if mate else ''}]")
        line.append(f"  {tr(t, 'stock_short')} {view.stock_sizes[si]}: ")
        line.append_text(card_text(tops[-1] if tops else None, wild=bool(tops) and is_wild(tops[-1], opts)))
        line.append(f"  {tr(t, 'hand')} {view.hand_sizes[seat]}  {tr(t, 'discard_short')}")
        for pile in view.discards[seat]:
            line.append(" ")
            line.append_text(card_text(pile[-1] if pile else None, wild=bool(pile) and is_wild(pile[-1], opts)))
            if len(pile) > 1:
                line.append(f"({len(pile)})", style="dim")
        return line

    def _prompt(self, view: SeatView, skipbo: bool) -> Text:
        t = self.lang
        if view.result is not None or self.shown is None or self.shown != view.to_move:
            return Text("")
        if self.prefix is not None:
            what = tr(t, "discard_short") if self.prefix == "D" else tr(t, "build_short")
            return Text(tr(t, "waiting_digit", what=what))
        if self.source is None:
            text = self._source_prompt(view)
            if any(m.kind == PASS for m in view.legal_moves):
                text += " · " + tr(t, "pass_hint")
            return Text(text)
        card = self._card_at(view, self.source)
        name = card_label(card) if card is not None else "?"
        targets = self._targets(view, self.source)
        if not targets:
            return Text(tr(t, "no_target", card=name))
        # only the targets the card may go to now (a build pile it does not fit is not offered)
        parts = [tr(t, key, keys=_key_list(prefix, [int(p[1]) + 1 for p in targets if p[0] == prefix]))
                 for key, prefix in (("to_build", "B"), ("to_discard", "D")) if any(p[0] == prefix for p in targets)]
        return Text(tr(t, "pick_target", card=name, targets=", ".join(parts)))

    def _source_prompt(self, view: SeatView) -> str:
        """``Pick a card: S stock, 1-3,5 hand, D2 discard``: only the places that have a move now."""
        t = self.lang
        legal = [self._engine_place(view, p) for p in self._sources(view)]
        slots = [i + 1 for i, c in enumerate(self.hand_slots(view)[:10]) if c is not None
                 and ("H", sorted_hand(view).index(c)) in legal]
        parts = [tr(t, "src_stock")] if ("S",) in legal else []
        if slots:
            parts.append(tr(t, "src_hand", keys=_key_list("", slots)))
        piles = [int(p[1]) + 1 for p in legal if p[0] == "D"]
        if piles:
            parts.append(tr(t, "src_discard", keys=_key_list("D", sorted(piles))))
        undo = tr(t, "undo_hint") if self.table.can_undo() else ""
        return tr(t, "pick_source", sources=", ".join(parts) or "—", undo=undo)

    def _sources(self, view: SeatView) -> list[Place]:
        """The screen's places that hold a card with a legal move now."""
        return self._screen_places(view, sources_of(view))

    def hand_slots(self, view: SeatView) -> list[int | None]:
        """The card under each hand key. A card keeps its key while it stays in the hand, from turn to
        turn: a played card leaves its key empty (so the keys of a plan typed ahead, ``1 b1 2 b1``,
        still mean the cards they meant, and two cards of one rank never swap keys), drawn cards take
        the empty keys, sorted by rank, and a card an undo brings back its old key. The keys are dealt
        out sorted by rank only to a new hand: a game's first, or one drawn into an emptied hand."""
        if view.hand is None:
            return []
        seat = view.seat if view.seat is not None else self.bottom
        game = int(getattr(self.table, "games", 0))
        if game != self._keys_game:
            self._keys, self._vacated, self._vacated_turn, self._keys_game = {}, {}, {}, game
        if self._vacated_turn.get(seat) != view.turn:
            self._vacated[seat], self._vacated_turn[seat] = {}, view.turn
        vacated = self._vacated[seat]
        before = self._keys.get(seat, [])
        hand = Counter(view.hand)
        slots: list[int | None] = []
        for i, card in enumerate(before):
            if card is not None and hand[card] > 0:
                hand[card] -= 1
                slots.append(card)
            else:
                if card is not None:
                    vacated[card] = i
                slots.append(None)
        new = sorted(hand.elements(), key=lambda c: (RANKS[c], c))
        if new and not any(c is not None for c in slots):
            slots = list(sorted_hand(view))  # a new hand: dealt out sorted
            vacated.clear()
        else:
            for card in new:
                back = vacated.pop(card, -1)  # an undo: the card goes back under its key
                if not 0 <= back < len(slots) or slots[back] is not None:
                    back = slots.index(None) if None in slots else len(slots)
                    if back == len(slots):
                        slots.append(None)
                slots[back] = card
        self._keys[seat] = slots
        self.slots = slots
        return slots

    def _engine_place(self, view: SeatView, place: Place) -> Place:
        """A hand place as the session counts it (the index in the sorted hand)."""
        if place[0] != "H":
            return place
        card = self._card_at(view, place)
        return ("H", sorted_hand(view).index(card)) if card is not None else ("H", -1)

    def _screen_places(self, view: SeatView, places: list[Place]) -> list[Place]:
        """Session hand places (sorted indices) as the keys on screen."""
        hand = sorted_hand(view)
        slots = self.hand_slots(view)
        out: list[Place] = []
        for place in places:
            if place[0] == "H":
                card = hand[int(place[1])]
                out += [("H", i) for i, c in enumerate(slots) if c == card]
            else:
                out.append(place)
        return out

    def _targets(self, view: SeatView, source: Place) -> dict[Place, Any]:
        """Where the card at the screen's ``source`` may go now."""
        return dict(targets_of(view, self._engine_place(view, source)))

    def _card_at(self, view: SeatView, place: Place) -> int | None:
        seat = self.bottom
        if place[0] == "S":
            tops = view.stock_tops[view.opts.stock_of(seat)]
            return tops[-1] if tops else None
        index = int(place[1])
        if place[0] == "H":
            slots = self.hand_slots(view)
            return slots[index] if index < len(slots) else None
        if place[0] == "D":
            pile = view.discards[seat][index]
            return pile[-1] if pile else None
        pile = view.builds[index]
        return pile[-1] if pile else None

    # ------------------------------------------------------------------ input
    def on_key(self, event: events.Key) -> None:
        """Places: S, digits, D/B + digit, F1–F9 (bindings handle the rest)."""
        key = event.key.lower()
        if self.asking_quit:  # the answer to "Quit this game?": any key but yes plays on
            event.stop()
            self.asking_quit = False
            if key in ("y", "j"):
                self.leave()
                return
            self.message = ""
            self.redraw()
            return
        if self.prefix is not None:
            if key in _DIGITS:
                event.stop()
                prefix, self.prefix = self.prefix, None
                self.pick((prefix, _DIGITS[key] - 1))
                return
            if key != "escape":
                self.prefix = None
        if key in ("s", "v"):
            event.stop()
            self.pick(("S",))
        elif key in _DIGITS:
            event.stop()
            self.pick(("H", _DIGITS[key] - 1))
        elif key in _PREFIX_KEYS:
            event.stop()
            if self._may_act():
                self.prefix = _PREFIX_KEYS[key]
                self.redraw()
        elif key.startswith("f") and key[1:].isdigit():
            event.stop()
            self.pick(("D", int(key[1:]) - 1))
        elif key == "h":
            event.stop()
            self.action_hint()
        elif key == "n" and self.table.state.is_over and not self.summary_open:
            event.stop()
            self.show_summary()

    @on(PileWidget.Clicked)
    def _clicked(self, message: PileWidget.Clicked) -> None:
        if message.pile.place is not None:
            self.pick(message.pile.place)

    def _may_act(self) -> bool:
        if self.waiting_for_human:
            return True
        if not self.table.state.is_over:
            self.message = tr(self.lang, "not_your_turn")
            self.redraw()
        return False

    def pick(self, place: Place) -> None:
        """A place was named (by key or click): pick it as the source, or play to it as the target."""
        if not self._may_act():
            return
        view = self.table.view(self.shown)
        self.message = ""
        if self.source is not None and place == self.source:
            self.source = None
        elif self.source is not None and (place[0] == "B" or (place[0] == "D" and (
                self.source[0] == "H" or self._card_at(view, place) is None))):
            self._play_to(view, self.source, place)
        elif place[0] == "B":
            self.message = self._source_prompt(view)
        elif (card := self._card_at(view, place)) is None:
            self.source = None
        elif not self._targets(view, place):
            # not picked: else the next key (meant as a new source) would act on this card
            self.source = None
            self.message = tr(self.lang, "no_target", card=card_label(card))
        else:
            self.source = place
        self.hinted = None
        self.redraw()

    def _play_to(self, view: SeatView, source: Place, target: Place) -> None:
        card = self._card_at(view, source)
        if card is None:
            self.source = None
            return
        skipbo = view.opts.skipbo
        src = "S" if source[0] == "S" else (f"D{int(source[1]) + 1}" if source[0] == "D" else
                                             "H" + rank_token(RANKS[card], skipbo))
        try:
            move = parse_move(f"{src}-{target[0]}{int(target[1]) + 1}", skipbo)
            if source[0] == "H":  # the very card under the key leaves the hand, not the first of its rank
                move = with_card(move, card)
            self.table.play(move)
        except IllegalMoveError as exc:
            self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
            return
        self.source = None
        self.hinted = None
        self.advance()

    # ------------------------------------------------------------------ actions
    def action_quit_game(self) -> None:
        """Q: quit at once when the game is over, else ask first (one key too many ends a game)."""
        if self.table.state.is_over:
            self.leave()
            return
        self.asking_quit = True
        self.message = tr(self.lang, "confirm_quit")
        self.redraw()

    def words(self, text: str) -> str:
        """An engine's or bot's line with the screen's seat names and suit symbols."""
        return on_screen(text, self.seat_name)

    def refusal(self, exc: IllegalMoveError) -> str:
        """Why a move was refused, in the screen's language (the shared catalogue's words)."""
        return say(self.lang, exc.phrase, str(exc), self.seat_name)

    def action_notation(self) -> None:
        """L: the log and the prompts name moves in notation (``H7-B2``), or in words again."""
        self.notation = not self.notation
        self.redraw()

    def action_cancel(self) -> None:
        """Esc: drop the picked source (and a pending D/B)."""
        self.source = self.prefix = None
        self.message = ""
        self.redraw()

    def action_hint(self) -> None:
        """What the ``hard`` bot would play here, and why."""
        if not self._may_act():
            return
        decision = self.table.hint()
        view = self.table.view(self.shown)
        sources, target = move_places(view, decision.move)
        self.hinted = (self._screen_places(view, sources), target)
        why = say_all(self.lang, decision.why_phrases, decision.why or "—", self.seat_name)
        self.message = tr(self.lang, "hint", move=self.move_words(decision.move, malice_card(view, decision.move)),
                          why=why)
        self.redraw()

    def action_undo(self) -> None:
        """Take back the last build play of this turn, if no hidden card has shown since."""
        if not self._may_act():
            return
        if not self.table.can_undo():
            self.message = tr(self.lang, "no_undo")
        else:
            card = self.table.log[-1].card if self.table.log else None
            move = self.table.undo()
            self.message = tr(self.lang, "undone", move=self.move_words(move, card))
        self.source = None
        self.hinted = None
        self.redraw()

    def action_pass_turn(self) -> None:
        """P: end the turn without a discard (only when that is legal)."""
        if not self._may_act():
            return
        try:
            self.table.play(PASS_MOVE)
        except IllegalMoveError as exc:  # the engine's reason (at a server's table, the server's answer)
            self.message = tr(self.lang, "illegal", reason=self.refusal(exc))
            self.redraw()
            return
        self.source = None
        self.advance()


class MaliceTui:
    """Spite and Malice in the terminal app: the ``tui`` hook of its registry entry (:mod:`spite.games`),
    so that the app opens any game's table without asking which game it is."""

    label = "malice"
    """The message catalogue's name of the game (:mod:`spite.tui.i18n`)."""
    default_preset = "classic"

    def check(self, config: TuiConfig) -> None:
        """Raise :class:`OptionsError` with one line when a local table cannot be set up."""
        opts = Options.from_preset(config.preset or self.default_preset, config.options)
        parse_seats(config.seats, opts.players, config.seed)

    def screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a local table for a checked configuration."""
        preset = config.preset or self.default_preset
        opts = Options.from_preset(preset, config.options)
        malice = MaliceTable(opts, parse_seats(config.seats, opts.players, config.seed), seed=config.seed,
                             first=config.first)
        return MaliceScreen(malice, config.lang, config.bot_delay, preset)

    def remote_table(self, link: TableLink, welcome: dict[str, Any]) -> Any:
        """The client side of a server's table of this game (``spite tui --connect``)."""
        from spite.malice.tui.remote import RemoteMaliceTable

        return RemoteMaliceTable.from_welcome(link, welcome)

    def remote_screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a server's table (``config.remote``)."""
        return RemoteMaliceScreen(config.remote, config.lang)


TUI = MaliceTui()
"""The registered ``tui`` hook of ``spite-malice``."""


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
        if not self.drawable:
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
        with_fair(self.query_one("#head", Static), fair_words(self.lang, self.link.fair))

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
            out.append(f" — {link_reason(t, result.reason)}")
            if result.points is not None:
                out.append(" · " + tr(t, "points", points=result.points))
        else:
            out.append(tr(t, "draw_result", reason=link_reason(t, result.reason)), style="bold")
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
