// What a table's link opens before any WebSocket, for every game: play with the seat's stored
// token (at a finished table too: its end and the rematch question), a form to take a free seat,
// the spectator's view, or the end of a finished table.

import { main, setRerender, setStatus } from "./app.js";
import { esc } from "./html.js";
import { hasText, presetName, t } from "./i18n.js";
import { api, getName, getSeat, saveSeat } from "./store.js";
import { gameType } from "./games.js";

/** Open table ``info`` (TableInfo) with ``Client`` (a class: ``new Client(info, token).connect()``);
 * ``label`` names the game in the join form (optional). */
export function openSeat(info, Client, label = "") {
  const held = getSeat(info.id);
  const watch = new URLSearchParams(location.search).has("watch");
  // a seated person back at a finished table (a reload of the game-over view) gets the game's end
  // and the rematch question from the server; not when the server just refused this very hello
  if (info.status === "finished" && held && !watch && !notice) new Client(info, held.token).connect();
  else if (info.status === "finished" || info.status === "abandoned") showFinished(info);
  else if (held && !watch) new Client(info, held.token).connect();
  else if (info.status === "open" && !watch) showJoin(info, Client, label);
  else new Client(info, null).connect();
}

// The server's reason why the page was opened again; the next table client takes it (takeNotice)
// and shows it in its message line.
let notice = "";

/** What the page was opened again for (empty if nothing): for a table client's constructor. */
export function takeNotice() {
  const reason = notice;
  notice = "";
  return reason;
}

/** The server refused this page's hello (``wrong-token``: the stored seat is not this table's;
 * ``no-table``: the table went away after the page looked it up): look table ``id`` up again, since
 * it may have finished, have a free seat or be there to watch, and ``open`` that (the game's own
 * openTable) with ``reason`` on show. */
export async function reopen(id, reason, open) {
  let info;
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error" role="alert">${esc(err.message)}</p><a href="/">${t("back_lobby")}</a></section>`;
    setStatus(reason);
    return;
  }
  notice = reason;
  open(info);
  // no table client took the reason (a join form, a finished table): the status line says it
  if (notice) setStatus(notice);
  notice = "";
}

function showJoin(info, Client, label) {
  const draw = () => {
    setStatus(t("table_open_join"));
    const what = label ? `${esc(label)} · ${esc(presetName(info.preset))}` : esc(presetName(info.preset));
    main().innerHTML = `<section class="panel join">
      <p>${t("table_open_join")} (${what})</p>
      <form id="join-form"><label>${t("your_name")} <input name="name" maxlength="40" value="${esc(getName())}" placeholder="${esc(t("guest"))}"></label>
      <button type="submit" class="primary" id="join">${t("join")}</button>
      <a class="btn" href="${esc(info.link)}?watch=1">${t("watch")}</a></form><p class="error" role="alert"></p></section>`;
    const form = document.getElementById("join-form");
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = form.name.value.trim() || t("guest");
      localStorage.setItem("spite.name", name);
      try {
        const joined = await api("POST", `/api/tables/${info.id}/join`, { name });
        saveSeat(info.id, joined.seat, joined.token);
        new Client(joined.table, joined.token).connect();
      } catch (err) {
        main().querySelector(".error").textContent = err.message;
      }
    });
  };
  setRerender(draw);
  draw();
}

function showFinished(info) {
  let reviewable = false; // a turn-based game's last game can be reviewed (its type says: games.js)
  const draw = () => {
    const status = hasText(`table_status_${info.status}`) ? t(`table_status_${info.status}`) : info.status;
    setStatus(t("table_gone", { status }));
    const rec = info.gameId != null ? `<a href="/replay/${info.gameId}" id="replay-link">${t("replay")}</a> · ` +
      `<a href="/api/games/${info.gameId}/record" id="record-link">${t("record")}</a> · ` : "";
    const review = reviewable && info.gameId != null
      ? `<a href="/replay/${info.gameId}?review=1" id="review-link">${t("rv_review")}</a> · ` : "";
    main().innerHTML = `<section class="panel"><p>${esc(t("table_gone", { status }))}</p>
      <p>${rec}${review}<a href="/">${t("back_lobby")}</a></p></section>`;
  };
  setRerender(draw);
  draw();
  gameType(info.game).then((type) => {
    if (type && !type.realtime) {
      reviewable = true;
      draw();
    }
  }, () => {});
}
