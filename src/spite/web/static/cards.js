// Card tokens (records.md §1: "7H", "10S", "QD", "X", a numbered deck's "1".."12") and their SVG faces.
//
// The deck is drawn from a few shared symbols (the sprite below, put into the page once): the four
// suits and the index glyphs are Adrian Kennard's playing-card drawings, which he dedicated to the
// public domain (CC0 1.0; NOTICE.md), and so are the court figures, one small file each
// (static/cards/KH.svg …, made by tools/vendor_court_cards.py) that the browser fetches the first time
// such a card is shown. A card is then a handful of <use> elements: small to send, sharp at any size.
// The corner indices are large ("jumbo"), so that the smallest cards the page draws (the other
// players' on a phone) still read; the pips are laid out as on printed cards.
import { esc } from "./html.js";
import { hasText, t } from "./i18n.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13, X: 14 };
const RED = "#c62828";
const INK = "#1b1b1b";
const NUMBERED_COLOUR = (n) => (n <= 4 ? "#1565c0" : n <= 8 ? "#2e7d32" : "#c62828");

/** The rank part of a card token: "10H" → "10", "X" → "X", a numbered card "7" → "7". */
export function rankOf(card) {
  if (card === "X") return "X";
  const last = card.slice(-1);
  return SUIT_SYMBOL[last] ? card.slice(0, -1) : card;
}

export function suitOf(card) {
  const last = card.slice(-1);
  return SUIT_SYMBOL[last] ? last : null;
}

/** The rank as a number (A 1 … K 13, X 14). */
export function rankValue(card) {
  const r = rankOf(card);
  return RANK_VALUE[r] ?? Number(r);
}

/** The rank as written in a hand move: "H7", "HK", "HX". */
export function handToken(card) {
  return "H" + rankOf(card);
}

/** A value on a build pile as a card rank (1 → A, 12 → Q); a numbered deck (cards 1 to 12, no suits) keeps numbers. */
export function valueName(value, numbered) {
  if (numbered) return String(value);
  return { 1: "A", 11: "J", 12: "Q", 13: "K" }[value] ?? String(value);
}

/** A card as people say it, in the page's language: "Queen of hearts" / "Dame ♥", "7 of spades",
 * "Joker"; a numbered card is its number. The accessible name of the card's picture. */
export function cardName(card) {
  if (card === "X") return t("card_joker");
  const suit = suitOf(card);
  const rank = rankOf(card);
  if (!suit) return rank;
  const word = ["A", "J", "Q", "K"].includes(rank) ? t(`rank_${rank}`) : rank;
  // the suit as people say it: "of hearts" in English, the symbol in German ("Dame ♥")
  return t("card_name", { rank: word, suit: t(`suit_${suit}`) });
}

let numberedDeck = false;

/** Draw the wild ("X") as the numbered deck's wild card rather than a joker: set by a table of a numbered deck. */
export function setNumberedDeck(on) {
  numberedDeck = Boolean(on);
}

// ------------------------------------------------------------------ the shared symbols
// Index glyphs: strokes in a 680×1000 box (Kennard's, and B, D, 0, 1, 11, 12 drawn to match them).
const GLYPHS = {
  A: "M-270 460L-110 460M-200 450L0 -460L200 450M110 460L270 460M-120 130L120 130",
  2: "M-225 -225C-245 -265 -200 -460 0 -460C200 -460 225 -325 225 -225C225 -25 -225 160 -225 460L225 460L225 300",
  3: "M-250 -320L-250 -460L200 -460L-110 -80C-100 -90 -50 -120 0 -120C200 -120 250 0 250 150C250 350 170 460 -30 460C-230 460 -260 300 -260 300",
  4: "M50 460L250 460M150 460L150 -460L-300 175L-300 200L270 200",
  5: "M170 -460L-175 -460L-210 -115C-210 -115 -200 -200 0 -200C100 -200 255 -80 255 120C255 320 180 460 -20 460C-220 460 -255 285 -255 285",
  6: "M-250 100A250 250 0 0 1 250 100L250 210A250 250 0 0 1 -250 210L-250 -210A250 250 0 0 1 0 -460C150 -460 180 -400 200 -375",
  7: "M-265 -320L-265 -460L265 -460C135 -200 -90 100 -90 460",
  8: "M-1 -50A205 205 0 1 1 1 -50L-1 -50A255 255 0 1 0 1 -50Z",
  9: "M250 -100A250 250 0 0 1 -250 -100L-250 -210A250 250 0 0 1 250 -210L250 210A250 250 0 0 1 0 460C-150 460 -180 400 -200 375",
  10: "M-260 430L-260 -430M-50 0L-50 -310A150 150 0 0 1 250 -310L250 310A150 150 0 0 1 -50 310Z",
  J: "M50 -460L250 -460M150 -460L150 250A100 100 0 0 1 -250 250L-250 220",
  Q: "M-260 100C40 100 -40 460 260 460M-175 0L-175 -285A175 175 0 0 1 175 -285L175 285A175 175 0 0 1 -175 285Z",
  K: "M-285 -460L-85 -460M-185 -460L-185 460M-285 460L-85 460M85 -460L285 -460M185 -440L-170 155M85 460L285 460M185 440L-10 -70",
  B: "M-220 -460L-220 460L90 460A215 235 0 0 0 90 -10L-220 -10M60 -10A190 225 0 0 0 60 -460L-220 -460",
  D: "M-220 -460L-220 460L-20 460C170 460 250 300 250 0C250 -300 170 -460 -20 -460Z",
  1: "M-150 -300L40 -460L40 460M-160 460L240 460",
  11: "M-290 -330L-150 -460L-150 460M90 -330L230 -460L230 460",
  12: "M-300 -330L-180 -460L-180 460M-25 -225C-37 -265 -10 -460 110 -460C230 -460 245 -325 245 -225C245 -25 -25 160 -25 460L245 460L245 300",
};
// Suits: filled, in a 1200×1200 box (Kennard's).
const PIPS = {
  S: "M0 -500C100 -250 355 -100 355 185A150 150 0 0 1 55 185A10 10 0 0 0 35 185C35 385 85 400 130 500L-130 500C-85 400 -35 385 -35 185A10 10 0 0 0 -55 185A150 150 0 0 1 -355 185C-355 -100 -100 -250 0 -500Z",
  H: "M0 -300C0 -400 100 -500 200 -500C300 -500 400 -400 400 -250C400 0 0 400 0 500C0 400 -400 0 -400 -250C-400 -400 -300 -500 -200 -500C-100 -500 0 -400 0 -300Z",
  D: "M-400 0C-350 0 0 -450 0 -500C0 -450 350 0 400 0C350 0 0 450 0 500C0 450 -350 0 -400 0Z",
  C: "M30 150C35 385 85 400 130 500L-130 500C-85 400 -35 385 -30 150A10 10 0 0 0 -50 150A210 210 0 1 1 -124 -51A10 10 0 0 0 -110 -65A230 230 0 1 1 110 -65A10 10 0 0 0 124 -51A210 210 0 1 1 50 150A10 10 0 0 0 30 150Z",
};
const STAR = "M0 -500L118 -162L476 -155L191 62L294 405L0 200L-294 405L-191 62L-476 -155L-118 -162Z";

function spriteSVG() {
  const glyphs = Object.entries(GLYPHS).map(([g, d]) =>
    `<symbol id="cg-${g}" viewBox="-340 -500 680 1000" overflow="visible"><path d="${d}" fill="none" stroke-width="130" stroke-linecap="square" stroke-miterlimit="1.5"/></symbol>`).join("");
  const pips = Object.entries(PIPS).map(([s, d]) => `<symbol id="cp-${s}" viewBox="-600 -600 1200 1200"><path d="${d}"/></symbol>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" id="card-sprite" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden">` +
    `<defs>` +
    `<linearGradient id="cg-face" gradientUnits="userSpaceOnUse" x1="-120" y1="-168" x2="-30" y2="168"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f3efe4"/></linearGradient>` +
    `<pattern id="cg-lattice" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="16" height="16" fill="#1f3f8f"/><path d="M0 8H16M8 0V16" stroke="#3a62c4" stroke-width="3"/><circle cx="8" cy="8" r="2.6" fill="#c9d6ff"/></pattern>` +
    `<radialGradient id="cg-wild" cx="0.5" cy="0.45" r="0.7"><stop offset="0" stop-color="#ffd54f"/><stop offset="0.55" stop-color="#fb8c00"/><stop offset="1" stop-color="#d84315"/></radialGradient>` +
    `</defs>${glyphs}${pips}<symbol id="cp-X" viewBox="-600 -600 1200 1200"><path d="${STAR}"/></symbol>` +
    // the card's paper: its edge, and a faint warm shade towards the bottom
    `<symbol id="c-face" viewBox="-120 -168 240 336"><rect x="-118.5" y="-166.5" width="237" height="333" rx="14" fill="url(#cg-face)" stroke="#8d8a80" stroke-width="2"/></symbol>` +
    // the back: a white edge, a blue lattice, a thin gold frame and a medallion of the four suits
    `<symbol id="c-back" viewBox="-120 -168 240 336"><rect x="-118.5" y="-166.5" width="237" height="333" rx="14" fill="#fbfaf5" stroke="#6c6a63" stroke-width="2"/>` +
    `<rect x="-104" y="-152" width="208" height="304" rx="8" fill="url(#cg-lattice)"/>` +
    `<rect x="-97" y="-145" width="194" height="290" rx="5" fill="none" stroke="#e3c46b" stroke-width="3"/>` +
    `<circle r="46" fill="#17306e" stroke="#e3c46b" stroke-width="4"/><circle r="38" fill="none" stroke="#c9d6ff" stroke-width="1.5"/>` +
    `<use href="#cp-S" x="-14" y="-36" width="28" height="28" fill="#fbfaf5"/><use href="#cp-H" x="-14" y="8" width="28" height="28" fill="#ef6c6c"/>` +
    `<use href="#cp-D" x="-36" y="-14" width="28" height="28" fill="#ef6c6c"/><use href="#cp-C" x="8" y="-14" width="28" height="28" fill="#fbfaf5"/></symbol>` +
    `</svg>`;
}

/** Put the shared symbols into the page once (before any card is drawn: cards.js is imported first). */
function ensureSprite() {
  if (typeof document === "undefined" || document.getElementById("card-sprite")) return;
  const holder = document.createElement("div");
  holder.innerHTML = spriteSVG();
  document.body.prepend(holder.firstChild);
}
ensureSprite();

// ------------------------------------------------------------------ layout (a card is -120 -168 240 336)
const IX = { x: -95, top: -160, h: 62, pip: 42 };  // the index: a rank glyph 62 high, its suit under it
const COL = 42;                                     // the pip columns' distance from the middle
const ROW = [-104, -35, 35, 104];                   // the rows of a 9 or 10
const PIP = 54;                                     // a pip's box (its shape is about 36 × 45)

// the pips of 2 … 10 as on printed cards: [x, y] centres, the lower half's turned upside down
const LAYOUT = {
  2: [[0, -104], [0, 104]],
  3: [[0, -104], [0, 0], [0, 104]],
  4: [[-COL, -104], [COL, -104], [-COL, 104], [COL, 104]],
  5: [[-COL, -104], [COL, -104], [0, 0], [-COL, 104], [COL, 104]],
  6: [[-COL, -104], [COL, -104], [-COL, 0], [COL, 0], [-COL, 104], [COL, 104]],
  7: [[-COL, -104], [COL, -104], [0, -52], [-COL, 0], [COL, 0], [-COL, 104], [COL, 104]],
  8: [[-COL, -104], [COL, -104], [0, -52], [-COL, 0], [COL, 0], [0, 52], [-COL, 104], [COL, 104]],
  9: [...ROW.flatMap((y) => [[-COL, y], [COL, y]]), [0, 0]],
  10: [...ROW.flatMap((y) => [[-COL, y], [COL, y]]), [0, -70], [0, 70]],
};

function pipUse(suit, cx, cy, size) {
  const h = size / 2;
  const turn = cy > 0.5 ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  return `<use href="#cp-${suit}" x="${cx - h}" y="${cy - h}" width="${size}" height="${size}"${turn}/>`;
}

/** The glyph drawn in a corner for ``rank`` (the page's language: a German Queen is "D"). */
function indexGlyph(rank) {
  if (["A", "J", "Q", "K"].includes(rank) && hasText(`rank.short.${rank}`)) {
    const g = t(`rank.short.${rank}`);
    if (GLYPHS[g]) return g;
  }
  return GLYPHS[rank] ? rank : null;
}

/** One corner's index (and, turned, the opposite corner's): the rank glyph, the suit under it. */
function indexUses(glyph, suit, { h = IX.h, pip = IX.pip } = {}) {
  const w = h * 0.68;
  const rank = glyph ? `<use class="ix-rank" href="#cg-${glyph}" x="${IX.x - w / 2}" y="${IX.top}" width="${w}" height="${h}"/>` : "";
  // without a rank (a joker, a wild) the mark stands where the rank would
  const top = glyph ? IX.top + h + 4 : IX.top;
  const mark = suit ? `<use class="ix-suit" href="#cp-${suit}" x="${IX.x - pip / 2}" y="${top}" width="${pip}" height="${pip}"/>` : "";
  return `<g class="ix">${rank}${mark}</g><g class="ix" transform="rotate(180)">${rank}${mark}</g>`;
}

function faceSVG(body, name, cls = "") {
  return `<svg viewBox="-120 -168 240 336" xmlns="http://www.w3.org/2000/svg" class="face${cls}" role="img" aria-label="${esc(name)}">` +
    `<use href="#c-face" x="-120" y="-168" width="240" height="336"/>${body}</svg>`;
}

function courtBody(rank, suit, colour) {
  // the figure in a frame; the corner indices sit in notches of the frame (the figure leaves those
  // corners free for its suit), so that the figure keeps its printed proportions next to large indices
  const frame = "M-62 -150H96V46H62V150H-96V-46H-62Z";
  const notch = `<path d="${frame}" fill="none" stroke="#2e4fae" stroke-width="2.5"/>`;
  return `<g fill="${colour}">` +
    `<use href="/static/cards/${rank}${suit}.svg#f" x="-96" y="-150" width="192" height="300"/>` +
    `<path d="M-118 -166H-62V-46H-118ZM118 166H62V46H118Z" fill="url(#cg-face)"/>` + notch +
    `<g stroke="${colour}">${indexUses(indexGlyph(rank), suit)}</g></g>`;
}

function jokerBody() {
  // a jester's cap with bells over a star; the index a star (no word on the card)
  const cap = `<path d="M-62 30C-70 -10 -92 -40 -98 -78C-60 -70 -34 -36 -22 6Z" fill="${RED}"/>` +
    `<path d="M-22 6C-26 -40 -20 -78 0 -112C20 -78 26 -40 22 6Z" fill="#e9b93a"/>` +
    `<path d="M62 30C70 -10 92 -40 98 -78C60 -70 34 -36 22 6Z" fill="#2e4fae"/>` +
    `<path d="M-66 26Q0 -6 66 26L70 52Q0 22 -70 52Z" fill="${INK}"/>` +
    `<circle cx="-98" cy="-80" r="12" fill="#e9b93a" stroke="${INK}" stroke-width="3"/>` +
    `<circle cx="0" cy="-114" r="12" fill="${RED}" stroke="${INK}" stroke-width="3"/>` +
    `<circle cx="98" cy="-80" r="12" fill="#e9b93a" stroke="${INK}" stroke-width="3"/>`;
  const face = `<ellipse cx="0" cy="86" rx="44" ry="50" fill="#fbe3cf" stroke="${INK}" stroke-width="3"/>` +
    `<circle cx="-16" cy="76" r="5" fill="${INK}"/><circle cx="16" cy="76" r="5" fill="${INK}"/>` +
    `<path d="M-20 104Q0 122 20 104" fill="none" stroke="${RED}" stroke-width="5" stroke-linecap="round"/>` +
    `<path d="M-60 130L-40 142L-20 128L0 144L20 128L40 142L60 130L48 150H-48Z" fill="#e9b93a" stroke="${INK}" stroke-width="2.5"/>`;
  return `<g transform="translate(0 -26)">${cap}${face}</g>` +
    `<g fill="${RED}">${indexUses(null, "X", { pip: 56 })}</g>`;
}

function numberedBody(card) {
  if (card === "X") {
    const rays = Array.from({ length: 12 }, (_, i) => `<path d="M0 0L-10 -92L10 -92Z" transform="rotate(${i * 30})"/>`).join("");
    return `<rect x="-104" y="-152" width="208" height="304" rx="10" fill="url(#cg-wild)"/>` +
      `<g fill="#fff6d5" opacity="0.85">${rays}</g><circle r="54" fill="#fffdf8" stroke="#d84315" stroke-width="5"/>` +
      `<use href="#cp-X" x="-42" y="-44" width="84" height="84" fill="#d84315"/>` +
      `<g fill="#fffdf8">${indexUses(null, "X", { pip: 56 })}</g>`;
  }
  const n = Number(card);
  const colour = NUMBERED_COLOUR(n);
  const h = 130;
  const w = h * 0.68;
  return `<circle r="80" fill="${colour}" opacity="0.1"/><circle r="80" fill="none" stroke="${colour}" stroke-width="4" opacity="0.45"/>` +
    `<g stroke="${colour}"><use href="#cg-${n}" x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" stroke-width="120"/>` +
    `${indexUses(String(n), null, { h: 66 })}</g>`;
}

/** A card's face (a string): an SVG of 240×336 user units, scaled by CSS to the card's box. */
export function cardSVG(card) {
  const name = cardName(card);
  if (card === "X") return faceSVG(numberedDeck ? numberedBody("X") : jokerBody(), name, numberedDeck ? " numbered wild" : " joker");
  const suit = suitOf(card);
  const rank = rankOf(card);
  if (!suit) return faceSVG(numberedBody(rank), name, " numbered");
  const colour = suit === "H" || suit === "D" ? RED : INK;
  if (["J", "Q", "K"].includes(rank)) return faceSVG(courtBody(rank, suit, colour), name, " court");
  let pips;
  if (rank === "A") {
    // the ace: one large pip, the ace of spades larger still in a ring (as printed)
    pips = suit === "S"
      ? `<circle r="70" fill="none" stroke="${colour}" stroke-width="2.5"/><circle r="62" fill="none" stroke="${colour}" stroke-width="1"/>${pipUse(suit, 0, 0, 120)}`
      : pipUse(suit, 0, 0, 104);
  } else {
    pips = (LAYOUT[rank] || []).map(([x, y]) => pipUse(suit, x, y, PIP)).join("");
  }
  return faceSVG(`<g fill="${colour}" stroke="${colour}"><g stroke="none">${pips}</g>${indexUses(indexGlyph(rank), suit)}</g>`, name);
}

/** The back of a card. */
export function backSVG() {
  return `<svg viewBox="-120 -168 240 336" xmlns="http://www.w3.org/2000/svg" class="back" role="img" aria-label="${esc(t("card_back"))}">` +
    `<use href="#c-back" x="-120" y="-168" width="240" height="336"/></svg>`;
}

/** An empty place for a card: drawn as a place on the felt (by CSS, ``.card.slot``), with no words or
 * numbers on it; ``name`` is its spoken name (default "empty"). ``label`` is no longer drawn: a
 * place is known by where it lies and by its spoken name, never by notation. */
export function slotSVG(label = "", name = "") {
  return `<svg viewBox="-120 -168 240 336" xmlns="http://www.w3.org/2000/svg" class="place" role="img" aria-label="${esc(name || t("empty"))}">` +
    `<rect x="-116" y="-164" width="232" height="328" rx="14" fill="rgba(0,0,0,0.16)" stroke="rgba(255,255,255,0.28)" stroke-width="3"/></svg>`;
}
