// What a table's link opens before any WebSocket, for every game: play with the seat's stored
// token (at a finished table too: its end and the rematch question), a form to take a free seat,
// the spectator's view, or the end of a finished table.

import { main, setRerender, setStatus } from "./shell.js";
import { esc } from "./html.js";
import { hasText, presetName, t, word } from "./i18n.js";
import { api, forgetSeat, getName, getSeat, saveSeat } from "./store.js";
import { gameType } from "./games.js";
import { ratedMarkHTML } from "./people.js";
import { tournamentLinkHTML } from "./tourney-link.js";

// The table client on screen (its link, its timers): stopped when the page opens a table again (a
// refused hello, a join), so an old one neither reconnects nor reacts to keys in the new one's place.
let screen = null;

/** Show ``Client`` (a class: ``new Client(info, token).connect()``, ``stop()``) for table ``info``. */
function start(Client, info, token) {
  leaveScreen();
  screen = new Client(info, token);
  screen.connect();
}

/** Stop the table client on screen, if any (another screen takes over). */
export function leaveScreen() {
  const old = screen;
  screen = null;
  old?.stop?.();
}

/** Open table ``info`` (TableInfo) with ``Client`` (a class: ``new Client(info, token).connect()``);
 * ``label`` names the game in the join form (optional). The seat is this browser's stored one, or
 * the signed-in account's (account.js). */
export async function openSeat(info, Client, label = "") {
  leaveScreen();
  let held = getSeat(info.id);
  const watch = new URLSearchParams(location.search).has("watch");
  if (!held && !watch && !notice && info.status !== "abandoned" && localStorage.getItem("spite.handle")) {
    // signed in: a seat the account took on another of its devices is played on here (accounts.md)
    held = await (await import("./account.js")).accountSeat(info.id);
    if (held) saveSeat(info.id, held.seat, held.token);
  }
  // a seated person back at a finished table (a reload of the game-over view) gets the game's end
  // and the rematch question from the server; not when the server just refused this very hello
  if (info.status === "finished" && held && !watch && !notice) start(Client, info, held.token);
  else if (info.status === "finished" || info.status === "abandoned") showFinished(info);
  else if (held && !watch) start(Client, info, held.token);
  else if (info.status === "open" && !watch) showJoin(info, Client, label);
  else start(Client, info, null);
}

/** The seat link of ``client`` (a table client showing table ``client.table``) closed for good with
 * ``reason`` (seat-link.js: {code, message, words}): a token the table does not know is forgotten,
 * and a table that refused the hello, went away or was abandoned is looked up again and ``open``ed
 * as it is now (issue 19); any other reason (a flood) stays on show, without a reconnect. */
export function linkClosed(client, reason, open) {
  const text = word(reason?.words, reason?.message || "");
  client.stop();
  if (reason?.code === "wrong-token") forgetSeat(client.table.id);
  if (["wrong-token", "no-table", "gone", "abandoned"].includes(reason?.code)) {
    reopen(client.table.id, text, open);
    return;
  }
  client.message = text;
  client.render();
  setStatus(text);
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
      <p>${t("table_open_join")} (${what}) ${ratedMarkHTML(info)}</p>
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
        // the join's answer holds the table info with the deal's commitment: the link pins it
        start(Client, joined.table, joined.token);
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
      <p>${tournamentLinkHTML(info)}${rec}${review}<a href="/">${t("back_lobby")}</a></p></section>`;
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
