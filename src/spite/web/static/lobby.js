// The lobby: the player's name, quick play against the computer, a table for friends, open tables
// to join and games in play to watch.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./app.js";
import { botName, t } from "./i18n.js";
import { SPIT_GAMES, SPIT_LEVELS, SPIT_PRESETS } from "./spit.js";
import { api, getName, saveSeat, setName } from "./store.js";

export const PRESETS = ["classic", "cat-and-mouse", "match", "skip-bo", "short", "kings-only", "no-blocking",
  "open-stock", "party", "partners"];
const PLAYERS = { party: 3, partners: 4 };
export const LEVELS = ["random", "easy", "medium", "hard", "expert"];

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

/** Start a game against the computer (a computer player at every other seat of the preset: two at
 * a party, three with partners); on success the browser goes to the table. */
export async function quickPlay(preset, level, opts, game = "spite-malice") {
  const joined = await api("POST", "/api/quickplay", { name: playerName(), game, preset, level, options: opts });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

/** Create a table (seats: list of {kind, level}); the creator takes the first person seat. */
export async function createTable(preset, opts, seatList, game = "spite-malice") {
  const joined = await api("POST", "/api/tables", { game, preset, options: opts, seats: seatList, name: playerName() });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

/** The game select (Spite and Malice, Spit, Speed), and a game's presets and computer levels. */
function gameOptions(selected) {
  return ["spite-malice", ...SPIT_GAMES].map((g) => `<option value="${g}"${g === selected ? " selected" : ""}>` +
    `${t({ "spite-malice": "malice", spit: "spit_game", speed: "speed_game" }[g])}</option>`).join("");
}

const presetsOf = (game) => SPIT_PRESETS[game] || PRESETS;
/** The computer players quick play seats with ``preset`` (the server seats as many as the preset has). */
const botsOf = (preset, game) => (SPIT_GAMES.includes(game) ? 1 : (PLAYERS[preset] || 2) - 1);
const levelsOf = (game) => (SPIT_GAMES.includes(game) ? SPIT_LEVELS : LEVELS);

function seatsRows(preset, game = "spite-malice") {
  const n = SPIT_GAMES.includes(game) ? 2 : PLAYERS[preset] || 2;
  let rows = `<div class="seatrow">${t("seat_n", { n: 0 })}: <b>${t("you")}</b></div>`;
  for (let s = 1; s < n; s++) {
    const opts = [`<option value="person">${t("person")}</option>`]
      .concat(levelsOf(game).map((l) => `<option value="bot:${l}">${esc(botName(l))}</option>`)).join("");
    rows += `<label class="seatrow">${t("seat_n", { n: s })}: <select name="seat${s}" data-seat="${s}">${opts}</select></label>`;
  }
  return rows;
}

function tableLine(info, action) {
  const who = info.seats.map((s) => (s.kind === "bot" ? esc(botName(s.level)) : s.player ? esc(s.player) : "—")).join(" · ");
  const label = action === "join" ? t("join") : t("watch");
  const game = SPIT_GAMES.includes(info.game) ? `${t(`${info.game}_game`)} · ` : "";
  return `<li data-table="${esc(info.id)}" data-game="${esc(info.game)}"><span class="tname">${esc(game)}${esc(info.preset)}</span> <span class="tseats">${who}</span>
    <a class="btn" data-action="${action}" href="${esc(info.link)}${action === "watch" ? "?watch=1" : ""}">${label}</a></li>`;
}

async function loadLists() {
  const openList = document.getElementById("open-list");
  const playList = document.getElementById("play-list");
  if (!openList || !playList) return;
  try {
    const [open, playing] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/tables?status=playing")]);
    const known = (l) => l.filter((x) => x.game === "spite-malice" || SPIT_GAMES.includes(x.game));
    openList.innerHTML = known(open).map((x) => tableLine(x, "join")).join("") || `<li class="muted">${t("none")}</li>`;
    playList.innerHTML = known(playing).map((x) => tableLine(x, "watch")).join("") || `<li class="muted">${t("none")}</li>`;
  } catch (err) {
    openList.innerHTML = `<li class="error">${esc(err.message)}</li>`;
  }
}

export function renderLobby() {
  const state = { qpPreset: "short", qpLevel: "medium", ftPreset: "classic", stock: "", qpGame: "spite-malice", ftGame: "spite-malice" };
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
          <label>${t("game")} <select name="game">${gameOptions(state.qpGame)}</select></label>
          <label>${t("preset")} <select name="preset">${options(presetsOf(state.qpGame), state.qpPreset)}</select></label>
          <label>${t("level")} <select name="level">${options(levelsOf(state.qpGame), state.qpLevel)}</select></label>
          ${SPIT_GAMES.includes(state.qpGame) ? "" : `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50" value="${esc(state.stock)}"></label>`}
          <p class="muted" id="quick-seats" data-bots="${botsOf(state.qpPreset, state.qpGame)}">${esc(t("qp_bots", { n: botsOf(state.qpPreset, state.qpGame) }))}</p>
          <button type="submit" class="primary" id="quick-play">${t("play")}</button>
          <p class="error" role="alert"></p>
        </form>
      </section>
      <section class="panel">
        <h2>${t("friend_table")}</h2>
        <form id="friend">
          <label>${t("game")} <select name="game">${gameOptions(state.ftGame)}</select></label>
          <label>${t("preset")} <select name="preset">${options(presetsOf(state.ftGame), state.ftPreset)}</select></label>
          ${SPIT_GAMES.includes(state.ftGame) ? "" : `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50"></label>`}
          <div id="seats">${seatsRows(state.ftPreset, state.ftGame)}</div>
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
    quick.game.addEventListener("change", () => {
      // Spit and Speed: their presets and reflex bots, no stock size
      state.qpGame = quick.game.value;
      state.qpPreset = presetsOf(state.qpGame)[0] === "classic" ? "short" : presetsOf(state.qpGame)[0];
      state.qpLevel = SPIT_GAMES.includes(state.qpGame) ? "beginner" : "medium";
      draw();
    });
    quick.preset.addEventListener("change", () => {
      state.qpPreset = quick.preset.value;
      const seats = document.getElementById("quick-seats");
      seats.dataset.bots = botsOf(state.qpPreset, state.qpGame);
      seats.textContent = t("qp_bots", { n: seats.dataset.bots });
    });
    quick.level.addEventListener("change", () => (state.qpLevel = quick.level.value));
    quick.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      state.stock = quick.stock_size?.value ?? state.stock;
      const err = quick.querySelector(".error");
      err.textContent = "";
      try {
        const game = quick.game.value;
        await quickPlay(quick.preset.value, quick.level.value, SPIT_GAMES.includes(game) ? {} : stockOption(quick), game);
      } catch (e) {
        err.textContent = e.message;
      }
    });
    const friend = document.getElementById("friend");
    friend.game.addEventListener("change", () => {
      state.ftGame = friend.game.value;
      state.ftPreset = presetsOf(state.ftGame)[0];
      draw();
    });
    friend.preset.addEventListener("change", () => {
      state.ftPreset = friend.preset.value;
      document.getElementById("seats").innerHTML = seatsRows(state.ftPreset, state.ftGame);
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
        const game = friend.game.value;
        await createTable(friend.preset.value, SPIT_GAMES.includes(game) ? {} : stockOption(friend), seatList, game);
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
