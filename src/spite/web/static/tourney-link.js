// The way back from a tournament's table to its page, the same for every game's table page: the
// table's info names its tournament (its fair deal's ``tournament``: the deal is the tournament's),
// and the tournament page remembers each table it opened for this browser.

import { esc } from "./html.js";
import { t } from "./i18n.js";

const KEY = "spite.tourneyTables";

function tables() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** Remember that table ``table`` was opened for tournament ``tournament`` (the newest 50 kept). */
export function markTournamentTable(table, tournament) {
  const all = tables();
  all[table] = { tournament, at: Date.now() };
  const keep = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(keep)));
}

/** The tournament table ``info`` (a TableInfo) belongs to, or null. */
export function tournamentOf(info) {
  if (!info) return null;
  return info.tournament || info.fair?.tournament || tables()[info.id]?.tournament || null;
}

/** The link back to the tournament of table ``info`` ("" for a table of no tournament). */
export function tournamentLinkHTML(info) {
  const id = tournamentOf(info);
  return id ? `<a class="btn primary" id="to-tournament" href="/tournament/${esc(encodeURIComponent(id))}">${esc(t("tn_back"))}</a> · ` : "";
}
