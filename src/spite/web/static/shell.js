// The page's shell, below every screen: the main area a screen draws into, the status line, and how
// the current screen draws itself again (after a language switch). The router (app.js) opens the
// screens; the screens import only this, never the router.

export const main = () => document.getElementById("main");

let rerender = () => {};

/** Remember how to draw the current page again (after a language switch). */
export function setRerender(fn) {
  rerender = fn;
}

/** Draw the current page again. */
export function redraw() {
  rerender();
}

export function setStatus(text) {
  document.getElementById("status").textContent = text || "";
}
