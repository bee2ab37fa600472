// Moves in words, as a person at the table says them ("9♥ from the hand onto discard pile 1"),
// in the page's language, for every screen that tells a move: the log, the prompts, a hint, the
// replay and the review. The notation (H9-D1, T5-C2: records.md §2) stays in records, downloads
// and the notation view; here it is only read.
//
// This module words the card of a move and puts the move's words together ("{card} {from} {to}");
// the piles are a game family's: its page module hands moveWords its own words for where a card
// comes from and where it goes (``piles``), and words the moves only its games have (a pass, a
// call, a slap) and what a move did to a pile (a completed build pile) itself.
//
// A move's notation names a hand card by its rank ("H9") or as the very card ("H9H", records.md
// §2), and a stock or discard card not at all: a card the move does not name comes from what the
// server told with it or from the positions around it when the page has them (a game's own module
// works that out: its family's board), else the words say what is known ("a 9", "a card").

import { valueName } from "./cards.js";
import { cardName, hasText, t } from "./i18n.js";

/** The card a move's hand source names ("H7H" → "7H", "H10C" → "10C"), or null: a rank alone
 * ("H7", "HX", a numbered deck's "H12"), or no hand card at all. */
export function namedCard(src) {
  const m = /^H(10|[2-9AJQK])([SHDC])$/.exec(src || "");
  return m ? `${m[1]}${m[2]}` : null;
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
export function valueWord(value, numbered = false) {
  const v = valueName(value, numbered);
  return hasText(`rank.short.${v}`) ? t(`rank.short.${v}`) : v;
}

/** The card of a move in words: the card (``card``), else the rank of a hand card, else "a card";
 * a wild with the value it stands for. */
function cardPart(src, { card = null, wild = null, numbered = false } = {}) {
  let text;
  const named = namedCard(src);
  if (card || named) text = cardWord(card || named);
  else if (src.startsWith("H") && src.length > 1) text = rankWord(src.slice(1));
  else text = t("tb_a_card");
  return wild ? t("tb_wild", { card: text, value: valueWord(wild, numbered) }) : text;
}

/** A card's move in words, without who made it: "9♥ from the hand onto discard pile 1". ``move`` is
 * SOURCE-TARGET; ``piles`` is the game family's words for its piles: {from(source), to(target)}, each a
 * pile's words ("from the hand", "onto discard pile 1"), or the notation itself for a pile it does not
 * know. ``info``: {card, wild (the value a wild stands for), numbered (a numbered deck: values as
 * numbers)}. A move that moves no card (a pass, a call) is the family's to word: here it stays as it is. */
export function moveWords(move, piles, info = {}) {
  if (!move) return "";
  const i = move.indexOf("-");
  if (i < 0) return move;
  const src = move.slice(0, i);
  const target = move.slice(i + 1);
  return t("tb_mv", { card: cardPart(src, info), from: piles.from(src), to: piles.to(target) });
}
