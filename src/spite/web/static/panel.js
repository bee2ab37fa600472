// The table's side panel (the log and the settings) and the notation view, shared by every table
// screen (table.js, spit.js) and the replay: the person's choices, kept in localStorage.

import { setSound, sound, soundOn } from "./sound.js";

/** Is this a wide screen (the panel beside the table) rather than a narrow one (the panel over it)? */
export function wideScreen() {
  return window.matchMedia("(min-width: 761px)").matches;
}

/** Whether the side panel is open: the person's choice, kept per kind of screen (wide or narrow);
 * open on a wide screen, folded away on a narrow one by default. */
export function panelOpen() {
  let saved = null;
  try {
    saved = localStorage.getItem(`spite.panel.${wideScreen() ? "wide" : "narrow"}`);
  } catch {
    /* storage off: the default */
  }
  return saved ? saved === "open" : wideScreen();
}

export function setPanelOpen(open) {
  try {
    localStorage.setItem(`spite.panel.${wideScreen() ? "wide" : "narrow"}`, open ? "open" : "closed");
  } catch {
    /* storage off: the panel stays as it is */
  }
}

/** Whether the notation view is on (each move's notation, H9-D1, beside its words). */
export function notationOn() {
  try {
    return localStorage.getItem("spite.notation") === "on";
  } catch {
    return false;
  }
}

export function setNotation(on) {
  try {
    localStorage.setItem("spite.notation", on ? "on" : "off");
  } catch {
    /* storage off */
  }
}

/** Mark the page for the notation view's styles (``code.notation`` shows only then). */
export function markNotation() {
  document.documentElement.dataset.notation = notationOn() ? "1" : "0";
}

/** A button of the side panel (fold it, the notation view, the sound) pressed at any table: done, and
 * true (the table then draws itself again); false for any other button. */
export function panelSetting(id) {
  switch (id) {
    case "panel-toggle": setPanelOpen(!panelOpen()); return true;
    case "panel-close": setPanelOpen(false); return true;
    case "notation": setNotation(!notationOn()); return true;
    case "sound":
      setSound(!soundOn());
      if (soundOn()) sound("play");
      return true;
    default: return false;
  }
}
