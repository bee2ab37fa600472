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


SHARED_EXEMPT = {
    # a Swiss tournament's number of rounds (the tournament's field "rounds", docs/protocol.md), not the preset
    # of that name
    "bench/club.py": {"rounds"},
    "bench/pairing.py": {"rounds"},
    "cli/bench.py": {"rounds"},
    "server/tournaments.py": {"rounds"},
}


def test_no_shared_module_names_a_game_or_a_preset() -> None:
    """Issue 49: the shared layers name no game and no preset (they reach a game's parts through the registry)."""
    names = the_names()
    assert {"spite.malice", "spite.spit"} <= names[2]
    named = {str(p.relative_to(SRC)): named_in(p.read_text(encoding="utf-8"), *names) for p in shared_files()}
    assert len(named) > 80
    assert {"server/protocol.py", "server/table/core.py", "server/table/view.py", "cli/__init__.py", "bench/backup.py",
            "tui/link.py", "arena/runner.py", "review/__init__.py"} <= set(named)
    named = {p: [f for f in found if not any(f.endswith(f"the preset {w!r}") for w in SHARED_EXEMPT.get(p, ()))]
             for p, found in named.items()}
    assert {p: found for p, found in named.items() if found} == {}


# ---------------------------------------------------------------------- the page's shared modules name no game
STATIC = SRC / "web" / "static"

PAGE_EXEMPT = {
    # Intl.DateTimeFormat's option (``timeStyle: "short"``): the word, not the preset of that name
    "rating-chart.js": {"short"},
    "stats.js": {"short"},
}
"""Strings of shared page modules that are a preset's name by chance, each with why."""

JS_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
REGEX_MAY_FOLLOW = set("(,=:[!&|?{};+-*%<>~^") | {"", "return", "typeof", "case", "in", "of", "void", "throw", "else"}


def js_parts(source: str, line: int = 1) -> list[tuple[int, str, str]]:
    """The strings (a template literal's text and a regular expression's too) and the identifiers of the
    JavaScript ``source``, each with its line; comments are left out (they may give examples). A template
    literal's ``${...}`` parts are code, read as such."""
    out: list[tuple[int, str, str]] = []
    i, n, last = 0, len(source), ""
    while i < n:
        c = source[i]
        if c.isspace():
            line += c == "\n"
            i += 1
        elif source.startswith("//", i):
            i = n if (end := source.find("\n", i)) < 0 else end
        elif source.startswith("/*", i):
            end = n if (end := source.find("*/", i + 2)) < 0 else end + 2
            line += source.count("\n", i, end)
            i = end
        elif c == "`":
            j, text = i + 1, ""
            while j < n and source[j] != "`":
                if source[j] == "\\":
                    text += source[j:j + 2]
                    j += 2
                elif source.startswith("${", j):  # code up to its closing brace
                    depth, k = 1, j + 2
                    while k < n and depth:
                        depth += {"{": 1, "}": -1}.get(source[k], 0)
                        k += 1
                    out += js_parts(source[j + 2:k - 1], line + source.count("\n", i, j))
                    text += " "
                    j = k
                else:
                    text += source[j]
                    j += 1
            out.append((line, "string", text))
            line += source.count("\n", i, j)
            i, last = j + 1, "string"
        elif c in "'\"" or (c == "/" and last in REGEX_MAY_FOLLOW):
            j, in_class = i + 1, False
            while j < n and (source[j] != c or in_class):
                if source[j] == "\\":
                    j += 1
                elif c == "/" and source[j] in "[]":
                    in_class = source[j] == "["
                j += 1
            out.append((line, "string", source[i + 1:j]))
            i, last = j + 1, "string"
        elif m := JS_IDENTIFIER.match(source, i):
            out.append((line, "identifier", m.group()))
            i, last = m.end(), m.group()
        else:
            i, last = i + 1, c
    return out


def _runs(words: list[str]) -> set[str]:
    """Every run of consecutive words joined by "-" (``["spite", "malice"]`` gives ``spite-malice``)."""
    return {"-".join(words[a:b]) for a in range(len(words)) for b in range(a + 1, len(words) + 1)}


def named_in_js(source: str, games: set[str], presets: set[str]) -> list[str]:
    """Where the JavaScript ``source`` names a game or a preset: a string that is a preset's name, a game's name
    as a word or a part of a hyphenated word of a string (``"spit"``, ``".spit-table"``,
    ``"tb_from_hand_speed"``), or as parts of an identifier (``spitCountdown``, ``spite_malice``)."""
    found: list[str] = []
    for line, kind, text in js_parts(source):
        if kind == "string":
            if text.lower() in presets:
                found.append(f"{line}: the preset {text!r}")
            words = {run for w in WORD.findall(text.lower()) for run in _runs(w.split("-"))}
            found += [f"{line}: the game {g!r} in {text[:60]!r}" for g in sorted(games & words)]
        else:
            parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", text)]
            found += [f"{line}: the game {g!r} in {text}" for g in sorted(games & _runs(parts))]
    return found


def test_the_page_scan_finds_a_game_or_preset_named_in_code() -> None:
    """The scan of the page's modules: each way a shared module once named a game is found; examples in
    comments are not."""
    games, presets, _ = the_names()
    assert named_in_js('const quick = (g) => (presetsOf(g).includes("short") ? "short" : d);', games, presets) == [
        "1: the preset 'short'", "1: the preset 'short'"]
    assert named_in_js('if (src.startsWith("H")) return t(game === "speed" ? "tb_from_hand_speed" : "x");',
                       games, presets) == ["1: the preset 'speed'", "1: the game 'speed' in 'speed'",
                                         "1: the game 'speed' in 'tb_from_hand_speed'"]
    assert named_in_js("api(`/api/ratings?group=${encodeURIComponent(group || 'classic')}`);", games, presets) == [
        "1: the preset 'classic'"]
    assert named_in_js('// the Spit table\nel.closest(".table, .spit-table");', games, presets) == [
        "2: the game 'spit' in '.table, .spit-table'"]
    assert named_in_js("const isSpit = 1; /* spite-malice */ const r = /^slap C(\\d+)$/;", games, presets) == [
        "1: the game 'spit' in isSpit"]
    assert named_in_js('const x = a / 2; const y = "/rules/spite-malice";', games, presets) == [
        "1: the game 'spite-malice' in '/rules/spite-malice'"]
    assert named_in_js('localStorage.getItem("spite.name"); // spit', games, presets) == []


def test_no_shared_page_module_names_a_game_or_a_preset() -> None:
    """Issue 49: the page's shared modules (src/spite/web/static: the shell, the lobby, the seat link, the
    replay, the rules page, ...) name no game and no preset: a game's page modules are in its family's own
    folder (``spite/FAMILY/web``), found through its game type (games.js)."""
    games, presets, _ = the_names()
    shared = sorted([*STATIC.glob("*.js"), STATIC / "index.html"])
    assert len(shared) > 25
    named = {}
    for path in shared:
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".html":  # the page itself: its text and attributes, read as one string
            source = json.dumps(re.sub(r"<!--.*?-->", "", source, flags=re.S))
        found = [f for f in named_in_js(source, games, presets)
                 if not any(f.endswith(f"the preset {w!r}") for w in PAGE_EXEMPT.get(path.name, ()))]
        if found:
            named[path.name] = found
    assert named == {}
    # a family's page folder is the only place of its modules: none is left among the shared ones
    for family in ("malice", "spit"):
        folder = SRC / family / "web"
        assert {p.name for p in folder.iterdir()} & {p.name for p in STATIC.iterdir()} == set(), family


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
