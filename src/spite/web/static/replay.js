// The replay viewer: a finished game's positions (GET /api/games/{id}/positions), stepped with
// ◀ ▶, a slider, the arrow keys (Home/End too) or a click in the move list. The table is drawn by
// table.js's code, read-only, with every card shown.

import { main, setRerender, setStatus } from "./app.js";
import { t } from "./i18n.js";
import { TableClient } from "./table.js";
import { api } from "./store.js";

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** table.js's drawing without a socket: no seat, nothing playable. */
class ReplayBoard extends TableClient {
  constructor(data) {
    super({
      id: `game-${data.gameId}`, preset: data.preset, options: data.options, status: "finished",
      seats: data.players.map((p) => ({ seat: p.seat, player: p.player, kind: p.isBot ? "bot" : "person",
        status: p.isBot ? "bot" : "connected" })),
    }, null);
    this.data = data;
    this.ply = 0;
  }

  go(ply) {
    const n = this.data.moves.length;
    this.ply = Math.max(0, Math.min(n, ply));
    this.render();
  }

  render() {
    const data = this.data;
    const n = data.moves.length;
    this.view = data.positions[this.ply];
    const last = this.ply > 0 ? data.moves[this.ply - 1] : null;
    this.flash = last ? { seat: last.seat, move: last.move, at: Date.now() } : null;
    const order = this.view.players.map((_, s) => s);
    const bottom = order.shift();
    const moveText = last ? `${this.name(last.seat)}: ${last.move}` : t("replay_start");
    const items = data.moves.map((m, i) => `<li data-ply="${i + 1}"${i + 1 === this.ply ? ' class="current" aria-current="step"' : ""}>` +
      `<span class="who">${esc(this.name(m.seat))}</span> <code>${esc(m.move)}</code></li>`).join("");
    const r = data.result || {};
    const winner = r.winner !== undefined && r.winner !== null ? t("wins", { name: this.name(r.winner) })
      : r.team !== undefined && r.team !== null ? t("wins", { name: `team ${r.team}` }) : t("draw_result");
    const end = this.ply === n ? `<p class="result" id="replay-result">${t("game_over")}: ${esc(winner)}` +
      `${r.reason ? ` (${esc(t(`reason_${r.reason}`))})` : ""}</p>` : "";
    main().innerHTML = `<section class="panel replay-bar">
        <h2>${t("replay_title", { id: data.gameId })} · ${esc(data.preset)}</h2>
        <div class="replay-controls">
          <button type="button" id="replay-first" title="Home" aria-label="${t("replay_first")}">|◀</button>
          <button type="button" id="replay-prev" title="←" aria-label="${t("replay_prev")}">◀</button>
          <input type="range" id="replay-ply" min="0" max="${n}" value="${this.ply}" aria-label="${t("replay_ply", { k: this.ply, n })}">
          <button type="button" id="replay-next" title="→" aria-label="${t("replay_next")}">▶</button>
          <button type="button" id="replay-last" title="End" aria-label="${t("replay_last")}">▶|</button>
          <span id="replay-count">${t("replay_ply", { k: this.ply, n })}</span>
          <strong id="replay-move">${esc(moveText)}</strong>
        </div>${end}
        <p class="muted">${t("replay_keys")} · <a href="/api/games/${data.gameId}/record">${t("record")}</a> · <a href="/">${t("back_lobby")}</a></p>
      </section>
      <div class="table replay" data-ply="${this.ply}" data-plies="${n}" data-over="0" data-my-turn="0" data-seat="">
        <div class="board">
          <div class="opponents">${order.map((s) => this.playerHTML(s, false)).join("")}</div>
          ${this.buildsHTML()}
          ${this.playerHTML(bottom, false)}
        </div>
        <aside class="side"><h3>${t("log")}</h3><ol class="log" id="log">${items}</ol></aside>
      </div>`;
    setStatus(`${t("turn", { n: this.view.turn })} · ${t("replay_ply", { k: this.ply, n })}`);
    const root = main();
    root.querySelector("#replay-first").addEventListener("click", () => this.go(0));
    root.querySelector("#replay-prev").addEventListener("click", () => this.go(this.ply - 1));
    root.querySelector("#replay-next").addEventListener("click", () => this.go(this.ply + 1));
    root.querySelector("#replay-last").addEventListener("click", () => this.go(n));
    root.querySelector("#replay-ply").addEventListener("input", (ev) => this.go(Number(ev.target.value)));
    for (const li of root.querySelectorAll("#log li")) li.addEventListener("click", () => this.go(Number(li.dataset.ply)));
    const cur = root.querySelector("#log li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  onReplayKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (step !== undefined) {
      ev.preventDefault();
      this.go(this.ply + step);
    } else if (ev.key === "Home") {
      ev.preventDefault();
      this.go(0);
    } else if (ev.key === "End") {
      ev.preventDefault();
      this.go(this.data.moves.length);
    }
  }
}

/** Open the replay of game ``id``. */
export async function openReplay(id) {
  setStatus(t("connecting"));
  let data;
  try {
    data = await api("GET", `/api/games/${encodeURIComponent(id)}/positions`);
  } catch (err) {
    const draw = () => {
      setStatus("");
      main().innerHTML = `<section class="panel"><h2>${t("replay_title", { id: esc(id) })}</h2>
        <p class="error" id="replay-error">${esc(err.message)}</p>
        <p><a href="/api/games/${esc(id)}/record">${t("record")}</a> · <a href="/">${t("back_lobby")}</a></p></section>`;
    };
    setRerender(draw);
    draw();
    return;
  }
  const board = new ReplayBoard(data);
  const start = Number(new URLSearchParams(location.search).get("ply") || 0);
  setRerender(() => board.render());
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest?.("input[type=text], select, textarea")) return;
    board.onReplayKey(ev);
  });
  board.go(Number.isFinite(start) ? start : 0);
}
