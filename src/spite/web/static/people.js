// Who sits at a table, as people read it: a person by their name, a computer player by a name of
// its own (from a list per language, the catalogue's tb_bot_names) with its level beside it, seats
// numbered from 1. The names follow from the table's id and its seats alone, so every page that
// shows the table (each player's, a watcher's, the replay of one of its games, the statistics)
// gives a computer player the same name, and three computers at a table are three names.

import { esc } from "./html.js";
import { botName, hasText, t } from "./i18n.js";

/** A small, stable hash of a text (FNV-1a, 32 bits). */
function hash(text) {
  let h = 2166136261;
  for (const ch of String(text)) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** The computer players' names of the page's language. */
export function botNames() {
  return t("tb_bot_names").split(/\s+/).filter(Boolean);
}

/** A computer level as people read it ("medium", "mittel"; a reflex bot's own name as it is). */
export function levelWord(level) {
  const lv = String(level ?? "").replace(/^bot:/, "");
  return hasText(`lv_${lv}`) ? t(`lv_${lv}`) : lv;
}

/** Is seat ``s`` (a TableInfo seat, or a replay's player) a computer player of its own (not a
 * person's seat a computer took over)? */
function isBotSeat(s) {
  return s?.kind === "bot" || s?.isBot === true;
}

/** The names of ``seats`` (TableInfo seats) at table ``tableId``: a person's name (null for a free
 * seat), a computer player's given name. Computers take the list's names in turn from a place the
 * table's id picks, never one a person at the table goes by. */
export function seatNames(tableId, seats) {
  const names = botNames();
  const taken = new Set(seats.filter((s) => !isBotSeat(s) && s?.player).map((s) => String(s.player).toLowerCase()));
  let k = names.length ? hash(tableId) % names.length : 0;
  return seats.map((s) => {
    if (!isBotSeat(s)) return s?.player || null;
    for (let tries = 0; tries < names.length; tries++) {
      const name = names[k % names.length];
      k += 1;
      if (!taken.has(name.toLowerCase())) {
        taken.add(name.toLowerCase());
        return name;
      }
    }
    return botName(s.level);
  });
}

/** The level of seat ``s``'s computer player (a bot seat, or a person's seat a computer plays now). */
export function seatLevel(s) {
  if (!s) return null;
  if (s.kind === "bot") return s.level ?? s.botLevel ?? null;
  if (s.isBot) return String(s.player ?? "").replace(/^bot:/, "") || null;
  return s.status === "bot" ? s.botLevel ?? null : null;
}

/** A seat as people count it: "Seat 1" for seat 0. */
export function seatLabel(seat) {
  return t("seat_n", { n: Number(seat) + 1 });
}

/** The name of seat ``seat`` at ``table`` (a TableInfo, or a replay's table): its person, its
 * computer player, or "Seat 2" while it is free. */
export function personName(table, seat) {
  const seats = table?.seats || [];
  const key = `${table?.id ?? ""}|${seats.map((s) => `${s?.kind}:${s?.player ?? ""}:${s?.isBot ?? ""}`).join(",")}|${t("tb_bot_names")}`;
  if (table && table.namesKey !== key) {
    // kept with the table object (a new TableInfo brings its own): the names are worked out once
    Object.defineProperty(table, "namesKey", { value: key, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(table, "names", { value: seatNames(table.id ?? "", seats), writable: true, configurable: true, enumerable: false });
  }
  return table?.names?.[seat] || seatLabel(seat);
}

/** What a seat is besides its name, for its header: "Computer · medium" for a computer player,
 * "a computer plays for now" for a person's seat a computer took over, "offline", "free seat". */
export function seatTag(seatInfo, { live = true } = {}) {
  if (!seatInfo) return "";
  const level = seatLevel(seatInfo);
  if (isBotSeat(seatInfo)) return t("tb_bot_tag", { level: levelWord(level) });
  if (!live) return "";
  if (seatInfo.status === "bot") return t("tb_taken_over_tag", { level: levelWord(level) });
  if (seatInfo.status === "disconnected") return t("seat_status_disconnected");
  if (seatInfo.status === "free" || (!seatInfo.player && seatInfo.kind === "person")) return t("seat_status_free");
  return "";
}

/** The rating a rated table shows beside a person's name (``seatInfo.rating``: the server sends it at
 * rated tables only): the number, and the word "provisional" while it is. */
export function seatRatingHTML(seatInfo) {
  const r = seatInfo?.rating;
  if (!r || typeof r.rating !== "number") return "";
  const spoken = t(r.provisional ? "tb_rating_provisional" : "tb_rating", { rating: r.rating });
  return ` <span class="seat-rating" data-rating="${r.rating}" title="${esc(spoken)}">` +
    `${r.rating}${r.provisional ? ` <span class="provisional">${esc(t("rt_provisional"))}</span>` : ""}</span>`;
}

/** The header of a seat: its name (with "you"), its rating at a rated table, and its tag. */
export function seatHeadHTML(name, tag, seatInfo = null) {
  return `<span class="seat-name">${esc(name)}</span>${seatRatingHTML(seatInfo)}${tag ? ` <span class="seat-status">${esc(tag)}</span>` : ""}`;
}

/** A rated table's mark for its head line: plain words, in the page's language (nothing at a casual table). */
export function ratedMarkHTML(table) {
  if (!table?.rated) return "";
  return `<span class="rated-mark" id="rated-mark" title="${esc(t("tb_rated_explain"))}">${esc(t("tb_rated"))}</span>`;
}

/** Whether a computer plays at ``table`` (a computer's seat, or a person's a computer took over): only
 * there is the computer's pace a setting. */
export function computerAtTable(table) {
  return (table?.seats || []).some((s) => isBotSeat(s) || s?.status === "bot");
}

/** The name seat ``seat`` had at its table ``tableId`` in a finished game (``players``: the game's
 * seats as the API lists them, ``{seat, player, isBot}``; a computer is stored as ``bot:medium``). */
export function gamePlayerName(tableId, players, seat) {
  const bySeat = [];
  for (const p of players) bySeat[p.seat ?? bySeat.length] = p;
  const p = bySeat[seat];
  if (tableId === null || tableId === undefined) return p?.isBot ? botName(p.player) : p?.player ?? seatLabel(seat);
  const seats = Array.from(bySeat, (q) => ({ kind: q?.isBot ? "bot" : "person", player: q?.isBot ? null : q?.player ?? null,
    level: q?.isBot ? String(q.player ?? "").replace(/^bot:/, "") : null }));
  return seatNames(tableId, seats)[seat] ?? seatLabel(seat);
}
