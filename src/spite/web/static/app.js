// The page: a tiny router (/, /t/{id}, /replay/{id}), the lobby and the Spite and Malice table.
// It only uses what the server gives a seat (docs/protocol.md): TableInfo, the seat's view, its legal moves.

import { LANGS, getLang, setLang, t } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { openReplay } from "./replay.js";
import { openTable } from "./table.js";

export const main = () => document.getElementById("main");

let rerender = () => {};

/** Remember how to draw the current page again (after a language switch). */
export function setRerender(fn) {
  rerender = fn;
}

export function setStatus(text) {
  document.getElementById("status").textContent = text || "";
}

function applyLang() {
  document.documentElement.lang = getLang();
  for (const b of document.querySelectorAll("button.lang")) {
    b.classList.toggle("active", b.dataset.lang === getLang());
    b.setAttribute("aria-pressed", String(b.dataset.lang === getLang()));
  }
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/))) {
    document.body.dataset.page = "table";
    openTable(m[1]);
  } else if ((m = path.match(/^\/replay\/(\d+)\/?$/))) {
    document.body.dataset.page = "replay";
    openReplay(m[1]);
  } else {
    document.body.dataset.page = "lobby";
    renderLobby();
  }
}

for (const b of document.querySelectorAll("button.lang")) {
  b.addEventListener("click", () => {
    if (!LANGS.includes(b.dataset.lang)) return;
    setLang(b.dataset.lang);
    applyLang();
    rerender();
  });
}
applyLang();
route();
