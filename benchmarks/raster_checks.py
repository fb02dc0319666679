"""The raster checks' figures (docs/measurements/h200-2026-11-30: raster_pairs, raster_smear, raster_waves,
raster_sample; and dram_sample, 160 of the read sweeps' kernels drawn at random): DRAM bytes counted by Nsight Compute (benchmarks/gpu_raster_counters.py) against the raster model's
(rasterization.order_traffic at the CTAs the SMs hold), and the per-CTA model's time as it is and with the counted
bytes in place of the raster model's.

Per kernel: the CTAs an SM holds (c, the model's footprint as compiled), the waves of tiles (tiles / (SMs x c)), B's
bytes over the L2's (beta = N x K x element bytes / L2), the DRAM bytes counted, the raster model's, and what it gives
where no row of tiles shares B with another (its order on one CTA at a time: every tile after the first of a row reads
its B panel again, A's stays from the tile before); the share of that excess the counters saw,

    f = (counted - model) / (no sharing - model),

and the time's error, (predicted - measured) / measured, as the model is and with the counted DRAM bytes (A's share of
them scaled alike; not for a kernel that spills, whose counted bytes hold its local-memory traffic too: "-"). Measured time: the median of the check's two runs' four timings; the samples' kernels are the read
H200 sweeps' (their two passes), timed again by ncu beside them.

    python benchmarks/raster_checks.py [CHECK ...]   # the tables (default: all five)
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
from roofmodel.model.problem import INPUT_BYTES
from roofmodel.model.rasterization import RasterTraffic

DATA = MEASUREMENTS / "h200-2026-11-30"
CHECKS = ("raster_pairs", "raster_smear", "raster_waves", "raster_sample", "dram_sample")
# The checks whose kernels are the read sweeps' (plan.json), timed there.
SAMPLES = ("raster_sample", "dram_sample")
MHZ = 1980.0
KEY = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major",
       "b_major")  # fmt: skip
# The read H200 sweeps the samples' kernels were drawn from.
SAMPLE_SWEEPS = read_h200(41)


def counted_dram(check: str) -> dict[tuple[str, ...], float]:
    """Per kernel (KEY's values), the DRAM bytes ncu counted in one launch."""
    with (DATA / check / "ncu" / "counters.csv").open(newline="") as f:
        return {tuple(r[k] for k in KEY): float(r["dram__bytes_read.sum (byte)"].replace(",", ""))
                for r in csv.DictReader(f)}  # fmt: skip


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


def with_counted_bytes(ev: Evaluator, r: Any, dram_bytes: float) -> float:
    """The per-CTA model's seconds for ``r`` with ``dram_bytes`` read from DRAM in place of the raster model's."""
    plain = Evaluator.traffic

    def counted(self: Evaluator, rec: Any, concurrent: int) -> RasterTraffic:
        t = plain(self, rec, concurrent)
        share = dram_bytes / t.dram_read_bytes
        return t.model_copy(update={"dram_read_bytes": dram_bytes, "a_dram_read_bytes": t.a_dram_read_bytes * share})

    with replaced(Evaluator, traffic=counted):
        return float(ev.seconds(r)["total"])


def rows(check: str) -> list[dict[str, Any]]:
    """Each kernel of ``check``: its configuration and the figures the module docstring names."""
    machine = load_machine("h200")
    ev = Evaluator(machine, MHZ)
    l2, sms = machine.memory.l2.capacity.bytes, machine.sm_count.n
    dram = counted_dram(check)
    timed = sample_rows(ev, check) if check in SAMPLES else timed_rows(DATA / check, mhz=MHZ)
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
            "error": float(terms["total"]) / measured - 1,
            # ncu's DRAM bytes include a spilling kernel's local-memory traffic, which the model charges apart
            "error_counted": None if r.spilled_registers else with_counted_bytes(ev, r, counted) / measured - 1,
        })  # fmt: skip
    return out


def table(check: str) -> list[str]:
    """The markdown table of one check."""
    out = [f"### {check}", "",
           "| kernel | c | waves | beta | DRAM counted / model / no sharing (GB) | f | time error | with counted bytes |",
           "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for x in rows(check):
        r = x["record"]
        name = (f"{r.dtype} {r.block_m}x{r.block_n}x{r.block_k} w{r.num_warps} s{r.num_stages} {r.a_major}{r.b_major} "
                f"g{r.group_m} {r.m}x{r.n}x{r.k}")  # fmt: skip
        out.append(f"| {name} | {x['ctas_per_sm']} | {x['waves']:.2f} | {x['beta']:.2f} | {x['counted'] / 1e9:.2f} / "
                   f"{x['model'] / 1e9:.2f} / {x['no_sharing'] / 1e9:.2f} | {x['share']:.2f} | {100 * x['error']:+.0f}% | "
                   f"{'-' if x['error_counted'] is None else format(100 * x['error_counted'], '+.0f') + '%'} |")  # fmt: skip
    return out


def main() -> None:
    for check in sys.argv[1:] or CHECKS:
        print("\n".join(table(check)), end="\n\n")


if __name__ == "__main__":
    main()
