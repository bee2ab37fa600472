"""The browser page: static HTML, JS modules and CSS served by the game server (no build step).

:func:`install` adds ``/`` (the lobby), ``/replay/{id}``, ``/stats`` (``/stats/{player}``),
``/rules/{game}`` and ``/static/…`` to a FastAPI app, and each game's own page folder (its family's
package data, which the registry's ``server`` hook names) as ``/static/games/{game}/…``;
``/t/{id}`` stays the server's own route and answers with the page when a browser asks for HTML
(:func:`wants_html`), with the table's JSON otherwise.

>>> (STATIC_DIR / "index.html").is_file()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["GAMES_URL", "STATIC_DIR", "index_response", "install", "wants_html"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's shared files: ``index.html``, ``*.js`` (ES modules), ``style.css``."""

GAMES_URL = "/static/games"
"""Where each game's page folder is served (``/static/games/GAME/``): two folders below the shared
modules, which a game's modules import as ``../../html.js``."""


def wants_html(request: Request) -> bool:
    """A browser navigating (``Accept: text/html…``), not an API client."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept


def index_response() -> FileResponse:
    """The single page (it routes by its URL itself)."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers={"Cache-Control": "no-cache"})


def install(app: FastAPI, games: Mapping[str, Path] | None = None) -> None:
    """Serve the page on ``app``: ``/``, ``/replay/{id}``, ``/stats[/{player}]``, ``/ratings``,
    ``/player/{player}``, ``/account``, ``/rules[/{game}]``, the static files under ``/static`` and each of
    ``games``' page folder (by game name) under ``/static/games/GAME``. The page routes by its URL itself, so
    each is ``index.html``."""

    async def page() -> FileResponse:
        return index_response()

    async def replay_page(game_id: str) -> FileResponse:
        return index_response()

    async def player_page(player: str) -> FileResponse:
        return index_response()

    async def rules_page(game: str) -> FileResponse:
        return index_response()

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/replay/{game_id}", replay_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/stats", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/stats/{player}", player_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/ratings", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/account", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/player/{player}", player_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules/{game}", rules_page, methods=["GET"], include_in_schema=False)
    for game, folder in (games or {}).items():  # before /static, which would answer for them otherwise
        app.mount(f"{GAMES_URL}/{game}", StaticFiles(directory=folder), name=f"static-{game}")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
