// Rematch at the same table link and the series score, the same for every game's table page: after
// the table's last game each seated person is asked ("rematch", docs/protocol.md); the new game
// begins at this link when everyone said yes (computer players say yes at once).

import { esc } from "./html.js";
import { t, word } from "./i18n.js";
import { createTable } from "./lobby.js";

/** The series score of the games played at ``table`` (its ``series``), or "" before the first ended. */
export function seriesHTML(table, name) {
  const series = table?.series;
  if (!series || !series.games) return "";
  const seats = series.wins.map((wins, s) => `<span class="side-score" data-seat="${s}">${esc(name(s))} <strong>${wins}</strong></span>`);
  return `<div class="series" id="series" data-games="${series.games}" data-wins="${series.wins.join(" ")}">` +
    `<span class="series-label">${esc(t("series"))}</span> ${seats.join(" – ")} ` +
    `<span class="muted">· ${esc(t("series_games", { n: series.games }))}</span></div>`;
}

/** The question and the answers so far (``ask``: the server's RematchInfo) for ``seat``, "" when
 * nothing is asked. Once a person said no thanks, everyone sees it at once (the one who said it
 * too, and on a reload: the server keeps the answers), with the ways on: the lobby, a new table of
 * the same kind; a watcher sees the answers. */
export function rematchHTML(ask, seat, name, table) {
  if (!ask) return "";
  const watching = seat === null || seat === undefined;
  const person = (s) => s !== seat && table?.seats?.[s]?.kind !== "bot";
  const declined = ask.declined.filter((s) => s !== seat && table?.seats?.[s]?.kind !== "bot");
  const iDeclined = !watching && ask.declined.includes(seat);
  const others = [
    ...ask.ready.filter(person).map((s) => `<li data-seat="${s}" class="yes">${esc(t("rematch_wants", { name: name(s) }))}</li>`),
    ...declined.map((s) => `<li data-seat="${s}" class="no">${esc(t("rematch_declined", { name: name(s) }))}</li>`),
  ].join("");
  const data = `data-ready="${ask.ready.join(" ")}" data-waiting="${ask.waiting.join(" ")}" data-declined="${ask.declined.join(" ")}"`;
  const list = others ? `<ul class="rematch-others">${others}</ul>` : "";
  if (watching) return others ? `<div class="rematch" id="rematch-ask" ${data}>${list}</div>` : "";
  const waysOn = `<p class="ways-on" id="rematch-ways"><a class="btn" href="/" id="to-lobby">${esc(t("back_lobby"))}</a>` +
    ` <button type="button" class="primary" id="new-table">${esc(t("tb_new_table"))}</button></p>`;
  let line;
  if (iDeclined) {
    // the person's own no, confirmed; a yes is still possible (the server takes it)
    line = `<p id="rematch-declined" role="status">${esc(t("tb_you_declined"))}</p>${waysOn}` +
      `<p class="muted">${esc(t("tb_changed_mind"))} <button type="button" class="small" id="rematch">${esc(t("rematch"))}</button></p>`;
  } else if (declined.length) {
    // someone else said no: no more waiting for them
    const names = declined.map(name).join(", ");
    line = `<p id="rematch-declined" role="status">${esc(t("tb_no_rematch", { names }))}</p>${waysOn}`;
  } else if (ask.ready.includes(seat)) {
    const waiting = ask.waiting.filter((s) => s !== seat).map(name).join(", ");
    line = `<p><button type="button" class="primary" id="rematch" disabled>${esc(t("rematch"))}</button> <span id="rematch-wait">${esc(t("rematch_waiting", { names: waiting }))}</span></p>`;
  } else {
    line = `<p><span>${esc(t("rematch_asked"))}</span> <button type="button" class="primary" id="rematch">${esc(t("rematch"))}</button>` +
      ` <button type="button" id="rematch-no">${esc(t("rematch_no"))}</button></p>`;
  }
  return `<div class="rematch" id="rematch-ask" ${data}>${line}${declined.length ? "" : list}</div>`;
}

/** A new table like ``table`` (its game, preset, options; a computer where a computer sat, a free
 * seat for each other person), with this browser's player at the first seat: the way on after a
 * rematch was declined. Goes to the new table. */
export async function newTableLike(table) {
  const seats = (table.seats || []).map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "person" }));
  await createTable(table.preset, table.options || {}, seats, table.game);
}

/** A rematch event of the table (``rematch-yes``, ``rematch-no``, ``rematch``) in the reader's
 * language; ``null`` for any other event. */
export function rematchText(event, name, table) {
  if (event.kind === "rematch-yes") return t("rematch_wants", { name: name(event.seat) });
  if (event.kind === "rematch-no") return t("rematch_declined", { name: name(event.seat) });
  if (event.kind === "rematch") return t("rematch_started", { n: (table?.series?.games ?? 0) + 1 });
  return null;
}

/** A server event of any table in the reader's words: the rematch's own, or the event's catalogue
 * words with a computer player called by its name (``name``: a seat's plain name). */
export function tableEventText(ev, table, name) {
  const own = rematchText(ev, name, table);
  if (own) return own;
  if (!ev.words) return ev.text || "";
  const params = { ...(ev.words.params || {}) };
  if (ev.seat !== null && ev.seat !== undefined && "name" in params && table.seats?.[ev.seat]?.kind === "bot") {
    params.name = name(ev.seat);
  }
  return word({ key: ev.words.key, params }, ev.text);
}
