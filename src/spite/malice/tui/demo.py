"""The terminal demo (``make play`` until the browser app exists): two random players, turn by turn.

The table is drawn with Rich after every turn, with the moves of that turn in the notation.
The demo contains no rules: it asks the engine for the legal moves and plays them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from spite.cards import RANKS, WILD_RANK, format_card
from spite.malice import Options, State

__all__ = ["render_table", "run_demo"]

_SUIT_STYLE = {"S": "bold", "C": "bold", "H": "bold red", "D": "bold red"}


def _card(card: int | None, state: State) -> Text:
    if card is None:
        return Text("--", style="dim")
    token = format_card(card)
    if state.card_value(card) == 0:
        return Text(token, style="bold magenta")
    style = "bold" if RANKS[card] == WILD_RANK else _SUIT_STYLE.get(token[-1], "bold")
    return Text(token, style=style)


def _cards(cards: Sequence[int], state: State) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(_card(c, state))
    return out or Text("--", style="dim")


def render_table(state: State, moves: list[str] | None = None) -> Group:
    """The table as Rich renderables: build piles, then one row per seat."""
    builds = Table.grid(padding=(0, 2))
    for _ in range(len(state.builds)):
        builds.add_column(justify="center")
    builds.add_row(*[Text(f"B{b + 1}", style="dim") for b in range(len(state.builds))])
    builds.add_row(*[
        Text.assemble(_card(p[-1], state), f" ({len(p)})") if p else Text("empty", style="dim")
        for p in state.builds
    ])
    centre = Panel(builds, title=f"build piles · draw pile {len(state.draw)}"
                   + (f" · set aside {len(state.set_aside)}" if state.set_aside else ""), expand=False)
    seats = Table(show_header=True, header_style="bold", expand=False)
    seats.add_column("seat")
    seats.add_column("stock", justify="right")
    seats.add_column("top")
    seats.add_column("hand")
    for j in range(state.opts.discard_piles):
        seats.add_column(f"D{j + 1}")
    for s in range(state.players):
        stock = state.stock_of(s)
        marker = "▶ " if s == state.to_move and not state.is_over else "  "
        seats.add_row(
            f"{marker}{s}",
            str(len(stock)),
            _cards(state.stock_tops(state.opts.stock_of(s)), state),
            _cards(state.hands[s], state),
            *[_cards(p, state) for p in state.discards[s]],
        )
    parts: list[Panel | Table | Text] = [centre, seats]
    if moves is not None:
        parts.append(Text("moves: " + (" ".join(moves) or "(none)"), style="cyan"))
    return Group(*parts)


def run_demo(opts: Options, seed: int, *, delay: float = 0.4, max_turns: int | None = None,
             console: Console | None = None) -> State:
    """Play a game between two random players, drawing the table after each turn."""
    console = console or Console()
    state = State.new(opts, seed)
    rng = random.Random(f"demo/{seed}")
    console.rule(f"Spite and Malice · seed {seed} · seat {state.to_move} begins")
    console.print(render_table(state))
    turns = 0
    while not state.is_over and (max_turns is None or turns < max_turns):
        seat = state.to_move
        turn_moves: list[str] = []
        while not state.is_over and state.to_move == seat and len(turn_moves) < 200:
            moves = state.build_moves() or state.end_moves()
            move = rng.choice(moves)
            state.play(move)
            turn_moves.append(move.text)
            if move.ends_turn:
                break
        turns += 1
        console.rule(f"turn {turns}: seat {seat}")
        console.print(render_table(state, turn_moves))
        if delay:
            time.sleep(delay)
    result = state.result
    if result is None:
        console.print(f"[bold]Stopped after {turns} turns.[/bold]")
    elif result.winner is not None:
        console.print(f"[bold green]Seat {result.winner} wins[/bold green]: the last stock card is played "
                      f"after {state.turn + 1} turns.")
    else:
        console.print(f"[bold yellow]A draw[/bold yellow] ({result.reason}).")
    return state
