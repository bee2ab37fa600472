// A tournament's page (/tournament/{id}; docs/protocol.md, "Tournaments"): what it plays and how
// (Swiss rounds or an arena's minutes), its state and the time to the next round or to its end (by
// the server's clock), the standings and the rounds with their tables (to watch) and finished games
// (to replay), all kept up to date by a long poll (GET /api/tournaments/{id}?since=VERSION&wait=…,
// answered the moment anything changes). A person joins with this browser's player key; while
// entered, a second long poll (…/next?playerKey=…) answers the moment their next table is made, and
// the page takes that seat as a matched seek does (seek.js). The table's game-over view then links
// back here (tourney-link.js). Its maker starts it and may add computer players. Names no game: the
// game and its presets come from the server's list (games.js).

import { esc, morph } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { botName, hasText, presetName, t } from "./i18n.js";
import { gameType, gameWord } from "./games.js";
import { api, getName, getPlayerKey, optionsText, saveSeat, setName } from "./store.js";
import { markTournamentTable } from "./tourney-link.js";

/** Seconds one long poll may wait at the server (it answers sooner when something changes). */
const LONG_POLL_S = 10;
/** After a failed ask, the next one comes this much later (the server may be restarting). */
const RETRY_MS = 1500;
/** The server answers ``next`` at once while it stands (a bye): the next ask comes this much later. */
const SETTLED_MS = 3000;

const url = (id, tail = "") => `/api/tournaments/${encodeURIComponent(id)}${tail}`;

// ------------------------------------------------------------------ what this browser remembers
function remembered(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}

function remember(key, id, value) {
  const all = remembered(key);
  all[id] = value;
  localStorage.setItem(key, JSON.stringify(all));
}

/** The entrant this browser plays as in tournament ``id`` (its join's answer), or null. */
const myEntrant = (id) => remembered("spite.tourneyEntrants")[id] ?? null;
/** Whether this browser made tournament ``id`` (its maker starts it and adds computers). */
const iMade = (id) => Boolean(remembered("spite.tourneysMade")[id]);

/** Remember that this browser made tournament ``id`` (the lobby's form calls it). */
export function rememberMade(id) {
  remember("spite.tourneysMade", id, true);
}

// ------------------------------------------------------------------ words
export const systemWord = (info) => (info.system === "arena"
  ? t("tn_what_arena", { n: info.minutes ?? 0 }) : t("tn_what_swiss", { n: info.roundCount ?? 0 }));

export const stateWord = (state) => (hasText(`tn_state_${state}`) ? t(`tn_state_${state}`) : state);

/** Seconds as people read a countdown: 4:05, 1:02:09. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** An entrant's name as shown: a computer player with its level. */
function entrantName(entrant) {
  if (!entrant) return "—";
  return entrant.computer ? `${entrant.name || botName(entrant.computer)}` : entrant.name;
}

// ------------------------------------------------------------------ the page
export async function renderTournament(id) {
  const page = { info: null, offset: 0, next: null, error: "", busy: false, gone: false };
  let info;
  try {
    info = await api("GET", url(id));
  } catch (err) {
    main().innerHTML = `<section class="panel"><p class="error" id="tournament-error">${esc(err.message)}</p><a href="/">${t("back_lobby")}</a></section>`;
    return;
  }
  const type = await gameType(info.game).catch(() => null);
  const take = (fresh) => {
    page.info = fresh;
    page.offset = (fresh.now ?? Date.now() / 1000) - Date.now() / 1000; // the server's clock minus ours
  };
  take(info);

  const entrantOf = (eid) => page.info.entrants.find((e) => e.id === eid);
  const me = () => {
    const eid = page.info.me ?? myEntrant(id);
    return eid == null ? null : entrantOf(eid) ?? null;
  };
  const entered = () => Boolean(me() && !me().withdrawn);
  const serverNow = () => Date.now() / 1000 + page.offset;

  /** The line with the time to the next round (Swiss) or to the end (arena), or what is awaited. */
  const clockLine = () => {
    const i = page.info;
    if (i.state === "open") return t("tn_waits_for_start");
    if (i.state === "finished") {
      const top = i.standings[0];
      return top ? `${t("tn_over")} ${t("tn_winner", { name: top.name })}` : t("tn_over");
    }
    if (i.system === "arena" && i.endsAt != null) {
      const left = i.endsAt - serverNow();
      return left > 0 ? t("tn_ends_in", { time: clockText(left) }) : t("tn_ends_now");
    }
    const round = t("tn_round_of", { n: i.round, of: i.roundCount ?? 0 });
    if (i.nextRoundAt != null) return `${round} · ${t("tn_next_round_in", { time: clockText(i.nextRoundAt - serverNow()) })}`;
    return `${round} · ${t("tn_round_playing")}`;
  };

  const headHTML = () => {
    const i = page.info;
    const preset = presetName(i.preset);
    const rated = i.rated ? t("seek_rated") : t("seek_casual");
    return `<h2 id="tournament-title">${esc(t("tn_title", { game: gameWord(i.game), preset }))}</h2>
      <p id="tournament-what">${esc(systemWord(i))} · ${esc(rated)} · ${esc(t("tn_by", { name: i.creator || "—" }))}
        · <span id="tournament-state" data-state="${esc(i.state)}">${esc(stateWord(i.state))}</span>
        · ${esc(t("tn_entrants", { n: i.entrants.filter((e) => !e.withdrawn).length }))}</p>
      ${Object.keys(i.options || {}).length ? `<p id="tournament-options">${esc(t("tn_options", { options: optionsText(i.options) }))}</p>` : ""}
      <p class="tournament-clock"><span id="tournament-clock" role="timer" aria-live="off">${esc(clockLine())}</span></p>`;
  };

  /** The person's own part: join (name), or entered with the next table's state and Leave; the
   * maker's Start and "add a computer" while the tournament is open. */
  const meHTML = () => {
    const i = page.info;
    let part;
    if (i.state === "finished") {
      part = me() ? `<p id="tournament-me">${esc(t("tn_entered", { name: me().name }))}</p>` : "";
    } else if (entered()) {
      const next = page.next;
      let line = "";
      if (next?.state === "seated") {
        line = `<p id="tournament-next" data-state="seated" data-table="${esc(next.table)}">${esc(t("tn_next_seated"))}
          <a class="btn primary" id="to-table" href="/t/${esc(next.table)}">${esc(t("tn_to_table"))}</a></p>`;
      } else if (next?.state === "bye") {
        line = `<p id="tournament-next" data-state="bye">${esc(t("tn_next_bye"))}</p>`;
      } else if (i.state === "playing" || next) {
        line = `<p id="tournament-next" data-state="${esc(next?.state || "waiting")}"><span class="spinner" aria-hidden="true"></span> ${esc(t("tn_next_waiting"))}</p>`;
      }
      part = `<p id="tournament-me" data-entrant="${esc(me().id)}">${esc(t("tn_entered", { name: me().name }))}</p>${line}
        <button type="button" id="tournament-leave">${esc(t("tn_leave"))}</button>`;
    } else if (me()?.withdrawn) {
      part = `<p id="tournament-me" data-withdrawn="1">${esc(t("tn_left"))}</p>`;
    } else if (i.state === "open" || (i.state === "playing" && i.system === "arena")) {
      part = `<form id="tournament-join" class="inline-form">
        <label for="tournament-name">${esc(t("your_name"))}</label>
        <input id="tournament-name" name="name" maxlength="40" value="${esc(getName())}" placeholder="${esc(t("guest"))}" autocomplete="nickname">
        <button type="submit" class="primary" id="tournament-join-go">${esc(t("tn_join"))}</button></form>`;
    } else part = "";
    let maker = "";
    if (iMade(id) && i.state === "open") {
      const levels = (type?.levels || []).map((l) => `<option value="${esc(l)}"${l === type.defaultLevel ? " selected" : ""}>${esc(botName(l))}</option>`).join("");
      maker = `<div class="tournament-maker" id="tournament-maker"><p class="muted">${esc(t("tn_maker"))}</p>
        <form id="tournament-computer" class="inline-form">
          <label for="tournament-level">${esc(t("level"))}</label>
          <select id="tournament-level" name="level">${levels}</select>
          <button type="submit" id="tournament-add">${esc(t("tn_add_computer"))}</button></form>
        <button type="button" class="primary" id="tournament-start">${esc(t("tn_start"))}</button></div>`;
    }
    return `${part}${maker}<p class="error" role="alert" id="tournament-error">${esc(page.error)}</p>`;
  };

  const standingsHTML = () => {
    const i = page.info;
    const mine = me()?.id;
    if (!i.standings.length) return `<p class="muted" id="standings-empty">${esc(t("tn_no_entrants"))}</p>`;
    const rows = i.standings.map((s) => `<tr data-entrant="${esc(s.entrant)}"${s.entrant === mine ? ' class="mine"' : ""}${s.withdrawn ? ' data-withdrawn="1"' : ""}>
      <td class="num">${s.rank}</td>
      <th scope="row">${esc(s.name)}${s.entrant === mine ? ` <span class="muted">(${esc(t("tn_you"))})</span>` : ""}${s.withdrawn ? ` <span class="muted">· ${esc(t("tn_withdrawn"))}</span>` : ""}</th>
      <td class="num" data-col="points">${esc(s.points)}</td><td class="num">${esc(s.games)}</td><td class="num">${esc(s.wins)}</td>
      <td class="num">${i.system === "arena" ? esc(s.streak ?? 0) : esc(s.tiebreak ?? "")}</td></tr>`).join("");
    return `<div class="scroll-x"><table class="stats" id="standings-table"><caption class="sr-only">${esc(t("tn_standings"))}</caption>
      <thead><tr><th scope="col" class="num">#</th><th scope="col">${esc(t("rt_player"))}</th><th scope="col" class="num">${esc(t("tn_points"))}</th>
      <th scope="col" class="num">${esc(t("st_games"))}</th><th scope="col" class="num">${esc(t("tn_wins"))}</th>
      <th scope="col" class="num">${esc(t(i.system === "arena" ? "tn_streak" : "tn_tiebreak"))}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  };

  const pairingHTML = (p) => {
    const names = p.entrants.map((eid) => esc(entrantName(entrantOf(eid)))).join(" – ");
    if (p.entrants.length < 2) return `<li class="pairing" data-bye="1">${names}: ${esc(t("tn_bye"))}</li>`;
    const pts = p.points ? ` <b class="pairing-points">${p.entrants.map((eid) => esc(p.points[eid] ?? 0)).join(" : ")}</b>` : "";
    const mine = p.entrants.includes(me()?.id);
    const links = (p.tables || []).map((table, k) => {
      const game = (p.games || [])[k];
      if (game != null && game !== "") return `<a href="/replay/${esc(game)}" class="pairing-replay" data-game="${esc(game)}">${esc(t("tn_game_replay", { n: k + 1 }))}</a>`;
      if (mine && page.next?.state === "seated" && page.next.table === table) {
        return `<a href="/t/${esc(table)}" class="pairing-play" data-table="${esc(table)}">${esc(t("tn_game_play", { n: k + 1 }))}</a>`;
      }
      return `<a href="/t/${esc(table)}?watch=1" class="pairing-watch" data-table="${esc(table)}">${esc(t("tn_game_watch", { n: k + 1 }))}</a>`;
    }).join(" · ");
    return `<li class="pairing${mine ? " mine" : ""}"><span class="pairing-names">${names}</span>${pts}${links ? ` <span class="pairing-links">${links}</span>` : ""}</li>`;
  };

  const roundsHTML = () => {
    const rounds = [...(page.info.rounds || [])].reverse(); // the newest first
    if (!rounds.length) return `<p class="muted">${esc(t("tn_no_rounds"))}</p>`;
    // an arena's pairings come as one round without a deal of its own (each pairing plays the next deal)
    return rounds.map((r) => `<section class="tournament-round" data-round="${r.number}">
      ${r.deal == null ? "" : `<h4>${esc(t("tn_round", { n: r.number }))} <span class="muted">· ${esc(t("tn_deal", { n: r.deal }))}</span></h4>`}
      <ul class="tables pairings">${(r.deal == null ? [...r.pairings].reverse() : r.pairings).map(pairingHTML).join("")}</ul></section>`).join("");
  };

  const fairHTML = () => {
    const fair = page.info.fair || {};
    if (!fair.commitment) return "";
    const secret = fair.secret
      ? `<p>${esc(t("tn_fair_secret"))} <code id="tournament-secret">${esc(fair.secret)}</code></p>`
      : `<p class="muted">${esc(t("tn_fair_hidden"))}</p>`;
    return `<h3>${esc(t("tn_fair_title"))}</h3><p>${esc(t("tn_fair_commit"))} <code id="tournament-commitment" class="commitment">${esc(fair.commitment)}</code></p>${secret}`;
  };

  /** Redraw the parts that change (morph keeps the element under the pointer and the focus). */
  const update = () => {
    const root = document.getElementById("tournament");
    if (!root) return false;
    root.dataset.state = page.info.state;
    root.dataset.version = page.info.version;
    morph(document.getElementById("tournament-head"), headHTML());
    const mine = document.getElementById("tournament-mine");
    morph(mine, meHTML());
    mine.hidden = !mine.textContent.trim(); // a watcher of a finished tournament: nothing of their own
    morph(document.getElementById("standings"), standingsHTML());
    morph(document.getElementById("tournament-rounds"), roundsHTML());
    morph(document.getElementById("tournament-fair"), fairHTML());
    setStatus(t("tn_status"));
    return true;
  };

  const draw = () => {
    main().innerHTML = `<div class="tournament" id="tournament" data-tournament="${esc(id)}" data-system="${esc(page.info.system)}">
      <section class="panel" id="tournament-head"></section>
      <section class="panel" id="tournament-mine" aria-live="polite"></section>
      <section class="panel"><h3 id="standings-title">${esc(t("tn_standings"))}</h3>
        <div id="standings" aria-live="polite" aria-labelledby="standings-title"></div></section>
      <section class="panel"><h3>${esc(t("tn_rounds_title"))}</h3><div id="tournament-rounds"></div></section>
      <section class="panel" id="tournament-fair"></section>
      <p><a href="/">${esc(t("back_lobby"))}</a></p></div>`;
    update();
  };

  // ---------------------------------------------------------------- what the person does
  const act = async (fn) => {
    if (page.busy) return;
    page.busy = true;
    page.error = "";
    try {
      await fn();
    } catch (e) {
      page.error = e.message;
    } finally {
      page.busy = false;
      update();
    }
  };
  main().addEventListener("submit", (ev) => {
    if (ev.target.id === "tournament-join") {
      ev.preventDefault();
      const name = ev.target.name.value.trim();
      if (name) setName(name);
      act(async () => {
        const joined = await api("POST", url(id, "/join"), { name: name || getName() || t("guest"), playerKey: getPlayerKey() });
        remember("spite.tourneyEntrants", id, joined.entrant.id);
        take(joined.tournament);
        followNext();
      });
    } else if (ev.target.id === "tournament-computer") {
      ev.preventDefault();
      const level = ev.target.level.value;
      act(async () => take((await api("POST", url(id, "/join"), { playerKey: getPlayerKey(), computer: level })).tournament));
    }
  });
  main().addEventListener("click", (ev) => {
    const button = ev.target.closest?.("button");
    if (button?.id === "tournament-start") act(async () => take(await api("POST", url(id, "/start"), { playerKey: getPlayerKey() })));
    else if (button?.id === "tournament-leave") {
      act(async () => {
        nextAsk?.abort(); // the long poll for the next table ends here, not with the server's "not entered"
        take(await api("POST", url(id, "/leave"), { playerKey: getPlayerKey() }));
        if (!me()) remember("spite.tourneyEntrants", id, null); // left before the start: off the list
      });
    }
  });

  // ---------------------------------------------------------------- the long polls
  /** The tournament as it changes: each answer redraws; a failure says so and asks again. */
  const followInfo = async () => {
    for (;;) {
      if (!document.getElementById("tournament")) return; // another page
      try {
        const fresh = await api("GET", url(id, `?since=${page.info.version}&wait=${LONG_POLL_S}`));
        if (fresh.version !== page.info.version || fresh.state !== page.info.state) {
          take(fresh);
          if (page.error === t("tn_lost")) page.error = "";
          update();
          if (entered()) followNext();
        }
        if (page.info.state === "finished") return;
      } catch {
        page.error = t("tn_lost");
        update();
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  };

  /** The person's next table: answered the moment it is made; then the page takes the seat. */
  let nextRunning = false;
  let nextAsk = null; // the long poll in flight (aborted when the person leaves)
  const askNext = async () => {
    nextAsk = new AbortController();
    const res = await fetch(url(id, `/next?playerKey=${encodeURIComponent(getPlayerKey())}&wait=${LONG_POLL_S}`),
      { headers: { Accept: "application/json" }, signal: nextAsk.signal });
    if (!res.ok) throw new Error(String(res.status));
    return res.json();
  };
  const followNext = async () => {
    if (nextRunning) return;
    nextRunning = true;
    try {
      while (entered() && page.info.state !== "finished" && document.getElementById("tournament")) {
        let next;
        try {
          next = await askNext();
        } catch {
          if (!entered()) return; // left meanwhile
          await new Promise((r) => setTimeout(r, RETRY_MS));
          continue;
        }
        page.next = next;
        update();
        if (next.state === "seated" && next.table && next.token) {
          // a table whose game is already over (the answer crossed the game's end) is not opened again
          const table = await api("GET", `/api/tables/${encodeURIComponent(next.table)}`).catch(() => null);
          if (table && table.status !== "finished") {
            saveSeat(next.table, next.seat, next.token);
            markTournamentTable(next.table, id);
            location.assign(`/t/${encodeURIComponent(next.table)}`);
            return;
          }
          await new Promise((r) => setTimeout(r, SETTLED_MS));
        } else if (next.state === "finished" || next.state === "withdrawn") {
          return;
        } else if (next.state !== "waiting") {
          await new Promise((r) => setTimeout(r, SETTLED_MS)); // a bye: answered at once all round long
        }
      }
    } finally {
      nextRunning = false;
    }
  };

  // the countdown runs on between the server's answers, by the server's clock
  const ticker = setInterval(() => {
    const line = document.getElementById("tournament-clock");
    if (!line) {
      clearInterval(ticker);
      return;
    }
    const text = clockLine();
    if (line.textContent !== text) line.textContent = text;
  }, 1000);

  setRerender(draw);
  draw();
  followInfo();
  if (entered()) followNext();
}
