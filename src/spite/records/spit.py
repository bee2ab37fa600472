"""Records of Spit and Speed: :mod:`spite.spit.record`, under its older name."""

from spite.spit.record import (
    OnEntry,
    SpitReplay,
    new_record,
    positions,
    record_from_state,
    render_text,
    replay_spit,
    state_from_record,
    steps,
    whole_table,
)

__all__ = ["OnEntry", "SpitReplay", "new_record", "positions", "record_from_state", "render_text", "replay_spit",
           "state_from_record", "steps", "whole_table"]
