"""Helpers for building explicit positions in tests (like chess perft positions)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from spite.cards import parse_card, parse_cards
from spite.malice import Options, State


def cards(text: str) -> list[int]:
    """``cards("AS 2H X")`` → card codes, bottom to top."""
    return parse_cards(text.split()) if text.strip() else []


def position(
    opts: Options | None = None,
    *,
    stocks: Sequence[str],
    hands: Sequence[str],
    draw: str = "",
    builds: Sequence[str] | None = None,
    discards: Sequence[Sequence[str]] | None = None,
    set_aside: str = "",
    to_move: int = 0,
    rest: str = "stock",
    seed: int | None = 1,
) -> State:
    """A state from a compact position; the deck's remaining cards go to ``rest``.

    ``rest`` is ``"stock"`` (under the stock of the seat after ``to_move``, where the cards only make
    that stock longer), ``"draw"`` (under the draw pile), ``"set_aside"``, or ``"stock:N"``.
    """
    opts = opts or Options()
    st = [cards(s) for s in stocks]
    hd = [cards(h) for h in hands]
    dr = cards(draw)
    bd = [cards(b) for b in builds] if builds is not None else None
    ds = [[cards(p) for p in piles] for piles in discards] if discards is not None else None
    sa = cards(set_aside)
    used: Counter[int] = Counter()
    for group in (st, hd, bd or [], [dr, sa]):
        for pile in group:
            used.update(pile)
    for piles in ds or []:
        for pile in piles:
            used.update(pile)
    leftover = Counter(opts.deck_cards())
    leftover.subtract(used)
    if any(v < 0 for v in leftover.values()):
        raise ValueError(f"more cards than the deck has: {-leftover}")
    rest_cards = sorted(leftover.elements())
    if rest == "stock":
        rest = f"stock:{opts.stock_of((to_move + 1) % opts.players)}"
    if rest == "draw":
        dr = rest_cards + dr
    elif rest == "set_aside":
        sa = rest_cards + sa
    elif rest.startswith("stock:"):
        i = int(rest.split(":")[1])
        st[i] = rest_cards + st[i]
    else:
        raise ValueError(rest)
    return State.from_deal(opts, stocks=st, hands=hd, draw=dr, builds=bd, discards=ds, set_aside=sa,
                           to_move=to_move, seed=seed)


def hidden_reshuffled(state: State, seat: int, seed: int) -> State:
    """A copy of ``state`` whose cards that ``seat`` cannot see (other hands, face-down stock cards,
    the draw pile, the set-aside heap) are dealt again at random into the same places."""
    import random

    other = state.copy()
    slots: list[tuple[list[int], int]] = []
    for s, hand in enumerate(other.hands):
        if s != seat:
            slots += [(hand, i) for i in range(len(hand))]
    for stock in other.stocks:
        slots += [(stock, i) for i in range(len(stock) - other.opts.open_stock)]
    slots += [(other.draw, i) for i in range(len(other.draw))]
    slots += [(other.set_aside, i) for i in range(len(other.set_aside))]
    hidden = [pile[i] for pile, i in slots]
    random.Random(seed).shuffle(hidden)
    for (pile, i), c in zip(slots, hidden, strict=True):
        pile[i] = c
    return other


def hand_text(state: State, seat: int) -> list[str]:
    from spite.cards import format_cards

    return format_cards(state.hands[seat])


def card(token: str) -> int:
    return parse_card(token)


def legal_texts(state: State) -> set[str]:
    return {m.text for m in state.legal_moves()}


def finished_bot_game(base: str | Any, stock_size: int, turn_limit: int | None = None) -> int:
    """Two bots play a short game by themselves on the server at ``base`` (its address, or an httpx
    client at an app in this process); its stored game id. With ``turn_limit``, a game still going after
    that many turns is a draw: what a review costs grows with the turns, and a small stock alone leaves
    them to the deal (from 3 to 85 at stocks of 2)."""
    options: dict[str, Any] = {"stock_size": stock_size}
    if turn_limit is not None:
        options["turn_limit"] = turn_limit
    return _bots_finish(base, {
        "preset": "short", "join": False, "options": options,
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]})


def finished_spit_game(base: str | Any, game: str = "spit", options: dict[str, Any] | None = None) -> int:
    """Two fast reflex bots play a short Spit (or Speed) game by themselves on the server at ``base``;
    its stored game id."""
    return int(finished_table(base, started_spit_game(base, game, options))["gameId"])


def started_spit_game(base: str | Any, game: str = "spit", options: dict[str, Any] | None = None) -> str:
    """The same game begun, not waited for: its table id (:func:`finished_table` waits for its end), so
    that a test can do other things while the bots play."""
    opts = options if options is not None else (
        {"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2, "time_limit_s": 6} if game == "spit"
        else {"auto_spit_ms": 150, "time_limit_s": 6})
    with _http(base) as http:
        r = http.post("/api/tables", json={
            "game": game, "join": False, "options": opts,
            "seats": [{"kind": "bot", "level": "reflex:30"}, {"kind": "bot", "level": "reflex:60"}]})
        assert r.status_code == 200, r.text
        return str(r.json()["id"])


def _bots_finish(base: str | Any, table: dict[str, Any]) -> int:
    """Create a bots-only ``table`` on the server at ``base`` and wait until it has finished; the game id."""
    with _http(base) as http:
        r = http.post("/api/tables", json=table)
        assert r.status_code == 200, r.text
        return int(finished_table(http, r.json()["id"])["gameId"])


def finished_table(base: str | Any, table_id: str, timeout: float = 30) -> dict[str, Any]:
    """The table ``table_id`` of the server at ``base`` (its info) once it has finished."""
    from waiting import wait_until

    with _http(base) as http:

        def finished() -> dict[str, Any] | None:
            got: dict[str, Any] = http.get(f"/api/tables/{table_id}").json()
            return got if got["status"] == "finished" else None

        return wait_until(finished, f"the end of table {table_id}'s game", timeout=timeout)


@contextlib.contextmanager
def _http(base: str | Any) -> Iterator[Any]:
    """An httpx client at ``base``: a server's address, or a client already (an app in this process)."""
    import httpx

    if isinstance(base, str):
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client
    else:
        yield base
