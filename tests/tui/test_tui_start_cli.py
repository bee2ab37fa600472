"""The start screen, the ``spite tui`` command's checks, the pieces without a screen."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import run, type_keys, wait_for
from typer.testing import CliRunner

from spite.cli.play import register
from spite.errors import OptionsError
from spite.malice import Options
from spite.malice.tui.screen import MaliceScreen
from spite.malice.tui.session import MaliceTable, parse_seats
from spite.spit.tui.screen import SpitScreen
from spite.spit.tui.session import SpitTable, TimedOpponent
from spite.tui.app import SpiteApp, StartScreen, TuiConfig, check_config


def test_start_screen_starts_a_game() -> None:
    config = TuiConfig(start_screen=True, seed=1, bot_delay=0)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, StartScreen)
        text = app.screen_text()
        assert "Game" in text and "Preset" in text and "Seats" in text
        app.screen.query_one("#start-seats", Input).value = "human,human,easy"
        await type_keys(pilot, "ctrl+s")
        assert "3 seats" in app.screen_text()  # one clear line, the form stays
        app.screen.query_one("#start-seats", Input).value = "human,easy"
        await type_keys(pilot, "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.game_screen, MaliceScreen))

    run(config, body)


def test_start_screen_spit() -> None:
    config = TuiConfig(start_screen=True, seed=1, game="spit", preset="spit", seats="human,hard")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await type_keys(pilot, "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.game_screen, SpitScreen))
        screen = app.game_screen
        assert isinstance(screen, SpitScreen) and screen.table.level == "hard"

    run(config, body)


@pytest.mark.parametrize(("config", "message"), [
    (TuiConfig(game="chess"), "unknown game 'chess'"),
    (TuiConfig(preset="nope"), "unknown preset 'nope'"),
    (TuiConfig(seats="human"), "--seats names 1 seat, but this game has 2 players"),
    (TuiConfig(preset="party", seats="human,easy"), "this game has 3 players"),
    (TuiConfig(seats="human,wizard"), "unknown bot 'wizard'"),
    (TuiConfig(options={"stock_size": 0}), "stock_size must be between 1 and 200"),
    (TuiConfig(game="spit", seats="human,human"), "Spit is played by you against a bot"),
    (TuiConfig(game="spit", preset="speed"), "preset 'speed' is for speed"),
    (TuiConfig(lang="fr"), "unknown language 'fr'"),
])
def test_config_errors_are_one_clear_line(config: TuiConfig, message: str) -> None:
    with pytest.raises(OptionsError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        check_config(config)
    assert "\n" not in str(info.value)


def test_register_adds_the_tui_command_and_reports_errors() -> None:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command, so that typer keeps subcommand names
        """Nothing."""

    runner = CliRunner()
    result = runner.invoke(app, ["tui", "--seats", "human,wizard"])
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.output
    result = runner.invoke(app, ["tui", "--option", "stock_size"])
    assert result.exit_code == 2 and "key=value" in result.output
    result = runner.invoke(app, ["tui", "--help"])
    assert result.exit_code == 0 and "--seats" in result.output and "--lang" in result.output


def test_undo_limit_without_a_screen() -> None:
    """Undo stops at the turn start and at any revealed card (stock play, refilled hand)."""
    opts = Options.from_preset("short")
    table = MaliceTable(opts, parse_seats("human,human", 2), seed=0, first=0)
    assert not table.can_undo()
    builds = [m for m in table.state.legal_moves() if m.kind == 0 and m.source == 1]
    if builds:
        table.play(builds[0])
        assert table.can_undo()
        table.undo()
    end = next(m for m in table.state.legal_moves() if m.ends_turn)
    table.play(end)
    assert not table.can_undo()
    assert table.turn_log()[-1].startswith("1 P1: ")


def test_timed_opponent_waits_its_reaction_time_then_plays() -> None:
    table = SpitTable(seed=8, level="expert", opponent=TimedOpponent("expert", 1))
    view = table.state.view(1)
    opponent = table.opponent
    assert isinstance(opponent, TimedOpponent)
    assert opponent.act(view, 0) is None  # it first notices the table
    if view.legal:
        assert opponent.act(view, 10) is None
        assert opponent.act(view, 1000) in view.legal
    with pytest.raises(OptionsError):
        TimedOpponent("godlike")
