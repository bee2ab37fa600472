// A rating over time as a small inline SVG: one point per rated game, the line between them, the
// lowest and highest rating written beside it. No library: a few dozen points at most.

import { esc } from "./html.js";

/** The chart of ``points`` ([{rating, gameId}], oldest first) ``w`` × ``h`` pixels. */
export function ratingChart(points, label, w = 320, h = 110) {
  if (!points.length) return "";
  const pad = 26;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(hi - lo, 20);
  const x = (i) => (points.length === 1 ? w / 2 : pad + ((w - 2 * pad) * i) / (points.length - 1));
  const y = (v) => h - 12 - ((h - 24) * (v - lo)) / span;
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="2.5"><title>${esc(String(p.rating))}</title></circle>`).join("");
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" width="100%" style="max-width:${w}px" role="img" aria-label="${esc(label)}" data-points="${points.length}">
    <text x="2" y="12" class="axis">${hi}</text><text x="2" y="${h - 2}" class="axis">${lo}</text>
    <path d="${path}" fill="none" stroke="currentColor" stroke-width="1.5"/>${dots}</svg>`;
}
