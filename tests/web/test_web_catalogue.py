"""The page's words: every key once in the message catalogue (``messages/en.json``, ``de.json``,
shared with the terminal app), with a text in both languages, every key the page's scripts ask for
by name is there, and none is left in ``i18n.js``'s old ``TEXTS``. A key defined twice silently
drops the first text: the Spit prompt "Play! …" was never shown because the start banner "Spit!"
reused its key."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "spite" / "web" / "static"


def keys_of(lang: str) -> list[str]:
    pairs: list[tuple[str, object]] = []
    json.loads((STATIC / "messages" / f"{lang}.json").read_text(encoding="utf-8"),
               object_pairs_hook=lambda p: pairs.extend(p) or dict(p))
    return [k for k, v in pairs if not isinstance(v, str) or k not in ("one", "other")]


def test_every_key_once_in_both_languages() -> None:
    for lang in ("en", "de"):
        twice = sorted(k for k, n in Counter(keys_of(lang)).items() if n > 1)
        assert twice == [], f"keys defined more than once in messages/{lang}.json: {twice}"
    assert sorted(set(keys_of("en")) ^ set(keys_of("de"))) == []


def test_no_key_is_left_in_i18n_js() -> None:
    """A key a branch added to i18n.js's TEXTS belongs in the catalogue: ``python tools/move_i18n_keys.py``."""
    js = (STATIC / "i18n.js").read_text(encoding="utf-8")
    start = js.index("const TEXTS = {") + len("const TEXTS = {")
    left = re.sub(r"//[^\n]*", "", js[start:js.index("\n};", start)]).strip()
    assert left == "", "run python tools/move_i18n_keys.py"


def test_every_key_asked_for_by_name_is_there() -> None:
    keys = set(keys_of("en"))
    used: set[str] = set()
    for js in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.-]+)"', js.read_text(encoding="utf-8")))
    assert sorted(used - keys) == []


def test_keys_left_in_i18n_js_are_moved_into_the_catalogue(tmp_path: Path) -> None:
    """What the lead runs after merging a branch that added keys the old way."""
    import shutil
    import sys

    sys.path.insert(0, str(STATIC.parents[3] / "tools"))
    from move_i18n_keys import main

    shutil.copytree(STATIC / "messages", tmp_path / "messages")
    tui = tmp_path / "tui_i18n.py"
    tui_source = (STATIC.parents[1] / "tui" / "i18n.py").read_text(encoding="utf-8")
    empty = "_TEXTS: Final[dict[str, tuple[str, str]]] = {\n}"
    entry = '\n    "moved_test_keys": ("1-5 a card"\n        " · Space spit", "1-5 eine Karte · Leertaste Spit"),'
    tui.write_text(tui_source.replace(empty, empty[:-1] + entry + "\n}"), encoding="utf-8")
    js = (STATIC / "i18n.js").read_text(encoding="utf-8")
    added = ('const TEXTS = {\n  // sound\n  moved_test_sound: ["Sound on", "Ton an"], // the toggle\n'
             '  "moved-test-speed": ["Animation speed: {s}",\n    "Tempo der Animationen: {s}"],\n};')
    (tmp_path / "i18n.js").write_text(js.replace("const TEXTS = {\n};", added), encoding="utf-8")
    assert main(tmp_path, tui) == 0
    en = json.loads((tmp_path / "messages" / "en.json").read_text(encoding="utf-8"))
    de = json.loads((tmp_path / "messages" / "de.json").read_text(encoding="utf-8"))
    assert (en["moved_test_sound"], de["moved_test_sound"]) == ("Sound on", "Ton an")
    assert de["moved-test-speed"] == "Tempo der Animationen: {s}"
    assert "const TEXTS = {\n};" in (tmp_path / "i18n.js").read_text(encoding="utf-8")
    assert en["tui.moved_test_keys"] == "1-5 a card · Space spit"
    assert de["tui.moved_test_keys"] == "1-5 eine Karte · Leertaste Spit"
    assert empty in tui.read_text(encoding="utf-8")
    # a key the catalogue has with another text is not overwritten
    clash = 'const TEXTS = {\n  hint: ["Tip", "Tipp"],\n};'
    (tmp_path / "i18n.js").write_text(js.replace("const TEXTS = {\n};", clash), encoding="utf-8")
    assert main(tmp_path, tui) == 1
    assert json.loads((tmp_path / "messages" / "en.json").read_text(encoding="utf-8"))["hint"] == "Hint"
