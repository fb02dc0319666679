"""The IMAD-chain check's figures (docs/measurements/h200-2026-11-30/imad_chain, benchmarks/gpu_imad_chain.py): per
tile and layout, the SM cycles an iteration of the round (two tiles an SM) with 0, 4, 8 and 16 dependent IMAD added a
thread an iteration, beside the compiled loop's IMAD (loops.txt), and what each added IMAD costs over the loop without
the chain. On the CPU.

    python benchmarks/imad_chain.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, print_table, two_k_slopes
from benchmarks.mask_variants import tile_name

DATA = MEASUREMENTS / "h200-2026-11-30" / "imad_chain"
CHAINS = (0, 4, 8, 16)


def slopes() -> dict[tuple[Any, ...], float]:
    """Per (tile, layout, chain): SM cycles an iteration at 1980 MHz over the two K, from both runs' four timings
    (check_runs.two_k_slopes)."""
    return two_k_slopes((DATA / "chain.csv", DATA / "repeat" / "chain.csv"),
                        lambda r: (tile_name(r), r["a_major"] + r["b_major"], int(r["chain"])))  # fmt: skip


def imad_counts() -> dict[tuple[str, str, int], int]:
    """Per (tile, layout, chain): the compiled main loop's IMAD (loops.txt, Triton 3.6 for sm_90a)."""
    out = {}
    for line in (DATA / "loops.txt").read_text().splitlines():
        m = re.match(r"(\S+) (\w\w) chain (\d+): \d+ instructions, IMAD (\d+)", line)
        if m:
            out[(m[1], m[2], int(m[3]))] = int(m[4])
    return out


def main() -> None:
    s, imad = slopes(), imad_counts()
    rows = []
    for tile, lay in sorted({k[:2] for k in s}):
        base, base_imad = s[(tile, lay, 0)], imad[(tile, lay, 0)]
        cells = [f"{s[(tile, lay, 0)]:.0f} ({base_imad})"]
        for chain in CHAINS[1:]:
            added = imad[(tile, lay, chain)] - base_imad
            per = f", {(s[(tile, lay, chain)] - base) / added:+.1f} an IMAD" if added else ""
            cells.append(f"{s[(tile, lay, chain)]:.0f} ({imad[(tile, lay, chain)]}{per})")
        rows.append([tile, lay, *cells])
    print_table(["tile", "layout", *(f"chain {c}: cycles an iteration (IMAD{', cost of each added' if c else ''})"
                                      for c in CHAINS)], rows)  # fmt: skip


if __name__ == "__main__":
    main()
