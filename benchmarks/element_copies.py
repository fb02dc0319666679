"""The element-copy check (docs/measurements/h200-2026-12-02/element_copies, benchmarks/gpu_element_copy_counters.py)
read on a CPU: per tile, its loop with both operands copied 4 bytes at a time (K = 4004) against its 16-byte twin (K =
4000), each as the busiest SM's cycles per CTA iteration (the mean of the two do_bench passes at an assumed 1,980 MHz,
no clock was sampled, over the tiles that SM runs times their K iterations: with c CTAs resident, one CTA's iteration
spans about c times it), and what the per-CTA model as compiled (the check's own registers, spills and shared memory)
gives the same kernel; then the counters' ratios, element copies over 16-byte, and the loop's cycles per warp-level
element copy of a CTA's stage ((BM + BN) x BK / 32). Then the stalls: per loop, the share of its stalled warp-cycles
by reason, the four largest.

``--sweeps``: the class on the read H200 broad sweeps (to fresh89, where it was read): Triton's mma.sync tf32 kernels
without spills whose operands are both copied one element at a time (leading strides not multiples of 16 elements),
as compiled: n and the median signed error, and per tile (8 kernels or more) the same with the measured and modelled
cycles per warp-level element copy.

    python benchmarks/element_copies.py [--sweeps]
"""

from __future__ import annotations

import csv
import functools
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-12-02" / "element_copies"
MHZ = 1980.0
SMS = 132
TILE_FIELDS = ("m", "n", "block_m", "block_n", "block_k", "num_warps", "num_stages")
# Nsight Compute's stall reasons (``selected``, a warp issuing, is not one and is left out).
STALL_REASONS = ("long_scoreboard", "short_scoreboard", "wait", "barrier", "mio_throttle", "lg_throttle",
                 "math_pipe_throttle", "dispatch_stall", "not_selected", "no_instruction", "branch_resolving", "membar",
                 "misc", "drain", "sleeping", "tex_throttle", "imc_miss", "gmma")  # fmt: skip


def rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="") as f:
        return list(csv.DictReader(f))


def counter(row: dict[str, str], metric: str) -> float:
    """A counter's value from a counters.csv or stalls.csv row ("name (unit)" columns)."""
    for key, value in row.items():
        if key.split(" ")[0] == metric:
            return float(value.replace(",", ""))
    raise KeyError(metric)


def cycles_per_cta_iteration(row: dict[str, Any], seconds: float) -> float:
    """SM cycles the busiest SM spends on one CTA's K iteration: seconds x clock / (its tiles x K / BK)."""
    tiles = math.ceil(int(row["m"]) / int(row["block_m"])) * math.ceil(int(row["n"]) / int(row["block_n"]))
    return seconds * MHZ * 1e6 / (math.ceil(tiles / SMS) * math.ceil(int(row["k"]) / int(row["block_k"])))


def measured_seconds(row: dict[str, str]) -> float:
    return (float(row["time_ms"]) + float(row["time_ms_2"])) / 2 * 1e-3


@functools.cache
def _evaluator() -> Any:
    from roofmodel.backends.broad import Evaluator
    from roofmodel.machine import load_machine

    return Evaluator(load_machine("h200"), MHZ)


def model_seconds(row: dict[str, str]) -> float:
    """The per-CTA model as compiled on the check's kernel (the H200's file, 1,980 MHz)."""
    from roofmodel.backends.broad import BroadRecord

    record = BroadRecord(
        m=int(row["m"]), n=int(row["n"]), k=int(row["k"]), dtype="tf32", block_m=int(row["block_m"]),
        block_n=int(row["block_n"]), block_k=int(row["block_k"]), group_m=int(row["group_m"]),
        num_warps=int(row["num_warps"]), num_stages=int(row["num_stages"]), registers_per_thread=int(row["registers"]),
        shared_bytes=int(row["shared_bytes"]), time_ms=measured_seconds(row) * 1e3,
        tflops=2 * int(row["m"]) * int(row["n"]) * int(row["k"]) / measured_seconds(row) / 1e12,
        rel_error=float(row["rel_error"]), set="sweep", shape="element-copies", family="micro", split="micro",
        a_major="k", b_major="k", force_mma_v2=1, instruction=row["instruction"],
        spilled_registers=int(row["spilled"]), status="ok",
    )  # fmt: skip
    return float(_evaluator().seconds(record)["total"])


def table() -> list[dict[str, Any]]:
    """One row per tile: the narrow loop and its twin, measured and modelled (SM cycles an iteration of one CTA), the
    narrow loop's cycles a warp-level element copy ((BM + BN) x BK / 32 a CTA's iteration), and the counters' ratios."""
    times, counters, stalls = rows("times.csv"), rows("counters.csv"), rows("stalls.csv")
    assert len(times) == len(counters) == len(stalls) and len(times) % 2 == 0
    fields = (*TILE_FIELDS, "k", "dtype", "group_m", "a_major", "b_major", "copies")
    assert all(t[f] == c[f] == x[f] for t, c, x in zip(times, counters, stalls, strict=True) for f in fields)
    out = []
    for i in range(0, len(times), 2):
        narrow, aligned = times[i], times[i + 1]
        cn, ca = counters[i], counters[i + 1]
        assert narrow["copies"] == cn["copies"] == "element" and aligned["copies"] == ca["copies"] == "16-byte", i
        assert all(narrow[f] == aligned[f] == cn[f] == ca[f] for f in TILE_FIELDS), i
        bm, bn, bk = int(narrow["block_m"]), int(narrow["block_n"]), int(narrow["block_k"])
        measured = [cycles_per_cta_iteration(r, measured_seconds(r)) for r in (narrow, aligned)]
        model = [cycles_per_cta_iteration(r, model_seconds(r)) for r in (narrow, aligned)]

        def ratio(metric: str, cn: dict[str, str] = cn, ca: dict[str, str] = ca) -> float:
            return counter(cn, metric) / counter(ca, metric)

        out.append({
            "tile": f"{bm}x{bn}x{bk}-w{narrow['num_warps']}", "registers": (int(narrow["registers"]),
                                                                             int(aligned["registers"])),
            "measured": measured, "model": model, "per_copy": measured[0] / ((bm + bn) * bk / 32),
            "instructions": ratio("smsp__inst_executed.sum"),
            "issue": (counter(cn, "smsp__issue_active.avg.pct_of_peak_sustained_elapsed"),
                      counter(ca, "smsp__issue_active.avg.pct_of_peak_sustained_elapsed")),
            "l1": (counter(cn, "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
                   counter(ca, "l1tex__throughput.avg.pct_of_peak_sustained_elapsed")),
            "l2": (counter(cn, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
                   counter(ca, "lts__throughput.avg.pct_of_peak_sustained_elapsed")),
            "l2_requests": ratio("lts__t_requests_srcunit_tex_op_read.sum"),
            "tensor": (counter(cn, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"),
                       counter(ca, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed")),
        })  # fmt: skip
    return out


def stall_shares(row: dict[str, str]) -> dict[str, float]:
    """A launch's stalled warp-cycles by reason (stalls.csv), each as a share of their sum (a warp issuing, ``selected``,
    is not a stall and is not counted)."""
    counts = {r: counter(row, f"smsp__warps_issue_stalled_{r}.sum") for r in STALL_REASONS}
    total = sum(counts.values())
    return {r: x / total for r, x in counts.items()}


def element_copied(r: Any) -> bool:
    """Both operands' leading strides are not multiples of 16 elements: Triton copies both one element at a time."""
    return bool((r.m if r.a_major == "m" else r.k) % 16 and (r.n if r.b_major == "n" else r.k) % 16)


def sweep_class(through: int = 89) -> list[tuple[Any, float, float, float]]:
    """The read H200 sweeps' (to fresh``through``) mma.sync tf32 kernels without spills whose operands are both copied
    one element at a time: (record, signed error as compiled, measured and modelled cycles per CTA iteration)."""
    from benchmarks.change_classes import read_samples
    from roofmodel.backends.broad import read_broad_csv

    out = []
    for path in read_samples("h200", through):
        for r in read_broad_csv(path):
            if (
                r.set != "sweep"
                or r.instruction != "mma.sync"
                or r.dtype != "tf32"
                or r.spilled_registers
                or not element_copied(r)
                or (path.parent.name == "h200-2026-11-23" and r.split == "holdout")
            ):
                continue  # fmt: skip
            row = {f: getattr(r, f) for f in ("m", "n", "k", "block_m", "block_n", "block_k")}
            model = float(_evaluator().seconds(r)["total"])
            measured = r.time_ms * 1e-3
            out.append((r, model / measured - 1, cycles_per_cta_iteration(row, measured),
                        cycles_per_cta_iteration(row, model)))  # fmt: skip
    return out


def print_sweeps() -> None:
    kernels = sweep_class()
    print(f"read H200 sweeps to fresh89: n = {len(kernels)}, median signed error "
          f"{statistics.median(e for _, e, _, _ in kernels):+.1%}")  # fmt: skip
    by_tile: dict[str, list[tuple[Any, float, float, float]]] = {}
    for k in kernels:
        r = k[0]
        by_tile.setdefault(f"{r.block_m}x{r.block_n}x{r.block_k}-w{r.num_warps}", []).append(k)
    print("| tile | n | median signed error | cycles a warp-level element copy: measured / model |")
    print("|---|---|---|---|")
    for tile, ks in sorted(by_tile.items(), key=lambda t: statistics.median(k[1] for k in t[1])):
        if len(ks) < 8:
            continue
        r = ks[0][0]
        copies = (r.block_m + r.block_n) * r.block_k / 32
        print(f"| {tile} | {len(ks)} | {statistics.median(k[1] for k in ks):+.1%} | "
              f"{statistics.median(k[2] for k in ks) / copies:.2f} / {statistics.median(k[3] for k in ks) / copies:.2f} |")  # fmt: skip


def main() -> None:
    if "--sweeps" in sys.argv[1:]:
        print_sweeps()
        return
    print("| tile | registers (element / 16-byte) | SM cycles per CTA iteration, element copies: measured / model "
          "| 16-byte: measured / model "
          "| time ratio | instructions ratio | cycles a warp-level element copy | issue % | L1 % | L2 % "
          "| L2 requests ratio | tensor pipe % |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in table():
        (mn, ma), (pn, pa) = r["measured"], r["model"]
        pair = "{:.0f} / {:.0f}".format
        print(f"| {r['tile']} | {r['registers'][0]} / {r['registers'][1]} | {mn:,.0f} / {pn:,.0f} ({pn / mn:.2f}) | "
              f"{ma:,.0f} / {pa:,.0f} ({pa / ma:.2f}) | {mn / ma:.2f} | {r['instructions']:.2f} | {r['per_copy']:.2f} | "
              f"{pair(*r['issue'])} | {pair(*r['l1'])} | {pair(*r['l2'])} | {r['l2_requests']:.2f} | "
              f"{pair(*r['tensor'])} |")  # fmt: skip
    print()
    print("| tile | copies | largest shares of the stalled warp-cycles |")
    print("|---|---|---|")
    for t in rows("stalls.csv"):
        shares = sorted(stall_shares(t).items(), key=lambda x: -x[1])[:4]
        tile = f"{t['block_m']}x{t['block_n']}x{t['block_k']}-w{t['num_warps']}"
        print(f"| {tile} | {t['copies']} | " + ", ".join(f"{name} {x:.2f}" for name, x in shares) + " |")


if __name__ == "__main__":
    main()
