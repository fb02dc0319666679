"""The element-copy check (docs/measurements/h200-2026-12-02/element_copies, benchmarks/gpu_element_copy_counters.py)
read on a CPU: per tile, its loop with both operands copied 4 bytes at a time (K = 4004) against its 16-byte twin (K =
4000), each as SM cycles an iteration of one CTA (the mean of the two do_bench passes at 1,980 MHz over the tiles the
busiest SM runs and the K iterations), and what the per-CTA model as compiled (the check's own registers, spills and
shared memory) gives the same kernel; then the counters' ratios, narrow over aligned: instructions issued, the SM's
issue slots in use, the L1's and the L2's throughput, the L2's requests, and the tensor pipe's activity.

    python benchmarks/element_copies.py
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-12-02" / "element_copies"
MHZ = 1980.0
SMS = 132


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


def model_seconds(row: dict[str, str]) -> float:
    """The per-CTA model as compiled on the check's kernel (the H200's file, 1,980 MHz)."""
    from roofmodel.backends.broad import BroadRecord, Evaluator
    from roofmodel.machine import load_machine

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
    return float(Evaluator(load_machine("h200"), MHZ).seconds(record)["total"])


def table() -> list[dict[str, Any]]:
    """One row per tile: the narrow loop and its twin, measured and modelled (SM cycles an iteration of one CTA), the
    narrow loop's cycles a warp-level element copy ((BM + BN) x BK / 32 a CTA's iteration), and the counters' ratios."""
    times, counters = rows("times.csv"), rows("counters.csv")
    out = []
    for i in range(0, len(times), 2):
        narrow, aligned = times[i], times[i + 1]
        assert narrow["copies"] == "element" and aligned["copies"] == "16-byte", (narrow, aligned)
        cn, ca = counters[i], counters[i + 1]
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


def main() -> None:
    print("| tile | registers (element / 16-byte) | element copies: measured / model | 16-byte: measured / model "
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


if __name__ == "__main__":
    main()
