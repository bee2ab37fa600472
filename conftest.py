"""pytest, for the whole repository: modules whose optional extra is missing stay out of the doctest run.

``spite.rl.openspiel`` registers its game with OpenSpiel when imported, so it cannot be imported
without it (its tests in ``tests/rl/test_rl_openspiel.py`` are skipped then, with the reason).
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/spite/rl/openspiel.py")
