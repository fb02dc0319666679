"""The mask-variant check's figures (docs/measurements/h200-2026-11-30/mask_variants, benchmarks/gpu_mask_variants.py):
per fp16 tile of the layout-pair check, the SM cycles an iteration of each form of the loop (roofmodel's masked
kernel, K masked only, no mask) in the four operand layouts, and both K-major over A K-major, B N-major. On the CPU.

    python benchmarks/mask_variants.py
"""

from __future__ import annotations

import csv
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gpu_broad_sweep import LAYOUT_PAIR_ITERATIONS

DATA = Path(__file__).resolve().parent.parent / "docs" / "measurements" / "h200-2026-11-30" / "mask_variants"
VARIANTS = ("masked", "kmask", "nomask")
LAYOUTS = ("kk", "kn", "mk", "mn")


def slopes(directory: Path = DATA) -> dict[tuple[str, str, str], float]:
    """Per (variant, tile, layout): SM cycles an iteration at 1980 MHz, the slope of the median of both runs' four
    timings over the iterations between the two K (variants.csv and repeat/variants.csv)."""
    times: dict[tuple[str, str, str, int], list[float]] = {}
    for path in (directory / "variants.csv", directory / "repeat" / "variants.csv"):
        with path.open() as f:
            for r in csv.DictReader(f):
                tile = f"{r['block_m']}x{r['block_n']}x{r['block_k']}-w{r['num_warps']}-s{r['num_stages']}"
                key = (r["variant"], tile, r["a_major"] + r["b_major"], int(r["k"]) // int(r["block_k"]))
                times.setdefault(key, []).extend(float(r[c]) for c in ("time_ms", "time_ms_2"))
    short, long = LAYOUT_PAIR_ITERATIONS
    return {
        key[:3]: (statistics.median(times[(*key[:3], long)]) - statistics.median(ts)) * 1e-3 * 1980e6 / (long - short)
        for key, ts in times.items()
        if key[3] == short
    }


def main() -> None:
    """Per tile, each variant's slope in the four layouts and both K-major over A K-major, B N-major."""
    s = slopes()
    print("| tile | " + " | ".join(f"{v}: kk / kn / mk / mn (kk over kn)" for v in VARIANTS) + " |")
    print("|---|" + "---|" * len(VARIANTS))
    for tile in sorted({k[1] for k in s}):
        cells = [" / ".join(f"{s[(v, tile, lay)]:.0f}" for lay in LAYOUTS) + f" ({s[(v, tile, 'kk')] / s[(v, tile, 'kn')]:.2f})"
                 for v in VARIANTS]  # fmt: skip
        print(f"| {tile} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
