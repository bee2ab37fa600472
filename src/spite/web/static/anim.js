// Cards that move at a table, and the pace of the computer's moves: what every table's flights share
// (the layer, a card's flight, the cards still landing) and the flight of a move between two places;
// a game's own flights (where its places are, what a move did) are in its module's folder.
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

import { esc } from "./html.js";
import { t } from "./i18n.js";

/** Milliseconds from one shown move to another player's next one. ``instant`` is not offered on the
 * page: it is for tests whose subject is not the pace. */
export const PACES = { slow: 1300, normal: 750, fast: 300, instant: 0 };
const PACE_KEY = "spite.pace";
export const FLIGHT_MS = 240;
export const DEAL_MS = 220;
export const DEAL_STAGGER_MS = 70;
export const LEAVE_MS = 420;
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
      this.apply(msg, false);
      // the pace runs from the moment a move has been drawn: a slow redraw (a busy phone) does not
      // shorten the time the person has to see it
      if (msg.type === "state" && msg.last) this.lastShown = performance.now();
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
/** The layer the flying copies are drawn in, over the table (no pointer events: table-extra.css). */
export function layer() {
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

/** The top card of a place (the element itself when it is a card), or null. */
export function topCard(el) {
  if (!el) return null;
  const cards = el.querySelectorAll(".card");
  return cards.length ? cards[cards.length - 1] : el.classList.contains("card") ? el : null;
}

/** Count a flight (the page's data-flights, data-last-flight and a ``spite:flight`` event: for tests and tools). */
export function count(move) {
  const d = document.documentElement.dataset;
  d.flights = String(Number(d.flights || 0) + 1);
  d.lastFlight = move;
  document.dispatchEvent(new CustomEvent("spite:flight", { detail: { move } }));
}

/** A copy of ``html`` flying from rectangle ``from`` onto element ``to`` (whose rectangle is ``dest``
 * when the caller has measured it: several flights of one redraw measure all their places first, as
 * each copy added to the page would make the next measure lay the page out again). */
export function fly(from, to, html, { delay = 0, duration = FLIGHT_MS, selector = null, move = "", dest = null } = {}) {
  dest ??= to.getBoundingClientRect();
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
  // only the transform moves (the shadow is the copy's own, table-extra.css): the compositor flies
  // it alone, where a changing shadow would be painted again at every frame
  const anim = ghost.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
    { transform: "none" },
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

/** Before a redraw, where the card of a move between two places (``data-place`` selectors) is;
 * ``runPlaceFlights`` flies it after the redraw. */
export function planPlaceFlight(root, fromSel, toSel, move) {
  if (!root || reducedMotion()) return null;
  const from = topCard(root.querySelector(fromSel));
  return from ? { from: from.getBoundingClientRect(), toSel, move } : null;
}

export function runPlaceFlights(plans, root) {
  const flights = plans.map((plan) => [plan, topCard(root.querySelector(plan.toSel))])
    .filter(([, landed]) => landed && landed.dataset.card)
    .map(([plan, landed]) => [plan, landed, landed.getBoundingClientRect()]);
  for (const [plan, landed, dest] of flights) {
    fly(plan.from, landed, landed.innerHTML, { move: plan.move, duration: 160, selector: plan.toSel, dest });
  }
}
