"""Helpers for the simulator tests: compact deals, deterministic bots, face-down reshuffles."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from spite.cards import format_cards, parse_cards, standard_deck
from spite.spit import SpitOptions, SpitState
from spite.spit.bots import ReflexBot


def cards(text: str) -> list[int]:
    """``cards("AS 2H")`` → card codes, bottom to top."""
    return parse_cards(text.split()) if text.strip() else []


def spit_deal(tableaus: Sequence[Sequence[str]], spits: Sequence[str], *, rest: str = "spit1") -> dict[str, Any]:
    """A Spit deal object; the deck's unnamed cards go under seat 1's spit pile (``rest="spit1"``)
    or half under each center pile (``rest="centers"``)."""
    tabs = [[cards(p) for p in tab] for tab in tableaus]
    sp = [cards(s) for s in spits]
    cs: list[list[int]] = [[], []]
    used: Counter[int] = Counter()
    for group in (*[p for t in tabs for p in t], *sp):
        used.update(group)
    spare = sorted((Counter(standard_deck()) - used).elements())
    if rest == "spit1":
        sp[1] = spare + sp[1]
    else:
        half = len(spare) // 2
        cs = [spare[:half], spare[half:]]
    return {
        "tableaus": [[format_cards(p) for p in t] for t in tabs],
        "spits": [format_cards(s) for s in sp],
        "centers": [format_cards(c) for c in cs],
    }


def spit_state(deal: dict[str, Any], **options: Any) -> SpitState:
    """A Spit state from a deal object (first flip made), options as keywords."""
    return SpitState.new(SpitOptions.from_preset("spit", options), seed=1, deal=deal)


def exact_bot(mean_ms: float = 300) -> ReflexBot:
    """An expert-strategy bot whose every delay is exactly its mean (times the action's factor)."""
    return ReflexBot.with_mean(mean_ms, sigma=0)


def shuffle_hidden_spit(deal: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same Spit deal with ``seat``'s face-down cards (under the tableau tops, and the spit
    pile but for the top card, which the first flip turns up) shuffled among themselves."""
    tabs = [[list(p) for p in t] for t in deal["tableaus"]]
    spits = [list(s) for s in deal["spits"]]
    hidden = [c for p in tabs[seat] for c in p[:-1]] + spits[seat][:-1]
    rng.shuffle(hidden)
    it = iter(hidden)
    tabs[seat] = [[next(it) for _ in p[:-1]] + p[-1:] for p in tabs[seat]]
    spits[seat] = [next(it) for _ in spits[seat][:-1]] + spits[seat][-1:]
    return {"tableaus": tabs, "spits": spits, "centers": [list(c) for c in deal["centers"]]}


def shuffle_hidden_speed(deal: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same Speed deal with ``seat``'s draw pile and face-down side cards shuffled."""
    out = {k: [list(x) for x in v] for k, v in deal.items()}
    rng.shuffle(out["draws"][seat])
    side = out["sides"][seat]
    under = side[:-1]
    rng.shuffle(under)
    out["sides"][seat] = under + side[-1:]
    return out
