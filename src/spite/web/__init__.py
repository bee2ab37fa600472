"""The browser page: static HTML, JS modules and CSS served by the game server (no build step).

:func:`install` adds ``/`` (the lobby), ``/replay/{id}``, ``/tournament/{id}``, ``/stats`` (``/stats/{player}``),
``/rules/{game}`` and ``/static/…`` to a FastAPI app, and each game's own page folder (its family's
package data, which the registry's ``server`` hook names) as ``/static/games/{game}/…``, and the message
catalogue the page words with (the shared words and every game family's, merged) as ``/static/messages/{lang}.json``;
``/t/{id}`` stays the server's own route and answers with the page when a browser asks for HTML
(:func:`wants_html`), with the table's JSON otherwise.

>>> (STATIC_DIR / "index.html").is_file()
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response
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


def install(app: FastAPI, games: Mapping[str, Path] | None = None,
            messages: Callable[[str], Mapping[str, object]] | None = None) -> None:
    """Serve the page on ``app``: ``/``, ``/replay/{id}``, ``/tournament/{id}``, ``/stats[/{player}]``, ``/ratings``,
    ``/player/{player}``, ``/account``, ``/rules[/{game}]``, the static files under ``/static`` and each of
    ``games``' page folder (by game name) under ``/static/games/GAME``. The page routes by its URL itself, so
    each is ``index.html``. ``messages`` (a language's whole catalogue, :func:`spite.catalogue.catalogue`)
    answers ``/static/messages/{lang}.json`` in place of the shared words' file alone."""

    async def page() -> FileResponse:
        return index_response()

    async def replay_page(game_id: str) -> FileResponse:
        return index_response()

    async def player_page(player: str) -> FileResponse:
        return index_response()

    async def rules_page(game: str) -> FileResponse:
        return index_response()

    async def tournament_page(tournament_id: str) -> FileResponse:
        return index_response()

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/replay/{game_id}", replay_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/tournament/{tournament_id}", tournament_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/stats", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/stats/{player}", player_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/ratings", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/account", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/player/{player}", player_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules/{game}", rules_page, methods=["GET"], include_in_schema=False)
    if messages is not None:
        words = messages
        bodies: dict[str, tuple[bytes, str]] = {}

        async def catalogue_file(lang: str, request: Request) -> Response:
            if lang not in bodies:
                try:
                    body = json.dumps(words(lang), ensure_ascii=False, separators=(",", ":")).encode()
                except ValueError:
                    raise HTTPException(404) from None
                bodies[lang] = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
            body, etag = bodies[lang]
            headers = {"ETag": etag, "Cache-Control": "no-cache"}
            if request.headers.get("if-none-match") == etag:
                return Response(status_code=304, headers=headers)
            return Response(body, media_type="application/json", headers=headers)

        app.add_api_route("/static/messages/{lang}.json", catalogue_file, methods=["GET"], include_in_schema=False)
    for game, folder in (games or {}).items():  # before /static, which would answer for them otherwise
        app.mount(f"{GAMES_URL}/{game}", StaticFiles(directory=folder), name=f"static-{game}")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
