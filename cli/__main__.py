"""`python -m cli`, the same as the `tablelog` console script."""

from cli.main import main

main()
