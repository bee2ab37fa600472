"""``python -m spite`` is the ``spite`` command."""

from spite.cli import main

main()
