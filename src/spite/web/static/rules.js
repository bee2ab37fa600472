// The rules pages (/rules/GAME) in English and German: each game's text lives in its family's page
// folder (``rules-text.js`` beside its page module, games.js), loaded when its page is opened; this
// module draws the one asked for, with a tab for each rules page the server's games name.
// The page's language buttons switch them.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { getLang, presetName } from "./i18n.js";
import { gameFile, gameTypes } from "./games.js";

const NAV = {
  en: { contents: "Contents", back: "Back to the lobby",
    stats: "Statistics", term: "Term", seed: "German (the rule texts)", unknown: "There are no rules for “{game}”." },
  de: { contents: "Inhalt", back: "Zurück zur Lobby",
    stats: "Statistik", term: "Begriff", seed: "Deutsch (die Regeltexte)", unknown: "Für „{game}“ gibt es keine Regeln." },
};

/** Each rules page the server's games have (a game type's ``rules``), in the registry's order, with the
 * URL of its text (in the folder of the first game naming it). */
async function rulesPages() {
  const pages = new Map();
  for (const type of await gameTypes()) {
    if (type.rules && type.page && !pages.has(type.rules)) pages.set(type.rules, gameFile(type, "rules-text.js"));
  }
  return pages;
}

/** The rules text of each rules page (its module's RULES), loaded once. */
const loaded = new Map();
function rulesText(url) {
  if (!loaded.has(url)) loaded.set(url, import(url).then((mod) => mod.RULES).catch(() => null));
  return loaded.get(url);
}

function termsHTML(rules, nav, lang) {
  const heading = lang === "de" ? "Begriffe" : "Terms";
  const rows = rules.terms.map(([en, de]) => `<tr><td>${esc(en)}</td><td lang="de">${esc(de)}</td></tr>`).join("");
  return `<section id="terms"><h3>${heading}</h3><table class="terms"><thead><tr><th scope="col">${nav.term}</th>
    <th scope="col">${nav.seed}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** Draw the rules page ``game`` (a game type's ``rules``) in the page's language. */
export async function renderRules(game) {
  const pages = await rulesPages().catch(() => new Map());
  const texts = new Map(await Promise.all([...pages].map(async ([name, url]) => [name, await rulesText(url)])));
  const draw = () => {
    const lang = getLang() === "de" ? "de" : "en";
    const nav = NAV[lang];
    const tabs = [...texts].filter(([, rules]) => rules).map(([g, rules]) =>
      `<a href="/rules/${esc(g)}" class="tab${g === game ? " active" : ""}"${g === game ? ' aria-current="page"' : ""}>${esc(rules.tab[lang])}</a>`).join("");
    const rules = texts.get(game);
    if (!rules) {
      setStatus("");
      main().innerHTML = `<section class="panel rules"><nav class="tabs">${tabs}</nav>
        <p class="error" id="rules-error">${esc(nav.unknown.replace("{game}", game))}</p><p><a href="/">${nav.back}</a></p></section>`;
      return;
    }
    const text = rules[lang];
    const toc = text.sections.map(([id, h]) => `<li><a href="#${id}">${esc(h)}</a></li>`).join("");
    // each variant by its name in the page's language (its preset's word, not its id)
    const named = (html) => html.replace(/<dt>([a-z-]+)<\/dt>/g, (whole, id) => `<dt data-preset="${id}">${esc(presetName(id))}</dt>`);
    const body = text.sections.map(([id, h, html]) => `<section id="${id}"><h3>${esc(h)}</h3>${named(html)}</section>`).join("");
    setStatus("");
    main().innerHTML = `<article class="panel rules" data-game="${esc(game)}" data-lang="${lang}">
      <nav class="tabs" aria-label="${nav.contents}">${tabs}</nav>
      <h2>${esc(text.title)}</h2>
      <p class="lead">${text.lead}</p>
      <nav class="toc" aria-label="${nav.contents}"><ol>${toc}<li><a href="#terms">${lang === "de" ? "Begriffe" : "Terms"}</a></li></ol></nav>
      ${body}
      ${termsHTML(rules, nav, lang)}
      <p><a href="/">${nav.back}</a> · <a href="/stats">${nav.stats}</a></p>
    </article>`;
  };
  setRerender(draw);
  draw();
}
