"""The mask-variant check's figures (docs/measurements/h200-2026-11-30/mask_variants, benchmarks/gpu_mask_variants.py):
per fp16 tile of the layout-pair check, the SM cycles an iteration of each form of the loop (roofmodel's masked
kernel, K masked only, no mask) in the four operand layouts, and both K-major over A K-major, B N-major. On the CPU.

    python benchmarks/mask_variants.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import two_k_slopes

DATA = Path(__file__).resolve().parent.parent / "docs" / "measurements" / "h200-2026-11-30" / "mask_variants"
VARIANTS = ("masked", "kmask", "nomask")
LAYOUTS = ("kk", "kn", "mk", "mn")


def tile_name(r: dict[str, str]) -> str:
    """A CSV row's tile: BMxBNxBK-wW-sS."""
    return f"{r['block_m']}x{r['block_n']}x{r['block_k']}-w{r['num_warps']}-s{r['num_stages']}"


def slopes(directory: Path = DATA) -> dict[tuple[str, ...], float]:
    """Per (variant, tile, layout): SM cycles an iteration at 1980 MHz over the two K, from both runs' four timings
    (variants.csv and repeat/variants.csv; check_runs.two_k_slopes)."""
    return two_k_slopes((directory / "variants.csv", directory / "repeat" / "variants.csv"),
                        lambda r: (r["variant"], tile_name(r), r["a_major"] + r["b_major"]))  # fmt: skip


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
