"""The layers hold at run time too (``make lint`` checks the imports as written: lint-imports and the
contracts in pyproject.toml): loading the table's core loads no web framework, database or event loop,
and loading the engine loads nothing above it."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spite
from spite.games import game_names, get_game


def loaded_by(module: str) -> set[str]:
    """Every module a fresh interpreter has loaded after importing ``module``."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(out.stdout))


def test_the_table_core_loads_no_web_framework_database_or_event_loop() -> None:
    loaded = {name.partition(".")[0] for name in loaded_by("spite.server.table.core")}
    assert not loaded & {"fastapi", "starlette", "uvicorn", "sqlalchemy", "asyncio", "websockets"}, loaded
    spite = {name for name in loaded_by("spite.server.table.core") if name.startswith("spite.server")}
    assert spite <= {"spite.server", "spite.server.config", "spite.server.protocol"} | {
        name for name in spite if name.startswith("spite.server.table")}, spite


UPPER_PARTS = ("server", "tui", "bots", "arena", "sim", "hint", "review", "rl", "web", "cli", "bench")
"""What a family brings to the layers above its engine: a module or subpackage named after the layer."""


@pytest.mark.parametrize("engine", ["spite.malice", "spite.malice.game", "spite.spit", "spite.spit.game"])
def test_an_engine_loads_nothing_above_it(engine: str) -> None:
    """Neither the shared layers above nor its own family's parts for them (its bots, screens, arena, ...)."""
    family = engine.split(".")[1]
    above = ("spite.bots", "spite.records", "spite.server", "spite.tui", "spite.arena", "spite.review",
             "spite.cli", "spite.web", "spite.sim", "spite.bench",
             *(f"spite.{family}.{part}" for part in UPPER_PARTS))
    loaded = loaded_by(engine)
    assert f"spite.{family}.state" in loaded or f"spite.{family}.table" in loaded
    assert not [m for m in loaded if m.startswith(above)]


# ---------------------------------------------------------------------- the shared layers name no game
SRC = Path(spite.__file__).parent

SHARED = ("tui", "arena", "bots", "review", "records", "rating", "catalogue.py", "web", "fairness.py", "cards.py",
          "errors.py", "server", "cli", "bench", "__main__.py")
"""The shared layers scanned here (under src/spite): they find a game through the registry, by name. The registry
itself (games.py) is where the names are written once."""

HISTORY = ("server/migrations/",)
"""What is history, not code that runs a game: an applied migration's text stays as it was (0002 added the column
that 0013 renamed ``game_data``)."""

WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def the_names() -> tuple[set[str], set[str], set[str]]:
    """Every registered game's name, every preset's, and each family's package (from the games' targets)."""
    games = set(game_names())
    presets = {preset for name in games for preset in get_game(name).presets}
    families = {type(get_game(name)).__module__.rsplit(".", 1)[0] for name in games}
    return games, presets, families


def named_in(source: str, games: set[str], presets: set[str], families: set[str]) -> list[str]:
    """Where the code of ``source`` names a game or a preset: a string that is a preset's name, a game's name as a
    word of a string or of an identifier (``spit_countdown``), a family's package in an import or a string
    (``"spite.malice.bots:REGISTERED"``). Docstrings and comments may give examples: they are not scanned."""
    tree = ast.parse(source)
    bodies = [body for node in ast.walk(tree) if isinstance(body := getattr(node, "body", None), list)]
    docstrings = {id(st.value) for body in bodies for st in body
                  if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)}
    found: list[str] = []

    def family_of(module: str) -> str | None:
        return next((f for f in families if module == f or module.startswith(f + ".")), None)

    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value.lower()
            if text in presets:
                found.append(f"{line}: the preset {node.value!r}")
            found += [f"{line}: the game {w!r} in {node.value!r}" for w in WORD.findall(text) if w in games]
            found += [f"{line}: {f} in {node.value!r}" for f in families if f in node.value]
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            found += [f"{line}: imports {m}" for m in modules if family_of(m)]
        ident = {ast.Name: "id", ast.Attribute: "attr", ast.FunctionDef: "name", ast.ClassDef: "name",
                 ast.arg: "arg", ast.keyword: "arg"}.get(type(node))  # type: ignore[call-overload]
        name = getattr(node, ident, None) if ident else None
        if isinstance(name, str):
            parts = {*name.lower().split("_"), name.lower().replace("_", "-")}
            found += [f"{line}: the game {g!r} in {name}" for g in games if g in parts]
    return found


def shared_files() -> list[Path]:
    files = (p for part in SHARED for p in ((SRC / part).rglob("*.py") if (SRC / part).is_dir() else [SRC / part]))
    return sorted(p for p in files if not str(p.relative_to(SRC)).startswith(HISTORY))


def test_the_scan_finds_a_game_or_preset_named_in_code() -> None:
    """The scan itself: each way of naming a game that the layers once had is found, and examples in docstrings
    and words that only contain a name are not."""
    names = the_names()
    assert named_in('preset = "classic"\n', *names) == ["1: the preset 'classic'"]
    assert named_in("if name == 'match':\n    pass\n", *names) == ["1: the preset 'match'"]
    assert named_in("def f(config):\n    return config.spit_countdown\n", *names) == [
        "2: the game 'spit' in spit_countdown"]
    assert named_in("from spite.malice.tui import words\n", *names) == ["1: imports spite.malice.tui"]
    assert named_in('hook = "spite.malice.bots:make"\n', *names) == ["1: spite.malice in 'spite.malice.bots:make'"]
    assert named_in('"""Spit and Speed, e.g. the classic preset."""\nkey = "rank.short.K"\nspite = 1\n', *names) == []


def test_no_shared_module_names_a_game_or_a_preset() -> None:
    """Issue 49: the shared layers name no game and no preset (they reach a game's parts through the registry)."""
    names = the_names()
    assert {"spite.malice", "spite.spit"} <= names[2]
    named = {str(p.relative_to(SRC)): named_in(p.read_text(encoding="utf-8"), *names) for p in shared_files()}
    assert len(named) > 80
    assert {"server/protocol.py", "server/table/core.py", "server/table/view.py", "cli/__init__.py", "bench/backup.py",
            "tui/link.py", "arena/runner.py", "review/__init__.py"} <= set(named)
    assert {p: found for p, found in named.items() if found} == {}


def test_the_engines_contract_names_every_engine_module() -> None:
    """A game family's package holds its engine and its server adapter (``server``): the contract that
    keeps the engine from importing the adapter (pyproject.toml) names each engine module, so a new
    one must be added there or this fails."""
    import pkgutil
    import tomllib
    from pathlib import Path

    import spite.malice
    import spite.spit

    pyproject = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    (engines,) = [c for c in contracts if c["name"].startswith("the engines are pure")]
    families = (spite.malice, spite.spit)
    modules = {pkg.__name__ for pkg in families} | {
        f"{pkg.__name__}.{info.name}" for pkg in families for info in pkgutil.iter_modules(pkg.__path__)
        if info.name not in UPPER_PARTS}
    assert set(engines["source_modules"]) == modules
    forbidden = set(engines["forbidden_modules"])
    assert {"spite.*.server", "spite.*.bots", "spite.*.tui", "spite.*.cli", "spite.*.bench", "spite.server",
            "spite.bots"} <= forbidden
