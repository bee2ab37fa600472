"""The replay viewer (``/replay/{id}``) in headless Chromium: a finished game stepped forwards and back."""

from __future__ import annotations

import re
from typing import Any

import httpx
from conftest import ConsoleWatch, WebServer, shoot

from helpers import finished_bot_game, finished_spit_game


def ply(page: Any) -> int:
    return int(page.get_attribute(".table.replay", "data-ply"))


def stock_count(page: Any, seat: int) -> int:
    return int(page.text_content(f'.pile.stock[data-seat="{seat}"] .count'))


def test_replay_steps_forwards_and_back(page: Any, web_server: WebServer) -> None:
    game_id = finished_bot_game(web_server.base, stock_size=3)
    data = httpx.get(web_server.base + f"/api/games/{game_id}/positions").json()
    moves, positions = data["moves"], data["positions"]
    # the first stock play: the mover's stock count drops by one
    k = next(i for i, m in enumerate(moves) if m["move"].startswith("S-"))
    seat = moves[k]["seat"]

    fetched: list[str] = []
    page.on("request", lambda req: fetched.append(req.url.split("/static/", 1)[-1]))
    page.goto(web_server.base + f"/replay/{game_id}")
    page.wait_for_selector(".table.replay")
    assert ply(page) == 0 and page.text_content("#replay-move") == "The deal"
    # a Spite and Malice replay loads no part of the Spit screen
    assert "replay.js" in fetched and "games/spite-malice/replay-board.js" in fetched, fetched
    assert not [f for f in fetched if f.startswith(("games/spit/", "games/speed/"))], fetched
    assert int(page.get_attribute("#replay-ply", "max")) == len(moves)
    assert page.locator("#log li").count() == len(moves)
    # the computers go by their names at the table, with their levels (not "bot:easy", not "online")
    text = page.inner_text("main")
    assert "bot:" not in text and "computer · easy" in text and "computer · random" in text
    assert "online" not in text and "Seat" not in text
    names = page.locator(".player .seat-name").all_inner_texts()
    assert len(set(names)) == 2 and all(re.fullmatch(r"[A-Z][a-z]+", n) for n in names), names
    page.click("button.lang[data-lang=de]")
    assert "Computer · leicht" in page.inner_text("main")
    page.click("button.lang[data-lang=en]")

    page.click("#replay-next")
    assert ply(page) == 1 and page.get_attribute("#replay-move", "data-move") == moves[0]["move"]
    # the move in words: who, the card, from where, where to
    assert re.fullmatch(r"[A-Z][a-z]+: .+ (from|passes).*", page.text_content("#replay-move"))
    page.keyboard.press("ArrowRight")
    assert ply(page) == 2
    page.keyboard.press("ArrowLeft")
    page.click("#replay-prev")
    assert ply(page) == 0

    # the slider to just before the stock play, then ▶ and ◀
    page.fill("#replay-ply", str(k))
    assert ply(page) == k
    before = stock_count(page, seat)
    assert before == positions[k]["players"][seat]["stock"]
    page.click("#replay-next")
    assert ply(page) == k + 1 and page.get_attribute("#replay-move", "data-move") == moves[k]["move"]
    assert "from the stock onto build pile" in page.text_content("#replay-move")
    assert stock_count(page, seat) == before - 1
    assert page.locator("#log li.current").get_attribute("data-ply") == str(k + 1)
    shoot(page, "web-replay.png")
    page.click("#replay-prev")
    assert stock_count(page, seat) == before

    # the end: the result; ▶ stays there
    page.keyboard.press("End")
    assert ply(page) == len(moves)
    assert page.is_visible("#replay-result")
    page.click("#replay-next")
    assert ply(page) == len(moves)
    # a click in the move list
    page.click('#log li[data-ply="1"]')
    assert ply(page) == 1

    # the finished table's page links the replay
    page.goto(web_server.base + f"/t/{data['tableId']}")
    page.click("#replay-link")
    page.wait_for_selector(".table.replay")
    assert ply(page) == 0


def test_replay_of_an_unknown_game(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(web_server.base + "/replay/99999")
    page.wait_for_selector("#replay-error")
    assert "no finished game" in page.text_content("#replay-error")
    # the page's own 404 answer is logged by the browser as a failed resource; nothing else
    assert all("404" in e and "Failed to load resource" in e for e in watch.errors), watch.errors


def spit_ply(page: Any) -> int:
    return int(page.get_attribute(".spit-table.replay", "data-ply"))


def center_tops(page: Any) -> list[str | None]:
    """The top card of each center pile as drawn (None: an empty pile)."""
    out: list[str | None] = []
    for pile in page.locator('.sp-centers .sp-pile').all():
        card = pile.locator("[data-card]")
        out.append(card.get_attribute("data-card") if card.count() else None)
    return out


def tableau_counts(page: Any, seat: int) -> list[int]:
    side = page.locator(f'.sp-side[data-seat="{seat}"]')
    return [int(v) for v in side.locator(".sp-tableau .sp-pile").evaluate_all("els => els.map(e => e.dataset.cards)")]


def test_spit_replay_steps_forwards_and_back(page: Any, web_server: WebServer) -> None:
    game_id = finished_spit_game(web_server.base, "spit")
    data = httpx.get(web_server.base + f"/api/games/{game_id}/positions").json()
    moves, positions = data["moves"], data["positions"]
    assert data["game"] == "spit" and len(positions) == len(moves) + 1 and moves
    # the first play onto a center pile
    k = next(i for i, m in enumerate(moves) if m["move"] and "-C" in m["move"])
    seat = moves[k]["seat"]

    page.goto(web_server.base + f"/replay/{game_id}")
    page.wait_for_selector(".spit-table.replay")
    assert spit_ply(page) == 0 and page.text_content("#replay-move") == "The deal"
    # the Spit screen's styles came with its module
    assert page.eval_on_selector(".spit-table", "e => getComputedStyle(e).display") == "grid"
    assert int(page.get_attribute("#replay-ply", "max")) == len(moves)
    assert page.locator("#log li").count() == len(moves)
    assert center_tops(page) == [c["top"] for c in positions[0]["centers"]]
    assert page.text_content("#sp-clock") == "0:00.0"

    page.click("#replay-next")
    assert spit_ply(page) == 1 and page.get_attribute("#replay-move", "data-move") == moves[0]["move"]
    said = page.text_content("#replay-move").split(": ", 1)[-1]  # in words, not the notation ("calls spit", not "spit")
    assert said != moves[0]["move"] and not re.search(r"\b[TH]\d+-C\d+\b", said), said
    page.keyboard.press("ArrowRight")
    assert spit_ply(page) == 2
    page.keyboard.press("ArrowLeft")
    page.click("#replay-prev")
    assert spit_ply(page) == 0

    # the slider to just before the center play, then ▶ (the card leaves the tableau) and ◀
    page.fill("#replay-ply", str(k))
    assert spit_ply(page) == k
    before = tableau_counts(page, seat)
    assert before == [p["cards"] for p in positions[k]["players"][seat]["tableau"]]
    page.click("#replay-next")
    assert spit_ply(page) == k + 1 and page.get_attribute("#replay-move", "data-move") == moves[k]["move"]
    assert re.search(r"from tableau pile \d onto center pile \d", page.text_content("#replay-move"))
    after = [p["cards"] for p in positions[k + 1]["players"][seat]["tableau"]]
    assert tableau_counts(page, seat) == after and sum(after) == sum(before) - 1
    assert center_tops(page) == [c["top"] for c in positions[k + 1]["centers"]]
    # the game time of the step: in the step's words, on the clock and in the move list
    t = moves[k]["t"]
    tenths = (t + 50) // 100  # rounded half up, as the page rounds (Python's round() halves to even)
    shown = f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"
    assert int(page.get_attribute(".spit-table.replay", "data-t")) == t
    assert page.text_content("#replay-move").startswith(shown) and page.text_content("#sp-clock") == shown
    assert page.locator("#log li.current").get_attribute("data-ply") == str(k + 1)
    assert shown in page.text_content("#log li.current")
    shoot(page, "web-replay-spit.png")
    page.click("#replay-prev")
    assert tableau_counts(page, seat) == before

    # the end: the result and the final table; ▶ stays there
    page.keyboard.press("End")
    assert spit_ply(page) == len(moves)
    assert page.is_visible("#replay-result") and page.get_attribute(".spit-table.replay", "data-over") == "1"
    assert center_tops(page) == [c["top"] for c in positions[-1]["centers"]]
    for s in (0, 1):
        assert tableau_counts(page, s) == [p["cards"] for p in positions[-1]["players"][s]["tableau"]]
    page.click("#replay-next")
    assert spit_ply(page) == len(moves)
    page.click('#log li[data-ply="1"]')
    assert spit_ply(page) == 1
    page.keyboard.press("Home")
    assert spit_ply(page) == 0

    # the finished table's page and the stats page link the replay
    page.goto(web_server.base + f"/t/{data['tableId']}")
    page.click("#replay-link")
    page.wait_for_selector(".spit-table.replay")
    assert spit_ply(page) == 0
    page.goto(web_server.base + f"/stats/{data['players'][0]['player']}")
    page.click(f'#games-list li[data-game-id="{game_id}"] a.replay-link')
    page.wait_for_selector(".spit-table.replay")


def test_speed_replay_from_the_game_over_dialog(page: Any, web_server: WebServer) -> None:
    # two fast bots play Speed; the page watches until the game-over dialog, whose Replay link opens the viewer
    r = httpx.post(web_server.base + "/api/tables", json={
        "game": "speed", "join": False, "options": {"auto_spit_ms": 150, "time_limit_s": 3},
        "seats": [{"kind": "bot", "level": "reflex:30"}, {"kind": "bot", "level": "reflex:60"}]})
    assert r.status_code == 200, r.text
    page.goto(web_server.base + f"/t/{r.json()['id']}?watch=1")
    page.wait_for_selector("#game-over #replay-link", timeout=30_000)
    page.click("#game-over #replay-link")
    page.wait_for_selector(".spit-table.replay")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    data = httpx.get(web_server.base + f"/api/games/{game_id}/positions").json()
    assert data["game"] == "speed" and data["tableId"] == r.json()["id"]
    positions = data["positions"]
    page.goto(web_server.base + f"/replay/{game_id}?ply=1")
    page.wait_for_selector(".spit-table.replay")
    assert spit_ply(page) == 1 and page.get_attribute(".spit-table.replay", "data-game") == "speed"
    for s in (0, 1):
        hand = page.locator(f'.sp-side[data-seat="{s}"] .sp-hand [data-card]')
        assert hand.evaluate_all("els => els.map(e => e.dataset.card)") == positions[1]["players"][s]["hand"]
    page.keyboard.press("End")
    assert spit_ply(page) == len(data["moves"]) and page.is_visible("#replay-result")
