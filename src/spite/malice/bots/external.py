"""External bots: any program that speaks the line-based JSON protocol of ``docs/bot-protocol.md``.

``make_bot("cmd:python mybot.py")`` gives an :class:`ExternalBot` that runs ``python mybot.py``
(split like a shell would, no shell involved) and talks to it over its standard input and output,
one JSON object per line, like UCI for chess. The program is started at the first game, kept for
the next ones, and stopped by :meth:`ExternalBot.close` (or when the bot is garbage collected).

A program that answers something that is not a move, a move that is not legal, or nothing within
its time (the move's budget plus :attr:`ExternalBot.grace`) raises :class:`BotError` with a reason
a person can read; the program is then stopped, and started afresh for the next game.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from spite.bots import register_bot
from spite.bots.base import Bot, Decision
from spite.errors import IllegalMoveError, OptionsError, SpiteError
from spite.malice import Move, Options, Result, SeatView, parse_move
from spite.malice.game import GAME

__all__ = ["PROTOCOL", "BotError", "ExternalBot"]

PROTOCOL = "spite-bot/1"
"""The protocol name sent in the ``hello`` message."""


class BotError(SpiteError):
    """An external bot broke the protocol: garbage, an illegal move, no answer in time, or it died."""


def _kill(proc: subprocess.Popen[bytes], stderr: IO[bytes] | None) -> None:
    """Stop a bot's process (its whole process group) and close its pipes; safe to call twice."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    if stderr is not None:
        stderr.close()


class ExternalBot(Bot):
    """A bot in another program (see the module docstring and ``docs/bot-protocol.md``)."""

    def __init__(self, command: str | Sequence[str], *, grace: float = 1.0, default_limit: float = 10.0,
                 startup: float = 10.0, cwd: str | None = None) -> None:
        if isinstance(command, str):
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise OptionsError(f"cmd: cannot read the command {command!r}: {exc}") from None
        else:
            argv = list(command)
        if not argv:
            raise OptionsError("cmd: give the program to run, e.g. cmd:python mybot.py")
        if shutil.which(argv[0], path=None) is None and not os.path.isfile(argv[0]):
            raise OptionsError(f"cmd: no such program {argv[0]!r}")
        self.argv = argv
        self.name = "cmd:" + (command if isinstance(command, str) else shlex.join(argv))
        self.grace = grace
        """Seconds allowed on top of the move's budget."""
        self.default_limit = default_limit
        """Seconds allowed for a move when no budget is given."""
        self.startup = startup
        """Seconds allowed to start and answer ``hello``."""
        self.cwd = cwd
        self.announced: str | None = None
        """The name the program gave in its ``ready`` answer."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buf = b""
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # ------------------------------------------------------------------ process
    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the program runs
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, cwd=self.cwd, start_new_session=True)
        except OSError as exc:
            self._stderr.close()
            self._stderr = None
            raise BotError(f"{self.name} cannot be started: {exc.strerror or exc}") from None
        self._finalizer = weakref.finalize(self, _kill, self._proc, self._stderr)
        self._buf = b""
        self._send({"type": "hello", "protocol": PROTOCOL})
        deadline = time.monotonic() + self.startup
        while True:
            msg = self._receive(deadline, f"to hello within {self.startup:g} s")
            if msg.get("type") == "ready":
                name = msg.get("name")
                self.announced = name if isinstance(name, str) else None
                return
            if msg.get("type") != "info":
                self._fail(f"{self.name} answered hello with {self._short(msg)}, not a ready message")

    def close(self) -> None:
        """Say goodbye and stop the program (at once if it does not leave within a moment)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send({"type": "quit"})
                proc.wait(timeout=0.5)
            except (BotError, subprocess.TimeoutExpired):
                pass
        if self._finalizer is not None:
            self._finalizer()
        self._proc = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0)
            lines = [ln.strip() for ln in self._stderr.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        except (OSError, ValueError):
            return ""
        return lines[-1][:200] if lines else ""

    def _fail(self, reason: str) -> None:
        """Stop the program and raise :class:`BotError` (the next game starts a fresh one)."""
        if self._proc is not None and self._finalizer is not None:
            self._finalizer()
        self._proc = None
        raise BotError(reason)

    def _send(self, msg: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._died("before it was asked")

    def _died(self, when: str) -> None:
        proc = self._proc
        code = proc.wait() if proc is not None else None
        tail = self._stderr_tail()
        self._fail(f"{self.name} exited (code {code}) {when}" + (f": {tail}" if tail else ""))

    @staticmethod
    def _short(value: object) -> str:
        text = value if isinstance(value, str) else json.dumps(value)
        return repr(text[:80] + ("…" if len(text) > 80 else ""))

    def _drain(self) -> None:
        """Forget anything the program wrote that was not asked for (a late or extra answer)."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        self._buf = b""
        while select.select([fd], [], [], 0)[0]:
            if not os.read(fd, 65536):
                self._died("between moves")

    def _receive(self, deadline: float, what: str) -> dict[str, Any]:
        """The next non-empty line as a JSON object (raises :class:`BotError` on garbage, death, time)."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], left)[0] if left > 0 else []
            if not ready:
                self._fail(f"{self.name} did not answer {what}")
            chunk = os.read(fd, 65536)
            if not chunk:
                self._died("before it answered")
            self._buf += chunk
            if len(self._buf) > 1 << 22:
                self._fail(f"{self.name} wrote more than 4 MB without a line break")
        line, _, self._buf = self._buf.partition(b"\n")
        text = line.decode("utf-8", "replace").strip()
        if not text:
            return self._receive(deadline, what)
        try:
            msg = json.loads(text)
        except json.JSONDecodeError:
            msg = None
        if not isinstance(msg, dict):
            self._fail(f"{self.name} answered {self._short(text)}, which is not a JSON object")
        assert isinstance(msg, dict)
        return msg

    # ------------------------------------------------------------------ the Bot interface
    def start_game(self, opts: Options, seat: int) -> None:
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            self._start()
        self._send({"type": "start", "game": GAME.name, "options": opts.to_dict(), "seat": seat,
                    "players": opts.players})

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        if self._proc is None:
            self.start_game(view.opts, view.seat if view.seat is not None else view.to_move)
        legal = {m.text: m for m in view.legal_moves}
        limit = (budget if budget is not None else self.default_limit) + self.grace
        request: dict[str, Any] = {
            "type": "move",
            "seat": view.seat,
            "view": view.to_json(),
            "legal": list(legal),
            "played_this_turn": view.played_this_turn,
            "budget": budget,
            "time_limit": round(limit, 3),
            "seed": rng.getrandbits(32),
        }
        self._drain()
        self._send(request)
        deadline = time.monotonic() + limit
        what = f"with a move within {limit:g} s"
        msg = self._receive(deadline, what)
        while msg.get("type") == "info":
            msg = self._receive(deadline, what)
        text = msg.get("move")
        if not isinstance(text, str):
            self._fail(f"{self.name} answered {self._short(msg)}, which names no move")
        assert isinstance(text, str)
        move = legal.get(text) or self._parsed(text, view, legal)
        if move is None:
            self._fail(f"{self.name} played {text!r}, which is not a legal move here")
        assert move is not None
        why = msg.get("why")
        return Decision(move, why if isinstance(why, str) else "")

    @staticmethod
    def _parsed(text: str, view: SeatView, legal: dict[str, Move]) -> Move | None:
        """The move ``text`` names when it is legal: written another way (lower case, ``T`` for 10), or a
        hand move naming a card the hand holds (``H7H-B4``: legal when its rank form is)."""
        try:
            move = parse_move(text, view.opts.skipbo)
        except IllegalMoveError:
            return None
        if legal.get(move.rank_form.text) is None or (move.card >= 0 and move.card not in (view.hand or ())):
            return None
        return move

    def end_game(self, result: Result | None) -> None:
        """Tell the program how the game ended (no answer expected)."""
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(BotError):
                self._send({"type": "end", "result": result.to_json() if result else None})


register_bot("cmd", lambda arg: ExternalBot(arg))
