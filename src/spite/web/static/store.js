// What the browser keeps: the player's name and each table's seat token (localStorage).

import { word } from "./i18n.js";

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

/** JSON over HTTP; a refusal throws an Error with the server's one line. */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.statusText);
    throw new Error(word(data.words, detail));
  }
  return data;
}

/** The log of table ``id`` as this tab last saw it ({version, count, entries}), or null. Kept in
 * sessionStorage: the server sends no history, and a reload of the tab should not empty the log. */
export function loadLog(id) {
  try {
    const data = JSON.parse(sessionStorage.getItem(`spite.log.${id}`) || "null");
    return data && Array.isArray(data.entries) && Number.isInteger(data.count) && Number.isInteger(data.version) ? data : null;
  } catch {
    return null;
  }
}

export function saveLog(id, version, count, entries) {
  try {
    sessionStorage.setItem(`spite.log.${id}`, JSON.stringify({ version, count, entries }));
  } catch {
    /* storage full or off: the log is only lost on a reload */
  }
}
