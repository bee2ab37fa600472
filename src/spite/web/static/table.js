// The Spite and Malice table: the seat's view drawn as cards, click-to-play and drag-and-drop with
// the legal targets highlighted, the log in the notation. The protocol (hello, reconnects, versions,
// pending moves, the fair deal's checks) is the seat link's (seat-link.js): this screen draws what
// it reports and sends the person's intents through it.
// Hint (button, H or ?) shows the server's suggestion on the table (source and target marked) with
// its reason; Undo (button, U) takes back a build play of this turn while the server says canUndo;
// at a match table the score to the target heads the table, and the end-of-game summary offers the
// next game. After the table's last game every seated person is asked for a rematch at this same
// link (``rematch``); the series score of the games played here heads the table.

import { Pacer, bindPace, describeMove, keepLanding, paceHTML, planFlights, runFlights } from "./anim.js";
import { main, setRerender, setStatus } from "./app.js";
import { backSVG, cardName, cardSVG, handToken, rankValue, slotSVG, valueName } from "./cards.js";
import { botName, presetName, t, word, words } from "./i18n.js";
import { bindFair, fairHTML } from "./fair.js";
import { rematchHTML, rematchText, seriesHTML } from "./rematch.js";
import { esc, parseLegal } from "./html.js";
import { SeatLink } from "./seat-link.js";
import { linkClosed, openSeat, takeNotice } from "./seatpage.js";
import { bindSound, sound, soundHTML } from "./sound.js";

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
    current.onKey(ev);
  });
  // a keyboard player's focus survives redraws; a mouse player's is left alone
  document.addEventListener("pointerdown", () => {
    if (current) current.viaKeys = false;
  }, { capture: true });
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
    this.selected = null; // {source, el index}
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
    // moving cards, sounds, the turn in the tab title, the game-over view (anim.js, sound.js)
    this.pacer = new Pacer((msg, skipping) => this.onMessage(msg, skipping), () => this.seat);
    this.flights = null;
    this.wasMyTurn = false;
    this.overClosed = false;
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
    if (current === this) current = null;
  }

  /** Keyboard play, as in the terminal app: S stock, 1–9 hand card, D+n discard pile, B+n build pile,
   * P pass, Esc cancel. A source first, then a target. */
  onKey(ev) {
    if (ev.target.closest?.("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
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
      const el = document.querySelector('.me [data-source="S"][data-playable="1"]');
      if (el) this.select(el);
    } else if (key === "d" || key === "b") {
      this.prefix = key;
      return;
    } else if (/^[1-9]$/.test(key)) {
      if (prefix) {
        const name = `${prefix.toUpperCase()}${key}`;
        if (this.selected && this.moves.get(this.selected.source)?.has(name)) {
          this.play(`${this.selected.source}-${name}`);
          return;
        }
        const el = !this.selected && prefix === "d" && document.querySelector(`.me [data-source="${name}"][data-playable="1"]`);
        if (el) this.select(el);
      } else {
        const el = document.querySelector(`.me .hand-card[data-index="${Number(key) - 1}"][data-playable="1"]`);
        if (el) this.select(el);
      }
    } else {
      return;
    }
    ev.preventDefault();
    this.render();
  }

  name(seat) {
    const s = this.table.seats[seat];
    let name = s?.player || (s?.kind === "bot" ? botName(s.level) : t("seat_n", { n: seat }));
    if (seat === this.seat) name += ` (${t("you")})`;
    return name;
  }

  setPosition(msg) {
    if (msg.stateVersion !== this.version) this.hint = null;
    this.version = msg.stateVersion;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.moves = parseLegal(this.legal);
    this.canUndo = Boolean(msg.canUndo);
    if (msg.match) this.match = msg.match;
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
          this.pushLog({ seat: msg.last.seat, move: msg.last.move, undone: Boolean(msg.last.undone) });
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
      case "table":
        this.table = msg.table;
        if (msg.match) this.match = msg.match;
        if (msg.event.kind === "rematch") {
          // the same table, a new deal: the summary goes, the next state brings the position
          this.over = null;
          this.rematchAsk = null;
          this.match = null;
          this.flash = null;
          this.readySent = false;
        }
        const own = rematchText(msg.event, (s) => this.name(s), this.table);
        this.pushLog(own ? { text: own } : { text: msg.event.text, words: msg.event.words });
        break;
      case "gameOver":
        this.over = { result: msg.result, gameId: msg.gameId, recordUrl: msg.recordUrl };
        if (msg.match) this.match = msg.match;
        this.table = { ...this.table, status: this.matchGoesOn() ? this.table.status : "finished", gameId: msg.gameId,
          series: msg.series ?? this.table.series };
        this.rematchAsk = msg.rematch ?? null;
        this.hint = null;
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
        this.message = msg.code === "illegal" || msg.code === "too-late"
          ? t("illegal", { reason: word(msg.words, msg.message) }) : word(msg.words, msg.message);
        break;
      default:
        return;
    }
    this.render();
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
    const w = msg.result?.winner;
    if (!skipping && this.seat !== null && w !== undefined && w !== null) sound(w === this.seat ? "win" : "loss");
    if (msg.recordUrl && this.link) {
      // the record the link fetches anyway to check the deal's seed
      const over = this.over;
      this.link.record(msg.recordUrl).then((rec) => {
        if (!rec) return;
        over.moves = (rec.moves || []).filter((m) => typeof m === "string").length;
        if (this.over === over) this.render();
      });
    }
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

  /** The log of a page opened mid-game (a reload, a new tab, another device) or back after it
   * missed moves: the game so far as the server tells every seat (the welcome's ``moveLog``: each
   * move's seat and move, never a hidden card), numbered as the game's moves (the older ones the
   * server leaves out are one line). The table's events before now are not kept. */
  rebuildLog(msg) {
    this.log = [];
    this.logCount = msg.moveLogStart || 0;
    for (const step of msg.moveLog || []) this.pushLog({ seat: step.seat, move: step.move });
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
    this.pending = Boolean(this.link?.move(move, this.version));
    if (!this.pending) this.message = t("reconnecting");
    this.render();
  }

  /** Ask the server what a bot would play here (answered by a ``hint`` message). */
  askHint() {
    if (!this.myTurn() || this.hint?.asking) return;
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

  // ------------------------------------------------------------------ drawing
  /** A pile: its top card, or (``fan``) all ``cards`` overlapping, bottom first; with ``under`` the
   * cards below the top are marked as not to be picked (``.under``). */
  pileHTML(cards, { attrs = "", label = "", count = null, fan = false, back = false, cls = "", under = false } = {}) {
    let inner;
    if (back) inner = `<div class="card">${backSVG()}</div>`;
    else if (!cards.length) inner = `<div class="card slot">${slotSVG(label)}</div>`;
    else if (fan) {
      inner = cards.map((c, i) => `<div class="card${under && i < cards.length - 1 ? " under" : ""}" data-card="${esc(c)}">${cardSVG(c)}</div>`).join("");
    }
    else inner = `<div class="card" data-card="${esc(cards[cards.length - 1])}">${cardSVG(cards[cards.length - 1])}</div>`;
    const badge = count !== null ? `<span class="count">${count}</span>` : "";
    return `<div class="pile ${fan ? "fan" : ""} ${cls}" ${attrs}>${inner}${badge}</div>`;
  }

  sourceAttrs(source) {
    if (this.seat === null) return "";
    const playable = this.myTurn() && this.moves.has(source);
    const sel = this.selected && this.selected.source === source;
    const hinted = this.hintParts()[0] === source;
    return `data-source="${source}"${playable ? ` data-playable="1" draggable="true" data-targets="${[...this.moves.get(source)].join(" ")}"` : ""}${sel ? ' data-selected="1"' : ""}${hinted ? ' data-hint="source"' : ""}` +
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
    const me = this.view.players[this.seat];
    const top = (cards) => (cards.length ? cardName(cards[cards.length - 1]) : t("empty"));
    let label = place;
    const i = Number(place.slice(1));
    if (place === "S") label = t("place_stock", { card: top(me.stock_top || []), n: me.stock });
    else if (place.startsWith("D")) label = t("place_discard", { i, card: top(me.discards[i - 1] || []) });
    else if (place.startsWith("B")) label = t("place_build", { i, card: top(this.view.builds[i - 1]?.top ? [this.view.builds[i - 1].top] : []) });
    return `tabindex="0" role="button" aria-label="${esc(label)}"${pressed !== null ? ` aria-pressed="${Boolean(pressed)}"` : ""}`;
  }

  playerHTML(s, mine) {
    const p = this.view.players[s];
    const stockCards = p.stock_top || [];
    const flashMove = this.flash && this.flash.seat === s ? this.flash.move : "";
    // every face-up stock card the server sends (three with the open-stock preset), fanned; only
    // the top one (the last, drawn in front) is played, the ones under it are there to be read
    const stock = this.pileHTML(stockCards, {
      attrs: `${mine ? this.sourceAttrs("S") : ""} data-pile="stock" data-seat="${s}" data-open="${stockCards.length}" title="${esc(t("stock"))}"`,
      count: p.stock, label: t("empty"), fan: stockCards.length > 1, under: true,
      cls: `stock${flashMove.startsWith("S-") ? " flash" : ""}`,
    });
    const discards = p.discards.map((pile, i) => {
      const name = `D${i + 1}`;
      let attrs = `data-pile="discard" data-seat="${s}" data-index="${i + 1}"`;
      if (mine) {
        const src = pile.length ? this.sourceAttrs(name) : "";
        let tgt = this.targetAttrs(name);
        if (tgt.includes('data-legal="1"') && !src.includes("tabindex")) tgt += ` ${this.focusable(name)}`;
        attrs += ` ${tgt}` + (src ? ` ${src}` : "");
      }
      const flash = flashMove.startsWith(`${name}-`) || flashMove.endsWith(`-${name}`);
      return this.pileHTML(pile, { attrs, fan: true, label: name, cls: `discard${flash ? " flash" : ""}` });
    }).join("");
    let hand;
    if (p.hand) {
      const hintSrc = mine ? this.hintParts()[0] : null;
      const hintAt = hintSrc ? p.hand.findIndex((c) => handToken(c) === hintSrc) : -1;
      hand = p.hand.map((c, i) => {
        const src = handToken(c);
        const playable = mine && this.myTurn() && this.moves.has(src);
        const sel = this.selected && this.selected.source === src && this.selected.index === i;
        const keys = playable ? ` tabindex="0" role="button" aria-pressed="${Boolean(sel)}" aria-label="${esc(t("place_hand", { i: i + 1, card: cardName(c) }))}"` : "";
        return `<div class="card hand-card" data-card="${esc(c)}" data-index="${i}"${mine ? ` data-source="${src}"` : ""}${keys}` +
          `${playable ? ` data-playable="1" draggable="true" data-targets="${[...this.moves.get(src)].join(" ")}"` : ""}` +
          `${sel ? ' data-selected="1"' : ""}${i === hintAt ? ' data-hint="source"' : ""}>${cardSVG(c)}</div>`;
      }).join("");
    } else {
      hand = Array.from({ length: p.hand_size }, () => `<div class="card small">${backSVG()}</div>`).join("");
    }
    const seatInfo = this.table.seats[s] || {};
    const toMove = this.view.to_move === s && !this.view.finished;
    return `<section class="player ${mine ? "me" : "opponent"}${toMove ? " to-move" : ""}" data-seat="${s}">
      <h3>${esc(this.name(s))} <span class="seat-status">${t(`seat_status_${seatInfo.status || "free"}`)}</span>
        ${p.team !== undefined ? `<span class="team">${esc(t("team_n", { n: p.team + 1 }))}</span>` : ""}</h3>
      <div class="row">
        <div class="group"><div class="label">${t("stock")}</div>${stock}</div>
        <div class="group"><div class="label">${t("discard")}</div><div class="discards">${discards}</div></div>
        <div class="group handgroup"><div class="label">${t("hand")}</div><div class="hand ${p.hand ? "" : "backs"}">${hand}</div></div>
      </div></section>`;
  }

  isSkipBo() {
    const all = [];
    for (const p of this.view.players) {
      all.push(...(p.stock_top || []), ...(p.hand || []));
      for (const d of p.discards) all.push(...d);
    }
    for (const b of this.view.builds) if (b.top) all.push(b.top);
    if (this.table.preset === "skip-bo" || this.table.options?.deck === "skip-bo") return true;
    return all.some((c) => /^\d+$/.test(c));
  }

  buildsHTML() {
    const skipbo = this.isSkipBo();
    const flashMove = this.flash ? this.flash.move : "";
    const builds = this.view.builds.map((b, i) => {
      const name = `B${i + 1}`;
      let label = b.value ? t("value", { v: valueName(b.value, skipbo) }) : t("empty");
      let wild = "";
      if (b.top && rankValue(b.top) !== b.value) {
        label = t("wild_as", { card: b.top, value: valueName(b.value, skipbo) });
        wild = " wild";
      }
      const cards = b.top ? [b.top] : [];
      const flash = flashMove.endsWith(`-${name}`) ? " flash" : "";
      return `<div class="group"><div class="label">${name}</div>
        ${this.pileHTML(cards, { attrs: `${this.targetAttrs(name)} data-pile="build" data-value="${b.value}"`, label: name, cls: `build${wild}${flash}` })}
        <div class="value${wild}" data-build-value="${b.value}">${esc(label)}</div></div>`;
    }).join("");
    const draw = this.pileHTML([], { back: this.view.draw > 0, count: this.view.draw, attrs: 'data-pile="draw"', label: t("empty") });
    return `<section class="center">
      <div class="group"><div class="label">${t("draw")}</div>${draw}
        ${this.view.set_aside ? `<div class="muted">${t("set_aside")}: ${this.view.set_aside}</div>` : ""}</div>
      <div class="group builds"><div class="label">${t("build")}</div><div class="row">${builds}</div></div>
    </section>`;
  }

  /** The log, numbered by the page (a list's own markers are cut off at 10 and more, and would
   * start at 1 again once the oldest entries are dropped). */
  logHTML() {
    // the entries dropped or never told (a long game's oldest moves) are one line, with no number
    const hidden = this.logCount - this.log.length;
    const items = (hidden > 0 ? `<li class="event earlier">${esc(t("earlier", { n: hidden }))}</li>` : "") + this.log.map((e, i) => {
      const n = `<span class="n">${hidden + i + 1}.</span> `;
      return e.text !== undefined
        ? `<li class="event">${n}${esc(word(e.words, e.text))}</li>`
        : e.undone
        ? `<li data-seat="${e.seat}" class="undone">${n}<span class="who">${esc(this.name(e.seat))}</span> ${esc(t("undid"))} <code>${esc(e.move)}</code></li>`
        : `<li data-seat="${e.seat}">${n}<span class="who">${esc(this.name(e.seat))}</span> <code>${esc(e.move)}</code></li>`;
    }).join("");
    return `<aside class="side"><div class="settings">${paceHTML()} ${soundHTML()}</div>` +
      `<h3>${t("log")}</h3><ol class="log numbered" id="log">${items}</ol></aside>`;
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
    else if (r.team !== undefined && r.team !== null) head = t("wins", { name: t("team_n", { n: r.team + 1 }) });
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
    return `<div class="overlay" id="game-over" data-winner="${r.winner ?? ""}" data-match="${this.match ? (this.match.over ? "over" : "on") : ""}">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="over-title">
      <button type="button" class="small close" id="close-over" title="Esc">${t("over_close")} ✕</button>
      <h2 id="over-title">${t("game_over")}</h2><p class="result">${esc(head)}</p><p>${esc(reason)}${esc(pts)}</p>
      <ul aria-label="${esc(t("over_stock"))}">${lefts}</ul>${this.summaryHTML()}${matchPart}${seriesHTML(this.table, (s) => this.name(s))}
      ${goesOn ? "" : rematchHTML(this.rematchAsk, this.seat, (s) => this.name(s), this.table)}
      <p>${[rec, review].filter(Boolean).join(" · ")} · <a href="/">${t("back_lobby")}</a></p>
      <p class="error" role="alert"></p></div></div>`;
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

  /** The Hint and Undo buttons, and the hint shown (its move and one line of why). */
  helpHTML() {
    if (this.seat === null || this.over || this.table.status !== "playing") return "";
    const mine = this.myTurn();
    const asking = this.hint?.asking;
    const hintBtn = `<button type="button" id="hint" title="H / ?"${mine && !asking ? "" : " disabled"}>${t("hint")}</button>`;
    const undoBtn = `<button type="button" id="undo" title="U"${mine && this.canUndo ? "" : " disabled"}>${t("undo")}</button>`;
    let shown = "";
    if (asking) shown = `<span class="hint-text muted" id="hint-text">${esc(t("hint_wait"))}</span>`;
    else if (this.hint) {
      shown = `<span class="hint-text" id="hint-text" data-move="${esc(this.hint.move)}">` +
        `${esc(t("hint_text", { move: this.hint.move, why: words(this.hint.whyWords, this.hint.why) }))}</span>`;
    }
    return `${hintBtn} ${undoBtn} ${shown}`;
  }

  statusText() {
    if (this.over && this.matchGoesOn()) return `${t("game_over")} · ${t("match_game", { n: this.match.game })}`;
    if (this.over) return t("game_over");
    if (this.table.status === "open") return t("waiting_players");
    const turn = t("turn", { n: this.view.turn });
    if (this.seat === null) return `${turn} · ${t("spectating")} ${t("to_move", { name: this.name(this.view.to_move) })}`;
    if (this.view.to_move === this.seat) {
      if (this.selected) return `${turn} · ${t("pick_target", { card: this.selected.label })}`;
      return `${turn} · ${t("your_turn")}`;
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

  render() {
    if (!this.view) return;
    const focused = this.focusKey();
    const me = this.seat ?? 0;
    const n = this.view.players.length;
    const others = [];
    for (let k = 1; k < n; k++) others.push((me + k) % n);
    const hintPass = this.hintParts()[0] === "pass";
    const passBtn = this.myTurn() && this.legal.includes("pass")
      ? `<button type="button" id="pass" class="primary"${hintPass ? ' data-hint="source"' : ""}>${t("pass")}</button> <span>${t("pass_hint")}</span>` : "";
    const root = main();
    root.innerHTML = `${this.shareHTML()}
      ${this.match ? `<section class="panel match-bar">${this.matchScoreHTML()}</section>` : ""}
      ${fairHTML(this.link?.fair, this.link?.verdict, (s) => this.name(s))}
      ${this.table.series && !this.over ? `<section class="panel series-bar">${seriesHTML(this.table, (s) => this.name(s))}</section>` : ""}
      <div class="table" data-version="${this.version}" data-my-turn="${this.myTurn() ? 1 : 0}"
           data-seat="${this.seat ?? ""}" data-over="${this.over ? 1 : 0}" data-status="${esc(this.table.status)}"
           data-can-undo="${this.canUndo ? 1 : 0}">
        <div class="board">
          <div class="opponents">${others.map((s) => this.playerHTML(s, false)).join("")}</div>
          ${this.buildsHTML()}
          ${this.playerHTML(me, this.seat !== null)}
          <div class="actions">${passBtn}${this.helpHTML()}${this.over && this.overClosed ? `<button type="button" class="primary" id="show-over">${t("over_show")}</button>` : ""}<span class="message" role="alert">${esc(this.message)}</span></div>
        </div>
        ${this.logHTML()}
      </div>${this.overHTML()}`;
    setStatus(this.statusText());
    const log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
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

  /** After a redraw: the flights and the landing cards (anim.js), the tab title, the turn's sound,
   * and the keyboard focus where it was (or on the first playable card, or the game-over view). */
  afterRender(root, focused) {
    runFlights(this.flights, root);
    this.flights = null;
    keepLanding(root);
    const mine = this.seat !== null && !this.over && this.table.status === "playing" && this.view.to_move === this.seat;
    document.title = mine ? t("tab_your_turn") : t("title");
    if (mine && !this.wasMyTurn && this.version > 0) sound("turn");
    this.wasMyTurn = mine;
    if (focused) this.lastFocus = focused;
    const again = focused && root.querySelector(focused);
    if (again && (again.tabIndex >= 0 || again.tagName === "BUTTON")) again.focus();
    else if (this.over && !this.overClosed) root.querySelector("#close-over")?.focus({ preventScroll: true });
    else if (focused && this.myTurn()) root.querySelector('.me [data-playable="1"]')?.focus();
  }

  bind(root) {
    root.querySelector("#pass")?.addEventListener("click", () => this.play("pass"));
    bindFair(root);
    root.querySelector("#copy")?.addEventListener("click", async (ev) => {
      const input = document.getElementById("share-link");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        ev.target.textContent = t("copied");
      } catch {
        /* the text is selected: the player copies it by hand */
      }
    });
    root.querySelector("#rematch")?.addEventListener("click", () => this.answerRematch(true));
    root.querySelector("#rematch-no")?.addEventListener("click", () => this.answerRematch(false));
    root.querySelector("#hint")?.addEventListener("click", () => this.askHint());
    root.querySelector("#undo")?.addEventListener("click", () => this.undo());
    root.querySelector("#next-game")?.addEventListener("click", () => this.nextGame());
    root.querySelector("#close-over")?.addEventListener("click", () => this.closeOver(true));
    root.querySelector("#show-over")?.addEventListener("click", () => this.closeOver(false));
    bindPace(root);
    bindSound(root, () => this.render());
    const board = root.querySelector(".board");
    if (!board) return;
    board.addEventListener("click", (ev) => this.onClick(ev));
    board.addEventListener("dragstart", (ev) => {
      const src = ev.target.closest?.("[data-playable]");
      if (ev.target.closest?.(".card.under")) {
        ev.preventDefault();
        return;
      }
      if (!src) return;
      this.select(src);
      ev.dataTransfer.setData("text/plain", src.dataset.source);
      ev.dataTransfer.effectAllowed = "move";
      this.markTargets(root);
    });
    board.addEventListener("dragover", (ev) => {
      if (ev.target.closest?.('[data-legal="1"]')) ev.preventDefault();
    });
    board.addEventListener("drop", (ev) => {
      const target = ev.target.closest?.('[data-legal="1"]');
      if (!target || !this.selected) return;
      ev.preventDefault();
      this.play(`${this.selected.source}-${target.dataset.target}`);
    });
  }

  /** Mark the selected source's legal targets without redrawing (while dragging). */
  markTargets(root) {
    const targets = this.moves.get(this.selected?.source) || new Set();
    for (const el of root.querySelectorAll("[data-target]")) {
      if (targets.has(el.dataset.target)) el.dataset.legal = "1";
      else delete el.dataset.legal;
    }
  }

  select(el) {
    const idx = el.dataset.index !== undefined && el.classList.contains("hand-card") ? Number(el.dataset.index) : null;
    const cards = el.querySelectorAll(".card[data-card]");
    const card = el.dataset.card || cards[cards.length - 1]?.dataset.card || el.dataset.source;
    this.selected = { source: el.dataset.source, index: idx, label: `${el.dataset.source} (${card})` };
  }

  onClick(ev) {
    if (!this.myTurn()) return;
    // an open stock's cards under the top one are shown, not played
    if (ev.target.closest(".card.under")) return;
    const target = ev.target.closest('[data-legal="1"]');
    if (target && this.selected) {
      this.play(`${this.selected.source}-${target.dataset.target}`);
      return;
    }
    const src = ev.target.closest("[data-source]");
    if (src && src.dataset.playable) {
      const idx = src.classList.contains("hand-card") ? Number(src.dataset.index) : null;
      if (this.selected && this.selected.source === src.dataset.source && this.selected.index === idx) this.selected = null;
      else this.select(src);
    } else {
      this.selected = null;
    }
    this.render();
  }

  /** Answer the rematch question: yes (a new game here once everyone said yes) or no. */
  answerRematch(accept) {
    if (this.seat !== null) this.link?.rematch(accept);
  }
}
