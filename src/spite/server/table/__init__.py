"""A table's lifecycle: the pure core (:mod:`.core`) with its inputs and effects (:mod:`.effects`), the
parts it holds (its clocks :mod:`.clock`, its games in a row :mod:`.series`, what it shows :mod:`.view`,
its seats :mod:`.seats`, its fair deals :mod:`.fair`) and the interface a game's adapter fills in
(:mod:`.play`). Nothing here does I/O or reads a clock, and nothing here names a game;
:mod:`spite.server.host` runs it."""
