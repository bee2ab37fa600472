"""spite: Spite and Malice (Cat and Mouse, Skip-Bo, the match game, party and partnership play) and Spit.

Layers, each importing only those before it: the engine (:mod:`spite.cards`, :mod:`spite.malice`,
:mod:`spite.spit`), records (:mod:`spite.records`), then bots, tournaments, server and front ends.
"""

# The one place the version is written: pyproject.toml reads it from here (a dynamic version),
# and `spite --version` prints it.
__version__ = "0.1.0"
