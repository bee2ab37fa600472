"""Move the keys left in ``i18n.js``'s ``TEXTS`` and in the terminal app's ``_TEXTS`` (any module of
``src/spite/tui`` that has one: ``i18n.py``, ``remote_screen.py``) into the message catalogue
(``messages/en.json``, ``messages/de.json``), then empty them.

The page's and the terminal app's words live in the catalogue they share. A branch made before the
catalogue moved there adds keys to ``TEXTS`` as ``key: ["English", "Deutsch"],`` (they keep their
key) or to ``_TEXTS`` as ``"key": ("English", "Deutsch"),`` (they become ``tui.key``); after merging
it, run ``python tools/move_i18n_keys.py`` from the repository's root. A key that is already in the
catalogue with another text is an error (nothing is written): rename one of them.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "src" / "spite" / "web" / "static"
TUI = STATIC.parents[1] / "tui"
STRING = r'("(?:[^"\\]|\\.)*")'
ENTRY = re.compile(r'\s*(?:"([\w.-]+)"|([\w]+))\s*:\s*\[\s*' + STRING + r'\s*,\s*' + STRING + r'\s*,?\s*\]\s*,?')
COMMENT = re.compile(r"\s*//[^\n]*")


def tui_keys(tui: Path) -> tuple[list[tuple[str, str, str]], str]:
    """The entries of the terminal app's ``_TEXTS`` (as ``tui.KEY``) and the module with it emptied."""
    source = tui.read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == "_TEXTS" and isinstance(node, ast.AnnAssign | ast.Assign):
            assert node.value is not None and node.value.end_lineno is not None
            entries = ast.literal_eval(node.value)
            lines = source.splitlines(keepends=True)
            start = sum(len(x) for x in lines[:node.value.lineno - 1]) + node.value.col_offset
            end = sum(len(x) for x in lines[:node.value.end_lineno - 1]) + node.value.end_col_offset
            return [(f"tui.{k}", en, de) for k, (en, de) in entries.items()], source[:start] + "{\n}" + source[end:]
    return [], source


def main(static: Path = STATIC, tui: Path = TUI) -> int:
    """Move the keys (``tui`` is the terminal app's folder, or one module); 0 when done, 1 (nothing
    written) when ``TEXTS`` cannot be read or a key clashes."""
    js_path = static / "i18n.js"
    js = js_path.read_text(encoding="utf-8")
    start = js.index("const TEXTS = {") + len("const TEXTS = {")
    end = js.index("\n};", start)
    body = js[start:end]
    moved: list[tuple[str, str, str]] = []
    pos = 0
    while pos < len(body):
        m = COMMENT.match(body, pos) or ENTRY.match(body, pos)
        if m is None:
            if body[pos:].strip() == "":
                break
            print(f"i18n.js: cannot read TEXTS near {body[pos:pos + 60]!r}", file=sys.stderr)
            return 1
        if m.re is ENTRY:
            moved.append((m.group(1) or m.group(2), json.loads(m.group(3)), json.loads(m.group(4))))
        pos = m.end()
    modules = sorted(tui.glob("*.py")) if tui.is_dir() else [tui] if tui.exists() else []
    emptied: dict[Path, str] = {}
    for module in modules:
        from_module, rest = tui_keys(module)
        if from_module:
            moved += from_module
            emptied[module] = rest
    catalogues = {lang: json.loads((static / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
                  for lang in ("en", "de")}
    for key, en, de in moved:
        for lang, text in (("en", en), ("de", de)):
            old = catalogues[lang].get(key)
            if old is not None and old != text:
                print(f"{key}: the catalogue ({lang}) says {old!r}, the old way says {text!r}", file=sys.stderr)
                return 1
            catalogues[lang][key] = text
    for lang, data in catalogues.items():
        (static / "messages" / f"{lang}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                                                          encoding="utf-8")
    js_path.write_text(js[:start] + js[end:], encoding="utf-8")
    for module, rest in emptied.items():
        module.write_text(rest, encoding="utf-8")
    print(f"moved {len(moved)} keys from i18n.js and the terminal app to messages/en.json and de.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
