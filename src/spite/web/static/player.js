// A player's page (/player/{id-or-name}): their rating in every rules group they play rated, its
// course over time as a small chart, and their recent games with links to the replays and, for a
// turn-based game (its type says: games.js), to the review (the replay opened with ?review=1)
// (GET /api/players/{player}/ratings).

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { botName, presetName, t } from "./i18n.js";
import { gameTypes, gameWord } from "./games.js";
import { api } from "./store.js";
import { groupWord, provisionalHTML, ratingText } from "./leaderboard.js";
import { dateText, ratingChart } from "./rating-chart.js";

const who = (name) => (name.startsWith("bot:") ? botName(name) : name);

export async function renderPlayer(player) {
  let data;
  try {
    data = await api("GET", `/api/players/${encodeURIComponent(player)}/ratings`);
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error" id="player-error">${esc(err.message)}</p><a href="/ratings">${t("rt_title")}</a></section>`;
    return;
  }
  // the games played turn by turn can be reviewed; Spit and Speed cannot (real time)
  const reviewable = new Set((await gameTypes().catch(() => [])).filter((g) => !g.realtime).map((g) => g.name));
  const draw = () => {
    const name = data.handle || data.groups[0]?.name || player; // an account's handle is the player's for good
    setStatus(""); // the name heads the page
    const groups = data.groups.map((g) => `<section class="panel rating-group" data-group="${esc(g.group)}">
      <h3><span>${esc(groupWord(g.group))}: <span class="rating" data-rating="${g.rating}">${esc(ratingText(g))}</span></span>
        ${provisionalHTML(g)}</h3>
      <p class="muted">${esc(t("rt_games", { n: g.games }))}</p>
      ${ratingChart(g.history, t("rt_chart", { group: groupWord(g.group) }))}
    </section>`).join("");
    const games = data.games.map((g) => {
      const me = g.players.find((p) => p.playerId === data.playerId);
      const others = g.players.filter((p) => p !== me).map((p) => esc(who(p.player))).join(", ");
      const result = me ? (me.takenOver ? t("rt_left") : me.won ? t("rt_won") : t("rt_lost")) : "";
      // each game with its date, what it was, its outcome, and the links to watch it again
      const date = Number.isFinite(g.finishedAt)
        ? `<time class="game-date" datetime="${esc(new Date(g.finishedAt * 1000).toISOString())}">${esc(dateText(g.finishedAt))}</time>` : "";
      return `<li data-game="${g.id}">${date}<span class="game-what">${esc(gameWord(g.game))} · ${esc(presetName(g.preset))} · ${others} · <b>${esc(result)}</b></span>
        <span class="game-links"><a href="/replay/${g.id}" class="replay-link">${t("replay")}</a>${reviewable.has(g.game)
          ? ` · <a href="/replay/${g.id}?review=1" class="review-link">${t("rv_review")}</a>` : ""}</span></li>`;
    }).join("");
    main().innerHTML = `<div id="player" data-player="${esc(data.playerId)}">
      <h2>${esc(name)}</h2>${groups}
      <section class="panel"><h3>${t("rt_recent")}</h3><ul class="tables" id="player-games">${games || `<li class="muted">${t("none")}</li>`}</ul></section>
      <a href="/ratings">${t("rt_title")}</a></div>`;
  };
  setRerender(draw);
  draw();
}
