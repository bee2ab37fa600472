// Small helpers every screen of the page shares.

/** Text made safe to put inside HTML (element content or a quoted attribute). */
export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** Legal moves as source → set of targets ("S" → {"B1","B3"}, "T1" → {"C2"}); moves without "-"
 * ("pass", "spit", "slap C1") are left out. */
export function parseLegal(legal) {
  const map = new Map();
  for (const m of legal) {
    const i = m.indexOf("-");
    if (i < 0) continue;
    const src = m.slice(0, i);
    if (!map.has(src)) map.set(src, new Set());
    map.get(src).add(m.slice(i + 1));
  }
  return map;
}
