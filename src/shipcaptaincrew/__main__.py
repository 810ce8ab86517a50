"""``python -m shipcaptaincrew`` is the ``scc`` command."""

from shipcaptaincrew.cli import main

main()
