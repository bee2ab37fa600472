"""Every table reads (issue 48): no text is drawn over a card or over another text, and no card or
card index is drawn smaller than a phone can read — at a laptop's 1366×768 and a phone's 390×844, at
every table (two players, a party of three, partners, the Skip-Bo deck, Spit, Speed) and in German.

The sizes, in CSS pixels (a phone's CSS pixel is what its browser lays out, 2–3 device pixels):

* a card's index (the rank in its corner) drawn in a box at least ``MIN_INDEX`` = 9 px high, the
  index's "font size": its glyphs fill 92 % of the box, so its capitals and digits stand at least
  8.3 px high — as high as those of an 11–12 px font, the smallest text the phone platforms use
  for anything meant to be read (Apple's 11 pt caption, Android's 12 sp label). Below a 9 px font
  (digits about 6.5 px) text stops being read at arm's length.
* a face-up card at least ``MIN_CARD_W`` = 30 px wide: an index box of 9 px needs a card of 49 by
  35 px (the box is 62 of the card's 336 units), and below 30 px a card is too narrow for a finger
  (the platforms' smallest touch target is 44 px; a card is touched on its whole height) and its
  pips run together.

A text overlaps when its line boxes (a Range over each of its text nodes) and another's, or a card's,
share more than ``SLACK`` pixels each way; a count badge may lie on its own pile's card (that is
where a count is read) but never on the card's index, and no card may hide another card's index."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WebServer
from test_web_page import start_quick_game, wait_for_turn
from test_web_spit import SLOW_BOT, create_table, take_seat

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
MIN_INDEX = 9.0
MIN_CARD_W = 30.0
SLACK = 1.5

CHECK_JS = """([minIndex, minCardW, slack]) => {
  const vw = innerWidth, vh = innerHeight;
  const box = (r) => ({l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height});
  const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > slack
    && Math.min(a.b, b.b) - Math.max(a.t, b.t) > slack;
  const onScreen = (b) => b.w > 0 && b.h > 0 && b.r > 0 && b.b > 0 && b.l < vw && b.t < vh;
  const hidden = (el) => { for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return true; } return false; };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const problems = [];
  // the texts: each text node's line boxes
  const texts = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.nodeValue.trim()) continue;
    const el = n.parentElement;
    if (!el || el.closest('svg, script, style, noscript, option, select, #anim-layer, #drag-layer, .overlay')) continue;
    if (hidden(el)) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      const b = box(r);
      if (onScreen(b)) texts.push({el, b, text: n.nodeValue.trim().slice(0, 24)});
    }
  }
  // the cards (not the copies in flight) and their indices
  const cards = [...document.querySelectorAll('.card')]
    .filter((c) => !c.closest('#anim-layer, #drag-layer, #card-sprite') && !hidden(c))
    .map((el) => ({el, b: box(el.getBoundingClientRect())})).filter((c) => onScreen(c.b));
  const indexOf = (card) => [...card.el.querySelectorAll('svg.face .ix')].map((g) =>
    [...g.querySelectorAll('.ix-rank, .ix-suit')].map((u) => ({el: u, b: box(u.getBoundingClientRect())})));
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i], texts[j]];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (meet(a.b, b.b)) problems.push(`text "${a.text}" (${name(a.el)}) over text "${b.text}" (${name(b.el)})`);
    }
  }
  for (const tx of texts) {
    const badge = tx.el.closest('.count, .down, .hand-count');
    for (const c of cards) {
      if (!meet(tx.b, c.b)) continue;
      const own = badge && (badge.parentElement === c.el.parentElement || badge.parentElement.contains(c.el));
      if (!own) {
        problems.push(`text "${tx.text}" (${name(tx.el)}) over a card (${c.el.dataset.card || 'back'})`);
        continue;
      }
      for (const ix of indexOf(c)) for (const part of ix) if (meet(tx.b, part.b))
        problems.push(`the count "${tx.text}" over the index of ${c.el.dataset.card}`);
    }
  }
  for (const c of cards) {
    const face = c.el.querySelector('svg.face');
    if (!face) continue;
    if (c.b.w < minCardW) problems.push(`${c.el.dataset.card} drawn ${c.b.w.toFixed(1)} px wide`);
    const [corner] = indexOf(c);
    const rank = corner?.find((p) => p.el.classList.contains('ix-rank')) || corner?.[0];
    if (!rank) { problems.push(`${c.el.dataset.card} has no index`); continue; }
    // the index's box (its font size): its height in the card's units, scaled as the card is drawn
    const cell = rank.el.height.baseVal.value / face.viewBox.baseVal.height * face.getBoundingClientRect().height;
    if (rank.el.classList.contains('ix-rank') && cell < minIndex)
      problems.push(`${c.el.dataset.card}'s index ${cell.toFixed(1)} px high`);
    // the index shows: what lies at its middle is this card (not another card, a badge, a label)
    const x = rank.b.l + rank.b.w / 2, y = rank.b.t + rank.b.h / 2;
    if (x < 0 || y < 0 || x > vw || y > vh) continue;
    const top = document.elementFromPoint(x, y);
    if (top && top.closest('.card') !== c.el && !top.closest('#anim-layer, #drag-layer'))
      problems.push(`${c.el.dataset.card}'s index hidden under ${name(top)}`);
  }
  return {problems, texts: texts.length, cards: cards.length};
}"""


def check(page: Any, where: str) -> None:
    """The page is still (no flight, no lift under way), then every rule above holds."""
    page.wait_for_function("() => !document.querySelector('#anim-layer > *') && document.getAnimations().every("
                           "(a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)",
                           polling="raf")
    found = page.evaluate(CHECK_JS, [MIN_INDEX, MIN_CARD_W, SLACK])
    assert found["cards"] >= 8 and found["texts"] >= 5, (where, found)  # it looked at a table
    assert found["problems"] == [], (where, found["problems"])


SIZES = pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])


@SIZES
@pytest.mark.parametrize("preset", ["classic", "party", "partners", "skip-bo"])
def test_no_text_over_cards_and_every_card_reads_at_spite_and_malice(
        web_server: WebServer, page: Any, viewport: dict[str, int], preset: str) -> None:
    start_quick_game(page, web_server, name="Ann", stock=5, level="easy", preset=preset)
    assert wait_for_turn(page)
    check(page, f"{preset}: the table")
    # another player whose hand is empty (they played it out): its count keeps its place below their name
    page.evaluate("""() => { const hand = document.querySelector('.player.opponent .hand.backs');
      hand.querySelectorAll('.card').forEach((c) => c.remove());
      hand.querySelector('.hand-count').textContent = '0'; }""")
    check(page, f"{preset}: an empty hand")
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")  # (the next redraw draws the hand again)
    # a picked card (lifted, its targets lit) and the German words (longer) change nothing
    page.click('.board [data-playable="1"] >> nth=0')
    page.wait_for_selector('[data-selected="1"]')
    check(page, f"{preset}: a card picked")
    page.click("button.lang[data-lang=de]")
    page.wait_for_function("document.documentElement.lang === 'de'")
    check(page, f"{preset}: in German")


@SIZES
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_no_text_over_cards_and_every_card_reads_at_spit_and_speed(
        web_server: WebServer, page: Any, viewport: dict[str, int], game: str) -> None:
    table_id, token = create_table(web_server, SLOW_BOT, game=game)
    take_seat(page, web_server, table_id, 0, token)
    # a card of mine to play: at some deals none fits until the computer plays or both flip (the
    # computer's three seconds, the automatic flip's three), even twice in a row
    page.wait_for_selector(".spit-table[data-phase=play] .me [data-playable='1']", timeout=45_000)
    # the flip's "Spit!" banner is laid over the centre for a moment on purpose (and comes again at every
    # flip, which a slow computer may need at any time): the table is read without it
    page.add_style_tag(content="#sp-banner { display: none !important; }")
    check(page, f"{game}: the table")
    page.click(".me [data-source][data-playable='1'] >> nth=0")
    page.wait_for_selector(".me [data-selected='1']")
    check(page, f"{game}: a card picked")


def test_the_checks_catch_a_badge_on_an_index_and_a_card_too_small(web_server: WebServer, page: Any) -> None:
    """The checks above fail when the page breaks them: a count moved onto its card's index, a text
    laid over a card, and cards drawn too small are each reported."""
    start_quick_game(page, web_server, name="Ann", stock=5, level="easy", preset="classic")
    assert wait_for_turn(page)
    page.add_style_tag(content=".me .pile.stock .count { top: 8%; left: 4%; right: auto; }")
    problems = page.evaluate(CHECK_JS, [MIN_INDEX, MIN_CARD_W, SLACK])["problems"]
    assert any("over the index" in p for p in problems), problems
    page.add_style_tag(content=".center .value { position: relative; top: -40px; }")
    problems = page.evaluate(CHECK_JS, [MIN_INDEX, MIN_CARD_W, SLACK])["problems"]
    assert any("over a card" in p for p in problems), problems
    page.add_style_tag(content=".board { --own-h: 36px !important; --opp-h: 30px !important;"
                               " --hand-h: 36px !important; }")
    problems = page.evaluate(CHECK_JS, [MIN_INDEX, MIN_CARD_W, SLACK])["problems"]
    assert any("px wide" in p for p in problems) and any("index" in p and "px high" in p for p in problems), problems
