// The replay board of Spite and Malice (the page module table.js's): the table drawn by table.js's
// code, read-only, every card shown. A turn-based game can be reviewed (GET /api/games/{id}/review,
// opened by a button or ?review=1): a win-probability bar over the game, the marked turns in the bar
// and the log, and at each marked turn the plan the expert prefers; the review is shown as it is
// made, beside the board.

import { esc } from "../../html.js";
import { main, setStatus } from "../../shell.js";
import { t } from "../../i18n.js";
import { cardSVG, setNumberedDeck } from "../../cards.js";
import { moveWords } from "./move-words.js";
import { moveCard } from "./move-card.js";
import { markNotation, notationOn } from "../../panel.js";
import { TableClient, placesOf } from "./table.js";
import { api } from "../../store.js";
import { bindControls, controlsHTML, notationButtonHTML, replayKey, replaySeats } from "../../replay-controls.js";

/** How often a review being made is asked for again (its place in the queue, or its turns so far:
 * the server keeps no socket for it). */
const REVIEW_POLL_MS = 1000;

/** table.js's drawing without a socket: no seat, nothing playable. */
export class ReplayBoard extends TableClient {
  constructor(data) {
    super({
      id: data.tableId ?? `game-${data.gameId}`, preset: data.preset, options: data.options, status: "finished",
      seats: replaySeats(data),
    }, null);
    this.live = false; // nobody is online or offline in a finished game
    this.data = data;
    this.ply = 0;
    this.review = null; // null: not asked; {loading}, {error} or {data}: GET /api/games/{id}/review
    this.better = null; // the turn whose better plan is shown
  }

  go(ply) {
    const n = this.data.moves.length;
    this.ply = Math.max(0, Math.min(n, ply));
    this.render();
  }

  /** Move ``ply`` (1-based) of the game in words, its card read from the positions around it. */
  plyWords(ply) {
    const m = this.data.moves[ply - 1];
    const info = moveCard(this.data.positions[ply - 1], this.data.positions[ply], m.seat, m.move);
    return moveWords(m.move, { ...info, numbered: this.isSkipBo() });
  }

  render() {
    const data = this.data;
    const n = data.moves.length;
    this.view = data.positions[this.ply];
    const last = this.ply > 0 ? data.moves[this.ply - 1] : null;
    this.flash = last ? { seat: last.seat, move: last.move, at: Date.now() } : null;
    const count = this.view.players.length;
    const places = placesOf(count);
    const order = this.view.players.map((_, s) => s);
    const bottom = order.shift();
    const moveText = last ? `${this.name(last.seat)}: ${this.plyWords(this.ply)}` : t("replay_start");
    const marks = reviewMarks(this.review);
    setNumberedDeck(this.isSkipBo());
    const items = data.moves.map((m, i) => `<li data-ply="${i + 1}" data-seat="${m.seat}" data-move="${esc(m.move)}"${i + 1 === this.ply ? ' class="current" aria-current="step"' : ""}>` +
      `<span class="who">${esc(this.name(m.seat))}</span>: <span class="what">${esc(this.plyWords(i + 1))}</span>` +
      ` <code class="notation">${esc(m.move)}</code>${markHTML(marks.get(i))}</li>`).join("");
    const r = data.result || {};
    const winner = r.winner !== undefined && r.winner !== null ? t("wins", { name: this.name(r.winner) })
      : r.team !== undefined && r.team !== null ? t("wins", { name: this.teamName(r.team) }) : t("draw_result");
    const end = this.ply === n ? `<p class="result" id="replay-result">${t("game_over")}: ${esc(winner)}` +
      `${r.reason ? ` (${esc(t(`reason_${r.reason}`))})` : ""}</p>` : "";
    // the review beside the board (its side column, with the log), so the board stays in view
    main().innerHTML = `${controlsHTML(data, this.ply, moveText, end, last?.move)}
      <div class="table replay" data-ply="${this.ply}" data-plies="${n}" data-over="0" data-my-turn="0" data-seat=""
           data-players="${count}" data-notation="${notationOn() ? 1 : 0}" data-review="${this.review ? 1 : 0}">
        <div class="board" data-players="${count}">
          <div class="opponents">${order.map((s, k) => this.playerHTML(s, false, places[k])).join("")}</div>
          ${this.buildsHTML()}
          <div class="me-area">${this.playerHTML(bottom, false, "me")}</div>
        </div>
        <aside class="side">${reviewHTML(this)}<div class="settings">${notationButtonHTML()}</div><h3>${t("log")}</h3><ol class="log" id="log">${items}</ol></aside>
      </div>`;
    setStatus(`${t("turn", { n: this.view.turn })} · ${t("replay_ply", { k: this.ply, n })}`);
    markNotation();
    bindControls(this, main(), n);
    bindReview(this, main());
  }

  onReplayKey(ev) {
    replayKey(this, ev);
  }

  /** Ask the server for the game's review and show it as it is made. The first time it is made in a
   * queue, one review at a time, part by part: the server answers at once (``wait=false``) with this
   * review's place, or its turns so far (``partial``), asked again every second, so that the person
   * sees how many are ahead, then the first turns within seconds and the rest filling in. */
  async loadReview() {
    if (this.review && !this.review.error) return;
    this.review = { loading: true, place: null };
    this.render();
    const path = `/api/games/${encodeURIComponent(this.data.gameId)}/review?wait=false`;
    try {
      for (;;) {
        const answer = await api("GET", path);
        if (answer.status === "partial") {
          this.review = { data: answer.review, making: { done: answer.done, total: answer.total } };
        } else if (answer.status !== "queued") {
          this.review = { data: answer };
          break;
        } else {
          this.review = { loading: true, place: answer.place };
        }
        this.render();
        await new Promise((resolve) => setTimeout(resolve, REVIEW_POLL_MS));
        if (!this.data || !document.getElementById("review")) return; // the person left the replay
      }
    } catch (err) {
      this.review = { error: err.message };
    }
    this.render();
  }
}

/** The first move of each marked turn (a ply index) and its mark, from a loaded review. */
function reviewMarks(review) {
  const marks = new Map();
  for (const turn of review?.data?.turns || []) if (turn.mark) marks.set(turn.ply, turn.mark);
  return marks;
}

function markHTML(mark) {
  if (!mark) return "";
  return ` <span class="rv-mark rv-${mark}" title="${esc(t(`rv_${mark}`))}">${mark === "blunder" ? "??" : "?!"}</span>`;
}

/** The chance that the bar's side wins after ``turn``: seat 0's side in a game of two sides (the other
 * side's turns flipped), otherwise the mover's own. */
function barChance(review, turn) {
  if (review.sides !== 2 || turn.seat % 2 === 0) return turn.win_after;
  return 1 - turn.win_after;
}

/** The review part of the replay: a button, the waiting line, the refusal, or the review itself. */
function reviewHTML(board) {
  const review = board.review;
  if (!review) {
    return `<section class="panel review" id="review"><button type="button" id="review-open">${t("rv_review")}</button>
      <span class="muted">${esc(t("rv_what"))}</span></section>`;
  }
  if (review.loading) {
    // 1: being made now; 2 and more: that many less one are made first
    const ahead = review.place > 1 ? review.place - 1 : 0;
    const line = ahead ? t("rv_queued", { n: ahead }) : t("rv_loading");
    return `<section class="panel review" id="review" data-state="loading"><p class="muted" id="review-status"` +
      ` data-place="${review.place ?? ""}">${esc(line)}</p></section>`;
  }
  if (review.error) {
    return `<section class="panel review" id="review" data-state="error"><p class="error" id="review-error">${esc(t("rv_failed", { why: review.error }))}</p>
      <button type="button" id="review-open">${t("rv_review")}</button></section>`;
  }
  const data = review.data;
  const ply = board.ply;
  // the turn the next move belongs to (at the end: the last turn)
  const current = data.turns.find((tn) => ply >= tn.ply && ply < tn.ply + tn.played.length)
    || (ply >= board.data.moves.length ? data.turns.at(-1) : null);
  const bars = data.turns.map((tn) => {
    const p = barChance(data, tn);
    const here = tn === current ? " current" : "";
    return `<button type="button" class="wp-turn${here}${tn.mark ? ` rv-${tn.mark}` : ""}" data-ply="${tn.ply}" data-turn="${tn.turn}" data-seat="${tn.seat}"` +
      ` data-mark="${tn.mark || ""}" title="${esc(t("rv_turn_title", { n: tn.turn, name: board.name(tn.seat), p: Math.round(100 * p) }))}">` +
      `<span class="wp-fill" style="height:${(100 * p).toFixed(1)}%"></span></button>`;
  }).join("");
  const sums = data.summary.map((s) => `<li data-seat="${s.seat}">${esc(t("rv_summary", {
    name: board.name(s.seat), acc: s.accuracy, i: s.inaccuracies, b: s.blunders }))}</li>`).join("");
  let turnPart = "";
  if (current) {
    const mark = current.mark ? ` <strong class="rv-${current.mark}">${esc(t(`rv_${current.mark}`))}</strong>` +
      ` (−${(100 * current.loss).toFixed(1)} ${esc(t("rv_points"))})` : "";
    const open = board.better === current.turn;
    const better = current.mark ? (open
      ? `<div id="review-best"><p>${esc(t("rv_expert", { k: current.best_ply + 1 }))}:</p>${planHTML(board, current.best, current.ply + current.best_ply, current.seat, false)}</div>`
      : `<p><button type="button" id="review-better" data-turn="${current.turn}">${t("rv_better")}</button></p>`) : "";
    turnPart = `<div id="review-turn" data-turn="${current.turn}" data-mark="${current.mark || ""}">
      <p>${esc(t("rv_turn", { n: current.turn, name: board.name(current.seat) }))}:${mark}
      ${esc(t("rv_win", { a: Math.round(100 * current.win_before), b: Math.round(100 * current.win_after) }))}</p>
      <div id="review-played"><p>${esc(t("rv_played"))}:</p>${planHTML(board, current.played, current.ply, current.seat, true)}</div>${better}</div>`;
  }
  const who = data.sides !== 2 ? t("rv_mover") : data.players === 4 ? `${board.name(0)} + ${board.name(2)}` : board.name(0);
  // while it is being made: the turns so far, and how far it is
  const making = review.making ? `<p class="muted" id="review-making" data-done="${review.making.done}"` +
    ` data-total="${review.making.total}">${esc(t("rv_making", { done: review.making.done, total: review.making.total }))}</p>` : "";
  return `<section class="panel review" id="review" data-state="${review.making ? "partial" : "done"}">
      <h3>${esc(t("rv_title", { name: who }))}</h3>${making}
      <div class="wp-bar" id="wp-bar" role="group" aria-label="${esc(t("rv_title", { name: who }))}">${bars}</div>
      <ul class="rv-summary" id="review-summary">${sums}</ul>${turnPart}
    </section>`;
}

/** A plan of moves (``moves`` from ply index ``ply`` on, by ``seat``) as small cards with words;
 * ``played``: the moves of the game (their cards are read from the positions around them), else a
 * plan the expert prefers (only its first card is known for sure). */
function planHTML(board, moves, ply, seat, played) {
  const positions = board.data.positions;
  const steps = moves.map((move, k) => {
    const before = played || k === 0 ? positions[ply + k] : null;
    const after = played ? positions[ply + k + 1] : null;
    const info = before ? moveCard(before, after, seat, move) : { card: null };
    const what = moveWords(move, { ...info, numbered: board.isSkipBo() });
    const [src] = move.split("-");
    const face = info.card ?? (src.startsWith("H") ? src.slice(1) : null);
    const mini = face ? `<span class="mini-card" aria-hidden="true">${cardSVG(face)}</span>` : `<span class="mini-card pass" aria-hidden="true"></span>`;
    return `<li class="plan-step" data-move="${esc(move)}">${mini}<span class="plan-words">${esc(what)}</span>` +
      ` <code class="notation">${esc(move)}</code></li>`;
  }).join("");
  return `<ol class="plan">${steps}</ol>`;
}

function bindReview(board, root) {
  root.querySelector("#review-open")?.addEventListener("click", () => board.loadReview());
  for (const bar of root.querySelectorAll("#wp-bar .wp-turn")) bar.addEventListener("click", () => board.go(Number(bar.dataset.ply)));
  root.querySelector("#review-better")?.addEventListener("click", (ev) => {
    board.better = Number(ev.currentTarget.dataset.turn);
    board.render();
  });
}
