"""How footprint.ACCUMULATOR_SPILL_PER_K_STEP and ACCUMULATOR_WAITS_PER_K_STEP were fitted: over the read sweeps'
Triton mma.sync kernels whose accumulators alone, beside the overhead, pass the per-thread limit and that the register
rule spills at 255 (footprint.kernel_footprint's ``accumulator_excess`` > 0), with the compiled loop's local bytes and
waits counted in the SASS (loop_local.csv), the medians of

    loop local bytes / 8 / s      (registers stored and reloaded an iteration, per mma.sync step along K)
    loop waits / s                (times a warp waits on its local reloads an iteration, per step)

s = footprint.mma_sync_k_steps(BK, e), with those of the rule's excess (the scale of the rule it replaced, a0232fa)
and of the compiled spills beside them, per s and in all; and how many such kernels compiled without spilling
(loop_local.csv holds only the ones that spilled). The read sweeps: the H100's 2026-11-23 (its held-out shapes left
out) to fresh18 and the H200's to fresh49 (read_samples.read_h100, read_h200); the same compiler made both's counts.

    python benchmarks/accumulator_spill_rule.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.pointer_spill_rule import counted_row, fit_groups, fitted, triton_kernels
from benchmarks.read_samples import read_h100, read_h200
from roofmodel.model.footprint import mma_sync_k_steps
from roofmodel.model.problem import INPUT_BYTES

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(49)}


def accumulator_rows(gpu: str, samples: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per kernel the rule charges so (pointer_spill_rule.counted_row), with its mma.sync steps along K an
    iteration (``steps``)."""
    return [{**counted_row(gpu, d, r, float(fp["accumulator_excess"])),
             "steps": int(mma_sync_k_steps(r.block_k, INPUT_BYTES[r.dtype]))}
            for d, r, fp in triton_kernels(gpu, samples, "mma.sync") if float(fp["accumulator_excess"]) > 0]  # fmt: skip


def per_step(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of the loop's registers and waits per mma.sync step along K (of the kernels that spilled)."""
    spilled = [r for r in rows if r["loop"] is not None]
    return {k: statistics.median(r[k] / r["steps"] for r in spilled) for k in ("loop", "waits")}


def print_fit(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Per GPU, per s and all together: how many kernels, how many compiled without spilling, the medians per step
    and per register of the excess."""
    for name, v in fit_groups(rows, "steps", "s = "):
        s, e = per_step(v), fitted(v)
        kept = sum(r["loop"] is None for r in v)
        print(f"{name}: {len(v)} kernels, {kept} compiled without spilling; median per step: loop registers "
              f"{s['loop']:.1f}, waits {s['waits']:.2f}; per register of the excess: loop {e['loop']:.2f}, waits "
              f"{e['waits']:.3f}, compiled spills {e['spilled']:.2f}")  # fmt: skip


def main() -> None:
    print_fit({gpu: accumulator_rows(gpu, samples) for gpu, samples in FITTED_ON.items()})


if __name__ == "__main__":
    main()
