"""What the PettingZoo and the Gymnasium environment share: options, rewards, optional imports."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from spite.malice import Options, Result, State

__all__ = ["INSTALL_HINT", "make_options", "optional_attr", "require", "seat_rewards", "start_state"]

INSTALL_HINT = "pip install 'spite[rl]'"


def require(module: str) -> Any:
    """Import ``module`` (pettingzoo or gymnasium), or raise a one-line error saying how to get it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        if exc.name is not None and exc.name.split(".")[0] != top:
            raise
        raise ModuleNotFoundError(
            f"the Spite and Malice environments need {top}, which is not installed: {INSTALL_HINT}",
            name=top) from None


def optional_attr(module: str, name: str) -> Any:
    """``module.name`` if the module is installed; else a stand-in class that fails when used.

    The environment classes derive from ``pettingzoo.AECEnv`` and ``gymnasium.Env``; this keeps
    their modules importable (for documentation and doctests) where the ``[rl]`` extra is missing.
    """
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:
        def _fail(*args: Any, **kwargs: Any) -> None:
            require(module)

        return type(name, (), {"__init__": _fail, "__doc__": f"Stand-in: {module} is not installed."})


def make_options(preset: str, options: Mapping[str, Any] | None) -> Options:
    """Checked :class:`Options` for a preset and rule options (raises :class:`OptionsError`)."""
    return Options.from_preset(preset, dict(options or {}))


def start_state(options: Mapping[str, Any] | None, opts: Options) -> State | None:
    """The position ``reset(options={"state": ...})`` starts from (``None``: deal a new game). It must
    be a state with the environment's rule options ``opts`` (a state of another game has other
    options): :class:`ValueError` otherwise."""
    start = (options or {}).get("state")
    if start is None:
        return None
    if getattr(start, "opts", None) != opts:
        raise ValueError("options['state'] must be a State with this environment's rule options")
    state: State = start
    return state


def seat_rewards(result: Result | None, opts: Options) -> list[float]:
    """The final reward of every seat: +1 for the winning side (with partnerships both partners), −1
    for every other seat, 0 for every seat when the game is drawn (or not over)."""
    n = opts.players
    if result is None or result.winner is None:
        return [0.0] * n
    if opts.partnerships:
        team = result.winner % 2
        return [1.0 if s % 2 == team else -1.0 for s in range(n)]
    return [1.0 if s == result.winner else -1.0 for s in range(n)]
