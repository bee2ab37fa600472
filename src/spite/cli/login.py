"""``spite login URL`` and ``spite logout URL``: the terminal signed in to a server's account
(docs/accounts.md, :mod:`spite.tui.login`)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from spite.cli.common import EXIT_MALFORMED, fail


def login(
    url: Annotated[str, typer.Argument(help="The server (https://HOST, or any link of it).")],
    code: Annotated[str | None, typer.Option(help="The link code (asked for when not given).")] = None,
    lang: Annotated[str, typer.Option(help="Language of what is said: en or de.")] = "en",
) -> None:
    """Sign this terminal in to your account on a server.

    Give the code a signed-in device shows (the page's Account, "Link another device"); from then on
    the terminal plays, seeks and is rated as your account on that server.
    """
    from spite.catalogue import render
    from spite.tui.login import LoginRefused, server_of
    from spite.tui.login import login as sign_in

    lang = lang if lang in ("en", "de") else "en"
    if not url.startswith(("http://", "https://")):
        fail(f"{url!r} is no server address: give http://HOST or https://HOST", EXIT_MALFORMED)
    if code is None:
        if not sys.stdin.isatty():
            code = sys.stdin.readline().strip()
        else:
            code = typer.prompt(render(lang, "login.prompt", {}))
    try:
        answer = sign_in(url, code or "", lang)
    except LoginRefused as exc:
        fail(str(exc), EXIT_MALFORMED)
    typer.echo(render(lang, "login.done", {"server": server_of(url), "handle": str(answer.get("handle"))}))


def logout(
    url: Annotated[str, typer.Argument(help="The server (https://HOST, or any link of it).")],
    lang: Annotated[str, typer.Option(help="Language of what is said: en or de.")] = "en",
) -> None:
    """Sign this terminal out of your account on a server.

    The server forgets the terminal's session too.
    """
    from spite.catalogue import render
    from spite.tui.login import logout as sign_out
    from spite.tui.login import server_of

    lang = lang if lang in ("en", "de") else "en"
    key = "login.out" if sign_out(url, lang) else "login.not-in"
    typer.echo(render(lang, key, {"server": server_of(url)}))


def register(app: typer.Typer) -> None:
    app.command("login")(login)
    app.command("logout")(logout)
