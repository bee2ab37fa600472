"""Write the court cards' figures of the page (src/spite/web/static/cards/*.svg) from Adrian Kennard's
SVG playing cards, which their author dedicated to the public domain (CC0 1.0; NOTICE.md).

The page draws every card from a few shared symbols (cards.js); only the twelve court figures are
pictures of their own, one small file each that the browser fetches the first time such a card is
shown (``<use href="/static/cards/KH.svg#f">``). This script takes the figures out of Kennard's cards
as the npm package ``@heruka_urgyen/react-playing-cards`` ships them (its ``src/images/2color``; the
same drawings as ``@letele/playing-cards``, which carries the CC0 text), keeps the figure's layers,
recolours them to the page's palette and rounds the path coordinates to whole units of the figure's
1300×2000 box (drawn at most about 200 px wide, one unit is far below a pixel): 216 kB of gzip for the
twelve becomes about 80 kB, 5–8 kB a figure.

    npm pack @heruka_urgyen/react-playing-cards && tar xzf heruka_urgyen-react-playing-cards-*.tgz
    python tools/vendor_court_cards.py package/src/images/2color
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "spite" / "web" / "static" / "cards"
COURTS = [f"{rank}{suit}" for rank in "KQJ" for suit in "SHDC"]
PALETTE = {"#FC4": "#e9b93a", "red": "#c62828", "#44F": "#2e4fae", "black": "#1b1b1b", "white": "#fffdf8"}
"""Kennard's colours → the page's: the card red of the pips, a softer gold and blue, the ink black."""

_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _tokens(d: str) -> list[str | float]:
    out: list[str | float] = []
    i = 0
    while i < len(d):
        c = d[i]
        if c in " ,\t\n\r":
            i += 1
        elif c.isalpha():
            out.append(c)
            i += 1
        else:
            m = _NUM.match(d, i)
            if not m:
                raise ValueError(f"path data not understood at {d[i:i + 20]!r}")
            out.append(float(m.group()))
            i = m.end()
    return out


def _absolute(d: str) -> list[tuple[str, list[float]]]:
    """The path's segments with absolute coordinates (H and V as L)."""
    toks = _tokens(d)
    segs: list[tuple[str, list[float]]] = []
    i, cmd = 0, "M"
    cx = cy = sx = sy = 0.0
    while i < len(toks):
        if isinstance(toks[i], str):
            cmd = str(toks[i])
            i += 1
            if cmd in "Zz":
                segs.append(("Z", []))
                cx, cy = sx, sy
                continue
        up, rel = cmd.upper(), cmd.islower()
        args = [float(a) for a in toks[i:i + _ARITY[up]]]
        i += _ARITY[up]
        if up in "MLT":
            x, y = args[0] + (cx if rel else 0), args[1] + (cy if rel else 0)
            segs.append((up, [x, y]))
            cx, cy = x, y
            if up == "M":
                sx, sy = x, y
                cmd = "l" if rel else "L"
        elif up == "H":
            cx = args[0] + (cx if rel else 0)
            segs.append(("L", [cx, cy]))
        elif up == "V":
            cy = args[0] + (cy if rel else 0)
            segs.append(("L", [cx, cy]))
        elif up in "CSQ":
            pts = [v + ((cx if k % 2 == 0 else cy) if rel else 0) for k, v in enumerate(args)]
            segs.append((up, pts))
            cx, cy = pts[-2], pts[-1]
        else:  # A
            x, y = args[5] + (cx if rel else 0), args[6] + (cy if rel else 0)
            segs.append(("A", [*args[:5], x, y]))
            cx, cy = x, y
    return segs


def _num(v: float) -> str:
    return str(int(v)) if v == int(v) else f"{v:g}"


def compact(d: str) -> str:
    """Path data with every point rounded to a whole unit, written relative to the rounded point
    before it (so that the rounding does not add up along the path)."""
    out: list[str] = []
    px = py = spx = spy = 0.0
    last = ""
    for up, args in _absolute(d):
        if up == "Z":
            out.append("z")
            px, py, last = spx, spy, "z"
            continue
        if up == "A":
            x, y = round(args[5]), round(args[6])
            letter = "a"
            nums = [round(args[0]), round(args[1]), round(args[2]), int(args[3]), int(args[4]), x - px, y - py]
            px, py = x, y
        else:
            pts = [float(round(v)) for v in args]
            if up == "M" and not out:
                letter, nums = "M", pts
            elif up == "L" and pts[1] == py and pts[0] != px:
                letter, nums = "h", [pts[0] - px]
            elif up == "L" and pts[0] == px:
                letter, nums = "v", [pts[1] - py]
            else:
                letter = up.lower()
                nums = [v - (px if k % 2 == 0 else py) for k, v in enumerate(pts)]
            px, py = pts[-2], pts[-1]
            if up == "M":
                spx, spy = px, py
        text = ""
        for v in nums:
            s = _num(v)
            text += s if (not text or s.startswith("-")) else " " + s
        repeat = letter == last and letter not in "mM"
        piece = text if repeat else letter + text
        if out and repeat and not piece.startswith("-"):
            piece = " " + piece
        out.append(piece)
        last = {"m": "l", "M": "L"}.get(letter, letter)
    return "".join(out)


def _recolour(attrs: str) -> str:
    return re.sub(r'(fill|stroke)="([^"]*)"', lambda m: f'{m.group(1)}="{PALETTE.get(m.group(2), m.group(2))}"', attrs)


def figure(svg: str, court: str) -> str:
    """The figure of one court card as a file of symbols: ``h`` its upper half (Kennard's layers),
    ``f`` the whole figure (the half and the half turned), both in a 1300×2000 box that the card
    stretches to its frame."""
    suit, rank = court[1], court[0]
    layers = re.findall(rf'<symbol id="{suit}{rank}\d"[^>]*>(.*?)</symbol>', svg, re.S)
    pip = re.search(rf'<symbol id="S{suit}{rank}"[^>]*><path d="([^"]*)"', svg)
    if not layers or not pip:
        raise SystemExit(f"{court}: no figure found (is this Kennard's card?)")
    body = "".join(layers)
    body = re.sub(r' d="([^"]*)"', lambda m: f' d="{compact(m.group(1))}"', body)
    body = re.sub(r"<path([^>]*)>\s*</path>", lambda m: f"<path{_recolour(m.group(1))}/>", body)
    body = re.sub(r"<use([^>]*)>\s*</use>", r"<use\1/>", body)
    body = body.replace(f'xlink:href="#S{suit}{rank}"', 'href="#p"')
    pip_colour = PALETTE["red"] if suit in "HD" else PALETTE["black"]
    box = 'viewBox="0 0 1300 2000" preserveAspectRatio="none"'
    return ('<svg xmlns="http://www.w3.org/2000/svg">'
            f'<symbol id="p" viewBox="-600 -600 1200 1200">'
            f'<path fill="{pip_colour}" d="{compact(pip.group(1))}"/></symbol>'
            f'<symbol id="h" {box}>{body}</symbol>'
            f'<symbol id="f" {box}><use href="#h" width="1300" height="2000"/>'
            '<use href="#h" width="1300" height="2000" transform="rotate(180 650 1000)"/></symbol></svg>\n')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="a folder of Kennard's cards: KH.svg, QS.svg, …")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for court in COURTS:
        (a.out / f"{court}.svg").write_text(figure((a.source / f"{court}.svg").read_text(), court))
        print(f"{court}.svg  {(a.out / f'{court}.svg').stat().st_size} bytes")


if __name__ == "__main__":
    main()
