"""Helpers for the Textual app tests: run an app headless, wait for the human, press a move's keys."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from spite.cards import RANKS
from spite.malice import DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Move, SeatView
from spite.malice.moves import with_card
from spite.malice.tui.screen import MaliceScreen
from spite.malice.tui.session import sorted_hand
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import LinkListener, TableLink


def run(config: TuiConfig, body: Callable[[SpiteApp, Pilot[Any]], Awaitable[None]],
        size: tuple[int, int] = (80, 24)) -> SpiteApp:
    """Run ``body`` against a headless app of ``config`` and return the app."""
    app = SpiteApp(config)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main())
    return app


def malice(app: SpiteApp) -> MaliceScreen:
    """The Spite and Malice screen of the app."""
    screen = app.game_screen
    assert isinstance(screen, MaliceScreen), screen
    return screen


async def wait_for(pilot: Pilot[Any], done: Callable[[], bool], rounds: int = 2000) -> None:
    """Let the app run until ``done()`` (bots moving in worker threads), or fail."""
    for _ in range(rounds):
        if done():
            return
        await pilot.pause(0.002)
    raise AssertionError("the app never reached the expected state")


async def wait_for_human(pilot: Pilot[Any], app: SpiteApp) -> None:
    """Wait until a person may act, or the game is over."""
    await wait_for(pilot, lambda: malice(app).waiting_for_human or malice(app).table.state.is_over)


def keys_for(view: SeatView, move: Move, slots: list[int | None] | None = None) -> list[str]:
    """The keys that play ``move`` on the screen: source, then target (``p`` for a pass).

    ``slots``: the card under each hand key (:meth:`MaliceScreen.hand_slots`); by default the
    sorted hand, which is what the keys are at the start of a turn.
    """
    if move.kind == PASS:
        return ["p"]
    if move.source == STOCK and move.kind != DISCARD:
        keys = ["s"]
    elif move.source == DISCARD_PILE and move.kind != DISCARD:
        keys = ["d", str(move.pile + 1)]
    else:
        hand = sorted_hand(view) if slots is None else slots
        slot = next(i for i, c in enumerate(hand) if c is not None and RANKS[c] == move.rank)
        keys = [str(slot + 1)]
    keys += ["d" if move.kind == DISCARD else "b", str(move.target + 1)]
    return keys


def keyed_move(view: SeatView, move: Move, slots: list[int | None] | None = None) -> Move:
    """The move :func:`keys_for` types for ``move``: a hand move names the card under the key pressed
    (the card the person picked is the one that moves), every other move is itself."""
    if move.kind == PASS or move.source != HAND:
        return move
    hand = sorted_hand(view) if slots is None else slots
    card = next(c for c in hand if c is not None and RANKS[c] == move.rank)
    return with_card(move, card)


_CHARS = {"space": " ", "question_mark": "?", "escape": None, "enter": "\r"}


async def type_keys(pilot: Pilot[Any], *keys: str) -> None:
    """Press keys like :meth:`Pilot.press`, without its idle-CPU waits (slow on a busy machine).

    Each key event goes into the app's queue as the terminal driver would put it there; then the
    screen and its widgets work off every message pending (three rounds: app → screen → bubbling).
    """
    app = pilot.app
    for key in keys:
        app.post_message(events.Key(key, _CHARS.get(key, key if len(key) == 1 else None)))
        for _ in range(3):
            await pilot._wait_for_screen()


def count_setups(monkeypatch: pytest.MonkeyPatch, screen_class: type[Any]) -> list[object]:
    """The screens that ``screen_class.on_mount`` sets up from now on (in the test), one entry a call."""
    setups: list[object] = []
    original = screen_class.on_mount

    def counted(self: object) -> None:
        setups.append(self)
        original(self)

    monkeypatch.setattr(screen_class, "on_mount", counted)
    return setups


class QuietLink(TableLink):
    """A :class:`TableLink` without a socket: it records what the table sends, and the test hands it the
    server's messages (:meth:`TableLink.receive`) as a server would. Made from the first ``welcome``."""

    def __init__(self, welcome: dict[str, Any], token: str | None = "t") -> None:
        super().__init__("http://h:1", str(welcome["table"]["id"]), token)
        self.sent: list[dict[str, Any]] = []
        self.receive(welcome)  # as the answer to the first hello

    def send(self, msg: dict[str, Any]) -> bool:
        self.sent.append(msg)
        return True

    async def run(self, listener: LinkListener) -> None:
        self.listener = listener
        self.connected = True
        self.connects = 1


class FakeClock:
    """A clock the test moves by hand (seconds), for the real-time games."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def past_the_countdown(pilot: Pilot[Any], clock: FakeClock) -> None:
    """Let a Spit or Speed table's start countdown run out ("one, two, three — spit!"): play may begin."""
    from spite.spit.tui.screen import SpitScreen
    from spite.spit.tui.session import START_COUNTDOWN_S

    screen = pilot.app.screen
    assert isinstance(screen, SpitScreen), screen
    clock.now += START_COUNTDOWN_S
    screen.tick()
    assert screen.starts_in_ms() == 0
    await pilot.pause()


def region_text(app: SpiteApp, selector: str) -> list[str]:
    """What the screen shows inside the widget ``selector`` (its content region of :meth:`SpiteApp.screen_text`),
    line by line, right-trimmed."""
    x, y, width, height = app.screen.query_one(selector).content_region
    lines = app.screen_text().splitlines()
    return [line[x:x + width].rstrip() for line in lines[y:y + height]]


def as_one_line(lines: list[str]) -> str:
    """Lines wrapped on screen read as one (every run of spaces one space)."""
    return " ".join(" ".join(lines).split())


def check_table_and_log(app: SpiteApp, log_selector: str) -> list[str]:
    """The table and the log share the terminal: every line fits; from 112 columns the log is a panel
    under the head line that reaches the right edge and the bottom and begins where the table's widest
    row ends (no empty columns between them); below that it spans the width under the table. The
    log's lines, as shown (without the empty ones after them)."""
    width, height = app.size
    lines = app.screen_text().splitlines()
    assert len(lines) == height and all(len(line) <= width for line in lines)
    x, y, w, h = app.screen.query_one(log_selector).region
    if width >= 112:
        assert x + w == width and y + h == height, (x, y, w, h)  # to the right edge and the bottom
        table_edge = max(len(line[:x].rstrip()) for line in lines[y:-1])
        assert x - table_edge <= 3, f"{x - table_edge} empty columns between the table and the log"
        assert lines[y][x] == "│"  # the panel's border
    else:
        assert x == 0 and w == width and y + h == height - 1, (x, y, w, h)  # under the table, to the footer
    shown = region_text(app, log_selector)
    while shown and not shown[-1]:
        shown.pop()
    return shown
