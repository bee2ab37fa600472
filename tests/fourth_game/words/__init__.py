"""Pebbles' own words in English and German (``en.json``, ``de.json``), as a family keeps its own: its
registry line's ``words`` hook names :data:`FOLDER`, the catalogue merges them with the shared words,
and the server serves them to the page with those (the terminal screen and ``pebbles.js`` word with them)."""

from pathlib import Path
from typing import Final

__all__ = ["FOLDER"]

FOLDER: Final = Path(__file__).resolve().parent
"""The folder of ``en.json`` and ``de.json``."""
