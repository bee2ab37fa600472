// Rematch at the same table link and the series score, the same for every game's table page: after
// the table's last game each seated person is asked ("rematch", docs/protocol.md); the new game
// begins at this link when everyone said yes (computer players say yes at once).

import { esc } from "./html.js";
import { t } from "./i18n.js";

/** The series score of the games played at ``table`` (its ``series``), or "" before the first ended. */
export function seriesHTML(table, name) {
  const series = table?.series;
  if (!series || !series.games) return "";
  const seats = series.wins.map((wins, s) => `<span class="side-score" data-seat="${s}">${esc(name(s))} <strong>${wins}</strong></span>`);
  return `<div class="series" id="series" data-games="${series.games}" data-wins="${series.wins.join(" ")}">` +
    `<span class="series-label">${esc(t("series"))}</span> ${seats.join(" – ")} ` +
    `<span class="muted">· ${esc(t("series_games", { n: series.games }))}</span></div>`;
}

/** The question and the answers so far (``ask``: the server's RematchInfo) for ``seat``; "" for a
 * spectator or when nothing is asked. */
export function rematchHTML(ask, seat, name, table) {
  if (!ask || seat === null || seat === undefined) return "";
  const person = (s) => s !== seat && table?.seats?.[s]?.kind !== "bot";
  const others = [
    ...ask.ready.filter(person).map((s) => `<li data-seat="${s}" class="yes">${esc(t("rematch_wants", { name: name(s) }))}</li>`),
    ...ask.declined.filter(person).map((s) => `<li data-seat="${s}" class="no">${esc(t("rematch_declined", { name: name(s) }))}</li>`),
  ].join("");
  const mine = ask.ready.includes(seat);
  const declined = ask.declined.includes(seat);
  const waiting = ask.waiting.filter((s) => s !== seat).map(name).join(", ");
  const line = mine
    ? `<button type="button" class="primary" id="rematch" disabled>${esc(t("rematch"))}</button> <span id="rematch-wait">${esc(t("rematch_waiting", { names: waiting }))}</span>`
    : `<span>${esc(t("rematch_asked"))}</span> <button type="button" class="primary" id="rematch">${esc(t("rematch"))}</button>` +
      ` <button type="button" id="rematch-no"${declined ? " disabled" : ""}>${esc(t("rematch_no"))}</button>`;
  return `<div class="rematch" id="rematch-ask" data-ready="${ask.ready.join(" ")}" data-waiting="${ask.waiting.join(" ")}" data-declined="${ask.declined.join(" ")}">
    <p>${line}</p>${others ? `<ul class="rematch-others">${others}</ul>` : ""}</div>`;
}

/** A rematch event of the table (``rematch-yes``, ``rematch-no``, ``rematch``) in the reader's
 * language; ``null`` for any other event. */
export function rematchText(event, name, table) {
  if (event.kind === "rematch-yes") return t("rematch_wants", { name: name(event.seat) });
  if (event.kind === "rematch-no") return t("rematch_declined", { name: name(event.seat) });
  if (event.kind === "rematch") return t("rematch_started", { n: (table?.series?.games ?? 0) + 1 });
  return null;
}
