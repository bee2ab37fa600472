"""The page's words: every key once in the message catalogue (the shared ``messages/en.json``,
``de.json`` and each game family's own ``words/en.json``, ``de.json``, all shared with the terminal
app), with a text in both languages, every key the page's scripts (the shared ones and each family's
``web/``) ask for by name is there, and none is left in ``i18n.js``'s old ``TEXTS``. A key defined twice silently
drops the first text: the Spit prompt "Play! …" was never shown because the start banner "Spit!"
reused its key."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from spite.catalogue import word_folders

STATIC = Path(__file__).resolve().parents[2] / "src" / "spite" / "web" / "static"
FOLDERS = (STATIC / "messages", *word_folders())
"""The shared words' folder and each family's."""


def keys_in(path: Path) -> list[str]:
    pairs: list[tuple[str, object]] = []
    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=lambda p: pairs.extend(p) or dict(p))
    return [k for k, v in pairs if not isinstance(v, str) or k not in ("one", "other")]


def keys_of(lang: str) -> list[str]:
    """Every key of ``lang``, the shared words' and every family's (a key twice when two files hold it)."""
    return [k for folder in FOLDERS for k in keys_in(folder / f"{lang}.json")]


def test_every_key_once_in_both_languages() -> None:
    assert len(FOLDERS) == 3  # the shared words, Spite and Malice's, Spit's
    for folder in FOLDERS:
        for lang in ("en", "de"):
            twice = sorted(k for k, n in Counter(keys_in(folder / f"{lang}.json")).items() if n > 1)
            assert twice == [], f"keys defined more than once in {folder}/{lang}.json: {twice}"
        assert sorted(set(keys_in(folder / "en.json")) ^ set(keys_in(folder / "de.json"))) == [], folder
    for lang in ("en", "de"):
        twice = sorted(k for k, n in Counter(keys_of(lang)).items() if n > 1)
        assert twice == [], f"keys in both the shared words and a family's, or in two families': {twice}"


def test_no_key_is_left_in_i18n_js() -> None:
    """A key a branch added to i18n.js's TEXTS belongs in the catalogue: ``python tools/move_i18n_keys.py``."""
    js = (STATIC / "i18n.js").read_text(encoding="utf-8")
    start = js.index("const TEXTS = {") + len("const TEXTS = {")
    left = re.sub(r"//[^\n]*", "", js[start:js.index("\n};", start)]).strip()
    assert left == "", "run python tools/move_i18n_keys.py"


def test_every_key_asked_for_by_name_is_there() -> None:
    keys = set(keys_of("en"))
    used: set[str] = set()
    scripts = [*STATIC.glob("*.js"), *(js for folder in FOLDERS[1:] for js in (folder.parent / "web").glob("*.js"))]
    assert len(scripts) > len(list(STATIC.glob("*.js")))
    for js in scripts:
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


def test_the_page_gets_the_merged_catalogue_at_the_shared_words_address() -> None:
    """i18n.js loads ``messages/{lang}.json``; the server answers with the shared words and every family's."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from spite.catalogue import catalogue
    from spite.web import install

    app = FastAPI()
    install(app, {}, catalogue)
    client = TestClient(app)
    for lang in ("en", "de"):
        answer = client.get(f"/static/messages/{lang}.json")
        assert answer.status_code == 200
        assert answer.json() == catalogue(lang)
        assert "tb_mv_spit" in answer.json() and "refuse.nothing-to-undo" in answer.json()
        again = client.get(f"/static/messages/{lang}.json", headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304
    assert client.get("/static/messages/fr.json").status_code == 404
    assert client.get("/static/i18n.js").status_code == 200
