// Play a person now (docs/protocol.md, "Play a person"): a seek is made for a game and preset, the
// page asks about it with a long poll (``GET /api/seeks/{id}?wait=…``, answered the moment the seek
// is matched: a person near this player's rating, or after ``computerAfter`` seconds a computer near
// it), then takes its seat at the table. The time waited counts on in the page meanwhile. Cancel at
// any time.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { presetName, t } from "./i18n.js";
import { gameWord } from "./games.js";
import { api, getName, getPlayerKey, saveSeat } from "./store.js";

/** Seconds one long poll may wait at the server (it answers sooner when the seek changes). */
const LONG_POLL_S = 10;
/** After a failed ask, the next one comes this much later (the server may be restarting). */
const RETRY_MS = 1000;
const COMPUTER_AFTER = 30;

/** Go to the seat a seek was matched with. */
function takeSeat(matched) {
  saveSeat(matched.table, matched.seat, matched.token);
  location.assign(`/t/${encodeURIComponent(matched.table)}`);
}

/** Seek a game of ``game`` and ``preset``; the page shows the wait and goes to the table when matched. */
export async function startSeek(game, preset, rated = true) {
  const seek = await api("POST", "/api/seeks", {
    game, preset, rated, name: getName() || t("guest"), playerKey: getPlayerKey(), computerAfter: COMPUTER_AFTER,
  });
  let current = seek;
  let stopped = false;
  const draw = () => {
    setStatus(t("seek_status"));
    const computer = current.computerAfter != null
      ? `<p class="muted" id="seek-computer">${esc(t("seek_computer_after", { s: Math.round(current.computerAfter) }))}</p>` : "";
    main().innerHTML = `<section class="panel seek" id="seek" data-seek="${esc(current.id)}" data-state="${esc(current.state)}">
      <h2>${t("seek_title")}</h2>
      <p id="seek-what">${esc(gameWord(current.game))} · ${esc(presetName(current.preset))} · ${current.rated ? t("seek_rated") : t("seek_casual")}</p>
      <p id="seek-rating">${esc(t("seek_rating", { rating: current.rating }))}</p>
      <p class="seek-wait" aria-live="polite"><span class="spinner" aria-hidden="true"></span> <span id="seek-window">${esc(t("seek_window", { n: Math.round(current.window), s: Math.round(current.waited) }))}</span></p>
      ${computer}
      <button type="button" id="seek-cancel">${t("seek_cancel")}</button>
      <p class="error" role="alert"></p>
    </section>`;
    document.getElementById("seek-cancel").addEventListener("click", async () => {
      stopped = true;
      try {
        await api("DELETE", `/api/seeks/${encodeURIComponent(current.id)}`);
        location.assign("/");
      } catch (e) {
        // matched meanwhile (409): the seat is ours, so we take it
        document.querySelector("#seek .error").textContent = e.message;
        const now = await api("GET", `/api/seeks/${encodeURIComponent(current.id)}`).catch(() => null);
        if (now?.state === "matched" && now.matched) takeSeat(now.matched);
        else stopped = false;
      }
    });
  };
  setRerender(draw);
  draw();
  // the time waited counts on between the server's answers; the window is the server's last word
  let answeredAt = Date.now();
  const showWait = () => {
    const line = document.getElementById("seek-window");
    const waited = current.waited + (Date.now() - answeredAt) / 1000;
    if (line) line.textContent = t("seek_window", { n: Math.round(current.window), s: Math.round(waited) });
  };
  const ticker = setInterval(showWait, 1000);
  try {
    let failures = 0;
    while (!stopped) {
      if (current.state === "matched" && current.matched) {
        takeSeat(current.matched);
        return;
      }
      if (current.state !== "waiting") {
        if (!stopped) document.querySelector("#seek .error").textContent = t("seek_ended", { state: current.state });
        return;
      }
      try {
        current = await api("GET", `/api/seeks/${encodeURIComponent(current.id)}?wait=${LONG_POLL_S}`);
        answeredAt = Date.now();
        failures = 0;
      } catch (e) {
        document.querySelector("#seek .error").textContent = e.message;
        if (++failures >= 3) return;
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      if (!stopped) document.querySelector("#seek .error").textContent = "";
      showWait();
    }
  } finally {
    clearInterval(ticker);
  }
}
