// The leaderboard (/ratings[?group=GROUP]): the rated players of a rules group, best first
// (GET /api/ratings; docs/ratings.md), each linking to their page.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { t } from "./i18n.js";
import { api } from "./store.js";

export const groupWord = (group) => t(`rg_${group}`);

/** A rating as shown: the number, and ``± N`` while it is provisional. */
export function ratingText(r) {
  return r.provisional ? `${r.rating} ± ${r.uncertainty}` : String(r.rating);
}

/** A provisional rating says in words how many more games it takes ("provisional: 4 more games"). */
export function provisionalHTML(r) {
  if (!r.provisional) return "";
  const text = Number.isFinite(r.provisionalGames) && r.provisionalGames > 0
    ? t("rt_provisional_games", { n: r.provisionalGames }) : t("rt_provisional");
  return `<span class="muted provisional">${esc(text)}</span>`;
}

export async function renderLeaderboard(group) {
  let board;
  try {
    // no group named: the server's first (the first registered game's first rules group)
    board = await api("GET", group ? `/api/ratings?group=${encodeURIComponent(group)}` : "/api/ratings");
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error">${esc(err.message)}</p></section>`;
    return;
  }
  const draw = () => {
    setStatus(""); // the top bar marks the page; a status saying "Ratings" again would read as a link
    const tabs = board.groups.map((g) => `<a href="/ratings?group=${esc(g)}" class="btn small${g === board.group ? " active" : ""}" data-group="${esc(g)}"${g === board.group ? ' aria-current="page"' : ""}>${esc(groupWord(g))}</a>`).join(" ");
    const rows = board.players.map((p, i) => `<tr data-player="${esc(p.playerId)}"><td class="num">${i + 1}</td>
      <th scope="row"><a href="/player/${esc(p.playerId)}">${esc(p.handle || p.name)}</a></th>
      <td class="num" data-col="rating">${esc(ratingText(p))}${p.provisional ? ` ${provisionalHTML(p)}` : ""}</td>
      <td class="num">${p.games}</td></tr>`).join("");
    main().innerHTML = `<section class="panel" id="leaderboard" data-group="${esc(board.group)}">
      <h2>${t("rt_title")}: ${esc(groupWord(board.group))}</h2>
      <nav class="groups">${tabs}</nav>
      ${rows ? `<div class="scroll-x"><table class="stats" id="board"><thead><tr><th scope="col" class="num">#</th><th scope="col">${t("rt_player")}</th>
        <th scope="col" class="num">${t("rt_rating")}</th><th scope="col" class="num">${t("st_games")}</th></tr></thead><tbody>${rows}</tbody></table></div>`
        : `<p class="muted" id="board-empty">${t("rt_empty")}</p>`}
      <p class="muted">${t("rt_explain")}</p>
    </section>`;
  };
  setRerender(draw);
  draw();
}
