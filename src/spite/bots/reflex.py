"""Where the server's Spit adapter still finds the reflex bots: they live in :mod:`spite.spit.bots` now.

Waiting for the server's refactor (its game adapters move into the family packages): then this module
goes, with its line in the import contracts and in tests/test_layers.py.
"""

from spite.spit.bots import LEVEL_WORDS, ReflexBot, make_reflex_bot

__all__ = ["LEVEL_WORDS", "ReflexBot", "make_reflex_bot"]
