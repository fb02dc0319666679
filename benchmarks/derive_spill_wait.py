"""Derive kernel_costs.spill_wait, what a warp's wait on its own reloads of spilled registers costs an iteration,
from the spill ladder (docs/measurements/h100-2026-11-26/spill_ladder: the same Triton matmul timed over K with
ptxas's register cap lowered step by step, one CTA per SM, operands loaded one element at a time) and the times
per iteration each rung's compiled main loop waits on its local reloads (triton_compile.local_reload_waits, read
from the SASS of the same kernel compiled on a CPU).

Per tile, the least-squares slope of the ladder's time per iteration over the waits of its rungs (one CTA per SM:
nothing else on the SM hides a wait); the figure is the median over the tiles. Prints every rung and the figure
machines/h100.yaml records.

    python benchmarks/derive_spill_wait.py                  # from the committed loop_local.csv
    python benchmarks/derive_spill_wait.py --compile        # compile the rungs again first (Triton 3.6, no GPU)
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roofmodel.model.kernel_costs import grid_of, least_squares_line

LADDER = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h100-2026-11-26" / "spill_ladder"
COLUMNS = ("dtype", "family", "block_m", "block_n", "block_k", "num_warps", "num_stages", "tiles_per_sm", "maxnreg",
           "registers", "spilled", "loop_local_load_bytes", "loop_local_store_bytes", "loop_local_waits", "triton",
           "ptxas")  # fmt: skip
TILE = ("family", "dtype", "block_m", "block_n", "block_k", "num_warps")


def element_wise_rungs(ladder: Path) -> list[dict[str, str]]:
    """The ladder's rows whose operands are loaded one element at a time (K = 4 mod 16): the rungs."""
    with ladder.open(newline="") as f:
        return [r for r in csv.DictReader(f) if r["aligned"] == "0"]


def compile_rungs(rows: list[dict[str, str]], out: Path, sms: int = 132) -> None:
    """Each rung compiled as the ladder ran it (benchmarks/gpu_spill_ladder.py: M = 11 x BM, N = 12 x BN x tiles
    per SM, A and B K-major, GROUP_M 1, the cap as maxnreg, mma.sync rows with wgmma disabled) for sm_90a."""

    tm, tn = grid_of(sms)
    part = out.with_suffix(".part")  # the committed file is replaced only when every rung compiled as the ladder ran
    try:
        write_rungs(rows, part, tm, tn)
        part.replace(out)
    finally:
        part.unlink(missing_ok=True)


def write_rungs(rows: list[dict[str, str]], part: Path, tm: int, tn: int) -> None:
    """compile_rungs' CSV, written to ``part``; SystemExit where a rung compiles to other counts than it ran."""
    from roofmodel.backends import triton_compile as tc

    with part.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            bm, bn = int(r["block_m"]), int(r["block_n"])
            k = int(r["k_points"].split()[0])
            job = tc.CompileJob(tm * bm, tn * int(r["tiles_per_sm"]) * bn, k, r["dtype"], bm, bn, int(r["block_k"]),
                                int(r["num_warps"]), int(r["num_stages"]), "k", "k", 1,
                                int(r["maxnreg"]) if r["maxnreg"] else None)  # fmt: skip
            if r["family"] == "mma.sync":
                os.environ["DISABLE_MMA_V3"] = "1"
            try:
                c = tc.compile_counts(job, 90)
            finally:
                os.environ.pop("DISABLE_MMA_V3", None)
            if (c.registers, c.spilled) != (int(r["registers"]), int(r["spilled"])):
                raise SystemExit(f"{tc.describe(job)}: compiled to {c.registers}/{c.spilled} with ptxas {c.ptxas}, "
                                 f"the ladder ran {r['registers']}/{r['spilled']} (Triton 3.6's); the committed CSV is kept")  # fmt: skip
            w.writerow((r["dtype"], r["family"], bm, bn, r["block_k"], r["num_warps"], r["num_stages"],
                        r["tiles_per_sm"], r["maxnreg"], c.registers, c.spilled, c.loop_local_load_bytes,
                        c.loop_local_store_bytes, c.loop_local_waits, c.triton, c.ptxas))  # fmt: skip


def spill_wait_seconds(rows: list[dict[str, str]], counted: list[dict[str, str]]) -> tuple[float, dict[tuple, float]]:
    """(median over the tiles, each tile's slope): seconds per wait, from the one-CTA-per-SM rungs."""
    waits = {tuple(c[k] for k in (*TILE, "tiles_per_sm", "maxnreg")): int(c["loop_local_waits"]) for c in counted}
    by_tile: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        if r["tiles_per_sm"] == "1":
            key = tuple(r[k] for k in (*TILE, "tiles_per_sm", "maxnreg"))
            by_tile[tuple(r[k] for k in TILE)].append((waits[key], float(r["slope_s_per_iter"])))
    slopes = {tile: least_squares_line(pts)[0] for tile, pts in by_tile.items() if len({x for x, _ in pts}) > 1}
    return statistics.median(slopes.values()), slopes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compile", action="store_true", help="compile the rungs again (Triton 3.6) before deriving")
    args = ap.parse_args()
    rows = element_wise_rungs(LADDER / "spill_ladder.csv")
    counted_csv = LADDER / "loop_local.csv"
    if args.compile:
        compile_rungs(rows, counted_csv)
    with counted_csv.open(newline="") as f:
        counted = list(csv.DictReader(f))
    for c in counted:
        print(f"{c['family']:8s} {c['dtype']} {c['block_m']}x{c['block_n']}x{c['block_k']} w{c['num_warps']} "
              f"{c['tiles_per_sm']} per SM, cap {c['maxnreg'] or '-':>3}: {c['registers']} registers, {c['spilled']} "
              f"spilled, loop {c['loop_local_load_bytes']} B loaded / {c['loop_local_store_bytes']} B stored, "
              f"{c['loop_local_waits']} waits")  # fmt: skip
    median, slopes = spill_wait_seconds(rows, counted)
    for tile, s in slopes.items():
        print(f"{' '.join(tile)}: {s * 1e9:.0f} ns per wait")
    print(f"kernel_costs.spill_wait: {median * 1e9:.0f} ns (median over {len(slopes)} tiles, one CTA per SM)")


if __name__ == "__main__":
    main()
