"""``python -m roofmodel`` runs the CLI."""

from roofmodel.cli import main

main()
