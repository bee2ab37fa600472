// Card tokens (records.md §1: "7H", "10S", "QD", "X", Skip-Bo "1".."12") and their SVG faces.
import { esc } from "./html.js";
import { t } from "./i18n.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13, X: 14 };

/** The rank part of a card token: "10H" → "10", "X" → "X", Skip-Bo "7" → "7". */
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

/** A value on a build pile as a card rank (1 → A, 12 → Q); Skip-Bo decks keep numbers. */
export function valueName(value, skipbo) {
  if (skipbo) return String(value);
  return { 1: "A", 11: "J", 12: "Q", 13: "K" }[value] ?? String(value);
}

/** A card as people say it, in the page's language: "Queen of hearts" / "Dame ♥", "7 of spades",
 * "Joker"; a Skip-Bo card is its number. The accessible name of the card's picture. */
export function cardName(card) {
  if (card === "X") return t("card_joker");
  const suit = suitOf(card);
  const rank = rankOf(card);
  if (!suit) return rank;
  const word = ["A", "J", "Q", "K"].includes(rank) ? t(`rank_${rank}`) : rank;
  // the suit as people say it: "of hearts" in English, the symbol in German ("Dame ♥")
  return t("card_name", { rank: word, suit: t(`suit_${suit}`) });
}

/** An SVG card face (a string), 60×84 user units, scaled by CSS. */
export function cardSVG(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  let color = "#1b1b1b";
  let center;
  let corner = esc(rank);
  if (card === "X") {
    color = "#6a1b9a";
    center = `<text x="30" y="52" font-size="30" text-anchor="middle" fill="${color}">★</text>`;
  } else if (suit) {
    if (suit === "H" || suit === "D") color = "#c62828";
    const sym = SUIT_SYMBOL[suit];
    corner = `${esc(rank)}<tspan font-size="11">${sym}</tspan>`;
    center = `<text x="30" y="55" font-size="30" text-anchor="middle" fill="${color}">${sym}</text>`;
  } else {
    const n = Number(rank);
    color = n <= 4 ? "#1565c0" : n <= 8 ? "#2e7d32" : "#c62828";
    center = `<text x="30" y="55" font-size="28" font-weight="700" text-anchor="middle" fill="${color}">${esc(rank)}</text>`;
  }
  return `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(cardName(card))}">` +
    `<rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf7" stroke="#555" stroke-width="1.2"/>` +
    `<text x="5" y="17" font-size="15" font-weight="700" fill="${color}">${corner}</text>` +
    `<text x="55" y="79" font-size="15" font-weight="700" fill="${color}" text-anchor="end">${card === "X" ? "X" : esc(rank)}</text>` +
    center + `</svg>`;
}

/** The back of a card. */
export function backSVG() {
  return `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(t("card_back"))}">` +
    `<defs><pattern id="bk" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="8" height="8" fill="#23489c"/><rect width="4" height="8" fill="#2f5bbf"/></pattern></defs>` +
    `<rect x="1" y="1" width="58" height="82" rx="6" fill="url(#bk)" stroke="#1a1a40" stroke-width="1.2"/>` +
    `<rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#e0e6ff" stroke-width="1"/></svg>`;
}

/** An empty slot: ``label`` drawn in it, ``name`` its spoken name (default: the label, or "empty"). */
export function slotSVG(label = "", name = "") {
  return `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(name || label || t("empty"))}">` +
    `<rect x="1.5" y="1.5" width="57" height="81" rx="6" fill="none" stroke="#9fb7a6" stroke-width="1.5" stroke-dasharray="4 3"/>` +
    `<text x="30" y="48" font-size="13" text-anchor="middle" fill="#cfe3d4">${esc(label)}</text></svg>`;
}
