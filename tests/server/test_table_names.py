"""The table's core knows no game: no module of ``spite.server.table`` names a registered game, a
preset or a game's title (the words a user would see if the core branched on which game it is).
Words that are also the generic ones a table uses (a ``match`` of games in a row, a ``short`` pause,
``rounds``, a ``timed`` wait, ``partners`` on one side) are left out: any other preset named in the
core fails here, as a part of a name too (``spit_countdown``)."""

from __future__ import annotations

import re
from pathlib import Path

import spite.server.table
from spite.games import game_names, get_game, has_hook, load_hook

GENERIC = {"match", "short", "rounds", "timed", "partners"}


def names() -> set[str]:
    out: set[str] = set()
    for game in game_names():
        out.add(game)
        out |= set(get_game(game).presets)
        if has_hook(game, "server"):
            out.add(load_hook(game, "server").listing.title)
    return {name.lower() for name in out} - GENERIC


def test_no_module_of_the_table_core_names_a_game_or_a_preset() -> None:
    found = []
    for path in sorted(Path(spite.server.table.__file__).parent.glob("*.py")):
        text = path.read_text(encoding="utf-8").lower()
        for name in names():
            for hit in re.finditer(rf"(?<![a-z0-9-]){re.escape(name)}(?![a-z0-9-])", text):
                line = text.count("\n", 0, hit.start()) + 1
                found.append(f"{path.name}:{line}: {name}")
    assert not found, "the table's core names a game: " + ", ".join(found)
