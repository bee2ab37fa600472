// Provably fair deals on the page (docs/fairness.md): the random nonce a seat sends (the seat link,
// seat-link.js, sends it and checks each deal with these functions), the "deal fingerprint" (the
// server's commitment, short; the whole value on hover and copy), and the check of a revealed
// secret, made here in the browser with Web Crypto (SHA-256): the commitment, and where the seed is
// known (a record) the seed from the secret and the nonces.
// The shuffles themselves are re-derived by `spite verify`, not here (docs/fairness.md says why).

import { esc } from "./html.js";
import { t } from "./i18n.js";

const SEED_TAG = "spite-seed/1";
/** A shield (the fair deal's mark), drawn: an emoji shield is missing from many fonts. */
const SHIELD = '<svg class="shield" viewBox="0 0 16 18" width="14" height="16" aria-hidden="true"><path d="M8 1 2 3.5v5c0 4 2.7 6.9 6 8.5 3.3-1.6 6-4.5 6-8.5v-5z" fill="currentColor"/></svg>';

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** 16 random bytes as 32 hex digits: a seat's nonce for the deal. */
export function newNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return hex(bytes);
}

/** The short form of a commitment: its first 12 hex digits in groups of 4 (as spite.fairness). */
export function fingerprint(commitment) {
  return [0, 4, 8].map((i) => commitment.slice(i, i + 4)).join("-");
}

function tableGame(table, game) {
  const raw = new TextEncoder().encode(table);
  return [raw.length, ...raw, (game >>> 24) & 255, (game >>> 16) & 255, (game >>> 8) & 255, game & 255];
}

async function sha256(bytes) {
  if (!globalThis.crypto?.subtle) return null; // only in a secure context (https, localhost)
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes))));
}

/** SHA-256(secret ‖ len(table) ‖ table ‖ game as 4 bytes [‖ first as 1 byte]): the commitment to
 * ``secret`` (hex); ``first`` (scheme spite-fair/2) is the seat the rules let begin, null when the cut
 * decides (spite-fair/1). Null when this browser cannot compute SHA-256. */
export function commitmentOf(secret, table, game, first = null) {
  const tail = first === null || first === undefined ? [] : [first];
  return sha256([...unhex(secret), ...tableGame(table, game), ...tail]);
}

/** The first seat a deal's commitment binds (``fair.scheme`` spite-fair/2: ``fair.first``), null for
 * spite-fair/1 (the cut decides), undefined for a scheme or seat this page does not know (which
 * then cannot check out). */
export function dealFirst(fair) {
  const scheme = fair?.scheme ?? "spite-fair/1";
  if (scheme === "spite-fair/1") return fair?.first == null ? null : undefined;
  if (scheme === "spite-fair/2") return Number.isInteger(fair.first) && fair.first >= 0 && fair.first < 255 ? fair.first : undefined;
  return undefined;
}

/** The game's seed from the secret and each seat's nonce (null: none), as spite.fairness.game_seed. */
export function seedOf(secret, table, game, nonces) {
  const bytes = [...new TextEncoder().encode(SEED_TAG), ...unhex(secret), ...tableGame(table, game), nonces.length];
  for (const nonce of nonces) {
    if (nonce == null) bytes.push(0);
    else bytes.push(1, ...unhex(nonce));
  }
  return sha256(bytes);
}

/** Check a revealed deal ``fair`` (secret, nonces, commitment, game, and with scheme spite-fair/2 the
 * seat ``first`` it binds) of table ``table``: true when the secret gives the commitment (and, when
 * ``seed`` is given, the secret and nonces give that seed), false when not, null when this browser
 * cannot compute SHA-256 (no Web Crypto outside https). */
export async function checkReveal(fair, table, seed) {
  if (!fair?.secret || !/^[0-9a-f]{64}$/.test(fair.secret)) return false;
  const first = dealFirst(fair);
  if (first === undefined) return false;
  const commitment = await commitmentOf(fair.secret, table, fair.game, first);
  if (commitment === null) return null;
  if (commitment !== fair.commitment) return false;
  if (seed === undefined) return true;
  const nonces = fair.nonces || [];
  if (!nonces.every((n) => n === null || /^[0-9a-f]{32}$/.test(n))) return false;
  return (await seedOf(fair.secret, table, fair.game, nonces)) === String(seed);
}

/** A verdict on a deal, as the seat link (seat-link.js) or the replay's check gives it: ``{status,
 * key, params}`` with status ``checking``, ``verified``, ``alarm`` or ``unsupported``; null or
 * undefined: no verdict yet (the secret comes with the game's end); the replay's true / false mean
 * verified / alarm (its "cannot check here" is ``{status: "unsupported"}``, see replayFairHTML). */
function verdictOf(verified) {
  if (verified === true) return { status: "verified", key: "fair_verified" };
  if (verified === false) return { status: "alarm", key: "fair_failed" };
  return verified || { status: "none" };
}

/** The fair deal as a small mark on the table ("🛡 fair deal ✓") that opens its details in plain
 * words (``open``): what the seal means, the fingerprint (the server's commitment, short; the whole
 * value on hover, copied on click), whether the deal is made, which seats sent no random part, and
 * whether it checked out (``verdict``: see verdictOf). An alarm is never folded away: the person
 * must not miss that the deal cannot be trusted. */
export function fairHTML(fair, verdict, name = (s) => t("seat_n", { n: s + 1 }), open = false) {
  if (!fair?.commitment) return "";
  const v = verdictOf(verdict);
  const text = v.key ? t(v.key, v.params || {}) : "";
  const alarm = v.status === "alarm";
  const line = v.status === "verified" ? `<p class="fair-ok" id="fair-verified">✓ ${esc(text)}</p>`
    : alarm ? `<strong class="fair-bad error" id="fair-verified" role="alert">✗ ${esc(text)}</strong>`
      : v.status === "unsupported" ? `<p class="muted">${esc(t("fair_no_crypto"))}</p>`
        : fair.dealt ? `<p class="muted" id="fair-pending">${esc(t(fair.secret ? "fair_checking" : "fair_pending"))}</p>`
          : `<p class="muted">${esc(t("tb_fair_before"))}</p>`;
  const none = (fair.sent || []).map((sent, s) => (sent ? null : name(s))).filter((s) => s !== null);
  const state = !fair.dealt ? t("fair_waiting") : none.length ? t("tb_fair_no_nonce", { seats: none.join(", ") }) : "";
  const flag = v.status === "verified" ? "1" : alarm ? "0" : "";
  const mark = alarm ? t("tb_fair_bad") : t("tb_fair_mark");
  const tick = v.status === "verified" ? " ✓" : alarm ? " ✗" : "";
  return `<div class="fair${alarm ? " fair-alarm" : ""}" id="fair" data-commitment="${esc(fair.commitment)}"` +
    ` data-dealt="${fair.dealt ? 1 : 0}" data-verified="${flag}" data-open="${open ? 1 : 0}"${alarm ? ` data-alarm="${esc(v.key)}"` : ""}>` +
    `<button type="button" class="fair-mark small" id="fair-mark" aria-expanded="${open}" aria-controls="fair-details">` +
    `${SHIELD} ${esc(mark)}${tick}</button>${alarm ? ` ${line}` : ""}` +
    `<div class="fair-details" id="fair-details" role="group" aria-label="${esc(t("tb_fair_mark"))}"${open ? "" : " hidden"}>` +
    `<p>${esc(t("tb_fair_explain"))}</p>` +
    `<p>${esc(t("fair_fingerprint"))}: <button type="button" class="fair-print" id="fair-copy"` +
    ` title="${esc(t("fair_copy_title", { commitment: fair.commitment }))}"><code>${esc(fingerprint(fair.commitment))}</code></button></p>` +
    `${state ? `<p class="muted fair-state">${esc(state)}</p>` : ""}${alarm ? "" : line}</div></div>`;
}

/** The mark opens and closes its details (``toggle``); the fingerprint copies the whole commitment. */
export function bindFair(root, toggle = null) {
  const mark = root.querySelector("#fair-mark");
  if (mark) {
    mark.onToggle = toggle;
    if (!mark.fairBound) {
      // a redraw that kept the element (morph) keeps its listener; the latest toggle is called
      mark.fairBound = true;
      mark.addEventListener("click", () => {
        if (mark.onToggle) mark.onToggle();
        else {
          const details = mark.closest("#fair")?.querySelector("#fair-details");
          if (details) details.hidden = !details.hidden;
          mark.setAttribute("aria-expanded", String(!details?.hidden));
        }
      });
    }
  }
  const button = root.querySelector("#fair-copy");
  if (!button || button.fairBound) return;
  button.fairBound = true;
  button.addEventListener("click", async () => {
    const full = button.closest("#fair")?.dataset.commitment || "";
    try {
      await navigator.clipboard.writeText(full);
      button.dataset.copied = "1";
    } catch {
      /* no clipboard (an insecure page): the title shows the whole value */
    }
  });
}

/** The replay viewer's check of game ``id``: its record's ``fairness`` (docs/fairness.md) against the
 * commitment and the record's seed, computed here. Resolves to {fair, verified} (fair null: the
 * game was not dealt at a fair table). */
export async function checkRecord(id) {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
  if (!res.ok) return { fair: null, verified: undefined };
  const record = await res.json();
  const proof = record.fairness;
  if (!proof?.commitment) return { fair: null, verified: undefined };
  const fair = { ...proof, dealt: true, sent: (proof.nonces || []).map((n) => n !== null) };
  const verified = await checkReveal(fair, String(proof.table), record.seed === undefined ? undefined : String(record.seed));
  return { fair, verified };
}

/** The replay's fingerprint line with its verified mark (what was checked, on hover). */
export function replayFairHTML(check) {
  if (!check?.fair) return "";
  // the replay's null: this browser cannot compute SHA-256 here (no Web Crypto outside https)
  const verdict = check.verified === null ? { status: "unsupported" } : check.verified;
  return fairHTML(check.fair, verdict).replace('id="fair-verified"', `id="fair-verified" title="${esc(t("fair_replay_title"))}"`);
}
