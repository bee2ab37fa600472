// The page's words in English and German come from the message catalogue, one JSON file per
// language (messages/en.json, messages/de.json), shared with the terminal app (spite.catalogue): the
// server answers them with the shared words and every game family's own (spite/FAMILY/words/), merged.
// The German terms are the seeds': Vorratsstapel (stock), Mittelstapel (build piles),
// Ablagestapel (discard piles), Blatt (hand), Nachziehstapel (draw pile). Move notation (H7-B2)
// stays the same in both.
//
// What the server tells a person comes as words, {key, params}: word() says them in the player's
// language (the English text the server sends along is shown only for a key the catalogue lacks).
// A text's placeholders are {name} or {name|form}; the forms are spite.catalogue's (keep in step):
// card (QH → Q♥ / D♥), a / acc / none (a rank token with its article), ranks (a list of rank
// tokens), seat (0-based → "seat 1"), level, bot, player (bot:medium → "Computer (mittel)"),
// preset (classic → "klassisch"), status (a table's: finished → "beendet").
// A text may be a plural {"one": …, "other": …}, chosen by the parameter n.

export const LANGS = ["en", "de"];

async function load(lang) {
  const res = await fetch(new URL(`./messages/${lang}.json`, import.meta.url));
  return res.json();
}

const CATALOGUE = Object.fromEntries(await Promise.all(LANGS.map(async (lang) => [lang, await load(lang)])));

// Keys added here by a branch made before the catalogue moved to JSON still work (English,
// German), but belong in messages/*.json: `python tools/move_i18n_keys.py` moves them there
// (tests/web/test_web_catalogue.py fails while any is left).
const TEXTS = {
};


export function getLang() {
  const saved = localStorage.getItem("spite.lang");
  if (LANGS.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

export function setLang(lang) {
  localStorage.setItem("spite.lang", lang);
  document.documentElement.lang = lang;
}

function entryOf(key, lang) {
  const own = CATALOGUE[lang]?.[key] ?? CATALOGUE.en[key];
  if (own !== undefined) return own;
  const legacy = TEXTS[key];
  return legacy ? legacy[LANGS.indexOf(lang)] ?? legacy[0] : undefined;
}

/** True when the catalogue has a text ``key``. */
export function hasText(key) {
  return entryOf(key, "en") !== undefined;
}

/** Text ``key`` in the page's language with ``values`` worded in (``key`` itself if unknown). */
export function t(key, values = {}) {
  const lang = getLang();
  let entry = entryOf(key, lang);
  if (entry === undefined) return key;
  if (typeof entry === "object") entry = values.n === 1 && entry.one !== undefined ? entry.one : entry.other;
  return entry.replace(/\{(\w+)(?:\|(\w+))?\}/g, (whole, name, form) => {
    if (!(name in values)) return whole;
    const value = values[name];
    return form ? (FORMS[form]?.(String(value)) ?? String(value)) : String(value);
  });
}

/** What the server said ({key, params}) in the page's language; ``english`` (the text the server
 * sent along) when the catalogue lacks the key or there are no words. */
export function word(words, english = "") {
  if (!words || !hasText(words.key)) return english || (words?.key ?? "");
  return t(words.key, words.params || {});
}

/** Several phrases (a hint's why) joined by "; "; ``english`` when there are none or one is unknown. */
export function words(list, english = "") {
  if (!list?.length || !list.every((w) => hasText(w.key))) return english;
  return list.map((w) => word(w)).join("; ");
}

/** A card token as a person reads it: "QH" → "Q♥" (German "D♥"), "X" → "Joker", Skip-Bo "7" → "7". */
export function cardName(token) {
  if (token === "X") return t("card.X");
  const suit = token.slice(-1);
  if (token.length > 1 && "SHDC".includes(suit)) {
    const r = token.slice(0, -1);
    return (hasText(`rank.short.${r}`) ? t(`rank.short.${r}`) : r) + t(`suit.${suit}`);
  }
  return token;
}

/** A preset's name in the page's language ("classic", "klassisch"); unknown ones as they are. */
export function presetName(preset) {
  return hasText(`preset.${preset}`) ? t(`preset.${preset}`) : String(preset ?? "");
}

function levelName(level) {
  return hasText(`lv_${level}`) ? t(`lv_${level}`) : level;
}

function rankList(tokens) {
  const parts = tokens.split(" ").filter(Boolean).map((tok) => t(`rank.a.${tok}`));
  return parts.length < 2 ? parts.join("") : parts.slice(0, -1).join(", ") + t("list.or") + parts.at(-1);
}

const FORMS = {
  card: cardName,
  a: (tok) => t(`rank.a.${tok}`),
  acc: (tok) => t(`rank.acc.${tok}`),
  none: (tok) => t(`rank.none.${tok}`),
  ranks: rankList,
  seat: (seat) => (/^-?\d+$/.test(seat) ? t("seat.n", { n: Number(seat) + 1 }) : seat),
  level: levelName,
  bot: (level) => t("bot", { level: levelName(level) }),
  player: (name) => (name.startsWith("bot:") ? t("bot", { level: levelName(name.slice(4)) }) : name),
  preset: presetName,
  status: (state) => (hasText(`table_status_${state}`) ? t(`table_status_${state}`) : state),
};

/** A computer player's name: "Computer (medium)", "Computer (mittel)"; ``level`` may also come as
 * the stored player name "bot:medium". */
export function botName(level) {
  const lv = String(level ?? "").replace(/^bot:/, "");
  return t("bot", { level: levelName(lv) });
}
