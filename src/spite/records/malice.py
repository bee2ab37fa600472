"""Records of the Spite and Malice family: :mod:`spite.malice.record`, under its older name."""

from spite.malice.record import (
    MaliceReplay,
    new_record,
    options_of,
    positions,
    record_from_state,
    render_text,
    replay_malice,
    state_from_record,
)

__all__ = ["MaliceReplay", "new_record", "options_of", "positions", "record_from_state", "render_text",
           "replay_malice", "state_from_record"]
