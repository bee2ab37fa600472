// Moves in words, as a person at the table says them ("9♥ from the hand onto discard pile 1"),
// in the page's language, for every screen that tells a move: the log, the prompts, a hint, the
// replay and the review. The notation (H9-D1, T5-C2: records.md §2) stays in records, downloads
// and the notation view; here it is only read.
//
// A move's notation names a hand card by its rank ("H9") or as the very card ("H9H", records.md
// §2), and a stock or discard card not at all: a card the move does not name comes from what the
// server told with it or from the positions around it when the page has them (``moveCard``), else
// the words say what is known ("a 9", "a card").

import { rankOf, valueName } from "./cards.js";
import { cardName, hasText, t } from "./i18n.js";

/** The card a move's hand source names ("H7H" → "7H", "H10C" → "10C"), or null: a rank alone
 * ("H7", "HX", Skip-Bo "H12"), or no hand card at all. */
export function namedCard(src) {
  const m = /^H(10|[2-9AJQK])([SHDC])$/.exec(src || "");
  return m ? `${m[1]}${m[2]}` : null;
}

/** A move as the page sends it for the card a person picked: a hand card with a suit named as
 * itself ("H7" with 7♥ → "H7H-B2"), every other source as it is. */
export function pickedMove(source, card, target) {
  const named = source.startsWith("H") && card && /[SHDC]$/.test(card) ? `H${card}` : source;
  return `${named}-${target}`;
}

/** What the server told of a move besides its notation (a ``state``'s ``last``, a ``moveLog`` step:
 * the card it laid face up, the value a wild card stood for, a completed build pile) as
 * {card, wild, completed} for the words; null when it told nothing of the kind (a pass, another game). */
export function toldCard(step) {
  const told = step?.game;  // the game's own part of the step
  if (!told || !("card" in told || "wildAs" in told || "completed" in told)) return null;
  return { card: told.card ?? null, wild: told.wildAs ?? null, completed: Boolean(told.completed) };
}

/** A card token in words ("9H" → "9♥", German "9♥"; "X" → "joker"). */
export function cardWord(card) {
  return cardName(card);
}

/** A rank token with its article ("9" → "a 9", "Q" → "a Queen"). */
export function rankWord(rank) {
  return hasText(`rank.a.${rank}`) ? t(`rank.a.${rank}`) : rank;
}

/** A build pile's value as a rank ("J"; German "B"), for "K♥ as J". */
export function valueWord(value, skipbo = false) {
  const v = valueName(value, skipbo);
  return hasText(`rank.short.${v}`) ? t(`rank.short.${v}`) : v;
}

/** Where a card comes from: S, Dn, Hr (Spite and Malice), Tn (Spit), Hr (Speed). */
function fromWords(src, game) {
  if (src === "S") return t("tb_from_stock");
  if (/^D\d+$/.test(src)) return t("tb_from_discard", { i: Number(src.slice(1)) });
  if (/^T\d+$/.test(src)) return t("tb_from_tableau", { i: Number(src.slice(1)) });
  if (src.startsWith("H")) return t(game === "speed" ? "tb_from_hand_speed" : "tb_from_hand");
  return src;
}

/** Where a card goes: Bn, Dn, Cn, Tn. */
function toWords(target) {
  const i = Number(target.slice(1));
  if (target.startsWith("B")) return t("tb_to_build", { i });
  if (target.startsWith("D")) return t("tb_to_discard", { i });
  if (target.startsWith("C")) return t("tb_to_center", { i });
  if (target.startsWith("T")) return t("tb_to_slot", { i });
  return target;
}

/** The card of a move in words: the card (``card``), else the rank of a hand card, else "a card";
 * a wild with the value it stands for. */
function cardPart(src, { card = null, wild = null, skipbo = false } = {}) {
  let text;
  const named = namedCard(src);
  if (card || named) text = cardWord(card || named);
  else if (src.startsWith("H") && src.length > 1) text = rankWord(src.slice(1));
  else text = t("tb_a_card");
  return wild ? t("tb_wild", { card: text, value: valueWord(wild, skipbo) }) : text;
}

/** A move in words, without who made it: "9♥ from the hand onto discard pile 1", "passes",
 * "calls spit", "slaps center pile 2". ``info``: {card, wild (the value a wild stands for),
 * completed (the build pile it completed), skipbo, game ("spite-malice", "spit", "speed")}. */
export function moveWords(move, info = {}) {
  if (!move) return "";
  if (move === "pass") return t("tb_mv_pass");
  if (move === "spit") return t("tb_mv_spit");
  const slap = move.match(/^slap C(\d+)$/);
  if (slap) return t("tb_mv_slap", { i: Number(slap[1]) });
  const i = move.indexOf("-");
  if (i < 0) return move;
  const src = move.slice(0, i);
  const target = move.slice(i + 1);
  let text = t("tb_mv", { card: cardPart(src, info), from: fromWords(src, info.game), to: toWords(target) });
  if (info.completed) text += ` · ${t("tb_completed", { i: Number(target.slice(1)) })}`;
  return text;
}

/** "Ben: 9♥ from the hand onto discard pile 1". */
export function loggedMove(name, move, info = {}) {
  return t("tb_log_move", { name, what: moveWords(move, info) });
}

function top(cards) {
  return cards?.length ? cards[cards.length - 1] : null;
}

/** What a Spite and Malice move of ``seat`` did, from the views before (``before``) and after
 * (``after``) it (each a seat's view: records.md §5): {card, wild, completed, skipbo}. A card the
 * views do not show (a hand card that completed a build pile, another player's) stays unknown. */
export function moveCard(before, after, seat, move) {
  const info = { card: null, wild: null, completed: false };
  if (!move || move === "pass" || !before) return info;
  const [src, target] = move.split("-");
  const p0 = before.players?.[seat];
  const p1 = after?.players?.[seat];
  if (!p0 || !target) return info;
  info.card = namedCard(src);
  if (src === "S") info.card = top(p0.stock_top);
  else if (src.startsWith("D")) info.card = top(p0.discards?.[Number(src.slice(1)) - 1]);
  if (target.startsWith("B")) {
    const b = Number(target.slice(1)) - 1;
    const was = before.builds?.[b];
    const now = after?.builds?.[b];
    if (now && was && was.value > 0 && now.value === 0) info.completed = true;
    if (!info.card && now?.top && !info.completed) info.card = now.top;
    if (!info.card && src.startsWith("H") && p0.hand) {
      const same = p0.hand.filter((c) => `H${rankOf(c)}` === src);
      if (same.length && same.every((c) => c === same[0])) info.card = same[0];
    }
    // a wild (a King or a joker) that stands for another value
    const value = info.completed ? (was?.value ?? 0) + 1 : now?.value;
    if (info.card && value && !sameValue(info.card, value)) info.wild = value;
  } else if (target.startsWith("D") && p1) {
    info.card = info.card || top(p1.discards?.[Number(target.slice(1)) - 1]);
  }
  return info;
}

function sameValue(card, value) {
  const r = rankOf(card);
  const n = { A: 1, J: 11, Q: 12, K: 13, X: 14 }[r] ?? Number(r);
  return n === value;
}
