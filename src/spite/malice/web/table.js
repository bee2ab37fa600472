// The Spite and Malice table: the seat's view drawn as cards on one screen (opponents across and
// beside, the build piles in the middle, your stock, discard piles and hand along the bottom; the
// log and the settings in a side panel that folds away), played by clicks, drags and keys. The
// protocol (hello, reconnects, versions, pending moves, the fair deal's checks) is the seat link's
// (seat-link.js): this screen draws what it reports and sends the person's intents through it.
//
// Everything a person reads is worded (move-words.js, people.js): "Ben: 9♥ from the hand onto discard
// pile 1"; the notation (H9-D1) shows only in the notation view. A move the rules refuse is sent
// all the same and the engine's reason shows next to where the person tried (a bubble on the pile).
// Hint (button, H or ?) shows the server's suggestion on the table (source and target marked) with
// its reason; Undo (button, U) takes back a build play of this turn while the server says canUndo;
// at a match table the score to the target heads the table, and the end-of-game summary offers the
// next game. After the table's last game every seated person is asked for a rematch at this same
// link (``rematch``); the series score of the games played here heads the table.

import { Pacer, keepLanding, paceHTML, setPace } from "../../anim.js";
import { describeMove, planFlights, runFlights } from "./flights.js";
import { main, setRerender, setStatus } from "../../shell.js";
import { backSVG, cardName, cardSVG, handToken, rankValue, setNumberedDeck, slotSVG } from "../../cards.js";
import { bindDrag, dragging } from "../../drag.js";
import { hasText, t, word, words } from "../../i18n.js";
import { bindFair, fairHTML } from "../../fair.js";
import { cardWord, toldCard, valueWord } from "../../moves.js";
import { moveWords, pickedMove } from "./move-words.js";
import { moveCard } from "./move-card.js";
import { computerAtTable, personName, ratedMarkHTML, seatHeadHTML, seatTag } from "../../people.js";
import { newTableLike, rematchHTML, seriesHTML, tableEventText } from "../../rematch.js";
import { tournamentLinkHTML, tournamentOf } from "../../tourney-link.js";
import { openReport, reportButtonHTML } from "../../report.js";
import { esc, loadStyle, morph, parseLegal, scrollToEnd } from "../../html.js";
import { markNotation, notationOn, panelOpen, panelSetting, setPanelOpen, wideScreen } from "../../panel.js";
import { SeatLink } from "../../seat-link.js";
import { linkClosed, openSeat, takeNotice } from "../../seatpage.js";
import { sound, soundHTML } from "../../sound.js";

// This module is served from its family's folder (/static/games/GAME/, spite.malice's web/): the shared
// page modules are two folders up. Its own styles come with it, so a table is never drawn unstyled.
await loadStyle(new URL("./match.css", import.meta.url));

/** How long a refusal stays next to the pile it is about. */
const REFUSAL_MS = 4500;

/** Open the page of table ``info`` (TableInfo): play with a stored token, join a free seat, or watch. */
export function openTable(info) {
  openSeat(info, TableClient);
}

/** The page module's entry (games.js): this module draws the tables of the games whose type names it. */
export const openGame = openTable;

// The keys play the table on screen: bound once for the page, not once per table opened (a table
// opened again, after a refused hello or a join, would otherwise answer each key twice).
let current = null;
let keysBound = false;

function bindKeys() {
  if (keysBound) return;
  keysBound = true;
  document.addEventListener("keydown", (ev) => {
    if (!current) return;
    current.viaKeys = true;
    document.documentElement.dataset.keys = "1"; // a keyboard is there: its hints may show
    current.onKey(ev);
  });
  // a keyboard player's focus survives redraws; a mouse player's is left alone
  document.addEventListener("pointerdown", () => {
    if (current) current.viaKeys = false;
  }, { capture: true });
}

/** Where the other seats sit, seen from the bottom seat: in the order of play, the next one to the
 * left, then across, then to the right (two players: across; three: left and right). */
export function placesOf(n) {
  return { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"] }[n] ?? Array(Math.max(0, n - 1)).fill("across");
}

export class TableClient {
  constructor(info, token) {
    this.table = info;
    this.token = token;
    this.seat = null;
    this.view = null;
    this.legal = [];
    this.moves = new Map();
    this.version = -1;
    this.log = [];
    this.logCount = 0; // entries ever logged: the numbers go on when the oldest are dropped
    this.selected = null; // {source, index, card}
    this.over = null;
    this.message = takeNotice(); // why the page was opened again, if it was (shown until the next position)
    this.pending = false;
    this.link = null; // the seat link (seat-link.js): the socket, the protocol and the fair deal's checks
    this.flash = null;
    this.canUndo = false;
    this.match = null; // the server's MatchInfo at match tables
    this.hint = null; // {move, why, stateVersion} for the position shown, or {asking: true}
    this.readySent = false;
    this.rematchAsk = null; // the server's RematchInfo after the table's last game
    this.refusal = null; // {place, text, at}: why a move was refused, shown at the pile tried
    this.joined = new Set(); // seats whose person took them just now (their "connected" is the same news)
    this.fairOpen = false; // the fair deal's details are shown
    // moving cards, sounds, the turn in the tab title, the game-over view (anim.js, sound.js)
    this.pacer = new Pacer((msg, skipping) => this.onMessage(msg, skipping), () => this.seat);
    this.flights = null;
    this.wasMyTurn = false;
    this.overClosed = false;
    this.timer = null;
    this.live = true; // a table in play (the replay draws a finished game: no one is online there)
  }

  /** Open the seat link and show what it reports; the keys play this table from now on. */
  connect() {
    current = this;
    bindKeys();
    setRerender(() => this.render());
    // the link stays open after the last game: the rematch question is answered over it
    const link = new SeatLink(this.table, this.token, { gapSync: true });
    this.link = link;
    // the server's messages in order, another seat's moves at the person's pace (anim.js)
    for (const type of ["welcome", "state", "ack", "hint", "table", "gameOver", "rematch", "refused"]) {
      link.addEventListener(type, (ev) => this.pacer.push(ev.detail));
    }
    link.addEventListener("fair", () => this.render());
    link.addEventListener("dropped", () => {
      // a move the lost connection never answered: the next welcome is the position
      this.pending = false;
      this.render();
    });
    link.addEventListener("status", (ev) => {
      const { state, reason } = ev.detail;
      if (state === "reconnecting") setStatus(t("reconnecting"));
      else if (state === "closed") linkClosed(this, reason, openTable);
    });
    link.start();
  }

  /** Leave this table (another screen takes over): the link closes for good, the keys go elsewhere. */
  stop() {
    this.link?.close();
    this.pacer.stop();
    clearTimeout(this.timer);
    if (current === this) current = null;
  }

  /** Keyboard play, as in the terminal app: S stock, 1–9 hand card, D+n discard pile, B+n build pile,
   * P pass, Esc cancel. A source first, then a target. */
  onKey(ev) {
    if (ev.target.closest?.("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape" && this.fairOpen) {
      ev.preventDefault();
      this.fairOpen = false;
      this.render();
      return;
    }
    if (ev.key === "Escape" && this.over && !this.overClosed) {
      ev.preventDefault();
      this.closeOver(true);
      return;
    }
    if (!this.myTurn()) return;
    // Enter or Space on a focused card or pile (Tab moves between them) is a click on it
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.(".board [data-source], .board [data-target]")) {
      ev.preventDefault();
      this.onClick(ev);
      return;
    }
    const key = ev.key.toLowerCase();
    if ((key === "h" || key === "?") && !this.prefix) {
      ev.preventDefault();
      this.askHint();
      return;
    }
    if (key === "u" && !this.prefix) {
      ev.preventDefault();
      this.undo();
      return;
    }
    const prefix = this.prefix;
    this.prefix = null;
    if (key === "escape") {
      this.selected = null;
    } else if (key === "p" && this.legal.includes("pass")) {
      this.play("pass");
      return;
    } else if (key === "s" && !this.selected) {
      const el = document.querySelector('.me [data-source="S"]');
      if (el && this.view.players[this.seat].stock_top?.length) this.select(el);
    } else if (key === "d" || key === "b") {
      this.prefix = key;
      return;
    } else if (/^[1-9]$/.test(key)) {
      if (prefix) {
        const name = `${prefix.toUpperCase()}${key}`;
        const el = document.querySelector(`.board [data-target="${name}"]`);
        const src = !this.selected || (prefix === "d" && !this.selected.source.startsWith("H"))
          ? document.querySelector(`.me [data-source="${name}"]`) : null;
        if (src && src.querySelector(".card[data-card]")) this.select(src);
        else if (el) {
          this.tryTarget(el);
          return;
        }
      } else {
        const el = document.querySelector(`.me .hand-card[data-index="${Number(key) - 1}"]`);
        if (el) this.select(el);
      }
    } else {
      return;
    }
    ev.preventDefault();
    this.render();
  }

  /** The name of ``seat`` as the table shows it: its person, its computer player's own name, and
   * "(you)" for this page's seat. */
  name(seat) {
    const name = personName(this.table, seat);
    return seat === this.seat ? t("tb_you_name", { name }) : name;
  }

  /** A seat's name without "(you)", for the words of the server's events. */
  plainName(seat) {
    return personName(this.table, seat);
  }

  setPosition(msg) {
    if (msg.stateVersion !== this.version) this.hint = null;
    this.version = msg.stateVersion;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.moves = parseLegal(this.legal);
    this.canUndo = Boolean(msg.game?.canUndo);
    if (msg.game?.match) this.match = msg.game.match;
    this.selected = null;
    this.pending = false;
  }

  /** A match table whose match is not over yet (between games, the next one is coming). */
  matchGoesOn() {
    return Boolean(this.match && !this.match.over);
  }

  onMessage(msg, skipping = false) {
    switch (msg.type) {
      case "welcome":
        this.table = msg.table;
        this.seat = msg.seat;
        // a page opened now, or back after it missed something: the log is the game so far
        if (this.version < 0 || msg.stateVersion !== this.version) this.rebuildLog(msg);
        this.version = -1;
        this.setPosition(msg);
        if (msg.view.finished) this.over = { result: msg.view.result };
        else this.over = null; // back after a match's next game began
        this.startedAt = this.startedAt || this.firstSeen();
        break;
      case "state": {
        if (msg.last && msg.stateVersion > this.version) {
          // the card, a wild's value and a completion as the server told them (as the moveLog keeps
          // them for a reload), else as the positions around the move show them
          const info = toldCard(msg.last) ?? moveCard(this.view, msg.view, msg.last.seat, msg.last.move);
          this.pushLog({ seat: msg.last.seat, move: msg.last.move, undone: Boolean(msg.last.undone), info });
          // another player's last move stays marked until their next one
          if (msg.last.seat !== this.seat && !msg.last.undone) this.flash = { seat: msg.last.seat, move: msg.last.move };
          this.motion(msg, skipping);
        }
        if (this.over && !msg.view.finished && msg.stateVersion > this.version) {
          // a match's next game: the summary goes, the new deal comes
          this.over = null;
          this.readySent = false;
          this.flash = null;
          this.overClosed = false;
          this.startedAt = Date.now();
        }
        if (msg.stateVersion > this.version) this.refusal = null;
        this.setPosition(msg);
        this.message = "";
        break;
      }
      case "ack":
        break;
      case "hint":
        if (msg.stateVersion === this.version) this.hint = msg;
        else if (this.hint?.asking) this.hint = null;
        break;
      case "table": {
        this.table = msg.table;
        if (msg.game?.match) this.match = msg.game.match;
        const ev = msg.event;
        if (ev.kind === "rematch") {
          // the same table, a new deal: the summary goes, the next state brings the position
          this.over = null;
          this.rematchAsk = null;
          this.match = null;
          this.flash = null;
          this.readySent = false;
        }
        this.logEvent(ev);
        break;
      }
      case "gameOver":
        this.over = { result: msg.result, gameId: msg.gameId, recordUrl: msg.recordUrl };
        if (msg.game?.match) this.match = msg.game.match;
        this.table = { ...this.table, status: this.matchGoesOn() ? this.table.status : "finished", gameId: msg.gameId,
          series: msg.series ?? this.table.series };
        this.rematchAsk = msg.rematch ?? null;
        this.hint = null;
        this.refusal = null;
        this.gameOver(msg, skipping);
        break;
      case "rematch":
        this.rematchAsk = msg.rematch;
        if (msg.series) this.table = { ...this.table, series: msg.series };
        break;
      case "error":
        // refused (the link asks for the position again after a stale one): nothing changed
        this.pending = false;
        if (this.hint?.asking) this.hint = null;
        this.refused(msg);
        break;
      default:
        return;
    }
    this.render();
  }

  /** The server refused a request: its reason at the pile the move went to (or came from), else
   * in the line under the table. */
  refused(msg) {
    const text = word(msg.words, msg.message);
    const move = msg.request?.type === "move" ? msg.request.move : null;
    if (msg.code === "stale") {
      this.message = text;
      return;
    }
    if (move) {
      const i = move.indexOf("-");
      this.showRefusal(i < 0 ? move : move.slice(i + 1), text);
    } else {
      this.message = msg.code === "illegal" ? t("illegal", { reason: text }) : text;
    }
  }

  /** Show ``text`` at place ``place`` (a target B2 / D1, a source S / H7, or "pass") for a while. */
  showRefusal(place, text) {
    this.refusal = { place, text, at: Date.now() };
    this.message = "";
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.refusal && Date.now() - this.refusal.at >= REFUSAL_MS - 50) {
        this.refusal = null;
        this.render();
      }
    }, REFUSAL_MS);
  }

  /** Flights and sounds of a new position (anim.js, sound.js), planned before it is drawn; none
   * while the table skips ahead. */
  motion(msg, skipping) {
    if (skipping || !this.view) return;
    this.flights = planFlights(main(), this.view, msg);
    const { kind, completed } = describeMove(this.view, msg);
    if (kind === "play" || kind === "discard") sound(kind);
    if (completed) sound("complete");
  }

  /** The game ended: win or loss sounds, the time it took, the exact move count from its record. */
  gameOver(msg, skipping) {
    this.overClosed = false;
    this.over.seconds = this.startedAt ? Math.round((Date.now() - this.startedAt) / 1000) : null;
    const mine = this.outcome(msg.result);
    if (!skipping && (mine === "won" || mine === "lost")) sound(mine === "won" ? "win" : "loss");
    if (msg.recordUrl && this.link && !tournamentOf(this.table)) {
      // the record the link fetches anyway to check the deal's seed (a tournament's record waits for
      // the end of its round: the deal is still being played at the other tables)
      const over = this.over;
      this.link.record(msg.recordUrl).then((rec) => {
        if (!rec) return;
        over.moves = (rec.moves || []).filter((m) => typeof m === "string").length;
        if (this.over === over) this.render();
      });
    }
  }

  /** This seat's outcome of ``result``: won, lost, draw, or null (a watcher). */
  outcome(result) {
    if (!result || this.seat === null) return null;
    if (result.reason === "forfeit") return (result.winners || []).includes(this.seat) ? "won" : "lost";
    if (result.winner !== undefined && result.winner !== null) return result.winner === this.seat ? "won" : "lost";
    const team = this.view?.players?.[this.seat]?.team;
    if (result.team !== undefined && result.team !== null && team !== undefined) return result.team === team ? "won" : "lost";
    return "draw";
  }

  /** Close (``closed``) or open the game-over view again: the final board stays to be looked at. */
  closeOver(closed) {
    this.overClosed = closed;
    this.render();
    const el = document.getElementById(closed ? "show-over" : "close-over");
    if (el) el.focus();
  }

  pushLog(entry) {
    this.log.push(entry);
    this.logCount += 1;
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
  }

  /** A table event into the log: one line per fact (a person who took a seat and connected to it
   * has come, once). */
  logEvent(ev) {
    if (ev.kind === "joined") this.joined.add(ev.seat);
    if (ev.kind === "connected" && this.joined.delete(ev.seat)) return;
    this.pushLog({ event: ev });
  }

  /** The log of a page opened mid-game (a reload, a new tab, another device) or back after it
   * missed moves: the game so far as the server told every seat (the welcome's ``moveLog``: each
   * move with its card, a wild's value and a completion, the moves taken back, and the table's
   * events in their place; never a hidden card), numbered as they were (the older entries the
   * server leaves out are one line). The same lines as the live log showed. */
  rebuildLog(msg) {
    this.log = [];
    this.joined = new Set();
    this.logCount = msg.moveLogStart || 0;
    for (const step of msg.moveLog || []) {
      if (step.event) this.logEvent(step.event);
      else if (step.move) {
        this.pushLog({ seat: step.seat, move: step.move, undone: Boolean(step.undone),
          info: toldCard(step) ?? { card: null, wild: null, completed: false } });
      }
    }
  }

  /** When this tab first saw the table's game (kept over reloads, like the log): the game-over
   * view's time. */
  firstSeen() {
    const key = `spite.seen.${this.table.id}`;
    try {
      const saved = Number(sessionStorage.getItem(key));
      if (saved > 0) return saved;
      sessionStorage.setItem(key, String(Date.now()));
    } catch {
      /* storage off: the time counts from this page's start */
    }
    return Date.now();
  }

  myTurn() {
    return this.seat !== null && this.table.status === "playing" && !this.over && this.legal.length > 0 && !this.pending;
  }

  play(move) {
    this.selected = null;
    this.hint = null;
    this.refusal = null;
    this.pending = Boolean(this.link?.move(move, this.version));
    if (!this.pending) this.message = t("reconnecting");
    this.render();
  }

  /** Ask the server what a bot would play here (answered by a ``hint`` message). */
  askHint() {
    if (!this.myTurn() || this.hint?.asking || this.table.rated) return;
    this.hint = this.link?.hint() ? { asking: true } : null;
    this.render();
  }

  /** Take back this seat's last build play (the server checks the rule). */
  undo() {
    if (!this.myTurn() || !this.canUndo) return;
    this.selected = null;
    this.hint = null;
    this.pending = Boolean(this.link?.undo(this.version));
    this.render();
  }

  /** Ready for the match's next game. */
  nextGame() {
    if (this.readySent || this.seat === null) return;
    this.readySent = Boolean(this.link?.next());
    this.render();
  }

  /** The hinted move's source and target names (``H7-B2`` → ["H7", "B2"]; ``pass`` → ["pass", null]). */
  hintParts() {
    const move = this.hint && !this.hint.asking ? this.hint.move : "";
    if (!move) return [null, null];
    const i = move.indexOf("-");
    return i < 0 ? [move, null] : [move.slice(0, i), move.slice(i + 1)];
  }

  /** Is this a Skip-Bo deck (numbers for ranks)? */
  isSkipBo() {
    if (this.table.preset === "skip-bo" || this.table.options?.deck === "skip-bo") return true;
    const all = [];
    for (const p of this.view.players) {
      all.push(...(p.stock_top || []), ...(p.hand || []));
      for (const d of p.discards) all.push(...d);
    }
    for (const b of this.view.builds) if (b.top) all.push(b.top);
    return all.some((c) => /^\d+$/.test(c));
  }

  /** A move of this page's seat in words, with its card from the view (a hint, a selection). */
  ownMoveWords(move) {
    const [src] = move.split("-");
    const me = this.view.players[this.seat ?? 0];
    let card = null;
    if (src === "S") card = me.stock_top?.at(-1) ?? null;
    else if (/^D\d$/.test(src)) card = me.discards[Number(src.slice(1)) - 1]?.at(-1) ?? null;
    else if (src.startsWith("H")) card = me.hand?.find((c) => handToken(c) === src) ?? null;
    return moveWords(move, { card, numbered: this.isSkipBo() });
  }

  // ------------------------------------------------------------------ drawing
  /** A pile: its top card, or (``fan``) all ``cards`` overlapping, bottom first; with ``under`` the
   * cards below the top are marked as not to be picked (``.under``). */
  pileHTML(cards, { attrs = "", label = "", count = null, fan = false, back = false, cls = "", under = false, place = "", name = "" } = {}) {
    let inner;
    if (back) inner = `<div class="card">${backSVG()}</div>`;
    else if (!cards.length) inner = `<div class="card slot">${slotSVG(label, t("empty"))}</div>`;
    else if (fan) {
      inner = cards.map((c, i) => `<div class="card${under && i < cards.length - 1 ? " under" : ""}" data-card="${esc(c)}">${cardSVG(c)}</div>`).join("");
    }
    else inner = `<div class="card" data-card="${esc(cards[cards.length - 1])}">${cardSVG(cards[cards.length - 1])}</div>`;
    const badge = count !== null ? `<span class="count">${count}</span>` : "";
    const refusal = place && this.refusal?.place === place
      ? `<div class="refusal" role="alert" data-key="${this.refusal.at}">${esc(this.refusal.text)}</div>` : "";
    // a pile the keyboard does not reach now is still named for a screen reader ("Discard pile 2: 7♥")
    const named = name && !attrs.includes("aria-label=") ? ` role="group" aria-label="${esc(name)}"` : "";
    return `<div class="pile${fan ? " fan" : ""}${cls ? ` ${cls}` : ""}${refusal ? " refused" : ""}" style="--n:${Math.max(1, cards.length)}" ${attrs}${named}>${inner}${badge}${refusal}</div>`;
  }

  sourceAttrs(source) {
    if (this.seat === null) return "";
    const playable = this.myTurn() && this.moves.has(source);
    const sel = this.selected && this.selected.source === source;
    const hinted = this.hintParts()[0] === source;
    return `data-source="${source}"${playable ? ` data-playable="1" data-targets="${[...this.moves.get(source)].join(" ")}"` : ""}${sel ? ' data-selected="1"' : ""}${hinted ? ' data-hint="source"' : ""}` +
      (playable ? ` ${this.focusable(source, sel)}` : "");
  }

  targetAttrs(target) {
    const legal = this.selected && this.moves.get(this.selected.source)?.has(target);
    const hinted = this.hintParts()[1] === target;
    return `data-target="${target}"${legal ? ' data-legal="1"' : ""}${hinted ? ' data-hint="target"' : ""}` +
      (legal && !target.startsWith("D") ? ` ${this.focusable(target)}` : "");
  }

  /** A card or pile the keyboard reaches (Tab, then Enter or Space), named by what lies on it. */
  focusable(place, pressed = null) {
    return `tabindex="0" role="button" aria-label="${esc(this.placeLabel(place))}"${pressed !== null ? ` aria-pressed="${Boolean(pressed)}"` : ""}`;
  }

  /** A place's spoken name: "Stock: 7 of spades, 12 cards", "Build pile 2: empty". */
  placeLabel(place, seat = this.seat) {
    const p = this.view.players[seat ?? 0];
    const top = (cards) => (cards?.length ? cardName(cards[cards.length - 1]) : t("empty"));
    const i = Number(place.slice(1));
    if (place === "S") return t("place_stock", { card: top(p.stock_top || []), n: p.stock });
    if (place.startsWith("D")) return t("place_discard", { i, card: top(p.discards[i - 1] || []) });
    if (place.startsWith("B")) return t("place_build", { i, card: top(this.view.builds[i - 1]?.top ? [this.view.builds[i - 1].top] : []) });
    return place;
  }

  /** The seats of seat ``s``'s team (just ``s`` without partnerships). */
  teamSeats(s) {
    const team = this.view.players[s]?.team;
    if (team === undefined || team === null) return [s];
    return this.view.players.map((p, i) => (p.team === team ? i : null)).filter((i) => i !== null);
  }

  /** Partners play from one stock: it is drawn once, at this page's seat for its own team and at
   * the team's first seat for the other. The seat where seat ``s``'s stock is drawn. */
  stockSeat(s) {
    const mates = this.teamSeats(s);
    return this.seat !== null && mates.includes(this.seat) ? this.seat : Math.min(...mates);
  }

  playerHTML(s, mine, place) {
    const p = this.view.players[s];
    const stockCards = p.stock_top || [];
    const flashMove = this.flash && this.flash.seat === s ? this.flash.move : "";
    const own = mine && this.seat !== null;
    const mates = this.teamSeats(s);
    const drawsStock = this.stockSeat(s) === s;
    // the shared stock marks a partner's stock play too (its card came from here)
    const stockFlash = this.flash && mates.includes(this.flash.seat) && this.flash.move.startsWith("S-");
    // every face-up stock card the server sends (three with the open-stock preset), fanned; only
    // the top one (the last, drawn in front) is played, the ones under it are there to be read
    const stock = drawsStock ? this.pileHTML(stockCards, {
      attrs: `${own ? this.sourceAttrs("S") : ""} data-pile="stock" data-seat="${s}" data-team-seats="${mates.join(" ")}" data-open="${stockCards.length}" title="${esc(this.placeLabel("S", s))}"`,
      count: p.stock, label: "", fan: stockCards.length > 1, under: true, place: own ? "S" : "", name: this.placeLabel("S", s),
      cls: `stock${stockFlash ? " flash" : ""}`,
    }) : "";
    const discards = p.discards.map((pile, i) => {
      const name = `D${i + 1}`;
      let attrs = `data-pile="discard" data-seat="${s}" data-index="${i + 1}"`;
      if (own) {
        const src = pile.length ? this.sourceAttrs(name) : "";
        let tgt = this.targetAttrs(name);
        if (tgt.includes('data-legal="1"') && !src.includes("tabindex")) tgt += ` ${this.focusable(name)}`;
        attrs += ` ${tgt}` + (src ? ` ${src}` : "");
      }
      // the whole pile in words on hover (a long pile's cards overlap)
      if (pile.length > 1) attrs += ` title="${esc(t("tb_pile_cards", { i: i + 1, cards: pile.map(cardWord).join(", ") }))}"`;
      const flash = flashMove.startsWith(`${name}-`) || flashMove.endsWith(`-${name}`);
      return this.pileHTML(pile, { attrs, fan: true, label: String(i + 1), cls: `discard${flash ? " flash" : ""}`, place: own ? name : "",
        name: this.placeLabel(name, s) });
    }).join("");
    let hand;
    if (p.hand) {
      const hintSrc = own ? this.hintParts()[0] : null;
      const hintAt = hintSrc ? p.hand.findIndex((c) => handToken(c) === hintSrc) : -1;
      hand = p.hand.map((c, i) => {
        const src = handToken(c);
        const playable = own && this.myTurn() && this.moves.has(src);
        const sel = this.selected && this.selected.source === src && this.selected.index === i;
        const keys = playable ? ` tabindex="0" role="button" aria-pressed="${Boolean(sel)}" aria-label="${esc(t("place_hand", { i: i + 1, card: cardName(c) }))}"` : "";
        const refusal = own && this.refusal?.place === `${src}#${i}`
          ? `<div class="refusal" role="alert" data-key="${this.refusal.at}">${esc(this.refusal.text)}</div>` : "";
        return `<div class="card hand-card${refusal ? " refused" : ""}" data-card="${esc(c)}" data-index="${i}"${own ? ` data-source="${src}"` : ""}${keys}` +
          `${playable ? ` data-playable="1" data-targets="${[...this.moves.get(src)].join(" ")}"` : ""}` +
          `${sel ? ' data-selected="1"' : ""}${i === hintAt ? ' data-hint="source"' : ""}>${cardSVG(c)}${refusal}</div>`;
      }).join("");
    } else {
      hand = Array.from({ length: p.hand_size }, () => `<div class="card small">${backSVG()}</div>`).join("") +
        `<span class="count hand-count" title="${esc(t("tb_hand_cards", { n: p.hand_size }))}">${p.hand_size}</span>`;
    }
    const seatInfo = this.table.seats[s] || {};
    const toMove = this.view.to_move === s && !this.view.finished;
    const team = p.team !== undefined ? `<span class="team">${esc(t("team_n", { n: p.team + 1 }))}</span>` : "";
    const teamAttr = p.team !== undefined ? ` data-team="${p.team}"` : "";
    return `<section class="player ${place === "me" ? "me" : "opponent"} at-${place}${toMove ? " to-move" : ""}${drawsStock ? "" : " no-stock"}" data-seat="${s}"${teamAttr} aria-label="${esc(this.name(s))}">
      <h3>${seatHeadHTML(this.name(s), seatTag(seatInfo, { live: this.live }), seatInfo)} ${team}</h3>
      <div class="row">
        ${drawsStock ? `<div class="group stockgroup"><div class="label">${t("stock")}</div>${stock}</div>` : ""}
        <div class="group discgroup"><div class="label">${t("discard")}</div><div class="discards">${discards}</div></div>
        <div class="group handgroup"><div class="label">${t("hand")}</div><div class="hand ${p.hand ? "" : "backs"}">${hand}</div></div>
      </div></section>`;
  }

  buildsHTML() {
    const skipbo = this.isSkipBo();
    const flashMove = this.flash ? this.flash.move : "";
    const builds = this.view.builds.map((b, i) => {
      const name = `B${i + 1}`;
      let label = b.value ? t("value", { v: valueWord(b.value, skipbo) }) : t("empty");
      let wild = "";
      if (b.top && rankValue(b.top) !== b.value) {
        label = t("wild_as", { card: cardWord(b.top), value: valueWord(b.value, skipbo) });
        wild = " wild";
      }
      const cards = b.top ? [b.top] : [];
      const flash = flashMove.endsWith(`-${name}`) ? " flash" : "";
      return `<div class="group">
        ${this.pileHTML(cards, { attrs: `${this.targetAttrs(name)} data-pile="build" data-value="${b.value}" title="${esc(this.placeLabel(name))}"`,
          label: String(i + 1), cls: `build${wild}${flash}`, place: name, name: this.placeLabel(name) })}
        <div class="value${wild}" data-build-value="${b.value}">${esc(label)}</div></div>`;
    }).join("");
    const draw = this.pileHTML([], { back: this.view.draw > 0, count: this.view.draw, attrs: `data-pile="draw" title="${esc(t("draw"))}"`, label: "",
      name: t("tb_draw_pile", { n: this.view.draw }) });
    return `<section class="center" aria-label="${esc(t("build"))}">
      <div class="group drawgroup"><div class="label">${t("draw")}</div>${draw}
        ${this.view.set_aside ? `<div class="muted set-aside">${t("set_aside")}: ${this.view.set_aside}</div>` : ""}</div>
      <div class="group builds"><div class="label">${t("build")}</div><div class="row">${builds}</div></div>
    </section>`;
  }

  /** A server event of the table in the reader's words (a computer player by its name). */
  eventText(ev) {
    return tableEventText(ev, this.table, (s) => this.plainName(s));
  }

  /** One entry of the log, in words; the notation beside it for the notation view. */
  logItemHTML(e, number) {
    const n = `<span class="n">${number}.</span> `;
    if (e.event) return `<li class="event" data-kind="${esc(e.event.kind)}">${n}${esc(this.eventText(e.event))}</li>`;
    if (e.text !== undefined) return `<li class="event">${n}${esc(word(e.words, e.text))}</li>`;
    const what = moveWords(e.move, { ...(e.info || {}), numbered: this.view ? this.isSkipBo() : false });
    const code = ` <code class="notation">${esc(e.move)}</code>`;
    const who = `<span class="who">${esc(this.name(e.seat))}</span>`;
    if (e.undone) {
      return `<li data-seat="${e.seat}" data-move="${esc(e.move)}" class="undone">${n}${who} ${esc(t("undid"))}: <span class="what">${esc(what)}</span>${code}</li>`;
    }
    return `<li data-seat="${e.seat}" data-move="${esc(e.move)}">${n}${who}: <span class="what">${esc(what)}</span>${code}</li>`;
  }

  /** The side panel: the log, numbered by the page (a list's own markers are cut off at 10 and more,
   * and would start at 1 again once the oldest entries are dropped), and the settings. */
  logHTML() {
    // the entries dropped or never told (a long game's oldest moves) are one line, with no number
    const hidden = this.logCount - this.log.length;
    const items = (hidden > 0 ? `<li class="event earlier">${esc(t("earlier", { n: hidden }))}</li>` : "") +
      this.log.map((e, i) => this.logItemHTML(e, hidden + i + 1)).join("");
    const notation = `<button type="button" id="notation" class="small setting" aria-pressed="${notationOn()}">${esc(t(notationOn() ? "tb_notation_on" : "tb_notation_off"))}</button>`;
    return `<aside class="side" id="side" aria-label="${esc(t("log"))}">
      <button type="button" class="small panel-close" id="panel-close">${esc(t("tb_panel_hide"))} ✕</button>
      <div class="settings">${computerAtTable(this.table) ? paceHTML() : ""} ${soundHTML()} ${notation} ${reportButtonHTML()}</div>
      <h3>${t("log")}</h3><ol class="log numbered" id="log" role="log" aria-label="${esc(t("log"))}">${items}</ol>
      <p class="keys-help muted">${esc(t("tb_keys"))}</p></aside>`;
  }

  /** The game-over view's short summary: stock left per seat, moves and time (when known). */
  summaryHTML() {
    const parts = [];
    if (this.over.moves != null) parts.push(t("st_moves", { n: this.over.moves }));
    if (this.over.seconds != null) {
      const sec = this.over.seconds;
      parts.push(`${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`);
    }
    return parts.length ? `<p class="summary" id="over-summary">${esc(parts.join(" · "))}</p>` : "";
  }

  overHTML() {
    if (!this.over || this.overClosed) return "";
    const r = this.over.result || {};
    let head;
    if (r.winner !== undefined && r.winner !== null) head = t("wins", { name: this.name(r.winner) });
    else if (r.team !== undefined && r.team !== null) head = t("wins", { name: this.teamName(r.team) });
    else if (r.winners?.length) head = t("wins", { name: r.winners.map((s) => this.name(s)).join(" + ") });
    else head = t("draw_result");
    const reason = r.reason ? t(`reason_${r.reason}`) : "";
    const pts = r.points ? ` · ${t("points", { n: r.points })}` : "";
    const lefts = this.view.players.map((p, s) => `<li>${esc(t("stock_left", { name: this.name(s), n: p.stock }))}</li>`).join("");
    const gameId = this.over.gameId ?? this.table.gameId;
    const replay = gameId != null ? `<a href="/replay/${esc(gameId)}" id="replay-link">${t("replay")}</a> · ` : "";
    const rec = this.over.recordUrl ? `${replay}<a href="${esc(this.over.recordUrl)}">${t("record")}</a>` : replay.slice(0, -3);
    const review = gameId != null ? `<a href="/replay/${esc(gameId)}?review=1" id="review-link">${t("rv_review")}</a>` : "";
    const goesOn = this.matchGoesOn();
    let matchPart = "";
    if (this.match) {
      const m = this.match;
      let line = "";
      if (m.over) {
        line = `<p class="result" id="match-result">${esc(t("match_wins", { name: this.sideName(m.winner) }))}</p>`;
      } else if (this.seat !== null && (this.readySent || (m.ready || []).includes(this.seat))) {
        line = `<p id="match-next"><button type="button" class="primary" id="next-game" disabled>${t("next_game")}</button> ${esc(t("next_waiting"))}</p>`;
      } else if (this.seat !== null) {
        line = `<p id="match-next"><button type="button" class="primary" id="next-game">${t("next_game")}</button>${m.nextIn != null ? ` <span class="muted">${esc(t("next_in", { n: Math.round(m.nextIn) }))}</span>` : ""}</p>`;
      } else {
        line = `<p id="match-next" class="muted">${esc(t("next_soon"))}</p>`;
      }
      matchPart = `<div class="match-summary">${this.matchScoreHTML("match-final")}${line}</div>`;
    }
    const mine = this.outcome(r);
    return `<div class="overlay" id="game-over" data-winner="${r.winner ?? ""}" data-outcome="${mine ?? ""}" data-match="${this.match ? (this.match.over ? "over" : "on") : ""}">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="over-title">
      <button type="button" class="small close" id="close-over" title="Esc">${t("over_close")} ✕</button>
      <h2 id="over-title">${t("game_over")}</h2><p class="result">${esc(head)}</p><p>${esc(reason)}${esc(pts)}</p>
      <ul aria-label="${esc(t("over_stock"))}">${lefts}</ul>${this.summaryHTML()}${matchPart}${seriesHTML(this.table, (s) => this.name(s))}
      ${goesOn || tournamentOf(this.table) ? "" : rematchHTML(this.rematchAsk, this.seat, (s) => this.name(s), this.table)}
      <p>${tournamentLinkHTML(this.table)}${[rec, review].filter(Boolean).join(" · ")} · <a href="/">${t("back_lobby")}</a></p>
      <p class="error" role="alert"></p></div></div>`;
  }

  /** A team's name: its two players. */
  teamName(team) {
    const seats = this.view.players.map((p, s) => (p.team === team ? s : null)).filter((s) => s !== null);
    return seats.length ? seats.map((s) => this.name(s)).join(" + ") : t("team_n", { n: team + 1 });
  }

  /** A scoring side's name: a seat, or with partnerships the team of seats s and s + 2. */
  sideName(side) {
    if (side === null || side === undefined) return "";
    const n = this.view?.players.length ?? this.table.seats.length;
    const teams = this.match && this.match.scores.length === 2 && n === 4;
    return teams ? `${this.name(side)} + ${this.name(side + 2)}` : this.name(side);
  }

  /** The match score: every side's points, the target and the game (``id``: the header's or the summary's). */
  matchScoreHTML(id = "match-score") {
    const m = this.match;
    if (!m) return "";
    const sides = m.scores.map((pts, side) => `<span class="side-score${m.winner === side ? " winner" : ""}" data-side="${side}">` +
      `${esc(this.sideName(side))} <strong>${pts}</strong></span>`).join(" – ");
    return `<div class="match-score" id="${id}" data-scores="${m.scores.join(" ")}" data-target="${m.target}" data-game="${m.game}">` +
      `<span class="match-label">${esc(t("match_to", { target: m.target }))}</span> ${sides} ` +
      `<span class="muted">· ${esc(t("match_game", { n: m.game }))}</span></div>`;
  }

  /** The Hint and Undo buttons, and the hint shown (its move and why, in words). */
  helpHTML() {
    if (this.seat === null || this.over || this.table.status !== "playing") return "";
    const mine = this.myTurn();
    const asking = this.hint?.asking;
    // no help at a rated table (docs/ratings.md): no Hint button
    const hintBtn = this.table.rated ? "" : `<button type="button" id="hint"${mine && !asking ? "" : " disabled"}>${t("hint")}<kbd class="key-hint">H</kbd></button>`;
    const undoBtn = `<button type="button" id="undo"${mine && this.canUndo ? "" : " disabled"}>${t("undo")}<kbd class="key-hint">U</kbd></button>`;
    let shown = "";
    if (asking) shown = `<span class="hint-text muted" id="hint-text">${esc(t("hint_wait"))}</span>`;
    else if (this.hint) {
      shown = `<span class="hint-text" id="hint-text" data-move="${esc(this.hint.move)}">` +
        `${esc(t("tb_hint", { move: this.ownMoveWords(this.hint.move), why: hintWhy(this.hint) }))}</span>`;
    }
    return `${hintBtn} ${undoBtn} ${shown}`;
  }

  /** What the selected card is, in words: "9♥ from your hand". */
  selectedWords() {
    const sel = this.selected;
    if (!sel) return "";
    const card = sel.card ? cardWord(sel.card) : t("tb_a_card");
    let from = t("tb_from_your_hand");
    if (sel.source === "S") from = t("tb_from_your_stock");
    else if (sel.source.startsWith("D")) from = t("tb_from_your_discard", { i: Number(sel.source.slice(1)) });
    return t("tb_selected", { card, from });
  }

  statusText() {
    if (this.over && this.matchGoesOn()) return `${t("game_over")} · ${t("match_game", { n: this.match.game })}`;
    if (this.over) return t("game_over");
    if (this.table.status === "open") return t("waiting_players");
    const turn = t("turn", { n: this.view.turn });
    if (this.seat === null) return `${turn} · ${t("spectating")} ${t("to_move", { name: this.name(this.view.to_move) })}`;
    if (this.view.to_move === this.seat) {
      if (this.selected) {
        const targets = this.moves.get(this.selected.source);
        return `${turn} · ${t(targets?.size ? "tb_pick_target" : "tb_pick_nowhere", { what: this.selectedWords() })}`;
      }
      return `${turn} · ${t("tb_your_turn")}`;
    }
    return `${turn} · ${t("to_move", { name: this.name(this.view.to_move) })}`;
  }

  shareHTML() {
    // the link is the seated player's to give away; a spectator has nobody to share it with
    if (this.table.status !== "open" || this.seat === null) return "";
    const url = `${location.origin}/t/${this.table.id}`;
    return `<section class="panel share"><p>${t("share")}</p>
      <input id="share-link" readonly value="${esc(url)}"> <button type="button" id="copy">${t("copy")}</button>
      <p>${t("not_started")}</p></section>`;
  }

  /** The line over the table: the match or series score, the fair deal's mark, the side panel's button. */
  headHTML(open) {
    const match = this.match ? `<div class="match-bar">${this.matchScoreHTML()}</div>` : "";
    const series = this.table.series && !this.over ? `<div class="series-bar">${seriesHTML(this.table, (s) => this.name(s))}</div>` : "";
    const fair = fairHTML(this.link?.fair, this.link?.verdict, (s) => this.name(s), this.fairOpen);
    return `<div class="table-head">${match}${series}${fair}${ratedMarkHTML(this.table)}<span class="spacer"></span>` +
      `<button type="button" class="small" id="panel-toggle" aria-controls="side" aria-expanded="${open}">` +
      `${esc(t(open ? "tb_panel_hide" : "tb_panel_show"))}</button></div>`;
  }

  render() {
    if (!this.view) return;
    const focused = this.focusKey();
    const me = this.seat ?? 0;
    const n = this.view.players.length;
    const places = placesOf(n);
    const others = [];
    for (let k = 1; k < n; k++) others.push([(me + k) % n, places[k - 1]]);
    const hintPass = this.hintParts()[0] === "pass";
    const passRefused = this.refusal?.place === "pass"
      ? `<div class="refusal" role="alert" data-key="${this.refusal.at}">${esc(this.refusal.text)}</div>` : "";
    const passBtn = this.myTurn() && this.legal.includes("pass")
      ? `<span class="pass-wrap"><button type="button" id="pass" class="primary"${hintPass ? ' data-hint="source"' : ""}>${t("pass")}</button>${passRefused}</span> <span>${t("pass_hint")}</span>` : "";
    const open = panelOpen();
    const root = main();
    setNumberedDeck(this.isSkipBo());  // the wild is drawn as Skip-Bo's in its deck, a joker otherwise
    morph(root, `
      <div class="table" data-version="${this.version}" data-my-turn="${this.myTurn() ? 1 : 0}"
           data-seat="${this.seat ?? ""}" data-over="${this.over ? 1 : 0}" data-status="${esc(this.table.status)}"
           data-can-undo="${this.canUndo ? 1 : 0}" data-players="${n}" data-panel="${open ? "open" : "closed"}"
           data-notation="${notationOn() ? 1 : 0}" data-selecting="${this.selected ? 1 : 0}">
        <div class="board" data-players="${n}">
          ${this.headHTML(open)}
          ${this.shareHTML()}
          <div class="opponents">${others.map(([s, place]) => this.playerHTML(s, false, place)).join("")}</div>
          ${this.buildsHTML()}
          <div class="me-area">
            <div class="actions">${passBtn}${this.helpHTML()}${this.over && this.overClosed ? `<button type="button" class="primary" id="show-over">${t("over_show")}</button>` : ""}<span class="message" role="alert">${esc(this.message)}</span></div>
            ${this.playerHTML(me, this.seat !== null, "me")}
          </div>
        </div>
        ${this.logHTML()}
      </div>${this.overHTML()}`);
    setStatus(this.statusText());
    markNotation();
    const log = document.getElementById("log");
    // the count shown is kept on the element as a property, not an attribute: the next redraw's
    // morph would take away an attribute its markup lacks, and the log would be scrolled every time
    if (log && log.shownCount !== this.logCount) {
      log.shownCount = this.logCount;
      scrollToEnd(log);
    }
    this.bind(root);
    this.afterRender(root, focused);
  }

  /** What has focus on the board (a selector to find it again after a redraw), or null. */
  focusKey() {
    const el = document.activeElement;
    if (!el || el === document.body) return this.viaKeys ? this.lastFocus : null;
    if (!main().contains(el)) return null;
    if (el.id) return `#${el.id}`;
    if (el.classList.contains("hand-card")) return `.me .hand-card[data-index="${el.dataset.index}"]`;
    if (el.dataset.source) return `.me [data-source="${el.dataset.source}"]`;
    if (el.dataset.target) return `[data-target="${el.dataset.target}"]`;
    return null;
  }

  /** The tab's title: the turn, or at the end whether this seat won or lost. */
  tabTitle() {
    if (this.over) {
      const r = this.over.result || {};
      const mine = this.outcome(r);
      if (mine === "won") return t("tb_tab_won");
      if (mine === "lost") return t("tb_tab_lost");
      if (r.winner !== undefined && r.winner !== null) return t("tb_tab_over", { name: this.plainName(r.winner) });
      if (r.team !== undefined && r.team !== null) return t("tb_tab_over", { name: this.teamName(r.team) });
      return t("tb_tab_draw");
    }
    const mine = this.seat !== null && this.table.status === "playing" && this.view.to_move === this.seat;
    return mine ? t("tab_your_turn") : t("title");
  }

  /** After a redraw: the flights and the landing cards (anim.js), the tab title, the turn's sound,
   * and the keyboard focus where it was (or on the first playable card, or the game-over view). */
  afterRender(root, focused) {
    runFlights(this.flights, root);
    this.flights = null;
    keepLanding(root);
    const mine = this.seat !== null && !this.over && this.table.status === "playing" && this.view.to_move === this.seat;
    document.title = this.tabTitle();
    if (mine && !this.wasMyTurn && this.version > 0) sound("turn");
    this.wasMyTurn = mine;
    if (focused) this.lastFocus = focused;
    const again = focused && root.querySelector(focused);
    if (again && (again.tabIndex >= 0 || again.tagName === "BUTTON")) {
      if (document.activeElement !== again) again.focus();
    } else if (this.over && !this.overClosed) {
      if (!root.querySelector("#game-over")?.contains(document.activeElement)) root.querySelector("#close-over")?.focus({ preventScroll: true });
    } else if (focused && this.myTurn()) root.querySelector('.me [data-playable="1"]')?.focus();
  }

  /** The table's listeners, on the page's main element once per table client (the redraws keep
   * the elements: ``morph``); every button is found by its id when clicked. */
  bind(root) {
    bindFair(root, () => {
      this.fairOpen = !this.fairOpen;
      this.render();
    });
    if (root.tableBound === this) return;
    root.tableBound = this;
    root.addEventListener("click", (ev) => {
      if (root.tableBound !== this) return;
      const button = ev.target.closest?.("button");
      // on a narrow screen the open panel lies over the table: a touch beside it folds it away
      if (panelOpen() && !wideScreen() && !ev.target.closest?.(".side, #panel-toggle")
          && ev.target.closest?.(".table")) {
        setPanelOpen(false);
        this.render();
        return;
      }
      if (panelSetting(button?.id)) return this.render();
      switch (button?.id) {
        case "pass": return this.play("pass");
        case "copy": return this.copyLink(button);
        case "rematch": return this.answerRematch(true);
        case "rematch-no": return this.answerRematch(false);
        case "new-table": return this.newTable(button);
        case "hint": return this.askHint();
        case "undo": return this.undo();
        case "next-game": return this.nextGame();
        case "close-over": return this.closeOver(true);
        case "show-over": return this.closeOver(false);
        case "report": return openReport(this.table.id, this.table.seats, this.seat);
        default:
          break;
      }
      if (ev.target.closest?.(".board")) this.onClick(ev);
    });
    root.addEventListener("change", (ev) => {
      if (root.tableBound === this && ev.target.id === "pace") setPace(ev.target.value);
    });
    bindDrag(root, {
      owner: this,
      sources: ".me [data-source]",
      targets: ".board [data-target]",
      cardOf: (el) => (el.classList.contains("card") ? el : el.querySelector(".card[data-card]:last-of-type") ?? el),
      start: (el) => {
        if (!this.myTurn() || (!el.dataset.card && !el.querySelector(".card[data-card]"))) return false;
        this.select(el);
        this.render();
        return true;
      },
      drop: (_el, target) => this.tryTarget(target),
      cancel: () => {
        this.selected = null;
        this.render();
      },
    });
  }

  async copyLink(button) {
    const input = document.getElementById("share-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = t("copied");
    } catch {
      /* the text is selected: the player copies it by hand */
    }
  }

  select(el) {
    const idx = el.dataset.index !== undefined && el.classList.contains("hand-card") ? Number(el.dataset.index) : null;
    const cards = el.querySelectorAll(".card[data-card]:not(.under)");
    const card = el.dataset.card || cards[cards.length - 1]?.dataset.card || null;
    this.selected = { source: el.dataset.source, index: idx, card };
    this.refusal = null;
  }

  /** The person tried target ``el`` (a build or discard pile) with the selected card: played when
   * the rules allow it, else sent all the same, so that the engine's reason shows there. */
  tryTarget(el) {
    const target = el.dataset.target;
    if (!this.selected) {
      this.showRefusal(target, t("tb_pick_first"));
      this.render();
      return;
    }
    const { source, card } = this.selected;
    if (target.startsWith("D") && !source.startsWith("H")) {
      this.showRefusal(target, t("tb_only_hand_discards"));
      this.selected = null;
      this.render();
      return;
    }
    // the card picked is the card that moves: a hand card is sent as itself (H7H-B2), not by its rank
    this.play(pickedMove(source, card, target));
  }

  /** Why nothing happens now when one of this seat's cards is touched: another's turn, a move
   * waiting for the server's answer. */
  notNow(el) {
    if (this.seat === null || this.over || this.table.status !== "playing" || !this.view) return null;
    const place = el.classList.contains("hand-card") ? `${el.dataset.source}#${el.dataset.index}` : el.dataset.source || el.dataset.target;
    if (!place) return null;
    if (this.pending) return [place, t("tb_wait_answer")];
    if (this.view.to_move !== this.seat) return [place, t("tb_not_your_turn", { name: this.plainName(this.view.to_move) })];
    return null;
  }

  onClick(ev) {
    const mineEl = ev.target.closest?.(".me [data-source], .board [data-target]");
    if (!this.myTurn()) {
      const why = mineEl && this.notNow(mineEl);
      if (why) {
        this.showRefusal(...why);
        this.render();
      }
      return;
    }
    // an open stock's cards under the top one are shown, not played
    if (ev.target.closest(".card.under")) return;
    const src = ev.target.closest(".me [data-source]");
    const target = ev.target.closest(".board [data-target]");
    const idx = src?.classList.contains("hand-card") ? Number(src.dataset.index) : null;
    const same = src && this.selected && this.selected.source === src.dataset.source && this.selected.index === idx;
    // a discard pile is a source and a target: a hand card selected goes onto it; else it is picked
    if (target && this.selected && !same && (!src || this.selected.source.startsWith("H") || !target.dataset.target.startsWith("D")
        || this.moves.get(this.selected.source)?.has(target.dataset.target))) {
      this.tryTarget(target);
      return;
    }
    if (src && (src.dataset.card || src.querySelector(".card[data-card]"))) {
      if (same) this.selected = null;
      else this.select(src);
    } else if (target && !this.selected) {
      this.tryTarget(target);
      return;
    } else {
      this.selected = null;
    }
    this.render();
  }

  /** Answer the rematch question: yes (a new game here once everyone said yes) or no. */
  answerRematch(accept) {
    if (this.seat !== null) this.link?.rematch(accept);
  }

  /** A new table of the same kind (after a declined rematch): the page goes there. */
  async newTable(button) {
    button.disabled = true;
    try {
      await newTableLike(this.table);
    } catch (err) {
      button.disabled = false;
      const line = document.querySelector("#game-over .error");
      if (line) line.textContent = err.message;
    }
  }
}

/** A hint's reason in words, without the bot's internal score (``hint.KEY`` has a page wording
 * ``tb_hint.KEY`` that leaves the score out). */
export function hintWhy(hint) {
  const list = (hint.whyWords || []).map((w) => (w && hasText(`tb_${w.key}`) ? { ...w, key: `tb_${w.key}` } : w));
  return words(list, hint.why);
}

