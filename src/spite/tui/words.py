"""Moves and events in words, as the log and the prompts say them: "P2 (hard): 9♥ from the hand onto
discard pile 1", German "P2 (schwer): 9♥ aus dem Blatt auf Ablagestapel 1".

The words come from the message catalogue the page uses (:mod:`spite.catalogue`, the ``tui.mv_*``
keys and the page's own ``sp_*`` ones); cards are worded as the catalogue words them (``{card|card}``:
a Queen of hearts is ``Q♥``, German ``D♥``). A move may name a rank only (``H9-D1``), so the card
is passed along when it is known (the card the move took, read before it was played); a move that
names its card (``H9H-D1``) says it; without either the words name the rank ("a 9 from the hand onto
discard pile 1"). The notation (``H9-D1``, ``T3-C1``)
stays what the records use; the screens show it instead of the words on request.

>>> from spite.cards import parse_card
>>> from spite.malice.moves import parse_move
>>> malice_move_words("en", parse_move("H9-D1"), parse_card("9H"))
'9♥ from the hand onto discard pile 1'
>>> malice_move_words("de", parse_move("HQ-B2"), None)
'eine Dame aus dem Blatt auf Mittelstapel 2'
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

from spite.cards import RANK_TOKENS, RANKS, TOKENS, parse_card
from spite.errors import CardError, IllegalMoveError
from spite.malice import DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Move, SeatView
from spite.malice.moves import parse_move, rank_token
from spite.spit import Event
from spite.spit.rules import HAND as SPEED_HAND
from spite.spit.rules import PLAY, SLAP, SLOT
from spite.spit.rules import parse_move as parse_spit_move
from spite.tui.i18n import tr

__all__ = ["card_words", "malice_card", "malice_move_words", "malice_words", "spit_event_words", "spit_move_words"]

_FLIPPED: Final = re.compile(r"C(\d+) ([^\s,]+)")


def card_words(lang: str, card: int | None, rank: str | None = None) -> str:
    """A card as the words name it (``9♥``, German ``D♥`` for a Queen); without the card, its rank
    with an article ("a 9", "eine Dame"); with neither, "a card"."""
    if card is not None:
        return tr(lang, "card", card=TOKENS[card])
    if rank is not None:
        return tr(lang, f"rank.a.{rank}")
    return tr(lang, "a_card")


def malice_move_words(lang: str, move: Move, card: int | None) -> str:
    """A Spite and Malice move in words ("9♥ from the hand onto discard pile 1"; "passes")."""
    if move.kind == PASS:
        return tr(lang, "mv_pass")
    if card is None and move.card >= 0:  # a move that names its card (H7H-B4)
        card = move.card
    rank = rank_token(move.rank, move.skipbo) if move.source == HAND or move.kind == DISCARD else None
    what = card_words(lang, card, rank)
    if move.kind == DISCARD:
        return tr(lang, "mv_discard", card=what, pile=move.target + 1)
    if move.source == STOCK:
        return tr(lang, "mv_stock", card=what, pile=move.target + 1)
    if move.source == DISCARD_PILE:
        return tr(lang, "mv_discard_pile", card=what, pile=move.target + 1, **{"from": move.pile + 1})
    return tr(lang, "mv_hand", card=what, pile=move.target + 1)


def malice_words(lang: str, move: Move | str, card: int | None, skipbo: bool = False) -> str:
    """:func:`malice_move_words` of a move or its text (a text that is no move stays as it is)."""
    if isinstance(move, str):
        try:
            parsed = parse_move(move, skipbo)
        except IllegalMoveError:
            return move
        return malice_move_words(lang, parsed, card)
    return malice_move_words(lang, move, card)


def malice_card(view: SeatView, move: Move) -> int | None:
    """The card ``move`` takes in the position of ``view`` (the seat to move): the stock's top, the
    discard pile's top, the hand card the move names, or else the first card of that rank in the
    hand (the engine takes that one);
    ``None`` for a pass or a card the view does not show."""
    seat = view.to_move
    if move.kind == PASS:
        return None
    if move.source == STOCK and move.kind != DISCARD:
        tops = view.stock_tops[view.opts.stock_of(seat)]
        return tops[-1] if tops else None
    if move.source == DISCARD_PILE and move.kind != DISCARD:
        piles = view.discards[seat]
        return piles[move.pile][-1] if move.pile < len(piles) and piles[move.pile] else None
    if move.card >= 0:  # the very card the move names
        return move.card
    return next((c for c in view.hand or () if RANKS[c] == move.rank), None)


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
