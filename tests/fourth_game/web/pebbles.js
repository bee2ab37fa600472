// Pebbles' page module (the fourth game, tests/fourth_game): served from its own folder as
// /static/games/pebbles/pebbles.js, it draws a table through the shared seat page and seat link, two
// folders up, and names nothing of the other games. The pile, your cards as buttons (a click lays one),
// the other hand's size, and the end.

import { main, setRerender, setStatus } from "../../shell.js";
import { esc } from "../../html.js";
import { t } from "../../i18n.js";
import { SeatLink } from "../../seat-link.js";
import { linkClosed, openSeat, takeNotice } from "../../seatpage.js";

// the game's own words, in both languages: its words/ folder (pebbles.* in the catalogue the server serves)
const w = (key, v = "") => t(`pebbles.${key}`, { v });

/** One seat (or a spectator) at a Pebbles table. */
class PebblesClient {
  constructor(info, token) {
    this.table = info;
    this.token = token;
    this.seat = null;
    this.view = null;
    this.legal = [];
    this.version = -1;
    this.result = null;
    this.message = takeNotice();
    this.link = null;
  }

  connect() {
    setRerender(() => this.render());
    const link = new SeatLink(this.table, this.token);
    this.link = link;
    for (const type of ["welcome", "state", "table", "gameOver", "refused"]) {
      link.addEventListener(type, (ev) => this.onMessage(ev.detail));
    }
    link.addEventListener("status", (ev) => {
      if (ev.detail.state === "closed") linkClosed(this, ev.detail.reason, openGame);
    });
    link.start();
  }

  stop() {
    this.link?.close();
  }

  onMessage(msg) {
    if (msg.type === "welcome") this.seat = msg.seat;
    if (msg.table) this.table = msg.table;
    if ((msg.type === "welcome" || msg.type === "state") && msg.stateVersion >= this.version) {
      this.version = msg.stateVersion;
      this.view = msg.view;
      this.legal = this.seat === null ? [] : msg.legal || [];
      if (msg.view?.result) this.result = msg.view.result;
    }
    if (msg.type === "gameOver") this.result = msg.result;
    if (msg.type === "error") this.message = msg.message || "";
    this.render();
  }

  lay(move) {
    if (this.legal.includes(move)) this.link.move(move, this.version);
  }

  render() {
    if (!this.view) return;
    const me = this.seat ?? 0;
    const mine = this.view.players[me].hand || [];
    const other = this.view.players[1 - me].handSize;
    const end = this.result ? (this.result.winner === this.seat ? w("won") : w("lost")) : "";
    const line = end || (this.seat === null ? w("watch") : this.legal.length ? w("turn") : w("wait"));
    setStatus(line);
    const cards = mine.map((v) => {
      const move = `T${v}`;
      const can = this.legal.includes(move);
      return `<button type="button" class="pebbles-card" data-move="${move}"${can ? "" : " disabled"}
        aria-label="${esc(w("lay", v))}">${v}</button>`;
    }).join(" ");
    main().innerHTML = `<section class="panel pebbles-table" data-game="${esc(this.table.game)}"
        data-status="${esc(this.table.status)}" data-over="${this.result ? 1 : 0}">
      <p>${esc(w("pile"))}: <b id="pebbles-pile">${this.view.pile}</b></p>
      <p>${esc(w("other"))}: <span id="pebbles-other">${other}</span></p>
      <p id="pebbles-hand">${cards}</p>
      <p id="pebbles-line" role="status">${esc(line)}</p>
      ${this.message ? `<p class="error">${esc(this.message)}</p>` : ""}
    </section>`;
    for (const b of main().querySelectorAll("button.pebbles-card")) {
      b.addEventListener("click", () => this.lay(b.dataset.move));
    }
  }
}

/** The page module's entry (games.js): a Pebbles table. */
export function openGame(info) {
  openSeat(info, PebblesClient);
}

/** The replay board (replay.js, through replay-board.js): each position as the whole table, stepped with
 * the arrow keys. */
export class PebblesReplay {
  constructor(data) {
    this.data = data;
    this.ply = 0;
  }

  go(k) {
    this.ply = Math.max(0, Math.min(k, this.data.positions.length - 1));
    this.render();
  }

  render() {
    const pos = this.data.positions[this.ply];
    setStatus("");
    main().innerHTML = `<section class="panel pebbles-replay"><p>${esc(w("pile"))}: <b id="pebbles-pile">${pos.pile}</b></p>
      <p>${pos.players.map((p) => esc((p.hand || []).join(" "))).join(" · ")}</p></section>`;
  }

  onReplayKey(ev) {
    if (ev.key === "ArrowRight") this.go(this.ply + 1);
    if (ev.key === "ArrowLeft") this.go(this.ply - 1);
  }
}
