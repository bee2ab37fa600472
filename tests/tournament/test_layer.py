"""The tournaments' core holds its layer at run time: loading it loads no game family, bot, server or
interface of the project, and no web framework, database or event loop (the import contract in
pyproject.toml checks the imports as written)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_loading_the_tournament_state_loads_nothing_above_or_beside_it() -> None:
    code = "import json, sys, spite.tournament.state; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(json.loads(out.stdout))
    ours = {name for name in loaded if name.startswith("spite.")}
    assert ours <= {f"spite.tournament.{m}" for m in ("arena", "deals", "standings", "state", "swiss")} | {
        "spite.tournament", "spite.games", "spite.errors", "spite.rating", "spite.fairness"}, ours
    tops = {name.partition(".")[0] for name in loaded}
    assert not tops & {"fastapi", "starlette", "uvicorn", "sqlalchemy", "asyncio", "websockets", "textual"}


def test_verifying_a_record_does_not_load_the_pairing() -> None:
    code = "import json, sys, spite.tournament.deals; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert "networkx" not in {name.partition(".")[0] for name in json.loads(out.stdout)}
