// What a Spite and Malice move did, read from the positions around it (the log, the replay, the
// review): the card it laid, the value a wild card stood for, a completed build pile.

import { rankOf } from "../../cards.js";
import { namedCard } from "../../moves.js";

function top(cards) {
  return cards?.length ? cards[cards.length - 1] : null;
}

/** What a Spite and Malice move of ``seat`` did, from the views before (``before``) and after
 * (``after``) it (each a seat's view: records.md §5): {card, wild, completed}. A card the
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
