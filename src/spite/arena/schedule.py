"""Which bot sits where in which game: seat rotation and duplicate deals.

Every deal is played once per rotation of the seating, so each bot plays each deal from each
seat (two players: the same cards with the seats swapped). With ``k`` bots on ``n`` seats (``k``
divides ``n``) seat ``s`` of rotation ``r`` holds bot ``(s + r) % k``; with partnerships and two
bots each bot is a team, with four bots bots 0 and 2 are partners against 1 and 3.

>>> games = schedule(2, players=2, games=4, seed=1)
>>> [(g.deal, g.rotation, g.seats) for g in games]
[(0, 0, (0, 1)), (0, 1, (1, 0)), (1, 0, (0, 1)), (1, 1, (1, 0))]
>>> games[0].seed == games[1].seed != games[2].seed
True
>>> [g.seats for g in schedule(3, players=3, games=3, seed=1)]
[(0, 1, 2), (1, 2, 0), (2, 0, 1)]
>>> [g.seats for g in schedule(2, players=4, games=2, seed=1)]
[(0, 1, 0, 1), (1, 0, 1, 0)]
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from spite.errors import OptionsError

__all__ = ["GameSpec", "bot_names", "check_lineup", "deal_seed", "game_count", "schedule"]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a tournament: its number, its deal, the rotation, and the bot in each seat."""

    index: int
    """0-based game number (the order of the schedule; results are reported in this order)."""
    deal: int
    """0-based deal number: games with the same deal start from exactly the same cards."""
    rotation: int
    """Which rotation of the seating this game is (0 .. bots-1)."""
    seed: int
    """The engine seed of the deal (``State.new(opts, seed)``)."""
    seats: tuple[int, ...]
    """``seats[s]``: the index (into the tournament's bot list) of the bot in seat ``s``."""


def check_lineup(n_bots: int, players: int) -> None:
    """Raise :class:`OptionsError` unless ``n_bots`` bots can share ``players`` seats evenly."""
    if n_bots < 2:
        raise OptionsError(f"a tournament needs at least 2 bots, not {n_bots}")
    fits = [k for k in range(2, players + 1) if players % k == 0]
    if n_bots not in fits:
        allowed = " or ".join(str(k) for k in fits)
        raise OptionsError(
            f"{n_bots} bots cannot share {players} seats evenly: give {allowed} bots for {players} players")


def deal_seed(seed: int, deal: int) -> int:
    """The engine seed of deal number ``deal`` of a tournament with seed ``seed`` (stable everywhere)."""
    digest = hashlib.sha256(f"spite-arena/{seed}/deal/{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def game_count(games: int, n_bots: int) -> int:
    """``games`` rounded up to whole deals (each deal is played once per rotation: ``n_bots`` times)."""
    return -(-games // n_bots) * n_bots


def schedule(n_bots: int, *, players: int, games: int, seed: int) -> list[GameSpec]:
    """The games of a tournament: ``games`` rounded up to whole deals, each deal in every rotation."""
    check_lineup(n_bots, players)
    if games < 1:
        raise OptionsError(f"--games must be at least 1, not {games}")
    out: list[GameSpec] = []
    for deal in range(game_count(games, n_bots) // n_bots):
        ds = deal_seed(seed, deal)
        for rot in range(n_bots):
            seats = tuple((s + rot) % n_bots for s in range(players))
            out.append(GameSpec(len(out), deal, rot, ds, seats))
    return out


def bot_names(specs: list[str] | tuple[str, ...]) -> list[str]:
    """Display names: the spec itself, with ``#2``, ``#3`` … for repeats.

    >>> bot_names(["greedy", "random", "greedy"])
    ['greedy', 'random', 'greedy#2']
    """
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return names
