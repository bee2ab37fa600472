"""A table's lifecycle: the pure core (:mod:`.core`) with its inputs and effects (:mod:`.effects`), the
seats (:mod:`.seats`), the fair deal (:mod:`.fair`) and what a game adds at a table (:mod:`.play`).
Nothing here does I/O or reads a clock; :mod:`spite.server.host` runs it."""
