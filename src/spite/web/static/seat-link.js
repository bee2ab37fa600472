// One seat's (or a spectator's) link to its table: the WebSocket protocol of docs/protocol.md spoken
// once for every game's screen (table.js, spit.js), which only draw and send the person's intents
// through it (move, undo, hint, next, rematch). The link says hello, reconnects, keeps the version
// order, tracks the seat's pending requests and checks the fair deal (docs/fairness.md, "What the
// page checks"): it pins each game's commitment before its own random part (the nonce) goes out, so
// a server that sees the nonce first cannot pick a deal that suits it unnoticed, and at the reveal it
// checks the secret, its own nonce and the record's seed.
//
// Events (``addEventListener``, each a CustomEvent whose ``detail`` is given here):
//   status    {state: "connecting" | "open" | "reconnecting" | "closed", reason?, retryIn?}: a closed link
//             stays closed; ``reason`` {code, message, words} says why (the server's refusal before
//             it closed: wrong-token, no-table, flood, …; or "abandoned", "gone")
//   welcome, state, table, gameOver, rematch, hint   the server's message (a ``state`` older than the
//             one shown is dropped; after a reconnect the welcome is the truth)
//   ack       the message, with ``request``: the move or undo it answers
//   refused   an ``error`` (``words`` to show), with ``request``: the seat's request it refuses, or null
//   dropped   {requests}: requests the connection dropped before an answer (the welcome that follows
//             is the position to draw)
//   fair      {game, fair, verdict}: the deal of the game in play changed, or its verdict did (also
//             read as ``link.fair`` and ``link.verdict``)

import { commitmentOf, dealFirst, newNonce, seedOf } from "./fair.js";
import { getSeat } from "./store.js";

/** Seconds before reconnect attempt 1, 2, … (then the last one again), each with ±25 % jitter, so a
 * server back from a restart is not hit by every page at the same moment. */
const BACKOFF_S = [0.5, 1, 2, 4, 8];
const HEX64 = /^[0-9a-f]{64}$/;
const HEX32 = /^[0-9a-f]{32}$/;
/** Refusals the server closes the socket after (1008): saying hello again would be refused again. */
const FINAL_CODES = new Set(["wrong-token", "no-table", "flood", "hello-timeout"]);
/** How many (table, game) nonces this browser keeps before it drops those of tables it holds no seat at. */
const KEEP_NONCES = 200;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage off: nothing is kept over a reload
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage off or full: the nonce still goes out, this page remembers it */
  }
}

const nonceKey = (table, game) => `spite.nonce.${table}.${game}`;
const pinKey = (table, game) => `spite.pin.${table}.${game}`;

/** The nonce this browser made for game ``game`` at table ``table`` (32 hex digits), or null. */
export function storedNonce(table, game) {
  const nonce = stored(nonceKey(table, game));
  return nonce && HEX32.test(nonce) ? nonce : null;
}

/** The commitment this browser's nonce for (``table``, ``game``) was first sent under, or null. */
function storedPin(table, game) {
  const commitment = stored(pinKey(table, game));
  return commitment && HEX64.test(commitment) ? commitment : null;
}

/** Drop the kept nonces of tables this browser no longer holds a seat at, once there are many. */
function pruneNonces() {
  let keys;
  try {
    keys = Object.keys(localStorage).filter((k) => k.startsWith("spite.nonce."));
  } catch {
    return;
  }
  if (keys.length < KEEP_NONCES) return;
  for (const key of keys) {
    const [, , table, game] = key.split(".");
    if (!getSeat(table)) {
      localStorage.removeItem(key);
      localStorage.removeItem(pinKey(table, game));
    }
  }
}

/** This browser's nonce for game ``game`` at ``table``: made once (Web Crypto's random numbers) and
 * kept with the commitment it first went out under, so a reload, a reconnect or a second tab of the
 * same seat sends the same one (the server counts the last nonce a seat sent: two different ones
 * would make one tab's check fail), and a commitment that changed after it went out is caught even
 * after a reload. */
function nonceFor(table, game, commitment) {
  let nonce = storedNonce(table, game);
  if (!nonce) {
    pruneNonces();
    nonce = newNonce();
    store(nonceKey(table, game), nonce);
    store(pinKey(table, game), commitment);
  }
  return nonce;
}

/** A TableInfo from the server; throws an Error with ``status`` (0: no answer) and the server's words. */
async function fetchTableInfo(id) {
  let res;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } });
  } catch (err) {
    throw Object.assign(new Error(String(err?.message || err)), { status: 0 });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw Object.assign(new Error(typeof data.detail === "string" ? data.detail : res.statusText),
      { status: res.status, words: data.words ?? null });
  }
  return data;
}

const alarm = (key, params = {}) => ({ status: "alarm", key, params });
const verified = (key) => ({ status: "verified", key });

/** The link of one seat (``token``) or of a spectator (``token`` null) to table ``info`` (TableInfo:
 * the one just fetched or handed over by quick play, create or join; its ``fair`` is pinned before
 * the socket opens). ``gapSync``: a ``state`` that skips a version asks for a ``sync`` (at every
 * table a stored change raises the version by one, so a gap is a missed state). */
export class SeatLink extends EventTarget {
  constructor(info, token, { gapSync = true } = {}) {
    super();
    this.tableId = info.id;
    this.info = info; // the newest TableInfo: its fair decides what the next hello carries
    this.token = token;
    this.gapSync = gapSync;
    this.seat = null; // the seat the server's welcome names (null: watching)
    this.version = -1; // the newest stateVersion passed on
    this.pending = new Map(); // request id → the move or undo sent, until its ack or error
    this.counter = 0;
    this.ws = null;
    this.stopped = false;
    this.attempts = 0; // reconnects since the last welcome
    this.retryTimer = null;
    this.finalReason = null; // the refusal the server closes the socket after
    this.abandoned = null; // the table was closed for good (event abandoned)
    this.hidden = false; // the page is being left, or sits in the back/forward cache
    this.opening = false; // fetching the table info before a reconnect
    // the fair deal: game → {commitment, origin ("shown", "next", "stored")} for every game seen
    this.pins = new Map();
    this.game = 0; // the newest game whose fair was seen
    this.fair = null; // its newest fair, with the pinned commitment
    this.verdicts = new Map(); // game → {status, key, params}
    this.sentHere = new Set(); // games this connection sent a nonce for
    this.counted = new Set(); // games whose deal took this browser's nonce, as the server said
    this.verifying = new Set();
    this.records = new Map(); // record url → Promise of the record (null: could not be loaded)
    this.onPageHide = () => {
      this.hidden = true;
    };
    this.onPageShow = () => {
      // back from the back/forward cache: its socket is gone, say hello again
      this.hidden = false;
      if (!this.stopped && !this.ws && !this.retryTimer && !this.opening) this.open(true);
    };
  }

  /** Pin the table info's deal and connect. */
  start() {
    window.addEventListener("pagehide", this.onPageHide);
    window.addEventListener("pageshow", this.onPageShow);
    this.takeFair(this.info?.fair);
    this.open(false);
  }

  /** End the link for good (the screen closes): no reconnect, no more events. */
  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    window.removeEventListener("pagehide", this.onPageHide);
    window.removeEventListener("pageshow", this.onPageShow);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
  }

  /** The verdict on the game in play (or a changed commitment of the next one): see ``fair`` events. */
  get verdict() {
    const next = this.verdicts.get(this.game + 1);
    if (next?.status === "alarm") return next;
    return this.verdicts.get(this.game) ?? null;
  }

  /** Whether a move or undo of this seat waits for its answer. */
  get waiting() {
    return [...this.pending.values()].some((r) => r.type === "move" || r.type === "undo");
  }

  emit(type, detail) {
    if (!this.stopped || type === "status") this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  // ------------------------------------------------------------------ the connection
  /** Connect: with ``refetch`` the table info is fetched first (every reconnect), so the hello's
   * nonce goes only for a commitment seen before the socket opened. */
  async open(refetch) {
    if (this.stopped) return;
    this.retryTimer = null;
    this.emit("status", { state: this.attempts ? "reconnecting" : "connecting" });
    if (refetch) {
      let info;
      this.opening = true;
      try {
        info = await fetchTableInfo(this.tableId);
      } catch (err) {
        this.opening = false;
        if (this.stopped) return;
        if (err.status === 404) this.finish({ code: "gone", message: err.message, words: err.words });
        else this.retry();
        return;
      }
      this.opening = false;
      if (this.stopped) return;
      this.info = info;
      this.takeFair(info.fair);
      if (info.status === "abandoned") {
        this.finish({ code: "abandoned", message: "", words: null });
        return;
      }
    }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.sentHere = new Set();
    this.finalReason = null;
    ws.addEventListener("open", () => {
      if (this.ws === ws) this.hello(ws);
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws === ws) this.onFrame(ev.data);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws === ws) this.onClose(ev);
    });
  }

  hello(ws) {
    const msg = this.token ? { type: "hello", token: this.token } : { type: "hello", spectate: true };
    // the nonce only for a deal not made yet whose commitment this page saw before this socket
    const fair = this.info?.fair;
    if (this.token && fair && !fair.dealt && this.pins.has(fair.game)) msg.nonce = this.nonceOf(fair.game);
    ws.send(JSON.stringify(msg));
  }

  /** This browser's nonce for ``game`` (its commitment is pinned), noted as sent on this connection. */
  nonceOf(game) {
    this.sentHere.add(game);
    return nonceFor(this.tableId, game, this.pins.get(game).commitment);
  }

  onClose(ev) {
    this.ws = null;
    if (this.pending.size) {
      // never answered now: the screen draws the welcome of the next connection instead
      const requests = [...this.pending.values()];
      this.pending.clear();
      this.emit("dropped", { requests });
    }
    if (this.stopped) return;
    if (this.finalReason || ev.code === 1008) {
      this.finish(this.finalReason ?? { code: "closed", message: ev.reason || "", words: null });
    } else if (this.abandoned) {
      this.finish(this.abandoned);
    } else if (this.hidden) {
      // the page is going away (or into the back/forward cache: pageshow says hello again)
    } else if (ev.code === 1012 && this.attempts === 0) {
      // another server process serves the table now: it is there at once
      this.attempts = 1;
      this.open(true);
    } else {
      this.retry(); // 1013 (busy: try again later), a lost connection, a server restart
    }
  }

  retry() {
    const base = BACKOFF_S[Math.min(this.attempts, BACKOFF_S.length - 1)];
    const wait = base * (0.75 + Math.random() / 2);
    this.attempts += 1;
    this.emit("status", { state: "reconnecting", retryIn: wait });
    this.retryTimer = setTimeout(() => this.open(true), wait * 1000);
  }

  /** Closed for good: the screen is told why. */
  finish(reason) {
    this.close();
    this.emit("status", { state: "closed", reason });
  }

  send(msg) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // ------------------------------------------------------------------ the person's intents
  /** A request answered by its id (ack, hint or error): its id, or null when the link is down. */
  request(msg, prefix) {
    this.counter += 1;
    const sent = { ...msg, id: `${prefix}${this.counter}` };
    if (!this.send(sent)) return null;
    this.pending.set(sent.id, sent);
    return sent.id;
  }

  /** Play ``move`` (records.md §2) chosen in position ``stateVersion``. */
  move(move, stateVersion) {
    return this.request({ type: "move", move, stateVersion }, "m");
  }

  /** Take back this seat's last build play (chosen in ``stateVersion``). */
  undo(stateVersion) {
    return this.request({ type: "undo", stateVersion }, "u");
  }

  /** Ask what a bot would play here (answered by a ``hint`` event). */
  hint() {
    return this.request({ type: "hint" }, "h");
  }

  /** Ask for the current position again (a ``state`` event). */
  sync() {
    return this.send({ type: "sync" });
  }

  /** Ready for the match's next game: with this browser's nonce for it once its commitment is out. */
  next() {
    const nonce = this.nextNonce();
    return this.send({ type: "next", id: "next", ...(nonce ? { nonce } : {}) });
  }

  /** Answer the rematch question (yes: with this browser's nonce for the new game's deal). */
  rematch(accept) {
    const nonce = accept ? this.nextNonce() : null;
    return this.send({ type: "rematch", accept, id: accept ? "rematch" : "no-rematch", ...(nonce ? { nonce } : {}) });
  }

  /** The nonce for the game after this one, only once its commitment (``fair.next``) was seen. */
  nextNonce() {
    const game = this.game + 1;
    if (this.seat === null || !this.pins.has(game)) return null;
    return this.nonceOf(game);
  }

  // ------------------------------------------------------------------ the server's messages
  onFrame(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return; // not JSON: nothing a server of this protocol sends
    }
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "welcome") this.seat = msg.seat ?? null;
    this.takeFair(msg.fair);
    this.takeFair(msg.table?.fair);
    switch (msg.type) {
      case "welcome":
        // after a reconnect the welcome is the truth: its version, whatever was shown before
        this.version = msg.stateVersion;
        this.attempts = 0;
        this.info = msg.table ?? this.info;
        this.emit("status", { state: "open" });
        this.emit("welcome", msg);
        break;
      case "state":
        if (msg.stateVersion < this.version) return; // older than the one shown: overtaken
        if (this.gapSync && this.version >= 0 && msg.stateVersion > this.version + 1) this.sync();
        this.version = msg.stateVersion;
        this.emit("state", msg);
        break;
      case "ack": {
        const request = this.pending.get(msg.id) ?? null;
        this.pending.delete(msg.id);
        this.emit("ack", { ...msg, request });
        break;
      }
      case "hint":
        this.pending.delete(msg.id);
        this.emit("hint", msg);
        break;
      case "error": {
        const request = msg.id != null ? this.pending.get(msg.id) ?? null : null;
        if (msg.id != null) this.pending.delete(msg.id);
        if (FINAL_CODES.has(msg.code)) {
          // the server closes the socket next (1008): no reconnect, the screen is told this reason
          this.finalReason = { code: msg.code, message: msg.message || "", words: msg.words ?? null };
          return;
        }
        if (msg.code === "stale") this.sync(); // chosen in an older position: draw the current one
        this.emit("refused", { ...msg, request });
        break;
      }
      case "table":
        if (msg.table) this.info = msg.table;
        if (msg.event?.kind === "abandoned") {
          this.abandoned = { code: "abandoned", message: msg.event.text || "", words: msg.event.words ?? null };
          if (msg.fair?.secret) this.verify(msg.fair.game, msg.fair, null);
        }
        this.emit("table", msg);
        break;
      case "gameOver":
        this.emit("gameOver", msg);
        if (msg.fair?.secret) this.verify(msg.fair.game, msg.fair, msg.recordUrl ?? null);
        break;
      case "rematch":
        this.emit("rematch", msg);
        break;
      default:
        break; // pong, and whatever a newer server adds
    }
  }

  // ------------------------------------------------------------------ the fair deal
  /** Pin ``commitment`` for ``game`` (``origin``: "shown" as the game's own, "next" as the one
   * published at the end of the game before); a different one for a pinned game is an alarm. */
  pin(game, commitment, origin) {
    let pinned = this.pins.get(game);
    if (!pinned) {
      // a nonce this browser sent for the game went out under this commitment (kept over reloads)
      const kept = storedPin(this.tableId, game);
      pinned = { commitment: kept ?? commitment, origin: kept ? "stored" : origin };
      this.pins.set(game, pinned);
    }
    if (pinned.commitment === commitment) return;
    if (pinned.origin === "next" && origin === "shown") this.raise(game, alarm("fair_alarm_next", { game }));
    else this.raise(game, alarm("fair_alarm_changed"));
  }

  raise(game, verdict) {
    if (this.verdicts.get(game)?.status === "alarm") return; // the first thing that did not check out is said
    this.verdicts.set(game, verdict);
    this.emitFair();
  }

  emitFair() {
    this.emit("fair", { game: this.game, fair: this.fair, verdict: this.verdict });
  }

  /** A message's ``fair`` (FairInfo): pin its commitment and the next game's, note whether this
   * browser's nonce counts, and show it. */
  takeFair(fair) {
    if (!fair || !Number.isInteger(fair.game) || typeof fair.commitment !== "string") return;
    const game = fair.game;
    if (game < this.game) return; // a game before the one in play: nothing to show or pin any more
    const before = { game: this.game, fair: this.fair, verdict: this.verdict };
    this.pin(game, fair.commitment, "shown");
    if (typeof fair.next === "string") this.pin(game + 1, fair.next, "next");
    this.game = game;
    // the fingerprint shown is the one pinned: a changed one is the alarm, not the new fingerprint
    this.fair = { ...fair, commitment: this.pins.get(game).commitment };
    const seat = this.seat;
    if (seat !== null) {
      // the deal takes this browser's nonce when the server's answer to it shows the deal still to
      // be made, or when it says the seat's nonce counts (every tab of a seat sends the same one)
      const answered = this.sentHere.has(game) && !fair.dealt;
      const taken = Boolean(fair.sent?.[seat]) && storedNonce(this.tableId, game) !== null;
      if (answered || taken) this.counted.add(game);
    }
    if (fair.secret && !this.verdicts.has(game)) this.verdicts.set(game, { status: "checking" });
    const after = this.verdict;
    if (before.game !== this.game || before.verdict !== after || before.fair?.dealt !== this.fair.dealt ||
        String(before.fair?.sent) !== String(this.fair.sent) || before.fair?.secret !== this.fair.secret) this.emitFair();
  }

  /** The game's record (``url``), fetched once; null when it cannot be had (after a few tries). */
  record(url) {
    if (!this.records.has(url)) {
      this.records.set(url, (async () => {
        for (let attempt = 0; attempt < 3; attempt++) {
          try {
            const res = await fetch(url, { headers: { Accept: "application/json" } });
            if (res.ok) return await res.json();
            if (res.status === 404) return null;
          } catch {
            /* no answer: try again */
          }
          await new Promise((done) => setTimeout(done, 500 * (attempt + 1)));
        }
        return null;
      })());
    }
    return this.records.get(url);
  }

  /** The reveal of ``game`` (``fair`` with the secret and the nonces; ``recordUrl`` its record, null
   * when it has none): check it and give the verdict. */
  async verify(game, fair, recordUrl) {
    if (this.verifying.has(game) || !this.pins.has(game)) return;
    this.verifying.add(game);
    if (this.verdicts.get(game)?.status === "alarm") return;
    this.verdicts.set(game, { status: "checking" });
    const verdict = await this.check(game, fair, this.pins.get(game).commitment, recordUrl);
    if (this.verdicts.get(game)?.status === "alarm") return;
    this.verdicts.set(game, verdict);
    this.emitFair();
  }

  async check(game, fair, commitment, recordUrl) {
    // this seat's own nonce first: it needs no Web Crypto, so it is checked on any page
    const own = this.seat !== null ? storedNonce(this.tableId, game) : null;
    const revealed = this.seat !== null ? fair.nonces?.[this.seat] ?? null : null;
    if (own && this.counted.has(game) && revealed !== own) return alarm("fair_alarm_nonce");
    const first = dealFirst(fair);
    if (!HEX64.test(fair.secret) || first === undefined) return alarm("fair_alarm_secret");
    const made = await commitmentOf(fair.secret, this.tableId, game, first);
    if (made === null) return { status: "unsupported" }; // no Web Crypto here (not https, not localhost)
    if (made !== commitment) return alarm("fair_alarm_secret");
    const record = recordUrl ? await this.record(recordUrl) : null;
    if (!record) return verified("fair_checked_commitment");
    const nonces = fair.nonces;
    const proof = record.fairness;
    if (!Array.isArray(nonces) || !nonces.every((n) => n === null || HEX32.test(n))) return alarm("fair_alarm_seed");
    const seed = await seedOf(fair.secret, this.tableId, game, nonces);
    if (String(record.seed) !== seed || proof?.commitment !== commitment || proof?.game !== game ||
        String(proof?.table) !== this.tableId) return alarm("fair_alarm_seed");
    return verified(own && revealed === own ? "fair_checked_seed" : "fair_checked_seed_only");
  }
}
