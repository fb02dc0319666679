"""Regenerate the README's figures (docs/img/*.png) with the roofmodel CLI.

Run: python docs/make_figures.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

IMG = Path(__file__).resolve().parent / "img"
RUNS = [
    *(
        [f"roofline_{m}.png", "roofline", "--machine", m, "--m", "8192", "--dtype", d]
        for m, d in (("a100", "fp16"), ("h100", "fp16"), ("t4", "fp16"), ("v100", "fp16"))
    ),
    ["roofline_all.png", "roofline", "--machine", "a100,h100,t4,v100", "--m", "8192", "--dtype", "fp16"],
    ["budget_h100.png", "budget", "--machine", "h100", "--m", "8192", "--dtype", "fp16", "--cluster", "2x1"],
    ["tiles_h100.png", "tiles", "--machine", "h100", "--m", "8192", "--dtype", "fp16"],
    ["raster_h100.png", "raster", "--machine", "h100", "--m", "8192", "--dtype", "fp16", "--tile", "128x128"],
]


def main() -> None:
    IMG.mkdir(exist_ok=True)
    for name, *args in RUNS:
        subprocess.run([sys.executable, "-m", "roofmodel", "plot", *args, "-o", str(IMG / name)], check=True)


if __name__ == "__main__":
    main()
