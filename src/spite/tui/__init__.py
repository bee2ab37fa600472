"""Terminal front ends: the Rich demo (``spite demo``) and the Textual app (``spite tui``).

The Textual app lives in :mod:`spite.tui.app` (screens in ``malice_screen`` and ``spit_screen``;
the screen-free tables in ``session`` and ``spit_session``); the command is added to the ``spite``
command line by :mod:`spite.cli.play`. Nothing here is imported eagerly, so the demo
needs only Rich.
"""
