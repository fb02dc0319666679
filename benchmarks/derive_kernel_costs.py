"""Derive the per-iteration kernel costs from the K-sweep microbenchmark of the broad sweep
(docs/measurements/h100-2026-11-23/broad.csv, set ``ksweep``; the ``micro`` split, neither training nor
held-out). Issue 13: "every new machine constant ... comes from a microbenchmark".

Each K-sweep kernel has one tile per SM (a grid of exactly the SM count) and is timed at K = 64 ... 8192,
so the slope of time against K / BK is the time one CTA alone takes per main-loop iteration. Against
the per-CTA model with one stream per sub-partition (4 warps):

- wgmma:    slope = MMA time + wait              -> wait       = slope - MMA time
- mma.sync: slope = MMA time + iteration + c x copy_issue, c = 16-byte copies per thread per iteration
            -> two tiles with different c give iteration and copy_issue.

MMA time = 2 x BM x BN x BK / (the family's measured rate / SMs): the rates the machine file records
(cuBLAS for wgmma, the forced-mma.sync kernels for mma.sync). The slope is fitted over K >= 1024.
Prints each kernel and the derived figures that machines/h100.yaml records.

    python benchmarks/derive_kernel_costs.py
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

from roofmodel.backends.broad import read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.problem import INPUT_BYTES

REPO = Path(__file__).resolve().parents[1]
BROAD = REPO / "docs" / "measurements" / "h100-2026-11-23" / "broad.csv"


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over x."""
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


def main() -> None:
    machine = load_machine("h100")
    sms = machine.sm_count.n
    groups = defaultdict(list)
    for r in read_broad_csv(BROAD):
        if r.set == "ksweep":
            key = (r.dtype, r.instruction, r.block_m, r.block_n, r.block_k, r.num_warps, r.num_stages)
            groups[key].append(r)
    waits, sync = [], []
    for (dtype, family, bm, bn, bk, warps, stages), rows in sorted(groups.items()):
        pts = [(r.k / bk, r.time_ms * 1e-3) for r in rows if r.k >= 1024]
        per_iteration = slope(pts)
        pipe = machine.pipe(dtype)
        rate = pipe.rate_of(pipe.instruction(family))[0].pick("measured")
        flops = rate.value * 1e12  # TFLOPS in the file
        mma = 2 * bm * bn * bk / (flops / sms)
        copies = (bm + bn) * bk * INPUT_BYTES[dtype] / (16 * 32 * warps)
        extra = per_iteration - mma
        print(f"{dtype:<5} {family:<9} {bm}x{bn}x{bk} w{warps} s{stages}: {per_iteration * 1e9:6.0f} ns per iteration, "
              f"MMA {mma * 1e9:5.0f} ns at {rate.value:g} TFLOPS, extra {extra * 1e9:+5.0f} ns, {copies:.0f} copies/thread")  # fmt: skip
        if warps == 4 and family == "wgmma":
            waits.append(extra)
        if warps == 4 and family == "mma.sync" and dtype == "fp16":
            sync.append((copies, extra))
    wait = statistics.median(waits)
    print(f"wait (wgmma, one warpgroup): median of {len(waits)} = {wait * 1e9:.0f} ns")
    (c1, e1), (c2, e2) = sorted(sync)[:2]
    copy_issue = (e2 - e1) / (c2 - c1)
    iteration = e1 - c1 * copy_issue
    print(f"mma.sync, four warps: iteration {iteration * 1e9:.0f} ns, copy issue {copy_issue * 1e9:.1f} ns per copy")


if __name__ == "__main__":
    main()
