"""Spite and Malice in the terminal app (``spite tui``): the table screen and its summary
(:mod:`~spite.malice.tui.screen`, the ``tui`` hook), the table without Textual
(:mod:`~spite.malice.tui.session`), a seat at a server's table (:mod:`~spite.malice.tui.remote`), the moves
in words (:mod:`~spite.malice.tui.words`) and the Rich demo (``spite demo``, :mod:`~spite.malice.tui.demo`).
"""
