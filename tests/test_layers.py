"""The layers hold at run time too (``make lint`` checks the imports as written: lint-imports and the
contracts in pyproject.toml): loading the table's core loads no web framework, database or event loop,
and loading the engine loads nothing above it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


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


@pytest.mark.parametrize("engine", ["spite.malice", "spite.spit"])
def test_an_engine_loads_nothing_above_it(engine: str) -> None:
    above = ("spite.bots", "spite.records", "spite.server", "spite.tui", "spite.arena", "spite.rl", "spite.review",
             "spite.cli", "spite.web")
    assert not [m for m in loaded_by(engine) if m.startswith(above)]


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
        if info.name != "server"}
    assert set(engines["source_modules"]) == modules
    forbidden = set(engines["forbidden_modules"])
    assert {"spite.malice.server", "spite.spit.server", "spite.server", "spite.bots"} <= forbidden
