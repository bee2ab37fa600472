"""The table's feel in Chromium: cards fly from where they were to where they land (and input during
a flight is applied at once), reduced motion turns that off, the computer's moves come at the pace
the player picked, sounds follow a toggle that is remembered, the tab title says when it is your
turn, and the game-over view can be closed to look at the board.

Every test plays only through the page; times are floors the page keeps (the pace), never a
measure of how fast the machine is."""

from __future__ import annotations

import itertools
import re
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, SIZES, ConsoleWatch, WebServer, close_side_panel_on_a_phone, open_side_panel
from test_web_page import GAME_TIMEOUT, play_one_move, start_quick_game, wait_for_turn

from waiting import bounded

# every sound the page makes goes through an oscillator or a buffer source: count their starts
COUNT_SOUNDS = """
window.__sounds = 0;
for (const name of ["createOscillator", "createBufferSource"]) {
  const make = AudioContext.prototype[name];
  AudioContext.prototype[name] = function (...args) { window.__sounds += 1; return make.apply(this, args); };
}
"""

SOUND_NAMES = """
window.__names = [];
document.addEventListener('spite:sound', (e) => window.__names.push(e.detail.name));
"""
"""An init script: the names of the sounds the page makes, in order (``window.__names``)."""


@contextmanager
def table_page(browser: Any, *, viewport: dict[str, int] = DESKTOP, locale: str = "en-US", pace: str = "instant",
               reduced: bool = False, init: str = "") -> Iterator[Any]:
    ctx = browser.new_context(viewport=viewport, locale=locale, reduced_motion="reduce" if reduced else "no-preference")
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(f"if (!localStorage.getItem('spite.pace')) localStorage.setItem('spite.pace', '{pace}');"
                        + init)
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        yield page
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


def flights(page: Any) -> int:
    return int(page.evaluate("Number(document.documentElement.dataset.flights || 0)"))


# One move made the moment a card starts flying (while its animation runs) in the seat's turn: the
# page's own clicks on what it marks playable. ``window.__during`` then says how many flights were
# running at the time, the version before and the move; the caller waits for the version to move on.
MOVE_DURING_FLIGHT = """
() => { window.__during = null; const resolve = (r) => { window.__during = r; };
  const onFlight = () => queueMicrotask(() => {
    const table = document.querySelector('.table');
    if (table.dataset.myTurn !== '1') return;  // the bot's flights: wait for the seat's turn
    const running = document.getAnimations().filter((a) => a.playState === 'running'
      && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('#anim-layer')).length;
    const before = Number(table.dataset.version);
    const src = document.querySelector('.me [data-playable="1"]');
    if (!src) return;
    src.click();
    const target = document.querySelector('[data-legal="1"]');
    if (!target) return;
    document.removeEventListener('spite:flight', onFlight);
    target.click();
    const card = src.classList.contains('hand-card') ? src.dataset.card : '';  // a hand card: sent as itself
    const from = card && /[SHDC]$/.test(card) ? 'H' + card : src.dataset.source;
    resolve({running, before, move: from + '-' + target.dataset.target});
  });
  document.addEventListener('spite:flight', onFlight);
}
"""


@SIZES
def test_a_played_card_flies_to_its_target_and_input_during_the_flight_is_applied(
        web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport) as page:
        start_quick_game(page, web_server, name="Fly", stock=8, level="easy")
        assert wait_for_turn(page)
        before = flights(page)
        page.evaluate("() => { window.__seen = []; document.addEventListener('spite:flight', (e) => "
                      "window.__seen.push([e.detail.move, document.querySelector('#anim-layer .flying') !== null])); }")
        page.evaluate(MOVE_DURING_FLIGHT)
        move = play_one_move(page)  # its flight (or the bot's answer's) triggers the second move
        assert flights(page) > before
        page.wait_for_function("window.__during !== null")
        seen = page.evaluate("window.__seen")
        assert [move, True] in seen, seen   # the card moved by this page flew, a copy in the layer
        result = page.evaluate("window.__during")
        assert result["running"] >= 1, "the second move was made while a flight ran"
        page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {result['before']}"
                               " || document.querySelector('.table').dataset.over === '1'")
        log = page.locator("#log li code").all_inner_texts()
        assert result["move"] in log, (result, log)


@SIZES
def test_reduced_motion_turns_the_flights_off(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport, reduced=True) as page:
        start_quick_game(page, web_server, name="Still", stock=6, level="easy")
        for _ in range(3):
            if not wait_for_turn(page):
                break
            play_one_move(page)
        wait_for_turn(page)
        assert page.locator("#log li code").count() >= 3   # moves were made and shown
        assert flights(page) == 0
        assert page.locator("#anim-layer .flying").count() == 0


# every position shown: when (page time) and who moved last, from the log's last entry
RECORD_SHOWN = """
() => {
  window.__shown = [];
  let last = '';
  if (window.__shownObserver) window.__shownObserver.disconnect();   // measured again in the same page
  window.__shownObserver = new MutationObserver(() => {
    const li = document.querySelector('#log li:last-child');
    const key = li ? li.textContent : '';
    if (li && key !== last) { last = key; window.__shown.push([performance.now(), li.dataset.seat ?? '']); }
  });
  window.__shownObserver.observe(document.getElementById('main'), {childList: true, subtree: true});
}
"""


def bot_gaps(page: Any, web_server: WebServer, pace: str, *, start: bool = True, want: int = 3) -> list[float]:
    """The time from a shown move to the bot's next shown move, over a few of its turns (``want``
    gaps at least, in a new game unless ``start`` is False)."""
    if start:
        start_quick_game(page, web_server, name=f"Pace{pace}", stock=10, level="easy", until_my_turn=False)
    if pace != "instant":
        page.select_option("#pace", pace)
    page.evaluate(RECORD_SHOWN)
    gaps: list[float] = []
    for _ in range(30):   # until the computer has made a few moves (our build plays keep our turn)
        if len(gaps) >= want or not wait_for_turn(page, timeout=40):
            break
        play_one_move(page)
        shown = page.evaluate("window.__shown")
        gaps = [t1 - t0 for (t0, _), (t1, seat) in itertools.pairwise(shown) if seat == "1"]
    return gaps


@pytest.mark.timeout(180)  # the computer's moves at their pace, timed
def test_the_pace_setting_spaces_the_computers_moves_and_is_remembered(web_server: WebServer, browser: Any) -> None:
    with table_page(browser, pace="normal") as page:
        slow = bot_gaps(page, web_server, "slow")
        assert page.evaluate("localStorage.getItem('spite.pace')") == "slow"
        page.reload()
        page.wait_for_selector(".table")
        assert page.input_value("#pace") == "slow"
        fast = bot_gaps(page, web_server, "fast")
    assert slow and fast, (slow, fast)
    # slow: 1.3 s from a shown move to the computer's next, fast: 0.3 s; the page counts the pace from
    # the end of a move's redraw, and the gaps are measured from the end of one redraw to the end of the
    # next, so a slow redraw (a busy machine) lengthens a gap and never shortens it
    assert min(slow) >= 1100, slow
    assert min(fast) >= 150, fast
    assert statistics.median(fast) < statistics.median(slow) - 500, (fast, slow)


def test_on_a_phone_the_pace_select_spaces_the_computers_moves(web_server: WebServer, browser: Any) -> None:
    """The same on a phone, in one game and with fewer of the computer's moves: the select is there
    and usable at 390 px, slow keeps the moves 1.1 s apart, fast much closer, the choice is kept."""
    with table_page(browser, viewport=PHONE, pace="normal") as page:
        slow = bot_gaps(page, web_server, "slow", want=2)
        assert page.locator("#pace").is_visible()
        assert page.evaluate("localStorage.getItem('spite.pace')") == "slow"
        fast = bot_gaps(page, web_server, "fast", start=False, want=2)
        assert page.evaluate("localStorage.getItem('spite.pace')") == "fast"
    assert slow and fast, (slow, fast)
    assert min(slow) >= 1100, slow
    assert min(fast) >= 150, fast
    assert statistics.median(fast) < statistics.median(slow) - 500, (fast, slow)


@SIZES
def test_sound_follows_a_remembered_toggle(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport, init=COUNT_SOUNDS) as page:
        start_quick_game(page, web_server, name="Loud", stock=8, level="easy")
        assert wait_for_turn(page)
        play_one_move(page)
        page.wait_for_function("window.__sounds > 0")   # a play or a discard sounded
        open_side_panel(page)   # the settings are in the side panel (folded away on a phone)
        page.click("#sound")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert page.evaluate("localStorage.getItem('spite.sound')") == "off"
        close_side_panel_on_a_phone(page)
        page.evaluate("window.__sounds = 0")
        if wait_for_turn(page):
            play_one_move(page)
            wait_for_turn(page)
        assert page.evaluate("window.__sounds") == 0
        page.reload()
        open_side_panel(page)
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert "off" in page.inner_text("#sound").lower()
        page.click("#sound")   # on again: the click itself sounds
        page.wait_for_function("window.__sounds > 0")


def finish_game(page: Any) -> None:
    # a bound in moves, not seconds: on a busy machine each click's redraw takes longer, and the
    # test's own timeout still stops a game that hangs
    for _ in bounded(400, "the game's end (400 moves by clicks)"):
        if not wait_for_turn(page):
            break
        play_one_move(page)


@pytest.mark.timeout(180)  # a whole game by clicks
@SIZES
def test_the_tab_title_shows_the_turn_and_the_game_over_view_closes(web_server: WebServer, browser: Any,
                                                                       viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport, init=SOUND_NAMES) as page:
        over = page.locator("#game-over")
        # stocks of 2: a whole game is about 10 moves of the person's (15 at stocks of 3); in about one
        # deal in four the computer plays out its stock before the turn comes back, and is dealt again
        for _ in range(6):
            start_quick_game(page, web_server, name="Tess", stock=2, level="easy")
            assert wait_for_turn(page)
            assert "Your turn" in page.title()
            page.click("button.lang[data-lang=de]")
            assert "Du bist am Zug" in page.title()
            page.click("button.lang[data-lang=en]")
            finish_game(page)
            over.wait_for()
            assert "Your turn" not in page.title()
            names = page.evaluate("window.__names")
            if "turn" in names:
                break
            # the computer played out its stock in its first turn, so no turn came back to the
            # person: deal again
        # the turn came back with a sound, and the end sounded the win or the loss
        assert "turn" in names and names[-1] in ("win", "loss"), names
        assert re.fullmatch(r"/replay/\d+", page.get_attribute("#replay-link", "href") or "")
        # the time at once, the move count once the game's record has come (the page fetches it)
        page.wait_for_function(r"""() => /\d+ moves · \d+:\d\d/.test(
                               document.getElementById('over-summary')?.textContent ?? '')""")
        assert "stock cards left" in over.inner_text()
        page.keyboard.press("Escape")          # the final board, without the view over it
        page.wait_for_selector("#game-over", state="detached")
        page.wait_for_selector(".board .center")
        page.click("#show-over")
        over.wait_for()
        page.click("#close-over")
        page.wait_for_selector("#game-over", state="detached")
        page.click("#show-over")
        page.click("#replay-link")
        page.wait_for_url(re.compile(r"/replay/\d+$"))


# every flight's name; for each card dealt, whether its copy lands on one of this seat's hand cards
# (the copy's place is where it lands; its animation starts it at the draw pile) and lies within the
# screen's width
WATCH_DEALS = """
() => {
  window.__seen = []; window.__dealt = [];
  document.addEventListener('spite:flight', (e) => {
    window.__seen.push(e.detail.move);
    if (e.detail.move !== 'deal') return;
    const ghost = [...document.querySelectorAll('#anim-layer .flying[data-flight="deal"]')].pop();
    const x = parseFloat(ghost.style.left), y = parseFloat(ghost.style.top), w = parseFloat(ghost.style.width);
    const onMyHand = [...document.querySelectorAll('.me .hand .card')].some((c) => {
      const r = c.getBoundingClientRect(); return Math.abs(r.left - x) < 1 && Math.abs(r.top - y) < 1; });
    window.__dealt.push({onMyHand, onScreen: x >= 0 && x + w <= window.innerWidth + 0.5});
  });
}
"""


@SIZES
def test_a_refill_is_dealt_and_the_bots_last_move_stays_marked(web_server: WebServer, browser: Any,
                                                                viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport) as page:
        start_quick_game(page, web_server, name="Mark", stock=8, level="easy")
        page.evaluate(WATCH_DEALS)
        discarded = False
        for _ in range(30):   # until a discard has ended our turn and the computer has had its turn
            assert wait_for_turn(page)
            if discarded:
                break
            discarded = "-D" in play_one_move(page)
        # the hand was refilled from the draw pile at the start of our turn: dealt card by card, each
        # copy landing on one of our hand cards, on the screen's width
        assert "deal" in page.evaluate("window.__seen"), page.evaluate("window.__seen")
        dealt = page.evaluate("window.__dealt")
        assert dealt and all(d["onScreen"] for d in dealt), dealt
        assert any(d["onMyHand"] for d in dealt), dealt
        page.wait_for_timeout(1600)   # longer than any fading highlight: the mark is still there
        assert page.locator(".opponents .flash, .center .flash").count() >= 1
        last_bot = page.locator('#log li[data-seat="1"] code').last.inner_text()
        assert re.fullmatch(r"(S|H\w+|D\d)-[BD]\d", last_bot)


SPIT_SOUNDS = COUNT_SOUNDS + SOUND_NAMES
"""An init script: the sounds' starts counted (``window.__sounds``) and their names (``window.__names``)."""


def test_spit_sounds_the_flip_and_the_slap(web_server: WebServer, browser: Any) -> None:
    from test_web_spit import FAST, ROUND_BOT, create_table, play_round_by_keys, state, take_seat

    with table_page(browser, init=SPIT_SOUNDS) as page:
        table_id, token = create_table(web_server, ROUND_BOT, options=FAST)
        take_seat(page, web_server, table_id, 0, token)
        page.mouse.click(2, 2)   # a touch of the page lets it sound (autoplay rules)
        play_round_by_keys(page)
        st = state(page)
        if not st["over"] and st["winner"] == "0":
            page.keyboard.press("s")
        page.wait_for_function("window.__names.includes('slap')"
                               " || document.querySelector('.spit-table').dataset.over === '1'", timeout=15_000)
        names = page.evaluate("window.__names")
        assert "play" in names and "flip" in names, names
        assert "slap" in names or state(page)["over"], names
        assert page.evaluate("window.__sounds") > 0
        # the toggle is the same as at the Spite and Malice table, in the side panel
        open_side_panel(page)
        page.click("#sound")
        assert page.evaluate("localStorage.getItem('spite.sound')") == "off"


SPIT_KEY = {"C1": "q", "C2": "w", "C3": "e"}


def test_on_a_phone_spit_sounds_the_flip_and_the_toggle_is_in_the_folded_panel(web_server: WebServer,
                                                                               browser: Any) -> None:
    """Spit on a phone sounds its plays and the flip of the spit cards, and its sound toggle is in
    the side panel, folded away at first: over the round's first moves, up to the first flip heard,
    rather than the whole round (the slap at the round's end is heard in the desktop test)."""
    from test_web_spit import FAST, ROUND_BOT, create_table, state, take_seat

    with table_page(browser, viewport=PHONE, init=SPIT_SOUNDS) as page:
        table_id, token = create_table(web_server, ROUND_BOT, options=FAST)
        take_seat(page, web_server, table_id, 0, token)
        page.mouse.click(2, 2)   # a touch of the page lets it sound (autoplay rules)
        heard = "() => window.__names.includes('play') && window.__names.includes('flip')"
        for _ in bounded(300, "a play and a flip of the spit cards, heard"):
            st = state(page)
            if page.evaluate(heard) or st["phase"] != "play" or st["over"]:
                break
            # one move by keys from the page's marks: a center play, else a move between my piles,
            # else the spit (when nobody can play, the table flips the spit cards by itself)
            center = next(((p, t) for p, ts in st["plays"] for t in ts if t.startswith("C")), None)
            slot = next(((p, t) for p, ts in st["plays"] for t in ts if t.startswith("T")), None)
            if center:
                page.keyboard.press(center[0][1:])
                page.keyboard.press(SPIT_KEY[center[1]])
            elif slot:
                page.keyboard.press(slot[0][1:])
                page.keyboard.press(slot[1][1:])
            elif st["spit"]:
                page.keyboard.press("Space")
            # the next position: a move of either seat, a flip, or the round's end
            page.wait_for_function("""(v) => { const t = document.querySelector('.spit-table');
              return Number(t.dataset.version) > v || t.dataset.phase !== 'play' || t.dataset.over === '1'; }""",
                                   arg=st["version"], timeout=15_000)
        names = page.evaluate("window.__names")
        assert "play" in names and "flip" in names, names
        assert page.evaluate("window.__sounds") > 0
        # the toggle is in the side panel, folded away on a phone until its button opens it
        assert page.get_attribute("#panel-toggle", "aria-expanded") == "false"
        open_side_panel(page)
        page.click("#sound")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert page.evaluate("localStorage.getItem('spite.sound')") == "off"


@SIZES
def test_a_hidden_table_skips_to_the_newest_position(web_server: WebServer, browser: Any,
                                                     viewport: dict[str, int]) -> None:
    """At the slow pace, a tab that is not looked at (``document.hidden``) does not hold the
    computer's moves back: each is shown as it comes."""
    with table_page(browser, viewport=viewport, pace="slow") as page:
        start_quick_game(page, web_server, name="Away", stock=10, level="easy", until_my_turn=False)
        page.evaluate("() => { Object.defineProperty(document, 'hidden', {get: () => true});"
                      " document.dispatchEvent(new Event('visibilitychange')); }")
        gaps = bot_gaps(page, web_server, "instant", start=False)
    assert gaps, gaps
    assert statistics.median(gaps) < 800, gaps   # the slow pace would keep them 1.3 s apart


# Each position drawn: the build piles' values, and whether a leaving card is in the animation layer
# (the full pile's last card going away); a completion is a pile showing 11 that is empty next (its
# twelfth card completed it).
WATCH_BUILDS = """
() => {
  window.__builds = []; window.__leaving = 0; window.__completed = [];
  const values = () => [...document.querySelectorAll('.center [data-pile="build"]')]
    .map((e) => Number(e.dataset.value));
  let last = values();
  new MutationObserver(() => {
    const now = values();
    if (now.length === last.length && now.some((v, i) => v === 0 && last[i] === 11)) {
      const leaving = document.querySelector('#anim-layer .flying.leaving[data-flight="complete"]');
      const moving = leaving && leaving.getAnimations()
        .some((a) => a.playState === 'running' || a.playState === 'pending');
      window.__completed.push({leaving: Boolean(moving)});
    }
    if (now.length) last = now;
  }).observe(document.getElementById('main'), {childList: true, subtree: true});
  new MutationObserver(() => { window.__leaving += document.querySelectorAll('#anim-layer .leaving').length; })
    .observe(document.body, {childList: true, subtree: true});
}
"""


def play_until_a_pile_completes(page: Any) -> list[dict[str, bool]]:
    """Play build plays first (the computer does too) until a build pile of 12 has been completed by
    either seat; what the page showed at each completion."""
    page.evaluate(WATCH_BUILDS)
    deadline = time.monotonic() + 2 * GAME_TIMEOUT
    while not page.evaluate("window.__completed.length"):
        assert time.monotonic() < deadline, "no build pile was completed"
        assert wait_for_turn(page), "the game ended before a build pile was completed"
        play_one_move(page)
    return list(page.evaluate("window.__completed"))


@pytest.mark.timeout(180)  # plays until a build pile of 12 is completed
@SIZES
def test_a_completed_build_pile_visibly_leaves(web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    with table_page(browser, viewport=viewport, init=SOUND_NAMES) as page:
        start_quick_game(page, web_server, name="Pile", stock=20, level="hard", preset="classic")
        completed = play_until_a_pile_completes(page)
        # the full pile's card goes away, animated, the moment the emptied pile is drawn; it sounds
        assert completed[0]["leaving"], completed
        assert "complete" in page.evaluate("window.__names")


def test_with_reduced_motion_a_completed_pile_just_goes(web_server: WebServer, browser: Any) -> None:
    with table_page(browser, reduced=True, init=SOUND_NAMES) as page:
        start_quick_game(page, web_server, name="Calm", stock=20, level="hard", preset="classic")
        completed = play_until_a_pile_completes(page)
        # the emptied pile is drawn at once, with nothing moving (the sound still says it)
        assert completed == [{"leaving": False}] * len(completed)
        assert page.evaluate("window.__leaving") == 0 and flights(page) == 0
        assert "complete" in page.evaluate("window.__names")
