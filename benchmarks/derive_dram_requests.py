"""memory.dram.requests_per_sector from a run of benchmarks/gpu_dram_runs.py: the most line requests per 32-byte
sector of the DRAM's measured rate (memory.dram.bandwidth.measured) that the path from DRAM serves.

A copy in runs of r bytes shorter than a 128-byte line asks one request per run, 32 / r per sector (0.5 for 64-byte
runs, 1 for 32-byte ones; 0.25 for whole lines). Where the requests bind, a stream's rate is the request rate R times
r, so each configuration with runs shorter than a line gives R x 32 / B = rate x (32 / run) / B, B the machine file's
measured DRAM rate; the figure recorded is the median over those configurations that their bytes in flight do not
bind. The bytes in flight are (programs resident) x (stages - 1) x the tile's bytes, and their rate over the machine
file's loaded DRAM latency is the bound the model already has (cta_model.kernel_terms' dram_reach); a configuration
measured at that bound or above it (LITTLE_SHARE) is left out, since the model's bytes in flight already say its
shortfall (K-major runs put run length and bytes in flight together: the grid is N / BN whatever BK is). Left out as well:
configurations that did not compile or whose sums were wrong, and tiles of more than MAX_TILE elements (their fp32
sum takes more than 128 registers a thread and spills: 500 GB/s at every run). Printed beside it, per layout and
run: the rates measured and what min(B, R x r) says.

The times are do_bench's, each with the write-back of the dirty lines do_bench's L2 flush leaves in it; the rates
are taken from the times less that write-back (the machine file's kernel_costs.flush_writeback, which
flush_writeback_us derives from benchmarks/gpu_flush_check.py's runs: per kernel, its time after do_bench's flush
less its time after a clean one, over the share of the dirty lines its own bytes evict).

    python benchmarks/derive_dram_requests.py [RUN_DIR] [--machine h200]
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-11-29" / "dram_runs"
FLUSH = DEFAULT.parent / "flush_check" / "flush.csv"
LINE, SECTOR = 128, 32
MAX_TILE = 16384
LITTLE_SHARE = 1.0
N_ROWS, MAX_CTAS_PER_SM = 28672, 16  # benchmarks/gpu_dram_runs.py's bands (N); sm_90's resident CTAs at most


FLUSH_RUNS = (FLUSH, FLUSH.parent / "flush_sizes.csv")
MIN_FLUSH_BYTES = 14e6  # below, the difference is within a microsecond and the runs' noise (0.5 us) is most of it


def flush_writeback_us(l2_bytes: float, paths: tuple[Path, ...] = FLUSH_RUNS) -> float:
    """The write-back of all the flush's dirty lines, microseconds: the median over gpu_flush_check's kernels that
    bring MIN_FLUSH_BYTES or more into the L2 of (time after do_bench's zeroing flush - time after a read flush) /
    (1 - exp(-bytes / L2)), the share of the dirty lines their own lines evict (prediction.flush_writeback_seconds)."""
    out = []
    for path in paths:
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        ms: dict[tuple[str, int], dict[str, float]] = defaultdict(dict)
        for r in rows:
            ms[(r["kernel"], int(r["bytes"]))][r["flush"]] = float(r["ms"])
        out += [1e3 * (v["zero"] - v["read"]) / (1 - math.exp(-b / l2_bytes))
                for (_, b), v in ms.items() if b >= MIN_FLUSH_BYTES]  # fmt: skip
    return statistics.median(out)


def gb_per_s(row: dict[str, str], writeback_s: float) -> float:
    """The configuration's rate with the flush's write-back (all of it: 470 MB evict the whole L2) taken out of its
    time."""
    return float(row["gb_per_s"]) * float(row["seconds"]) / (float(row["seconds"]) - writeback_s)


def usable(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The configurations that ran, summed right, and kept their sums in registers."""
    return [r for r in rows if r["checked"] == "True" and int(r["bn"]) * int(r["bk"]) <= MAX_TILE]


def in_flight_gbs(row: dict[str, str], machine: Any) -> float:
    """The rate (GB/s) a configuration's bytes in flight allow: min(grid, SMs x CTAs an SM holds) x (stages - 1) x
    tile bytes / the loaded DRAM latency (grid N / BN in either layout; the CTAs an SM holds by its shared memory,
    MAX_CTAS_PER_SM at most)."""
    e, bn, bk, stages = int(row["e"]), int(row["bn"]), int(row["bk"]), int(row["stages"])
    tile = bn * bk * e
    per_sm = min(MAX_CTAS_PER_SM, int(machine.memory.smem.capacity_per_sm.bytes) // (tile * stages))
    active = min(N_ROWS // bn, machine.sm_count.n * per_sm)
    lat = machine.memory.dram.loaded_latency
    assert lat.unit == "ns", lat.unit
    return active * (stages - 1) * tile / (lat.value * 1e-9) / 1e9


def writeback_s(machine: Any) -> float:
    """The machine file's kernel_costs.flush_writeback in seconds (0 where it has none)."""
    q = machine.kernel_costs.flush_writeback if machine.kernel_costs is not None else None
    if q is None:
        return 0.0
    assert q.unit == "ns", q.unit
    return q.value * 1e-9


def requests_per_sector(rows: list[dict[str, str]], machine: Any) -> tuple[float, list[float]]:
    """(median, every estimate) of rate x (32 / run) / the measured DRAM rate over the usable configurations with
    sub-line runs that their bytes in flight do not bind (measured under LITTLE_SHARE of in_flight_gbs), the rates
    from the times less the flush's write-back."""
    bandwidth, wb = machine.memory.dram.bandwidth.measured.value, writeback_s(machine)
    est = [gb_per_s(r, wb) * SECTOR / int(r["run_bytes"]) / bandwidth for r in usable(rows)
           if int(r["run_bytes"]) < LINE and gb_per_s(r, wb) < LITTLE_SHARE * in_flight_gbs(r, machine)]  # fmt: skip
    return statistics.median(est), est


def main() -> None:
    from roofmodel.machine import load_machine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", nargs="?", default=str(DEFAULT))
    ap.add_argument("--machine", default="h200", help="the machine file of the GPU the run was on (default: h200)")
    args = ap.parse_args()
    machine = load_machine(args.machine)
    bandwidth = machine.memory.dram.bandwidth.measured.value
    with (Path(args.run_dir) / "runs.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    l2 = machine.memory.l2.capacity.bytes
    print(f"flush write-back: {flush_writeback_us(l2):.2f} us (the machine file: {writeback_s(machine) * 1e6:g} us)")
    limit, est = requests_per_sector(rows, machine)
    sub = [r for r in usable(rows) if int(r["run_bytes"]) < LINE]
    print(f"requests per sector: median {limit:.3f} over the {len(est)} of {len(sub)} configurations with runs under "
          f"{LINE} B that their bytes in flight do not bind (min {min(est):.3f}, max {max(est):.3f}); at the measured "
          f"{bandwidth:g} GB/s, R = {limit * bandwidth / SECTOR:.1f} G requests/s")  # fmt: skip
    by = defaultdict(list)
    for r in usable(rows):
        by[(r["layout"], int(r["run_bytes"]))].append(gb_per_s(r, writeback_s(machine)))
    print("layout  run B   n   measured GB/s, the write-back out: min / median / max   min(B, R x run)")
    for (layout, run), v in sorted(by.items()):
        model = min(bandwidth, limit * bandwidth / SECTOR * min(run, LINE))
        print(f"{layout:>6} {run:6d} {len(v):3d}   {min(v):7.0f} / {statistics.median(v):7.0f} / {max(v):7.0f}"
              f"   {model:7.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
