"""The Spit and Speed family's own words in English and German (``en.json``, ``de.json``): the keys of the
message catalogue (:mod:`spite.catalogue`) that only this family uses (its rules, moves, refusals,
presets and screens). The registry's ``words`` hook names :data:`FOLDER`; the catalogue merges them
with the shared words and the server serves them to the page with those."""

from pathlib import Path
from typing import Final

__all__ = ["FOLDER"]

FOLDER: Final = Path(__file__).resolve().parent
"""The folder of ``en.json`` and ``de.json``."""
