"""Spit and Speed in the terminal app (``spite tui``): the screens (:mod:`~spite.spit.tui.screen`,
:mod:`~spite.spit.tui.speed_screen`, the ``tui`` hooks), the real-time table against a bot without Textual
(:mod:`~spite.spit.tui.session`), a seat at a server's table (:mod:`~spite.spit.tui.remote`) and the moves
and events in words (:mod:`~spite.spit.tui.words`).
"""
