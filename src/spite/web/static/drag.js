// Drag and drop with pointer events, for the mouse, a pen and a finger alike, at every table
// (table.js, spit.js). A card picked up follows the pointer as a copy in a layer over the table
// (it takes no clicks); the real card stays in place, so a redraw while it is carried (another
// player's move, a Spit flip) changes nothing of the drag. Dropped on a place, the screen is asked
// to play there (and shows the refusal there if the rules say no); dropped anywhere else, nothing
// happens. A press that does not move is a click, as before.
//
// HTML5 drag and drop is not used: phones do not start it from a touch, and a redraw of the
// dragged element ends it.

const THRESHOLD = 6; // pixels the pointer moves before a press becomes a drag

let active = null; // the drag under way: {el, ghost, startX, startY, dragging, handlers, over}
let swallowClick = false;

function layer() {
  let el = document.getElementById("drag-layer");
  if (!el) {
    el = document.createElement("div");
    el.id = "drag-layer";
    el.setAttribute("aria-hidden", "true");
    document.body.appendChild(el);
  }
  return el;
}

/** The drop place under the pointer (``selector`` matches places), the ghost being see-through to it. */
function placeAt(x, y, selector) {
  const el = document.elementFromPoint(x, y);
  return el?.closest?.(selector) ?? null;
}

function markOver(el) {
  if (active.over === el) return;
  active.over?.removeAttribute?.("data-drop-over");
  active.over = el;
  el?.setAttribute?.("data-drop-over", "1");
}

function moveGhost(x, y) {
  const g = active.ghost;
  if (g) g.style.transform = `translate(${x - active.dx}px, ${y - active.dy}px) rotate(3deg)`;
}

function begin(ev) {
  const { el, handlers } = active;
  // the card as it looks where it was pressed (the handlers may redraw the table)
  const card = handlers.cardOf?.(el) ?? el;
  const r = card.getBoundingClientRect();
  const html = card.innerHTML;
  if (handlers.start(el) === false) {
    active = null;
    return false;
  }
  active.dragging = true;
  const ghost = document.createElement("div");
  ghost.className = "card dragging-ghost";
  ghost.innerHTML = html;
  Object.assign(ghost.style, { width: `${r.width}px`, height: `${r.height}px` });
  active.dx = active.startX - r.left;
  active.dy = active.startY - r.top;
  layer().appendChild(ghost);
  active.ghost = ghost;
  document.documentElement.dataset.dragging = "1";
  moveGhost(ev.clientX, ev.clientY);
  return true;
}

function end() {
  if (!active) return;
  active.ghost?.remove();
  active.over?.removeAttribute?.("data-drop-over");
  delete document.documentElement.dataset.dragging;
  active = null;
}

function onMove(ev) {
  if (!active || ev.pointerId !== active.pointerId) return;
  if (!active.dragging) {
    if (Math.hypot(ev.clientX - active.startX, ev.clientY - active.startY) < THRESHOLD) return;
    if (!begin(ev)) return;
  }
  ev.preventDefault();
  moveGhost(ev.clientX, ev.clientY);
  markOver(placeAt(ev.clientX, ev.clientY, active.handlers.targets));
}

function onUp(ev) {
  if (!active || ev.pointerId !== active.pointerId) return;
  const { dragging, handlers, el } = active;
  if (!dragging) {
    active = null; // a click: the click handler takes it
    return;
  }
  const target = placeAt(ev.clientX, ev.clientY, handlers.targets);
  end();
  // the click the browser sends after a drag is not a click of the person's
  swallowClick = true;
  setTimeout(() => (swallowClick = false), 0);
  if (target && target !== el) handlers.drop(el, target);
  else handlers.cancel?.(el);
}

function onCancel(ev) {
  if (!active || ev.pointerId !== active.pointerId) return;
  const { dragging, handlers, el } = active;
  end();
  if (dragging) handlers.cancel?.(el);
}

let bound = false;

function bindDocument() {
  if (bound) return;
  bound = true;
  document.addEventListener("pointermove", onMove, { passive: false });
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", onCancel);
  document.addEventListener("click", (ev) => {
    if (swallowClick) {
      swallowClick = false;
      ev.stopPropagation();
      ev.preventDefault();
    }
  }, true);
  // no native drag of pictures and text at the tables (every root a screen binds: bindDrag marks it)
  document.addEventListener("dragstart", (ev) => {
    if (ev.target.closest?.("[data-drag-root]")) ev.preventDefault();
  });
}

/** Make the elements under ``root`` that match ``handlers.sources`` draggable onto those that match
 * ``handlers.targets``. ``handlers``: ``start(el)`` (false: not now), ``drop(el, target)``,
 * ``cancel(el)``, ``cardOf(el)`` (the card to carry; default ``el``). Bind once per root element. */
export function bindDrag(root, handlers) {
  bindDocument();
  root.setAttribute("data-drag-root", "");
  if (root.dragBound === handlers.owner) return;
  root.dragBound = handlers.owner;
  root.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || active || root.dragBound !== handlers.owner) return;
    const el = ev.target.closest?.(handlers.sources);
    if (!el || !root.contains(el)) return;
    active = { el, handlers, pointerId: ev.pointerId, startX: ev.clientX, startY: ev.clientY, dragging: false, over: null };
  });
}

/** Is a card being carried now? */
export function dragging() {
  return Boolean(active?.dragging);
}
