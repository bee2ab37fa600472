// What every replay board shares (each page module has its own board: `PAGE-replay.js`): the
// controls (◀ ▶, a slider, the arrow keys, Home/End, a click in the move list), the seats of a
// finished game, the notation switch, the game time of a real-time step.

import { esc } from "./html.js";
import { presetName, t } from "./i18n.js";
import { bindFair, replayFairHTML } from "./fair.js";
import { notationOn, setNotation } from "./panel.js";

/** The replay's seats as a TableInfo's seats. */
export function replaySeats(data) {
  // a computer is stored as "bot:medium": named like at the table ("Computer (medium)") by its level
  return data.players.map((p) => ({ seat: p.seat, player: p.isBot ? null : p.player, kind: p.isBot ? "bot" : "person",
    level: p.isBot ? String(p.player ?? "").replace(/^bot:/, "") : null, status: p.isBot ? "bot" : "connected" }));
}

/** The game time of a Spit or Speed step: minutes, seconds and tenths ("1:07.4"). */
export function gameTime(ms) {
  const tenths = Math.max(0, Math.round(ms / 100));
  const s = Math.floor(tenths / 10);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}.${tenths % 10}`;
}

/** The bar above a replayed table: title, ◀ ▶ and the slider, the step in words, the result at the end. */
export function controlsHTML(data, ply, moveText, end, move = "") {
  const n = data.moves.length;
  return `<section class="panel replay-bar">
        <h2>${t("replay_title", { id: data.gameId })} · ${esc(presetName(data.preset))}</h2>
        <div class="replay-controls">
          <button type="button" id="replay-first" title="${esc(t("tb_key_home"))}" aria-label="${t("replay_first")}">|◀</button>
          <button type="button" id="replay-prev" title="←" aria-label="${t("replay_prev")}">◀</button>
          <input type="range" id="replay-ply" min="0" max="${n}" value="${ply}" aria-label="${t("replay_ply", { k: ply, n })}">
          <button type="button" id="replay-next" title="→" aria-label="${t("replay_next")}">▶</button>
          <button type="button" id="replay-last" title="${esc(t("tb_key_end"))}" aria-label="${t("replay_last")}">▶|</button>
          <span id="replay-count">${t("replay_ply", { k: ply, n })}</span>
          <strong id="replay-move" data-move="${esc(move ?? "")}">${esc(moveText)}</strong>
        </div>${end}${replayFairHTML(data.fairCheck)}
        <p class="muted">${t("replay_keys")} · <a href="/api/games/${data.gameId}/record" id="replay-record" download="spite-game-${data.gameId}.json">${t("record")}</a> · <a href="/">${t("back_lobby")}</a></p>
      </section>`;
}

/** The notation view's button (the moves' notation beside their words). */
export function notationButtonHTML() {
  return `<button type="button" id="notation" class="small setting" aria-pressed="${notationOn()}">${esc(t(notationOn() ? "tb_notation_on" : "tb_notation_off"))}</button>`;
}

export function bindControls(board, root, n) {
  root.querySelector("#notation")?.addEventListener("click", () => {
    setNotation(!notationOn());
    board.render();
  });
  root.querySelector("#replay-first").addEventListener("click", () => board.go(0));
  root.querySelector("#replay-prev").addEventListener("click", () => board.go(board.ply - 1));
  root.querySelector("#replay-next").addEventListener("click", () => board.go(board.ply + 1));
  root.querySelector("#replay-last").addEventListener("click", () => board.go(n));
  root.querySelector("#replay-ply").addEventListener("input", (ev) => board.go(Number(ev.target.value)));
  for (const li of root.querySelectorAll("#log li")) li.addEventListener("click", () => board.go(Number(li.dataset.ply)));
  bindFair(root);
  const cur = root.querySelector("#log li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

export function replayKey(board, ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const step = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
  if (step !== undefined) {
    ev.preventDefault();
    board.go(board.ply + step);
  } else if (ev.key === "Home") {
    ev.preventDefault();
    board.go(0);
  } else if (ev.key === "End") {
    ev.preventDefault();
    board.go(board.data.moves.length);
  }
}
