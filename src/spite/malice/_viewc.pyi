"""The view of the seat to move, made in C (``_viewc.c``; the reference is ``view._of_mover_python``)."""

from spite.malice.state import State
from spite.malice.view import SeatView

def of_mover(cls: type[SeatView], state: State, /) -> SeatView: ...
