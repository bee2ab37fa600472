// A rating over time as a small inline SVG: one point per rated game (in the order played, evenly
// spaced), the line between them, a rating axis marked with a few round numbers and a date axis (the
// first game's date and the last's; their times when they were played on one day). A first game
// makes no line: it is said in words. No library: a few dozen points at most.

import { esc } from "./html.js";
import { getLang, t } from "./i18n.js";

/** A date (``at``: seconds since 1970) as the reader's language writes it ("Dec 6, 2026", "06.12.2026"). */
export function dateText(at) {
  return new Date(at * 1000).toLocaleDateString(getLang(), { dateStyle: "medium" });
}

function timeText(at) {
  return new Date(at * 1000).toLocaleTimeString(getLang(), { timeStyle: "short" });
}

const STEPS = [10, 20, 25, 50, 100, 200, 250, 500, 1000];

/** Round numbers for the rating axis: at most four marks that take in every value. */
export function ratingTicks(lo, hi) {
  const step = STEPS.find((s) => Math.ceil(hi / s) - Math.floor(lo / s) <= 3) ?? 2000;
  const from = Math.floor(lo / step) * step;
  let to = Math.ceil(hi / step) * step;
  if (from === to) to += step; // every value the same: the axis still has two marks that differ
  const ticks = [];
  for (let v = from; v <= to; v += step) ticks.push(v);
  return ticks;
}

/** The chart of ``points`` ([{rating, gameId, at}], oldest first), ``w`` × ``h`` pixels; a single
 * point is a sentence instead ("The first rated game, on …"). */
export function ratingChart(points, label, w = 360, h = 150) {
  if (!points.length) return "";
  if (points.length === 1) {
    const p = points[0];
    const date = Number.isFinite(p.at) ? dateText(p.at) : "";
    return `<p class="first-game" data-points="1">${esc(t("rt_first_game", { date, rating: p.rating }))}</p>`;
  }
  const left = 42;
  const right = 12;
  const top = 8;
  const bottom = 24;
  const values = points.map((p) => p.rating);
  const ticks = ratingTicks(Math.min(...values), Math.max(...values));
  const lo = ticks[0];
  const hi = ticks.at(-1);
  const x = (i) => left + ((w - left - right) * i) / (points.length - 1);
  const y = (v) => top + ((h - top - bottom) * (hi - v)) / (hi - lo);
  const grid = ticks.map((v) => `<line x1="${left}" x2="${w - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/>` +
    `<text x="${left - 6}" y="${(y(v) + 3.5).toFixed(1)}" class="axis" text-anchor="end">${v}</text>`).join("");
  const first = points[0].at;
  const last = points.at(-1).at;
  let dates = "";
  if (Number.isFinite(first) && Number.isFinite(last)) {
    const oneDay = dateText(first) === dateText(last);
    const from = oneDay ? `${dateText(first)} ${timeText(first)}` : dateText(first);
    const to = oneDay ? timeText(last) : dateText(last);
    dates = `<text x="${left}" y="${h - 6}" class="axis date" text-anchor="start">${esc(from)}</text>` +
      `<text x="${w - right}" y="${h - 6}" class="axis date" text-anchor="end">${esc(to)}</text>`;
  }
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => {
    const when = Number.isFinite(p.at) ? ` · ${dateText(p.at)}` : "";
    return `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3"><title>${esc(`${p.rating}${when}`)}</title></circle>`;
  }).join("");
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" width="100%" style="max-width:${w}px" role="img" aria-label="${esc(label)}" data-points="${points.length}">
    ${grid}<line x1="${left}" x2="${left}" y1="${top}" y2="${h - bottom}" class="frame"/>
    <line x1="${left}" x2="${w - right}" y1="${h - bottom}" y2="${h - bottom}" class="frame"/>
    ${dates}<path d="${path}" fill="none" stroke="currentColor" stroke-width="1.8"/>${dots}</svg>`;
}
