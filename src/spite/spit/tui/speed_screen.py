"""Speed against a bot in real time: the Spit screen with a hand instead of a tableau.

``1``–``5`` pick a card of your hand, then ``Q``/``W`` put it on that center pile. ``Space`` calls
spit when nobody can play (both players turn a card of their side pile onto the centers). ``Esc``
cancels. Clicking works the same way (a card, then a center). A card keeps its key while it is in
your hand: the card drawn after a play takes the freed key, so keys typed ahead stay right. A move
names a rank (``H7-C1``): with two 7s in the hand the engine plays the first one it holds, whose key
is then the one freed; the other 7 keeps its key (keys never swap).

The clock, the bot and the remote side are the Spit screen's (:mod:`spite.spit.tui.screen`,
:class:`~spite.spit.tui.session.SpitTable` with ``game="speed"``); this module draws the table and
turns keys into Speed's moves (``H7-C1``: a 7 from the hand onto center 1).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from spite.cards import RANK_TOKENS, RANKS
from spite.spit import OVER, SPIT_MOVE, SpeedView
from spite.spit.tui.remote import RemoteSpeedTable
from spite.spit.tui.screen import CENTER_KEYS, FACE_DOWN, RemoteSpitScreen, SpitScreen, SpitTui, center_text
from spite.spit.tui.session import SpitTable
from spite.tui.i18n import level_name, tr
from spite.tui.link import TableLink
from spite.tui.render import card_text
from spite.tui.widgets import LogPanel, PileWidget, TooSmall, set_text

if TYPE_CHECKING:
    from spite.tui.config import TuiConfig
    from spite.tui.link import TableLink

__all__ = ["TUI", "RemoteSpeedScreen", "SpeedScreen", "SpeedTui", "hand_move", "keep_slots"]

HAND_SLOTS = 5
"""A Speed hand holds five cards: one key each."""


def keep_slots(slots: list[int | None], hand: tuple[int, ...]) -> list[int | None]:
    """The cards under the five keys after the hand became ``hand``: a card still held keeps its
    key, a new card takes the first free key.

    >>> keep_slots([10, 20, 30, 40, 50], (10, 30, 40, 50, 60))
    [10, 60, 30, 40, 50]
    >>> keep_slots([None] * 5, (3, 1))
    [3, 1, None, None, None]
    """
    left = Counter(hand)
    kept: list[int | None] = []
    for card in slots[:HAND_SLOTS]:
        if card is not None and left[card] > 0:
            left[card] -= 1
            kept.append(card)
        else:
            kept.append(None)
    kept += [None] * (HAND_SLOTS - len(kept))
    new = list(left.elements())
    ordered = [c for c in hand if c in new]
    for i, card in enumerate(kept):
        if card is None and ordered:
            kept[i] = ordered.pop(0)
    return kept


def hand_move(card: int, center: int) -> str:
    """The move that plays ``card`` from the hand onto center ``center`` (0-based): ``H7-C1``."""
    return f"H{RANK_TOKENS[RANKS[card]]}-C{center + 1}"


class SpeedScreen(SpitScreen):
    """The Speed table: the bot's hand (face down) at the top, the centers, your hand at the bottom."""

    LOG_KINDS = ("move", "flip", "shuffle")
    """The events the log shows (who played what, the flips, the side piles made anew)."""
    LABEL_WIDTH = 9
    """The row labels are narrower than Spit's: a hand of five and a draw pile fill the row."""
    COUNT_WIDTH = 12
    """A draw or side pile: wide enough for its title (``Nachz.``)."""

    def __init__(self, table: SpitTable, clock: Callable[[], float], lang: str = "en",
                 tick_seconds: float = 0.05) -> None:
        super().__init__(table, clock, lang, tick_seconds)
        self.slots: list[int | None] = [None] * HAND_SLOTS
        """The card under each key ``1``–``5`` (:func:`keep_slots`): a card keeps its key while it is in the hand."""

    def compose(self) -> ComposeResult:
        """Head, bot row, centers, own row, prompt, message, log, footer."""
        t = self.lang
        yield TooSmall(t)
        yield Static(id="spit-head")
        with Horizontal(classes="row"):
            bot = level_name(t, self.table.level)
            yield self._sized(Static(f"P2\n({bot})", classes="label", id="bot-label"))
            for i in range(HAND_SLOTS):
                yield PileWidget(None, "", id=f"bot-H{i}")
            yield self._sized(PileWidget(None, tr(t, "draw_short"), id="bot-draw", classes="pile-count"))
        with Horizontal(classes="row"):  # each side pile lies beside the center it turns a card onto
            yield self._sized(Static(tr(t, "centers"), classes="label"))
            yield self._sized(PileWidget(None, tr(t, "side_short"), id="my-side", classes="pile-count"))
            for j in range(len(self.table.state.centers)):
                yield PileWidget(("C", j), CENTER_KEYS[j].upper(), id=f"C{j}")
            yield self._sized(PileWidget(None, tr(t, "side_short"), id="bot-side", classes="pile-count"))
        with Horizontal(classes="row"):
            yield self._sized(Static(f"P1\n({tr(t, 'you')})", classes="label", id="me-label"))
            for i in range(HAND_SLOTS):
                yield PileWidget(("H", i), str(i + 1), id=f"H{i}")
            yield self._sized(PileWidget(None, tr(t, "draw_short"), id="my-draw", classes="pile-count"))
        yield Static(id="spit-prompt")
        yield Static(id="spit-message")
        yield LogPanel(id="spit-log")
        yield Footer()

    def _sized(self, widget: Static) -> Static:
        """Set a label's or a pile count's width on the widget itself (a screen that inherits from two
        screens, such as the remote one, takes the CSS of the first line of bases only)."""
        widget.styles.width = self.COUNT_WIDTH if widget.has_class("pile-count") else self.LABEL_WIDTH
        return widget

    def table_width(self) -> int:
        """The columns the table needs: a label, the hand of five and a draw pile; the padding."""
        return 2 + self.LABEL_WIDTH + HAND_SLOTS * 10 + self.COUNT_WIDTH + 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Speed has no slap: its key is neither shown nor bound."""
        return action != "slap"

    # ------------------------------------------------------------------ drawing
    def speed_view(self) -> SpeedView:
        """The person's view of the table."""
        # for mypy only: this screen is only ever given a Speed table (its game's ``tui`` hook makes it)
        return cast(SpeedView, self.table.view())

    def redraw(self) -> None:
        """Draw the table from the person's view."""
        if not self.drawable:
            return
        t = self.lang
        view = self.speed_view()
        me, bot = view.players[0], view.players[1]
        self.slots = keep_slots(self.slots, me.hand or ())
        if self.source is not None and self.slots[self.source] is None:
            self.source = None
        head = Text(f"{tr(t, 'speed')} · {view.t / 1000:.1f} s · P1 {me.cards} {tr(t, 'cards')} · "
                    f"P2 {bot.cards} {tr(t, 'cards')}", style="bold")
        set_text(self.query_one("#spit-head", Static), head)
        for i in range(HAND_SLOTS):
            there = i < bot.hand_size
            self.query_one(f"#bot-H{i}", PileWidget).show(Text(FACE_DOWN if there else "", style="dim"),
                                                          marks=frozenset() if there else frozenset({"faded"}))
        self.query_one("#bot-draw", PileWidget).show(Text(str(bot.draw)))
        self.query_one("#bot-side", PileWidget).show(Text(str(bot.side)), "P2",
                                                     marks=frozenset({"source"} if bot.called_spit else set()))
        targets = self._speed_targets(view)
        for j, center in enumerate(view.centers):
            marks = {"target"} if j in targets else set()
            self.query_one(f"#C{j}", PileWidget).show(center_text(center.top, center.cards), str(center.cards),
                                                      marks=frozenset(marks))
        for i, card in enumerate(self.slots):
            marks = {"source"} if self.source == i else set()
            if me.hand is None:  # a spectator: the bottom seat's hand as backs, as the other's
                there = i < me.hand_size
                self.query_one(f"#H{i}", PileWidget).show(Text(FACE_DOWN if there else "", style="dim"),
                                                          marks=frozenset() if there else frozenset({"faded"}))
                continue
            if card is None:
                marks.add("faded")
            self.query_one(f"#H{i}", PileWidget).show(card_text(card), marks=frozenset(marks))
        self.query_one("#my-draw", PileWidget).show(Text(str(me.draw)))
        self.query_one("#my-side", PileWidget).show(Text(str(me.side)), "P1",
                                                    marks=frozenset({"source"} if me.called_spit else set()))
        set_text(self.query_one("#spit-prompt", Static), self._speed_prompt(view))
        set_text(self.query_one("#spit-message", Static), Text(self.message, style="italic"))
        self.draw_log()

    def _speed_prompt(self, view: SpeedView) -> Text:
        t = self.lang
        if view.phase == OVER:
            return Text(tr(t, "spit_over", text=self._result_text()))
        if self.starts_in_ms() > 0:
            return Text(tr(t, "sp_ready", s=math.ceil(self.starts_in_ms() / 1000)))
        if view.t < view.play_from:
            return Text(tr(t, "wait"))
        if SPIT_MOVE in view.legal:
            return Text(tr(t, "speed_stuck"))
        card = self.slots[self.source] if self.source is not None else None
        if card is not None:
            return Text(tr(t, "card_selected", card=card_text(card).plain) + " · " + tr(t, "speed_keys"))
        return Text(tr(t, "speed_keys"))

    def _speed_targets(self, view: SpeedView) -> set[int]:
        """The centers the picked card may go to now."""
        card = self.slots[self.source] if self.source is not None else None
        if card is None:
            return set()
        return {j for j in range(len(view.centers)) if hand_move(card, j) in view.legal}

    # ------------------------------------------------------------------ input
    def pick(self, place: tuple[str, int]) -> None:
        """A hand card (the digit keys name ``("T", i)``, a click ``("H", i)``) or a center was named."""
        kind, number = place
        if self.table.over or self.refused_early():
            return
        view = self.speed_view()
        if kind == "C":
            card = self.slots[self.source] if self.source is not None else None
            if card is not None and self.source is not None:
                self.source = None
                self.try_move(hand_move(card, number))
            return
        card = self.slots[number] if number < HAND_SLOTS else None
        if card is None or self.source == number:
            self.source = None
        elif not any(hand_move(card, j) in view.legal for j in range(len(view.centers))):
            self.source = None
            self.message = self.no_target(card, len(view.centers))
        else:
            self.source, self.message = number, ""
        self.redraw()


    def no_target(self, card: int, centers: int) -> str:
        """A card that fits no center pile now, and why: the engine's reasons for each (without an
        engine here, at a server's table, just that it cannot be played now)."""
        reasons: list[str] = []
        for j in range(centers):
            refused = self.table.refusal_of(hand_move(card, j))
            if refused is not None and (reason := self.refusal(refused)) not in reasons:
                reasons.append(reason)
        if not reasons:
            return tr(self.lang, "no_target", card=card_text(card).plain)
        return tr(self.lang, "no_target_why", card=card_text(card).plain, why="; ".join(reasons))


class SpeedTui(SpitTui):
    """Speed in the terminal app: the ``tui`` hook of its registry entry (:mod:`spite.games`)."""

    label = "speed"
    """The message catalogue's name of the game."""
    default_preset = "speed"
    game = "speed"

    def screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a local table for a checked configuration."""
        return SpeedScreen(self.table(config), config.clock, config.lang, config.tick_seconds)

    def remote_table(self, link: TableLink, welcome: dict[str, Any]) -> Any:
        """The client side of a server's Speed table (``spite tui --connect``)."""
        from spite.spit.tui.remote import RemoteSpeedTable

        return RemoteSpeedTable.from_welcome(link, welcome)

    def remote_screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a server's Speed table (``config.remote``)."""
        return RemoteSpeedScreen(config.remote, config.lang, config.clock)


TUI = SpeedTui()
"""The registered ``tui`` hook of ``speed``."""


class RemoteSpeedScreen(RemoteSpitScreen, SpeedScreen):
    """A server's Speed table: the link and messages of :class:`RemoteSpitScreen`, the table of
    :class:`~spite.spit.tui.speed_screen.SpeedScreen`."""

    table: RemoteSpeedTable  # type: ignore[assignment]
