// The flights of the Spite and Malice table: where each place of a seat is drawn (its stock, discard
// piles, hand, the build piles and the draw pile), what a move did (a play, a discard, a completed pile
// that leaves) and the refill dealt into a hand. The flying itself is the shared anim.js's.

import { DEAL_MS, DEAL_STAGGER_MS, FLIGHT_MS, LEAVE_MS, count, fly, layer, reducedMotion, topCard } from "../../anim.js";
import { cardSVG, handToken } from "../../cards.js";
import { namedCard } from "../../moves.js";

function playerSel(seat) {
  return `.board .player[data-seat="${seat}"]`;
}

/** The element of place ``name`` (S, D2, B3, H7, draw) of ``seat`` at the table drawn in ``root``. */
function placeEl(root, seat, name) {
  if (name === "draw") return root.querySelector('.center [data-pile="draw"]');
  // partners' one stock is drawn at one of them (table.js, stockSeat): data-team-seats names both
  if (name === "S") return root.querySelector(`.board [data-pile="stock"][data-team-seats~="${seat}"]`);
  let m;
  if ((m = name.match(/^B(\d)$/))) return root.querySelector(`.center [data-pile="build"][data-target="B${m[1]}"]`);
  if ((m = name.match(/^D(\d)$/))) return root.querySelector(`${playerSel(seat)} [data-pile="discard"][data-index="${m[1]}"]`);
  if (name.startsWith("H")) {
    // the very card a move names (H7H), else the first of its rank (H7), else (another's hand of
    // backs) the last card
    const cards = [...root.querySelectorAll(`${playerSel(seat)} .hand .card`)];
    const named = namedCard(name);
    return (named && cards.find((c) => c.dataset.card === named))
      || cards.find((c) => c.dataset.card && handToken(c.dataset.card) === name) || cards[cards.length - 1] || null;
  }
  return null;
}

function selectorOf(seat, name) {
  if (name.startsWith("B")) return `.center [data-pile="build"][data-target="${name}"]`;
  if (name.startsWith("D")) return `${playerSel(seat)} [data-pile="discard"][data-index="${name.slice(1)}"]`;
  return null;
}

function handCount(p) {
  return p.hand ? p.hand.length : p.hand_size ?? 0;
}

/** What a position change was, for sounds and flights: ``kind`` play (onto a build pile), discard,
 * pass or none; ``completed``: the build pile it went on was full and left. */
export function describeMove(prevView, msg) {
  const move = msg.last && !msg.last.undone ? msg.last.move : "";
  if (!move) return { kind: "none", completed: false, move };
  if (move === "pass") return { kind: "pass", completed: false, move };
  const target = move.slice(move.indexOf("-") + 1);
  let completed = false;
  if (target.startsWith("B") && prevView) {
    const i = Number(target.slice(1)) - 1;
    const before = prevView.builds[i]?.value ?? 0;
    const after = msg.view.builds[i]?.value ?? 0;
    completed = before > 0 && after === 0;
  }
  return { kind: target.startsWith("B") ? "play" : "discard", completed, move };
}

/** Before a new position is drawn: where the moved card and the draw pile are now. Returns a plan
 * for ``runFlights`` after the redraw (null when nothing is to move). */
export function planFlights(root, prevView, msg) {
  if (!root || !prevView || reducedMotion()) return null;
  const { move, completed } = describeMove(prevView, msg);
  const seat = msg.last?.seat;
  const plan = { move, seat, completed, from: null, cardHTML: "", deals: [], drawRect: null };
  const drawEl = placeEl(root, seat, "draw");
  plan.drawRect = drawEl ? drawEl.getBoundingClientRect() : null;
  if (move && move !== "pass") {
    const [src, target] = move.split("-");
    const srcCard = topCard(placeEl(root, seat, src));
    if (srcCard) {
      plan.from = srcCard.getBoundingClientRect();
      plan.target = target;
      // the card as the server told it (another's hand card, face down until it lands), else as it lay
      const token = msg.last?.card || namedCard(src) || srcCard.dataset.card;
      plan.cardHTML = token ? cardSVG(token) : srcCard.innerHTML;
    }
  }
  // a refill: cards drawn into a hand are the last ones of it
  msg.view.players.forEach((p, s) => {
    const before = handCount(prevView.players[s] || {});
    const played = s === seat && move.startsWith("H") ? 1 : 0;
    const drawn = handCount(p) - (before - played);
    if (drawn > 0 && !msg.last?.undone) plan.deals.push({ seat: s, n: drawn });
  });
  return plan.from || plan.deals.length ? plan : null;
}

/** A full build pile leaves the table: its last card shrinks away towards the draw pile. */
function leave(plan, at, delay) {
  const ghost = document.createElement("div");
  ghost.className = "card flying leaving";
  ghost.dataset.flight = "complete";
  ghost.innerHTML = plan.cardHTML;
  Object.assign(ghost.style, { left: `${at.left}px`, top: `${at.top}px`, width: `${at.width}px`, height: `${at.height}px` });
  layer().appendChild(ghost);
  const to = plan.drawRect || at;
  const dx = to.left - at.left;
  const dy = to.top - at.top;
  const anim = ghost.animate([
    { transform: "none", opacity: 1 },
    { transform: "translateY(-14px) rotate(-6deg) scale(1.08)", opacity: 1, offset: 0.35 },
    { transform: `translate(${dx}px, ${dy}px) rotate(-20deg) scale(0.5)`, opacity: 0 },
  ], { duration: LEAVE_MS, delay, easing: "ease-in", fill: "both" });
  anim.finished.then(() => ghost.remove(), () => ghost.remove());
  count("complete");
}

/** After the redraw: fly the moved card, let a full pile leave, deal a refill. */
export function runFlights(plan, root) {
  if (!plan || !root) return;
  // every place is measured before the first copy is added to the page: one layout for the redraw
  const targetEl = plan.from ? placeEl(root, plan.seat, plan.target) : null;
  const landed = topCard(targetEl);
  const at = plan.completed && targetEl ? targetEl.getBoundingClientRect() : landed?.getBoundingClientRect();
  const deals = plan.drawRect ? plan.deals.flatMap(({ seat, n }) =>
    [...root.querySelectorAll(`${playerSel(seat)} .hand .card`)].slice(-n)
      .map((el, i) => ({ el, i, dest: el.getBoundingClientRect() }))) : [];
  let delay = 0;
  if (plan.from) {
    if (plan.completed && targetEl) {
      // the card goes onto the pile's place, and the whole pile goes away
      const ghost = document.createElement("div");
      Object.assign(ghost.style, { position: "fixed", left: `${at.left}px`, top: `${at.top}px`, width: `${at.width}px`, height: `${at.height}px` });
      layer().appendChild(ghost);
      const anim = fly(plan.from, ghost, plan.cardHTML, { move: plan.move, dest: at });
      if (anim) anim.finished.then(() => ghost.remove(), () => ghost.remove());
      else ghost.remove();
      leave(plan, at, FLIGHT_MS);
      delay = FLIGHT_MS + LEAVE_MS / 2;
    } else if (landed) {
      fly(plan.from, landed, landed.innerHTML, { move: plan.move, selector: selectorOf(plan.seat, plan.target), dest: at });
      delay = FLIGHT_MS / 2;
    }
  }
  for (const { el, i, dest } of deals) {
    fly(plan.drawRect, el, el.innerHTML, { delay: delay + i * DEAL_STAGGER_MS, duration: DEAL_MS, move: "deal", dest });
  }
}

