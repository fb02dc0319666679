"""The raster checks' figures (docs/measurements/h200-2026-11-30: raster_pairs, raster_smear, raster_waves,
raster_sample; dram_sample, 160 of the read sweeps' kernels drawn at random; drift_twins, drift_ramp and drift_rate,
timed by ncu alone): DRAM bytes counted by Nsight Compute (benchmarks/gpu_raster_counters.py; the median of a check's
readings where it has two, ncu/ and ncu_2/) against the raster model's (rasterization.order_traffic at the CTAs the SMs
hold), and the per-CTA model's time as it is and with the counted bytes in place of the raster model's.

Per kernel: the CTAs an SM holds (c: the model's footprint as compiled, or for the ncu-only checks the register rule's
as `predict --kernel triton` states the kernel), the waves of tiles (tiles / (SMs x c)), B's bytes over the L2's
(beta = N x K x element bytes / L2), the DRAM bytes counted, the raster model's, and what it gives where no row of tiles
shares B with another (its order on one CTA at a time: every tile after the first of a row reads its B panel again,
A's stays from the tile before); the share of that excess the counters saw,

    f = (counted - model) / (no sharing - model),

the model's L2 time over its SM time ("L2 / SM time", which ordered the share in the drift rate check), and the time's
error, (predicted - measured) / measured, as the model is and with the counted DRAM bytes (A's share of them scaled
alike; not for a kernel that spills, whose counted bytes hold its local-memory traffic too: "-"). Measured
time: the median of the check's two runs' four timings; the samples' kernels are the read H200 sweeps' (their two
passes), timed again by ncu beside them; the ncu-only checks' the median of ncu's durations (clocks left alone).

    python benchmarks/raster_checks.py [CHECK ...]   # the tables (default: all of CHECKS)
"""

from __future__ import annotations

import csv
import json
import math
import statistics
import sys
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, TimedRow, replaced, timed_rows
from benchmarks.read_samples import read_h200
from roofmodel.backends.broad import BroadRecord, Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.kernel import triton_config
from roofmodel.model.problem import INPUT_BYTES
from roofmodel.model.rasterization import RasterTraffic

DATA = MEASUREMENTS / "h200-2026-11-30"
CHECKS = ("raster_pairs", "raster_smear", "raster_waves", "raster_sample", "dram_sample", "drift_twins", "drift_ramp",
          "drift_rate", "drift_judge")  # fmt: skip
# The checks whose kernels are the read sweeps' (plan.json), timed there.
SAMPLES = ("raster_sample", "dram_sample", "drift_judge")
# The checks timed by ncu alone (no sweep record: the model as predict --kernel triton states them, their time the
# median of ncu's readings; each reading a directory ncu*/ with its counters.csv).
NCU_ONLY = ("drift_twins", "drift_ramp", "drift_rate")
MHZ = 1980.0
KEY = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major",
       "b_major")  # fmt: skip
# The read H200 sweeps the samples' kernels were drawn from.
SAMPLE_SWEEPS = read_h200(42)


@cache
def ncu_readings(check: str) -> tuple[tuple[dict[str, str], ...], ...]:
    """Each of ``check``'s ncu readings (ncu/, then ncu_2/ ... where it has them): its counters.csv's rows; read once."""
    out = []
    for directory in sorted((DATA / check).glob("ncu*")):
        with (directory / "counters.csv").open(newline="") as f:
            out.append(tuple(csv.DictReader(f)))
    return tuple(out)


def median_reading(check: str, column: str) -> dict[tuple[str, ...], float]:
    """Per kernel (KEY's values), the median over ``check``'s ncu readings of ``column`` (a counters.csv header, its
    thousands separators dropped)."""
    got: dict[tuple[str, ...], list[float]] = {}
    for reading in ncu_readings(check):
        for r in reading:
            got.setdefault(tuple(r[k] for k in KEY), []).append(float(r[column].replace(",", "")))
    return {key: statistics.median(v) for key, v in got.items()}


def counted_dram(check: str) -> dict[tuple[str, ...], float]:
    """Per kernel (KEY's values), the DRAM bytes ncu counted in one launch: the median of its readings."""
    return median_reading(check, "dram__bytes_read.sum (byte)")


def ncu_rows(ev: Evaluator, check: str) -> list[TimedRow]:
    """An ncu-only check's kernels (its plan.json) as ``predict --kernel triton`` states them (Triton's rules and the
    register rule: no compiled counts were taken), measured seconds the median of ncu's durations (clocks left alone)."""
    times = median_reading(check, "gpu__time_duration.sum (ns)")
    out = []
    for p in json.loads((DATA / check / "plan.json").read_text()):
        measured = times[tuple(str(p[k]) for k in KEY)] * 1e-9
        config = triton_config(ev.machine, p["dtype"], block_m=p["block_m"], block_n=p["block_n"], block_k=p["block_k"],
                               group_m=p["group_m"], num_warps=p["num_warps"], num_stages=p["num_stages"])  # fmt: skip
        r = BroadRecord(**p, instruction=config.instruction, registers_per_thread=1, shared_bytes=0,
                        spilled_registers=0, status="ok", time_ms=measured * 1e3,
                        tflops=2 * p["m"] * p["n"] * p["k"] / measured / 1e12, rel_error=0.0)  # fmt: skip
        terms, footprint = ev._terms(r, False, config.instruction)
        out.append((r, measured, terms, footprint))
    return out


@cache
def sweep_records() -> dict[tuple[str, ...], BroadRecord]:
    """Each kernel of SAMPLE_SWEEPS (KEY's values), its first record there; read once for every sample."""
    found: dict[tuple[str, ...], BroadRecord] = {}
    for sweep in SAMPLE_SWEEPS:
        for r in read_broad_csv(MEASUREMENTS / sweep / "broad.csv"):
            if r.set == "sweep":
                found.setdefault(tuple(str(getattr(r, k)) for k in KEY), r)
    return found


def sample_rows(ev: Evaluator, check: str) -> list[TimedRow]:
    """A sample's kernels (``check``'s plan.json) as the read sweeps recorded them (measured seconds the median of
    the two passes), with the model's terms and footprint as compiled."""
    found = sweep_records()
    out = []
    for p in json.loads((DATA / check / "plan.json").read_text()):
        r = found[tuple(str(p[k]) for k in KEY)]
        measured = statistics.median(float(t) for t in (r.time_ms, r.time_ms_2) if t) * 1e-3
        terms, footprint = ev._terms(r, True, None)
        out.append((r, measured, terms, footprint))
    return out


def with_counted_bytes(ev: Evaluator, r: Any, dram_bytes: float, compiled: bool = True) -> float:
    """The per-CTA model's seconds for ``r`` with ``dram_bytes`` read from DRAM in place of the raster model's: as
    compiled, or (``compiled`` False) as predict --kernel triton states it (an ncu-only check's kernels)."""
    plain = Evaluator.traffic

    def counted(self: Evaluator, rec: Any, concurrent: int) -> RasterTraffic:
        t = plain(self, rec, concurrent)
        share = dram_bytes / t.dram_read_bytes
        return t.model_copy(update={"dram_read_bytes": dram_bytes, "a_dram_read_bytes": t.a_dram_read_bytes * share})

    with replaced(Evaluator, traffic=counted):
        return float(ev.seconds(r, compiled, None if compiled else r.instruction)["total"])


def rows(check: str) -> list[dict[str, Any]]:
    """Each kernel of ``check``: its configuration and the figures the module docstring names."""
    machine = load_machine("h200")
    ev = Evaluator(machine, MHZ)
    l2, sms = machine.memory.l2.capacity.bytes, machine.sm_count.n
    dram = counted_dram(check)
    timed = (sample_rows(ev, check) if check in SAMPLES else ncu_rows(ev, check) if check in NCU_ONLY
             else timed_rows(DATA / check, mhz=MHZ))  # fmt: skip
    out = []
    for r, measured, terms, footprint in timed:
        c = int(footprint["ctas_per_sm"])
        counted = dram[tuple(str(getattr(r, k)) for k in KEY)]
        model = ev.traffic(r, sms * c).dram_read_bytes
        alone = ev.traffic(r, 1).dram_read_bytes
        tiles = math.ceil(r.m / r.block_m) * math.ceil(r.n / r.block_n)
        out.append({
            "record": r, "ctas_per_sm": c, "waves": tiles / (sms * c), "beta": r.n * r.k * INPUT_BYTES[r.dtype] / l2,
            "counted": counted, "model": model, "no_sharing": alone,
            "share": (counted - model) / (alone - model) if alone > model else 0.0,
            "l2_over_sm": float(terms["L2"]) / float(terms["sm"]),
            "error": float(terms["total"]) / measured - 1,
            # ncu's DRAM bytes include a spilling kernel's local-memory traffic, which the model charges apart
            "error_counted": None if r.spilled_registers
            else with_counted_bytes(ev, r, counted, check not in NCU_ONLY) / measured - 1,
        })  # fmt: skip
    return out


def table(check: str) -> list[str]:
    """The markdown table of one check."""
    out = [f"### {check}", "",
           "| kernel | c | waves | beta | L2 / SM time | DRAM counted / model / no sharing (GB) | f | time error | "
           "with counted bytes |",
           "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for x in rows(check):
        r = x["record"]
        name = (f"{r.dtype} {r.block_m}x{r.block_n}x{r.block_k} w{r.num_warps} s{r.num_stages} {r.a_major}{r.b_major} "
                f"g{r.group_m} {r.m}x{r.n}x{r.k}")  # fmt: skip
        out.append(f"| {name} | {x['ctas_per_sm']} | {x['waves']:.2f} | {x['beta']:.2f} | {x['l2_over_sm']:.2f} | "
                   f"{x['counted'] / 1e9:.2f} / {x['model'] / 1e9:.2f} / {x['no_sharing'] / 1e9:.2f} | {x['share']:.2f} | "
                   f"{100 * x['error']:+.0f}% | "
                   f"{'-' if x['error_counted'] is None else format(100 * x['error_counted'], '+.0f') + '%'} |")  # fmt: skip
    return out


def main() -> None:
    for check in sys.argv[1:] or CHECKS:
        print("\n".join(table(check)), end="\n\n")


if __name__ == "__main__":
    main()
