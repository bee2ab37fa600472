"""Pebbles at the server: its ``server`` hook (a :class:`ServerGame`, the table's adapter) and its
thinking bots (a :class:`spite.server.bots.Thinker`), registered as a family registers them. The
shared defaults of :class:`TablePlay` fit a turn game with no fields of its own: the adapter is small."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fourth_game.game import GAME, NAME
from spite.bots import make_bot
from spite.errors import Phrase
from spite.games import Record
from spite.server.table.play import Listing, ServerGame, Table, TablePlay
from spite.server.table.seats import LobbyError

LEVELS = ("random",)
"""The one level its lobby offers."""


class PebblesBots:
    """The bots as the server's bot workers run them: each sees only its seat's view (JSON, picklable)."""

    def spec(self, level: str, budget: float) -> str:
        return f"{NAME}-random"  # every level (a replacement's too) is the one random bot

    def make(self, spec: str) -> Any:
        return make_bot(spec)  # the bots hook (fourth_game.bots) registered it

    def decide(self, bot: Any, view: Any, rng: random.Random, first: bool) -> tuple[str, str, list[Phrase]]:
        move = bot.choose(view, rng)
        return move, "a random card", []


BOTS = PebblesBots()


class PebblesPlay(TablePlay):
    """A game at a table: the defaults, and its bots think from the seat's view and legal moves."""

    def bot_view(self, seat: int) -> Any:
        state = self.table.state
        return {"view": state.view(seat).to_json(), "legal": state.legal_moves(seat)}


class PebblesServer(ServerGame):
    listing = Listing(title="Pebbles", levels=LEVELS, default_level="random", web=Path(__file__).parent / "web",
                      page="pebbles.js", bots=f"{__name__}:BOTS")

    def check_bot(self, game: str, level: str | None) -> None:
        if level not in LEVELS:
            raise LobbyError(f"a {game} bot seat plays at level random", 400, "lobby.bot-level", levels="random")

    def play(self, table: Table, extra: Any) -> TablePlay:
        return PebblesPlay(table)

    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        state = GAME.new(record.preset, record.options, seed=record.seed, deal=record.deal)
        steps: list[dict[str, Any]] = []
        shown = [state.show()]
        for move in record.moves:
            seat = state.engine.to_move
            state.apply(seat, move)
            steps.append({"seat": seat, "move": move})
            shown.append(state.show())
        return steps, shown


SERVER = PebblesServer()
