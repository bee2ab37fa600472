// The lobby: the player's name, quick play against the computer, a table for friends, open tables
// to join and games in play to watch.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./app.js";
import { botName, hasText, presetName, t } from "./i18n.js";
import { gameTypes, gameWord } from "./games.js";
import { levelWord as levelOf, seatLabel, seatNames } from "./people.js";
import { api, getName, saveSeat, setName } from "./store.js";

function options(list, selected, name = (v) => v) {
  return list.map((v) => `<option value="${esc(v)}"${v === selected ? " selected" : ""}>${esc(name(v))}</option>`).join("");
}

const levelWord = (level) => (hasText(`lv_${level}`) ? t(`lv_${level}`) : level);

function playerName() {
  return getName() || t("guest");
}

/** The options a lobby form sets (those its game offers: ``stock_size``). */
function formOptions(form) {
  const v = form.querySelector("[name=stock_size]")?.value.trim();
  return v ? { stock_size: Number(v) } : {};
}

/** Start a game against the computer (a computer player at every other seat of the preset: two at
 * a party, three with partners); on success the browser goes to the table. */
export async function quickPlay(preset, level, opts, game) {
  const joined = await api("POST", "/api/quickplay", { name: playerName(), game, preset, level, options: opts });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

/** Create a table (seats: list of {kind, level}); the creator takes the first person seat. */
export async function createTable(preset, opts, seatList, game) {
  const joined = await api("POST", "/api/tables", { game, preset, options: opts, seats: seatList, name: playerName() });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

// The games, their presets (with seats), computer levels and lobby options: the server's list
// (games.js); set by renderLobby before anything is drawn.
let types = [];
const typeOf = (game) => types.find((g) => g.name === game) || types[0];

/** The game select: every game the server holds tables of. */
function gameOptions(selected) {
  return types.map((g) => `<option value="${esc(g.name)}"${g.name === selected ? " selected" : ""}>${esc(gameWord(g.name))}</option>`).join("");
}

const presetsOf = (game) => typeOf(game).presets.map((p) => p.name);
const seatsOf = (preset, game) => typeOf(game).presets.find((p) => p.name === preset)?.seats ?? 2;
/** The computer players quick play seats with ``preset`` (the server seats as many as the preset has). */
const botsOf = (preset, game) => seatsOf(preset, game) - 1;
const levelsOf = (game) => typeOf(game).levels;
const offers = (game, option) => typeOf(game).lobbyOptions.includes(option);

function seatsRows(preset, game) {
  const n = seatsOf(preset, game);
  let rows = `<div class="seatrow">${esc(seatLabel(0))}: <b>${t("you")}</b></div>`;
  for (let s = 1; s < n; s++) {
    const opts = [`<option value="person">${t("person")}</option>`]
      .concat(levelsOf(game).map((l) => `<option value="bot:${l}">${esc(botName(l))}</option>`)).join("");
    rows += `<label class="seatrow">${esc(seatLabel(s))}: <select name="seat${s}" data-seat="${s}">${opts}</select></label>`;
  }
  return rows;
}

function tableLine(info, action) {
  // a computer player by the name it has at that table, with its level
  const names = seatNames(info.id, info.seats);
  const who = info.seats.map((s, i) => (s.kind === "bot" ? `${esc(names[i])} <span class="muted">(${esc(t("tb_bot_tag", { level: levelOf(s.level) }))})</span>`
    : s.player ? esc(s.player) : "—")).join(" · ");
  const label = action === "join" ? t("join") : t("watch");
  // the first game of the list (the server's default) goes without its name, the others with it
  const game = types.length && info.game !== types[0].name ? `${gameWord(info.game)} · ` : "";
  return `<li data-table="${esc(info.id)}" data-game="${esc(info.game)}"><span class="tname">${esc(game)}${esc(presetName(info.preset))}</span> <span class="tseats">${who}</span>
    <a class="btn" data-action="${action}" href="${esc(info.link)}${action === "watch" ? "?watch=1" : ""}">${label}</a></li>`;
}

async function loadLists() {
  const openList = document.getElementById("open-list");
  const playList = document.getElementById("play-list");
  if (!openList || !playList) return;
  try {
    const [open, playing] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/tables?status=playing")]);
    const known = (l) => l.filter((x) => types.some((g) => g.name === x.game));
    openList.innerHTML = known(open).map((x) => tableLine(x, "join")).join("") || `<li class="muted">${t("none")}</li>`;
    playList.innerHTML = known(playing).map((x) => tableLine(x, "watch")).join("") || `<li class="muted">${t("none")}</li>`;
  } catch (err) {
    openList.innerHTML = `<li class="error">${esc(err.message)}</li>`;
  }
}

/** A preset to start quick play with: ``short`` where the game has it (a quick game), else its default. */
const quickPreset = (game) => (presetsOf(game).includes("short") ? "short" : typeOf(game).defaultPreset);

export async function renderLobby() {
  try {
    types = await gameTypes();
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(err.message)}</p></section>`;
    return;
  }
  const first = types[0].name;
  const state = { qpPreset: quickPreset(first), qpLevel: typeOf(first).defaultLevel, ftPreset: typeOf(first).defaultPreset,
    stock: "", qpGame: first, ftGame: first };
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
          <label>${t("preset")} <select name="preset">${options(presetsOf(state.qpGame), state.qpPreset, presetName)}</select></label>
          <label>${t("level")} <select name="level">${options(levelsOf(state.qpGame), state.qpLevel, levelWord)}</select></label>
          ${offers(state.qpGame, "stock_size") ? `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50" value="${esc(state.stock)}"></label>` : ""}
          <p class="muted" id="quick-seats" data-bots="${botsOf(state.qpPreset, state.qpGame)}">${esc(t("qp_bots", { n: botsOf(state.qpPreset, state.qpGame) }))}</p>
          <button type="submit" class="primary" id="quick-play">${t("play")}</button>
          <button type="button" id="seek-play" data-seek>${t("seek_play")}</button>
          <p class="error" role="alert"></p>
        </form>
      </section>
      <section class="panel">
        <h2>${t("friend_table")}</h2>
        <form id="friend">
          <label>${t("game")} <select name="game">${gameOptions(state.ftGame)}</select></label>
          <label>${t("preset")} <select name="preset">${options(presetsOf(state.ftGame), state.ftPreset, presetName)}</select></label>
          ${offers(state.ftGame, "stock_size") ? `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50"></label>` : ""}
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
      // another game: its presets, its computer levels, its options
      state.qpGame = quick.game.value;
      state.qpPreset = quickPreset(state.qpGame);
      state.qpLevel = typeOf(state.qpGame).defaultLevel;
      draw();
    });
    quick.preset.addEventListener("change", () => {
      state.qpPreset = quick.preset.value;
      const seats = document.getElementById("quick-seats");
      seats.dataset.bots = botsOf(state.qpPreset, state.qpGame);
      seats.textContent = t("qp_bots", { n: Number(seats.dataset.bots) });
    });
    quick.level.addEventListener("change", () => (state.qpLevel = quick.level.value));
    document.getElementById("seek-play").addEventListener("click", () => import("./seek.js")
      .then((mod) => mod.startSeek(quick.game.value, quick.preset.value))
      .catch((e) => (quick.querySelector(".error").textContent = e.message)));
    quick.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      state.stock = quick.stock_size?.value ?? state.stock;
      const err = quick.querySelector(".error");
      err.textContent = "";
      try {
        const game = quick.game.value;
        await quickPlay(quick.preset.value, quick.level.value, formOptions(quick), game);
      } catch (e) {
        err.textContent = e.message;
      }
    });
    const friend = document.getElementById("friend");
    friend.game.addEventListener("change", () => {
      state.ftGame = friend.game.value;
      state.ftPreset = typeOf(state.ftGame).defaultPreset;
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
        await createTable(friend.preset.value, formOptions(friend), seatList, game);
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
