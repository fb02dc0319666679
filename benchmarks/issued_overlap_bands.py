"""How the SM time and the memory time overlap, by instruction: the figures behind cta_model.ISSUED_OVERLAP_NORM.
For the kernels of recorded broad samples whose largest term is the chip's L2 or DRAM, as compiled, the median
signed error (predicted / measured - 1) with every kernel's SM and memory times combined as the larger alone
(ISSUED_OVERLAP_NORM and OVERLAP_NORM both infinity: the model before ad62abe, and wgmma's and FMA's before
2026-11-29) and with the model's norms (mma.sync's ISSUED_OVERLAP_NORM, every other kernel's OVERLAP_NORM), per
instruction and per band of the SM time over the memory-bound total (how near the SM came to binding).

    python benchmarks/issued_overlap_bands.py [--machine h100] [SAMPLE ...]

SAMPLE: a directory under docs/measurements (default: the H100's broad sweeps read before ad62abe, 2026-11-23 to
fresh9).
"""

from __future__ import annotations

import itertools
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import roofmodel.model.cta_model as cta_model
from benchmarks.read_samples import DATA, sample_args
from benchmarks.synchronous_wait_classes import READ  # the same read samples
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine

BANDS = (0.0, 0.5, 0.7, 0.9, 1.01)


def main() -> None:
    args = sample_args(__doc__, list(READ))
    ev = Evaluator(load_machine(args.machine), 1980.0)
    model, others = cta_model.ISSUED_OVERLAP_NORM, cta_model.OVERLAP_NORM
    rows: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for sample in args.samples:
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set != "sweep":
                continue
            cta_model.ISSUED_OVERLAP_NORM = cta_model.OVERLAP_NORM = math.inf
            try:
                old = {k: float(v) for k, v in ev.seconds(r).items()}
            finally:
                cta_model.ISSUED_OVERLAP_NORM, cta_model.OVERLAP_NORM = model, others
            parts = {k: v for k, v in old.items() if k not in ("total", "sm")}
            if max(parts, key=parts.__getitem__) not in ("L2", "DRAM"):
                continue
            new = float(ev.seconds(r)["total"])
            share = old["sm"] / old["total"]
            band = next(f"{lo:.1f}-{min(hi, 1.0):.1f}" for lo, hi in itertools.pairwise(BANDS) if share < hi)
            seconds = r.time_ms * 1e-3
            for key in ((r.instruction or "fma", "all"), (r.instruction or "fma", band)):
                rows[key].append((old["total"] / seconds - 1, new / seconds - 1))
    print(
        f"| instruction | SM time / total | n | the larger alone | the model's norms ({model:g} where the warps issue "
        f"copies, else {others:g}) |"
    )
    print("|---|---|---|---|---|")
    for (ins, band), v in sorted(rows.items()):
        old_m, new_m = statistics.median(a for a, _ in v), statistics.median(b for _, b in v)
        print(f"| {ins} | {band} | {len(v)} | {100 * old_m:+.1f}% | {100 * new_m:+.1f}% |")


if __name__ == "__main__":
    main()
