"""Spit and Speed bots with reflexes: a reaction-time model per level and the seed's tips.

A reflex bot never sees the game state, only its seat's view (:meth:`SpitState.view` /
:meth:`SpeedState.view`): face-up cards, pile sizes, its own Speed hand. It is asked, after every
event at the table, what it intends to do next and when: :meth:`ReflexBot.plan` gives
``(t_ms, move)`` or ``None`` (nothing to do until the table changes). A simulator (or a server
driving a bot) applies the move when its time comes; the engine decides the races.

**Reaction model.** Every action takes a delay drawn from a lognormal distribution whose mean is
the level's ``mean_ms`` (multiplied by a factor for the kind of action) and whose shape
``sigma`` is the jitter. The first card after a spit flip (or a new round, or Speed's reshuffle)
is slower (``flip_factor``: the table must be read again); a spit call and a slap have factors
of their own. The last ``commit`` share of a delay is the hand moving: an intention that far
along is carried out even if the table changed meanwhile (so two hands can reach for the same
pile, and the slower one is told "too late"); an earlier intention that no longer makes sense is
dropped and the bot reacts anew. All randomness comes from the ``random.Random`` passed in.

**Strategy** (the seed's tips): reveal face-down cards first, the biggest pile first; use empty
slots to uncover cards; watch both centers (beginners sometimes watch only one); spit at once
when stuck; slap the smaller pile. Experts also look one card ahead (prefer a play that the next
card can follow, avoid one the opponent's visible cards can follow) and keep jokers for later.

>>> import random
>>> from spite.spit import new_game
>>> state = new_game("spit", seed=2)
>>> bot = make_reflex_bot("expert")
>>> bot.start_game(state.options, 0)
>>> state.legal_moves(0)
['T1-C1', 'T3-C2', 'T5-C1']
>>> t, move = bot.plan(state.view(0), 0, random.Random(1))
>>> move, 100 < t < 2000
('T5-C1', True)
>>> make_reflex_bot("reflex:420").reaction.mean_ms
420.0
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Final

from spite.cards import RANK_TOKENS, RANKS, WILD_RANK
from spite.errors import OptionsError
from spite.spit.options import SpitOptions
from spite.spit.rules import SPIT_MOVE, fits
from spite.spit.views import SpeedView, SpitView

__all__ = [
    "LEVELS",
    "LEVEL_WORDS",
    "TUI_LEVELS",
    "Reaction",
    "ReflexBot",
    "Strategy",
    "TickOpponent",
    "View",
    "make_reflex_bot",
    "make_tui_opponent",
    "reflex_bot_names",
]

View = SpitView | SpeedView
"""What a reflex bot is given: one seat's view of a Spit or Speed table."""

PLAY: Final = "play"
SLOT: Final = "slot"
SPIT: Final = "spit"
SLAP: Final = "slap"


@dataclass(frozen=True, slots=True)
class Reaction:
    """How fast a player reacts: a lognormal delay per action (ms), with a mean and a jitter.

    >>> r = Reaction(mean_ms=500, sigma=0.3)
    >>> rng = random.Random(0)
    >>> draws = [r.draw(rng) for _ in range(4000)]
    >>> 480 < sum(draws) / len(draws) < 520
    True
    """

    mean_ms: float
    """Mean delay of one ordinary action (seeing a card that fits and putting it down)."""
    sigma: float = 0.3
    """Shape of the lognormal (0: always exactly the mean)."""
    flip_factor: float = 1.4
    """The first card after a flip, a new round or a reshuffle takes this much longer."""
    spit_factor: float = 1.0
    """Calling spit once the table is stuck (the seed: "spit at once")."""
    slap_factor: float = 1.0
    """Slapping a center pile once the round is won."""
    commit: float = 0.35
    """The last share of a delay during which the move is under way and is no longer recalled."""
    min_ms: int = 1
    """No action is faster than this."""

    def draw(self, rng: random.Random, factor: float = 1.0) -> int:
        """One delay in whole ms, mean ``mean_ms * factor``."""
        mean = self.mean_ms * factor
        if self.sigma <= 0:
            return max(self.min_ms, round(mean))
        mu = math.log(mean) - self.sigma * self.sigma / 2
        return max(self.min_ms, round(rng.lognormvariate(mu, self.sigma)))


@dataclass(frozen=True, slots=True)
class Strategy:
    """Which of the seed's tips a player follows, and how well."""

    tunnel: float = 0.0
    """Chance, each time the player looks, of watching only one center pile (the tip "watch both")."""
    consolidate: bool = True
    """Use empty slots to uncover face-down cards whenever there is no card to play."""
    lookahead: bool = True
    """Prefer a play the next own card can follow; avoid one the opponent's face-up cards can follow."""
    smart_slap: bool = True
    """Slap the smaller center pile (else any pile)."""


@dataclass(frozen=True, slots=True)
class Level:
    """A named level: reaction and strategy."""

    reaction: Reaction
    strategy: Strategy
    about: str = ""


LEVELS: dict[str, Level] = {
    "beginner": Level(
        Reaction(mean_ms=1500, sigma=0.45, flip_factor=1.6, spit_factor=1.5, slap_factor=1.3),
        Strategy(tunnel=0.25, consolidate=False, lookahead=False, smart_slap=False),
        "about 1.5 s a card, slow after a flip, sometimes watches one center only, no slot tactics",
    ),
    "club": Level(
        Reaction(mean_ms=700, sigma=0.35, flip_factor=1.4, spit_factor=1.0),
        Strategy(tunnel=0.05, consolidate=True, lookahead=False, smart_slap=True),
        "about 700 ms a card, follows the tips",
    ),
    "expert": Level(
        Reaction(mean_ms=350, sigma=0.25, flip_factor=1.3, spit_factor=0.7, slap_factor=0.8),
        Strategy(tunnel=0.0, consolidate=True, lookahead=True, smart_slap=True),
        "about 350 ms a card, follows the tips, looks one card ahead",
    ),
}
"""The levels; ``reflex:MS`` is the expert with a mean reaction of MS ms (same jitter and strategy)."""

LEVEL_WORDS: Final = {"easy": "beginner", "medium": "club", "hard": "reflex:500", "expert": "expert"}
"""The computer levels every game's commands take (``easy`` … ``expert``, the words of Spite and
Malice's levels) and the reflex bot each stands for: ``spite tui --game spit --seats human,hard`` and
``spite tournament --game spit --bots hard easy`` play the same bots."""

TUNNEL_FACTOR: Final = 2.0
"""A play on a center pile the player is not watching takes this much longer to see."""
REFLEX_MIN_MS: Final = 1
REFLEX_MAX_MS: Final = 60_000


def reflex_bot_names() -> list[str]:
    """The spec forms :func:`make_reflex_bot` takes: the levels of every game, then the reflex bots' own."""
    return [*LEVEL_WORDS, *(name for name in LEVELS if name not in LEVEL_WORDS), "reflex:MS"]


def make_reflex_bot(spec: str) -> ReflexBot:
    """A bot from a spec: a level (``easy``, ``medium``, ``hard``, ``expert``: :data:`LEVEL_WORDS`),
    ``beginner``, ``club`` or ``reflex:MS`` (the expert's strategy and jitter with a mean reaction of MS
    ms, 1 … 60000; decimals allowed).

    >>> make_reflex_bot("club").name
    'club'
    >>> bot = make_reflex_bot("hard")
    >>> bot.name, bot.reaction.mean_ms
    ('hard', 500.0)
    >>> make_reflex_bot("reflex:fast")
    Traceback (most recent call last):
    ...
    spite.errors.OptionsError: reflex:fast: MS must be a number of milliseconds (e.g. reflex:500)
    """
    if not isinstance(spec, str):
        raise OptionsError(f"a Spit bot is named by a text such as 'expert', not {spec!r}")
    name, sep, arg = spec.strip().partition(":")
    name = name.lower()
    if name in LEVEL_WORDS and name not in LEVELS and not sep:
        bot = make_reflex_bot(LEVEL_WORDS[name])
        bot.name = name
        return bot
    if name in LEVELS and not sep:
        level = LEVELS[name]
        return ReflexBot(level.reaction, level.strategy, name=name)
    if name == "reflex" and sep:
        try:
            ms = float(arg)
        except ValueError:
            raise OptionsError(f"{spec}: MS must be a number of milliseconds (e.g. reflex:500)") from None
        if not (REFLEX_MIN_MS <= ms <= REFLEX_MAX_MS) or math.isnan(ms):
            raise OptionsError(f"{spec}: the mean reaction must be {REFLEX_MIN_MS} to {REFLEX_MAX_MS} ms")
        expert = LEVELS["expert"]
        return ReflexBot(replace(expert.reaction, mean_ms=ms), expert.strategy, name=f"reflex:{arg.strip()}")
    if name == "reflex":
        raise OptionsError("reflex needs a mean reaction in ms: reflex:MS, e.g. reflex:500")
    raise OptionsError(f"unknown Spit bot {spec!r} (one of {', '.join(reflex_bot_names())})")


@dataclass(slots=True)
class _Intent:
    t: int
    move: str
    commit_from: int


@dataclass
class ReflexBot:
    """A Spit/Speed player with a reaction time (:class:`Reaction`) and a :class:`Strategy`.

    Use: :meth:`start_game` once, then :meth:`plan` after every event (it may keep its current
    intention), :meth:`outcome` after the simulator tried its move.
    """

    reaction: Reaction
    strategy: Strategy = field(default_factory=Strategy)
    name: str = "reflex"
    seat: int = 0
    wrap: str = "full"
    _intent: _Intent | None = field(default=None, repr=False)
    _seen: tuple[int, ...] | None = field(default=None, repr=False)
    _after_flip: bool = field(default=False, repr=False)

    @classmethod
    def with_mean(cls, mean_ms: float, sigma: float | None = None) -> ReflexBot:
        """An expert-strategy bot with mean reaction ``mean_ms`` (and jitter ``sigma``, default the
        expert's; 0 makes every delay exactly the mean)."""
        expert = LEVELS["expert"]
        reaction = replace(expert.reaction, mean_ms=float(mean_ms))
        if sigma is not None:
            reaction = replace(reaction, sigma=float(sigma))
        return cls(reaction, expert.strategy, name=f"reflex:{mean_ms:g}")

    # ------------------------------------------------------------------ the simulator's calls
    def start_game(self, options: SpitOptions, seat: int) -> None:
        """Called once before a game: the options (for the wrap rule) and the bot's seat."""
        if seat not in (0, 1):
            raise OptionsError(f"there is no seat {seat!r} (seats are 0 and 1)")
        self.seat = seat
        self.wrap = options.wrap
        self._intent = None
        self._seen = None
        self._after_flip = True  # the game begins with a flip

    def plan(self, view: View, now_ms: int, rng: random.Random) -> tuple[int, str] | None:
        """What the bot intends to do next and when: ``(t_ms, move)`` with ``t_ms >= now_ms``, or
        None when it waits for the table to change. Keeps its current intention while that still
        makes sense (or the hand is already moving); after a flip it reacts anew, more slowly."""
        if view.finished:
            self._intent = None
            return None
        flipped = self._notice(view)
        intent = self._intent
        if intent is not None:
            if now_ms >= intent.commit_from or (not flipped and self._still_makes_sense(view, intent.move)):
                return (max(intent.t, now_ms), intent.move)
            self._intent = None
        choice = self._choose(view, rng)
        if choice is None:
            return None
        move, kind, extra = choice
        r = self.reaction
        if kind == SPIT:
            factor = r.spit_factor
        elif kind == SLAP:
            factor = r.slap_factor
        else:
            factor = r.flip_factor if self._after_flip else 1.0
            self._after_flip = False
        factor *= extra
        delay = r.draw(rng, factor)
        t = now_ms + delay
        if kind == PLAY and view.play_from > now_ms:
            # during a slowpoke wait the player reads the table; only the hand's motion remains
            t = max(t, view.play_from + max(1, round(delay * r.commit)))
        self._intent = _Intent(t, move, t - round(delay * r.commit))
        return (t, move)

    def outcome(self, move: str, accepted: bool, reason: str, now_ms: int) -> None:
        """The simulator tried ``move`` at ``now_ms``: it landed, or was refused for ``reason``.
        Either way the intention is spent; the next :meth:`plan` reacts to the table as it is."""
        if self._intent is not None and self._intent.move == move:
            self._intent = None

    @property
    def intent(self) -> tuple[int, str] | None:
        """The current intention ``(t_ms, move)``, if any."""
        return None if self._intent is None else (self._intent.t, self._intent.move)

    # ------------------------------------------------------------------ reading the view
    def _notice(self, view: View) -> bool:
        """True (and the next card is slower) when a flip, a new round or a reshuffle happened."""
        sig = (view.round, *(p.flip_pile for p in view.players))
        changed = self._seen is not None and sig != self._seen
        self._seen = sig
        if changed:
            self._after_flip = True
        return changed

    def _still_makes_sense(self, view: View, move: str) -> bool:
        if move == SPIT_MOVE:
            return view.stuck and not view.players[self.seat].called_spit and view.phase == "play"
        if move.startswith("slap"):
            return view.phase == "slap" and view.round_winner == self.seat
        if view.phase != "play":
            return False
        return any(m == move for m, _, _ in self._center_plays(view)) or move in view.legal

    def _center_plays(self, view: View) -> list[tuple[str, int, int]]:
        """Own center plays the view shows (slowpoke wait or not): (move, card, center index)."""
        wrap = self.wrap
        tops = [(j, c.top) for j, c in enumerate(view.centers) if c.top is not None]
        out: list[tuple[str, int, int]] = []
        me = view.players[self.seat]
        for i, pile in enumerate(me.tableau):  # Spit's tableau tops (Speed has no tableau)
            if pile.top is not None:
                for j, top in tops:
                    if fits(pile.top, top, wrap):
                        out.append((f"T{i + 1}-C{j + 1}", pile.top, j))
        seen: set[int] = set()
        for card in me.hand or ():  # Speed's own hand, a move per rank (Spit has no hand)
            r = RANKS[card]
            if r in seen:
                continue
            seen.add(r)
            for j, top in tops:
                if fits(card, top, wrap):
                    out.append((f"H{RANK_TOKENS[r]}-C{j + 1}", card, j))
        return out

    # ------------------------------------------------------------------ choosing
    def _choose(self, view: View, rng: random.Random) -> tuple[str, str, float] | None:
        """The move to make next, its kind, and an extra factor on its delay."""
        me = self.seat
        if view.phase == "slap":
            if view.round_winner != me:
                return None
            sizes = [c.cards for c in view.centers]
            j = sizes.index(min(sizes)) if self.strategy.smart_slap else rng.randrange(len(sizes))
            return (f"slap C{j + 1}", SLAP, 1.0)
        if view.phase != "play":
            return None
        plays = self._center_plays(view)
        if plays:
            extra = 1.0
            if self.strategy.tunnel and len(view.centers) > 1 and rng.random() < self.strategy.tunnel:
                # watching one pile only: a play on another pile is seen, but late
                watched = rng.randrange(len(view.centers))
                on_watched = [p for p in plays if p[2] == watched]
                if on_watched:
                    plays = on_watched
                else:
                    extra = TUNNEL_FACTOR
            return (self._best_play(view, plays, rng), PLAY, extra)
        if SPIT_MOVE in view.legal:
            return (SPIT_MOVE, SPIT, 1.0)
        slots = [m for m in view.legal if _is_slot(m)]
        if slots:  # only Spit has slot moves (tableau to tableau)
            return (self._best_slot(view, slots, rng), SLOT, 1.0)
        return None

    def _best_play(self, view: View, plays: list[tuple[str, int, int]], rng: random.Random) -> str:
        tableau = view.players[self.seat].tableau
        # own cards: the tableau tops (Spit) or the hand (Speed); the opponent's: their tableau tops
        # (Speed: none, an opponent's hand is never counted)
        mine = [p.top for p in tableau if p.top is not None] + list(view.players[self.seat].hand or ())
        theirs = [p.top for p in view.players[1 - self.seat].tableau if p.top is not None]
        tops = [c.top for c in view.centers]

        def score(p: tuple[str, int, int]) -> float:
            move, card, j = p
            s = 0.0
            if move[0] == "T":  # from the tableau: reveal first, the biggest pile first
                size = tableau[int(move[1]) - 1].cards
                s = 100.0 + 10 * size if size >= 2 else 20.0
            if self.strategy.lookahead:
                s += self._ahead(card, mine, theirs, tops[j])
            return s

        return max(plays, key=lambda p: (score(p), rng.random()))[0]

    def _ahead(self, card: int, mine: list[int], theirs: list[int], top: int | None = None) -> float:
        """Look one card ahead: own cards that can follow ``card`` (good), the opponent's (bad), the
        opponent's cards that fit the pile now and will not after ``card`` (good: the play takes a
        card away from them); a joker is worth keeping for a stuck moment."""
        wrap = self.wrap
        follow = sum(1 for c in mine if c != card and fits(c, card, wrap))
        give = sum(1 for c in theirs if fits(c, card, wrap))
        deny = 0 if top is None else sum(1 for c in theirs if fits(c, top, wrap) and not fits(c, card, wrap))
        joker = -30.0 if RANKS[card] == WILD_RANK else 0.0
        return 5.0 * min(follow, 2) - 3.0 * min(give, 2) + 4.0 * min(deny, 2) + joker

    def _best_slot(self, view: View, slots: list[str], rng: random.Random) -> str:
        """Move a card from the pile with the most face-down cards (the tip: consolidate)."""
        if not self.strategy.consolidate:
            return slots[rng.randrange(len(slots))]
        tableau = view.players[self.seat].tableau
        return max(slots, key=lambda m: (tableau[int(m[1]) - 1].cards, -int(m[4:]), rng.random()))


def _is_slot(move: str) -> bool:
    return len(move) == 5 and move[0] == "T" and move[3] == "T"


TUI_LEVELS: Final = LEVEL_WORDS
"""The terminal app's levels (:data:`LEVEL_WORDS`)."""


@dataclass
class TickOpponent:
    """A reflex bot for a caller that polls on a clock (the terminal app): :meth:`act` is asked
    many times a second and answers the move to try now, or None. The bot's intention and its
    delays carry over between calls exactly as in the simulator."""

    bot: ReflexBot
    rng: random.Random
    options: SpitOptions | None = None
    """The game's options (for the wrap rule); None: the game's default preset."""
    _started: bool = field(default=False, repr=False)

    def act(self, view: View, now: int) -> str | None:
        """The move to make at ``now`` (ms), or None to wait. The move is handed out once; if the
        engine refuses it (a lost race) the bot simply reacts to the table as it then is."""
        if not self._started:
            seat = view.seat if view.seat is not None else 1
            opts = self.options
            if opts is None:
                opts = SpitOptions.from_preset(None, None, game=view.game)
            self.bot.start_game(opts, seat)
            self._started = True
        plan = self.bot.plan(view, now, self.rng)
        if plan is None or plan[0] > now:
            return None
        self.bot.outcome(plan[1], True, "", now)
        return plan[1]


def make_tui_opponent(level: str, seed: int | str = 0, options: SpitOptions | None = None) -> TickOpponent:
    """The terminal app's opponent for ``level`` (``easy``, ``medium``, ``hard``, ``expert``, or
    any reflex bot spec), with a random source from ``seed``. ``options`` gives the wrap rule
    (default: the full wrap of the ``spit`` preset).

    >>> from spite.spit import new_game
    >>> state = new_game("spit", seed=2)
    >>> opp = make_tui_opponent("expert", seed=1)
    >>> [opp.act(state.view(1), t) for t in (0, 100)]
    [None, None]
    """
    spec = TUI_LEVELS.get(level, level)
    bot = make_reflex_bot(spec)
    return TickOpponent(bot, random.Random(f"spite-tui-reflex/{spec}/{seed}"), options)
