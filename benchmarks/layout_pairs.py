"""The layout-pair check's figures (docs/measurements/h200-2026-11-30/layout_pairs): wgmma tiles that keep a group in
flight, in the four operand layouts, on 2 and 4 tiles an SM (11 x 12 x R tiles) at 32 and 96 iterations, timed in two
runs of two passes on an H200, against the per-CTA model as compiled at 1980 MHz; and the same kernels' hardware
counters (ncu/, benchmarks/gpu_layout_counters.py) and compiled main loops (loops.csv, Triton 3.6 for sm_90a).

The first table: per tile, R and layout, SM cycles an iteration of the round (the slope of the time over the 64
iterations between the two K), measured (the median of the two runs' four timings; the third run's in brackets) and as
the model predicts it, and each layout's measured slope over its B N-major twin's (A K-major, B N-major: kn). The
second: per tile and layout at R = 2 and 96 iterations, one launch under ncu: its time, the tensor pipe's active share,
the L2's sectors over the sectors its copies request, the three commonest warp stalls (warps a sub-partition holds
stalled for the reason, on average), the time of a second launch at 32 iterations with the operands already in the L2,
and the compiled loop's instructions a warp issues an iteration (LDGSTS and IMAD among them).

    python benchmarks/layout_pairs.py            # the tables
    python benchmarks/layout_pairs.py --derive   # kernel_costs.kmajor_copy

``--derive``: per fp16 and bf16 tile and R, what both operands K-major add to a CTA's iteration over its B N-major
twin (the difference of the two slopes over the R tiles an SM runs), per copy a thread issues an iteration ((BM + BN)
x BK x element bytes / 16 / threads), and their median: kernel_costs.kmajor_copy, SM cycles.
"""

from __future__ import annotations

import csv
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, iterations, print_table, timed_rows, two_k_pairs
from roofmodel.backends.broad import read_broad_csv
from roofmodel.model.problem import INPUT_BYTES

DATA = MEASUREMENTS / "h200-2026-11-30" / "layout_pairs"
MHZ = 1980.0
LAYOUTS = ("kk", "kn", "mk", "mn")
COPY_BYTES = 16  # a cp.async (LDGSTS.128) moves 16 bytes


def third_run_slopes() -> dict[str, float]:
    """Per shape, the third run's slope (third/broad.csv: its two passes' median), SM cycles an iteration."""
    rows = read_broad_csv(DATA / "third" / "broad.csv")
    by_shape: dict[str, list[Any]] = {}
    for r in rows:
        by_shape.setdefault(r.shape, []).append(r)
    out = {}
    for shape, pair in by_shape.items():
        short, long = sorted(pair, key=lambda r: r.k)
        t = [statistics.median(float(x) for x in (r.time_ms, r.time_ms_2) if x) * 1e-3 for r in (short, long)]
        out[shape] = (t[1] - t[0]) * MHZ * 1e6 / ((long.k - short.k) // long.block_k)
    return out


def slopes() -> dict[str, tuple[float, float]]:
    """Per shape: (measured SM cycles an iteration, the model's)."""
    out = {}
    for shape, (short, long) in two_k_pairs(timed_rows(DATA, mhz=MHZ)).items():
        (_, t1, x1, _), (_, t2, x2, _) = short, long
        cycles = MHZ * 1e6 / (iterations(long) - iterations(short))
        out[shape] = ((t2 - t1) * cycles, (float(x2["total"]) - float(x1["total"])) * cycles)
    return out


def split(shape: str) -> tuple[str, str, str]:
    """layoutpair-DTYPE-BMxBNxBK-wW-sS-LAYOUT-xR -> (DTYPE-BMxBNxBK-wW-sS, LAYOUT, xR)."""
    parts = shape.removeprefix("layoutpair-").split("-")
    return "-".join(parts[:4]), parts[4], parts[5]


def slope_table() -> list[list[str]]:
    """The first table's rows: one per tile and R."""
    measured, third = slopes(), third_run_slopes()
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for shape, (cycles, model) in measured.items():
        tile, layout, per = split(shape)
        twin = measured.get(shape.replace(f"-{layout}-", "-kn-"))
        ratio = f"{cycles / twin[0]:.2f}" if twin else ""
        rows.setdefault((tile, per), {})[layout] = f"{cycles:.0f} ({third[shape]:.0f}) / {model:.0f} / {ratio}"
    return [[tile, per, *(cells.get(lay, "") for lay in LAYOUTS)] for (tile, per), cells in rows.items()]


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _counter(row: dict[str, str], name: str) -> float:
    """A counter of an ncu CSV row, whose columns are "name (unit)"."""
    return next(_number(v) for k, v in row.items() if k.split(" (")[0] == name)


def _read(name: str) -> list[dict[str, str]]:
    with (DATA / "ncu" / name).open() as f:
        return list(csv.DictReader(f))


def counter_table() -> list[list[str]]:
    """The second table's rows: one per tile and layout (R = 2)."""
    loops = {}
    with (DATA / "loops.csv").open() as f:
        for r in csv.DictReader(f):
            key = f"{r['dtype']}-{r['block_m']}x{r['block_n']}x{r['block_k']}-w{r['num_warps']}-s{r['num_stages']}"
            loops[(key, r["a_major"] + r["b_major"])] = r
    warm = {r["shape"]: r for r in _read("warm.csv") if r["launch"] == "2"}
    stalls = {r["shape"]: r for r in _read("stalls.csv")}
    out = []
    for r in _read("counters.csv"):
        tile, layout, _ = split(r["shape"])
        tile_iterations = int(r["m"]) // int(r["block_m"]) * int(r["n"]) // int(r["block_n"]) * (
            int(r["k"]) // int(r["block_k"]))  # fmt: skip
        requested = (int(r["block_m"]) + int(r["block_n"])) * int(r["block_k"]) * INPUT_BYTES[r["dtype"]]
        sectors = _counter(r, "lts__t_sectors_srcunit_tex_op_read.sum") * 32 / (tile_iterations * requested)
        s = stalls[r["shape"]]
        sm_cycles = _counter(s, "sm__cycles_elapsed.avg") * 132 * 4
        top = sorted(((_counter(s, k.split(" (")[0]) / sm_cycles, k.split(" (")[0].split("stalled_")[1].split(".")[0])
                      for k in s if k.startswith("smsp__warps_issue_stalled_")), reverse=True)[:3]  # fmt: skip
        loop = loops[(tile, layout)]
        out.append([
            tile, layout, f"{_counter(r, 'gpu__time_duration.sum') / 1e3:.1f}",
            f"{_counter(r, 'sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed'):.0f}%",
            f"{sectors:.2f}", ", ".join(f"{name} {x:.2f}" for x, name in top),
            f"{_counter(warm[r['shape']], 'gpu__time_duration.sum') / 1e3:.1f}",
            f"{loop['loop_instructions']} ({loop['ldgsts']}, {loop['imad']})",
        ])  # fmt: skip
    return out


def kmajor_copy_cycles() -> tuple[float, list[tuple[str, float]]]:
    """(the median, each case's): SM cycles both operands K-major add to a CTA's iteration per copy a thread issues,
    over the fp16 and bf16 tiles and R of the check (``--derive``)."""
    measured = slopes()
    cases = []
    for shape, (cycles, _) in measured.items():
        tile, layout, per = split(shape)
        if layout != "kk" or not tile.startswith(("fp16", "bf16")):
            continue
        dtype, size, warps, _ = tile.split("-")
        bm, bn, bk = (int(x) for x in size.split("x"))
        copies = (bm + bn) * bk * INPUT_BYTES[dtype] / COPY_BYTES / (32 * int(warps[1:]))
        added = (cycles - measured[shape.replace("-kk-", "-kn-")][0]) / int(per[1:])
        cases.append((shape.removeprefix("layoutpair-"), added / copies))
    return statistics.median(x for _, x in cases), cases


def main() -> None:
    if "--derive" in sys.argv[1:]:
        median, cases = kmajor_copy_cycles()
        for name, x in cases:
            print(f"{name}: {x:.1f} cycles a copy a thread issues")
        print(f"median over {len(cases)}: {median:.1f} SM cycles (kernel_costs.kmajor_copy)")
        return
    print_table(["tile", "R", *(f"{lay}: measured (third run) / model / over kn" for lay in LAYOUTS)], slope_table())
    print()
    print_table(["tile", "layout", "us (96 iterations)", "tensor pipe", "L2 sectors / requested", "commonest stalls",
                 "us warm (32 iterations)", "loop instructions (LDGSTS, IMAD)"], counter_table())  # fmt: skip


if __name__ == "__main__":
    main()
