"""Spit and Speed moves and events in words, as the log and the prompts say them: "P2 (medium): calls
spit", "K♦ from tableau pile 3 onto center pile 1".

The words come from the message catalogue the page uses (:mod:`spite.catalogue`, the ``tui.mv_*``
keys and the page's own ``sp_*`` ones); cards are worded by :func:`spite.tui.words.card_words`. The
notation (``T3-C1``) stays what the records use; the screens show it instead of the words on request.

>>> from spite.cards import parse_card
>>> spit_move_words("en", "T3-C1", parse_card("KD"))
'K♦ from tableau pile 3 onto center pile 1'
>>> spit_move_words("de", "H7-C2", None, auto=False)
'eine 7 aus der Hand auf Mittelstapel 2'
>>> spit_event_words("en", Event(0, "flip", None, "C1 KH, C2 5H"), None, str)
'Spit! turned up K♥ on center pile 1, 5♥ on center pile 2'
>>> spit_event_words("de", Event(0, "move", 1, "spit", auto=True), None, lambda s: f"P{s + 1}")
'P2: ruft Spit (automatisch)'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from spite.cards import RANK_TOKENS, parse_card
from spite.errors import CardError, IllegalMoveError
from spite.spit import Event
from spite.spit.rules import HAND as SPEED_HAND
from spite.spit.rules import PLAY, SLAP, SLOT
from spite.spit.rules import parse_move as parse_spit_move
from spite.tui.i18n import tr
from spite.tui.words import card_words

__all__ = ["spit_event_words", "spit_move_words"]

_FLIPPED: Final = re.compile(r"C(\d+) ([^\s,]+)")


def spit_move_words(lang: str, move: str, card: int | None, *, auto: bool = False) -> str:
    """A Spit or Speed move in words ("K♦ from tableau pile 3 onto center pile 1", "calls spit"); a
    text that is no move stays as it is."""
    try:
        kind, a, b = parse_spit_move(move, "speed" if move.strip().upper().startswith("H") else "spit")
    except IllegalMoveError:
        return move
    if kind == PLAY:
        words = tr(lang, "mv_tableau", card=card_words(lang, card), center=b, **{"from": a})
    elif kind == SLOT:
        words = tr(lang, "mv_slot", card=card_words(lang, card), to=b, **{"from": a})
    elif kind == SPEED_HAND:
        words = tr(lang, "mv_speed", card=card_words(lang, card, RANK_TOKENS[a]), center=b)
    elif kind == SLAP:
        words = tr(lang, "mv_slap", center=b)
    else:
        words = tr(lang, "mv_spit")
    return tr(lang, "mv_auto", move=words) if auto else words


def spit_event_words(lang: str, event: Event, card: int | None, seat_name: Callable[[int], str]) -> str | None:
    """A line of the Spit or Speed log in words ("P2 (medium): calls spit"); ``None`` for an event the log
    leaves out (the game's end: the prompt line says it)."""
    if event.kind == "move" and event.seat is not None:
        return tr(lang, "log_line", name=seat_name(event.seat),
                  move=spit_move_words(lang, event.text, card, auto=event.auto))
    if event.kind == "flip":
        placed = []
        for center, token in _FLIPPED.findall(event.text):
            try:
                placed.append(tr(lang, "ev_flip_card", card=card_words(lang, parse_card(token)), center=int(center)))
            except CardError:
                placed.append(tr(lang, "ev_flip_card", card=token, center=int(center)))
        return tr(lang, "ev_flip", cards=", ".join(placed) or tr(lang, "sp_flip_nothing"))
    if event.kind == "round-won" and event.seat is not None:
        why = tr(lang, "sp_why_emptied" if event.text == "emptied" else "sp_why_stuck")
        return tr(lang, "ev_round_won", name=seat_name(event.seat), why=why)
    if event.kind == "deal":
        number = event.text.rsplit(" ", 1)[-1]
        return tr(lang, "sp_new_round", n=number)
    if event.kind == "shuffle":
        return tr(lang, "sp_shuffle")
    return None
