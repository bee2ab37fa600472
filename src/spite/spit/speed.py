"""The Speed engine (docs/spit.md §3), built on the same clock and spit machinery as Spit.

Each player holds a hand of 5, refilled at once from an own draw pile of 15, and has a side pile
of 6 used for the flips (player 1's onto center 1, player 2's onto center 2). A card goes from
the hand onto a center pile one rank up or down. When the table is stuck and both side piles are
empty, the center cards under the two top cards are shuffled (a chance event) into new side piles.
The first player with an empty hand and draw pile wins.

>>> from spite.spit import SpitOptions, SpeedState
>>> state = SpeedState.new(SpitOptions.from_preset("speed"), seed=3)
>>> [len(h) for h in state.hands], [len(d) for d in state.draws], [len(s) for s in state.sides]
([5, 5], [15, 15], [5, 5])
"""

from __future__ import annotations

from typing import Any

from spite.cards import RANK_TOKENS, RANKS, format_cards
from spite.errors import IllegalMoveError, MalformedRecordError, MissingChanceError, Phrase, refusal
from spite.spit.deals import SPEED_HAND, SpeedDeal, parse_shuffle, parse_speed_deal, seeded_sides, seeded_speed_start
from spite.spit.options import SpitOptions
from spite.spit.rules import HAND, SPIT, Move, fits
from spite.spit.table import PLAYING, Event, RealtimeState
from spite.spit.views import PileView, SpeedPlayerView, SpeedView

__all__ = ["SpeedState"]


class SpeedState(RealtimeState):
    """A Speed table: per seat a hand, a draw pile and a side pile; two center piles; the clock."""

    __slots__ = ("draws", "hands", "reshuffles", "sides")

    hands: list[list[int]]
    draws: list[list[int]]
    sides: list[list[int]]
    reshuffles: int

    @classmethod
    def new(
        cls,
        options: SpitOptions,
        *,
        seed: int | str | None = None,
        deal: SpeedDeal | dict[str, Any] | None = None,
        preset: str | None = None,
    ) -> SpeedState:
        """A new game at time 0, hands refilled and the first flip made. ``deal`` (a
        :class:`SpeedDeal` or its JSON object) wins over ``seed``; the seed also gives the
        reshuffles of the side piles."""
        if options.game != "speed":
            raise ValueError("SpeedState plays Speed; use SpitState for Spit")
        if deal is None:
            if seed is None:
                raise MissingChanceError("no deal and no seed: nothing says how the cards lie")
            deal = seeded_speed_start(seed)
        elif isinstance(deal, dict):
            deal = parse_speed_deal(deal, options)
        self = cls.__new__(cls)
        self._init_common(options, preset, seed)
        self.start_deal = deal.to_json()
        self.hands = [list(h) for h in deal.hands]
        self.draws = [list(d) for d in deal.draws]
        self.sides = [list(s) for s in deal.sides]
        self.centers = [list(c) for c in deal.centers]
        self.reshuffles = 0
        events: list[Event] = []
        for seat in (0, 1):
            self._refill(seat)
        for seat in (0, 1):
            if not self.hands[seat] and not self.draws[seat]:
                self._end_game(seat, "out-of-cards", events)
                return self
        self._flip(events)
        return self

    def copy(self) -> SpeedState:
        """An independent copy (lists copied, nothing deep-copied)."""
        new = SpeedState.__new__(SpeedState)
        self._copy_common(new)
        new.hands = [h[:] for h in self.hands]
        new.draws = [d[:] for d in self.draws]
        new.sides = [s[:] for s in self.sides]
        new.reshuffles = self.reshuffles
        return new

    # ------------------------------------------------------------------ facts
    @property
    def round(self) -> int:
        """Speed is one round long: always 1."""
        return 1

    def cards_held(self, seat: int) -> int:
        """Every card ``seat`` holds: hand and draw pile."""
        return len(self.hands[seat]) + len(self.draws[seat])

    def legal_moves(self, seat: int) -> list[str]:
        """Every move ``seat`` may make now, canonical: ``H7-C1`` (by rank, then center), ``spit``."""
        if self.phase != PLAYING or seat not in (0, 1):
            return []
        out: list[str] = []
        if self.now >= self.play_from:
            wrap = self.options.wrap
            ranks = sorted({RANKS[c] for c in self.hands[seat]})
            reps = {RANKS[c]: c for c in reversed(self.hands[seat])}
            for r in ranks:
                for j, center in enumerate(self.centers):
                    if center and fits(reps[r], center[-1], wrap):
                        out.append(f"H{RANK_TOKENS[r]}-C{j + 1}")
        if self.stuck_since is not None and self.sides[seat] and not self.called[seat]:
            out.append("spit")
        return out

    def view(self, seat: int | None) -> SpeedView:
        """What ``seat`` may know: its own hand, every count, the center tops (None: a spectator,
        who sees no hand)."""
        return self._view(seat, full=False)

    def full_view(self) -> SpeedView:
        """The whole table, both hands shown (for ``spite show`` without ``--as``)."""
        return self._view(None, full=True)

    def _view(self, seat: int | None, full: bool) -> SpeedView:
        players = tuple(
            SpeedPlayerView(
                hand=tuple(self.hands[s]) if full or s == seat else None,
                hand_size=len(self.hands[s]),
                draw=len(self.draws[s]),
                side=len(self.sides[s]),
                cards=self.cards_held(s),
                called_spit=self.called[s],
            )
            for s in (0, 1)
        )
        return SpeedView(
            seat=seat,
            t=self.now,
            round=1,
            phase=self.phase,
            stuck=self.stuck_since is not None,
            play_from=self.play_from,
            round_winner=None,
            result=self.result,
            centers=tuple(PileView(c[-1] if c else None, len(c)) for c in self.centers),
            legal=tuple(self.legal_moves(seat)) if seat is not None else (),
            players=players,
        )

    # ------------------------------------------------------------------ moves
    def _apply_parsed(self, seat: int, move: Move, events: list[Event]) -> None:
        kind, a, b = move
        if kind == HAND:
            self._play(seat, a, b, events)
        elif kind == SPIT:
            self._spit_checks(seat)
            self._call_spit(seat, events)
        else:  # pragma: no cover - parse_move gives no other kind for Speed
            raise IllegalMoveError("not a Speed move")

    def _play(self, seat: int, rank_: int, center_no: int, events: list[Event]) -> None:
        self._need_playing()
        hand = self.hands[seat]
        idx = next((i for i, c in enumerate(hand) if RANKS[c] == rank_), None)
        if idx is None:
            raise refusal(f"you have no {RANK_TOKENS[rank_]} in your hand", "refuse.not-in-hand",
                          rank=RANK_TOKENS[rank_])
        self._common_play_checks(center_no)
        card = hand[idx]
        if not fits(card, self.centers[center_no - 1][-1], self.options.wrap):
            raise self._misfit(card, center_no)
        del hand[idx]
        self._put_on_center(seat, card, center_no)
        self._refill(seat)
        self._record_move(seat, f"H{RANK_TOKENS[rank_]}-C{center_no}", events)
        if not hand and not self.draws[seat]:
            self._end_game(seat, "out-of-cards", events)
        else:
            self._settle(events)

    def _refill(self, seat: int) -> None:
        hand, draw = self.hands[seat], self.draws[seat]
        while len(hand) < SPEED_HAND and draw:
            hand.append(draw.pop())

    def _any_center_play(self) -> bool:
        tops = [c[-1] for c in self.centers if c]
        wrap = self.options.wrap
        return any(fits(card, top, wrap) for hand in self.hands for card in hand for top in tops)

    def _settle(self, events: list[Event]) -> None:
        """After a change: is the table stuck, and must the center cards become side piles?"""
        if self.phase != PLAYING:
            return
        if self._any_center_play():
            self._set_stuck(False)
            return
        self._set_stuck(True)
        if self.sides[0] or self.sides[1]:
            return
        under = [c for center in self.centers for c in center[:-1]]
        if not under:
            held = [self.cards_held(0), self.cards_held(1)]
            winner = (0 if held[0] < held[1] else 1) if held[0] != held[1] else self.last_center_player
            self._end_game(winner, "out-of-cards", events)
            return
        order = self._next_sides(under)
        for center in self.centers:
            del center[:-1]
        half = (len(order) + 1) // 2
        self.sides = [order[:half], order[half:]]
        self.reshuffles += 1
        self._record({"shuffle": format_cards(order)})
        events.append(Event(self.now, "shuffle", None, f"{len(order)} center cards become the side piles"))

    def _next_sides(self, under: list[int]) -> list[int]:
        entry = self._take_chance()
        where = f"side piles reshuffle {self.reshuffles + 1}"
        if entry is not None:
            if not isinstance(entry, dict) or set(entry) != {"shuffle"}:
                raise MalformedRecordError(f'{where}: the chance entry must be a shuffle entry {{"shuffle": [...]}}')
            return parse_shuffle(entry, under, where)
        if self.seed is not None:
            return seeded_sides(under, self.seed, self.reshuffles)
        raise MissingChanceError(f"{where} is due: the record gives no shuffle entry and no seed")

    def _flip_pile(self, seat: int) -> list[int]:
        return self.sides[seat]

    def _flip_pile_name(self) -> str:
        return "side pile"

    def _flip(self, events: list[Event]) -> None:
        placed: list[int | None] = [None, None]
        for seat in (0, 1):
            if self.sides[seat]:
                card = self.sides[seat].pop()
                self.centers[seat].append(card)
                placed[seat] = card
        self._after_flip(placed, events)
        self._settle(events)

    def _play_hint(self, seat: int) -> tuple[str, Phrase]:
        wrap = self.options.wrap
        for card in self.hands[seat]:
            for j, center in enumerate(self.centers):
                if center and fits(card, center[-1], wrap):
                    return (f"your {format_cards([card])[0]} fits on center {j + 1}",
                            Phrase("refuse.spit.not-stuck.hand", {"card": format_cards([card])[0], "center": j + 1}))
        return "the other player can still play", Phrase("refuse.spit.not-stuck.other")

    def _time_tiebreak(self) -> int | None:
        return self.last_center_player

    def _slap_due(self) -> int:  # pragma: no cover - Speed has no slap
        return self.now

    def _auto_slap(self, events: list[Event]) -> None:  # pragma: no cover - Speed has no slap
        return None

    def _slap_wait(self) -> IllegalMoveError:  # pragma: no cover - Speed has no slap
        return refusal("the game is over", "refuse.game-over")
