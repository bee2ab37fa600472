// Small helpers every screen of the page shares.

/** Text made safe to put inside HTML (element content or a quoted attribute). */
export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** Legal moves as source → set of targets ("S" → {"B1","B3"}, "T1" → {"C2"}); moves without "-"
 * (a pass, a flip, a slap) are left out. */
export function parseLegal(legal) {
  const map = new Map();
  for (const m of legal) {
    const i = m.indexOf("-");
    if (i < 0) continue;
    const src = m.slice(0, i);
    if (!map.has(src)) map.set(src, new Set());
    map.get(src).add(m.slice(i + 1));
  }
  return map;
}

/** Make ``target``'s content the markup ``html`` while keeping every element that is still there
 * (same tag, same `id`, same `data-place`/`data-key`): only changed attributes and text are
 * written. A redraw must not replace the element under the mouse pointer: a click whose press and
 * release land on two different elements is no click at all, and a running highlight animation
 * would start over. */
export function morph(target, html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  morphChildren(target, tpl.content);
}

function sameNode(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.id === b.id && a.getAttribute("data-place") === b.getAttribute("data-place")
    && a.getAttribute("data-key") === b.getAttribute("data-key");
}

function morphChildren(cur, next) {
  const have = [...cur.childNodes];
  const want = [...next.childNodes];
  want.forEach((n, i) => {
    const c = have[i];
    if (!c) cur.appendChild(n);
    else if (!sameNode(c, n)) cur.replaceChild(n, c);
    // most of a redraw is what was there already (a move changes a few piles): the browser's own
    // comparison of a whole subtree is many times quicker than walking it here
    else if (c.isEqualNode(n)) return;
    else if (c.nodeType === Node.ELEMENT_NODE) {
      for (const { name, value } of [...n.attributes]) if (c.getAttribute(name) !== value) c.setAttribute(name, value);
      for (const { name } of [...c.attributes]) if (!n.hasAttribute(name)) c.removeAttribute(name);
      morphChildren(c, n);
    } else if (c.nodeValue !== n.nodeValue) c.nodeValue = n.nodeValue;
  });
  for (let i = want.length; i < have.length; i++) have[i].remove();
}

const toScroll = new Set();

/** Show the end of a scrolled list (a table's log) at the next frame. Reading ``scrollHeight`` at
 * once would make the browser lay the page out a second time in the same redraw (once more for
 * each of the several redraws a move may bring); at the frame the layout is done once for all. */
export function scrollToEnd(el) {
  if (!toScroll.size) {
    requestAnimationFrame(() => {
      for (const list of toScroll) if (list.isConnected) list.scrollTop = list.scrollHeight;
      toScroll.clear();
    });
  }
  toScroll.add(el);
}

/** Link the stylesheet at ``url`` (once) and wait until it has loaded (or failed: the page still
 * works, unstyled). A page module loads its own styles this way when it is imported, so a page
 * that never opens that module never fetches them. */
export function loadStyle(url) {
  const href = new URL(url, location.href).href;
  const have = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (have) return have.loaded || Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  document.head.appendChild(link);
  return link.loaded;
}
