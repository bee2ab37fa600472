"""Layouts of the cards: the start of a game, of a Spit round, and Speed's reshuffled side piles.

Every layout comes either from a record (a ``deal`` object or a chance entry, checked here) or
from the game's seed through :func:`spite.cards.chance_rng` (one generator per chance event).

>>> piles, spit = lay_out(list(range(26)))
>>> [len(p) for p in piles], len(spit)
([1, 2, 3, 4, 5], 11)
>>> [len(p) for p in lay_out(list(range(7)))[0]], len(lay_out(list(range(7)))[1])
([1, 2, 3, 0, 0], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spite.cards import chance_rng, format_cards, multiset_difference, parse_card, shuffle_cards, standard_deck
from spite.errors import CardError, MalformedRecordError
from spite.spit.options import SpitOptions

__all__ = [
    "SLOTS",
    "SpeedDeal",
    "SpitDeal",
    "lay_out",
    "parse_shuffle",
    "parse_speed_deal",
    "parse_spit_deal",
    "seeded_sides",
    "seeded_speed_start",
    "seeded_spit_round",
    "seeded_spit_start",
]

SLOTS = 5
"""Tableau slots per Spit player."""
SPEED_HAND = 5
SPEED_DRAW = 15


@dataclass(slots=True)
class SpitDeal:
    """A Spit layout: per player 5 tableau slots (bottom to top) and a spit pile; the centers."""

    tableaus: list[list[list[int]]]
    spits: list[list[int]]
    centers: list[list[int]]

    def to_json(self) -> dict[str, Any]:
        """The records.md §3 ``deal`` object."""
        return {
            "tableaus": [[format_cards(p) for p in t] for t in self.tableaus],
            "spits": [format_cards(s) for s in self.spits],
            "centers": [format_cards(c) for c in self.centers],
        }


@dataclass(slots=True)
class SpeedDeal:
    """A Speed layout: per player a hand, a draw pile and a side pile; the centers."""

    hands: list[list[int]]
    draws: list[list[int]]
    sides: list[list[int]]
    centers: list[list[int]]

    def to_json(self) -> dict[str, Any]:
        """The Speed ``deal`` object (docs/spit.md)."""
        return {
            "hands": [format_cards(h) for h in self.hands],
            "draws": [format_cards(d) for d in self.draws],
            "sides": [format_cards(s) for s in self.sides],
            "centers": [format_cards(c) for c in self.centers],
        }


# ---------------------------------------------------------------------- seeded layouts
def lay_out(cards: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Rule 7 of docs/spit.md §2.2: piles of 1, 2, 3, ... cards while the cards left suffice for the
    whole next pile (5 piles at most), the rest is the spit pile. Cards are taken in order; each
    pile lists its cards bottom to top. Always gives 5 slots (empty ones at the end)."""
    piles: list[list[int]] = []
    pos = 0
    for size in range(1, SLOTS + 1):
        if len(cards) - pos < size:
            break
        piles.append(list(cards[pos : pos + size]))
        pos += size
    piles.extend([] for _ in range(SLOTS - len(piles)))
    return piles, list(cards[pos:])


def seeded_spit_start(options: SpitOptions, seed: int | str) -> SpitDeal:
    """The first layout of a seeded Spit game: the deck shuffled and split in halves."""
    deck = standard_deck(1, options.jokers)
    shuffle_cards(deck, chance_rng(seed, "spit-start", 0))
    half = len(deck) // 2
    return _spit_deal_from_hands([deck[:half], deck[half:]], options.centers)


def seeded_spit_round(collected: Sequence[Sequence[int]], seed: int | str, round_no: int, centers: int) -> SpitDeal:
    """The layout of Spit round ``round_no`` (2, 3, ...): each player shuffles their own cards."""
    rng = chance_rng(seed, "spit-deal", round_no)
    hands: list[list[int]] = []
    for cards in collected:
        mine = list(cards)
        shuffle_cards(mine, rng)
        hands.append(mine)
    return _spit_deal_from_hands(hands, centers)


def _spit_deal_from_hands(hands: Sequence[Sequence[int]], centers: int) -> SpitDeal:
    laid = [lay_out(h) for h in hands]
    return SpitDeal([p for p, _ in laid], [s for _, s in laid], [[] for _ in range(centers)])


def seeded_speed_start(seed: int | str) -> SpeedDeal:
    """The layout of a seeded Speed game: per player 5 in hand, 15 to draw, 6 on the side pile."""
    deck = standard_deck(1, 0)
    shuffle_cards(deck, chance_rng(seed, "speed-start", 0))
    hands, draws, sides = [], [], []
    for half in (deck[:26], deck[26:]):
        hands.append(half[:SPEED_HAND])
        draws.append(half[SPEED_HAND : SPEED_HAND + SPEED_DRAW])
        sides.append(half[SPEED_HAND + SPEED_DRAW :])
    return SpeedDeal(hands, draws, sides, [[], []])


def seeded_sides(cards: Sequence[int], seed: int | str, index: int) -> list[int]:
    """Speed's ``index``-th reshuffle of the center cards into new side piles (the whole order)."""
    out = list(cards)
    shuffle_cards(out, chance_rng(seed, "speed-sides", index))
    return out


# ---------------------------------------------------------------------- reading deals
def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise MalformedRecordError(f"{where} must be a list of cards")
    out: list[int] = []
    for token in value:
        try:
            if not isinstance(token, str):
                raise CardError(f"{token!r} is not a card")
            out.append(parse_card(token))
        except CardError as exc:
            raise MalformedRecordError(f"{where}: {exc}") from None
    return out


def _list_of(value: object, n: int | None, where: str, what: str) -> list[Any]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        count = f"{n} " if n is not None else ""
        raise MalformedRecordError(f"{where} must be a list of {count}{what}")
    return value


def _check_keys(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise MalformedRecordError(f"{where}: unknown field {unknown[0]!r}")


def _check_cards(have: Counter[int], want: Counter[int], where: str) -> None:
    if have != want:
        raise MalformedRecordError(f"{where}: {multiset_difference(have, want)}")


def _deck_counter(options: SpitOptions) -> Counter[int]:
    return Counter(standard_deck(1, options.jokers))


def parse_spit_deal(
    obj: object, options: SpitOptions, own: Sequence[Sequence[int]] | None = None, where: str = "deal"
) -> SpitDeal:
    """Read a records.md §3 Spit ``deal`` object and check its cards.

    For the start of a game (``own`` is None) the union of all cards must be exactly the deck.
    For a later round ``own`` gives each player's collected cards: each player's tableau and spit
    pile must hold exactly those, and the centers must be empty.
    Raises :class:`MalformedRecordError`.
    """
    if not isinstance(obj, dict):
        raise MalformedRecordError(f"{where} must be a JSON object")
    _check_keys(obj, {"tableaus", "spits", "centers"}, where)
    if "tableaus" not in obj or "spits" not in obj:
        raise MalformedRecordError(f"{where} needs 'tableaus' and 'spits'")
    tableaus: list[list[list[int]]] = []
    for seat, tab in enumerate(_list_of(obj["tableaus"], 2, f"{where}: tableaus", "tableaus")):
        piles = _list_of(tab, None, f"{where}: tableau of seat {seat}", "piles")
        if len(piles) > SLOTS:
            raise MalformedRecordError(f"{where}: tableau of seat {seat} has {len(piles)} piles, at most {SLOTS}")
        parsed = [_cards(p, f"{where}: seat {seat} pile {i + 1}") for i, p in enumerate(piles)]
        parsed.extend([] for _ in range(SLOTS - len(parsed)))
        tableaus.append(parsed)
    spits = [
        _cards(s, f"{where}: spit pile of seat {seat}")
        for seat, s in enumerate(_list_of(obj["spits"], 2, f"{where}: spits", "spit piles"))
    ]
    raw_centers = obj.get("centers")
    if raw_centers is None:
        raw_centers = [[] for _ in range(options.centers)]
    centers = [
        _cards(c, f"{where}: center {j + 1}")
        for j, c in enumerate(_list_of(raw_centers, options.centers, f"{where}: centers", "center piles"))
    ]
    if own is None:
        have: Counter[int] = Counter()
        for seat in range(2):
            for pile in tableaus[seat]:
                have.update(pile)
            have.update(spits[seat])
        for c in centers:
            have.update(c)
        _check_cards(have, _deck_counter(options), where)
    else:
        if any(centers):
            raise MalformedRecordError(f"{where}: the centers of a new round must be empty")
        for seat in range(2):
            mine: Counter[int] = Counter(spits[seat])
            for pile in tableaus[seat]:
                mine.update(pile)
            want = Counter(own[seat])
            if mine != want:
                raise MalformedRecordError(
                    f"{where}: seat {seat} must lay out exactly their own cards: {multiset_difference(mine, want)}"
                )
    return SpitDeal(tableaus, spits, centers)


def parse_speed_deal(obj: object, options: SpitOptions, where: str = "deal") -> SpeedDeal:
    """Read a Speed ``deal`` object (``hands``, ``draws``, ``sides``, ``centers``): the union of
    its cards must be exactly the deck, a hand holds at most 5 cards. Raises
    :class:`MalformedRecordError`."""
    if not isinstance(obj, dict):
        raise MalformedRecordError(f"{where} must be a JSON object")
    _check_keys(obj, {"hands", "draws", "sides", "centers"}, where)
    for key in ("hands", "draws", "sides"):
        if key not in obj:
            raise MalformedRecordError(f"{where} needs 'hands', 'draws' and 'sides'")
    hands = [_cards(h, f"{where}: hand of seat {s}") for s, h in enumerate(_list_of(obj["hands"], 2, where, "hands"))]
    for seat, hand in enumerate(hands):
        if len(hand) > SPEED_HAND:
            raise MalformedRecordError(f"{where}: hand of seat {seat} has {len(hand)} cards, at most {SPEED_HAND}")
    draws = [
        _cards(d, f"{where}: draw pile of seat {s}") for s, d in enumerate(_list_of(obj["draws"], 2, where, "draws"))
    ]
    sides = [
        _cards(d, f"{where}: side pile of seat {s}") for s, d in enumerate(_list_of(obj["sides"], 2, where, "sides"))
    ]
    raw_centers = obj.get("centers")
    if raw_centers is None:
        raw_centers = [[], []]
    centers = [
        _cards(c, f"{where}: center {j + 1}")
        for j, c in enumerate(_list_of(raw_centers, 2, f"{where}: centers", "center piles"))
    ]
    have: Counter[int] = Counter()
    for group in (hands, draws, sides, centers):
        for pile in group:
            have.update(pile)
    _check_cards(have, _deck_counter(options), where)
    return SpeedDeal(hands, draws, sides, centers)


def parse_shuffle(obj: object, cards: Sequence[int], where: str) -> list[int]:
    """Read a ``{"shuffle": [...]}`` chance entry: a permutation of exactly ``cards``."""
    if not isinstance(obj, dict) or set(obj) != {"shuffle"}:
        raise MalformedRecordError(f'{where}: expected a shuffle entry {{"shuffle": [cards]}}')
    order = _cards(obj["shuffle"], where)
    _check_cards(Counter(order), Counter(cards), where + ": the shuffle holds")
    return order
