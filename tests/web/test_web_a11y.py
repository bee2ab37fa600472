"""Accessibility of the Spite and Malice table in Chromium: cards have names people say ("Queen of
hearts", "Dame ♥"), the keyboard's focus shows, text passes WCAG AA contrast, and a whole game is
played with the keyboard alone (letter keys, or Tab and Enter), at desktop and phone sizes."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import DESKTOP, NO_PACE, PHONE, SIZES, ConsoleWatch, WebServer, open_more_options
from test_web_page import GAME_TIMEOUT, play_by_keys, start_quick_game, version, wait_for_turn

EN_CARD = r"(Ace|King|Queen|Jack|[2-9]|10) of (hearts|spades|diamonds|clubs)|Joker"
DE_CARD = r"(Ass|König|Dame|Bube|[2-9]|10) [♥♠♦♣]|Joker"


@contextmanager
def page_at(browser: Any, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> Iterator[Any]:
    ctx = browser.new_context(viewport=viewport, locale=locale)
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(NO_PACE)
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        yield page
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


@SIZES
def test_cards_have_names_in_english_and_german(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with page_at(browser, viewport) as page:
        start_quick_game(page, web_server, name="Nora", stock=6, level="easy")
        assert wait_for_turn(page)
        hand = page.eval_on_selector_all(".me .hand-card svg", "els => els.map(e => e.getAttribute('aria-label'))")
        assert hand and all(re.fullmatch(EN_CARD, n) for n in hand), hand
        # the playable cards are buttons the keyboard reaches, named by place and card
        buttons = page.get_by_role("button", name=re.compile(rf"^Hand card \d: ({EN_CARD})$"))
        assert buttons.count() >= 1
        stock = page.get_by_role("img", name=re.compile(rf"^({EN_CARD})$")).count()
        assert stock >= len(hand)
        assert page.get_by_role("img", name="face-down card").count() >= 1   # the computer's hand
        page.click("button.lang[data-lang=de]")
        names = page.eval_on_selector_all(".board svg[role=img]", "els => els.map(e => e.getAttribute('aria-label'))")
        faces = [n for n in names if n not in ("verdeckte Karte", "leer") and not re.fullmatch(r"[BD]\d", n)]
        assert faces and all(re.fullmatch(DE_CARD, n) for n in faces), faces
        assert page.get_by_role("button", name=re.compile(rf"^Handkarte \d: ({DE_CARD})$")).count() >= 1
        assert "verdeckte Karte" in names


@SIZES
def test_the_keyboard_focus_shows_on_cards(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with page_at(browser, viewport) as page:
        start_quick_game(page, web_server, name="Fo", stock=6, level="easy")
        assert wait_for_turn(page)
        assert tab_to(page, '.me [data-playable="1"]')
        ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                             "return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
        assert ring[0] != "none" and ring[1] >= 2, ring


# Every visible piece of text on the page: its colour against the background it is drawn on (the
# element's and its ancestors' background colours laid over each other), and whether it is large.
CONTRAST = """
() => {
  const rgba = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return [0, 0, 0, 0];
    const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => { const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, #anim-layer, noscript, script, style, option') || el.disabled) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.nodeValue).join('').trim();
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.push(rgba(getComputedStyle(e).backgroundColor));
    let bg = [255, 255, 255, 1];
    for (const c of chain.reverse()) bg = over(c, bg);
    const s = getComputedStyle(el);
    const fg = over(rgba(s.color), bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const r2 = ratio(fg, bg);
    if (r2 < (large ? 3 : 4.5)) bad.push(`${el.tagName}.${el.className} "${text.slice(0, 30)}" ${r2.toFixed(2)}`);
  }
  return bad;
}
"""


@SIZES
def test_text_passes_wcag_aa_contrast(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with page_at(browser, viewport) as page:
        page.goto(web_server.base + "/")
        page.wait_for_selector(".tile [data-play]")
        assert page.evaluate(CONTRAST) == []
        open_more_options(page)  # and the options folded away
        assert page.evaluate(CONTRAST) == []
        start_quick_game(page, web_server, name="Cora", stock=3, level="easy")
        assert wait_for_turn(page)
        page.click('.board [data-playable="1"] >> nth=0')   # a selection with its highlighted targets
        assert page.evaluate(CONTRAST) == []
        page.click("#hint")
        page.wait_for_selector("#hint-text:not(.muted)")
        assert page.evaluate(CONTRAST) == []


def tab_to(page: Any, selector: str, *, back: bool = False, presses: int = 80) -> bool:
    """Press Tab (Shift+Tab with ``back``) until the focus is on an element matching ``selector``."""
    for _ in range(presses):
        if page.evaluate("(sel) => document.activeElement?.matches(sel) ?? false", selector):
            return True
        page.keyboard.press("Shift+Tab" if back else "Tab")
    return False


def move_by_tab(page: Any) -> None:
    """One move with Tab and Enter only: the first playable source the page marks (build plays first),
    then one of its targets, reached with Shift+Tab (the targets lie before the seat's own cards)."""
    before = version(page)
    offers = page.eval_on_selector_all('.me [data-playable="1"]',
                                       "els => els.map(e => [e.dataset.source, e.dataset.targets])")
    options = sorted(((s, t) for s, ts in offers for t in ts.split()),
                     key=lambda m: (not m[1].startswith("B"), m[0] != "S"))  # the stock's build plays first
    if not options:
        assert tab_to(page, "#pass")
        page.keyboard.press("Enter")
    else:
        src, target = options[0]
        assert tab_to(page, f'.me [data-source="{src}"][data-playable="1"]'), src
        page.keyboard.press("Enter")
        page.wait_for_selector('[data-selected="1"]')
        assert tab_to(page, f'[data-legal="1"][data-target="{target}"]', back=True), target
        page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}"
                           " || document.querySelector('.table').dataset.over === '1'")


def play_by_letters(page: Any) -> None:
    """One move with the letter keys (S, 1–5, D+n, B+n), or P to pass."""
    if not page.locator('.me [data-playable="1"]').count():
        before = version(page)
        page.keyboard.press("p")
        page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}"
                               " || document.querySelector('.table').dataset.over === '1'")
    else:
        play_by_keys(page)


@pytest.mark.timeout(180)  # a whole game by keys alone
@pytest.mark.parametrize(("viewport", "way"), [(DESKTOP, "tab"), (PHONE, "letters")],
                         ids=["desktop-tab", "phone-letters"])
def test_a_whole_game_by_keyboard_alone(web_server: WebServer, browser: Any, viewport: dict[str, int],
                                        way: str) -> None:
    with page_at(browser, viewport) as page:
        # stocks of 2: a whole game, its end and the game-over view, in about 10 moves (20 at stocks of 4)
        start_quick_game(page, web_server, name="Kai", stock=2, level="easy")
        page.mouse.move(0, 0)
        moves = 0
        deadline = time.monotonic() + GAME_TIMEOUT * 2
        while wait_for_turn(page, timeout=40):
            assert time.monotonic() < deadline, f"the game did not end ({moves} moves)"
            (move_by_tab if way == "tab" else play_by_letters)(page)
            moves += 1
        assert moves > 0
        page.wait_for_selector("#game-over")
        assert page.evaluate(CONTRAST) == []
        # the game-over view takes the focus; Escape closes it, and the keyboard opens it again
        page.wait_for_function("document.activeElement?.id === 'close-over'")
        page.keyboard.press("Escape")
        page.wait_for_selector("#game-over", state="detached")
        assert tab_to(page, "#show-over")
        page.keyboard.press("Enter")
        page.wait_for_selector("#game-over")
