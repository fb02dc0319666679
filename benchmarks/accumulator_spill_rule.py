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

import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.read_samples import DATA, read_h100, read_h200
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.errors import ProblemError
from roofmodel.machine import load_machine
from roofmodel.model.kernel import triton_config

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(47)}


def accumulator_rows(gpu: str, samples: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per kernel the rule charges so: its excess by the rule and its compiled counts (``loop`` and ``waits``
    None where it compiled without spilling)."""
    ev = Evaluator(load_machine(gpu), 1980.0)
    out = []
    for d in samples:
        for r in read_broad_csv(DATA / d / "broad.csv"):
            if r.set != "sweep" or r.instruction != "mma.sync":
                continue
            if d.endswith("2026-11-23") and r.split == "holdout":
                continue
            try:
                cfg = triton_config(ev.machine, r.dtype, block_m=r.block_m, block_n=r.block_n, block_k=r.block_k,
                                    group_m=r.group_m, num_warps=r.num_warps, num_stages=r.num_stages)  # fmt: skip
            except ProblemError:
                continue
            if cfg.instruction != "mma.sync":
                continue
            excess = float(ev.footprint(r, compiled=False, family="mma.sync")["accumulator_excess"])
            if excess <= 0:
                continue
            counted = r.loop_local_bytes is not None
            out.append(dict(gpu=gpu, sample=d, excess=excess, loop=r.loop_local_bytes / 8 if counted else None,
                            waits=r.loop_local_waits if counted else None, spilled=r.spilled_registers))  # fmt: skip
    return out


def fitted(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of loop bytes / 8, waits and compiled spills, each over the excess, over the kernels that spilled."""
    spilled = [r for r in rows if r["loop"] is not None]
    return {k: statistics.median(r[k] / r["excess"] for r in spilled) for k in ("loop", "waits", "spilled")}


def main() -> None:
    rows = {gpu: accumulator_rows(gpu, samples) for gpu, samples in FITTED_ON.items()}
    every = [r for v in rows.values() for r in v]
    for name, v in (*rows.items(), ("both", every)):
        f = fitted(v)
        kept = sum(r["loop"] is None for r in v)
        print(f"{name}: {len(v)} kernels, {kept} compiled without spilling; median loop registers / excess "
              f"{f['loop']:.3f}, waits / excess {f['waits']:.3f}, compiled spills / excess {f['spilled']:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
