"""A research interface: PettingZoo and Gymnasium environments of Spite and Malice, with action masks.

The environments need the optional extra (``pip install 'spite[rl]'``: pettingzoo, gymnasium);
they are imported only when asked for, so the rest of :mod:`spite` works without them. The
encoding's tensors (:mod:`spite.malice.rl.encoding`) and the policy bot (:mod:`spite.malice.rl.policy`) need numpy
only, imported when they are used: importing this package needs none of them.

* :func:`pettingzoo_env` — a PettingZoo AEC environment of any preset (2–4 seats);
* ``gymnasium.make("spite/SpiteMalice-v0", opponent="heuristic", preset="classic", ...)`` — one
  seat against built-in bots (registered when this package is imported and gymnasium is there);
* :class:`~spite.malice.rl.encoding.Encoding` — the fixed-size action space, masks and observation
  vectors, all built from a :class:`~spite.malice.SeatView`. Tables: ``docs/rl.md``.

>>> from spite.malice.rl import Encoding
>>> from spite.malice import Options
>>> Encoding(Options.from_preset("partners")).n_actions
133
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spite.malice.rl._common import make_options
from spite.malice.rl.encoding import Encoding, view_from_json, view_text

if TYPE_CHECKING:
    from spite.malice.rl.aec import SpiteMaliceAEC
    from spite.malice.rl.gym_env import SpiteMaliceEnv

__all__ = ["ENV_ID", "Encoding", "SpiteMaliceAEC", "SpiteMaliceEnv", "gymnasium_env", "pettingzoo_env", "register",
           "view_from_json", "view_text"]

ENV_ID = "spite/SpiteMalice-v0"
"""The Gymnasium id of the single-agent environment."""

_ENV_KEYWORDS = ("text", "render_mode")


def pettingzoo_env(preset: str = "classic", **options: Any) -> SpiteMaliceAEC:
    """A PettingZoo AEC environment of ``preset`` with rule ``options`` on top.

    ``text`` (default True) and ``render_mode`` (``None``, ``"ansi"``, ``"human"``) set up the
    environment; every other keyword is a rule option (``players=4``, ``stock_size=13``, …),
    checked like ``spite new --option`` (:class:`~spite.errors.OptionsError` names a bad one).
    """
    from spite.malice.rl.aec import SpiteMaliceAEC

    env_kw = {k: options.pop(k) for k in _ENV_KEYWORDS if k in options}
    return SpiteMaliceAEC(make_options(preset, options), **env_kw)


def gymnasium_env(opponent: Any = "heuristic", preset: str = "classic", **kwargs: Any) -> SpiteMaliceEnv:
    """The single-agent environment without ``gymnasium.make`` (same arguments; no wrappers)."""
    from spite.malice.rl.gym_env import SpiteMaliceEnv

    return SpiteMaliceEnv(opponent, preset, **kwargs)


def register() -> bool:
    """Register ``spite/SpiteMalice-v0`` with Gymnasium (done on import); False if it is not installed."""
    try:
        from gymnasium.envs.registration import register as gym_register
        from gymnasium.envs.registration import registry
    except ModuleNotFoundError:
        return False
    if ENV_ID not in registry:
        gym_register(id=ENV_ID, entry_point="spite.malice.rl.gym_env:SpiteMaliceEnv")
    return True


def __getattr__(name: str) -> Any:
    if name == "SpiteMaliceAEC":
        from spite.malice.rl.aec import SpiteMaliceAEC

        return SpiteMaliceAEC
    if name == "SpiteMaliceEnv":
        from spite.malice.rl.gym_env import SpiteMaliceEnv

        return SpiteMaliceEnv
    raise AttributeError(f"module 'spite.malice.rl' has no attribute {name!r}")


register()
