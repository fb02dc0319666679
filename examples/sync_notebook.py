"""Regenerate seed_000_walkthrough.ipynb from its script twin (the percent-cell .py file).

Run after editing the script: python examples/sync_notebook.py. The tests check the two agree.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def notebook_from_script(source: str) -> dict:
    cells = []
    for i, chunk in enumerate(re.split(r"^# %%", source, flags=re.M)[1:]):
        header, _, body = chunk.partition("\n")
        if header.strip() == "[markdown]":
            lines = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.strip("\n").split("\n")]
            cell = {"cell_type": "markdown", "id": f"cell-{i}", "metadata": {}}
        else:
            lines = body.strip("\n").split("\n")
            cell = {"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {}, "outputs": []}
        cell["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def main() -> None:
    script = HERE / "seed_000_walkthrough.py"
    target = HERE / "seed_000_walkthrough.ipynb"
    target.write_text(json.dumps(notebook_from_script(script.read_text()), indent=1) + "\n")
    sys.stdout.write(f"wrote {target}\n")


if __name__ == "__main__":
    main()
