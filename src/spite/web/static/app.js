// The page: a tiny router (/, /t/{id}, /tournament/{id}, /replay/{id}, /stats[/{player}], /ratings, /player/{id}, /rules/{game}), the lobby, and each game's table from its own module.
// It only uses what the server gives a seat (docs/protocol.md): TableInfo, the seat's view, its legal moves.

import { esc } from "./html.js";
import { LANGS, getLang, setLang, t } from "./i18n.js";
import { gameType, gameTypes, pageModule } from "./games.js";
import { main, redraw, setStatus } from "./shell.js";
import { api } from "./store.js";

// Each screen is loaded when its route is opened (import()): one game's table never
// fetches another game's screen, the rules texts, the statistics or the replay viewer.


function applyLang() {
  document.documentElement.lang = getLang();
  for (const b of document.querySelectorAll("button.lang")) {
    b.classList.toggle("active", b.dataset.lang === getLang());
    b.setAttribute("aria-pressed", String(b.dataset.lang === getLang()));
  }
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const handle = localStorage.getItem("spite.handle"); // signed in (account.js): the account's handle in the bar
  if (handle) document.getElementById("nav-account").textContent = handle;
}

/** The page of table ``id``: its TableInfo fetched once, then the screen of its game. */
async function openAnyTable(id) {
  setStatus(t("connecting"));
  let info;
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(err.message)}</p><a href="/">${t("back_lobby")}</a></section>`;
    return;
  }
  let type;
  try {
    type = await gameType(info.game);
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(err.message)}</p><a href="/">${t("back_lobby")}</a></section>`;
    return;
  }
  if (!type) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(t("unknown_game", { game: info.game }))}</p><a href="/">${t("back_lobby")}</a></section>`;
    return;
  }
  document.getElementById("nav-rules").href = `/rules/${type.rules}`;
  (await pageModule(type)).openGame(info);
}

/** The top bar's link to the page on screen is marked as the current one (for the eye and for screen readers). */
const NAV_OF = { lobby: "nav-play", tournament: "nav-play", stats: "nav-stats", ratings: "nav-ratings", player: "nav-ratings", rules: "nav-rules",
  account: "nav-account" };

function markNav() {
  for (const a of document.querySelectorAll(".nav a")) {
    if (a.id === NAV_OF[document.body.dataset.page]) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function route() {
  pickPage();
  markNav();
}

function pickPage() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/))) {
    document.body.dataset.page = "table";
    openAnyTable(m[1]);
  } else if ((m = path.match(/^\/replay\/(\d+)\/?$/))) {
    document.body.dataset.page = "replay";
    import("./replay.js").then((mod) => mod.openReplay(m[1]));
  } else if ((m = path.match(/^\/stats(?:\/([^/]+))?\/?$/))) {
    document.body.dataset.page = "stats";
    import("./stats.js").then((mod) => mod.renderStats(m[1]));
  } else if (path.match(/^\/ratings\/?$/)) {
    document.body.dataset.page = "ratings";
    import("./leaderboard.js").then((mod) => mod.renderLeaderboard(new URLSearchParams(location.search).get("group")));
  } else if ((m = path.match(/^\/player\/([^/]+)\/?$/))) {
    document.body.dataset.page = "player";
    import("./player.js").then((mod) => mod.renderPlayer(decodeURIComponent(m[1])));
  } else if ((m = path.match(/^\/tournament\/([A-Za-z0-9_-]+)\/?$/))) {
    document.body.dataset.page = "tournament";
    import("./tournament.js").then((mod) => mod.renderTournament(m[1]));
  } else if (path.match(/^\/account\/?$/)) {
    document.body.dataset.page = "account";
    import("./account.js").then((mod) => mod.renderAccount());
  } else if ((m = path.match(/^\/rules(?:\/([a-z-]+))?\/?$/))) {
    document.body.dataset.page = "rules";
    const name = m[1];
    Promise.all([import("./rules.js"), name ? null : gameTypes()])
      .then(([mod, types]) => mod.renderRules(name || types[0].rules));
  } else {
    document.body.dataset.page = "lobby";
    import("./lobby.js").then((mod) => mod.renderLobby());
  }
}

for (const b of document.querySelectorAll("button.lang")) {
  b.addEventListener("click", () => {
    if (!LANGS.includes(b.dataset.lang)) return;
    setLang(b.dataset.lang);
    applyLang();
    redraw();
  });
}
applyLang();
route();
