"""Cards, ranks and decks, and their tokens as written in records (records.md §1).

Every card is a small ``int`` (a *card code*) so that the engines can keep piles as flat lists of
ints:

* ``0 .. 51``: a standard card, ``(rank - 1) * 4 + suit`` with rank 1 (Ace) .. 13 (King) and suit
  0..3 for ``S H D C``;
* ``52``: ``X``, the joker of a standard deck and the wild card of a Skip-Bo deck (all alike);
* ``53 .. 64``: the Skip-Bo numbers 1..12 (``52 + n``).

>>> parse_card("10H"), parse_card("th"), format_card(parse_card("qd"))
(37, 37, 'QD')
>>> format_card(parse_card("x")), format_card(parse_card("12"))
('X', '12')
>>> rank(parse_card("KS")), rank(JOKER), rank(parse_card("7"))
(13, 14, 7)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from spite.errors import CardError

SUITS: Final = "SHDC"
RANK_TOKENS: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")
"""Token of each standard rank by its number (index 14 is the joker)."""

JOKER: Final = 52
"""The code of ``X``: a joker (standard deck) or a Skip-Bo wild."""
SKIPBO_BASE: Final = 52
WILD_RANK: Final = 14
"""``rank(X)``: a rank number above every real rank, used to name ``X`` in moves (``HX``)."""

N_CODES: Final = 65

ACE: Final = 1
QUEEN: Final = 12
KING: Final = 13


def standard_card(rank_: int, suit: int) -> int:
    """The code of a standard card: ``standard_card(1, 0)`` is the Ace of spades."""
    return (rank_ - 1) * 4 + suit


def skipbo_card(number: int) -> int:
    """The code of a Skip-Bo number card 1..12."""
    return SKIPBO_BASE + number


def _build_tables() -> tuple[list[int], list[str]]:
    ranks = [0] * N_CODES
    tokens = [""] * N_CODES
    for r in range(1, 14):
        for s in range(4):
            code = standard_card(r, s)
            ranks[code] = r
            tokens[code] = RANK_TOKENS[r] + SUITS[s]
    ranks[JOKER] = WILD_RANK
    tokens[JOKER] = "X"
    for n in range(1, 13):
        ranks[SKIPBO_BASE + n] = n
        tokens[SKIPBO_BASE + n] = str(n)
    return ranks, tokens


RANKS, TOKENS = _build_tables()
"""``RANKS[code]`` is the card's rank number (1..13, 14 for ``X``); ``TOKENS[code]`` its text."""

_PARSE: dict[str, int] = {}
for _code, _tok in enumerate(TOKENS):
    _PARSE[_tok] = _code
    _PARSE[_tok.replace("10", "T")] = _code


def rank(card: int) -> int:
    """The rank number of a card: 1..13 for a standard card or Skip-Bo number, 14 for ``X``."""
    return RANKS[card]


def format_card(card: int) -> str:
    """The canonical token of a card (``AS``, ``10H``, ``X``, ``12``)."""
    return TOKENS[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Canonical tokens of several cards, in order."""
    return [TOKENS[c] for c in cards]


def parse_card(token: str) -> int:
    """The code of a card token; accepts ``T`` for ``10`` and lower case.

    >>> parse_card("Z9")
    Traceback (most recent call last):
    ...
    spite.errors.CardError: 'Z9' is not a card
    """
    if not isinstance(token, str):
        raise CardError(f"{token!r} is not a card")
    code = _PARSE.get(token.strip().upper())
    if code is None:
        raise CardError(f"{token!r} is not a card")
    return code


def parse_cards(tokens: Sequence[object]) -> list[int]:
    """Codes of a list of card tokens (bottom to top, as records write piles)."""
    if not isinstance(tokens, list | tuple):
        raise CardError(f"expected a list of cards, got {tokens!r}")
    return [parse_card(t) if isinstance(t, str) else _not_a_card(t) for t in tokens]


def _not_a_card(value: object) -> int:
    raise CardError(f"{value!r} is not a card")


def standard_deck(decks: int = 1, jokers: int = 0) -> list[int]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in a fixed (unshuffled) order."""
    return [c for _ in range(decks) for c in range(52)] + [JOKER] * jokers


def skipbo_deck() -> list[int]:
    """The Skip-Bo deck: twelve each of 1..12 and 18 wilds (162 cards)."""
    return [skipbo_card(n) for n in range(1, 13) for _ in range(12)] + [JOKER] * 18


def describe_rank(rank_: int, skipbo: bool = False) -> str:
    """How a player names a rank in a sentence: "an Ace", "a 7", "a King", "a joker"."""
    if rank_ == WILD_RANK:
        return "a wild card" if skipbo else "a joker"
    if skipbo:
        return f"an {rank_}" if rank_ in (8, 11) else f"a {rank_}"
    word = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(rank_)
    if word is None:
        return f"an {rank_}" if rank_ == 8 else f"a {rank_}"
    return f"an {word}" if word == "Ace" else f"a {word}"


def rank_param(rank_: int, skipbo: bool = False) -> str:
    """A rank as a message parameter (the catalogue words it: ``{need|a}`` is "a 2", "eine 2"):
    ``A 2 … 10 J Q K X`` for a standard deck, ``1 … 12 W`` for a Skip-Bo deck (``W`` the wild).

    >>> rank_param(1), rank_param(12), rank_param(14), rank_param(1, True), rank_param(14, True)
    ('A', 'Q', 'X', '1', 'W')
    """
    if skipbo:
        return "W" if rank_ == WILD_RANK else str(rank_)
    return RANK_TOKENS[rank_]


def multiset_difference(have: Counter[int], want: Counter[int]) -> str:
    """How a multiset of cards differs from the deck's (for error messages): extra cards first.

    >>> multiset_difference(Counter([0, 0, 1]), Counter([0, 2]))
    '2 cards of AS, the deck has 1; 1 of AH, the deck has none; 1 card of the deck is missing (AD)'
    """
    parts: list[str] = []
    for code in sorted(have):
        h, w = have[code], want.get(code, 0)
        if h > w:
            parts.append(f"{h} {'cards' if h > 1 else ''} of {TOKENS[code]}, the deck has {w or 'none'}"
                         .replace("  ", " ").replace(" ,", ","))
    missing = [code for code in sorted(want) for _ in range(want[code] - have.get(code, 0))]
    if missing:
        shown = " ".join(TOKENS[c] for c in missing[:6]) + (" ..." if len(missing) > 6 else "")
        n = len(missing)
        parts.append(f"{n} card{'s' if n > 1 else ''} of the deck {'are' if n > 1 else 'is'} missing ({shown})")
    return "; ".join(parts)


def chance_rng(seed: int | str, stream: str, index: int) -> random.Random:
    """The generator for one chance event of a game: the ``index``-th event of kind ``stream``.

    Each event gets a generator of its own, derived from the game's seed, so that a game state
    needs to carry no generator: copying a state or undoing a move cannot disturb later chance
    outcomes, and the same seed always gives the same game.
    """
    return random.Random(f"spite/{seed}/{stream}/{index}")


def shuffle_cards(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place (Fisher-Yates driven by ``rng.random``, fast and deterministic)."""
    rnd = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
