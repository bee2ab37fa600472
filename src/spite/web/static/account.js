// The account page (/account, docs/accounts.md): make an account with a passkey, sign in with one, link
// this device by a code another device shows (/account#link=CODE from its QR code); once signed in:
// the handle, a code to link another device, the signed-in devices and the passkeys, each removable,
// and "sign out everywhere". The session is an HttpOnly cookie the page never sees; the browser sends
// it with the page's own requests (and their Origin, which the server checks).

import { esc } from "./html.js";
import { t, word } from "./i18n.js";
import { main, setRerender, setStatus } from "./shell.js";
import { getPlayerKey } from "./store.js";

const b64 = {
  /** base64url text to bytes. */
  bytes(text) {
    const plain = text.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  },
  /** bytes (an ArrayBuffer) to base64url text. */
  text(buffer) {
    return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

/** The server's creation options (JSON) as navigator.credentials.create wants them. */
function creationOptions(o) {
  return { ...o, challenge: b64.bytes(o.challenge), user: { ...o.user, id: b64.bytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: b64.bytes(c.id) })) };
}

function requestOptions(o) {
  return { ...o, challenge: b64.bytes(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: b64.bytes(c.id) })) };
}

/** A credential as the server reads it (PublicKeyCredential.toJSON, written out for older browsers). */
function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: b64.text(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = b64.text(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = b64.text(r.authenticatorData);
    response.signature = b64.text(r.signature);
    if (r.userHandle) response.userHandle = b64.text(r.userHandle);
  }
  return { id: cred.id, rawId: b64.text(cred.rawId), type: cred.type, response,
    authenticatorAttachment: cred.authenticatorAttachment || undefined, clientExtensionResults: {} };
}

/** A refusal of the server: its words in this language (the code's), else its one line. */
class Refused extends Error {
  constructor(data, status) {
    super(word(data.words, typeof data.detail === "string" ? data.detail : String(status)));
    this.code = data.code;
    this.status = status;
  }
}

async function call(method, path, body) {
  const res = await fetch(path, {
    method, credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refused(data, res.status);
  return data;
}

/** The seat (and its token) the signed-in account holds at table ``id``, taken from another of its
 * devices, or null (not signed in here, or no seat of the account there). */
export async function accountSeat(id) {
  if (!localStorage.getItem("spite.handle")) return null;
  try {
    const found = await call("GET", `/api/account/seat?table=${encodeURIComponent(id)}`);
    return found.seat === null ? null : { seat: found.seat, token: found.token };
  } catch {
    return null;
  }
}

/** The signed-in account (handle, player id, devices, passkeys), or null. */
export async function currentAccount() {
  try {
    return await call("GET", "/api/account");
  } catch (err) {
    if (err.status === 401) return null;
    throw err;
  }
}

/** The top bar's Account link says who is signed in here (kept for the other pages: app.js). */
function showHandle(handle) {
  if (handle) localStorage.setItem("spite.handle", handle);
  else localStorage.removeItem("spite.handle");
  const nav = document.getElementById("nav-account");
  if (nav) nav.textContent = handle || t("nav_account");
}

const passkeysHere = () => typeof window.PublicKeyCredential === "function" && window.isSecureContext;

let shown = { account: null, link: null, note: "", error: "" };

function deviceHTML(d) {
  const kind = t(d.kind === "terminal" ? "acct_kind_terminal" : "acct_kind_browser");
  const since = t("acct_since", { when: new Date(d.createdAt * 1000).toLocaleDateString() });
  return `<li data-device="${esc(d.id)}"><span>${esc(d.name)} (${esc(kind)}) · ${esc(since)}${d.current
    ? ` · <b>${t("acct_this_device")}</b>` : ""}</span>
    <button type="button" class="remove-device" data-id="${esc(d.id)}">${t("acct_remove")}</button></li>`;
}

function passkeyHTML(p) {
  const since = t("acct_since", { when: new Date(p.createdAt * 1000).toLocaleDateString() });
  return `<li data-passkey="${esc(p.id)}"><span>${esc(p.name)} · ${esc(since)}</span>
    <button type="button" class="remove-passkey" data-id="${esc(p.id)}">${t("acct_remove")}</button></li>`;
}

function signedInHTML(a) {
  const link = shown.link;
  return `<section class="panel" id="account" data-handle="${esc(a.handle)}" data-player="${esc(a.playerId)}">
    <h2 id="account-handle">${esc(t("acct_signed_in", { handle: a.handle }))}</h2>
    <p><a href="/player/${encodeURIComponent(a.playerId)}">${t("acct_player")}</a></p>
    <p><button type="button" id="link-new">${t("acct_link_new")}</button></p>
    ${link ? `<div id="link-shown"><p>${esc(t("acct_link_shown", { code: link.code, m: Math.round(link.expiresIn / 60) }))}</p>
      <p class="link-code" id="link-code">${esc(link.code)}</p>
      <div class="link-qr" role="img" aria-label="${esc(t("acct_qr"))}">${link.qr.replace(/<\?xml[^>]*>/, "")}</div></div>` : ""}
    <h3>${t("acct_devices")}</h3><ul class="tables" id="devices">${a.devices.map(deviceHTML).join("")}</ul>
    <h3>${t("acct_passkeys")}</h3><ul class="tables" id="passkeys">${a.passkeys.map(passkeyHTML).join("")}</ul>
    <p><button type="button" id="add-passkey">${t("acct_add_passkey")}</button></p>
    <p><button type="button" id="sign-out">${t("acct_signout")}</button>
      <button type="button" id="sign-out-all">${t("acct_signout_all")}</button></p>
  </section>`;
}

function signedOutHTML(code) {
  const webauthn = passkeysHere() ? "" : `<p class="error">${t("acct_no_webauthn")}</p>`;
  return `<section class="panel" id="account-signed-out">
    <h2>${t("acct_title")}</h2><p>${t("acct_intro")}</p><p class="muted">${t("acct_guest")}</p>${webauthn}
    <form id="create-form"><label>${t("acct_handle")} <input id="handle" name="handle" autocomplete="username webauthn"
      maxlength="20" required></label> <button type="submit" id="create">${t("acct_create")}</button></form>
    <p><button type="button" id="sign-in">${t("acct_signin")}</button></p>
    <h3>${t("acct_link_enter")}</h3>
    <form id="link-form"><label>${t("acct_code")} <input id="link-code-input" name="code" maxlength="12"
      autocomplete="one-time-code" value="${esc(code)}" required></label>
      <button type="submit" id="link-go">${t("acct_link_go")}</button></form>
  </section>`;
}

function draw() {
  setStatus("");
  const code = (location.hash.match(/^#link=([A-Za-z0-9-]{1,12})$/) || [])[1] || "";
  const notes = `${shown.note ? `<p class="note" id="account-note" role="status">${esc(shown.note)}</p>` : ""}${shown.error
    ? `<p class="error" id="account-error" role="alert">${esc(shown.error)}</p>` : ""}`;
  main().innerHTML = `<div id="account-page">${notes}${shown.account ? signedInHTML(shown.account) : signedOutHTML(code)}</div>`;
  wire();
}

/** Run ``fn``; its refusal is shown (in words of this language), a passkey prompt dismissed too. */
async function act(fn) {
  shown.error = "";
  shown.note = "";
  try {
    await fn();
  } catch (err) {
    shown.error = err instanceof Refused ? err.message : err?.name === "NotAllowedError" ? t("acct_cancelled") : String(err?.message || err);
  }
  draw();
}

/** Signed in on this browser. ``made``: the account was made here with this browser's player key,
 * which is the account's now (only its sessions play as it), so this browser forgets it; a browser
 * that signed in or was linked keeps its own guest key for when it is signed out. */
function signedIn(account, { made = false } = {}) {
  shown.account = account;
  if (made) localStorage.removeItem("spite.playerKey"); // the account's now: a guest key is made anew when needed
  localStorage.setItem("spite.playerId", account.playerId);
  if (!localStorage.getItem("spite.name")) localStorage.setItem("spite.name", account.handle); // the lobby's name
  showHandle(account.handle);
  if (location.hash.startsWith("#link=")) history.replaceState(null, "", location.pathname);
}

function wire() {
  const on = (id, fn) => document.getElementById(id)?.addEventListener("click", () => act(fn));
  document.getElementById("create-form")?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    act(async () => {
      const handle = document.getElementById("handle").value;
      const begun = await call("POST", "/api/account/register/begin", { handle, playerKey: getPlayerKey() });
      const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
      signedIn(await call("POST", "/api/account/register/finish", { challengeId: begun.challengeId, credential: credentialJSON(cred) }), { made: true });
    });
  });
  on("sign-in", async () => {
    const begun = await call("POST", "/api/account/signin/begin");
    const cred = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
    signedIn(await call("POST", "/api/account/signin/finish", { challengeId: begun.challengeId, credential: credentialJSON(cred) }));
  });
  document.getElementById("link-form")?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    act(async () => {
      signedIn(await call("POST", "/api/account/link/redeem", { code: document.getElementById("link-code-input").value }));
    });
  });
  on("link-new", async () => {
    shown.link = await call("POST", "/api/account/link");
  });
  on("add-passkey", async () => {
    const begun = await call("POST", "/api/account/passkeys/begin");
    const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
    shown.account = await call("POST", "/api/account/passkeys/finish", { challengeId: begun.challengeId, credential: credentialJSON(cred) });
  });
  for (const button of document.querySelectorAll("button.remove-passkey")) {
    button.addEventListener("click", () => act(async () => {
      shown.account = await call("DELETE", `/api/account/passkeys/${encodeURIComponent(button.dataset.id)}`);
    }));
  }
  for (const button of document.querySelectorAll("button.remove-device")) {
    button.addEventListener("click", () => act(async () => {
      const answer = await call("DELETE", `/api/account/devices/${encodeURIComponent(button.dataset.id)}`);
      if (answer.signedOut) signedOut();
      else shown.account = answer;
    }));
  }
  on("sign-out", async () => {
    await call("POST", "/api/account/signout");
    signedOut();
  });
  on("sign-out-all", async () => {
    await call("POST", "/api/account/signout-everywhere");
    signedOut();
  });
}

function signedOut() {
  localStorage.removeItem("spite.playerId"); // the guest key's id is told again with the next seat
  showHandle("");
  shown = { account: null, link: null, note: t("acct_signed_out"), error: "" };
}

export async function renderAccount() {
  shown = { account: null, link: null, note: "", error: "" };
  try {
    shown.account = await currentAccount();
    showHandle(shown.account?.handle || "");
  } catch (err) {
    shown.error = err.message;
  }
  setRerender(draw);
  draw();
}
