"""How footprint.ACCUMULATOR_SPILL_FACTOR and ACCUMULATOR_SPILL_WAITS were fitted: over the read sweeps' Triton
mma.sync kernels whose accumulators alone, beside the overhead, pass the per-thread limit and that the register rule
spills at 255 (footprint.kernel_footprint's ``accumulator_excess``: the registers the rule has past the limit), with the
compiled loop's local bytes and waits counted in the SASS (loop_local.csv), the medians of

    loop local bytes / 8 / excess      (registers stored and reloaded an iteration, per register past the limit)
    loop waits / excess                (times a warp waits on its local reloads an iteration, per such register)
    compiled spills / excess           (shown: the rule spills the excess times the loop's factor)

and how many such kernels compiled without spilling (loop_local.csv holds only the ones that spilled). The read
sweeps: the H100's 2026-11-23 (its held-out shapes left out) to fresh18 and the H200's to fresh47
(read_samples.read_h100, read_h200); the same compiler made both's counts.

    python benchmarks/accumulator_spill_rule.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.pointer_spill_rule import counted_row, print_fit, triton_kernels
from benchmarks.read_samples import read_h100, read_h200

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(47)}


def accumulator_rows(gpu: str, samples: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per kernel the rule charges so (pointer_spill_rule.counted_row): its excess by the rule and its compiled
    counts."""
    return [counted_row(gpu, d, r, float(fp["accumulator_excess"]))
            for d, r, fp in triton_kernels(gpu, samples, "mma.sync") if float(fp["accumulator_excess"]) > 0]  # fmt: skip


def main() -> None:
    print_fit({gpu: accumulator_rows(gpu, samples) for gpu, samples in FITTED_ON.items()})


if __name__ == "__main__":
    main()
