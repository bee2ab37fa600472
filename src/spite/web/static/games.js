// The games this server holds tables of, as the server lists them (GET /api/game-types): each one's
// presets with their seats, its computer levels, the options the lobby offers, and the page module
// that draws its tables (``page``: its URL in the game's own folder, /static/games/GAME/…, which the
// server serves from the game family's package) and its rules page. The page looks a table's game up
// here and opens the module named there: it never branches on a game's name, so a new game needs only
// its own folder and the server's registry entry.
//
// A page module exports ``openGame(info)`` (a table's screen); beside it in its folder ``replay-board.js``
// exports ``ReplayBoard`` (its replay board's class, replay.js) and ``rules-text.js`` may hold the game's
// rules (rules.js).

import { hasText, t } from "./i18n.js";
import { api } from "./store.js";

let loading = null;

/** Every game type, fetched once (again after a failure). */
export function gameTypes() {
  if (!loading) {
    loading = api("GET", "/api/game-types").catch((err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** The type of game ``name`` (null for a game this server does not hold). */
export async function gameType(name) {
  return (await gameTypes()).find((g) => g.name === name) || null;
}

/** A game's name for people, in the reader's language (the catalogue's game.NAME). */
export function gameWord(name) {
  return hasText(`game.${name}`) ? t(`game.${name}`) : name;
}

/** The page module that draws ``type``'s tables (it exports openGame). */
export function pageModule(type) {
  return import(new URL(type.page, location.origin).href);
}

/** The URL of module ``file`` in the folder of ``type``'s page module (its family's folder). */
export function gameFile(type, file) {
  return new URL(file, new URL(type.page, location.origin)).href;
}
