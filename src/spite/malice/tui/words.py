"""Spite and Malice moves in words, as the log and the prompts say them: "P2 (hard): 9♥ from the hand
onto discard pile 1", German "P2 (schwer): 9♥ aus dem Blatt auf Ablagestapel 1".

The words come from the message catalogue the page uses (:mod:`spite.catalogue`, the ``tui.mv_*``
keys); cards are worded by :func:`spite.tui.words.card_words`. A move may name a rank only
(``H9-D1``), so the card is passed along when it is known (the card the move took, read before it was
played); a move that names its card (``H9H-D1``) says it; without either the words name the rank ("a
9 from the hand onto discard pile 1"). The notation (``H9-D1``) stays what the records use; the
screen shows it instead of the words on request.

>>> from spite.cards import parse_card
>>> from spite.malice.moves import parse_move
>>> malice_move_words("en", parse_move("H9-D1"), parse_card("9H"))
'9♥ from the hand onto discard pile 1'
>>> malice_move_words("de", parse_move("HQ-B2"), None)
'eine Dame aus dem Blatt auf Mittelstapel 2'
"""

from __future__ import annotations

from spite.cards import RANKS
from spite.errors import IllegalMoveError
from spite.malice import DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Move, SeatView
from spite.malice.moves import parse_move, rank_token
from spite.tui.i18n import tr
from spite.tui.words import card_words

__all__ = ["malice_card", "malice_move_words", "malice_words"]


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
