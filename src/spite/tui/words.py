"""Cards in words, as the log and the prompts of every game's screen say them: ``9♥`` (German ``D♥`` for a
Queen), or a rank with an article ("a 9", "eine Dame") when only the rank is known. Each family's
``tui`` words its own moves and events with it (the ``tui.mv_*`` keys of the message catalogue,
:mod:`spite.catalogue`).

>>> from spite.cards import parse_card
>>> card_words("en", parse_card("9H")), card_words("de", None, "Q"), card_words("en", None)
('9♥', 'eine Dame', 'a card')
"""

from __future__ import annotations

from spite.cards import TOKENS
from spite.tui.i18n import tr

__all__ = ["card_words"]


def card_words(lang: str, card: int | None, rank: str | None = None) -> str:
    """A card as the words name it (``9♥``, German ``D♥`` for a Queen); without the card, its rank
    with an article ("a 9", "eine Dame"); with neither, "a card"."""
    if card is not None:
        return tr(lang, "card", card=TOKENS[card])
    if rank is not None:
        return tr(lang, f"rank.a.{rank}")
    return tr(lang, "a_card")
