// Cards that move at the Spite and Malice table, and the pace of the computer's moves.
//
// Nothing here holds the game up: the table applies every position at once and redraws; a flight
// is a copy of the card that landed, drawn in a layer above the table (no pointer events) and
// moved from where the card came from to where it lies now (FLIP: first, last, invert, play, with
// the Web Animations API). The real card under it is only see-through until the copy arrives, so a
// click or a key during a flight does what it would do without one. Users who ask for less motion
// (`prefers-reduced-motion`) get no flights.
//
// The pacer spaces the other players' moves so that a bot's turn can be followed one card at a
// time (slow / normal / fast, kept in localStorage); a table that falls behind (a long queue, a
// hidden tab) skips to the newest position without flights.

import { cardSVG, handToken } from "./cards.js";
import { esc } from "./html.js";
import { t } from "./i18n.js";
import { namedCard } from "./moves.js";

/** Milliseconds from one shown move to another player's next one. ``instant`` is not offered on the
 * page: it is for tests whose subject is not the pace. */
export const PACES = { slow: 1300, normal: 750, fast: 300, instant: 0 };
const PACE_KEY = "spite.pace";
const FLIGHT_MS = 240;
const DEAL_MS = 220;
const DEAL_STAGGER_MS = 70;
const LEAVE_MS = 420;
// a table this far behind skips to the newest position: more positions waiting than this, or the
// oldest waiting longer (three computers' turns at a party table fit in; a stalled tab does not)
const MAX_BEHIND = 30;
const MAX_WAIT_MS = 12000;

export function getPace() {
  const saved = localStorage.getItem(PACE_KEY);
  return saved in PACES ? saved : "normal";
}

export function setPace(pace) {
  if (pace in PACES) localStorage.setItem(PACE_KEY, pace);
}

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** The pace select of the table's side panel (bind it with ``bindPace``). */
export function paceHTML() {
  const pace = getPace() === "instant" ? "fast" : getPace(); // instant (tests) shows as the nearest offered
  const opts = ["slow", "normal", "fast"].map((p) => `<option value="${p}"${p === pace ? " selected" : ""}>${esc(t(`pace_${p}`))}</option>`).join("");
  return `<label class="setting">${esc(t("pace"))} <select id="pace">${opts}</select></label>`;
}

export function bindPace(root) {
  root.querySelector("#pace")?.addEventListener("change", (ev) => setPace(ev.target.value));
}

/** The table's incoming messages in order; a position after another seat's move waits until the
 * pace's time since the last shown move has passed. ``apply(msg, skipping)`` shows one message
 * (``skipping``: it is one of several shown at once, without flights or sounds). */
export class Pacer {
  constructor(apply, mySeat) {
    this.apply = apply;
    this.mySeat = mySeat;
    this.queue = [];
    this.timer = null;
    this.lastShown = 0;
    this.onHide = () => {
      if (document.hidden) this.flush();
    };
    document.addEventListener("visibilitychange", this.onHide);
  }

  /** Another seat's move (the ones that are paced). */
  paced(msg) {
    return msg.type === "state" && msg.last && !msg.last.undone && msg.last.seat !== this.mySeat();
  }

  push(msg) {
    this.queue.push({ msg, at: performance.now() });
    // a new connection's welcome, a hidden tab or a table that fell behind: show the newest now
    if (msg.type === "welcome" || document.hidden || this.fellBehind()) this.flush();
    else this.pump();
  }

  fellBehind() {
    return this.queue.length > MAX_BEHIND || (this.queue.length > 0 && performance.now() - this.queue[0].at > MAX_WAIT_MS);
  }

  pump() {
    if (this.timer) return;
    if (this.fellBehind()) {
      this.flush();
      return;
    }
    while (this.queue.length) {
      const { msg } = this.queue[0];
      if (this.paced(msg)) {
        const wait = this.lastShown + PACES[getPace()] - performance.now();
        if (wait > 0) {
          this.timer = setTimeout(() => {
            this.timer = null;
            this.pump();
          }, wait);
          return;
        }
      }
      this.queue.shift();
      if (msg.type === "state" && msg.last) this.lastShown = performance.now();
      this.apply(msg, false);
    }
  }

  /** The table closed: nothing queued is shown any more, and the listener goes with it. */
  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    document.removeEventListener("visibilitychange", this.onHide);
  }

  /** Everything queued, at once: only the last message is drawn with its flights. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    const all = this.queue.splice(0);
    all.forEach(({ msg }, i) => this.apply(msg, i < all.length - 1));
    if (all.length) this.lastShown = performance.now();
  }
}

// ------------------------------------------------------------------ flights
function layer() {
  let el = document.getElementById("anim-layer");
  if (!el) {
    el = document.createElement("div");
    el.id = "anim-layer";
    el.setAttribute("aria-hidden", "true");
    document.body.appendChild(el);
  }
  return el;
}

// cards still in the air: {selector, until}; a redraw during a flight hides the new card there too
let landing = [];

function topCard(el) {
  if (!el) return null;
  const cards = el.querySelectorAll(".card");
  return cards.length ? cards[cards.length - 1] : el.classList.contains("card") ? el : null;
}

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

function count(move) {
  const d = document.documentElement.dataset;
  d.flights = String(Number(d.flights || 0) + 1);
  d.lastFlight = move;
  document.dispatchEvent(new CustomEvent("spite:flight", { detail: { move } }));
}

/** A copy of ``html`` flying from rectangle ``from`` onto element ``to``. */
function fly(from, to, html, { delay = 0, duration = FLIGHT_MS, selector = null, move = "" } = {}) {
  const dest = to.getBoundingClientRect();
  if (!dest.width || !from.width) return null;
  const ghost = document.createElement("div");
  ghost.className = "card flying";
  ghost.dataset.flight = move;
  ghost.innerHTML = html;
  Object.assign(ghost.style, { left: `${dest.left}px`, top: `${dest.top}px`, width: `${dest.width}px`, height: `${dest.height}px` });
  layer().appendChild(ghost);
  const dx = from.left - dest.left;
  const dy = from.top - dest.top;
  const scale = from.width / dest.width;
  const anim = ghost.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, boxShadow: "0 10px 22px rgba(0,0,0,0.45)" },
    { transform: "none", boxShadow: "0 2px 4px rgba(0,0,0,0.3)" },
  ], { duration, delay, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", fill: "backwards" });
  anim.finished.then(() => ghost.remove(), () => ghost.remove());
  hide(to, delay + duration);
  if (selector) landing.push({ selector, until: performance.now() + delay + duration });
  count(move);
  return anim;
}

function hide(el, ms) {
  el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: ms });
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
  let delay = 0;
  if (plan.from) {
    const targetEl = placeEl(root, plan.seat, plan.target);
    const landed = topCard(targetEl);
    if (plan.completed && targetEl) {
      // the card goes onto the pile's place, and the whole pile goes away
      const at = targetEl.getBoundingClientRect();
      const ghost = document.createElement("div");
      Object.assign(ghost.style, { position: "fixed", left: `${at.left}px`, top: `${at.top}px`, width: `${at.width}px`, height: `${at.height}px` });
      layer().appendChild(ghost);
      const anim = fly(plan.from, ghost, plan.cardHTML, { move: plan.move });
      if (anim) anim.finished.then(() => ghost.remove(), () => ghost.remove());
      else ghost.remove();
      leave(plan, at, FLIGHT_MS);
      delay = FLIGHT_MS + LEAVE_MS / 2;
    } else if (landed) {
      fly(plan.from, landed, landed.innerHTML, { move: plan.move, selector: selectorOf(plan.seat, plan.target) });
      delay = FLIGHT_MS / 2;
    }
  }
  if (plan.drawRect) {
    for (const { seat, n } of plan.deals) {
      const cards = [...root.querySelectorAll(`${playerSel(seat)} .hand .card`)].slice(-n);
      cards.forEach((el, i) => {
        fly(plan.drawRect, el, el.innerHTML, { delay: delay + i * DEAL_STAGGER_MS, duration: DEAL_MS, move: "deal" });
      });
    }
  }
}

/** After any redraw: a card whose copy is still in the air stays see-through at its new element. */
export function keepLanding(root) {
  const now = performance.now();
  landing = landing.filter((l) => l.until > now);
  for (const l of landing) {
    const el = topCard(root.querySelector(l.selector));
    if (el) hide(el, l.until - now);
  }
}

/** Flights of one table that are still running (for a table that is left). */
export function cancelFlights() {
  landing = [];
  document.getElementById("anim-layer")?.replaceChildren();
}

/** Spit and Speed: before a redraw, where the card of a move between two places (``data-place``
 * selectors) is; ``runPlaceFlights`` flies it after the redraw. */
export function planPlaceFlight(root, fromSel, toSel, move) {
  if (!root || reducedMotion()) return null;
  const from = topCard(root.querySelector(fromSel));
  return from ? { from: from.getBoundingClientRect(), toSel, move } : null;
}

export function runPlaceFlights(plans, root) {
  for (const plan of plans) {
    const landed = topCard(root.querySelector(plan.toSel));
    if (landed && landed.dataset.card) fly(plan.from, landed, landed.innerHTML, { move: plan.move, duration: 160, selector: plan.toSel });
  }
}
