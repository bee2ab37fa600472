// Spit and Speed in real time (docs/spit.md, docs/protocol.md "Spit and Speed in real time").
// Nothing waits for a turn: a key or a click sends a `move` at once (through the seat link,
// seat-link.js, which speaks the protocol); the server plays it when it arrives and answers `ack` or
// an `error` (`too-late` when the race was lost), whose message is shown on the card for a moment.
// Every `state` carries the whole view, the seat's legal moves, the clock and the engine's `events`
// (what the other player did, flips, round ends), which flash.
//
// Keys (as in the terminal app): 1–5 pick a tableau pile (Speed: a hand card), then Q/W/E or ←/→
// (↑/↓ the middle of three) put its top card on that center pile; a picked pile then the digit of
// an empty slot moves it there; Space calls spit; S slaps the smaller center pile after winning a
// round (Q/W/E slap that one); Esc cancels. The mouse and a finger do the same: a card, then a
// center pile, or a card dragged onto one (drag.js). The keys' hints show only where there is a
// keyboard. Moves are told in words (moveWords here, moves.js); the notation shows in the notation view.

import { planPlaceFlight, runPlaceFlights } from "../../anim.js";
import { main, setRerender, setStatus } from "../../shell.js";
import { backSVG, cardSVG, rankOf, slotSVG } from "../../cards.js";
import { bindDrag } from "../../drag.js";
import { cardName, presetName, t, word } from "../../i18n.js";
import { bindFair, fairHTML } from "../../fair.js";
import { cardWord, moveWords as cardMoveWords } from "../../moves.js";
import { personName, ratedMarkHTML, seatHeadHTML, seatTag } from "../../people.js";
import { newTableLike, rematchHTML, seriesHTML, tableEventText } from "../../rematch.js";
import { tournamentLinkHTML, tournamentOf } from "../../tourney-link.js";
import { openReport, reportButtonHTML } from "../../report.js";
import { esc, loadStyle, morph, parseLegal, scrollToEnd } from "../../html.js";
import { markNotation, notationOn, panelOpen, panelSetting, setPanelOpen, wideScreen } from "../../panel.js";
import { SeatLink } from "../../seat-link.js";
import { linkClosed, openSeat, takeNotice } from "../../seatpage.js";
import { sound, soundHTML } from "../../sound.js";

import { gameWord } from "../../games.js";

// This module is served from its family's folder (/static/games/GAME/, spite.spit's web/): the shared
// page modules are two folders up.
// this module's own styles come with it (a Spite and Malice page never loads either); the module is
// ready once they are, so a Spit table is never drawn unstyled
await loadStyle(new URL("./spit.css", import.meta.url));

const CENTER_KEYS = ["q", "w", "e"];
const FLASH_MS = 900;
const VERDICT_MS = 2600;
const BANNER_MS = 1800;
const SPEED_DECK = 52;

function seconds(ms) {
  return (Math.max(0, ms) / 1000).toFixed(1);
}

/** Write ``text`` into ``el`` (if there is one) only when it is not there already. */
function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}


/** Open Spit/Speed table ``info`` (TableInfo): play with a stored token, join a free seat, or watch. */
export function openSpit(info) {
  openSeat(info, SpitClient, gameName(info.game));
}

/** The page module's entry (games.js): this module draws the tables of the games whose type names it. */
export const openGame = openSpit;

/** Where a card comes from and where it goes, in words: Tn (a tableau pile), Hr (Speed's hand, worded
 * as its own: a Spit player has no hand); Cn (a center pile), Tn (an empty tableau place). A pile it
 * does not know stays in notation. */
export const pileWords = {
  from(src) {
    if (/^T\d+$/.test(src)) return t("tb_from_tableau", { i: Number(src.slice(1)) });
    if (src.startsWith("H")) return t("tb_from_hand_speed");
    return src;
  },
  to(target) {
    const i = Number(target.slice(1));
    if (target.startsWith("C")) return t("tb_to_center", { i });
    if (target.startsWith("T")) return t("tb_to_slot", { i });
    return target;
  },
};

/** A Spit or Speed move in words, without who made it: "calls spit", "slaps center pile 2", or a card's
 * move ("9♥ from tableau pile 2 onto center pile 1", Speed's "7♥ from the hand onto center pile 1"). */
export function moveWords(move, info = {}) {
  if (move === "spit") return t("tb_mv_spit");
  const slap = /^slap C(\d+)$/.exec(move || "");
  if (slap) return t("tb_mv_slap", { i: Number(slap[1]) });
  return cardMoveWords(move, pileWords, info);
}

/** A flip event's text ("C1 5H, C2 QS", or "nothing") as a person reads it: "center pile 1: 5♥,
 * center pile 2: Q♠". */
export function flipText(text) {
  if (text === "nothing") return t("sp_flip_nothing");
  return text.split(",").map((part) => {
    const [pile, card] = part.trim().split(" ");
    const i = Number(String(pile).replace(/\D/g, ""));
    return card ? t("tb_flip_part", { i, card: cardName(card) }) : pile;
  }).join(", ");
}

/** The card each move of ``events`` laid down, where the view after them (``view``) still shows it:
 * the top of the center pile (or empty place) it went to, when no later move of the same events
 * covered it. ``seatOf(ev)`` is the events' mover. A map from the event's index to the card. */
export function eventCards(events, view) {
  const cards = new Map();
  const covered = new Set();
  for (let k = (events || []).length - 1; k >= 0; k--) {
    const ev = events[k];
    if (ev.kind !== "move" || typeof ev.text !== "string") continue;
    const m = ev.text.match(/^([TH]\w+)-([TC])(\d+)$/);
    if (!m) continue;
    const key = m[2] === "C" ? `C${m[3]}` : `${ev.seat}T${m[3]}`;
    if (covered.has(key)) continue;
    covered.add(key);
    const top = m[2] === "C" ? view?.centers?.[Number(m[3]) - 1]?.top : view?.players?.[ev.seat]?.tableau?.[Number(m[3]) - 1]?.top;
    if (top) cards.set(k, top);
  }
  return cards;
}

function gameName(game) {
  return gameWord(game);
}

// The keys play the table on screen: bound once for the page, not once per table opened.
let current = null;
let keysBound = false;

/** One seat (or a spectator) at a Spit or Speed table over one WebSocket. */
export class SpitClient {
  constructor(info, token) {
    this.table = info;
    this.token = token;
    this.seat = null;
    this.view = null;
    this.legal = [];
    this.moves = new Map();
    this.version = -1;
    this.clock = { now: 0, phase: "play", playFrom: 0, roundWinner: null, nextEvent: null };
    this.clockAt = performance.now();
    this.selected = null; // Spit: tableau pile index; Speed: hand card index
    this.verdict = null; // {move, text, at}: the server's refusal, shown on the card
    this.message = takeNotice(); // why the page was opened again, if it was (shown until the next action)
    this.flashes = new Map(); // place → {cls, at}
    this.banner = null; // {text, cls, at}
    this.log = [];
    this.logCount = 0; // entries ever logged (the log keeps the last ones)
    this.roundsWon = [0, 0];
    this.over = null;
    this.rematchAsk = null; // the server's RematchInfo after the table's last game
    this.link = null; // the seat link (seat-link.js): the socket, the protocol and the fair deal's checks
    this.synced = -1; // the playFrom we asked a fresh `state` for
    this.startAt = 0; // performance.now() at which a new game's countdown ends (clock.startsIn)
    this.started = true; // the countdown's end has been announced
    this.timer = null;
    this.nextExpiry = Infinity;
    this.flights = []; // cards to fly after the next redraw (anim.js)
    this.joined = new Set(); // seats whose person took them just now (their "connected" is the same news)
    this.fairOpen = false; // the fair deal's details are shown
    this.overClosed = false;
  }

  get game() {
    return this.table.game === "speed" ? "speed" : "spit";
  }

  /** The seat drawn at the bottom (a spectator sees seat 0 there) and the other one. */
  get me() {
    return this.seat ?? 0;
  }

  get opp() {
    return 1 - this.me;
  }

  /** Open the seat link and show what it reports; the keys play this table from now on. */
  connect() {
    current = this;
    setRerender(() => this.render());
    if (!keysBound) {
      keysBound = true;
      document.addEventListener("keydown", (ev) => current?.onKey(ev));
    }
    // the link stays open after the game: the rematch question is answered over it
    const link = new SeatLink(this.table, this.token);
    this.link = link;
    for (const type of ["welcome", "state", "ack", "table", "gameOver", "rematch", "refused"]) {
      link.addEventListener(type, (ev) => this.onMessage(ev.detail));
    }
    link.addEventListener("fair", () => this.render());
    link.addEventListener("status", (ev) => {
      const { state, reason } = ev.detail;
      if (state === "reconnecting") setStatus(t("reconnecting"));
      else if (state === "closed") linkClosed(this, reason, openSpit);
    });
    link.start();
    if (!this.timer) this.timer = setInterval(() => this.tick(), 100);
  }

  /** Leave this table: no reconnect, no timer (another screen takes over). */
  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.link?.close();
    if (current === this) current = null;
  }

  /** The game time now (ms): the clock's `now` plus the time since it arrived. */
  now() {
    if (this.over || this.table.status !== "playing") return this.clock.now;
    // the game clock stands still during the start countdown
    return this.clock.now + Math.max(0, Math.round(performance.now() - Math.max(this.clockAt, this.startAt)));
  }

  /** Milliseconds left of a new game's countdown ("one, two, three — spit!"), 0 once play has begun. */
  startWait() {
    return this.over ? 0 : Math.max(0, this.startAt - performance.now());
  }

  /** A seat's name as the table shows it (a computer player by its own name), "(you)" for this seat. */
  name(seat) {
    const name = personName(this.table, seat);
    return seat === this.seat ? t("tb_you_name", { name }) : name;
  }

  plainName(seat) {
    return personName(this.table, seat);
  }

  // ------------------------------------------------------------------ server messages
  setPosition(msg) {
    if (msg.stateVersion < this.version) return;
    this.version = msg.stateVersion;
    this.view = msg.view;
    this.legal = this.seat === null ? [] : msg.legal || [];
    this.moves = parseLegal(this.legal);
    const clock = msg.game?.clock;  // the game's own part of the message
    if (clock) {
      this.clock = clock;
      this.clockAt = performance.now();
      this.startAt = clock.startsIn ? this.clockAt + clock.startsIn : 0;
      if (clock.startsIn) this.started = false;
      if (Array.isArray(clock.roundsWon)) this.roundsWon = clock.roundsWon.slice(0, 2);
    }
    if (this.view.finished && !this.over) this.over = { result: this.view.result };
    // a picked pile stays picked while it still holds a card (Spit) / the hand still has that card (Speed)
    if (this.selected !== null && !this.sourceOf(this.selected)) this.selected = null;
    if (this.clock.phase !== "play") this.selected = null;
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.table = msg.table;
        this.seat = msg.seat;
        // a page opened now, or back after it missed something: the log is the game so far
        if (this.version < 0 || msg.stateVersion !== this.version) this.rebuildLog(msg);
        this.version = -1;
        this.setPosition(msg);
        break;
      case "state": {
        this.setPosition(msg);
        const events = msg.game?.events || [];
        const cards = eventCards(events, msg.view);
        events.forEach((ev, k) => this.onEvent(ev, cards.get(k) ?? null));
        break;
      }
      case "ack":
        if (this.verdict && this.verdict.move === msg.move) this.verdict = null;
        return; // the `state` that follows draws the move
      case "table": {
        this.table = msg.table;
        if (msg.event?.kind === "rematch") {
          // the same table, a new deal (the next state brings it, with its countdown)
          this.over = null;
          this.rematchAsk = null;
          this.selected = null;
          this.verdict = null;
          this.banner = null;
          this.roundsWon = [0, 0];
        }
        if (msg.event) this.logEvent(msg.event);
        break;
      }
      case "gameOver":
        if (!this.over && this.seat !== null && msg.result?.winner != null) sound(msg.result.winner === this.seat ? "win" : "loss");
        this.over = { result: msg.result, gameId: msg.gameId, recordUrl: msg.recordUrl };
        this.table = { ...this.table, status: "finished", gameId: msg.gameId, series: msg.series ?? this.table.series };
        this.rematchAsk = msg.rematch ?? null;
        break;
      case "rematch":
        this.rematchAsk = msg.rematch;
        if (msg.series) this.table = { ...this.table, series: msg.series };
        break;
      case "error":
        // shown on the card the refused move tried (the link says which request it answers)
        this.refused(msg.request?.move ?? null, word(msg.words, msg.message), msg.code);
        break;
      default:
        return;
    }
    this.render();
  }

  /** The log of a page opened mid-game (a reload, a new tab, another device) or back after it
   * missed something: the game so far as the server tells every seat (the welcome's ``moveLog``:
   * each step's move and what came with it, never a face-down card), worded as it was live. */
  rebuildLog(msg) {
    this.log = [];
    this.logCount = 0;
    this.joined = new Set();
    let round = 1;
    for (const step of msg.moveLog || []) {
      if (step.event) {  // a table event in its place (a seat taken, a player gone or back)
        this.logEvent(step.event);
        continue;
      }
      const told = step.game || {};  // the game's own part of the step: its time and what came with it
      if (step.move !== null && step.seat !== null) {
        this.pushLog(this.logEntry({ t: told.t, kind: "move", seat: step.seat, text: step.move }, round, told.card ?? null));
      }
      for (const ev of told.events || []) {
        if (ev.kind === "deal") round += 1;
        const entry = this.logEntry(ev, round);
        if (entry) this.pushLog(entry);
      }
    }
  }

  /** The server refused ``move``: its reason on the card (and in the message line) for a moment;
   * ``place`` where to show it when not the move's own card (a local "pick a card first"). */
  refused(move, text, code = "illegal", place = null) {
    this.verdict = { move, text, code, place, at: Date.now() };
    this.message = "";
  }

  /** A table event into the log: one line per fact (a person who took a seat and connected to it
   * has come, once). */
  logEvent(ev) {
    if (ev.kind === "joined") this.joined.add(ev.seat);
    if (ev.kind === "connected" && this.joined.delete(ev.seat)) return;
    const text = this.tableEventText(ev);
    if (text) this.pushLog({ text, cls: "event" });
  }

  /** A server event of the table in the reader's words (a computer player by its name). */
  tableEventText(ev) {
    return tableEventText(ev, this.table, (s) => this.plainName(s));
  }

  pushLog(entry) {
    this.log.push(entry);
    this.logCount += 1;
    if (this.log.length > 60) this.log.splice(0, this.log.length - 60);
  }

  flash(place, cls) {
    this.flashes.set(place, { cls, at: Date.now() });
  }

  /** The places a move of ``seat`` touched ("T3-C1" → the pile and the center), to flash. */
  flashMove(seat, text) {
    const mine = seat === this.me;
    const cls = mine ? "flash-me" : "flash-opp";
    const pre = mine ? "" : "o";
    if (text === "spit") {
      this.flash(`${pre}S`, cls);
      return;
    }
    const slap = text.match(/^slap (C\d)$/);
    if (slap) {
      sound("slap");
      this.flash(slap[1], "flash-slap");
      this.banner = { text: t("tb_log_move", { name: this.plainName(seat), what: moveWords(text) }), cls: "b-slap", at: Date.now() };
      return;
    }
    const m = text.match(/^([TH]\w+)-([TC]\d)$/);
    if (!m) return;
    this.flyMove(pre, m[1], m[2], text);
    if (m[1].startsWith("T")) this.flash(`${pre}${m[1]}`, cls);
    else this.flash(`${pre}H`, cls);
    this.flash(m[2].startsWith("C") ? m[2] : `${pre}${m[2]}`, cls);
  }

  /** A card of a move flies from its pile to where it lands (after the redraw), with a sound. */
  flyMove(pre, src, target, text) {
    const from = src.startsWith("T") ? `[data-place="${pre}${src}"]` : `.sp-side.${pre ? "opponent" : "me"} .sp-hand`;
    const to = `[data-place="${target.startsWith("C") ? target : pre + target}"]`;
    const plan = planPlaceFlight(main(), from, to, text);
    if (plan) this.flights.push(plan);
    sound("play");
  }

  /** What the engine did, as it happens: the flashes, banners and sounds, and its log line
   * (``card``: the card a move laid down, when the view shows it). */
  onEvent(ev, card = null) {
    const who = ev.seat === null || ev.seat === undefined ? "" : this.name(ev.seat);
    switch (ev.kind) {
      case "move":
        this.flashMove(ev.seat, ev.text);
        break;
      case "flip":
        for (const part of ev.text.split(",")) {
          const c = part.trim().split(" ")[0];
          if (c) this.flash(c, "flip");
        }
        this.banner = { text: t("sp_flip"), cls: "b-flip", at: Date.now() };
        sound("flip");
        break;
      case "round-won":
        this.selected = null;
        this.banner = { text: t("sp_round_won", { name: who, n: this.view.round }), cls: "b-round", at: Date.now() };
        break;
      case "deal":
        this.banner = { text: t("sp_new_round", { n: this.view.round }), cls: "b-deal", at: Date.now() };
        break;
      case "shuffle":
        this.banner = { text: t("sp_shuffle"), cls: "b-flip", at: Date.now() };
        break;
      default:
        break;
    }
    const entry = this.logEntry(ev, this.view.round, card);
    if (entry) this.pushLog(entry);
  }

  /** An engine event's log line (null for none), ``round`` the round it happened in, ``card`` the
   * card a move laid down (null: not known). Moves keep their seat, move and card, and are worded
   * when drawn (in the language of the moment). */
  logEntry(ev, round, card = null) {
    const who = ev.seat === null || ev.seat === undefined ? "" : this.plainName(ev.seat);
    switch (ev.kind) {
      case "move":
        return { who, seat: ev.seat, text: ev.text, auto: Boolean(ev.auto), t: ev.t, card };
      case "flip":
        return { text: `${t("sp_flip_log")}: ${flipText(ev.text)}`, cls: "ev-flip", t: ev.t };
      case "round-won":
        return { text: `${t("sp_round_won", { name: who, n: round })} (${t(`sp_why_${ev.text}`)})`, cls: "ev-round", t: ev.t };
      case "deal":
        return { text: t("sp_new_round", { n: round }), cls: "ev-round", t: ev.t };
      case "shuffle":
        return { text: t("sp_shuffle"), cls: "event", t: ev.t };
      case "game-over":
        return { text: t("game_over"), cls: "ev-round", t: ev.t };
      default:
        return null;
    }
  }

  // ------------------------------------------------------------------ what may be played
  myPlayer() {
    return this.view.players[this.me];
  }

  /** The move source of a picked index: "T2" (a tableau pile with a card) or "H7" (a hand card), else null. */
  sourceOf(index) {
    if (!this.view || index === null) return null;
    const p = this.myPlayer();
    if (this.game === "speed") {
      const card = p.hand?.[index];
      return card ? `H${rankOf(card)}` : null;
    }
    return p.tableau?.[index]?.cards ? `T${index + 1}` : null;
  }

  canMove() {
    return this.seat !== null && this.table.status === "playing" && !this.over;
  }

  isRoundWinner() {
    return this.clock.phase === "slap" && this.clock.roundWinner === this.seat && this.seat !== null;
  }

  /** Send a move now; the server answers `ack` or `error` (shown on the card). */
  play(move) {
    if (!this.canMove()) return;
    if (!this.link?.move(move, this.version)) {
      this.refused(move, t("reconnecting"));
    } else {
      this.message = "";
      if (this.verdict) this.verdict = null;
    }
    this.selected = null;
    this.render();
  }

  /** A digit or a click on one of my tableau piles (Spit) or hand cards (Speed). */
  pick(index) {
    if (!this.canMove() || !this.view) return;
    const p = this.myPlayer();
    if (this.game === "speed") {
      if (!p.hand?.[index]) return;
      this.selected = this.selected === index ? null : index;
    } else {
      const pile = p.tableau?.[index];
      if (!pile) return;
      if (this.selected === index) this.selected = null;
      else if (this.selected !== null && pile.cards === 0) {
        this.play(`T${this.selected + 1}-T${index + 1}`);
        return;
      } else if (pile.cards) this.selected = index;
    }
    this.message = "";
    this.render();
  }

  /** Q/W/E, an arrow or a click on center pile ``j``: slap it, or play the picked card there. */
  center(j) {
    if (!this.canMove() || !this.view || j >= this.view.centers.length) return;
    if (this.clock.phase === "slap") {
      if (this.isRoundWinner()) this.play(`slap C${j + 1}`);
      else this.refusedLocally(null, t("sp_not_yours"), `C${j + 1}`);
      return;
    }
    const src = this.sourceOf(this.selected);
    if (src) this.play(`${src}-C${j + 1}`);
    else this.refusedLocally(null, t(this.game === "speed" ? "tb_sp_pick_first_speed" : "tb_sp_pick_first"), `C${j + 1}`);
  }

  callSpit() {
    if (!this.canMove() || !this.view) return;
    if (this.legal.includes("spit") || (this.view.stuck && !this.myPlayer().called_spit)) this.play("spit");
    else this.refusedLocally("spit", t(this.myPlayer().called_spit ? "sp_called" : "sp_no_spit", { name: this.plainName(this.opp) }));
  }

  slap() {
    if (!this.canMove() || !this.view) return;
    const sizes = this.view.centers.map((c) => c.cards);
    const smaller = `C${sizes.indexOf(Math.min(...sizes)) + 1}`;
    if (!this.isRoundWinner()) {
      this.refusedLocally(null, t("sp_not_yours"), smaller);
      return;
    }
    this.play(`slap ${smaller}`);
  }

  refusedLocally(move, text, place = null) {
    this.refused(move, text, "local", place);
    this.render();
  }

  onKey(ev) {
    if (ev.target.closest?.("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!this.view) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const n = this.view.centers.length;
    const arrows = { ArrowLeft: 0, ArrowRight: n - 1, ArrowUp: n === 3 ? 1 : -1, ArrowDown: n === 3 ? 1 : -1 };
    if (/^[1-5]$/.test(key)) this.pick(Number(key) - 1);
    else if (CENTER_KEYS.slice(0, n).includes(key)) this.center(CENTER_KEYS.indexOf(key));
    else if (key in arrows && arrows[key] >= 0) this.center(arrows[key]);
    else if (key === " " || key === "Spacebar") {
      if (document.activeElement?.tagName === "BUTTON") document.activeElement.blur(); // no click on keyup
      this.callSpit();
    } else if (key === "s" && this.game === "spit") this.slap();
    else if (key === "Escape" && this.fairOpen) {
      this.fairOpen = false;
      this.render();
    } else if (key === "Escape" && this.over) {
      this.overClosed = !this.overClosed; // the game-over view closes to show the final table, and opens again
      this.render();
    } else if (key === "Escape") {
      this.selected = null;
      this.message = "";
      this.render();
    } else return;
    ev.preventDefault();
  }

  onClick(ev) {
    const el = ev.target.closest("[data-place]");
    const button = ev.target.closest("button");
    if (button) button.blur(); // Space must call spit, not press the focused button again
    if (button?.id === "sp-spit") return this.callSpit();
    if (button?.id === "sp-slap") return this.slap();
    if (!el) return;
    const place = el.dataset.place;
    let m;
    if ((m = place.match(/^T(\d)$/))) this.pick(Number(m[1]) - 1);
    else if ((m = place.match(/^H(\d)$/))) this.pick(Number(m[1]));
    else if ((m = place.match(/^C(\d)$/))) this.center(Number(m[1]) - 1);
    else if (place === "S") this.callSpit();
  }

  // ------------------------------------------------------------------ time
  tick() {
    if (!this.view || !document.getElementById("sp-clock")) return;
    const now = this.now();
    // ten ticks a second, and the words change about once a second: a text written again unchanged
    // would still be laid out and painted anew at every tick
    setText(document.getElementById("sp-clock"), this.clockHTML(now));
    setText(document.getElementById("sp-prompt"), this.promptText(now));
    const cd = document.getElementById("sp-countdown");
    const start = this.startWait();
    const waiting = start > 0 || (this.clock.phase === "play" && now < this.clock.playFrom && !this.over);
    if (cd) {
      if (cd.hidden !== !waiting) cd.hidden = !waiting;
      if (waiting) setText(cd, start > 0 ? String(Math.ceil(start / 1000)) : seconds(this.clock.playFrom - now));
    }
    // the start countdown is over: "Spit!", and ask for the seat's legal moves at the game's start
    if (start === 0 && !this.started && !this.over) {
      this.started = true;
      this.banner = { text: t("sp_go_banner"), cls: "b-flip", at: Date.now() };
      this.view.centers.forEach((_c, j) => this.flash(`C${j + 1}`, "flip"));
      // the server turns the center cards up at "go" by itself; the sync covers a clock that ran fast here
      this.link?.sync();
      this.render();
    }
    // the slowpoke wait is over: ask for the seat's legal moves now (no engine event brings them)
    if (!waiting && this.clock.playFrom > 0 && this.synced !== this.clock.playFrom && now > this.clock.playFrom + 60
        && this.table.status === "playing" && !this.over) {
      this.synced = this.clock.playFrom;
      this.link?.sync();
    }
    if (Date.now() >= this.nextExpiry) this.render();
  }

  clockHTML(now) {
    const limit = (this.table.options?.time_limit_s || 0) * 1000;
    let text = clockText(now);
    if (limit) text += ` · ${t("sp_time_left", { s: clockText(limit - now) })}`;
    return text;
  }

  promptText(now) {
    if (this.over) return this.resultText();
    if (this.table.status === "open") return t("waiting_players");
    const c = this.clock;
    const auto = c.nextEvent != null && c.nextEvent > now ? seconds(c.nextEvent - now) : null;
    const watching = this.seat === null ? `${t("spectating")} ` : "";
    if (c.phase === "slap") {
      const text = this.isRoundWinner() ? t("tb_sp_slap_now") : t("sp_slap_wait", { name: this.plainName(c.roundWinner) });
      return watching + text + (auto ? ` · ${t("sp_auto_slap", { s: auto })}` : "");
    }
    const start = this.startWait();
    if (start > 0) return watching + t("sp_ready", { s: String(Math.ceil(start / 1000)) });
    if (now < c.playFrom) return watching + t("sp_wait", { s: seconds(c.playFrom - now) });
    if (this.view.stuck) {
      let text;
      if (this.legal.includes("spit")) text = t("tb_sp_stuck");
      else if (this.view.players[this.me].called_spit) text = t("sp_called", { name: this.plainName(this.opp) });
      else text = t("sp_stuck_wait");
      return watching + text + (auto ? ` · ${t("sp_auto_spit", { s: auto })}` : "");
    }
    if (this.seat === null) return t("spectating");
    if (this.selected !== null) {
      const card = this.game === "speed" ? this.myPlayer().hand[this.selected] : this.myPlayer().tableau[this.selected].top;
      return t(this.game === "speed" ? "tb_sp_picked_speed" : "tb_sp_picked", { card: cardWord(card) });
    }
    return t("sp_go");
  }

  resultText() {
    const r = this.over?.result || this.view?.result || {};
    const head = r.winner !== undefined && r.winner !== null ? t("wins", { name: this.name(r.winner) }) : t("draw_result");
    return `${t("game_over")}: ${head}${r.reason ? ` (${t(`reason_${r.reason}`)})` : ""}`;
  }

  // ------------------------------------------------------------------ drawing
  /** The class of a place that flashes. Flashes are stamped with the wall clock (``Date.now()``),
   * so their age is measured with it too (the game clock is another scale: comparing the two kept
   * every flash alive and redrew the table on every tick). A redraw keeps the element (``morph``),
   * so the animation runs on undisturbed and needs no delay to resume. */
  fx(place, wall) {
    const f = this.flashes.get(place);
    if (!f) return { cls: "", style: "" };
    if (wall - f.at >= FLASH_MS) {
      this.flashes.delete(place);
      return { cls: "", style: "" };
    }
    this.nextExpiry = Math.min(this.nextExpiry, f.at + FLASH_MS);
    return { cls: ` ${f.cls}`, style: "" };
  }

  /** The place a refused move is shown on: the card tried (or the spit pile, or the center slapped). */
  verdictPlace() {
    if (this.verdict?.place) return this.verdict.place;
    const move = this.verdict?.move;
    if (!move) return null;
    if (move === "spit") return "S";
    let m;
    if ((m = move.match(/^slap (C\d)$/))) return m[1];
    if ((m = move.match(/^(T\d)-/))) return m[1];
    if ((m = move.match(/^H(\w+)-/))) {
      const i = (this.myPlayer().hand || []).findIndex((c) => rankOf(c) === m[1]);
      return i >= 0 ? `H${i}` : null;
    }
    return null;
  }

  verdictHTML(place, vplace) {
    if (place !== vplace) return "";
    return `<div class="sp-verdict" role="alert" data-code="${esc(this.verdict.code)}">${esc(this.verdict.text)}</div>`;
  }

  /** One pile: a face-up top (or a back, or an empty slot), a count badge, a key label. */
  pileHTML({ place, top = null, back = false, count = null, down = 0, label = "", key = "", attrs = "", cls = "", now, vplace }) {
    let card;
    if (top) card = `<div class="card" data-card="${esc(top)}">${cardSVG(top)}</div>`;
    else if (back) card = `<div class="card">${backSVG()}</div>`;
    else card = `<div class="card slot">${slotSVG(label)}</div>`;
    const fx = this.fx(place, Date.now());
    const badge = count !== null ? `<span class="count" title="${esc(t("cards", { n: count }))}">${count}</span>` : "";
    const downBadge = down > 0 ? `<span class="down" title="${esc(t("sp_face_down", { n: down }))}">${down}</span>` : "";
    const refused = place === vplace ? " refused" : "";
    const k = key ? `<kbd class="key-hint">${esc(key)}</kbd>` : "";
    const spoken = ` role="group" aria-label="${esc(this.placeName(place, top ? cardName(top) : t(back ? "card_back" : "empty"), count))}"`;
    return `<div class="sp-pile${down > 0 ? " stacked" : ""}${cls ? ` ${cls}` : ""}${fx.cls}${refused}" data-place="${place}"${attrs}${spoken}${fx.style}>` +
      `${card}${badge}${downBadge}${this.verdictHTML(place, vplace)}${k}</div>`;
  }

  /** A pile's spoken name, for screen readers: "Tableau pile 2: 7♥", "Spit pile: 12 cards"
   * (``place`` as in ``data-place``, an opponent's with an "o" before it; ``card`` the top in words). */
  placeName(place, card, count) {
    const [, kind, number] = place.match(/^o?([A-Z])(\d*)$/) || [];
    const i = Number(number);
    if (kind === "T") return t("tb_sp_place_tableau", { i, card });
    if (kind === "C") return t("tb_sp_place_center", { i, card });
    if (kind === "H") return t("place_hand", { i: i + 1, card });
    if (kind === "S") return t("tb_sp_place_spit", { n: count ?? 0 });
    if (kind === "D") return t("tb_draw_pile", { n: count ?? 0 });
    return card;
  }

  /** Attributes of one of my move sources: playable (and where to), picked. */
  sourceAttrs(index) {
    const src = this.sourceOf(index);
    let attrs = "";
    if (src && this.canMove() && this.moves.has(src)) {
      attrs += ` data-playable="1" data-source="${src}" data-targets="${[...this.moves.get(src)].join(" ")}"`;
    } else if (src) attrs += ` data-source="${src}"`;
    if (this.selected === index) attrs += ' data-selected="1"';
    return attrs;
  }

  /** Is center/slot ``target`` a legal target of the picked card? */
  targetLegal(target) {
    if (this.isRoundWinner()) return target.startsWith("C") && this.legal.includes(`slap ${target}`);
    const src = this.sourceOf(this.selected);
    return !!(src && this.moves.get(src)?.has(target));
  }

  sideHTML(seat, now, vplace) {
    const mine = seat === this.me && this.seat !== null;
    const p = this.view.players[seat];
    const pre = seat === this.me ? "" : "o";
    let row = "";
    if (this.game === "speed") {
      if (p.hand) {
        row += `<div class="sp-hand">${p.hand.map((c, i) => this.pileHTML({
          place: `${pre}H${i}`, top: c, key: mine ? String(i + 1) : "", now, vplace,
          attrs: mine ? this.sourceAttrs(i) : "", cls: "hand-card",
        })).join("")}</div>`;
      } else {
        const n = Math.max(0, p.cards - p.draw);
        const fx = this.fx(`${pre}H`, Date.now());
        row += `<div class="sp-hand backs${fx.cls}" data-place="${pre}H" data-hand-size="${n}"${fx.style}>` +
          `${Array.from({ length: n }, () => `<div class="card">${backSVG()}</div>`).join("")}</div>`;
      }
      row += `<div class="sp-group"><div class="label">${t("sp_draw")}</div>${this.pileHTML({
        place: `${pre}D`, back: p.draw > 0, count: p.draw, label: t("empty"), now, vplace })}</div>`;
    } else {
      row += `<div class="sp-tableau">${p.tableau.map((pile, i) => {
        let attrs = mine ? this.sourceAttrs(i) : "";
        if (mine && this.targetLegal(`T${i + 1}`)) attrs += ' data-legal="1"';
        return this.pileHTML({ place: `${pre}T${i + 1}`, top: pile.top, down: Math.max(0, pile.cards - 1), label: `T${i + 1}`,
          key: mine ? String(i + 1) : "", attrs: `${attrs} data-cards="${pile.cards}"`, now, vplace });
      }).join("")}</div>`;
    }
    const spitCount = this.game === "speed" ? null : p.spit;
    if (this.game === "spit") {
      const canCall = mine && this.canMove() && this.legal.includes("spit");
      const called = p.called_spit ? `<span class="called">${t("sp_called_tag")}</span>` : "";
      row += `<div class="sp-group"><div class="label">${t("sp_spit_pile")}</div>${this.pileHTML({
        place: `${pre}S`, back: p.spit > 0, count: spitCount, label: "", key: mine ? t("sp_space") : "", now, vplace,
        attrs: canCall ? ' data-playable="1" data-legal-spit="1"' : "", cls: "spit-pile" })}${called}</div>`;
    } else if (p.called_spit) {
      row += `<span class="called">${t("sp_called_tag")}</span>`;
    }
    const info = this.table.seats?.[seat] || {};
    const rounds = this.game === "spit" ? t("sp_rounds", { n: this.roundsWon[seat] }) : "";
    const winner = this.clock.phase === "slap" && this.clock.roundWinner === seat ? " round-winner" : "";
    const tag = [seatTag(info, { live: this.live !== false }), rounds, t("cards", { n: p.cards })].filter(Boolean).join(" · ");
    const head = `<h3>${seatHeadHTML(this.name(seat), tag, info)}</h3>`;
    // your own name under your cards: a refusal shown over a card never hides it
    return `<section class="sp-side ${seat === this.me ? "me" : "opponent"}${winner}" data-seat="${seat}" aria-label="${esc(this.name(seat))}">
      ${seat === this.me ? "" : head}<div class="sp-row">${row}</div>${seat === this.me ? head : ""}</section>`;
  }

  centersHTML(now, vplace) {
    const n = this.view.centers.length;
    const keys = n === 3 ? ["Q ←", "W ↑", "E →"] : ["Q ←", "W →"];
    const centers = this.view.centers.map((c, j) => {
      const legal = this.targetLegal(`C${j + 1}`) ? ' data-legal="1"' : "";
      const name = t("tb_center_n", { i: j + 1 });
      // during the start countdown the server sends the center piles face down (sizes only)
      return this.pileHTML({ place: `C${j + 1}`, top: c.top, back: !c.top && c.cards > 0, count: c.cards, label: String(j + 1), key: keys[j],
        attrs: `${legal} data-target="C${j + 1}" title="${esc(name)}"`, cls: "center-pile", now, vplace });
    }).join("");
    let sides = "";
    if (this.game === "speed") {
      const held = this.view.players.reduce((a, p) => a + p.cards, 0) + this.view.centers.reduce((a, c) => a + c.cards, 0);
      sides = `<div class="muted sp-sides">${t("sp_sides", { n: Math.max(0, SPEED_DECK - held) })}</div>`;
    }
    let banner = "";
    if (this.banner && Date.now() - this.banner.at < BANNER_MS) {
      this.nextExpiry = Math.min(this.nextExpiry, this.banner.at + BANNER_MS);
      banner = `<div class="sp-banner ${this.banner.cls}" id="sp-banner" data-key="${this.banner.at}">${esc(this.banner.text)}</div>`;
    } else this.banner = null;
    const start = this.startWait();
    const waiting = start > 0 || (this.clock.phase === "play" && now < this.clock.playFrom && !this.over);
    const count = start > 0 ? String(Math.ceil(start / 1000)) : seconds(this.clock.playFrom - now);
    return `<section class="sp-centers"><div class="label">${t("sp_centers")}${this.view.stuck ? ` · <b>${t("sp_stuck_tag")}</b>` : ""}</div>
      <div class="sp-row">${centers}</div>${sides}${banner}
      <div class="sp-countdown" id="sp-countdown"${waiting ? "" : " hidden"}>${count}</div></section>`;
  }

  /** A move in words, from the log's entry: "Ben: 7♣ from tableau pile 5 onto center pile 2". */
  moveText(e) {
    return moveWords(e.text, { card: e.card });
  }

  logHTML() {
    const items = this.log.slice(-30).map((e) => {
      const time = e.t !== undefined ? `<span class="muted">${clockText(e.t)}</span> ` : "";
      if (e.who !== undefined) {
        const who = this.name(e.seat);
        return `<li data-seat="${e.seat}" data-move="${esc(e.text)}">${time}<span class="who">${esc(who)}</span>: <span class="what">${esc(this.moveText(e))}</span>` +
          `${e.auto ? ` <span class="muted">(${t("sp_auto")})</span>` : ""} <code class="notation">${esc(e.text)}</code></li>`;
      }
      return `<li class="${e.cls || "event"}">${time}${esc(e.text)}</li>`;
    }).join("");
    const notation = `<button type="button" id="notation" class="small setting" aria-pressed="${notationOn()}">${esc(t(notationOn() ? "tb_notation_on" : "tb_notation_off"))}</button>`;
    const keys = this.seat === null ? "" : `<p class="keys-help muted sp-keys">${esc(t(this.game === "speed" ? "sp_keys_speed" : "sp_keys", { e: this.view.centers.length === 3 ? "/E" : "" }))}</p>`;
    return `<aside class="side sp-log-side" id="side" aria-label="${esc(t("log"))}">
      <button type="button" class="small panel-close" id="panel-close">${esc(t("tb_panel_hide"))} ✕</button>
      <div class="settings">${soundHTML()} ${notation} ${reportButtonHTML()}</div><h3>${t("log")}</h3>
      <ol class="log sp-log" id="sp-log" role="log" aria-label="${esc(t("log"))}">${items}</ol>${keys}</aside>`;
  }

  overHTML() {
    if (!this.over || this.overClosed) return "";
    const r = this.over.result || {};
    const head = r.winner !== undefined && r.winner !== null ? t("wins", { name: this.name(r.winner) }) : t("draw_result");
    const reason = r.reason ? t(`reason_${r.reason}`) : "";
    const lefts = this.view.players.map((p, s) => `<li>${esc(t("sp_cards_left", { name: this.name(s), n: p.cards }))}` +
      `${this.game === "spit" ? ` · ${esc(t("sp_rounds", { n: this.roundsWon[s] }))}` : ""}</li>`).join("");
    const gameId = this.over.gameId ?? this.table.gameId;
    const replay = gameId != null ? `<a href="/replay/${esc(gameId)}" id="replay-link">${t("replay")}</a> · ` : "";
    const rec = this.over.recordUrl ? `<a href="${esc(this.over.recordUrl)}">${t("record")}</a> · ` : "";
    const name = (s) => this.name(s);
    return `<div class="overlay" id="game-over" data-winner="${r.winner ?? ""}">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="over-title">
      <button type="button" class="small close" id="close-over" title="Esc">${t("over_close")} ✕</button><h2 id="over-title">${t("game_over")}</h2><p class="result">${esc(head)}</p><p>${esc(reason)}</p>
      <ul>${lefts}</ul>${seriesHTML(this.table, name)}${tournamentOf(this.table) ? "" : rematchHTML(this.rematchAsk, this.seat, name, this.table)}
      <p>${tournamentLinkHTML(this.table)}${replay}${rec}<a href="/">${t("back_lobby")}</a></p>
      <p class="error" role="alert"></p></div></div>`;
  }

  shareHTML() {
    // the link is the seated player's to give away; a spectator has nobody to share it with
    if (this.table.status !== "open" || this.seat === null) return "";
    const url = `${location.origin}/t/${this.table.id}`;
    return `<section class="panel share"><p>${t("share")}</p>
      <input id="share-link" readonly value="${esc(url)}"> <button type="button" id="copy">${t("copy")}</button>
      <p>${t("not_started")}</p></section>`;
  }

  /** " · three center piles": the preset, when it has another name than the game ("Spit · Spit"). */
  presetPart() {
    const game = gameName(this.game);
    const preset = presetName(this.table.preset);
    return preset && preset.toLowerCase() !== game.toLowerCase() ? ` · <span>${esc(preset)}</span>` : "";
  }

  /** The line over the table: the game (its preset when it has another name), the round, the
   * clock, the series, the fair deal's mark and the side panel's button. */
  headHTML(now, open) {
    const game = gameName(this.game);
    return `<div class="sp-head"><span class="sp-title"><b>${esc(game)}</b>${this.presetPart()}
      ${this.game === "spit" ? ` · <span id="sp-round">${t("sp_round", { n: this.view.round })}</span>` : ""}
      · <span id="sp-clock">${this.clockHTML(now)}</span></span>
      ${this.over ? "" : seriesHTML(this.table, (s) => this.name(s))}
      ${fairHTML(this.link?.fair, this.link?.verdict, (s) => this.name(s), this.fairOpen)}${ratedMarkHTML(this.table)}<span class="spacer"></span>
      <button type="button" class="small" id="panel-toggle" aria-controls="side" aria-expanded="${open}">${esc(t(open ? "tb_panel_hide" : "tb_panel_show"))}</button></div>`;
  }

  /** The tab's title: at the end whether this seat won or lost. */
  tabTitle() {
    const r = this.over?.result;
    if (!r) return t("title");
    if (this.seat !== null && r.winner !== undefined && r.winner !== null) return t(r.winner === this.seat ? "tb_tab_won" : "tb_tab_lost");
    if (r.winner !== undefined && r.winner !== null) return t("tb_tab_over", { name: this.plainName(r.winner) });
    return t("tb_tab_draw");
  }

  render() {
    if (!this.view) return;
    const now = this.now();
    const wall = Date.now();
    this.nextExpiry = Infinity;
    if (this.verdict && wall - this.verdict.at >= VERDICT_MS) this.verdict = null;
    if (this.verdict) this.nextExpiry = this.verdict.at + VERDICT_MS;
    const vplace = this.verdict ? this.verdictPlace() : null;
    const canSpit = this.canMove() && this.legal.includes("spit");
    const canSlap = this.canMove() && this.isRoundWinner();
    const buttons = this.seat === null ? "" : `
      ${this.game === "spit" || canSpit || this.view.stuck ? `<button type="button" id="sp-spit" class="${canSpit ? "primary" : ""}" data-legal="${canSpit ? 1 : 0}">${t("sp_flip")}<kbd class="key-hint">${esc(t("sp_space"))}</kbd></button>` : ""}
      ${this.game === "spit" ? `<button type="button" id="sp-slap" class="${canSlap ? "primary" : ""}" data-legal="${canSlap ? 1 : 0}">${t("tb_sp_slap")}<kbd class="key-hint">S</kbd></button>` : ""}
      ${this.over && this.overClosed ? `<button type="button" class="primary" id="show-over">${t("over_show")}</button>` : ""}`;
    const open = panelOpen();
    const root = main();
    morph(root, `${this.shareHTML()}
      <div class="spit-table" data-game="${this.game}" data-version="${this.version}" data-seat="${this.seat ?? ""}"
           data-status="${esc(this.table.status)}" data-phase="${esc(this.clock.phase)}" data-round="${this.view.round}"
           data-round-winner="${this.clock.roundWinner ?? ""}" data-stuck="${this.view.stuck ? 1 : 0}"
           data-over="${this.over ? 1 : 0}" data-picked="${this.selected ?? ""}" data-centers="${this.view.centers.length}"
           data-panel="${open ? "open" : "closed"}">
        <div class="sp-board">
          ${this.headHTML(now, open)}
          ${this.sideHTML(this.opp, now, null)}
          ${this.centersHTML(now, vplace)}
          <div class="sp-me-area">
            ${this.sideHTML(this.me, now, vplace)}
            <p class="sp-prompt" id="sp-prompt" aria-live="polite">${esc(this.promptText(now))}</p>
            <div class="actions sp-actions">${buttons}<span class="message" id="sp-message" role="alert">${esc(this.message || (this.verdict && !vplace ? this.verdict.text : ""))}</span></div>
          </div>
        </div>
        ${this.logHTML()}
      </div>${this.overHTML()}`);
    setStatus(this.over ? t("game_over") : `${gameName(this.game)} · ${this.name(this.me)} – ${this.name(this.opp)}`);
    document.title = this.tabTitle();
    markNotation();
    this.keepVerdictOnScreen(root);
    runPlaceFlights(this.flights.splice(0), root);
    const log = document.getElementById("sp-log");
    // the count shown is kept on the element as a property, not an attribute: the next redraw's
    // morph would take away an attribute its markup lacks, and the log would be scrolled every time
    if (log && log.shownCount !== this.logCount) {
      log.shownCount = this.logCount;
      scrollToEnd(log);
    }
    this.bind(root);
  }

  /** The verdict bubble is centred over its card; over a card at the screen's edge (a phone's
   * first tableau pile) it moves sideways until all of it shows (``--shift``, the arrow stays put). */
  keepVerdictOnScreen(root) {
    const bubble = root.querySelector(".sp-verdict");
    if (!bubble) return;
    bubble.style.removeProperty("--shift");
    const r = bubble.getBoundingClientRect();
    const edge = 4;
    const width = document.documentElement.clientWidth;
    let shift = 0;
    if (r.left < edge) shift = edge - r.left;
    else if (r.right > width - edge) shift = Math.max(edge - r.left, width - edge - r.right);
    if (shift) bubble.style.setProperty("--shift", `${Math.round(shift)}px`);
  }

  /** The table's listeners, on the page's main element once per table client (the redraws keep
   * the elements: ``morph``); every button is found by its id when clicked. */
  bind(root) {
    bindFair(root, () => {
      this.fairOpen = !this.fairOpen;
      this.render();
    });
    if (root.spitBound === this) return;
    root.spitBound = this;
    root.addEventListener("click", (ev) => {
      if (root.spitBound !== this) return;
      const button = ev.target.closest?.("button");
      // on a narrow screen the open panel lies over the table: a touch beside it folds it away
      if (panelOpen() && !wideScreen() && !ev.target.closest?.(".side, #panel-toggle") && ev.target.closest?.(".spit-table")) {
        setPanelOpen(false);
        this.render();
        return;
      }
      if (panelSetting(button?.id)) return this.render();
      switch (button?.id) {
        case "copy": return this.copyLink(button);
        case "rematch": return this.answerRematch(true);
        case "rematch-no": return this.answerRematch(false);
        case "new-table": return this.newTable(button);
        case "report": return openReport(this.table.id, this.table.seats, this.seat);
        case "close-over":
          this.overClosed = true;
          return this.render();
        case "show-over":
          this.overClosed = false;
          return this.render();
        default:
          break;
      }
      if (ev.target.closest?.(".sp-board")) this.onClick(ev);
    });
    bindDrag(root, {
      owner: this,
      sources: ".me .sp-pile[data-source]",
      targets: ".sp-centers [data-target], .me .sp-tableau .sp-pile",
      cardOf: (el) => el.querySelector(".card") ?? el,
      start: (el) => {
        if (!this.canMove() || this.clock.phase !== "play") return false;
        const index = this.indexOf(el.dataset.place);
        if (index === null || !this.sourceOf(index)) return false;
        this.selected = index;
        this.message = "";
        this.render();
        return true;
      },
      drop: (el, target) => {
        const index = this.indexOf(el.dataset.place);
        const src = this.sourceOf(index);
        const to = target.dataset.target ?? target.dataset.place;
        if (src && to && to !== el.dataset.place) this.play(`${src}-${to}`);
      },
      cancel: () => {
        this.selected = null;
        this.render();
      },
    });
  }

  /** The picked index of one of my places ("T3" → 2; Speed "H1" → 1), or null. */
  indexOf(place) {
    let m;
    if ((m = String(place).match(/^T(\d)$/))) return Number(m[1]) - 1;
    if ((m = String(place).match(/^H(\d)$/))) return Number(m[1]);
    return null;
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

  /** Answer the rematch question: yes (a new game here once everyone said yes) or no. */
  answerRematch(accept) {
    if (this.seat !== null) this.link?.rematch(accept);
  }
}
