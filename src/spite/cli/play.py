"""Playing on this machine: ``spite tui`` (the Textual app).

>>> import typer
>>> app = typer.Typer()
>>> register(app)
>>> [c.name for c in app.registered_commands]
['tui']
"""

from __future__ import annotations

import random
from typing import Annotated

import typer

from spite.cli.common import (
    EXIT_MALFORMED,
    check_seconds,
    fail,
    needs_extra,
    parse_options,
)
from spite.errors import OptionsError
from spite.games import DEFAULT_GAME

__all__ = ["register", "tui"]


def tui(
    game: Annotated[str | None, typer.Option("--game", "-g", help="The game (default: a start screen asks).")] = None,
    preset: Annotated[str | None, typer.Option("--preset", "-p", help="A preset of the game (default: its first).")]
    = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-O", help="An option key=value (repeatable).")]
    = None,
    seats: Annotated[str | None, typer.Option(
        "--seats", help="Who plays each seat: human or a computer level of the game (easy, medium, hard, "
                        "expert), comma-separated; human,human is hot-seat (a real-time game: human,LEVEL).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deal (random if not given).")] = None,
    lang: Annotated[str, typer.Option("--lang", help="en or de.")] = "en",
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds between bot moves.")] = 0.6,
    theme: Annotated[str | None, typer.Option("--theme", help="A Textual theme, e.g. textual-light.")] = None,
    connect: Annotated[str | None, typer.Option(
        "--connect", help="Join a table of a running server (spite serve), e.g. http://host:8000.")] = None,
    table: Annotated[str | None, typer.Option("--table", help="With --connect: the table's id or link (/t/ID).")]
    = None,
    token: Annotated[str | None, typer.Option("--token", help="With --connect: your seat's token.")] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="With --connect: take a free seat under this name (no --token: watch).")] = None,
    seek: Annotated[str | None, typer.Option(
        "--seek", help=f"With --connect: play a person now: GAME[:PRESET], e.g. {DEFAULT_GAME}; waits for "
                       "someone near your rating (Ctrl-C cancels), a computer after --computer-after s.")] = None,
    casual: Annotated[bool, typer.Option("--casual", help="With --seek: an unrated game.")] = False,
    computer_after: Annotated[float | None, typer.Option(
        "--computer-after", help="With --seek: seconds before a computer near your rating plays you.")] = 30.0,
    tournament: Annotated[str | None, typer.Option(
        "--tournament", help="With --connect: join the tournament (its id or link /tournament/ID) and play each of "
                             "its games as it comes, under --name (default: your account's handle).")] = None,
) -> None:
    """Play in the terminal, against the computer or each other.

    Any registered game, with people and computers (the Textual app).
    Without --game, --preset or --seats a start screen asks. With --connect URL --table ID you play
    a seat of a server's table (--token, or --name to take a free seat), or watch it.
    """
    check_seconds("--bot-delay", bot_delay)
    with needs_extra("tui", "play in the terminal"):
        from spite.tui.app import SpiteApp, TuiConfig, check_config

    if tournament is not None:
        _tournament(connect, tournament, name, lang.lower(), theme)
        return
    if seek is not None:
        _seek(connect, seek, name or "guest", not casual, computer_after, lang.lower(), theme)
        return
    if connect is not None or table is not None or token is not None or name is not None:
        _remote(connect, table, token, name, lang.lower(), theme)
        return
    try:
        config = TuiConfig(
            game=game or DEFAULT_GAME,
            preset=preset,
            options=parse_options(option),
            seats=seats,
            seed=seed if seed is not None else random.randrange(1 << 31),
            lang=lang.lower(),
            bot_delay=bot_delay,
            start_screen=game is None and preset is None and seats is None,
            theme=theme,
        )
        check_config(config)
    except (OptionsError, ValueError) as exc:
        fail(str(exc), EXIT_MALFORMED)
    SpiteApp(config).run()


def _remote(connect: str | None, table: str | None, token: str | None, name: str | None, lang: str,
            theme: str | None) -> None:
    """``--connect``: join (or watch) a server's table; every refusal is one line and exit code 2."""
    from spite.tui.app import SpiteApp, TuiConfig, check_config
    from spite.tui.link import RemoteError, connect_table

    try:
        if connect is None:
            raise RemoteError("--table, --token and --name go with --connect URL")
        config = TuiConfig(lang=lang, theme=theme)
        check_config(config)
        with needs_extra("tui", "join a server's table"):  # its WebSocket client is imported on connecting
            config.remote = connect_table(connect, table, token=token, name=name)
    except (RemoteError, OptionsError) as exc:
        fail(str(exc), EXIT_MALFORMED)
    remote = config.remote
    SpiteApp(config).run()
    if name and remote.token and remote.seat is not None and not remote.view_json.get("finished"):
        typer.echo(f"Your seat P{remote.seat + 1} at table {remote.table_id}; come back with: spite tui --connect "
                   f"{remote.base} --table {remote.table_id} --token {remote.token}")


def _seek(connect: str | None, spec: str, name: str, rated: bool, computer_after: float | None, lang: str,
          theme: str | None) -> None:
    """``--seek``: make the seek (a refusal is one line, exit code 2), then the app waits for a person
    (or the computer) on a screen and plays the seat got as ``--token`` would; ``Esc`` there cancels."""
    from spite.tui.app import SpiteApp, TuiConfig, check_config
    from spite.tui.i18n import tr
    from spite.tui.link import RemoteError, parse_address
    from spite.tui.seek import OpenSeek, open_seek, parse_seek

    try:
        if connect is None:
            raise RemoteError("--seek goes with --connect URL (the server)")
        base, _ = parse_address(connect, "-")
        game, preset = parse_seek(spec)
        config = TuiConfig(lang=lang, theme=theme)
        check_config(config)
        with needs_extra("tui", "join a server's table"):  # its WebSocket client is imported on connecting
            config.seek = OpenSeek(base, open_seek(base, game, preset, name, rated=rated,
                                                   computer_after=computer_after))
    except (RemoteError, OptionsError) as exc:
        fail(str(exc), EXIT_MALFORMED)
    app = SpiteApp(config)
    app.run()
    if app.config.remote is None:  # cancelled while waiting: no table was opened
        typer.echo(tr(lang, "tui.seek_cancelled"), err=True)


def _tournament(connect: str | None, tournament: str, name: str | None, lang: str, theme: str | None) -> None:
    """``--tournament``: join it (a refusal is one line, exit code 2), then the app shows it and plays each
    table as the server makes it, until the tournament is over or Esc leaves the view."""
    from spite.tui.app import SpiteApp, TuiConfig, check_config
    from spite.tui.i18n import tr
    from spite.tui.link import RemoteError
    from spite.tui.tournament import join_tournament, parse_tournament, player_name

    try:
        if connect is None:
            raise RemoteError("--tournament goes with --connect URL (the server)")
        base, tournament_id = parse_tournament(connect, tournament)
        config = TuiConfig(lang=lang, theme=theme)
        check_config(config)
        with needs_extra("tui", "join a server's table"):  # its WebSocket client is imported on connecting
            config.tournament = join_tournament(base, tournament_id, player_name(base, name))
    except (RemoteError, OptionsError) as exc:
        fail(str(exc), EXIT_MALFORMED)
    SpiteApp(config).run()
    entered = config.tournament
    if entered.info.get("state") != "finished":
        command = f"spite tui --connect {entered.base} --tournament {entered.id}"
        typer.echo(tr(lang, "tui.tn_come_back", command=command))


def register(app: typer.Typer) -> None:
    """Add ``tui`` to ``app``."""
    app.command(name="tui")(tui)
