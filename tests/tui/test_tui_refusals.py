"""Issue 41: a refused move says why, in every game: the engine's reason (``IllegalMoveError.phrase``),
worded as the screen words things (English with the screen's seat names and suit symbols, German from
the catalogue), whichever key made the move."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import FakeClock, malice, past_the_countdown, run, type_keys, wait_for_human

from spite import catalogue
from spite.errors import IllegalMoveError
from spite.malice import DISCARD, Options, State
from spite.spit.tui.screen import SpitScreen
from spite.spit.tui.speed_screen import SpeedScreen, hand_move
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.render import on_screen

NOT_ALLOWED = {"en": "Not allowed: ", "de": "Nicht erlaubt: "}


def engine_words(lang: str, exc: IllegalMoveError, seat_name: Any) -> str:
    """The engine's reason as a screen in ``lang`` words it (worked out here, not by the screen)."""
    if lang == "en":
        return on_screen(str(exc), seat_name)
    assert exc.phrase is not None
    return catalogue.word(lang, exc.phrase, str(exc), seat_name)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_spite_and_malice_a_pass_that_may_not_be_made(lang: str) -> None:
    """``P`` while a card may be discarded: the engine refuses the pass and says why."""
    opts = Options.from_preset("short")
    seed = next(s for s in range(200) if any(m.kind == DISCARD for m in State.new(opts, s, first=0).legal_moves()))
    config = TuiConfig(preset="short", seats="human,easy", seed=seed, bot_delay=0, first=0, lang=lang)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = malice(app)
        await wait_for_human(pilot, app)
        trial = screen.table.state.copy()
        with pytest.raises(IllegalMoveError) as refused:
            trial.play("pass")
        seen["expected"] = NOT_ALLOWED[lang] + engine_words(lang, refused.value, screen.seat_name)
        plies = screen.table.state.plies
        await type_keys(pilot, "p")
        seen["message"], seen["plies"] = screen.message, (plies, screen.table.state.plies)
        seen["text"] = " ".join(app.screen_text().split())

    run(config, body)
    assert seen["message"] == seen["expected"], seen
    assert seen["plies"][0] == seen["plies"][1]
    assert seen["expected"][:60] in seen["text"]
    worded = {"en": "Not allowed: you may pass only when you have no card that may be discarded",
              "de": "Nicht erlaubt: passen darfst du nur, wenn du keine Karte ablegen darfst"}[lang]
    assert seen["message"] == worded


def _spit_table(game: str, lang: str, seed: int = 4) -> tuple[TuiConfig, FakeClock]:
    clock = FakeClock()
    return TuiConfig(game=game, seats="human,medium", seed=seed, clock=clock, tick_seconds=60, lang=lang), clock


@pytest.mark.parametrize("lang", ["en", "de"])
def test_spit_a_card_that_does_not_fit_and_a_spit_call_too_soon(lang: str) -> None:
    """Spit: a tableau card onto a center it does not fit, and ``Space`` while a card can still be played:
    the engine's reasons, word for word; nothing is played."""
    config, clock = _spit_table("spit", lang)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = app.game_screen
        assert isinstance(screen, SpitScreen)
        await past_the_countdown(pilot, clock)
        table = screen.table
        view = table.view()
        bad = next(f"T{i + 1}-C{j + 1}" for i in range(5) for j in range(2)
                   if view.players[0].tableau[i].cards and f"T{i + 1}-C{j + 1}" not in view.legal)
        for keys, move in (((bad[1], "qw"[int(bad[-1]) - 1]), bad), (("space",), "spit")):
            trial = table.state.copy()
            with pytest.raises(IllegalMoveError) as refused:
                trial.apply(0, move, table.state.now)
            events = len(table.events)
            await type_keys(pilot, *keys)
            assert screen.message == NOT_ALLOWED[lang] + engine_words(lang, refused.value, screen.seat_name)
            assert len(table.events) == events
            seen[move] = screen.message

    run(config, body)
    assert all(text.startswith(NOT_ALLOWED[lang]) for text in seen.values())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_speed_a_card_that_fits_no_center_says_why(lang: str) -> None:
    """Speed: a hand card that fits neither center is not picked, and the message says why, in the engine's
    words for each center; a spit call while a card fits is refused with the engine's reason."""
    config, clock = _spit_table("speed", lang)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = app.game_screen
        assert isinstance(screen, SpeedScreen)
        await past_the_countdown(pilot, clock)
        table = screen.table
        view = screen.speed_view()
        stuck = next((k for k, c in enumerate(screen.slots) if c is not None
                      and not any(hand_move(c, j) in view.legal for j in range(2))), None)
        if stuck is not None:
            card = screen.slots[stuck]
            assert card is not None
            reasons: list[str] = []
            for j in range(2):
                trial = table.state.copy()
                with pytest.raises(IllegalMoveError) as refused:
                    trial.apply(0, hand_move(card, j), table.state.now)
                reason = engine_words(lang, refused.value, screen.seat_name)
                if reason not in reasons:
                    reasons.append(reason)
            await type_keys(pilot, str(stuck + 1))
            assert screen.source is None
            seen["misfit"] = (screen.message, reasons)
        if "spit" not in view.legal:
            trial = table.state.copy()
            with pytest.raises(IllegalMoveError) as refused:
                trial.apply(0, "spit", table.state.now)
            await type_keys(pilot, "space")
            assert screen.message == NOT_ALLOWED[lang] + engine_words(lang, refused.value, screen.seat_name)
            seen["spit"] = screen.message

    run(config, body)
    assert "misfit" in seen and "spit" in seen, seen
    message, reasons = seen["misfit"]
    assert all(reason in message for reason in reasons), (message, reasons)
    assert {"en": "cannot be played now: ", "de": "kann jetzt nicht gespielt werden: "}[lang] in message
