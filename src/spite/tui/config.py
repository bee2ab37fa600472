"""What the terminal app is asked to play (:class:`TuiConfig`), each game's ``tui`` hook
(:class:`TuiGame`, found in the registry: the app never asks which game it is), and the message a
screen sends to have a table opened in its place (:class:`OpenTable`). Below the app and every screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES

from spite.errors import OptionsError
from spite.games import DEFAULT_GAME, game_names, has_hook, load_hook
from spite.tui.i18n import LANGUAGES

if TYPE_CHECKING:
    from spite.tui.link import TableLink
    from spite.tui.seek import OpenSeek

__all__ = ["THEMES", "OpenTable", "TuiConfig", "TuiGame", "build_screen", "check_config", "tui_game", "tui_games"]


def tui_games() -> tuple[str, ...]:
    """The games the terminal app plays: those whose registry entry names a ``tui`` hook (asked each time,
    so a game registered after this module was imported is played too)."""
    return tuple(name for name in game_names() if has_hook(name, "tui"))


THEMES = tuple(sorted(BUILTIN_THEMES))
"""Textual's themes (``--theme``)."""


class TuiGame(Protocol):
    """A game's ``tui`` hook (named in its :mod:`spite.games` registry entry): how the app checks and
    opens a table of it, here or on a server. The app never asks which game it is."""

    label: str
    """The message catalogue's name of the game."""

    def check(self, config: TuiConfig) -> None:
        """Raise :class:`OptionsError` with one line when a local table cannot be set up."""

    def screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of a local table."""

    def remote_table(self, link: TableLink, welcome: dict[str, Any]) -> Any:
        """The client side of a server's table, from the server's ``welcome`` and the link that got it."""

    def remote_screen(self, config: TuiConfig) -> Screen[Any]:
        """The screen of the server's table ``config.remote``."""


def tui_game(game: str) -> TuiGame:
    """The ``tui`` hook of ``game``; :class:`OptionsError` for a game the app does not play."""
    games = tui_games()
    if game not in games:
        raise OptionsError(f"unknown game {game!r} (one of {', '.join(games)})")
    hook: TuiGame = load_hook(game, "tui")
    return hook


@dataclass
class TuiConfig:
    """Everything ``spite tui`` was asked for."""

    game: str = DEFAULT_GAME
    preset: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: str | None = None
    seed: int = 0
    lang: str = "en"
    bot_delay: float = 0.5
    """Seconds between two bot moves (0 in tests)."""
    start_screen: bool = False
    """Show the start screen first (game, preset, seats, language)."""
    clock: Callable[[], float] = time.monotonic
    """Spit's clock in seconds (tests pass a fake one)."""
    countdown: float | None = None
    """A real-time game's seconds from the deal to play; ``None``: the game's own, as at a server's table."""
    tick_seconds: float = 0.05
    first: int | None = None
    """The seat that begins the first game of a turn game (``None``: the cut decides)."""
    theme: str | None = None
    """A Textual theme (``textual-light`` for a light terminal); ``None``: Textual's default."""
    remote: Any = None
    """A game's remote table (its ``tui`` hook's :meth:`TuiGame.remote_table`) to play at (``--connect``, made
    by :func:`spite.tui.link.connect_table`); ``None``: a local game."""
    seek: OpenSeek | None = None
    """A seek made at a server (``--seek``): the app waits for it on a screen, then opens its table."""


def check_config(config: TuiConfig) -> None:
    """Raise :class:`OptionsError` with one line when the configuration cannot be played."""
    hook = tui_game(config.game)
    if config.lang not in LANGUAGES:
        raise OptionsError(f"unknown language {config.lang!r} (en or de)")
    if config.theme is not None and config.theme not in THEMES:
        raise OptionsError(f"unknown theme {config.theme!r} (one of {', '.join(THEMES)})")
    if config.remote is not None or config.seek is not None:
        return
    hook.check(config)


def build_screen(config: TuiConfig) -> Screen[Any]:
    """The game screen for a checked configuration."""
    if config.remote is not None:
        return tui_game(config.remote.game).remote_screen(config)
    return tui_game(config.game).screen(config)


class OpenTable(Message):
    """A screen asks the app to open the table of ``config`` (``remote`` set) in its place (the wait
    of a seek, once seated)."""

    def __init__(self, config: TuiConfig) -> None:
        super().__init__()
        self.config = config
