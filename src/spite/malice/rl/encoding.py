"""Fixed-size tensors for a seat's view: the discrete action space, action masks, observations.

Everything here is built from a :class:`~spite.malice.SeatView` only (never from a
:class:`~spite.malice.State`), so an observation can hold nothing its seat may not know. The
sizes depend on the options (players, build and discard piles, open stock cards), never on the
position: one :class:`Encoding` per set of options. ``docs/rl.md`` has the tables.

numpy makes the masks and observations; this module imports without it, so that the terminal app
reads a server's views with :func:`view_from_json` on the core install (no numpy there).

**Actions** (``n_actions = B + D·B + 14·B + 14·D + 1`` for ``B`` build and ``D`` discard piles;
133 for ``classic``, at most 493):

============================  =========================================  =====================
block                         index                                      move
============================  =========================================  =====================
stock to build pile ``b``     ``b``                                      ``S-B{b+1}``
discard ``j`` to build ``b``  ``B + j·B + b``                            ``D{j+1}-B{b+1}``
hand rank ``r`` to build      ``B + D·B + (r-1)·B + b``                  ``H{r}-B{b+1}``
hand rank ``r`` to discard    ``B + D·B + 14·B + (r-1)·D + d``           ``H{r}-D{d+1}``
pass                          ``n_actions - 1``                          ``pass``
============================  =========================================  =====================

Ranks ``r`` are 1..13 (Ace..King; Skip-Bo numbers 1..12) and 14 for ``X`` (joker / Skip-Bo
wild), so every preset uses the same layout; indices that no move of the game can take (Skip-Bo
rank 13, ace discards without ``discard_aces``) are simply never legal.

>>> from spite.malice import Options, State
>>> enc = Encoding(Options.from_preset("classic"))
>>> enc.n_actions, enc.obs_size
(133, 348)
>>> enc.move(0).text, enc.move(enc.n_actions - 1).text, enc.action_of("HX-D4")
('S-B1', 'pass', 131)
>>> enc.action_of("H7H-B2") == enc.action_of("H7-B2")   # a move naming its card: its rank form's action
True
>>> state = State.new(enc.opts, seed=1)
>>> view = state.view(state.to_move)
>>> mask = enc.mask(view)
>>> sorted(enc.move(int(i)).text for i in mask.nonzero()[0]) == sorted(m.text for m in view.legal_moves)
True
>>> obs = enc.observe(view)
>>> obs.shape, obs.dtype.name, float(obs.min()) >= 0.0, float(obs.max()) <= 1.0
((348,), 'float32', True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from spite.cards import RANKS, WILD_RANK, format_card, format_cards, parse_cards
from spite.errors import IllegalMoveError
from spite.malice import BUILD, DISCARD, DISCARD_PILE, HAND, STOCK, Move, Options, SeatView, parse_move
from spite.malice.moves import build_move, discard_move, pass_move

__all__ = ["N_CARD_CLASSES", "N_RANKS", "Encoding", "view_from_json", "view_text"]

N_RANKS: Final = 14
"""Rank slots of the action space and of rank counts: index ``rank - 1`` (1..13, 14 for ``X``)."""
N_CARD_CLASSES: Final = 15
"""One-hot slots for a single face-up card: 0 for no card, else its rank (1..13, 14 for ``X``)."""
N_BUILD_VALUES: Final = 13
"""One-hot slots for a build pile's value 0..12 (12 only in a final position: a completed pile leaves at
once, except when the game's last stock card completed it)."""
PILE_CAP: Final = 20
"""Discard pile heights are scaled by this and clipped at 1."""
COUNT_CAP: Final = 4
"""Per-rank counts inside a discard pile are scaled by this and clipped at 1."""
PLAYED_CAP: Final = 30
"""``played_this_turn`` is scaled by this and clipped at 1."""

try:  # numpy makes the tensors; without it (the core install) the rest, view_from_json, still serves
    import numpy as np
except ModuleNotFoundError:
    np = None  # type: ignore[assignment]

if TYPE_CHECKING:
    import numpy.typing as npt

    Obs = npt.NDArray[np.float32]
    Mask = npt.NDArray[np.int8]


class Encoding:
    """The action space and the observation tensor of one set of options.

    * :attr:`n_actions`, :meth:`move`, :meth:`action_of`, :meth:`mask`: the discrete actions;
    * :attr:`obs_size`, :meth:`observe`, :attr:`sections`: the observation vector (``float32``,
      every entry in ``[0, 1]``), seen from the observing seat: its own block first, then the
      other seats in playing order.
    """

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        sk = opts.skipbo
        nb, nd = opts.build_piles, opts.discard_piles
        self.n_build = nb
        self.n_discard = nd
        moves: list[Move] = [build_move(STOCK, b, skipbo=sk) for b in range(nb)]
        moves += [build_move(DISCARD_PILE, b, pile=j, skipbo=sk) for j in range(nd) for b in range(nb)]
        moves += [build_move(HAND, b, rank=r, skipbo=sk) for r in range(1, N_RANKS + 1) for b in range(nb)]
        moves += [discard_move(r, d, skipbo=sk) for r in range(1, N_RANKS + 1) for d in range(nd)]
        moves.append(pass_move(sk))
        self._moves: tuple[Move, ...] = tuple(moves)
        self._index: dict[Move, int] = {m: i for i, m in enumerate(moves)}
        self.n_actions: int = len(moves)
        """The size of the discrete action space."""

        # ---- observation layout
        p, k = opts.players, opts.open_stock
        self._seat_size = 2 + k * N_CARD_CLASSES + 1 + nd * (N_CARD_CLASSES + N_RANKS + 1)
        layout: list[tuple[str, int]] = [
            ("hand", N_RANKS),
            ("builds", nb * N_BUILD_VALUES),
            ("seats", p * self._seat_size),
            ("to_move", p),
            ("globals", 4),
        ]
        self.sections: dict[str, slice] = {}
        """Where each part of the observation lies (see ``docs/rl.md``)."""
        pos = 0
        for name, size in layout:
            self.sections[name] = slice(pos, pos + size)
            pos += size
        self.obs_size: int = pos
        """The length of the observation vector."""
        self._builds_start = self.sections["builds"].start
        self._seats_start = self.sections["seats"].start
        self._to_move_start = self.sections["to_move"].start
        self._globals_start = self.sections["globals"].start
        self._deck_size = len(opts.deck_cards())

    # ------------------------------------------------------------------ actions
    def move(self, action: int) -> Move:
        """The move an action index stands for (whether or not it is legal now)."""
        a = int(action)
        if not 0 <= a < self.n_actions:
            raise IllegalMoveError(f"action {action} is out of range (0 to {self.n_actions - 1})")
        return self._moves[a]

    def action_of(self, move: Move | str) -> int:
        """The action index of a move (or of its text)."""
        if isinstance(move, str) or move.skipbo != self.opts.skipbo:
            move = parse_move(move if isinstance(move, str) else move.text, self.opts.skipbo)
        index = self._index.get(move.rank_form)  # a hand move naming its card (H7H-B4) is its rank form's action
        if index is None:
            raise IllegalMoveError(f"{move.text!r} is no move of these options (its pile does not exist)")
        return index

    def mask(self, view: SeatView) -> Mask:
        """``int8`` vector: 1 exactly at the actions of ``view.legal_moves`` (all 0 when not to move)."""
        if np is None:
            raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
        out = np.zeros(self.n_actions, dtype=np.int8)
        index = self._index
        for m in view.legal_moves:
            out[index[m]] = 1
        return out

    def describe(self, action: int) -> str:
        """One line for an action: its index, move text and block."""
        m = self.move(action)
        if m.kind == BUILD:
            block = {STOCK: "stock to build", DISCARD_PILE: "discard pile to build", HAND: "hand to build"}[m.source]
        elif m.kind == DISCARD:
            block = "hand to discard pile (ends the turn)"
        else:
            return f"{int(action)}: pass (ends the turn)"
        return f"{int(action)}: {m.text} ({block})"

    # ------------------------------------------------------------------ observations
    def observe(self, view: SeatView) -> Obs:
        """The observation vector of ``view`` (a seat's view; a spectator has no hand)."""
        opts = self.opts
        if view.opts is not opts and view.opts != opts:
            raise ValueError("the view is of other options than this encoding's")
        seat = view.seat if view.seat is not None else view.to_move
        ranks = RANKS
        buf = [0.0] * self.obs_size  # filled as a list (cheaper than numpy item by item), converted once
        # own hand: count of each rank / hand size
        hand_size = opts.hand_size
        unit = 1.0 / hand_size
        for card in view.hand or ():
            buf[ranks[card] - 1] += unit
        # build piles: one-hot value 0..12
        base = self._builds_start
        for b, pile in enumerate(view.builds):
            buf[base + b * N_BUILD_VALUES + len(pile)] = 1.0
        # one block per seat, the observer's first
        base = self._seats_start
        players = opts.players
        k = opts.open_stock
        quarter = 1.0 / COUNT_CAP
        for rel in range(players):
            s = (seat + rel) % players
            pos = base + rel * self._seat_size
            if rel == 0 or (opts.partnerships and rel % 2 == 0):
                buf[pos] = 1.0
            buf[pos + 1] = min(view.hand_sizes[s] / hand_size, 1.0)
            pos += 2
            si = opts.stock_of(s)
            tops = view.stock_tops[si]
            n_tops = len(tops)
            for i in range(k):  # the playable top first, then the face-up cards below it
                buf[pos + i * N_CARD_CLASSES + (ranks[tops[-1 - i]] if i < n_tops else 0)] = 1.0
            pos += k * N_CARD_CLASSES
            buf[pos] = min(view.stock_sizes[si] / opts.stock_size, 1.0)
            pos += 1
            for pile in view.discards[s]:
                if pile:
                    buf[pos + ranks[pile[-1]]] = 1.0
                    counts = pos + N_CARD_CLASSES - 1
                    for card in pile:
                        buf[counts + ranks[card]] += quarter
                    buf[pos + N_CARD_CLASSES + N_RANKS] = min(len(pile), PILE_CAP) / PILE_CAP
                else:
                    buf[pos] = 1.0
                pos += N_CARD_CLASSES + N_RANKS + 1
        # whose turn it is, relative to the observer
        buf[self._to_move_start + (view.to_move - seat) % players] = 1.0
        g = self._globals_start
        deck = self._deck_size
        buf[g] = min(view.draw_size / deck, 1.0)
        buf[g + 1] = min(view.set_aside_size / deck, 1.0)
        buf[g + 2] = min(view.played_this_turn, PLAYED_CAP) / PLAYED_CAP
        buf[g + 3] = min(view.turn, opts.turn_limit) / opts.turn_limit
        if np is None:
            raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
        out = np.fromiter(buf, dtype=np.float32, count=len(buf))
        np.minimum(out, 1.0, out=out)  # rank counts in a tall discard pile
        return out

    def layout(self) -> list[tuple[str, int, int, str]]:
        """The observation's parts as rows ``(name, start, size, meaning)`` (``docs/rl.md``)."""
        meaning = {
            "hand": "own hand: count of each rank (A..K, X) / hand_size",
            "builds": "per build pile: one-hot of its value 0..12",
            "seats": (f"per seat, observer first ({self._seat_size} each): same side, hand size / hand_size, "
                      f"{self.opts.open_stock} face-up stock card(s) one-hot (0 = none, else rank), "
                      "stock size / stock_size, then per discard pile: top one-hot, rank counts / 4, "
                      "height / 20"),
            "to_move": "one-hot: the seat to move, counted from the observer",
            "globals": "draw pile / deck, set-aside / deck, played this turn / 30, turns ended / turn_limit",
        }
        return [(name, sl.start, sl.stop - sl.start, meaning[name]) for name, sl in self.sections.items()]


# ---------------------------------------------------------------------- text
def view_text(view: SeatView) -> str:
    """A plain drawing of what ``view``'s seat sees (the format of ``spite show``), legal moves last."""
    opts = view.opts
    lines: list[str] = []
    if view.result is not None:
        res = view.result
        who = f"seat {res.winner} wins" if res.winner is not None else "a draw"
        pts = f", {res.points} points" if res.points else ""
        lines.append(f"Game over after {view.turn} turns: {who} ({res.reason}{pts}).")
    else:
        lines.append(f"Turn {view.turn + 1}: seat {view.to_move} to move.")
    builds = "  ".join(
        f"B{b + 1}:{format_card(p[-1]) + '=' + str(len(p)) if p else '--'}" for b, p in enumerate(view.builds))
    lines.append(f"Build piles  {builds}")
    aside = f", set aside {view.set_aside_size}" if view.set_aside_size else ""
    lines.append(f"Draw pile    {view.draw_size} cards{aside}")
    for s in range(opts.players):
        si = opts.stock_of(s)
        tops = " ".join(format_cards(view.stock_tops[si]))
        mark = ">" if s == view.to_move and view.result is None else " "
        team = f" (team {s % 2})" if opts.partnerships else ""
        lines.append(f"{mark} Seat {s}{team}: stock {view.stock_sizes[si]:>2} top {tops or '--'}")
        if s == view.seat and view.hand is not None:
            lines.append(f"    hand     {' '.join(format_cards(view.hand)) or '(empty)'}")
        else:
            lines.append(f"    hand     {view.hand_sizes[s]} cards")
        piles = "  ".join(f"D{j + 1}:{' '.join(format_cards(p)) or '--'}" for j, p in enumerate(view.discards[s]))
        lines.append(f"    discards {piles}")
    if view.legal_moves:
        lines.append("Legal        " + " ".join(m.text for m in view.legal_moves))
    return "\n".join(lines)


# ---------------------------------------------------------------------- the bot protocol's view
def view_from_json(opts: Options, data: Mapping[str, Any], legal: Sequence[str] = (),
                   played_this_turn: int = 0) -> SeatView:
    """A :class:`SeatView` from the ``view`` of a ``move`` request (``docs/bot-protocol.md``).

    That JSON gives a build pile's value and top but not the cards below the top: they come back
    as jokers under the top card, which changes nothing :meth:`Encoding.observe` reads. ``idle_turns``
    is not in the JSON (0 here; the encoding does not use it). So the encoding of the rebuilt
    view is the encoding of the real one, and a policy plays the same over the protocol.
    """
    from spite.cards import JOKER

    players = data["players"]
    seat = data.get("seat")
    stock_sizes: list[int] = []
    stock_tops: list[tuple[int, ...]] = []
    for i in range(opts.n_stocks):
        entry = players[i]  # stock i is seat i's (with partnerships, team i's: seats 0 and 1)
        stock_sizes.append(int(entry["stock"]))
        stock_tops.append(tuple(parse_cards(entry["stock_top"])))
    builds: list[tuple[int, ...]] = []
    for b in data["builds"]:
        value = int(b["value"])
        top = b.get("top")
        builds.append(((JOKER,) * (value - 1) + tuple(parse_cards([top]))) if value and top else ())
    hand = players[seat]["hand"] if seat is not None else None
    return SeatView(
        opts=opts,
        seat=seat,
        to_move=int(data["to_move"]),
        turn=int(data["turn"]) - 1,
        result=None,
        hand=tuple(parse_cards(hand)) if hand is not None else None,
        hand_sizes=tuple(int(p["hand_size"]) for p in players),
        stock_sizes=tuple(stock_sizes),
        stock_tops=tuple(stock_tops),
        builds=tuple(builds),
        discards=tuple(tuple(tuple(parse_cards(pile)) for pile in p["discards"]) for p in players),
        draw_size=int(data["draw"]),
        set_aside_size=int(data.get("set_aside", 0)),
        played_this_turn=int(played_this_turn),
        idle_turns=0,
        moves=tuple(parse_move(t, opts.skipbo) for t in legal),
    )


def rank_label(rank: int, skipbo: bool) -> str:
    """The label of a rank slot in the tables: ``A``..``K``, ``X`` (Skip-Bo ``1``..``12``, ``X``)."""
    from spite.malice.moves import rank_token

    if skipbo and rank == 13:
        return "(13: none)"
    return rank_token(rank, skipbo) if rank != WILD_RANK else "X"
