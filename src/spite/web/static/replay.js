// The replay viewer: a finished game's positions (GET /api/games/{id}/positions), stepped with
// ◀ ▶, a slider, the arrow keys (Home/End too) or a click in the move list; read-only, with every
// card shown. Each game's page folder (games.js) has its replay board (``replay-board.js`` beside its page
// module, exporting ``ReplayBoard``), loaded only when a replay of its game is opened; what the boards
// share is replay-controls.js.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { t } from "./i18n.js";
import { gameFile, gameType } from "./games.js";
import { checkRecord } from "./fair.js";
import { api } from "./store.js";

/** The replay board of ``type``'s page folder (games.js), loaded when a replay of its game is opened (a
 * replay of one family's game never fetches another family's module). */
const boardOf = async (type) => (await import(gameFile(type, "replay-board.js"))).ReplayBoard;

/** Open the replay of game ``id``. */
export async function openReplay(id) {
  setStatus(t("connecting"));
  let data;
  let Board;
  try {
    data = await api("GET", `/api/games/${encodeURIComponent(id)}/positions`);
    // the board of the page module that draws the game's tables (games.js), not a test of its name
    const type = await gameType(data.game);
    if (!type) throw new Error(t("replay_not_served", { game: data.game }));
    Board = await boardOf(type);
  } catch (err) {
    const draw = () => {
      setStatus("");
      main().innerHTML = `<section class="panel"><h2>${t("replay_title", { id: esc(id) })}</h2>
        <p class="error" id="replay-error">${esc(err.message)}</p>
        <p><a href="/api/games/${esc(id)}/record" id="replay-record" download="spite-game-${esc(id)}.json">${t("record")}</a> · <a href="/">${t("back_lobby")}</a></p></section>`;
    };
    setRerender(draw);
    draw();
    return;
  }
  const board = new Board(data);
  const start = Number(new URLSearchParams(location.search).get("ply") || 0);
  setRerender(() => board.render());
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest?.("input[type=text], select, textarea")) return;
    board.onReplayKey(ev);
  });
  board.go(Number.isFinite(start) ? start : 0);
  // the verified mark: the record's revealed secret and nonces checked in this browser (docs/fairness.md)
  checkRecord(id).then((check) => {
    data.fairCheck = check;
    board.render();
  }, () => {});
  if (board.loadReview && new URLSearchParams(location.search).get("review") === "1") board.loadReview();
}
