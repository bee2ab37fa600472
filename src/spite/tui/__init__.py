"""The terminal app's shell (``spite tui``): the app and its start screen (:mod:`spite.tui.app`), what it
is asked to play (:mod:`spite.tui.config`), the words (:mod:`spite.tui.i18n`), cards on screen
(:mod:`spite.tui.render`), the shared widgets, the link to a server's table and the seek.

It names no game: each family brings its screens and tables in its own ``tui`` package
(``spite.<family>.tui``), found through the ``tui`` hook of its :mod:`spite.games` entry. The command
is added to the ``spite`` command line by :mod:`spite.cli.play`. Nothing here is imported eagerly.
"""
