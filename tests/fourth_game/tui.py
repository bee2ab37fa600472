"""Pebbles in the terminal app: its ``tui`` hook (a :class:`spite.tui.config.TuiGame`) and its screen, a
person against the random bot. Keys 1, 2, 3 lay a card of that worth; the bot answers at once."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from fourth_game.game import GAME, NAME, PebblesState
from spite.bots import make_bot
from spite.errors import OptionsError
from spite.tui.config import TuiConfig
from spite.tui.i18n import tr
from spite.tui.widgets import TableScreen


class PebblesScreen(TableScreen):
    """The table: the pile, the person's hand, the computer's hand size, and what happened last."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("1", "lay(1)", "1"), Binding("2", "lay(2)", "2"),
                                              Binding("3", "lay(3)", "3")]

    def __init__(self, state: PebblesState, lang: str, seed: int) -> None:
        super().__init__()
        self.state = state
        self.lang = lang  # its words: fourth_game/words (the catalogue's tui.pebbles.*)
        self.bot = make_bot(f"{NAME}-random")
        self.rng = random.Random(f"{NAME}-tui:{seed}")
        self.said = ""

    def compose(self) -> ComposeResult:
        yield Static(id="pebbles-pile")
        yield Static(id="pebbles-other")
        yield Static(id="pebbles-hand")
        yield Static(id="pebbles-said")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def action_lay(self, value: int) -> None:
        move = f"T{value}"
        if self.state.is_over or move not in self.state.legal_moves(0):
            self.app.bell()
            return
        self.state.apply(0, move)
        if not self.state.is_over:
            answer = self.bot.choose({"view": self.state.view(1).to_json(), "legal": self.state.legal_moves(1)},
                                     self.rng)
            self.state.apply(1, answer)
            self.said = tr(self.lang, "pebbles.bot", move=answer)
        self.draw()

    def draw(self) -> None:
        view = self.state.view(0).to_json()
        def w(key: str, **params: Any) -> str:
            return tr(self.lang, f"pebbles.{key}", **params)

        self.query_one("#pebbles-pile", Static).update(w("pile", n=view["pile"]))
        self.query_one("#pebbles-other", Static).update(w("other", n=view["players"][1]["handSize"]))
        self.query_one("#pebbles-hand", Static).update(
            w("hand", cards=" ".join(map(str, view["players"][0]["hand"])) or "-"))
        result = view["result"]
        if result is not None:
            line = w("won" if result["winner"] == 0 else "lost", reason=result["reason"])
        else:
            line = w("turn")
        self.query_one("#pebbles-said", Static).update(f"{self.said}\n{line}".strip())


class PebblesTui:
    """The ``tui`` hook: a local table against the random bot (no server's table for this game)."""

    label = NAME

    def check(self, config: TuiConfig) -> None:
        GAME.seats(config.preset, config.options)
        if config.seats not in (None, "human,random"):
            raise OptionsError("pebbles is played as human,random")

    def screen(self, config: TuiConfig) -> Screen[Any]:
        return PebblesScreen(GAME.new(config.preset, config.options, seed=config.seed), config.lang, config.seed)

    def remote_table(self, link: Any, welcome: dict[str, Any]) -> Any:
        raise OptionsError("pebbles is played in the terminal against its bot only")

    def remote_screen(self, config: TuiConfig) -> Screen[Any]:
        raise OptionsError("pebbles is played in the terminal against its bot only")


TUI = PebblesTui()
