// What the browser keeps: the player's name, its secret player key and id, and each table's seat token (localStorage).

import { hasText, t, word } from "./i18n.js";

export function getName() {
  return localStorage.getItem("spite.name") || "";
}

export function setName(name) {
  localStorage.setItem("spite.name", name.trim().slice(0, 40));
}

function seats() {
  try {
    return JSON.parse(localStorage.getItem("spite.seats") || "{}") || {};
  } catch {
    return {};
  }
}

/** The seat and token this browser holds at table ``id`` (or null). */
export function getSeat(id) {
  return seats()[id] || null;
}

export function saveSeat(id, seat, token) {
  const all = seats();
  all[id] = { seat, token, at: Date.now() };
  // keep the newest 50 tables
  const keep = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem("spite.seats", JSON.stringify(Object.fromEntries(keep)));
}

export function forgetSeat(id) {
  const all = seats();
  delete all[id];
  localStorage.setItem("spite.seats", JSON.stringify(all));
}

/** This browser's secret player key, made on the first visit and kept: the games played here count
 * for the player id the server makes of it, whatever name is shown. Never shown or sent elsewhere. */
export function getPlayerKey() {
  let key = localStorage.getItem("spite.playerKey") || "";
  if (!/^[A-Za-z0-9_-]{22,64}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24)); // 192 bits, like a seat token
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("spite.playerKey", key);
  }
  return key;
}

/** The public player id of this browser's key (as the server last told it), or "". */
export function getPlayerId() {
  return localStorage.getItem("spite.playerId") || "";
}

/** A game's option as people say it where the catalogue has it ("the stock size", not "stock_size":
 * ``tb_option.NAME``), else its name. */
export const optionWord = (name) => (hasText(`tb_option.${name}`) ? t(`tb_option.${name}`) : name);

/** Options as people read them: "the stock size: 5, the hand size: 3" (not "stock_size=5"). */
export const optionsText = (options) => Object.entries(options || {})
  .map(([name, value]) => `${optionWord(name)}: ${value}`).join(", ");

/** A lobby refusal's words with what it names as people say it, where the catalogue has it: an
 * option (:func:`optionWord`), the options changed ("the stock size: 5", not "stock_size=5"),
 * computer levels ("easy, medium", ``lv_LEVEL``). */
function lobbyWords(words) {
  const params = words?.params;
  if (!params) return words;
  const levelWord = (level) => (hasText(`lv_${level}`) ? t(`lv_${level}`) : level);
  const list = (text, fn) => String(text).split(", ").map(fn).join(", ");
  const out = { ...params };
  if (typeof params.option === "string") out.option = optionWord(params.option);
  if (typeof params.options === "string") {
    out.options = list(params.options, (pair) => {
      const [name, value] = pair.split("=");
      return value === undefined ? optionWord(name) : `${optionWord(name)}: ${value}`;
    });
  }
  for (const name of ["level", "levels"]) if (typeof params[name] === "string") out[name] = list(params[name], levelWord);
  return { ...words, params: out };
}

/** JSON over HTTP; a refusal throws an Error with the server's one line. Requests that take a seat
 * (they carry a ``name``) carry this browser's player key too. */
export async function api(method, path, body) {
  if (method === "POST" && body && "name" in body && !body.playerKey) body = { ...body, playerKey: getPlayerKey() };
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.statusText);
    throw new Error(word(lobbyWords(data.words), detail));
  }
  if (typeof data.playerId === "string" && data.playerId) localStorage.setItem("spite.playerId", data.playerId);
  return data;
}
