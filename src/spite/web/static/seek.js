// Play a person now (docs/protocol.md, "Play a person"): a seek is made for a game and preset, the
// page asks about it until it is matched (a person near this player's rating, or after
// ``computerAfter`` seconds a computer near it), then takes its seat at the table. Cancel at any time.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./app.js";
import { presetName, t } from "./i18n.js";
import { gameWord } from "./games.js";
import { api, getName, getPlayerKey, saveSeat } from "./store.js";

const POLL_MS = 500;
const COMPUTER_AFTER = 30;

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
        stopped = false; // matched meanwhile: the next answer seats us
        document.querySelector("#seek .error").textContent = e.message;
      }
    });
  };
  setRerender(draw);
  draw();
  while (!stopped) {
    if (current.state === "matched" && current.matched) {
      saveSeat(current.matched.table, current.matched.seat, current.matched.token);
      location.assign(`/t/${encodeURIComponent(current.matched.table)}`);
      return;
    }
    if (current.state !== "waiting") {
      document.querySelector("#seek .error").textContent = t("seek_ended", { state: current.state });
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (stopped) return;
    try {
      current = await api("GET", `/api/seeks/${encodeURIComponent(current.id)}`);
    } catch (e) {
      document.querySelector("#seek .error").textContent = e.message;
      return;
    }
    const line = document.getElementById("seek-window");
    if (line) line.textContent = t("seek_window", { n: Math.round(current.window), s: Math.round(current.waited) });
  }
}
