"""Spite and Malice as an OpenSpiel game (``pyspiel``), so that OpenSpiel's algorithms run on it.

Importing this module registers the game ``spite_malice`` with :func:`pyspiel.register_game`; it
needs the optional extra (``pip install 'spite[openspiel]'``: the ``open_spiel`` wheel). Then::

    import pyspiel
    import spite.malice.rl.openspiel  # registers spite_malice

    game = pyspiel.load_game("spite_malice(preset=short,options=stock_size:5)")
    state = game.new_initial_state()
    while state.is_chance_node():               # the deal, card by card
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(outcomes[0])
    state.legal_actions(), state.observation_tensor(state.current_player())[:14]

Parameters: ``preset`` (any Spite and Malice preset, default ``classic``) and ``options``, rule
options on top as ``key:value`` pairs separated by ``;`` (``stock_size:5;players:3``: the names of
:class:`~spite.malice.Options`, checked as ``spite new --option`` checks them). Every preset
works, 2–4 seats and partnerships included.

**Chance** is explicit (``EXPLICIT_STOCHASTIC``), one card at a time: the game starts with one
chance node per card of the deck (the shuffled deck, bottom to top, as
:meth:`spite.malice.State.new` lays it out: the stocks, the hands, the draw pile), then one for the
cut (who begins). Each outcome is a card code (:mod:`spite.cards`) with probability its count among
the cards not yet placed, so the whole deal is a uniform shuffle. A move that makes the engine
shuffle (a completed build pile shuffled into the draw pile, the set-aside cards once the draw pile
runs out) is followed by one chance node per shuffled card, and only then played with those
outcomes as its shuffle entries (``State.chance_queue``, as a record's chance entries). So
:meth:`state.history` is a complete record of the game: the engine never draws on a seed here.

**Players' actions** are the actions of :class:`spite.malice.rl.encoding.Encoding` (133 for ``classic``).

**What a seat knows** (the hidden-information boundary: nothing here reads a card the seat may not
see):

* ``observation_tensor(p)`` is :meth:`Encoding.observe` of seat ``p``'s
  :class:`~spite.malice.SeatView` (the same vector as the PettingZoo and Gymnasium environments);
  ``observation_string(p)`` the drawing of that view (:func:`spite.malice.rl.encoding.view_text`);
* ``information_state_string(p)`` is seat ``p``'s whole history, with perfect recall: its own
  dealt hand, every stock's face-up cards and who begins; then every move with the card it showed,
  the stock card it turned up, and for each draw the cards drawn if ``p`` drew them (else only how
  many). No information state tensor is offered (a fixed-size tensor cannot recall a game of any
  length), so OpenSpiel's ``rl_environment`` uses the observation tensor.

Returns are those of the other environments: +1 for the winning side, −1 for every other seat, 0
for all on a draw (the engine's turn limit or a blocked game). The game type says ``ZERO_SUM`` for
two seats and for partnerships, ``GENERAL_SUM`` for three or four single seats.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from spite.cards import N_CODES, format_card, format_cards
from spite.errors import OptionsError
from spite.games import Record
from spite.malice import BUILD, Move, Options, State
from spite.malice.record import record_from_state, replay_malice
from spite.malice.rl._common import make_options, seat_rewards
from spite.malice.rl.encoding import Encoding, view_text
from spite.malice.state import COMPLETE

try:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ModuleNotFoundError as exc:  # pragma: no cover - the message is the point
    if exc.name != "pyspiel":
        raise
    raise ModuleNotFoundError(
        "spite.malice.rl.openspiel needs OpenSpiel, which is not installed: pip install 'spite[openspiel]'",
        name="pyspiel") from None

__all__ = ["GAME_NAME", "GAME_TYPE", "SpiteMaliceGame", "SpiteMaliceObserver", "SpiteMaliceState"]

GAME_NAME: Final = "spite_malice"
"""The name to give :func:`pyspiel.load_game`."""

_DEFAULTS: Final[dict[str, Any]] = {"preset": "classic", "options": ""}
"""The parameters OpenSpiel accepts. Rule options travel in one string (``stock_size:5;players:3``)
rather than a parameter each: OpenSpiel writes every parameter into a game's name, defaults
included, and a default of every option would override what the preset says."""

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Spite and Malice (spite)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)
"""The registered type (an instance's own type says ``ZERO_SUM`` where the returns add up to 0)."""


def _options(params: Mapping[str, Any]) -> Options:
    """The rule options of the game's parameters (one line for a bad one)."""
    unknown = set(params) - set(_DEFAULTS)
    if unknown:
        raise OptionsError(f"unknown parameter {sorted(unknown)[0]!r} (preset, options)")
    preset = str(params.get("preset", _DEFAULTS["preset"]))
    overrides: dict[str, str] = {}
    for item in str(params.get("options", "")).split(";"):
        if not item.strip():
            continue
        key, sep, value = item.partition(":")
        if not sep:
            raise OptionsError(f"options are key:value pairs separated by ';' (stock_size:5;players:3), not {item!r}")
        overrides[key.strip()] = value.strip()
    return make_options(preset, overrides)


def _game_type(opts: Options) -> Any:
    """:data:`GAME_TYPE` with the utility these options give."""
    zero_sum = opts.players == 2 or opts.partnerships
    utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=GAME_TYPE.short_name, long_name=GAME_TYPE.long_name, dynamics=GAME_TYPE.dynamics,
        chance_mode=GAME_TYPE.chance_mode, information=GAME_TYPE.information, utility=utility,
        reward_model=GAME_TYPE.reward_model, max_num_players=GAME_TYPE.max_num_players,
        min_num_players=GAME_TYPE.min_num_players,
        provides_information_state_string=GAME_TYPE.provides_information_state_string,
        provides_information_state_tensor=GAME_TYPE.provides_information_state_tensor,
        provides_observation_string=GAME_TYPE.provides_observation_string,
        provides_observation_tensor=GAME_TYPE.provides_observation_tensor,
        parameter_specification=_DEFAULTS)


class _Shared:
    """What every state of one game shares (options, encoding). OpenSpiel clones a Python state by
    deep-copying its attributes one by one and serializes it by pickling them: these are not
    copied, and pickle as their options."""

    __slots__ = ("deck_size", "encoding", "opts")

    def __init__(self, opts: Options) -> None:
        self.opts, self.encoding, self.deck_size = opts, Encoding(opts), len(opts.deck_cards())

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _Shared, (self.opts,)


class _Table:
    """The engine's position: copied by :meth:`State.copy` when OpenSpiel clones the state, pickled
    as its record (``spite-record/1``: the deal, every move and shuffle), which replays exactly."""

    __slots__ = ("state",)

    def __init__(self, state: State | None = None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(None if self.state is None else self.state.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        if self.state is None:
            return _Table, ()
        return _table_of_record, (record_from_state(self.state).to_json(),)


def _table_of_record(data: dict[str, Any]) -> _Table:
    """A :class:`_Table` of a pickled record."""
    fields = {k: v for k, v in data.items() if k != "format"}
    return _Table(replay_malice(Record(**fields)).state)


class SpiteMaliceGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """The OpenSpiel game of one set of Spite and Malice rule options (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.shared = _Shared(_options(given))
        self.opts = self.shared.opts
        self.encoding = self.shared.encoding
        deck = self.shared.deck_size
        # A generous bound, not an estimate (OpenSpiel wants one): the deal and the cut, then for
        # each turn of the turn limit (deck + 1)² actions, plays and shuffled cards together.
        length = deck + 1 + self.opts.turn_limit * (deck + 1) * (deck + 1)
        zero_sum = self.opts.players == 2 or self.opts.partnerships
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.n_actions,
            max_chance_outcomes=N_CODES,
            num_players=self.opts.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length)
        super().__init__(_game_type(self.opts), info, given)

    def new_initial_state(self) -> SpiteMaliceState:
        """A game before the deal (its first node is a chance node)."""
        return SpiteMaliceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> Any:
        """The observer of a seat (or of the public): see :class:`SpiteMaliceObserver`."""
        return SpiteMaliceObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class SpiteMaliceState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """One game: the deal in progress, then the engine's :class:`~spite.malice.State`."""

    def __init__(self, game: SpiteMaliceGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.table = _Table()
        self.deck: list[int] = []
        """The cards dealt so far, bottom to top of the shuffled deck."""
        self.left: Counter[int] = Counter(game.opts.deck_cards())
        """The cards a chance node may still place (the deck's, or a pending shuffle's)."""
        self.pending: int | None = None
        """The action of a move waiting for the shuffles it causes (an index: a ``Move`` is not made
        for :func:`copy.deepcopy`)."""
        self.shuffles: list[tuple[int, ...]] = []
        """The shuffles of :attr:`pending` sampled so far."""
        self.shuffling: list[int] = []
        """The shuffle being sampled, card by card."""
        self.log: list[tuple[str, int | None, str, str]] = []
        """Per event: public text, the seat with private news (or ``None``), its news, the others' news."""

    @property
    def opts(self) -> Options:
        """The rule options."""
        return self.shared.opts

    @property
    def encoding(self) -> Encoding:
        """The actions and observations of these options."""
        return self.shared.encoding

    @property
    def deck_size(self) -> int:
        """How many cards the deal places."""
        return self.shared.deck_size

    @property
    def engine(self) -> State | None:
        """The position once dealt (the whole table: never hand it to a seat)."""
        return self.table.state

    # ------------------------------------------------------------------ who acts
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` during the deal and a move's shuffles, ``TERMINAL`` at the end."""
        engine = self.engine
        if engine is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.result is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.to_move

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.engine is not None and self.pending is None and self.engine.result is not None

    def _legal_actions(self, player: int) -> list[int]:
        """The actions of the seat's legal moves, ascending."""
        engine = self.engine
        if engine is None or self.pending is not None or engine.result is not None or player != engine.to_move:
            return []
        action_of = self.encoding.action_of
        return sorted({action_of(m) for m in engine.legal_moves()})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card (or, after the deal, who begins) and its probability."""
        if self.engine is None and len(self.deck) == self.deck_size:
            n = self.opts.players
            return [(seat, 1.0 / n) for seat in range(n)]
        total = sum(self.left.values())
        return [(card, count / total) for card, count in sorted(self.left.items()) if count > 0]

    # ------------------------------------------------------------------ acting
    def _apply_action(self, action: int) -> None:
        """A chance outcome (a card, the cut) or a seat's action."""
        action = int(action)
        if self.engine is None:
            if len(self.deck) < self.deck_size:
                self._take(action)
                self.deck.append(action)
            else:
                self._deal(action)
            return
        if self.pending is not None:
            self._take(action)
            self.shuffling.append(action)
            if not self.left:
                self.shuffles.append(tuple(self.shuffling))
                self.shuffling = []
                self._settle()
            return
        self.pending = action
        self.shuffles = []
        self._settle()

    def _take(self, card: int) -> None:
        if self.left[card] <= 0:
            raise ValueError(f"chance outcome {card} ({format_card(card)}) is not among the cards left")
        self.left[card] -= 1
        if not self.left[card]:
            del self.left[card]

    def _deal(self, starter: int) -> None:
        """The whole deck is placed: lay it out as :meth:`State.new` does, ``starter`` begins."""
        opts, deck = self.opts, self.deck
        ss, hs = opts.stock_size, opts.hand_size
        stocks = [deck[i * ss:(i + 1) * ss] for i in range(opts.n_stocks)]
        pos = opts.n_stocks * ss
        hands = [deck[pos + i * hs: pos + (i + 1) * hs] for i in range(opts.players)]
        engine = self.table.state = State.from_deal(opts, stocks=stocks, hands=hands,
                                                    draw=deck[pos + opts.players * hs:], to_move=starter, seed=None)
        tops = " ".join("/".join(format_cards(engine.stock_tops(i))) for i in range(opts.n_stocks))
        hands_text = [" ".join(sorted(format_cards(h))) for h in engine.hands]
        for seat in range(opts.players):
            self.log.append((f"deal: stock tops {tops}; seat {starter} begins", seat, f"your hand {hands_text[seat]}",
                             ""))

    def _settle(self) -> None:
        """Play the pending move once every shuffle it causes has its outcome; else sample the next one.

        A copy plays the move with the shuffles sampled so far and a seed for any further one: a
        shuffle beyond those is the next to sample (its cards, not their order, are what the copy's
        seed says). Each shuffle's cards are worked out after the ones before it are known.
        """
        engine = self.engine
        assert engine is not None and self.pending is not None
        move = self.encoding.move(self.pending)
        if self.shuffles or self._may_shuffle(engine, move):
            probe = engine.copy(stack=False)
            probe.seed = 0
            probe.chance_queue = [list(s) for s in self.shuffles]
            more = probe.play(move).shuffles
            if len(more) > len(self.shuffles):
                self.left = Counter(more[len(self.shuffles)])
                self.shuffling = []
                return
        engine.chance_queue = [list(s) for s in self.shuffles]
        played = engine.play(move)
        if played.shuffles != tuple(self.shuffles):  # pragma: no cover - the probe played the same
            raise AssertionError("the move shuffled other cards than its probe")
        self.pending, self.shuffles = None, []
        text = f"seat {played.seat} {move.text}"
        if played.card >= 0:
            text += f" {format_card(played.card)}"
        if played.turned_up:
            text += f", stock shows {' '.join(format_cards(played.turned_up))}"
        if played.completed_pile is not None:
            text += f", build pile {played.completed_pile[0] + 1} completed"
        drawer = played.drawn_by
        if drawer is None or not played.drawn:
            self.log.append((text, None, "", ""))
        else:
            mine = f"you draw {' '.join(sorted(format_cards(played.drawn)))}"
            theirs = f"seat {drawer} draws {len(played.drawn)}"
            self.log.append((text, drawer, mine, theirs))

    @staticmethod
    def _may_shuffle(engine: State, move: Move) -> bool:
        """False when ``move`` surely shuffles nothing (then no probe is needed): it completes no
        build pile, and the draw pile holds a whole hand, the most any draw it causes can take."""
        if len(engine.draw) < engine.opts.hand_size:
            return True
        return move.kind == BUILD and len(engine.builds[move.target]) >= COMPLETE - 1

    # ------------------------------------------------------------------ results and text
    def returns(self) -> list[float]:
        """+1 for the winning side, −1 for the others, 0 for all on a draw or while the game goes on."""
        engine = self.engine
        if engine is None or self.pending is not None:
            return [0.0] * self.opts.players
        return seat_rewards(engine.result, self.opts)

    def _action_to_string(self, player: int, action: int) -> str:
        """A card for a chance node (``deal 7S``, ``shuffle QH``, ``seat 1 begins``), else the move."""
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine is None:
                return f"deal {format_card(action)}" if len(self.deck) < self.deck_size else f"seat {action} begins"
            return f"shuffle {format_card(action)}"
        return self.encoding.move(action).text

    def history_text(self, seat: int | None) -> str:
        """What ``seat`` has learnt so far, event by event (``None``: only what everyone has)."""
        lines: list[str] = []
        for public, who, news, others in self.log:
            if public.startswith("deal:"):
                if who == seat:
                    lines.append(f"{public}; {news}" if seat is not None else public)
                elif seat is None and who == 0:
                    lines.append(public)
                continue
            if who is None:
                lines.append(public)
            else:
                lines.append(f"{public}; {news if who == seat else others}")
        return "\n".join(lines)

    def __str__(self) -> str:
        """The whole table (every hidden card: for debugging, never for a seat)."""
        if self.engine is None:
            return f"dealing: {len(self.deck)} of {self.deck_size} cards placed"
        text = json.dumps(self.engine.show_json(everything=True), separators=(",", ":"))
        if self.pending is not None:
            move = self.encoding.move(self.pending).text
            text += f"\npending {move}: shuffle {len(self.shuffles) + 1}, {len(self.shuffling)} cards placed"
        return text


class SpiteMaliceObserver:
    """An observer in OpenSpiel's Python API: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    Without perfect recall: the view of the seat (``private_info`` ``SINGLE_PLAYER``) or of a
    spectator (``NONE``), as :meth:`Encoding.observe` and :func:`view_text` give it. With perfect
    recall: :meth:`SpiteMaliceState.history_text` (no tensor). ``ALL_PLAYERS`` is not offered: it
    would be the whole table.
    """

    def __init__(self, game: SpiteMaliceGame, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {dict(params)}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("spite_malice observes one seat or the public, never every hand")
        self.encoding = game.encoding
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.single_seat = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = 0 if self.perfect_recall else self.encoding.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: SpiteMaliceState, player: int) -> None:
        """Fill :attr:`tensor` from what ``player`` (or the public) sees in ``state``."""
        if self.perfect_recall:
            return
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.encoding.observe(engine.view(player if self.single_seat else None))

    def string_from(self, state: SpiteMaliceState, player: int) -> str:
        """What ``player`` (or the public) sees in ``state``, as text."""
        seat = player if self.single_seat else None
        if self.perfect_recall:
            return state.history_text(seat)
        engine = state.engine
        if engine is None:
            return f"dealing: {len(state.deck)} of {state.deck_size} cards placed"
        return view_text(engine.view(seat))


pyspiel.register_game(GAME_TYPE, SpiteMaliceGame)
