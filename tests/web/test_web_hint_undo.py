"""The table's Hint and Undo buttons (at desktop and phone sizes) and a match's score and next game, in
headless Chromium against the real server (Playwright's sync API). The moves are chosen from what the
page marks playable."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from conftest import SIZES, WebServer, open_seat
from test_web_page import play_one_move, play_to_the_end, version, wait_for_turn


def open_quick_table(page: Any, server: WebServer, options: dict[str, Any], name: str = "Hal") -> str:
    """A quick game against the easy bot made over the API; the page holds the seat's token."""
    joined = httpx.post(server.base + "/api/quickplay", json={"name": name, "level": "easy", "preset": "classic",
                                                                "options": options}).json()
    table_id = joined["table"]["id"]
    open_seat(page, server.base, table_id, joined["token"], joined["seat"], ready=".table[data-status=playing]")
    return str(table_id)


def hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.dataset.card)"))


def hand_build(page: Any) -> tuple[str, str] | None:
    """A build play from the hand the page offers (with more than one card in hand: no refill)."""
    if len(hand(page)) < 2:
        return None
    offers = page.eval_on_selector_all('.me .hand-card[data-playable="1"]',
                                       "els => els.map(e => [e.dataset.source, e.dataset.targets])")
    for src, targets in offers:
        for target in targets.split():
            if target.startswith("B"):
                return src, target
    return None


@SIZES
def test_hint_shows_a_move_and_undo_takes_back_a_build_play(web_server: WebServer, page: Any,
                                                             viewport: dict[str, int]) -> None:
    open_quick_table(page, web_server, {"stock_size": 20})
    assert wait_for_turn(page)
    # the Hint button: the suggested move's source and target are marked, with one line of why
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-move]")
    move = page.get_attribute("#hint-text", "data-move")
    legal_sources = page.eval_on_selector_all('.me [data-playable="1"]', "els => els.map(e => e.dataset.source)")
    text = page.inner_text("#hint-text")
    # the move in words and its reason, without the notation or the bot's internal score
    assert move and move not in text and re.fullmatch(r"Hint: .+ (from|passes).* — .+", text), text
    assert not re.search(r"score|\(\d+\)", text), text
    if move != "pass":
        src, target = move.split("-")
        assert src in legal_sources
        marked = page.eval_on_selector_all('[data-hint="source"]', "els => els.map(e => e.dataset.source)")
        assert marked == [src]
        assert page.locator(f'[data-hint="target"][data-target="{target}"]').count() == 1
    # the Undo button: disabled until a build play of this turn is made, then it takes it back
    deadline = time.monotonic() + 40
    found = None
    while found is None:
        assert time.monotonic() < deadline, "no build play from the hand came up"
        assert wait_for_turn(page), "the game ended before a build play from the hand came up"
        found = hand_build(page)
        if found is None:
            play_one_move(page)
    assert page.locator("#undo").is_disabled() or page.get_attribute(".table", "data-can-undo") == "1"
    src, target = found
    cards_before, v = hand(page), version(page)
    card = page.get_attribute(f'.me .hand-card[data-source="{src}"][data-playable="1"] >> nth=0', "data-card")
    sent = f"H{card}-{target}" if card and card[-1] in "SHDC" else f"{src}-{target}"  # the card picked, named
    page.click(f'.me .hand-card[data-source="{src}"][data-playable="1"] >> nth=0')
    page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
    page.wait_for_selector(f'.table[data-version="{v + 1}"][data-can-undo="1"]')
    assert len(hand(page)) == len(cards_before) - 1
    page.click("#undo")
    page.wait_for_selector(f'.table[data-version="{v + 2}"]')
    assert sorted(hand(page)) == sorted(cards_before)
    undone = page.locator("#log li.undone").last
    assert undone.get_attribute("data-move") == sent
    assert re.search(r"took back: .+ from the hand onto build pile \d", undone.inner_text())
    # the keys: H (or ?) for a hint, U for undo
    page.keyboard.press("h")
    page.wait_for_selector("#hint-text[data-move]")
    page.click(f'.me .hand-card[data-source="{src}"][data-playable="1"] >> nth=0')
    page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
    page.wait_for_selector(f'.table[data-version="{v + 3}"][data-can-undo="1"]')
    page.keyboard.press("u")
    page.wait_for_selector(f'.table[data-version="{v + 4}"][data-can-undo="0"]')
    assert sorted(hand(page)) == sorted(cards_before)
    assert page.locator("#undo").is_disabled()


@pytest.mark.timeout(180)  # a match of several games played by clicks
def test_a_match_shows_the_score_and_the_next_game(web_server: WebServer, page: Any) -> None:
    table_id = open_quick_table(page, web_server, {"match_target": 2, "stock_size": 2}, name="Mia")
    score = page.locator("#match-score")
    assert score.get_attribute("data-target") == "2" and score.get_attribute("data-game") == "1"
    bot = page.inner_text(".opponent .seat-name")
    assert re.search(rf"Match to 2:.*Mia.*{re.escape(bot)}.*game 1", score.inner_text().replace("\n", " "))
    games = 1
    deadline = time.monotonic() + 150  # a bound (random deals: a game has run to 40 s)
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        play_to_the_end(page)  # (the bot may have won a game before the page came)
        page.locator("#game-over").wait_for()
        summary = page.locator("#game-over #match-final")
        scores = [int(x) for x in summary.get_attribute("data-scores").split()]
        assert summary.get_attribute("data-game") == str(games)
        if page.locator("#game-over[data-match=over]").count():
            break
        # the match goes on: the summary has the score and the next game, no rematch
        assert max(scores) < 2 and sum(scores) <= games
        assert httpx.get(f"{web_server.base}/api/tables/{table_id}").json()["status"] == "playing"
        assert page.locator("#rematch").count() == 0
        v = version(page)
        page.click("#next-game")
        # the bot is always ready: the next game begins at once (one version on; the bot may move first,
        # and with a stock of 2 even win at once)
        page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {v}"
                               f" && document.querySelector('#match-score').dataset.game === '{games + 1}'")
        games += 1
        if page.get_attribute(".table", "data-over") == "0":
            assert page.locator("#game-over").count() == 0
            header = page.locator("#match-score")
            assert [int(x) for x in header.get_attribute("data-scores").split()] == scores
    assert games >= 2 and max(scores) == 2
    assert "wins the match" in page.inner_text("#match-result")
    assert page.locator("#rematch").count() == 1
    assert httpx.get(f"{web_server.base}/api/tables/{table_id}").json()["status"] == "finished"
