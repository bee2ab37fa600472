// Spite and Malice moves in words: its piles (a stock, discard piles, the hand, build piles), a
// pass and a completed build pile, worded here; the card of a move and the words put together by
// the shared moves.js. Also the move the page sends for the card a person picked.

import { t } from "../../i18n.js";
import { moveWords as cardMoveWords } from "../../moves.js";

/** Where a card comes from and where it goes, in words: S (the stock), Dn (a discard pile), Hr
 * (the hand); Bn (a build pile), Dn. A pile it does not know stays in notation. */
export const pileWords = {
  from(src) {
    if (src === "S") return t("tb_from_stock");
    if (/^D\d+$/.test(src)) return t("tb_from_discard", { i: Number(src.slice(1)) });
    if (src.startsWith("H")) return t("tb_from_hand");
    return src;
  },
  to(target) {
    const i = Number(target.slice(1));
    if (target.startsWith("B")) return t("tb_to_build", { i });
    if (target.startsWith("D")) return t("tb_to_discard", { i });
    return target;
  },
};

/** A Spite and Malice move in words, without who made it: "9♥ from the hand onto discard pile 1",
 * "passes". ``info``: {card, wild (the value a wild stands for), completed (the move completed its
 * build pile), numbered (a numbered deck: values as numbers)}. */
export function moveWords(move, info = {}) {
  if (move === "pass") return t("tb_mv_pass");
  let text = cardMoveWords(move, pileWords, info);
  const i = (move || "").indexOf("-");
  if (i >= 0 && info.completed) text += ` · ${t("tb_completed", { i: Number(move.slice(i + 1).slice(1)) })}`;
  return text;
}

/** A move as the page sends it for the card a person picked: a hand card with a suit named as
 * itself ("H7" with 7♥ → "H7H-B2"), every other source as it is. */
export function pickedMove(source, card, target) {
  const named = source.startsWith("H") && card && /[SHDC]$/.test(card) ? `H${card}` : source;
  return `${named}-${target}`;
}
