"""The page's word catalogue (``i18n.js``): every key once, each with its English and German text,
and every key the page's scripts ask for by name is there. A key defined twice silently drops the
first text (a JavaScript object literal keeps the last): the Spit prompt "Play! …" was never
shown because the start banner "Spit!" reused its key."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "spite" / "web" / "static"
# an entry of TEXTS: two spaces, the key (bare or quoted), a colon and the [English, German] list
ENTRY = re.compile(r'^  (?:"([\w-]+)"|(\w+)): \[\s*("(?:[^"\\]|\\.)*")\s*,\s*("(?:[^"\\]|\\.)*")\s*,?\s*\],?$',
                   re.MULTILINE)
KEY = re.compile(r'^  (?:"([\w-]+)"|(\w+)): \[', re.MULTILINE)


def catalogue() -> str:
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    return text[text.index("const TEXTS = {"):text.index("\n};", text.index("const TEXTS = {"))]


def test_every_key_once_with_english_and_german() -> None:
    body = catalogue()
    keys = [a or b for a, b in KEY.findall(body)]
    twice = sorted(k for k, n in Counter(keys).items() if n > 1)
    assert twice == [], f"keys defined more than once in i18n.js: {twice}"
    entries = {a or b: (en, de) for a, b, en, de in ENTRY.findall(body)}
    assert sorted(entries) == sorted(keys), sorted(set(keys) - set(entries))
    empty = sorted(k for k, (en, de) in entries.items() if en == '""' or de == '""')
    assert empty == [], f"entries without a text: {empty}"


def test_every_key_asked_for_by_name_is_there() -> None:
    keys = {a or b for a, b in KEY.findall(catalogue())}
    used: set[str] = set()
    for js in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("([\w-]+)"', js.read_text(encoding="utf-8")))
    assert sorted(used - keys) == []
