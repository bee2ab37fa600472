// The replay of a Spit or Speed game (replay.js opens it for the games whose page module is spit.js):
// spit.js's drawing without a socket, every step of /api/games/{id}/positions with its game time.

import { esc } from "../../html.js";
import { main, setStatus } from "../../shell.js";
import { t } from "../../i18n.js";
import { cardWord } from "../../moves.js";
import { markNotation } from "../../panel.js";
import { SpitClient, eventCards, flipText, moveWords } from "./spit.js";
import { bindControls, controlsHTML, gameTime, notationButtonHTML, replayKey, replaySeats } from "../../replay-controls.js";

/** spit.js's drawing without a socket: no seat, nothing playable; the clock stands at each step's time. */
export class ReplayBoard extends SpitClient {
  constructor(data) {
    super({
      id: data.tableId ?? `game-${data.gameId}`, game: data.game, preset: data.preset, options: data.options, status: "finished",
      gameId: data.gameId, seats: replaySeats(data),
    }, null);
    this.data = data;
    this.ply = 0;
    this.live = false; // nobody is online or offline in a finished game
  }

  /** Step ``i`` (0-based) of the game in words: "Ben: 7♣ from tableau pile 5 onto center pile 2". */
  stepMove(i) {
    const step = this.data.moves[i];
    const ev = { kind: "move", seat: step.seat, text: step.move };
    const card = eventCards([ev], this.data.positions[i + 1]).get(0) ?? null;
    return moveWords(step.move, { card });
  }

  go(ply) {
    this.ply = Math.max(0, Math.min(this.data.moves.length, ply));
    this.render();
  }

  /** A step in words: who did what (or the time limit), then what came with it (flips, rounds, deals). */
  stepText(step, round, i) {
    const head = step.seat === null || step.seat === undefined ? t("rp_time_up") : `${this.name(step.seat)}: ${this.stepMove(i)}`;
    const extra = (step.events || []).map((ev) => this.eventText(ev, round)).filter(Boolean);
    return [head, extra];
  }

  eventText(ev, round) {
    const who = ev.seat === null || ev.seat === undefined ? "" : this.name(ev.seat);
    switch (ev.kind) {
      case "flip": return `${t("sp_flip_log")}: ${flipText(ev.text)}`;
      case "round-won": return `${t("sp_round_won", { name: who, n: round })} (${t(`sp_why_${ev.text}`)})`;
      case "deal": return t("sp_new_round", { n: Number(String(ev.text).replace(/\D/g, "")) || round + 1 });
      case "shuffle": return t("sp_shuffle");
      case "game-over": return t("game_over");
      case "move": return `${who}: ${moveWords(ev.text)}`;
      default: return "";
    }
  }

  /** The face-down cards of ``seat``, bottom to top: the tableau piles under their tops and the spit pile (Speed: draw and side pile). */
  hiddenHTML(seat) {
    const p = this.view.players[seat];
    const parts = [];
    if (this.game === "spit") {
      (p.tableau_cards || []).forEach((pile, i) => {
        if (pile.length > 1) parts.push(`${t("tb_tableau_n", { i: i + 1 })}: ${pile.slice(0, -1).map(cardWord).join(" ")}`);
      });
      if (p.spit_cards?.length) parts.push(`${t("sp_spit_pile")}: ${p.spit_cards.map(cardWord).join(" ")}`);
    } else {
      if (p.draw_cards?.length) parts.push(`${t("sp_draw")}: ${p.draw_cards.map(cardWord).join(" ")}`);
      if (p.side_cards?.length) parts.push(`${t("rp_side_pile")}: ${p.side_cards.map(cardWord).join(" ")}`);
    }
    return `<p class="muted sp-hidden" data-seat="${seat}"><span>${esc(t("rp_face_down"))}:</span> ` +
      `<code>${esc(parts.join(" · ") || "–")}</code></p>`;
  }

  render() {
    const data = this.data;
    const n = data.moves.length;
    const pos = data.positions[this.ply];
    this.view = pos;
    this.clock = { now: pos.t ?? 0, phase: pos.phase ?? "play", playFrom: pos.play_from ?? 0,
      roundWinner: pos.round_winner ?? null, nextEvent: null };
    this.roundsWon = pos.players.map((p) => p.rounds_won ?? 0);
    this.flashes.clear();
    const last = this.ply > 0 ? data.moves[this.ply - 1] : null;
    if (last && last.move) this.flashMove(last.seat, last.move);
    for (const ev of last?.events || []) {
      if (ev.kind === "flip") for (const part of ev.text.split(",")) {
        const c = part.trim().split(" ")[0];
        if (c) this.flash(c, "flip");
      }
    }
    this.banner = null;
    const now = this.clock.now;
    const before = this.ply > 0 ? data.positions[this.ply - 1].round : pos.round;
    let moveText = t("replay_start");
    if (last) {
      const [head, extra] = this.stepText(last, before, this.ply - 1);
      moveText = `${gameTime(last.t)} · ${head}${extra.length ? ` · ${extra.join(" · ")}` : ""}`;
    }
    const items = data.moves.map((m, i) => {
      const [head, extra] = this.stepText(m, data.positions[i].round, i);
      const who = m.seat === null || m.seat === undefined ? `<span class="event">${esc(head)}</span>`
        : `<span class="who">${esc(this.name(m.seat))}</span>: <span class="what">${esc(this.stepMove(i))}</span> <code class="notation">${esc(m.move)}</code>`;
      const evs = extra.length ? ` <span class="muted ev">${esc(extra.join(" · "))}</span>` : "";
      return `<li data-ply="${i + 1}" data-seat="${m.seat ?? ""}" data-move="${esc(m.move ?? "")}"${i + 1 === this.ply ? ' class="current" aria-current="step"' : ""}>` +
        `<span class="muted t">${gameTime(m.t)}</span> ${who}${evs}</li>`;
    }).join("");
    const r = data.result || {};
    const winner = r.winner !== undefined && r.winner !== null ? t("wins", { name: this.name(r.winner) }) : t("draw_result");
    const end = this.ply === n ? `<p class="result" id="replay-result">${t("game_over")}: ${esc(winner)}` +
      `${r.reason ? ` (${esc(t(`reason_${r.reason}`))})` : ""}</p>` : "";
    const name = t(this.game === "speed" ? "speed_game" : "spit_game");
    main().innerHTML = `${controlsHTML(data, this.ply, moveText, end, last?.move)}
      <div class="spit-table replay" data-game="${this.game}" data-ply="${this.ply}" data-plies="${n}" data-t="${now}"
           data-phase="${esc(this.clock.phase)}" data-round="${pos.round}" data-round-winner="${this.clock.roundWinner ?? ""}"
           data-stuck="${pos.stuck ? 1 : 0}" data-over="${pos.finished ? 1 : 0}" data-seat="" data-centers="${pos.centers.length}">
        <div class="sp-board">
          <div class="sp-head"><span class="sp-title"><b>${esc(name)}</b>${this.presetPart()}
            ${this.game === "spit" ? ` · <span id="sp-round">${t("sp_round", { n: pos.round })}</span>` : ""}
            · <span id="sp-clock">${gameTime(now)}</span></span></div>
          ${this.sideHTML(this.opp, now, null)}
          ${this.hiddenHTML(this.opp)}
          ${this.centersHTML(now, null)}
          ${this.sideHTML(this.me, now, null)}
          ${this.hiddenHTML(this.me)}
        </div>
        <aside class="side sp-log-side"><div class="settings">${notationButtonHTML()}</div><h3>${t("log")}</h3><ol class="log sp-log" id="log">${items}</ol></aside>
      </div>`;
    setStatus(`${name} · ${gameTime(now)} · ${t("replay_ply", { k: this.ply, n })}`);
    markNotation();
    bindControls(this, main(), n);
  }

  onReplayKey(ev) {
    replayKey(this, ev);
  }
}
