"""Write the SVG screenshots of docs/tui.md: ``.venv/bin/python tests/tui/make_screenshots.py``."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

sys.path.insert(0, str(Path(__file__).parent))

from tui_helpers import keys_for, malice, run, type_keys, wait_for_human

from spite.bots import make_bot
from spite.cards import RANK_TOKENS, RANKS
from spite.spit.tui.screen import SpitScreen
from spite.spit.tui.session import START_COUNTDOWN_S
from spite.spit.tui.speed_screen import SpeedScreen
from spite.tui.app import SpiteApp, TuiConfig

DOCS = Path(__file__).resolve().parents[2] / "docs"


def malice_shot(name: str, size: tuple[int, int], lang: str, turns: int) -> None:
    """Play a few turns by keys, pick a card, save the screen."""
    chooser = make_bot("medium")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        chooser.start_game(screen.table.opts, 0)
        rng = random.Random(1)
        while screen.table.state.turn < turns:
            await wait_for_human(pilot, app)
            view = screen.table.view(0)
            await type_keys(pilot, *keys_for(view, chooser.decide(view, rng).move, screen.hand_slots(view)))
        await wait_for_human(pilot, app)
        view = screen.table.view(0)
        move = chooser.decide(view, rng).move
        await type_keys(pilot, keys_for(view, move, screen.hand_slots(view))[0])
        (DOCS / name).write_text(app.export_screenshot(title="spite tui"), encoding="utf-8")

    run(TuiConfig(preset="classic", seats="human,medium", seed=7, bot_delay=0, lang=lang), body, size=size)


def spit_shot(name: str) -> None:
    """A few seconds of Spit against the bot, then save the screen."""
    now = [0.0]

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = app.game_screen
        assert isinstance(screen, SpitScreen)
        now[0] += START_COUNTDOWN_S  # "one, two, three — spit!"
        for _ in range(40):
            now[0] += 0.2
            screen.tick()
            plays = [m for m in screen.table.view().legal if "-C" in m]
            if plays and _ % 3 == 0:
                await type_keys(pilot, plays[0][1], "qw"[int(plays[0][-1]) - 1])
        await type_keys(pilot, "1")
        (DOCS / name).write_text(app.export_screenshot(title="spite tui — Spit"), encoding="utf-8")

    run(TuiConfig(game="spit", seats="human,medium", seed=3, clock=lambda: now[0], tick_seconds=60), body)


def speed_shot(name: str) -> None:
    """A few seconds of Speed against the bot, a card picked, then save the screen."""
    now = [0.0]

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = app.game_screen
        assert isinstance(screen, SpeedScreen)
        now[0] += START_COUNTDOWN_S  # "one, two, three — spit!"
        for step in range(40):
            now[0] += 0.2
            screen.tick()
            plays = [m for m in screen.speed_view().legal if "-C" in m]
            if plays and step % 3 == 0:
                rank = plays[0][1:plays[0].index("-")]
                slot = next(i for i, c in enumerate(screen.slots) if c is not None and RANK_TOKENS[RANKS[c]] == rank)
                await type_keys(pilot, str(slot + 1), "qw"[int(plays[0][-1]) - 1])
        plays = [m for m in screen.speed_view().legal if "-C" in m]
        if plays:
            rank = plays[0][1:plays[0].index("-")]
            slot = next(i for i, c in enumerate(screen.slots) if c is not None and RANK_TOKENS[RANKS[c]] == rank)
            await type_keys(pilot, str(slot + 1))
        (DOCS / name).write_text(app.export_screenshot(title="spite tui — Speed"), encoding="utf-8")

    run(TuiConfig(game="speed", seats="human,medium", seed=3, clock=lambda: now[0], tick_seconds=60), body)


if __name__ == "__main__":
    malice_shot("tui-malice-80x24.svg", (80, 24), "en", 6)
    malice_shot("tui-malice-120x40-de.svg", (120, 40), "de", 10)
    spit_shot("tui-spit-80x24.svg")
    speed_shot("tui-speed-80x24.svg")
    print("wrote", *sorted(p.name for p in DOCS.glob("tui-*.svg")))
