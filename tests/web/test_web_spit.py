"""Spit and Speed in the browser (``spit.js``) against the real server, in headless Chromium.

The test player plays by keys only (``1``–``5``, ``Q``/``W``/``E``, ``Space``, ``S``) and reads its
moves only from the page's marks: its own piles marked ``data-playable`` with their
``data-targets``, the Spit button's ``data-legal``, and the table's ``data-phase`` /
``data-round-winner`` / ``data-round``; never from the engine. The bot is slow (``reflex:3000``)
so that the test player wins most races.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from conftest import PHONE, SIZES, ConsoleWatch, WebServer, open_more_options, open_seat, shoot, sync_api

# three center piles (each flip takes three spit cards), quick automatic spit calls and slaps: a
# round ends in about 15 s against a bot that reacts in 0.7 s on average
FAST = {"centers": 3, "auto_spit_ms": 250, "auto_slap_ms": 1500}
ROUND_BOT = [{"kind": "person"}, {"kind": "bot", "level": "reflex:700"}]
SLOW_BOT = [{"kind": "person"}, {"kind": "bot", "level": "reflex:3000"}]
SLEEPING_BOT = [{"kind": "person"}, {"kind": "bot", "level": "reflex:60000"}]
"""A bot that waits a minute before any move: the position stays as the test player leaves it."""
QUICK_BOT = [{"kind": "person"}, {"kind": "bot", "level": "reflex:150"}]
"""A bot quicker than the test player's keys: it wins most rounds, in a few seconds each, so that a
game of rounds won in a row ends after two or three, not after a see-saw of many."""
CENTER_KEY = {"C1": "q", "C2": "w", "C3": "e"}
ROUND_TIMEOUT = 45.0

STATE_JS = """() => {
  const t = document.querySelector('.spit-table');
  return {phase: t.dataset.phase, winner: t.dataset.roundWinner, seat: t.dataset.seat, over: t.dataset.over === '1',
          round: Number(t.dataset.round), version: Number(t.dataset.version), game: t.dataset.game,
          plays: [...document.querySelectorAll('.me .sp-pile[data-playable="1"][data-targets]')]
            .map(e => [e.dataset.place, e.dataset.targets.split(' ')]),
          spit: document.querySelector('#sp-spit')?.dataset.legal === '1'};
}"""

COUNTDOWN_OVER_JS = "() => !document.querySelector('#sp-prompt').textContent.includes('starts in')"
"""The start countdown ("the game starts in …") is over: play has begun."""

CHANGED_JS = """v => { const t = document.querySelector('.spit-table');
  return Number(t.dataset.version) > v || t.dataset.phase !== 'play' || t.dataset.over === '1'; }"""


def create_table(server: WebServer, seats: list[dict[str, Any]], *, game: str = "spit",
                 options: dict[str, Any] | None = None, name: str = "Ann") -> tuple[str, str]:
    """A Spit/Speed table through the REST lobby; returns (table id, the creator's token)."""
    r = httpx.post(server.base + "/api/tables", json={"game": game, "options": options or {}, "name": name,
                                                      "seats": seats})
    assert r.status_code == 200, r.text
    return str(r.json()["table"]["id"]), str(r.json()["token"])


def take_seat(page: Any, server: WebServer, table_id: str, seat: int, token: str) -> None:
    """Give the browser the seat's token (as the lobby would) and open the table's link."""
    open_seat(page, server.base, table_id, token, seat, ready=f'.spit-table[data-status=playing][data-seat="{seat}"]')


def digit(place: str) -> str:
    """The key of one of my sources: tableau pile ``T3`` → ``3``; Speed hand card ``H2`` (index) → ``3``."""
    return place[1:] if place.startswith("T") else str(int(place[1:]) + 1)


def state(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(STATE_JS))


def play_one_by_keys(page: Any, st: dict[str, Any]) -> str | None:
    """One move by keys from the page's marks: a center play, else a slot move, else spit."""
    for place, targets in st["plays"]:
        centers = [x for x in targets if x.startswith("C")]
        if centers:
            page.keyboard.press(digit(place))
            page.keyboard.press(CENTER_KEY[centers[0]])
            return f"{place}-{centers[0]}"
    for place, targets in st["plays"]:
        if targets and targets[0].startswith("T"):
            page.keyboard.press(digit(place))
            page.keyboard.press(targets[0][1:])
            return f"{place}-{targets[0]}"
    if st["spit"]:
        page.keyboard.press("Space")
        return "spit"
    return None


def wait_for_change(page: Any, version: int, timeout: float) -> None:
    """Until a new position (or the round or the game ends); quietly gives up after ``timeout`` s."""
    try:
        page.wait_for_function(CHANGED_JS, arg=version, timeout=timeout * 1000)
    except Exception as exc:  # playwright's TimeoutError: nothing happened, look again
        if "Timeout" not in type(exc).__name__:
            raise


def play_round_by_keys(page: Any, shot: str | None = None) -> int:
    """Play by keys until the round is won (phase ``slap``) or the game is over; returns our moves."""
    deadline = time.monotonic() + ROUND_TIMEOUT
    moves = 0
    while True:
        st = state(page)
        if st["phase"] != "play" or st["over"]:
            return moves
        assert time.monotonic() < deadline, f"the round did not end within {ROUND_TIMEOUT} s ({moves} moves)"
        if shot and moves == 6 and any(t.startswith("C") for _, ts in st["plays"] for t in ts):
            # a picked pile with its center highlighted, for the docs
            place = next(p for p, ts in st["plays"] if any(t.startswith("C") for t in ts))
            page.keyboard.press(digit(place))
            page.wait_for_selector('.sp-centers [data-legal="1"]')
            shoot(page, shot)
            page.keyboard.press("Escape")
            shot = None
        move = play_one_by_keys(page, st)
        if move is not None:
            moves += 1
            wait_for_change(page, st["version"], 1.5)
        else:
            wait_for_change(page, st["version"], 0.5)


def test_spit_from_the_lobby_by_mouse_and_on_a_phone(web_server: WebServer, browser: Any) -> None:
    # the Spit module's styles come with the module (below), not with every page
    assert "spit.css" not in httpx.get(web_server.base + "/").text
    for name in ("spit.js", "spit.css"):
        assert httpx.get(f"{web_server.base}/static/games/spit/{name}").status_code == 200, name
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        page.goto(web_server.base + "/")
        page.fill("#name", "Pia")
        open_more_options(page)
        page.select_option("#quick select[name=game]", "spit")
        assert page.eval_on_selector_all("#quick select[name=level] option", "els => els.map(e => e.value)") == [
            "beginner", "club", "expert"]
        assert "three-piles" in page.eval_on_selector_all("#quick select[name=preset] option",
                                                          "els => els.map(e => e.value)")
        assert page.locator("#quick input[name=stock_size]").count() == 0
        page.select_option("#quick select[name=level]", "beginner")
        page.click("#quick-play")
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=45_000)
        page.wait_for_selector('.spit-table[data-status=playing][data-seat="0"][data-game="spit"]', timeout=45_000)
        assert page.locator('link[rel=stylesheet][href$="/static/games/spit/spit.css"]').count() == 1
        assert page.eval_on_selector(".spit-table", "e => getComputedStyle(e).display") == "grid"  # spit.css's
        assert page.locator(".me .sp-tableau .sp-pile").count() == 5
        assert page.locator(".opponent .sp-tableau .sp-pile").count() == 5
        assert page.locator(".sp-centers .center-pile").count() == 2
        # the computer player by a name of its own, with its level
        assert "computer · beginner" in page.inner_text(".opponent h3")
        assert "Computer" not in page.inner_text(".opponent .seat-name")
        # by mouse: a playable card, then the center it may go on (the page highlights it)
        deadline = time.monotonic() + 20
        while True:
            assert time.monotonic() < deadline, "nothing became playable"
            st = state(page)
            plays = [(p, t) for p, ts in st["plays"] for t in ts if t.startswith("C")]
            if plays:
                place, target = plays[0]
                try:
                    # force: a center that has just flipped is still turning (never "stable") when
                    # spits follow each other; a person clicks it all the same
                    page.click(f'.me .sp-pile[data-place="{place}"]', force=True, timeout=3000)
                    page.click(f'.sp-centers [data-place="{target}"][data-legal="1"]', force=True, timeout=3000)
                except sync_api.TimeoutError:
                    continue  # the position changed under the mouse: look again
                wait_for_change(page, st["version"], 3)
                if state(page)["version"] > st["version"]:
                    break
            elif st["spit"]:
                page.click("#sp-spit")
                wait_for_change(page, st["version"], 2)
            else:
                wait_for_change(page, st["version"], 0.5)
        # readable on a phone: nothing sticks out sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shoot(page, "web-spit-phone.png")
        # German: the seed's words
        page.click("button.lang[data-lang=de]")
        text = page.inner_text("main")
        for term in ("Mittelstapel", "Spit-Stapel", "Tableau", "Leertaste"):
            assert term in text, term
        page.click("button.lang[data-lang=en]")
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


@pytest.mark.timeout(180)  # a whole Spit round by keys
@pytest.mark.motion  # with the cards' transitions (conftest's StillBrowser asks for reduced motion)
def test_a_spit_round_by_keys(web_server: WebServer, page: Any) -> None:
    table_id, token = create_table(web_server, ROUND_BOT, options=FAST)
    take_seat(page, web_server, table_id, 0, token)
    assert state(page)["round"] == 1

    # a refused move: the server's reason appears on the card tried, briefly
    tops = page.eval_on_selector_all('.me .sp-tableau .sp-pile[data-cards]:not([data-cards="0"])',
                                     "els => els.map(e => [e.dataset.place, e.dataset.targets || ''])")
    place, center = next((p, c) for p, ts in tops for c in ("C1", "C2", "C3") if c not in ts.split())
    page.keyboard.press(digit(place))
    page.keyboard.press(CENTER_KEY[center])
    verdict = page.locator(f'.me .sp-pile[data-place="{place}"] .sp-verdict')
    verdict.wait_for()
    assert "center" in verdict.inner_text()
    assert page.inner_text("#sp-message") == ""   # said once, where it was tried
    verdict.wait_for(state="detached", timeout=6000)  # gone after a moment

    moves = play_round_by_keys(page, shot="web-spit.png")
    st = state(page)
    assert moves > 0
    assert st["phase"] == "slap" or st["over"], st
    if not st["over"]:
        # the round end is shown: who won, the slap to come, the winner's side framed
        winner = int(st["winner"])
        prompt = page.inner_text("#sp-prompt")
        assert ("You won the round" in prompt) if winner == 0 else ("won the round" in prompt), prompt
        # read in one look: the bot's slap may already have dealt round 2 (its frame gone with the phase)
        phase, framed = page.evaluate(
            "seat => [document.querySelector('.spit-table').dataset.phase,"
            " document.querySelectorAll(`.sp-side.round-winner[data-seat=\"${seat}\"]`).length]", winner)
        assert framed == 1 or phase != "slap", (phase, framed)
        assert re.search(r"wins round 1", page.inner_text("#sp-log")), page.inner_text("#sp-log")
        if winner == 0:
            assert page.get_attribute("#sp-slap", "data-legal") == "1"
            page.keyboard.press("s")  # slap the smaller center pile
        # the slap (ours, or the bot's / the automatic one) deals round 2 unless the game is over
        page.wait_for_selector('.spit-table[data-round="2"][data-phase="play"], .spit-table[data-over="1"]',
                               timeout=10_000)
        if state(page)["over"]:
            page.wait_for_selector("#game-over")
        else:
            assert "Round 2" in page.inner_text(".sp-head")
            assert "Round 2: new deal" in page.inner_text("#sp-log")
            assert re.search(r"slaps center pile \d", page.inner_text("#sp-log"))
            # a reload keeps the count of rounds won (the server's clock carries it)
            page.reload()
            page.wait_for_selector('.spit-table[data-round="2"]')
            assert "rounds won: 1" in page.inner_text(f'.sp-side[data-seat="{winner}"] h3')
            assert "rounds won: 0" in page.inner_text(f'.sp-side[data-seat="{1 - winner}"] h3')


def test_a_lost_race_shows_the_verdict_on_the_card(web_server: WebServer, browser: Any, page: Any) -> None:
    other_ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    bob = other_ctx.new_page()
    watch = ConsoleWatch(bob)
    try:
        for _attempt in range(20):
            # three centers: a deal where both can reach for the same center is likelier
            table_id, token0 = create_table(web_server, [{"kind": "person"}, {"kind": "person"}],
                                            options={"centers": 3})
            token1 = httpx.post(f"{web_server.base}/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
            take_seat(page, web_server, table_id, 0, token0)
            take_seat(bob, web_server, table_id, 1, token1)
            plays = [{t: p for p, ts in state(x)["plays"] for t in ts if t.startswith("C")} for x in (page, bob)]
            common = sorted(set(plays[0]) & set(plays[1]))
            if not common:
                continue
            center = common[0]
            # both reach for the same center pile; exactly one card lands, the other is too late
            for who, p in ((page, plays[0][center]), (bob, plays[1][center])):
                who.keyboard.press(digit(p))
            page.keyboard.press(CENTER_KEY[center])
            bob.keyboard.press(CENTER_KEY[center])
            deadline = time.monotonic() + 10
            while not any(x.locator(".sp-verdict").count() for x in (page, bob)):
                assert time.monotonic() < deadline, "no verdict shown"
                page.wait_for_timeout(30)
            loser, seat = (page, 0) if page.locator(".sp-verdict").count() else (bob, 1)
            source = plays[seat][center]
            verdict = loser.locator(f'.me .sp-pile[data-place="{source}"] .sp-verdict')
            assert verdict.get_attribute("data-code") == "too-late"
            # worded by the page from the catalogue: the card as it looks (8♠), not its code
            said = verdict.inner_text()
            assert re.fullmatch(rf"too late: center pile {center[1]} is now \S+", said), said
            winner = bob if loser is page else page
            assert winner.locator(".sp-verdict").count() == 0
            return
        raise AssertionError("no deal with a race in 20 tables")
    finally:
        other_ctx.close()
        assert watch.errors == [], watch.errors


def test_speed_by_keys(web_server: WebServer, page: Any) -> None:
    table_id, token = create_table(web_server, SLOW_BOT, game="speed", options={"auto_spit_ms": 400})
    take_seat(page, web_server, table_id, 0, token)
    assert page.locator('.spit-table[data-game="speed"]').count() == 1
    assert page.locator(".me .hand-card").count() == 5
    assert int(page.get_attribute(".opponent .sp-hand.backs", "data-hand-size")) == 5
    assert "Side piles" in page.inner_text(".sp-centers")
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, "no Speed card was played"
        st = state(page)
        draw_before = int(page.inner_text('.me [data-place="D"] .count'))
        move = play_one_by_keys(page, st)
        wait_for_change(page, st["version"], 1.5)
        if move and move.startswith("H") and int(page.inner_text('.me [data-place="D"] .count')) == draw_before - 1:
            break  # the card landed and the hand was refilled from the draw pile
    assert page.locator(".me .hand-card").count() == 5


# every `ack` and `error` the page receives, in order (the page's own listener sees them as well)
ANSWERS_JS = """(() => {
  const Orig = window.WebSocket;
  window.__answers = [];
  window.__sent = 0;
  window.WebSocket = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type === "ack" || m.type === "error") window.__answers.push(m.type === "ack" ? "ack" : m.code);
      });
    }
    send(data) {
      if (JSON.parse(data).type === "move") window.__sent += 1;
      return super.send(data);
    }
  };
})();"""


def slow_click(page: Any, selector: str, hold_ms: int = 120) -> None:
    """A person's click: the button held down ``hold_ms`` (people hold it 60–150 ms)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
    page.mouse.down()
    page.wait_for_timeout(hold_ms)
    page.mouse.up()


@SIZES
def test_held_mouse_clicks_play_while_the_table_moves(web_server: WebServer, page: Any,
                                                      viewport: dict[str, int]) -> None:
    """Clicks held 120 ms land while the table redraws (highlights fading, a club bot playing):
    a redraw keeps the elements under the pointer, so the press and the release hit the same one."""
    page.add_init_script(ANSWERS_JS)
    table_id, token = create_table(web_server, [{"kind": "person"}, {"kind": "bot", "level": "club"}],
                                   options={"centers": 3})
    take_seat(page, web_server, table_id, 0, token)
    # four acknowledged at desktop size; on a phone (smaller targets, the same redraws) two show that the
    # held clicks land there as well
    wanted = 4 if viewport["width"] >= 1000 else 2
    acked = tries = 0
    deadline = time.monotonic() + 40
    while acked < wanted:
        assert time.monotonic() < deadline, f"{acked} of {tries} mouse moves acknowledged"
        st = state(page)
        if st["over"] or st["phase"] != "play":
            break
        plays = [(p, t) for p, ts in st["plays"] for t in ts if t.startswith("C")]
        if not plays:
            if st["spit"]:
                slow_click(page, "#sp-spit")
            wait_for_change(page, st["version"], 0.7)
            continue
        place, target = plays[0]
        before, sent = page.evaluate("[window.__answers.length, window.__sent]")
        slow_click(page, f'.me .sp-pile[data-place="{place}"]')
        if page.get_attribute(".spit-table", "data-picked") != str(int(place[1:]) - 1):
            continue  # the pile was emptied by the time the click landed (the position moved on)
        slow_click(page, f'.sp-centers [data-place="{target}"]')
        if page.evaluate("window.__sent") == sent:
            continue  # the centre had moved on by then: the page itself said the card no longer fits
        tries += 1
        # the server answers every move sent: an ack, or a race lost to the bot
        page.wait_for_function("n => window.__answers.length > n", arg=before, timeout=10_000)
        answer = page.evaluate("window.__answers[window.__answers.length - 1]")
        assert answer in ("ack", "too-late", "illegal"), answer
        acked += answer == "ack"
        page.wait_for_timeout(300)  # the highlight of the move is still fading while the next click comes
    assert acked >= 1, f"{acked} of {tries}"


SP_LOG_JS = """() => [...document.querySelectorAll('#sp-log li:not(.event)')].map(li => li.dataset.seat !== undefined
  ? [li.dataset.seat, li.querySelector('code').textContent, li.querySelector('.muted')?.textContent || '']
  : [li.className, li.textContent])"""
"""The log's moves (seat, move, time), flips and round lines: what the game so far was (the table's
events, e.g. who came in, are a page's own news)."""


def play_a_few_moves_against_a_sleeping_bot(page: Any, server: WebServer) -> str:
    """A 3-center table against a bot that waits a minute, and up to two of our moves in its log.

    About one deal in thirteen leaves us nothing to play while the bot has moves: the game is not
    stuck, so no spit comes, and we would wait a minute for the bot. Such a deal is dealt again."""
    my_moves = '#sp-log li[data-seat="0"]'
    for _ in range(6):
        table_id, token = create_table(server, SLEEPING_BOT, options={"centers": 3})
        take_seat(page, server, table_id, 0, token)
        page.wait_for_function(COUNTDOWN_OVER_JS, timeout=15000)
        idle_since = time.monotonic()
        deadline = idle_since + 40
        while page.locator(my_moves).count() < 2 and time.monotonic() < deadline:
            st = state(page)
            if play_one_by_keys(page, st) is None:
                if time.monotonic() - idle_since > 6:  # nothing to play, and no spit coming
                    break
                wait_for_change(page, st["version"], 0.5)
            else:
                idle_since = time.monotonic()
                wait_for_change(page, st["version"], 1.5)
        if page.locator(my_moves).count() >= 1:
            return table_id
    raise AssertionError("no deal in 6 let us play a move by keys")


def test_a_new_browser_shows_the_spit_log_so_far(web_server: WebServer, browser: Any, page: Any) -> None:
    table_id = play_a_few_moves_against_a_sleeping_bot(page, web_server)
    before = page.evaluate(SP_LOG_JS)
    assert sum(1 for e in before if e[0] == "0") >= 1, before

    def holds(after: list[Any]) -> bool:
        return any(after[k:k + len(before)] == before for k in range(len(after) - len(before) + 1))

    # a phone that kept nothing (a new browser context) watching: the server told it the game so far
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        other = ctx.new_page()
        watch = ConsoleWatch(other)
        other.goto(f"{web_server.base}/t/{table_id}?watch=1")
        other.wait_for_selector('.spit-table[data-seat=""]')
        after = other.evaluate(SP_LOG_JS)
        assert holds(after), (before, after)
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()
    page.reload()
    page.wait_for_selector('.spit-table[data-seat="0"]')
    after = page.evaluate(SP_LOG_JS)
    assert holds(after), (before, after)


def test_on_a_phone_the_verdict_bubble_shows_whole(web_server: WebServer, browser: Any) -> None:
    """A refusal on the first tableau pile, at the phone's left edge: the whole bubble is on screen."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        for _ in range(10):
            table_id, token = create_table(web_server, SLEEPING_BOT)
            take_seat(page, web_server, table_id, 0, token)
            targets = page.get_attribute('.me .sp-pile[data-place="T1"]', "data-targets") or ""
            center = next((c for c in ("C1", "C2") if c not in targets.split()), None)
            if center is None:
                continue  # T1 fits on both centers: deal again
            page.keyboard.press("1")
            page.keyboard.press(CENTER_KEY[center])
            bubble = page.locator('.me .sp-pile[data-place="T1"] .sp-verdict')
            bubble.wait_for()
            box = page.evaluate("() => { const r = document.querySelector('.sp-verdict').getBoundingClientRect();"
                                " return [r.left, r.right]; }")
            assert box[0] >= 0 and box[1] <= 390, box
            assert "does not fit" in bubble.inner_text()
            assert watch.errors == [], watch.errors
            return
        raise AssertionError("T1 fitted both centers in 10 deals")
    finally:
        ctx.close()


@pytest.mark.timeout(180)  # a whole Spit game by keys
def test_the_game_over_dialog_is_above_the_banners(web_server: WebServer, browser: Any) -> None:
    """Two rounds won in a row end the game with the last round's banner still up: the banner must
    not cover the game-over dialog (on a phone, where the two overlap)."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        table_id, token = create_table(web_server, QUICK_BOT, options={**FAST, "rounds_in_a_row": 2})
        take_seat(page, web_server, table_id, 0, token)
        deadline = time.monotonic() + 150
        while not state(page)["over"]:
            assert time.monotonic() < deadline, "the game did not end"
            play_round_by_keys(page)
            st = state(page)
            if st["over"]:
                break
            if st["winner"] == "0":
                page.keyboard.press("s")
            page.wait_for_selector('.spit-table[data-phase="play"], .spit-table[data-over="1"]', timeout=10_000)
        page.wait_for_selector("#game-over")
        # what is painted on top, found by hit-testing (the banner lets clicks through: make it count)
        page.add_style_tag(content=".sp-banner, .sp-verdict { pointer-events: auto !important; }")
        covered = page.evaluate("""() => {
          const dialog = document.querySelector('#game-over .dialog');
          const out = [];
          const banner = document.querySelector('#sp-banner');
          const b = banner.getBoundingClientRect();
          const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
          if (!document.querySelector('#game-over').contains(top)) out.push(['banner on top', top && top.className]);
          for (const el of dialog.querySelectorAll('h2, .result')) {
            const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (!dialog.contains(hit)) out.push([el.textContent, hit && hit.className]);
          }
          return out;
        }""")
        assert covered == [], covered
        # the dialog closes (Esc or its button) to show the final table, and opens again
        page.keyboard.press("Escape")
        page.wait_for_selector("#game-over", state="detached")
        page.click("#show-over")
        page.click("#close-over")
        page.wait_for_selector("#game-over", state="detached")
        page.keyboard.press("Escape")
        page.wait_for_selector("#game-over")
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()
