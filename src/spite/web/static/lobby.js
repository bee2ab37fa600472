// The lobby: the player's name, quick play against the computer, a table for friends, open tables
// to join and games in play to watch.

import { main, setRerender, setStatus } from "./app.js";
import { t } from "./i18n.js";
import { api, getName, saveSeat, setName } from "./store.js";

export const PRESETS = ["classic", "cat-and-mouse", "match", "skip-bo", "short", "kings-only", "no-blocking",
  "open-stock", "party", "partners"];
const PLAYERS = { party: 3, partners: 4 };
export const LEVELS = ["random", "easy", "medium", "hard", "expert"];

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function options(list, selected) {
  return list.map((v) => `<option value="${esc(v)}"${v === selected ? " selected" : ""}>${esc(v)}</option>`).join("");
}

function playerName() {
  return getName() || t("guest");
}

function stockOption(form) {
  const v = form.querySelector("[name=stock_size]").value.trim();
  return v ? { stock_size: Number(v) } : {};
}

/** Start a game against the computer; on success the browser goes to the table. */
export async function quickPlay(preset, level, opts) {
  const joined = await api("POST", "/api/quickplay", { name: playerName(), preset, level, options: opts });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

/** Create a table (seats: list of {kind, level}); the creator takes the first person seat. */
export async function createTable(preset, opts, seatList) {
  const joined = await api("POST", "/api/tables", { game: "spite-malice", preset, options: opts, seats: seatList, name: playerName() });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

function seatsRows(preset) {
  const n = PLAYERS[preset] || 2;
  let rows = `<div class="seatrow">${t("seat_n", { n: 0 })}: <b>${t("you")}</b></div>`;
  for (let s = 1; s < n; s++) {
    const opts = [`<option value="person">${t("person")}</option>`]
      .concat(LEVELS.map((l) => `<option value="bot:${l}">${esc(t("bot", { level: l }))}</option>`)).join("");
    rows += `<label class="seatrow">${t("seat_n", { n: s })}: <select name="seat${s}" data-seat="${s}">${opts}</select></label>`;
  }
  return rows;
}

function tableLine(info, action) {
  const who = info.seats.map((s) => (s.kind === "bot" ? esc(t("bot", { level: s.level })) : s.player ? esc(s.player) : "—")).join(" · ");
  const label = action === "join" ? t("join") : t("watch");
  return `<li data-table="${esc(info.id)}"><span class="tname">${esc(info.preset)}</span> <span class="tseats">${who}</span>
    <a class="btn" data-action="${action}" href="${esc(info.link)}${action === "watch" ? "?watch=1" : ""}">${label}</a></li>`;
}

async function loadLists() {
  const openList = document.getElementById("open-list");
  const playList = document.getElementById("play-list");
  if (!openList || !playList) return;
  try {
    const [open, playing] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/tables?status=playing")]);
    const malice = (l) => l.filter((x) => x.game === "spite-malice");
    openList.innerHTML = malice(open).map((x) => tableLine(x, "join")).join("") || `<li class="muted">${t("none")}</li>`;
    playList.innerHTML = malice(playing).map((x) => tableLine(x, "watch")).join("") || `<li class="muted">${t("none")}</li>`;
  } catch (err) {
    openList.innerHTML = `<li class="error">${esc(err.message)}</li>`;
  }
}

export function renderLobby() {
  const state = { qpPreset: "short", qpLevel: "medium", ftPreset: "classic", stock: "" };
  const draw = () => {
    setStatus(t("lobby"));
    main().innerHTML = `
    <div class="lobby">
      <section class="panel">
        <label>${t("your_name")} <input id="name" name="name" maxlength="40" value="${esc(getName())}" placeholder="${esc(t("guest"))}" autocomplete="nickname"></label>
      </section>
      <section class="panel">
        <h2>${t("quick_play")}</h2>
        <form id="quick">
          <label>${t("game")} <select name="game"><option value="spite-malice">${t("malice")}</option>
            <option value="spit" disabled>${t("spit_soon")}</option></select></label>
          <label>${t("preset")} <select name="preset">${options(PRESETS.filter((p) => !PLAYERS[p]), state.qpPreset)}</select></label>
          <label>${t("level")} <select name="level">${options(LEVELS, state.qpLevel)}</select></label>
          <label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50" value="${esc(state.stock)}"></label>
          <button type="submit" class="primary" id="quick-play">${t("play")}</button>
          <p class="error" role="alert"></p>
        </form>
      </section>
      <section class="panel">
        <h2>${t("friend_table")}</h2>
        <form id="friend">
          <label>${t("preset")} <select name="preset">${options(PRESETS, state.ftPreset)}</select></label>
          <label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50"></label>
          <div id="seats">${seatsRows(state.ftPreset)}</div>
          <button type="submit" id="create-table">${t("create")}</button>
          <p class="error" role="alert"></p>
        </form>
      </section>
      <section class="panel">
        <h2>${t("open_tables")} <button type="button" id="refresh" class="small">${t("refresh")}</button></h2>
        <ul id="open-list" class="tables"></ul>
        <h2>${t("playing_tables")}</h2>
        <ul id="play-list" class="tables"></ul>
      </section>
    </div>`;
    const name = document.getElementById("name");
    name.addEventListener("change", () => setName(name.value));
    name.addEventListener("input", () => setName(name.value));
    const quick = document.getElementById("quick");
    quick.preset.addEventListener("change", () => (state.qpPreset = quick.preset.value));
    quick.level.addEventListener("change", () => (state.qpLevel = quick.level.value));
    quick.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      state.stock = quick.stock_size.value;
      const err = quick.querySelector(".error");
      err.textContent = "";
      try {
        await quickPlay(quick.preset.value, quick.level.value, stockOption(quick));
      } catch (e) {
        err.textContent = e.message;
      }
    });
    const friend = document.getElementById("friend");
    friend.preset.addEventListener("change", () => {
      state.ftPreset = friend.preset.value;
      document.getElementById("seats").innerHTML = seatsRows(state.ftPreset);
    });
    friend.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = friend.querySelector(".error");
      err.textContent = "";
      const seatList = [{ kind: "person" }];
      for (const sel of friend.querySelectorAll("select[data-seat]")) {
        seatList.push(sel.value === "person" ? { kind: "person" } : { kind: "bot", level: sel.value.slice(4) });
      }
      try {
        await createTable(friend.preset.value, stockOption(friend), seatList);
      } catch (e) {
        err.textContent = e.message;
      }
    });
    document.getElementById("refresh").addEventListener("click", loadLists);
    loadLists();
  };
  setRerender(draw);
  draw();
}
