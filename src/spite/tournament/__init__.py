"""Club tournaments with duplicate deals (issue 52): Swiss and arena pairing, standings, the deals'
commitment, and the pure state machine the server drives (docs/tournaments.md).

A layer above the game registry, the ratings and the fairness scheme, below the server and the
interfaces; it imports no game family and does no I/O, reads no clock and draws no random number.
Its modules are imported by name (``spite.tournament.swiss`` ...); this package imports none of them,
so that ``spite verify`` does not load the pairing's dependencies.
"""
