// The statistics page (/stats, /stats/{player}): a player's games, wins, win rate, points and mean
// length per game and preset (GET /api/players/{name}/stats), then their recent games
// (GET /api/players/{name}/games) with links to the replay viewer and the record download. Only the
// games the player played to the end count; a game a computer finished in their name after they left
// (takeover) is listed, marked, and left out of the figures.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { getLang, botName, presetName, t } from "./i18n.js";
import { gameWord } from "./games.js";
import { gamePlayerName, levelWord } from "./people.js";
import { api, getName, getPlayerId } from "./store.js";

const RECENT = 20;


/** A stored player name as shown: bots are stored as ``bot:LEVEL``. */
function who(name) {
  return name.startsWith("bot:") ? botName(name) : name;
}

function fmt(x, digits = 1) {
  return Number(x).toLocaleString(getLang(), { maximumFractionDigits: digits });
}

function rate(wins, games) {
  return games ? Math.round((100 * wins) / games) : 0;
}

function presetRows(presets) {
  return presets.map((p) => {
    const r = rate(p.wins, p.games);
    const length = p.mean_turns ? t("st_turns", { n: fmt(p.mean_turns) }) : t("st_moves", { n: fmt(p.mean_plies) });
    return `<tr data-game="${esc(p.game)}" data-preset="${esc(p.preset)}">
      <th scope="row">${esc(gameWord(p.game))} <span class="preset">${esc(presetName(p.preset))}</span></th>
      <td class="num" data-col="games">${p.games}</td><td class="num" data-col="wins">${p.wins}</td>
      <td class="rate" data-col="rate"><span class="bar" aria-hidden="true"><span style="width:${r}%"></span></span> ${r}%</td>
      <td class="num" data-col="points">${p.points}</td><td class="num" data-col="length">${esc(length)}</td></tr>`;
  }).join("");
}

function statsTable(all) {
  const takenOver = all.reduce((a, p) => a + (p.takenOver || 0), 0);
  const note = takenOver ? `<p class="muted" id="stats-taken-over" data-n="${takenOver}">${esc(t("st_taken_over_note", { n: takenOver }))}</p>` : "";
  const presets = all.filter((p) => p.games > 0);
  if (!presets.length) return `<p class="muted" id="stats-empty">${t("st_no_games")}</p>${note}`;
  const games = presets.reduce((a, p) => a + p.games, 0);
  const wins = presets.reduce((a, p) => a + p.wins, 0);
  const points = presets.reduce((a, p) => a + p.points, 0);
  return `<p id="stats-total">${esc(t("st_total", { games, wins, rate: rate(wins, games) }))}</p>
    <div class="scroll-x"><table class="stats" id="stats-table">
      <thead><tr><th scope="col">${t("game")} · ${t("preset")}</th><th scope="col" class="num">${t("st_games")}</th>
        <th scope="col" class="num">${t("st_wins")}</th><th scope="col">${t("st_rate")}</th><th scope="col" class="num">${t("st_points")}</th>
        <th scope="col" class="num">${t("st_length")}</th></tr></thead>
      <tbody>${presetRows(presets)}</tbody>
      ${presets.length > 1 ? `<tfoot><tr><th scope="row">${t("st_all")}</th><td class="num">${games}</td><td class="num">${wins}</td>
        <td>${rate(wins, games)}%</td><td class="num">${points}</td><td></td></tr></tfoot>` : ""}
    </table></div>${note}`;
}

function outcome(game, player) {
  const mine = game.players.filter((p) => (p.playerId ? p.playerId === player : p.player === player));
  if (!game.players.some((p) => p.won)) return ["draw", t("st_draw")];
  return mine.some((p) => p.won) ? ["won", t("st_won")] : ["lost", t("st_lost")];
}

function gameItem(game, player) {
  const takenOver = game.players.some((p) => p.player === player && p.takenOver);
  const [cls, text] = takenOver ? ["taken-over", t("st_taken_over")] : outcome(game, player);
  const when = new Date(game.finishedAt * 1000).toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" });
  // each seat by the name it had at its table (a computer player by its own name)
  const seats = game.players.map((p, i) => `<span class="${p.won ? "winner" : ""}">${esc(gamePlayerName(game.tableId, game.players, p.seat ?? i))}</span>` +
    (p.isBot ? ` <span class="muted">(${esc(t("tb_bot_tag", { level: levelWord(p.player) }))})</span>` : "")).join(" – ");
  const length = game.turns ? t("st_turns", { n: game.turns }) : t("st_moves", { n: game.plies });
  const replay = `<a href="/replay/${game.id}" class="replay-link">${t("replay")}</a>`;
  return `<li data-game-id="${game.id}" class="game-item${takenOver ? " taken-over" : ""}">
      <span class="gid">#${game.id}</span>
      <span class="outcome ${cls}">${esc(text)}</span>
      <span class="gname">${esc(gameWord(game.game))} · ${esc(presetName(game.preset))}</span>
      <span class="seats">${seats}</span>
      <span class="muted">${esc(length)} · ${esc(when)}</span>
      <span class="links">${replay}
        <a href="${esc(game.recordUrl)}" class="download" download="spite-game-${game.id}.json">${t("st_download")}</a></span>
    </li>`;
}

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Draw the statistics of ``player`` (a path part, still URI-encoded: a name or a player id; default:
 * this browser's player id, shown under the name it keeps). */
export function renderStats(player) {
  const mine = player === undefined && getPlayerId() ? getPlayerId() : "";
  const name = mine ? getName() || mine : (player !== undefined ? decode(player) : getName()).trim();
  const key = mine || name;
  let data = null;
  let error = "";
  const draw = () => {
    setStatus("");
    let body;
    if (!name) body = `<p class="muted">${t("st_pick")}</p>`;
    else if (error) body = `<p class="error" id="stats-error">${esc(error)}</p>`;
    else if (!data) body = `<p class="muted">${t("connecting")}</p>`;
    else {
      const games = data.games.map((g) => gameItem(g, key)).join("");
      body = `${statsTable(data.stats.presets)}
        <h3>${t("st_recent")}</h3>
        ${games ? `<ol class="games" id="games-list">${games}</ol>` : `<p class="muted">${t("st_no_games")}</p>`}`;
    }
    main().innerHTML = `<section class="panel stats-page" data-player="${esc(name)}" data-loaded="${data ? 1 : 0}">
        <h2>${t("st_title")}${name ? `: <span id="stats-name">${esc(who(name))}</span>` : ""}</h2>
        <form id="stats-form" class="inline-form">
          <label>${t("st_player")} <input id="stats-player" name="player" maxlength="40" value="${esc(name)}" autocomplete="nickname"></label>
          <button type="submit" class="primary" id="stats-show">${t("st_show")}</button>
        </form>
        ${body}
        <p><a href="/">${t("back_lobby")}</a> · <a href="/rules">${t("rules")}</a></p>
      </section>`;
    const form = document.getElementById("stats-form");
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const other = form.player.value.trim();
      location.assign(other ? `/stats/${encodeURIComponent(other)}` : "/stats");
    });
  };
  setRerender(draw);
  draw();
  if (!key) return;
  const path = `/api/players/${encodeURIComponent(key)}`;
  Promise.all([api("GET", `${path}/stats`), api("GET", `${path}/games?limit=${RECENT}`)])
    .then(([stats, games]) => {
      data = { stats, games };
    })
    .catch((err) => {
      error = err.message;
    })
    .finally(draw);
}
