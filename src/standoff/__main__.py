"""``python -m standoff`` runs the CLI."""

from .cli import main

main()
