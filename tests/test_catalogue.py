"""The message catalogue (the shared ``web/static/messages/en.json``, ``de.json`` and each game family's
``words/en.json``, ``de.json``, merged), shared by the page and the terminal app: both languages say
every message with the same parameters, and every message the engine, the bots and the server can
send (collected from the source) is in it with the parameters the code passes. A key one family
alone uses lives in its words, not the shared ones."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

import pytest

from spite import catalogue
from spite.catalogue import PLACEHOLDER, placeholders, text, word
from spite.errors import IllegalMoveError, Phrase
from spite.games import game_names, get_game
from spite.server.config import BOT_LEVELS
from spite.server.protocol import ErrorCode, TableEvent

SRC = Path(__file__).resolve().parents[1] / "src" / "spite"
FORMS = {"card", "a", "acc", "none", "ranks", "seat", "level", "bot", "player", "preset", "status"}


def test_both_languages_have_the_same_keys_and_parameters() -> None:
    en, de = catalogue.catalogue("en"), catalogue.catalogue("de")
    assert sorted(set(en) ^ set(de)) == []
    for key in en:
        assert type(en[key]) is type(de[key]), key
        if isinstance(en[key], dict):
            assert isinstance(de[key], dict)
            assert set(en[key]) == set(de[key]) == {"one", "other"}, key
        assert placeholders(en[key]) == placeholders(de[key]), key
        forms = {m.group(2) for f in ([en[key]] if isinstance(en[key], str) else en[key].values())
                 for m in PLACEHOLDER.finditer(f) if m.group(2)}
        assert forms <= FORMS, (key, forms - FORMS)


def test_no_message_is_empty() -> None:
    for lang in catalogue.LANGUAGES:
        for key, entry in catalogue.catalogue(lang).items():
            forms = entry.values() if isinstance(entry, dict) else [entry]
            assert all(f.strip() for f in forms), (lang, key)


def _calls() -> list[tuple[Path, int, str, set[str] | None]]:
    """Every phrase the source makes (``Phrase``, ``refusal``, a lobby error's, a table event's):
    (file, line, key pattern, keyword parameters or None when they are not written out). A key made
    by an f-string becomes a regular expression."""
    found: list[tuple[Path, int, str, set[str] | None]] = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name == "Phrase" and node.args:
                key, params = node.args[0], None
                if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                    params = {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
                elif len(node.args) == 1:
                    params = set()
            elif name == "refusal" and len(node.args) >= 2:
                key = node.args[1]
                params = {k.arg for k in node.keywords if k.arg is not None}
                if any(k.arg is None for k in node.keywords):
                    params = None
            elif name in ("LobbyError", "ModerationError") and len(node.args) >= 3:
                key = node.args[2]
                params = {k.arg for k in node.keywords if k.arg is not None}
            elif name == "tell" and len(node.args) >= 3:
                kind = node.args[0]
                if not isinstance(kind, ast.Constant):
                    continue
                key = ast.Constant(f"event.{kind.value}")
                params = {k.arg for k in node.keywords if k.arg is not None}
            else:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                pattern = re.escape(key.value)
            elif isinstance(key, ast.JoinedStr):
                pattern = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else r"[\w.-]+" for v in key.values)
                params = None if params is None or not isinstance(key, ast.Constant) else params
            else:
                continue
            found.append((path, node.lineno, pattern, params))
    return found


def test_every_message_the_code_makes_is_in_the_catalogue_with_its_parameters() -> None:
    calls = _calls()
    assert len(calls) > 80  # the engine's refusals, the bots' reasons, the server's errors and events
    keys = set(catalogue.catalogue("en"))
    missing, wrong = [], []
    for path, line, pattern, params in calls:
        matching = [k for k in keys if re.fullmatch(pattern, k)]
        where = f"{path.relative_to(SRC)}:{line}"
        if not matching:
            missing.append(f"{where} {pattern}")
        elif params is not None and len(matching) == 1:
            wanted = placeholders(catalogue.catalogue("en")[matching[0]])
            if not wanted <= params:  # a text may leave out a parameter (a seat), never use one not given
                wrong.append(f"{where} {matching[0]}: the code passes {sorted(params)}, "
                             f"the text uses {sorted(wanted)}")
    assert missing == []
    assert wrong == []


def test_the_keys_made_from_names_are_all_there() -> None:
    """Keys built at run time: every error code, table event, table state, preset and level."""
    keys = set(catalogue.catalogue("en"))
    wanted = {f"error.{code}" for code in get_args(ErrorCode)}
    wanted |= {f"event.{kind}" for kind in get_args(TableEvent.model_fields["kind"].annotation)}
    wanted |= {f"table_status_{s}" for s in ("open", "playing", "finished", "abandoned")}
    wanted |= {f"preset.{p}" for g in game_names() for p in get_game(g).presets}
    wanted |= {f"game.{g}" for g in game_names()}  # the page words a game type's name by it (games.js)
    wanted |= {f"lv_{lv}" for lv in (*BOT_LEVELS, "beginner", "club", "expert")}
    wanted |= {f"error.no-{kind}" for kind in ("hint", "undo", "next")}
    wanted |= {f"refuse.spit.nothing-to-flip.{pile}" for pile in ("spit", "side-pile")}
    assert sorted(wanted - keys) == []
    # error.CODE is what a frame without its own words is worded as: it takes no parameters
    assert [c for c in get_args(ErrorCode) if placeholders(catalogue.catalogue("en")[f"error.{c}"])] == []


def test_a_refusal_is_worded_in_german_with_cards_and_articles() -> None:
    from spite.malice import Options, State

    state = State.new(Options.from_preset("short"), seed=3)
    with pytest.raises(IllegalMoveError) as refused:
        state.play("S-B1")
    assert str(refused.value) == "your stock card 3D cannot go on build pile 1, it needs an Ace"
    phrase = refused.value.phrase
    assert phrase == Phrase("refuse.needs.stock", {"card": "3D", "pile": 1, "need": "A"})
    assert word("en", phrase) == "your stock card 3♦ cannot go on build pile 1, it needs an Ace"
    assert word("de", phrase) == "deine Vorratskarte 3♦ passt nicht auf Mittelstapel 1, er braucht ein Ass"
    assert text("de", "refuse.not-in-hand", rank="J") == "du hast keinen Buben im Blatt"
    assert text("de", "refuse.needs.hand", rank="7", pile=2, need="K") == \
        "eine 7 passt nicht auf Mittelstapel 2, er braucht einen König"
    assert text("de", "refuse.no-blocking.hand", rank="Q").endswith(
        "solange eine Dame aus deinem Blatt gespielt werden kann")


def test_an_unknown_key_falls_back_to_the_english_line() -> None:
    assert word("de", Phrase("refuse.from-a-newer-server", {"x": 1}), "the English line") == "the English line"
    assert text("de", "no.such.key") == "no.such.key"


def test_plurals_and_seats() -> None:
    assert text("en", "stock_left", name="Ben", n=1) == "Ben: 1 stock card left"
    assert text("en", "stock_left", name="Ben", n=3) == "Ben: 3 stock cards left"
    assert text("de", "event.next-game", game=2, name="bot:medium", seat=1) == \
        "Spiel 2 des Matches beginnt: Computer (mittel) (Platz 2) fängt an"


def test_each_family_brings_its_own_words_through_the_registry() -> None:
    """A family's words live in its package (``words/en.json``, ``de.json``, its ``words`` hook) and are
    merged into the catalogue the terminal app, the server and the page word with."""
    folders = catalogue.word_folders()
    assert [f.relative_to(SRC).as_posix() for f in folders] == ["malice/words", "spit/words"]
    for lang in catalogue.LANGUAGES:
        merged, shared = catalogue.catalogue(lang), catalogue.shared(lang)
        own = [catalogue.family_words(f, lang) for f in folders]
        assert all(len(words) > 50 for words in own)
        assert len(merged) == len(shared) + sum(len(words) for words in own)
    assert "tb_mv_spit" in catalogue.catalogue("en") and "tb_mv_spit" not in catalogue.shared("en")
    # keys the code builds (an end reason, an engine code, a footer's binding) are a family's, and merged as before
    assert "reason_blocked" in catalogue.family_words(folders[0], "de") and "tui.key_slap" in catalogue.family_words(
        folders[1], "en")
    assert text("de", "reason_blocked") == "niemand konnte spielen" and text("en", "reason_time").startswith("the time")
    assert text("de", "refuse.nothing-to-undo") != "refuse.nothing-to-undo"


CLASHING = SRC
"""The words folder of the clashing game below (set by the test)."""


def test_a_familys_key_may_not_clash_with_a_shared_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    import sys

    import spite.games as games

    (tmp_path / "en.json").write_text(json.dumps({"clash.own": "mine", "hint": "Tip"}), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "CLASHING", tmp_path)
    monkeypatch.setattr(games, "_REGISTRY", dict(games._REGISTRY))
    games.register("clashing", "no.such:GAME", words=f"{__name__}:CLASHING")
    with pytest.raises(ValueError, match="'hint' is already in the shared catalogue"):
        catalogue.catalogue("en")
    (tmp_path / "en.json").write_text(json.dumps({"clash.own": "mine", "tb_mv_spit": "spits"}), encoding="utf-8")
    catalogue._family.cache_clear()
    with pytest.raises(ValueError, match=r"'tb_mv_spit' is already in .*spit/words/en\.json"):
        catalogue.catalogue("en")
    (tmp_path / "en.json").write_text(json.dumps({"clash.own": "mine"}), encoding="utf-8")
    catalogue._family.cache_clear()
    assert text("en", "clash.own") == "mine"
    assert text("de", "clash.own") == "clash.own"  # no de.json: no German words
    catalogue._family.cache_clear()


VARIANTS = (".one", ".other", "_one", "_on", "_off")
"""Endings of a key's variants: a plural's form (``tui.stock_left_one`` is the one of ``stock_left``), a
switch's state (``tb_notation_on``). Code that names a variant uses its stem, and the other way round."""

FAMILY_CODES = ("reason_", "tb_option.")
"""Prefixes a shared module puts before a code a game hands it (how a game ended, an option's name): the key
is the family's whose code it is, even where a shared word is spelt the same (a tournament's "rounds", a
forfeit's why "time")."""

SHARED_VOCABULARY = ("rank.", "rank_", "suit.", "suit_", "card.", "card_", "lv_", "keyname_", "tui.keyname_")
"""The cards (:mod:`spite.cards`), the computer levels and the keyboard's keys: the shared layers word them
for every family, whichever family happens to name one."""

_WORD = re.compile(r"[\w.-]+")
_PREFIX = re.compile(r"[\w.-]*\w[._]")


@dataclass
class _Uses:
    """What source files say about keys: the words they name in quotes, the prefixes of the keys they
    build at run time (``f"refuse.needs.{source}"``, `` `reason_${r.reason}` ``, ``"key_" + action``) and
    the actions of their key bindings (a footer words one as ``tui.key_ACTION``)."""

    named: set[str] = field(default_factory=set)
    built: set[str] = field(default_factory=set)
    actions: set[str] = field(default_factory=set)

    def add(self, named: Iterable[str], built: Iterable[str]) -> None:
        self.named |= {part for word in named for part in word.split(",") if _WORD.fullmatch(part)}
        self.built |= {prefix for prefix in built if _PREFIX.fullmatch(prefix)}


def _call_name(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def _head(node: ast.AST) -> str | None:
    """The text a string built at run time starts with (an f-string's, ``"prefix" + name``'s)."""
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return node.left.value
    return None


def _python_uses(source: str, uses: _Uses) -> None:
    """A Python file's strings (not its docstrings: their examples are no use), the heads of the strings it
    builds, a key binding's action (``Binding("q", "app.quit")``: ``quit``, as ``translate_bindings`` takes
    it) and, as the terminal's ``tr`` and ``has_text`` look ``KEY`` up as ``tui.KEY`` first, ``tui.`` + what
    they are handed."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    named: set[str] = set()
    built: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            named.add(node.value)
        elif (head := _head(node)) is not None:
            built.add(head)
        if not isinstance(node, ast.Call):
            continue
        if _call_name(node) == "Binding" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            uses.actions.add(str(node.args[1].value).rsplit(".", 1)[-1])
        key = node.args[1] if _call_name(node) == "tr" and len(node.args) > 1 else \
            node.args[0] if _call_name(node) == "has_text" and node.args else None
        for part in ast.walk(key) if key is not None else ():
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                named.add(f"tui.{part.value}")
            elif (head := _head(part)) is not None:
                built.add(f"tui.{head}")
    uses.add(named, built)


def _script_uses(source: str, uses: _Uses) -> None:
    """A script's or page's words in quotes (not in its comments) and the heads of its template strings
    (`` `reason_${r.reason}` ``) and of strings joined with ``+``."""
    source = re.sub(r"/\*.*?\*/|<!--.*?-->", "", source, flags=re.S)
    source = re.sub(r"(?m)^\s*//.*$", "", source)
    uses.add(re.findall(r"""["'`]([\w.,-]+)["'`]""", source),
             re.findall(r"`([\w.-]+)\$\{", source) + re.findall(r"""["'`]([\w.-]+)["'`]\s*\+""", source))


def _uses_in(paths: Iterable[Path]) -> _Uses:
    """What the source files among ``paths`` (.py, .js, .html) say about keys."""
    uses = _Uses()
    for path in paths:
        if path.suffix == ".py" and path.is_file():
            _python_uses(path.read_text(encoding="utf-8"), uses)
        elif path.suffix in (".js", ".html") and path.is_file():
            _script_uses(path.read_text(encoding="utf-8"), uses)
    return uses


def _used(key: str, uses: _Uses, prefixes: Iterable[str]) -> bool:
    """True when ``key`` is used by code that says ``uses`` and whose keys are built from ``prefixes``: named
    whole, as a variant's stem or a variant, or as PREFIX + NAME (a binding's action after ``key_``)."""
    stems = {key, *(key.removesuffix(v) for v in VARIANTS if key.endswith(v)), *(key + v for v in VARIANTS)}
    return bool(stems & uses.named) or any(
        key.startswith(p) and key[len(p):] in (uses.actions if p.removeprefix("tui.") == "key_" else uses.named)
        for p in prefixes)


def test_the_key_finder_sees_keys_built_at_run_time() -> None:
    uses = _Uses()
    _python_uses('''"""A docstring naming "doc_only"."""
BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("enter,space", "go", "Go")]
def draw(t, left, source, reason):
    tr(t, "stock_left_one" if left == 1 else "stock_left", n=left)
    has_text("reason_" + reason)
    return Phrase(f"refuse.needs.{source}"), "hand"
''', uses)
    _script_uses('// t("in_a_comment")\nconst r = t(`reason_${r.reason}`) + t("sp_x", { n: 1 });\n', uses)
    assert {"enter", "space", "hand", "tui.stock_left_one", "tui.stock_left", "sp_x"} <= uses.named
    assert {"doc_only", "in_a_comment"}.isdisjoint(uses.named)
    assert {"refuse.needs.", "reason_", "tui.reason_"} <= uses.built
    assert uses.actions == {"quit", "go"}
    assert _used("tui.key_quit", uses, ["tui.key_"]) and not _used("tui.key_hand", uses, ["tui.key_"])
    assert _used("tui.stock_left", uses, []) and _used("refuse.needs.hand", uses, uses.built)
    assert not _used("refuse.needs.stock", uses, uses.built)  # "stock" is named nowhere in this source
    assert _used("tb_notation", _Uses({"tb_notation_on"}), []) and not _used("tb_notation", _Uses({"tb_notes"}), [])


def test_the_shared_words_hold_no_key_of_one_family_only() -> None:
    """A shared key that exactly one family's source uses and no shared module does lives in that family's
    words; so do its games' names and their presets' (the shared modules word them by name: ``game.NAME``,
    ``preset.NAME``).

    Source "uses" a key (:func:`_uses_in`, :func:`_used`) when it names it whole in quotes (docstrings and
    comments aside; a terminal ``tr(lang, "KEY")`` or ``has_text("KEY")`` names ``tui.KEY`` too), or names a
    variant's stem or a variant (:data:`VARIANTS`: ``stock_left_one``, ``tb_notation_on``), or the key is
    PREFIX + NAME where PREFIX is what the family itself or a shared module builds keys from at run time
    (``f"refuse.needs.{source}"``, `` `tb_${w.key}` ``, ``tr(lang, "reason_" + reason)``, the footers'
    ``"key_" + action``, store.js' ``tb_option.${name}``) and NAME a word the family names in quotes (a pile,
    a hint's key, an end reason, an option) or, after ``key_``, the action of one of its key bindings
    (the shared screens' and Textual's own ``quit``). The shared modules use PREFIX + NAME only for
    a NAME they name themselves, and for a game's codes (:data:`FAMILY_CODES`) only one no family names;
    a game's name in a shared module (the registry) is no use of a key. The shared layers' vocabulary
    (:data:`SHARED_VOCABULARY`) stays shared."""
    from textual.app import App
    from textual.binding import Binding

    families = {f.parent.name: _uses_in(f.parent.rglob("*")) for f in catalogue.word_folders()}
    in_shared = _uses_in(p for p in SRC.rglob("*") if p.relative_to(SRC).parts[0] not in families)
    in_shared.named -= set(game_names())
    in_shared.actions |= {b.action if isinstance(b, Binding) else b[1] for b in App.BINDINGS}  # Textual's quit
    family_named = set().union(*(uses.named for uses in families.values()))
    codes = {p for p in in_shared.built if p.removeprefix("tui.") in FAMILY_CODES}
    not_a_familys = _Uses(in_shared.named - family_named, actions=in_shared.actions)

    def shared_uses(key: str) -> bool:
        return _used(key, in_shared, in_shared.built - codes) or _used(key, not_a_familys, codes)

    shared = set(catalogue.shared("en"))
    candidates = [k for k in catalogue.shared("en") if not k.startswith(SHARED_VOCABULARY) and not shared_uses(k)]
    users = {k: [f for f, uses in families.items() if _used(k, uses, uses.built | in_shared.built)]
             for k in candidates}
    only = {family: [k for k in candidates if users[k] == [family]] for family in families}
    assert only == {family: [] for family in families}, f"used by one family alone, yet in the shared words: {only}"
    # Spit's own prefixes (its page's sp_ and tb_sp_, its refusals), whether its source names the key whole or not
    assert sorted(k for k in shared if k.startswith(("sp_", "tb_sp_", "refuse.spit.", "refuse.speed."))) == []
    by_name = {f"game.{g}" for g in game_names()} | {f"game_blurb.{g}" for g in game_names()}
    by_name |= {f"preset.{p}" for g in game_names() for p in get_game(g).presets}
    assert sorted(by_name & shared) == []
    # at least: no game's move words (a pass is Spite and Malice's, a call and a slap are Spit's)
    assert sorted(k for k in shared if re.search(r"(^|[._])mv_", k)) == []

