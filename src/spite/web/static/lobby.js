// The lobby: a tile for each game of the server's list (games.js) with a picture of its table, drawn
// with the page's own deck (cards.js) from the cards the server's game type names, and one click to
// play the computer or to seek a person (rated or casual chosen right there); the open tables to
// join and the games in play to watch; and, one click away, more options: another variant, the
// computer's level, the stock size, rated play against the computer, a table for a friend with
// its seats; the tournaments open or in play, and a form to make one (tournament.js shows it). The
// lobby names no game itself: everything comes from GET /api/game-types.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { botName, hasText, presetName, t } from "./i18n.js";
import { gameTypes, gameWord } from "./games.js";
import { backSVG, cardSVG, slotSVG } from "./cards.js";
import { levelWord as levelOf, seatLabel, seatNames } from "./people.js";
import { api, getName, getPlayerKey, saveSeat, setName } from "./store.js";

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
 * a party, three with partners), casual unless ``rated``; on success the browser goes to the table. */
export async function quickPlay(preset, level, opts, game, rated = false) {
  const joined = await api("POST", "/api/quickplay", { name: playerName(), game, preset, level, options: opts, rated });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

/** Create a table (seats: list of {kind, level}); the creator takes the first person seat. */
export async function createTable(preset, opts, seatList, game) {
  const joined = await api("POST", "/api/tables", { game, preset, options: opts, seats: seatList, name: playerName() });
  saveSeat(joined.table.id, joined.seat, joined.token);
  location.assign(joined.table.link);
}

// The games, their presets (with seats), computer levels, lobby options and pictures: the server's
// list (games.js); set by renderLobby before anything is drawn.
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

/** A preset to play at one click: the quick game its type names (its default preset unless it says). */
const quickPreset = (game) => typeOf(game).quickPreset || typeOf(game).defaultPreset;

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

// ------------------------------------------------------------------ the tiles
/** A small picture of a game's table: the rows of cards its type names (``#`` a back, ``""`` an empty
 * place), from the far side of the table to the near one. One image for screen readers. */
function pictureHTML(type) {
  const card = (tok) => (tok === "#" ? `<span class="card">${backSVG()}</span>`
    : tok === "" ? `<span class="card slot">${slotSVG()}</span>` : `<span class="card">${cardSVG(tok)}</span>`);
  const rows = (type.picture || []).map((row) => `<span class="pic-row">${row.map(card).join("")}</span>`).join("");
  return `<div class="tile-pic" role="img" aria-label="${esc(t("lb_picture", { game: gameWord(type.name) }))}">${rows}</div>`;
}

/** A game's tile: its picture, its name, the variant one click plays, and the two ways to play. */
function tileHTML(type, rated) {
  const name = type.name;
  const blurb = hasText(`game_blurb.${name}`) ? `<p class="tile-blurb">${esc(t(`game_blurb.${name}`))}</p>` : "";
  // the variant one click plays, unless it is the game itself by another word ("Spit": Spit)
  const preset = presetName(quickPreset(name));
  const variant = preset !== gameWord(name) ? `<p class="tile-variant muted">${esc(t("lb_variant", { preset }))}</p>` : "";
  const radio = (value, label) => `<label class="switch-option"><input type="radio" name="rated-${esc(name)}" value="${value}"` +
    `${(value === "rated") === rated ? " checked" : ""}><span>${esc(t(label))}</span></label>`;
  return `<article class="tile" data-game="${esc(name)}" aria-labelledby="tile-${esc(name)}">
    ${pictureHTML(type)}
    <div class="tile-body">
      <h2 id="tile-${esc(name)}">${esc(gameWord(name))}</h2>
      ${blurb}
      ${variant}
      <div class="tile-actions">
        <button type="button" class="primary" data-play="computer">${esc(t("lb_play_computer"))}</button>
        <div class="seek-choice" role="group" aria-label="${esc(t("lb_rated_choice"))}">
          <button type="button" data-play="person">${esc(t("seek_play"))}</button>
          <span class="rated-switch">${radio("rated", "seek_rated")}${radio("casual", "seek_casual")}</span>
        </div>
      </div>
      <button type="button" class="small more-link" data-more aria-controls="more">${esc(t("lb_more"))}</button>
      <p class="error" role="alert"></p>
    </div>
  </article>`;
}

// ------------------------------------------------------------------ open tables, games in play
function tableLine(info, action) {
  // a computer player by the name it has at that table, with its level
  const names = seatNames(info.id, info.seats);
  const who = info.seats.map((s, i) => (s.kind === "bot" ? `${esc(names[i])} <span class="muted">(${esc(t("tb_bot_tag", { level: levelOf(s.level) }))})</span>`
    : s.player ? esc(s.player) : "—")).join(" · ");
  const label = action === "join" ? t("join") : t("watch");
  const rated = info.rated ? ` <span class="rated-tag">${esc(t("seek_rated"))}</span>` : "";
  return `<li data-table="${esc(info.id)}" data-game="${esc(info.game)}"><span class="tname">${esc(gameWord(info.game))} · ${esc(presetName(info.preset))}${rated}</span>
    <span class="tseats">${who}</span>
    <a class="btn" data-action="${action}" href="${esc(info.link)}${action === "watch" ? "?watch=1" : ""}">${label}</a></li>`;
}

async function loadLists() {
  const openList = document.getElementById("open-list");
  const playList = document.getElementById("play-list");
  if (!openList || !playList) return false;
  try {
    const [open, playing] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/tables?status=playing")]);
    const known = (l) => l.filter((x) => types.some((g) => g.name === x.game));
    openList.innerHTML = known(open).map((x) => tableLine(x, "join")).join("") || `<li class="muted empty">${esc(t("lb_no_open"))}</li>`;
    playList.innerHTML = known(playing).map((x) => tableLine(x, "watch")).join("") || `<li class="muted empty">${esc(t("lb_no_play"))}</li>`;
  } catch (err) {
    openList.innerHTML = `<li class="error">${esc(err.message)}</li>`;
  }
  await loadTourneys();
  return true;
}

/** Ask for the lists again every so often while the lobby is on screen (tables come and go). */
const LIST_REFRESH_MS = 10_000;
let listTimer = null;

function keepListsFresh() {
  clearInterval(listTimer);
  listTimer = setInterval(async () => {
    if (document.hidden) return;
    if (!(await loadLists())) clearInterval(listTimer); // the lobby has gone (a seek's wait, a table)
  }, LIST_REFRESH_MS);
}

// ------------------------------------------------------------------ tournaments
/** The two-player presets of ``game``: those a tournament plays. */
const duelPresets = (game) => typeOf(game).presets.filter((p) => p.seats === 2).map((p) => p.name);

function tourneyLine(info) {
  const what = `${gameWord(info.game)} · ${presetName(info.preset)}`;
  const system = info.system === "arena" ? t("tn_what_arena", { n: info.minutes ?? 0 }) : t("tn_what_swiss", { n: info.roundCount ?? 0 });
  const state = hasText(`tn_state_${info.state}`) ? t(`tn_state_${info.state}`) : info.state;
  const count = t("tn_entrants", { n: (info.entrants || []).filter((e) => !e.withdrawn).length });
  const rated = info.rated ? ` <span class="rated-tag">${esc(t("seek_rated"))}</span>` : "";
  return `<li data-tournament="${esc(info.id)}" data-state="${esc(info.state)}"><span class="tname">${esc(what)}${rated}</span>
    <span class="tseats">${esc(system)} · ${esc(state)} · ${esc(count)}</span>
    <a class="btn" href="/tournament/${esc(encodeURIComponent(info.id))}">${esc(t("tn_open"))}</a></li>`;
}

async function loadTourneys() {
  const list = document.getElementById("tourney-list");
  if (!list) return;
  try {
    const [open, playing] = await Promise.all([api("GET", "/api/tournaments?state=open"), api("GET", "/api/tournaments?state=playing")]);
    const known = [...open.tournaments, ...playing.tournaments].filter((x) => types.some((g) => g.name === x.game));
    list.innerHTML = known.map(tourneyLine).join("") || `<li class="muted empty">${esc(t("tn_lobby_none"))}</li>`;
  } catch (err) {
    list.innerHTML = `<li class="error">${esc(err.message)}</li>`;
  }
}

function tourneyFormHTML(state) {
  const swiss = state.tnSystem === "swiss";
  return `<form id="tourney-form">
    <h3>${esc(t("tn_create_title"))}</h3>
    <label>${t("game")} <select name="game">${gameOptions(state.tnGame)}</select></label>
    <label>${t("preset")} <select name="preset">${options(duelPresets(state.tnGame), state.tnPreset, presetName)}</select></label>
    <label>${esc(t("tn_system"))} <select name="system">${options(["swiss", "arena"], state.tnSystem, (v) => t(`tn_system_${v}`))}</select></label>
    ${swiss ? `<label>${esc(t("tn_rounds"))} <input name="rounds" type="number" min="1" max="15" value="${esc(state.tnRounds)}" required></label>`
      : `<label>${esc(t("tn_minutes"))} <input name="minutes" type="number" min="1" max="240" value="${esc(state.tnMinutes)}" required></label>`}
    ${offers(state.tnGame, "stock_size") ? `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50" value="${esc(state.tnStock)}"></label>` : ""}
    <label class="check"><input type="checkbox" name="rated"${state.tnRated ? " checked" : ""}> ${esc(t("tn_rated_box"))}</label>
    <button type="submit" class="primary" id="tourney-create">${esc(t("tn_create"))}</button>
    <p class="error" role="alert"></p>
  </form>`;
}

/** Make a tournament; this browser is its maker (it starts it and adds computers); the page goes there. */
async function createTourney(form) {
  const system = form.system.value;
  const body = { game: form.game.value, preset: form.preset.value, options: formOptions(form), system,
    rated: form.rated.checked, name: playerName(), playerKey: getPlayerKey() };
  if (system === "swiss") body.rounds = Number(form.rounds.value);
  else body.minutes = Number(form.minutes.value);
  const info = await api("POST", "/api/tournaments", body);
  (await import("./tournament.js")).rememberMade(info.id);
  location.assign(`/tournament/${encodeURIComponent(info.id)}`);
}

// ------------------------------------------------------------------ the page
export async function renderLobby() {
  try {
    types = await gameTypes();
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(err.message)}</p></section>`;
    return;
  }
  const first = types[0].name;
  const state = {
    qpPreset: quickPreset(first), qpLevel: typeOf(first).defaultLevel, ftPreset: typeOf(first).defaultPreset,
    stock: "", qpGame: first, ftGame: first, qpRated: false, more: false,
    rated: Object.fromEntries(types.map((g) => [g.name, true])), // a person is sought rated unless asked otherwise
    tnGame: first, tnPreset: duelPresets(first).includes(quickPreset(first)) ? quickPreset(first) : duelPresets(first)[0],
    tnSystem: "swiss", tnRounds: 3, tnMinutes: 30, tnRated: false, tnStock: "",
  };
  const draw = () => {
    setStatus("");
    main().innerHTML = `
    <div class="lobby">
      <div class="lobby-name">
        <label for="name">${t("your_name")}</label>
        <input id="name" name="name" maxlength="40" value="${esc(getName())}" placeholder="${esc(t("guest"))}" autocomplete="nickname">
      </div>
      <section class="tiles" aria-label="${esc(t("lb_games"))}">
        ${types.map((g) => tileHTML(g, state.rated[g.name])).join("")}
      </section>
      <section class="panel lobby-tables">
        <div class="lists">
          <div><h2>${t("open_tables")}</h2><ul id="open-list" class="tables"></ul></div>
          <div><h2>${t("playing_tables")}</h2><ul id="play-list" class="tables"></ul></div>
        </div>
        <button type="button" id="refresh" class="small">${t("refresh")}</button>
      </section>
      <section class="panel lobby-tourneys" id="tourneys" aria-labelledby="tourneys-title">
        <h2 id="tourneys-title">${esc(t("tn_lobby_title"))}</h2>
        <div class="more-forms">
          <ul id="tourney-list" class="tables tourney-list" aria-live="polite"></ul>
          ${tourneyFormHTML(state)}
        </div>
      </section>
      <details class="panel more" id="more"${state.more ? " open" : ""}>
        <summary>${esc(t("lb_more_title"))}</summary>
        <div class="more-forms">
          <form id="quick">
            <h2>${t("quick_play")}</h2>
            <label>${t("game")} <select name="game">${gameOptions(state.qpGame)}</select></label>
            <label>${t("preset")} <select name="preset">${options(presetsOf(state.qpGame), state.qpPreset, presetName)}</select></label>
            <label>${t("level")} <select name="level">${options(levelsOf(state.qpGame), state.qpLevel, levelWord)}</select></label>
            ${offers(state.qpGame, "stock_size") ? `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50" value="${esc(state.stock)}"></label>` : ""}
            <label class="check"><input type="checkbox" name="rated"${state.qpRated ? " checked" : ""}> ${esc(t("lb_rated_box"))}</label>
            <p class="muted" id="quick-seats" data-bots="${botsOf(state.qpPreset, state.qpGame)}">${esc(t("qp_bots", { n: botsOf(state.qpPreset, state.qpGame) }))}</p>
            <div class="buttons">
              <button type="submit" class="primary" id="quick-play">${t("play")}</button>
              <button type="button" id="seek-play" data-seek>${t("seek_play")}</button>
            </div>
            <p class="error" role="alert"></p>
          </form>
          <form id="friend">
            <h2>${t("friend_table")}</h2>
            <label>${t("game")} <select name="game">${gameOptions(state.ftGame)}</select></label>
            <label>${t("preset")} <select name="preset">${options(presetsOf(state.ftGame), state.ftPreset, presetName)}</select></label>
            ${offers(state.ftGame, "stock_size") ? `<label>${t("stock_size")} <input name="stock_size" type="number" min="1" max="50"></label>` : ""}
            <div id="seats">${seatsRows(state.ftPreset, state.ftGame)}</div>
            <button type="submit" id="create-table">${t("create")}</button>
            <p class="error" role="alert"></p>
          </form>
        </div>
      </details>
    </div>`;
    const name = document.getElementById("name");
    name.addEventListener("change", () => setName(name.value));
    name.addEventListener("input", () => setName(name.value));

    // the tiles: one click to play
    for (const tile of document.querySelectorAll(".tile[data-game]")) {
      const game = tile.dataset.game;
      const err = tile.querySelector(".error");
      const busy = (on) => tile.querySelectorAll("[data-play]").forEach((b) => (b.disabled = on));
      tile.querySelector("[data-play=computer]").addEventListener("click", async () => {
        err.textContent = "";
        busy(true);
        try {
          await quickPlay(quickPreset(game), typeOf(game).defaultLevel, {}, game);
        } catch (e) {
          err.textContent = e.message;
          busy(false);
        }
      });
      tile.querySelector("[data-play=person]").addEventListener("click", async () => {
        err.textContent = "";
        busy(true);
        try {
          const mod = await import("./seek.js");
          await mod.startSeek(game, quickPreset(game), state.rated[game]);
        } catch (e) {
          // still in the lobby (the seek was refused): say why at the tile
          if (err.isConnected) err.textContent = e.message;
          busy(false);
        }
      });
      for (const radio of tile.querySelectorAll("input[type=radio]")) {
        radio.addEventListener("change", () => (state.rated[game] = radio.value === "rated"));
      }
      tile.querySelector("[data-more]").addEventListener("click", () => {
        // more options for this game: its variants, levels and options, one click away
        state.qpGame = game;
        state.qpPreset = quickPreset(game);
        state.qpLevel = typeOf(game).defaultLevel;
        state.ftGame = game;
        state.ftPreset = typeOf(game).defaultPreset;
        state.more = true;
        draw();
        const more = document.getElementById("more");
        more.scrollIntoView({ block: "start", behavior: "smooth" });
        more.querySelector("#quick select[name=preset]").focus({ preventScroll: true });
      });
    }

    // more options
    const more = document.getElementById("more");
    more.addEventListener("toggle", () => (state.more = more.open));
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
    quick.rated.addEventListener("change", () => (state.qpRated = quick.rated.checked));
    document.getElementById("seek-play").addEventListener("click", () => import("./seek.js")
      .then((mod) => mod.startSeek(quick.game.value, quick.preset.value, quick.rated.checked))
      .catch((e) => {
        const err = document.querySelector("#quick .error");
        if (err) err.textContent = e.message;
      }));
    quick.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      state.stock = quick.stock_size?.value ?? state.stock;
      const err = quick.querySelector(".error");
      err.textContent = "";
      try {
        await quickPlay(quick.preset.value, quick.level.value, formOptions(quick), quick.game.value, quick.rated.checked);
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
        await createTable(friend.preset.value, formOptions(friend), seatList, friend.game.value);
      } catch (e) {
        err.textContent = e.message;
      }
    });
    const tourney = document.getElementById("tourney-form");
    const keepTourney = () => {
      state.tnRated = tourney.rated.checked;
      if (tourney.rounds) state.tnRounds = tourney.rounds.value;
      if (tourney.minutes) state.tnMinutes = tourney.minutes.value;
      if (tourney.stock_size) state.tnStock = tourney.stock_size.value;
    };
    tourney.game.addEventListener("change", () => {
      keepTourney();
      state.tnGame = tourney.game.value;
      state.tnPreset = duelPresets(state.tnGame)[0];
      draw();
      document.querySelector("#tourney-form select[name=game]").focus();
    });
    tourney.preset.addEventListener("change", () => (state.tnPreset = tourney.preset.value));
    tourney.system.addEventListener("change", () => {
      keepTourney();
      state.tnSystem = tourney.system.value;
      draw();
      document.querySelector("#tourney-form select[name=system]").focus();
    });
    tourney.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      keepTourney();
      const err = tourney.querySelector(".error");
      err.textContent = "";
      try {
        await createTourney(tourney);
      } catch (e) {
        err.textContent = e.message;
      }
    });
    document.getElementById("refresh").addEventListener("click", loadLists);
    loadLists();
    keepListsFresh();
  };
  setRerender(draw);
  draw();
}
