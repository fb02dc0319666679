"""The wgmma-wait check's figures (docs/measurements/h200-2026-11-29/wgmma_wait): wgmma tiles in their operand layouts
on one tile an SM (11 x 12 tiles) at 32 and 96 iterations, timed in two runs of two passes on an H200, against the
per-CTA model as compiled at 1980 MHz (each kernel's time the median of its four timings).

For each tile and layout, the slope of the time over the 64 iterations between the two K (SM cycles an iteration):
measured, as the model predicts it where Triton's loop waits for each wgmma (prediction.waits_each_wgmma: the
warpgroup's chain holds the CTA's MMAs and its wait) and as it predicted it with every loop keeping a group in flight
(before), beside the waits the compiled loop has (waits.csv, from benchmarks/wgmma_waits.py --check: 1 where a group
stays in flight, a 0 per wgmma where each is waited on).

    python benchmarks/wgmma_wait.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, iterations, print_table, replaced, timed_rows, two_k_pairs
from roofmodel.model import prediction
from roofmodel.model.problem import INPUT_BYTES

DATA = MEASUREMENTS / "h200-2026-11-29" / "wgmma_wait"
MHZ = 1980.0
KEY = ("dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "a_major", "b_major")


def compiled_waits() -> dict[tuple[str, ...], str]:
    """Each check kernel's compiled waits (waits.csv), by its configuration (KEY, as strings)."""
    with (DATA / "waits.csv").open() as f:
        return {tuple(r[k] for k in KEY): r["waits"] for r in csv.DictReader(f)}


def _slopes(rule: bool) -> dict[str, tuple[float, float, Any]]:
    """Per shape: (measured cycles an iteration, the model's, the longer kernel's record), with the rule or without."""
    with replaced(prediction, waits_each_wgmma=prediction.waits_each_wgmma if rule else lambda *args, **kwargs: False):
        rows = timed_rows(DATA, mhz=MHZ)
    out = {}
    for shape, (short, long) in two_k_pairs(rows).items():
        (_, t1, x1, _), (record, t2, x2, _) = short, long
        cycles = MHZ * 1e6 / (iterations(long) - iterations(short))
        out[shape] = ((t2 - t1) * cycles, (float(x2["total"]) - float(x1["total"])) * cycles, record)
    return out


def per_iteration() -> list[dict[str, Any]]:
    """One row per tile and layout: its compiled waits, whether the model marks it (waits_each_wgmma), and SM cycles an
    iteration measured, with the rule (now) and without (before)."""
    now, before, waits = _slopes(True), _slopes(False), compiled_waits()
    out = []
    for shape, (measured, model, r) in now.items():
        marked = bool(prediction.waits_each_wgmma(True, prediction.FAMILIES.index("wgmma"), INPUT_BYTES[r.dtype],
                                                  r.block_m, r.block_n, r.num_warps, r.b_major == "n"))  # fmt: skip
        out.append(dict(shape=shape.removeprefix("wgmmawait-"), waits=waits[tuple(str(getattr(r, k)) for k in KEY)],
                        marked=marked, measured=measured, now=model, before=before[shape][1]))  # fmt: skip
    return out


def main() -> None:
    print_table(["tile, stages, layout (A B)", "compiled waits", "marked", "measured cycles/iteration", "model now",
                 "before", "now / measured", "before / measured"],
                [[r["shape"], r["waits"], "yes" if r["marked"] else "", f"{r['measured']:.0f}", f"{r['now']:.0f}",
                  f"{r['before']:.0f}", f"{r['now'] / r['measured']:.2f}", f"{r['before'] / r['measured']:.2f}"]
                 for r in per_iteration()])  # fmt: skip


if __name__ == "__main__":
    main()
