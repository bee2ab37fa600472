/** Report a name or a table to the site's operator (docs/protocol.md, "Moderation"): a small dialog
 * over the page (outside the table's own redraws), sent as ``POST /api/reports``. */
import { t } from "./i18n.js";
import { esc } from "./html.js";
import { api, getPlayerKey } from "./store.js";

/** The button the table's side panel shows (its click opens the dialog: ``openReport``). */
export function reportButtonHTML() {
  return `<button type="button" id="report" class="small setting">${esc(t("rp_report"))}</button>`;
}

/** Open the dialog for table ``tableId``: what to report (the table, or the name of a person at
 * another seat than ``mySeat``), an optional reason, and Send. */
export function openReport(tableId, seats, mySeat) {
  document.getElementById("report-dialog")?.remove();
  const names = seats.filter((s) => s.kind === "person" && s.player && s.seat !== mySeat);
  const dialog = document.createElement("dialog");
  dialog.id = "report-dialog";
  dialog.className = "report-dialog";
  dialog.innerHTML = `<form method="dialog">
      <h3>${esc(t("rp_title"))}</h3>
      <label>${esc(t("rp_what"))} <select id="report-what">
        <option value="table">${esc(t("rp_table"))}</option>
        ${names.map((s) => `<option value="${s.seat}">${esc(t("rp_name", { name: s.player }))}</option>`).join("")}
      </select></label>
      <label>${esc(t("rp_reason"))} <input id="report-reason" maxlength="200"></label>
      <p class="message" id="report-message" role="status"></p>
      <p><button type="button" id="report-send" class="primary">${esc(t("rp_send"))}</button>
         <button type="button" id="report-cancel">${esc(t("rp_cancel"))}</button></p>
    </form>`;
  document.body.append(dialog);
  const message = dialog.querySelector("#report-message");
  dialog.querySelector("#report-cancel").addEventListener("click", () => dialog.remove());
  dialog.querySelector("#report-send").addEventListener("click", async (ev) => {
    const what = dialog.querySelector("#report-what").value;
    const body = { kind: what === "table" ? "table" : "name", table: tableId,
      reason: dialog.querySelector("#report-reason").value.trim(), playerKey: getPlayerKey() };
    if (what !== "table") body.seat = Number(what);
    ev.target.disabled = true;
    try {
      await api("POST", "/api/reports", body);
      message.textContent = t("rp_sent");
      setTimeout(() => dialog.remove(), 1500);
    } catch (err) {
      message.textContent = err.message;
      ev.target.disabled = false;
    }
  });
  dialog.showModal();
}
