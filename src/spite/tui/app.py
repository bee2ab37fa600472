"""The Textual app of ``spite tui``: a start screen, then the table of the game chosen, drawn by
that game's own screen (its ``tui`` hook in :mod:`spite.games`).

>>> from spite.games import game_names
>>> config = TuiConfig(game=game_names()[0], seed=1)
>>> app = SpiteApp(config)
>>> app.config.lang
'en'

Run it with ``spite tui`` (see ``docs/tui.md``) or ``SpiteApp(config).run()``.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.console import Console
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from spite.errors import OptionsError
from spite.games import get_game
from spite.tui.config import OpenTable, TuiConfig, TuiGame, build_screen, check_config, tui_game, tui_games
from spite.tui.i18n import LEVEL_NAMES, error_words, key_name, level_name, preset_name, tr
from spite.tui.widgets import TableScreen, translate_bindings

if TYPE_CHECKING:
    pass

__all__ = ["OpenTable", "SpiteApp", "TuiConfig", "TuiGame", "build_screen", "check_config", "tui_game", "tui_games"]
# (TuiConfig, the games' hooks and OpenTable live in spite.tui.config, below the screens; named here too)

class StartScreen(Screen[TuiConfig]):
    """Pick the game, the preset, the seats and the language: in the page's words (presets and levels
    as the page names them), in the language picked (the form is worded anew when it changes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "Start")]
    DEFAULT_CSS = """
    StartScreen { align: center middle; }
    #start-box { width: 72; height: auto; border: double $accent; padding: 0 1; }
    #start-title { text-style: bold; padding: 0 1; }
    .field { height: 3; }
    .field Label { width: 12; height: 3; content-align: left middle; padding: 0 1; }
    .field Select, .field Input { width: 1fr; }
    #start-error { color: $error; height: auto; padding: 0 1; }
    #start-foot { height: 3; }
    #start-help { width: 1fr; height: 3; content-align: left middle; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, config: TuiConfig) -> None:
        super().__init__()
        self.config = config
        translate_bindings(self, config.lang)

    def compose(self) -> ComposeResult:
        """The form."""
        c = self.config
        t = c.lang
        with Vertical(id="start-box"):
            yield Static(tr(t, "start_title"), id="start-title")
            with Horizontal(classes="field"):
                yield Label(tr(t, "game"))
                yield Select([(tr(t, tui_game(name).label), name) for name in tui_games()], value=c.game,
                             allow_blank=False, id="start-game")
            with Horizontal(classes="field"):
                yield Label(tr(t, "preset"))
                yield Select(self._presets(c.game), value=c.preset or self._presets(c.game)[0][1],
                             allow_blank=False, id="start-preset")
            with Horizontal(classes="field"):
                yield Label(tr(t, "seats"))
                yield Input(c.seats or default_seats(t), id="start-seats")
            with Horizontal(classes="field"):
                yield Label(tr(t, "language"))
                yield Select([("English", "en"), ("Deutsch", "de")], value=c.lang, allow_blank=False,
                             id="start-lang")
            yield Static("", id="start-error")
            with Horizontal(id="start-foot"):
                words = ", ".join([tr(t, "human"), *(level_name(t, level) for level in LEVEL_NAMES)])
                yield Static(tr(t, "start_help", words=words, start=key_name(t, "ctrl+s")), id="start-help")
                yield Button(tr(t, "start"), id="start-go", variant="primary")
        yield Footer()

    def _presets(self, game: str) -> list[tuple[str, str]]:
        return [(preset_name(self.config.lang, name), name) for name in get_game(game).presets]

    @on(Select.Changed, "#start-game")
    def _game_changed(self, event: Select.Changed) -> None:
        if str(event.value) == self.config.game:
            return
        presets = self.query_one("#start-preset", Select)
        options = self._presets(str(event.value))
        presets.set_options(options)
        presets.value = options[0][1]

    @on(Select.Changed, "#start-lang")
    async def _language_changed(self, event: Select.Changed) -> None:
        """Word the form, its footer and its seats anew in the language picked."""
        lang = str(event.value)
        if lang == self.config.lang:
            return
        seats = self.query_one("#start-seats", Input).value.strip()
        if seats == default_seats(self.config.lang):
            seats = default_seats(lang)
        self.config = replace(self._chosen(), seats=seats or None, lang=lang)
        translate_bindings(self, lang)
        if isinstance(self.app, SpiteApp):
            self.app.lang = lang
        await self.recompose()
        self.refresh_bindings()

    @on(Button.Pressed, "#start-go")
    def _pressed(self) -> None:
        self.action_start()

    def _chosen(self) -> TuiConfig:
        """The configuration the form shows now."""
        config = replace(
            self.config,
            game=str(self.query_one("#start-game", Select).value),
            preset=str(self.query_one("#start-preset", Select).value),
            seats=self.query_one("#start-seats", Input).value.strip() or None,
            lang=str(self.query_one("#start-lang", Select).value),
        )
        if config.game != self.config.game:
            config.options = {}
        return config

    def action_start(self) -> None:
        """Check the choices and start (an error is shown in one line, in the form's language)."""
        config = self._chosen()
        try:
            check_config(config)
        except OptionsError as exc:
            self.query_one("#start-error", Static).update(error_words(config.lang, exc))
            return
        except ValueError as exc:
            self.query_one("#start-error", Static).update(str(exc))
            return
        self.dismiss(config)


def default_seats(lang: str) -> str:
    """The seats the start screen offers first: a person against the ``medium`` computer, in ``lang``'s words."""
    return f"{tr(lang, 'human')},{level_name(lang, 'medium')}"


class SpiteApp(App[None]):
    """``spite tui``: play any registered game, against people or computers."""

    TITLE = "spite"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, config: TuiConfig) -> None:
        super().__init__()
        self.config = config
        self.lang = config.lang
        """The language of the screen on show (the footers' key names are worded in it)."""

    def get_key_display(self, binding: Binding) -> str:
        """A footer's key in the page's words and the screen's language: ``Space``/``Leertaste``,
        ``Ctrl+S``/``Strg+S``, ``Esc``, ``U``."""
        if binding.key_display:
            return binding.key_display
        return key_name(self.lang, binding.key)

    def on_mount(self) -> None:
        """The start screen, or straight to the table."""
        if self.config.theme:
            self.theme = self.config.theme
        if self.config.tournament is not None:
            from spite.tui.tournament_screen import TournamentScreen

            self.push_screen(TournamentScreen(self.config))
        elif self.config.seek is not None:
            from spite.tui.seek_screen import SeekScreen

            self.push_screen(SeekScreen(self.config), self._start)
        elif self.config.start_screen:
            self.push_screen(StartScreen(self.config), self._start)
        else:
            self._start(self.config)

    def _start(self, config: TuiConfig | None) -> None:
        if config is None:
            self.exit()
            return
        self.config = config
        self.lang = config.lang
        self.push_screen(build_screen(config))

    def on_open_table(self, message: OpenTable) -> None:
        """The table's screen replaces the screen that found it."""
        self.config = message.config
        self.lang = message.config.lang
        self.switch_screen(build_screen(message.config))

    def leave_table(self) -> None:
        """A table screen is left (Q at its end): back to the screen it was opened from when that one goes
        on (a tournament's view, between its games), else the app ends."""
        home = next((s for s in reversed(self.screen_stack) if getattr(s, "takes_table_back", False)), None)
        if home is None:
            self.exit()
        else:
            home.take_table_back()

    async def action_quit(self) -> None:
        """Leave the app; a screen with something to undo at a server first does it (a seek waiting
        is cancelled)."""
        before_quit = getattr(self.screen, "before_quit", None)
        if before_quit is not None:
            await before_quit()
        await super().action_quit()

    def screen_text(self) -> str:
        """The screen as plain text, line by line (what :meth:`export_screenshot` draws, without styles)."""
        width, height = self.size
        console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                          color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
        console.print(self.screen._compositor.render_update(full=True, screen_stack=self._background_screens))
        return console.export_text()

    @property
    def game_screen(self) -> TableScreen | None:
        """The table screen (for tests and tools), if one is open."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None
