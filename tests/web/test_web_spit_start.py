"""The start of a Spit game in the browser, with the server's start countdown on: the center
piles lie face down and nothing is playable until "go" (so neither player can plan ahead); at go
the cards turn up, the seat's playable cards are marked and the prompt says what to do."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SIZES, WebServer, open_seat
from test_web_spit import COUNTDOWN_OVER_JS, create_table, state

SLOW_BOT = [{"kind": "person"}, {"kind": "bot", "level": "reflex:60000"}]


@pytest.fixture(scope="module")
def countdown_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    server = WebServer(tmp_path_factory.mktemp("web-start") / "spite.db", "--start-countdown", "2")
    try:
        yield server
    finally:
        server.stop()


@SIZES
def test_the_center_cards_turn_up_at_go(countdown_server: WebServer, page: Any, viewport: dict[str, int]) -> None:
    server = countdown_server
    for _ in range(5):
        table_id, token = create_table(server, SLOW_BOT)
        open_seat(page, server.base, table_id, token, ready='.spit-table[data-status=playing][data-seat="0"]')
        # the countdown: two center piles, face down, with their sizes; nothing to play yet
        assert "the game starts in" in page.inner_text("#sp-prompt")
        assert page.locator(".sp-centers .center-pile").count() == 2
        assert page.locator(".sp-centers [data-card]").count() == 0
        assert page.locator(".sp-centers .center-pile svg").count() == 2
        assert all(int(x) > 0 for x in page.locator(".sp-centers .count").all_inner_texts())
        assert page.locator('.me [data-playable="1"]').count() == 0
        # go: the cards turn up for everyone; the playable cards are marked
        page.wait_for_selector(".sp-centers [data-card]", timeout=6000)
        assert page.locator(".sp-centers [data-card]").count() == 2
        page.wait_for_function(COUNTDOWN_OVER_JS)
        st = state(page)
        if not st["plays"]:
            continue  # a deal with nothing to play until the first spit: deal again
        assert page.inner_text("#sp-prompt") == "Play! A card one up or down onto a center pile."
        page.click("button.lang[data-lang=de]")
        assert page.inner_text("#sp-prompt").startswith("Los! Eine Karte")
        page.click("button.lang[data-lang=en]")
        return
    raise AssertionError("no deal with a play at the start in 5 tables")
