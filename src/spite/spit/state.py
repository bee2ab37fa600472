"""The Spit engine (docs/spit.md §2): an event-driven, pure game state.

>>> from spite.spit import SpitOptions, SpitState
>>> state = SpitState.new(SpitOptions.from_preset("spit"), seed=7)
>>> state.round, len(state.spits[0]), [len(p) for p in state.tableaus[0]]
(1, 10, [1, 2, 3, 4, 5])
>>> [len(c) for c in state.centers]
[1, 1]
"""

from __future__ import annotations

from typing import Any

from spite.cards import format_card
from spite.errors import IllegalMoveError, MalformedRecordError, MissingChanceError, Phrase, refusal, too_late
from spite.spit.deals import SLOTS, SpitDeal, parse_spit_deal, seeded_spit_round, seeded_spit_start
from spite.spit.options import SpitOptions
from spite.spit.rules import PLAY, SLAP, SLOT, SPIT, Move, fits
from spite.spit.table import OVER, PLAYING, SLAPPING, Event, RealtimeState
from spite.spit.views import PileView, SpitPlayerView, SpitView

__all__ = ["SpitState"]


class SpitState(RealtimeState):
    """A Spit table: two tableaus of five slots, two spit piles, 2 or 3 center piles, the clock.

    Piles are lists of card codes, bottom to top; the top card of every tableau pile is face up,
    every card below it face down.
    """

    __slots__ = (
        "last_round_winner",
        "round",
        "round_winner",
        "round_won_at",
        "rounds_won",
        "spits",
        "streak",
        "tableaus",
        "third_next",
    )

    tableaus: list[list[list[int]]]
    spits: list[list[int]]
    round: int
    round_winner: int | None
    round_won_at: int
    last_round_winner: int | None
    streak: int
    rounds_won: list[int]
    third_next: int

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        options: SpitOptions,
        *,
        seed: int | str | None = None,
        deal: SpitDeal | dict[str, Any] | None = None,
        preset: str | None = None,
    ) -> SpitState:
        """A new game at time 0, its first spit flip made. ``deal`` (a :class:`SpitDeal` or the
        records.md §3 ``deal`` object) wins over ``seed``; the seed also lays out later rounds.
        Raises :class:`MalformedRecordError` for a bad deal, :class:`MissingChanceError` with
        neither deal nor seed."""
        if options.game != "spit":
            raise ValueError("SpitState plays Spit; use SpeedState for Speed")
        if deal is None:
            if seed is None:
                raise MissingChanceError("no deal and no seed: nothing says how the cards lie")
            deal = seeded_spit_start(options, seed)
        elif isinstance(deal, dict):
            deal = parse_spit_deal(deal, options)
        self = cls.__new__(cls)
        self._init_common(options, preset, seed)
        self.tableaus = [[[] for _ in range(SLOTS)] for _ in range(2)]
        self.spits = [[], []]
        self.round = 0
        self.round_winner = None
        self.round_won_at = 0
        self.last_round_winner = None
        self.streak = 0
        self.rounds_won = [0, 0]
        self.third_next = 0
        self.start_deal = deal.to_json()
        events: list[Event] = []
        if self._check_out_of_cards(events, [self._count(deal, 0), self._count(deal, 1)]):
            self.round = 1
            for seat in (0, 1):
                self.spits[seat] = [c for p in deal.tableaus[seat] for c in p] + list(deal.spits[seat])
            self.centers = [list(c) for c in deal.centers]
            return self
        self._start_round(deal, events, first=True)
        return self

    @staticmethod
    def _count(deal: SpitDeal, seat: int) -> int:
        return sum(len(p) for p in deal.tableaus[seat]) + len(deal.spits[seat])

    def copy(self) -> SpitState:
        """An independent copy (lists copied, nothing deep-copied)."""
        new = SpitState.__new__(SpitState)
        self._copy_common(new)
        new.tableaus = [[p[:] for p in t] for t in self.tableaus]
        new.spits = [s[:] for s in self.spits]
        new.round = self.round
        new.round_winner = self.round_winner
        new.round_won_at = self.round_won_at
        new.last_round_winner = self.last_round_winner
        new.streak = self.streak
        new.rounds_won = self.rounds_won[:]
        new.third_next = self.third_next
        return new

    # ------------------------------------------------------------------ facts
    def cards_held(self, seat: int) -> int:
        """Every card ``seat`` holds: tableau and spit pile."""
        return sum(len(p) for p in self.tableaus[seat]) + len(self.spits[seat])

    def tableau_cards(self, seat: int) -> int:
        """How many cards lie in ``seat``'s tableau."""
        return sum(len(p) for p in self.tableaus[seat])

    def legal_moves(self, seat: int) -> list[str]:
        """Every move ``seat`` may make now, canonical: plays ``T3-C1`` (by pile, then center),
        slot moves ``T2-T5``, ``spit``, ``slap Cn``."""
        if self.phase == OVER or seat not in (0, 1):
            return []
        if self.phase == SLAPPING:
            return [f"slap C{j + 1}" for j in range(len(self.centers))] if seat == self.round_winner else []
        out: list[str] = []
        tab = self.tableaus[seat]
        wrap = self.options.wrap
        if self.now >= self.play_from:
            for i, pile in enumerate(tab):
                if pile:
                    card = pile[-1]
                    for j, center in enumerate(self.centers):
                        if center and fits(card, center[-1], wrap):
                            out.append(f"T{i + 1}-C{j + 1}")
        empties = [k for k, pile in enumerate(tab) if not pile]
        if empties:
            for i, pile in enumerate(tab):
                if len(pile) >= 2:
                    out.extend(f"T{i + 1}-T{k + 1}" for k in empties)
        if self.stuck_since is not None and self.spits[seat] and not self.called[seat]:
            out.append("spit")
        return out

    def view(self, seat: int | None) -> SpitView:
        """What ``seat`` may know (None: a spectator). In Spit every face-up card is public, so
        seats differ only in their legal moves."""
        players = tuple(
            SpitPlayerView(
                tableau=tuple(PileView(p[-1] if p else None, len(p)) for p in self.tableaus[s]),
                spit=len(self.spits[s]),
                cards=self.cards_held(s),
                called_spit=self.called[s],
                rounds_won=self.rounds_won[s],
            )
            for s in (0, 1)
        )
        return SpitView(
            seat=seat,
            t=self.now,
            round=self.round,
            phase=self.phase,
            stuck=self.stuck_since is not None,
            play_from=self.play_from,
            round_winner=self.round_winner,
            result=self.result,
            centers=tuple(PileView(c[-1] if c else None, len(c)) for c in self.centers),
            legal=tuple(self.legal_moves(seat)) if seat is not None else (),
            players=players,
        )

    def full_view(self) -> SpitView:
        """The whole table (for Spit the same as a spectator's view)."""
        return self.view(None)

    # ------------------------------------------------------------------ moves
    def _apply_parsed(self, seat: int, move: Move, events: list[Event]) -> None:
        kind, a, b = move
        if kind == PLAY:
            self._play(seat, a, b, events)
        elif kind == SLOT:
            self._slot(seat, a, b, events)
        elif kind == SPIT:
            self._spit_checks(seat)
            self._call_spit(seat, events)
        elif kind == SLAP:
            self._slap(seat, b, events, auto=False)
        else:  # pragma: no cover - parse_move gives no other kind for Spit
            raise IllegalMoveError("not a Spit move")

    def _pile(self, seat: int, number: int) -> list[int]:
        if not 1 <= number <= SLOTS:
            raise refusal(f"there is no tableau pile {number} (piles are T1 to T{SLOTS})", "refuse.spit.no-pile",
                          pile=number, count=SLOTS)
        return self.tableaus[seat][number - 1]

    def _play(self, seat: int, pile_no: int, center_no: int, events: list[Event]) -> None:
        self._need_playing()
        pile = self._pile(seat, pile_no)
        self._common_play_checks(center_no)
        if not pile:
            raise refusal(f"your tableau pile {pile_no} is empty", "refuse.spit.pile-empty", pile=pile_no)
        card = pile[-1]
        if not fits(card, self.centers[center_no - 1][-1], self.options.wrap):
            raise self._misfit(card, center_no)
        pile.pop()
        self._put_on_center(seat, card, center_no)
        self._record_move(seat, f"T{pile_no}-C{center_no}", events)
        if self._emptied(seat):
            self._win_round(seat, "emptied", events)
        else:
            self._settle(events)

    def _slot(self, seat: int, src_no: int, dst_no: int, events: list[Event]) -> None:
        self._need_playing()
        src = self._pile(seat, src_no)
        dst = self._pile(seat, dst_no)
        if src_no == dst_no:
            raise refusal("a card cannot move onto its own pile", "refuse.spit.own-pile")
        if dst:
            raise refusal(
                f"tableau slot {dst_no} is not empty (it shows {format_card(dst[-1])}); "
                "only an empty slot takes a card",
                "refuse.spit.slot-taken", pile=dst_no, card=format_card(dst[-1]),
            )
        if not src:
            raise refusal(f"your tableau pile {src_no} is empty", "refuse.spit.pile-empty", pile=src_no)
        if len(src) < 2:
            raise refusal(
                f"{format_card(src[-1])} is the last card of pile {src_no}: only a card with a card "
                "beneath it may move to an empty slot",
                "refuse.spit.last-card", card=format_card(src[-1]), pile=src_no,
            )
        dst.append(src.pop())
        self._record_move(seat, f"T{src_no}-T{dst_no}", events)
        self._settle(events)

    def _slap(self, seat: int, center_no: int, events: list[Event], auto: bool) -> None:
        if self.phase == OVER:
            raise refusal("the game is over", "refuse.game-over")
        if self.phase == PLAYING:
            raise refusal(
                "no round is over yet: the round winner slaps once a player has emptied tableau and spit pile",
                "refuse.spit.no-slap-yet",
            )
        if seat != self.round_winner:
            raise refusal(f"only the round winner, seat {self.round_winner}, may slap", "refuse.spit.not-winner",
                          seat=self.round_winner if self.round_winner is not None else -1)
        if not 1 <= center_no <= len(self.centers):
            raise refusal(f"there is no center pile {center_no} (there are {len(self.centers)})",
                          "refuse.spit.no-center", center=center_no, count=len(self.centers))
        self._record_move(seat, f"slap C{center_no}", events, auto)
        loser = 1 - seat
        collected: list[list[int]] = [[], []]
        for s in (0, 1):
            collected[s] = [c for p in self.tableaus[s] for c in p] + self.spits[s]
        collected[seat] += self.centers[center_no - 1]
        for j, center in enumerate(self.centers):
            if j != center_no - 1:
                collected[loser] += center
        self.tableaus = [[[] for _ in range(SLOTS)] for _ in range(2)]
        self.centers = [[] for _ in self.centers]
        self.spits = collected
        if self._check_out_of_cards(events, [len(collected[0]), len(collected[1])]):
            return
        if self.options.rounds_in_a_row and self.streak >= self.options.rounds_in_a_row:
            self._end_game(seat, "rounds", events)
            return
        self._start_round(self._next_deal(collected), events, first=False)

    def _auto_slap(self, events: list[Event]) -> None:
        assert self.round_winner is not None
        sizes = [len(c) for c in self.centers]
        self._slap(self.round_winner, sizes.index(min(sizes)) + 1, events, auto=True)

    def _slap_due(self) -> int:
        return self.round_won_at + self.options.auto_slap_ms

    def _slap_wait(self) -> IllegalMoveError:
        return too_late(f"too late: the round is over; seat {self.round_winner} has won it and slaps a center pile",
                       "refuse.spit.round-over", seat=self.round_winner if self.round_winner is not None else -1)

    # ------------------------------------------------------------------ rounds
    def _check_out_of_cards(self, events: list[Event], held: list[int]) -> bool:
        for seat in (0, 1):
            if held[seat] == 0:
                self._end_game(seat, "out-of-cards", events)
                return True
        return False

    def _next_deal(self, collected: list[list[int]]) -> SpitDeal:
        number = self.round + 1
        entry = self._take_chance()
        if entry is not None:
            if not isinstance(entry, dict) or set(entry) != {"deal"}:
                raise MalformedRecordError(
                    f'round {number} begins here: the chance entry must be a deal entry {{"deal": {{...}}}}'
                )
            return parse_spit_deal(entry["deal"], self.options, own=collected, where=f"deal of round {number}")
        if self.seed is not None:
            return seeded_spit_round(collected, self.seed, number, len(self.centers))
        raise MissingChanceError(f"round {number} needs a new layout: the record gives no deal entry and no seed")

    def _start_round(self, deal: SpitDeal, events: list[Event], first: bool) -> None:
        self.tableaus = [[list(p) for p in t] for t in deal.tableaus]
        self.spits = [list(s) for s in deal.spits]
        self.centers = [list(c) for c in deal.centers]
        self.prev_tops = [None] * len(self.centers)
        self.round += 1
        self.phase = PLAYING
        self.round_winner = None
        self.last_center_player = None
        self.third_next = 0
        self.called = [False, False]
        self.stuck_since = None
        if not first:
            self._record({"deal": deal.to_json()})
            events.append(Event(self.now, "deal", None, f"round {self.round}"))
        self._flip(events)

    def _emptied(self, seat: int) -> bool:
        return not self.spits[seat] and not any(self.tableaus[seat])

    def _tiebreak(self) -> int:
        if self.last_center_player is not None:
            return self.last_center_player
        if self.last_round_winner is not None:
            return self.last_round_winner
        return 0

    def _win_round(self, winner: int, why: str, events: list[Event]) -> None:
        self.phase = SLAPPING
        self.round_winner = winner
        self.round_won_at = self.now
        self.streak = self.streak + 1 if self.last_round_winner == winner else 1
        self.last_round_winner = winner
        self.rounds_won[winner] += 1
        self.stuck_since = None
        self.called = [False, False]
        events.append(Event(self.now, "round-won", winner, why))

    def _any_center_play(self) -> bool:
        tops = [c[-1] for c in self.centers if c]
        if not tops:
            return False
        wrap = self.options.wrap
        for tab in self.tableaus:
            for pile in tab:
                if pile:
                    card = pile[-1]
                    for top in tops:
                        if fits(card, top, wrap):
                            return True
        return False

    def _any_reveal(self) -> bool:
        """Can some player turn up a face-down card by a move into an empty slot (rule 2.2.4)?"""
        return any(any(not pile for pile in tab) and any(len(pile) >= 2 for pile in tab) for tab in self.tableaus)

    def _settle(self, events: list[Event]) -> None:
        """After a change in play: is the table stuck now, and does a stuck table end the round?"""
        if self.phase != PLAYING:
            return
        if self._any_center_play():
            self._set_stuck(False)
            return
        self._set_stuck(True)
        # rule 2.2.5: with no spit cards left a player who can still turn up a face-down card by a
        # slot move is not stuck yet (the card turned up may fit), so the round goes on
        if not self.spits[0] and not self.spits[1] and not self._any_reveal():
            counts = [self.tableau_cards(0), self.tableau_cards(1)]
            winner = (0 if counts[0] < counts[1] else 1) if counts[0] != counts[1] else self._tiebreak()
            self._win_round(winner, "stuck", events)

    def _flip_pile(self, seat: int) -> list[int]:
        return self.spits[seat]

    def _flip_pile_name(self) -> str:
        return "spit"

    def _flip(self, events: list[Event]) -> None:
        placed: list[int | None] = [None] * len(self.centers)
        for seat in (0, 1):
            if self.spits[seat]:
                card = self.spits[seat].pop()
                self.centers[seat].append(card)
                placed[seat] = card
        if len(self.centers) == 3:
            for seat in (self.third_next, 1 - self.third_next):
                if self.spits[seat]:
                    card = self.spits[seat].pop()
                    self.centers[2].append(card)
                    placed[2] = card
                    self.third_next = 1 - seat
                    break
        self._after_flip(placed, events)
        done = [s for s in (0, 1) if self._emptied(s)]
        if done:
            self._win_round(done[0] if len(done) == 1 else self._tiebreak(), "emptied", events)
        else:
            self._settle(events)

    def _play_hint(self, seat: int) -> tuple[str, Phrase]:
        wrap = self.options.wrap
        for seat in (0, 1):
            for i, pile in enumerate(self.tableaus[seat]):
                if pile:
                    for j, center in enumerate(self.centers):
                        if center and fits(pile[-1], center[-1], wrap):
                            return (f"seat {seat} can play {format_card(pile[-1])} (T{i + 1}) on center {j + 1}",
                                    Phrase("refuse.spit.not-stuck.tableau",
                                           {"seat": seat, "card": format_card(pile[-1]), "pile": i + 1,
                                            "center": j + 1}))
        # only called when not stuck
        return "a card can still be played", Phrase("refuse.spit.not-stuck")  # pragma: no cover

    def _time_tiebreak(self) -> int | None:
        if self.last_round_winner is not None:
            return self.last_round_winner
        return self.last_center_player
