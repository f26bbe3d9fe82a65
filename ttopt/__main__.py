"""`python -m ttopt` runs the CLI."""

from ttopt.cli import main

main()
