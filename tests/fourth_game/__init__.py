"""A fourth game, Pebbles, that lives under tests/ only: it proves that a game plugs in through the
registry alone. Its folder holds everything a family brings: the engine and its adapter (``game``),
the server hook (``server``), its bots (``bots``), its terminal screen (``tui``), its page folder
(``web/``: ``pebbles.js``) and its words (``words/``: ``en.json``, ``de.json``). :func:`registered`
registers it at run time with the same call a family makes (:func:`spite.games.register`) and takes it
away again afterwards, so the other tests see only the real games.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from fourth_game.game import NAME

__all__ = ["NAME", "register_pebbles", "registered"]


def register_pebbles() -> None:
    """The game's one registry line, as a family's is (src/spite/games.py)."""
    from spite.games import register

    register(NAME, "fourth_game.game:GAME", server="fourth_game.server:SERVER", bots="fourth_game.bots:REGISTERED",
             tui="fourth_game.tui:TUI", words="fourth_game.words:FOLDER")


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """Pebbles registered for the block; the registry as it was afterwards (a test's own, not the suite's)."""
    import spite.games as games

    saved = dict(games._REGISTRY), dict(games._LOADED)
    register_pebbles()
    try:
        yield
    finally:
        games._REGISTRY.clear()
        games._REGISTRY.update(saved[0])
        games._LOADED.clear()
        games._LOADED.update(saved[1])
