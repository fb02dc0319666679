"""What the "issued copies" bound rests on (prediction.issued_stage_bytes, pre-registered in bdec836): over the read
sweeps' Triton wgmma kernels in fp16 and bf16 that spilled nothing (the held-out shapes of 2026-11-23 left out), by
tile and by whether the shape is a decode one (one tile row, mostly masked: M = 2 to 64), the median rate at which
an SM fills its stages, in bytes per SM cycle at the sweeps' 1,980 MHz, counted two ways:

    issued     tiles x ceil(K / BK) x (BM + BN) x BK x bytes / SMs / (time x clock)   every copy, the masked ones too
    requested  (ceil(N / BN) x M + ceil(M / BM) x N) x K x bytes / SMs / (time x clock) what the kernel asks of the L2

Where the masked copies cost what requested ones do, a decode kernel's issued rate matches the same tile's at the
other shapes (where the two counts agree), and its requested rate is far below: the rule's evidence (256x32 and
128x32 tiles, the decode kernels the model had 12-20% too fast). The read sweeps: the H100's 2026-11-23 to fresh18
and the H200's to fresh77 (FITTED_ON), the set the rule was chosen on.

    python benchmarks/issued_copies.py
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.read_samples import DATA, read_h100, read_h200
from roofmodel.backends.broad import INPUT_BYTES, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.prediction import issued_stage_bytes

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(77)}
CLOCK_HZ = 1980e6  # the sweeps' clock (validate --clock 1980)
TILES = ((256, 32), (128, 32), (256, 64), (128, 64), (64, 32))


def fill_rates(gpu: str, samples: tuple[str, ...]) -> dict[tuple[int, int, bool], list[tuple[float, float]]]:
    """(BM, BN, decode shape) -> [(issued, requested) bytes per SM cycle] over the samples' 16-bit wgmma kernels
    without spills."""
    sms = load_machine(gpu).sm_count.n
    out: dict[tuple[int, int, bool], list[tuple[float, float]]] = defaultdict(list)
    for d in samples:
        for r in read_broad_csv(DATA / d / "broad.csv"):
            if (r.set != "sweep" or r.status != "ok" or r.instruction != "wgmma" or r.dtype not in ("fp16", "bf16")
                    or r.spilled_registers or (d.endswith("2026-11-23") and r.split == "holdout")):  # fmt: skip
                continue
            e = INPUT_BYTES[r.dtype]
            issued = float(issued_stage_bytes(True, r.m, r.n, r.k, r.block_m, r.block_n, r.block_k, e))
            requested = (math.ceil(r.n / r.block_n) * r.m + math.ceil(r.m / r.block_m) * r.n) * r.k * e
            per_sm_cycle = sms * r.time_ms * 1e-3 * CLOCK_HZ
            out[(r.block_m, r.block_n, r.family == "decode")].append((issued / per_sm_cycle, requested / per_sm_cycle))
    return out


def medians(rows: list[tuple[float, float]]) -> tuple[float, float]:
    """The median issued and requested rates."""
    return statistics.median(x for x, _ in rows), statistics.median(y for _, y in rows)


def main() -> None:
    for gpu, samples in FITTED_ON.items():
        rates = fill_rates(gpu, samples)
        print(f"{gpu}: bytes an SM fills its stages with a cycle, median (issued / requested), n")
        for bm, bn in TILES:
            cells = []
            for decode in (True, False):
                rows = rates.get((bm, bn, decode), [])
                issued, requested = medians(rows) if rows else (math.nan, math.nan)
                cells.append(f"{'decode' if decode else 'other'} {issued:5.1f} / {requested:5.1f}, n = {len(rows)}")
            print(f"  {bm}x{bn}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
