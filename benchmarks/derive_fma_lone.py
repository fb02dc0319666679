"""kernel_costs.fma_lone_issue from the FMA-occupancy check (benchmarks/gpu_broad_sweep.py --fma-occupancy): SM cycles
an FFMA takes one warp alone on its SM sub-partition, over its whole iteration, in a Triton FMA loop whose thread's A
fragment (rm x BK, fma_layout.triton_fma_layout) passes prediction.FMA_FRAGMENT_FIT values.

Per tile and tiles per SM: the time per K iteration of a round (the slope from K = 1024 to 4096 at the run's median SM
clock, over the rounds of the CTAs an SM holds at once: the machine's occupancy for the compiled registers and shared
memory, roofmodel's Evaluator), over one warp's FFMAs in an iteration (BM x BN x BK / (32 x warps)), where each warp is
alone on its sub-partition (resident CTAs x warps <= 4) and nothing spills. The figure is the median over the cases
whose A fragment passes FMA_FRAGMENT_FIT (three of the six are one tile at three occupancies: the median of the tiles'
medians, printed too, is 2.75 against 2.82); the script prints every case, the others for comparison (where more than
one warp shares a sub-partition, the round's time over one warp's FFMAs: those warps x the sub-partition's own time an
FFMA).

    python benchmarks/derive_fma_lone.py [docs/measurements/h200-2026-11-29/fma_occupancy/broad.csv]
"""

from __future__ import annotations

import csv
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT = (
    Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-11-29" / "fma_occupancy" / "broad.csv"
)
WARP = 32


def resident_ctas(path: Path) -> dict[str, int]:
    """CTAs an SM holds at once per shape (the occupancy of the compiled registers and shared memory)."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv
    from roofmodel.machine import load_machine

    ev = Evaluator(load_machine("h200"), 1980.0)
    return {r.shape: int(ev._terms(r, True, None)[1]["ctas_per_sm"]) for r in read_broad_csv(path)}


def cases(path: Path) -> list[dict[str, float | str | bool]]:
    """Every tile and tiles-per-SM case: its cycles an FFMA for one warp, its fragment and warps a sub-partition."""
    from roofmodel.model.cta_model import SUB_PARTITIONS
    from roofmodel.model.fma_layout import triton_fma_layout
    from roofmodel.model.prediction import FMA_FRAGMENT_FIT

    with path.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == "fma_occupancy" and r["status"] == "ok"]
    resident = resident_ctas(path)
    by_shape: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        by_shape[r["shape"]].append(r)
    out = []
    for shape, rs in sorted(by_shape.items()):
        first, last = sorted(rs, key=lambda r: int(r["k"]))[0], sorted(rs, key=lambda r: int(r["k"]))[-1]
        bm, bn, bk, warps = (int(first[c]) for c in ("block_m", "block_n", "block_k", "num_warps"))
        per = int(shape.rsplit("-x", 1)[1])
        c = min(per, resident[shape])
        clock_hz = statistics.median(float(r["sm_clock_mhz"]) for r in rs) * 1e6
        iterations = (int(last["k"]) - int(first["k"])) / bk
        cycles = (float(last["time_ms"]) - float(first["time_ms"])) * 1e-3 / iterations * clock_hz
        per_round = cycles / math.ceil(per / c)
        rm = triton_fma_layout(bm, bn, warps, WARP).rm
        ffma = bm * bn * bk / (WARP * warps)
        out.append(dict(shape=shape, rm=rm, bk=bk, fragment=rm * bk, wide=rm * bk > FMA_FRAGMENT_FIT,
                        spilled=int(first["spilled_registers"]), per_sub_partition=c * warps / SUB_PARTITIONS,
                        tile=shape.rsplit("-x", 1)[0], cycles_per_ffma=per_round / ffma))  # fmt: skip
    return out


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    lone: list[float] = []
    by_tile: dict[str, list[float]] = defaultdict(list)
    for x in cases(path):
        alone = x["per_sub_partition"] <= 1 and not x["spilled"]
        print(f"{x['shape']:26s} rm x BK = {x['rm']:2d} x {x['bk']} = {x['fragment']:4d}, {x['spilled']:3d} spilled, "
              f"{x['per_sub_partition']:.2f} warps a sub-partition: {x['cycles_per_ffma']:.2f} cycles an FFMA"
              + ("  <- alone, past the fit" if alone and x["wide"] else ""))  # fmt: skip
        if alone and x["wide"]:
            lone.append(float(x["cycles_per_ffma"]))
            by_tile[str(x["tile"])].append(float(x["cycles_per_ffma"]))
    tiles = [statistics.median(v) for v in by_tile.values()]
    print(f"the {len(tiles)} tiles' medians: median {statistics.median(tiles):.3f}")
    print(f"kernel_costs.fma_lone_issue: median of {len(lone)} = {statistics.median(lone):.2f} cycles "
          f"({min(lone):.2f}-{max(lone):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
