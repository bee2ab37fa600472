// English and German words of the page. The German terms are the seeds':
// Vorratsstapel (stock), Mittelstapel (build piles), Ablagestapel (discard piles),
// Blatt (hand), Nachziehstapel (draw pile). Move notation (H7-B2) stays the same in both.

const TEXTS = {
  title: ["spite", "spite"],
  lobby: ["Lobby", "Lobby"],
  your_name: ["Your name", "Dein Name"],
  quick_play: ["Quick play against the computer", "Schnell gegen den Computer"],
  friend_table: ["A table for a friend", "Ein Tisch für Freunde"],
  game: ["Game", "Spiel"],
  malice: ["Spite and Malice", "Spite and Malice"],
  spit_soon: ["Spit (not in the browser yet)", "Spit (noch nicht im Browser)"],
  preset: ["Preset", "Variante"],
  level: ["Computer level", "Stärke des Computers"],
  stock_size: ["Stock size (empty: preset's)", "Vorratsstapel-Größe (leer: wie Variante)"],
  play: ["Play", "Spielen"],
  create: ["Create table", "Tisch anlegen"],
  seat_n: ["Seat {n}", "Platz {n}"],
  person: ["a person", "ein Mensch"],
  bot: ["computer ({level})", "Computer ({level})"],
  open_tables: ["Open tables", "Offene Tische"],
  playing_tables: ["Games in play", "Laufende Spiele"],
  none: ["none", "keine"],
  join: ["Join", "Mitspielen"],
  watch: ["Watch", "Zuschauen"],
  refresh: ["Refresh", "Aktualisieren"],
  share: ["Share this link with your friend:", "Schicke diesen Link deinen Mitspielern:"],
  copy: ["Copy", "Kopieren"],
  copied: ["Copied", "Kopiert"],
  waiting_players: ["Waiting for players …", "Warte auf Mitspieler …"],
  table_open_join: ["This table has a free seat.", "An diesem Tisch ist ein Platz frei."],
  table_gone: ["This table is {status}.", "Dieser Tisch ist {status}."],
  record: ["Download the record", "Spielbericht herunterladen"],
  back_lobby: ["Back to the lobby", "Zurück zur Lobby"],
  // the table
  stock: ["Stock", "Vorratsstapel"],
  build: ["Build piles", "Mittelstapel"],
  discard: ["Discard piles", "Ablagestapel"],
  hand: ["Hand", "Blatt"],
  draw: ["Draw pile", "Nachziehstapel"],
  set_aside: ["Set aside", "Beiseite"],
  cards: ["{n} cards", "{n} Karten"],
  log: ["Log", "Protokoll"],
  turn: ["Turn {n}", "Zug {n}"],
  you: ["you", "du"],
  spectating: ["You are watching.", "Du schaust zu."],
  your_turn: ["Your turn: pick a card, then where it goes (keys: S, 1–5, D+n, then B+n or D+n).",
    "Du bist am Zug: Karte wählen, dann wohin (Tasten: S, 1–5, D+n, dann B+n oder D+n)."],
  pick_target: ["{card} → where? (highlighted) · click again to cancel", "{card} → wohin? (markiert) · nochmal klicken bricht ab"],
  to_move: ["{name} to move", "{name} ist am Zug"],
  pass: ["Pass", "Passen"],
  pass_hint: ["No card may be discarded: pass.", "Keine Karte darf abgelegt werden: passen."],
  not_started: ["The game starts when every seat is taken.", "Das Spiel beginnt, wenn alle Plätze besetzt sind."],
  connecting: ["connecting …", "verbinde …"],
  reconnecting: ["connection lost, reconnecting …", "Verbindung verloren, verbinde neu …"],
  illegal: ["Not allowed: {reason}", "Nicht erlaubt: {reason}"],
  game_over: ["Game over", "Spielende"],
  wins: ["{name} wins", "{name} gewinnt"],
  draw_result: ["A draw", "Unentschieden"],
  reason_stock: ["the last stock card was played", "die letzte Karte des Vorratsstapels ist gespielt"],
  reason_blocked: ["nobody could play", "niemand konnte spielen"],
  "reason_turn-limit": ["the turn limit", "das Zuglimit"],
  "reason_draw-pile-empty": ["the draw pile ran out", "der Nachziehstapel ist leer"],
  points: ["{n} points", "{n} Punkte"],
  stock_left: ["{name}: {n} stock cards left", "{name}: noch {n} Karten im Vorratsstapel"],
  rematch: ["Rematch", "Revanche"],
  seat_status_free: ["free", "frei"],
  seat_status_connected: ["online", "online"],
  seat_status_disconnected: ["offline", "offline"],
  seat_status_bot: ["computer", "Computer"],
  wild_as: ["{card} as {value}", "{card} als {value}"],
  value: ["value {v}", "Wert {v}"],
  empty: ["empty", "leer"],
  guest: ["guest", "Gast"],
  // the replay viewer and the statistics
  replay: ["Replay", "Wiedergabe"],
  replay_title: ["Replay of game {id}", "Wiedergabe von Spiel {id}"],
  replay_start: ["The deal", "Das Austeilen"],
  replay_ply: ["move {k} of {n}", "Spielzug {k} von {n}"],
  replay_first: ["To the deal", "Zum Austeilen"],
  replay_prev: ["One move back", "Einen Spielzug zurück"],
  replay_next: ["One move forward", "Einen Spielzug vor"],
  replay_last: ["To the end", "Zum Ende"],
  replay_keys: ["Keys: ← → step, Home/End", "Tasten: ← → blättern, Pos1/Ende"],
  earlier: ["{n} earlier moves (not seen by this page)", "{n} frühere Spielzüge (von dieser Seite nicht gesehen)"],
};

export const LANGS = ["en", "de"];

export function getLang() {
  const saved = localStorage.getItem("spite.lang");
  if (LANGS.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

export function setLang(lang) {
  localStorage.setItem("spite.lang", lang);
  document.documentElement.lang = lang;
}

export function t(key, values = {}) {
  const entry = TEXTS[key];
  if (!entry) return key;
  let text = entry[LANGS.indexOf(getLang())] ?? entry[0];
  for (const [k, v] of Object.entries(values)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}
