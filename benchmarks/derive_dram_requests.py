"""memory.dram.requests_per_sector from a run of benchmarks/gpu_dram_runs.py: the most line requests per 32-byte
sector of the DRAM's measured rate (memory.dram.bandwidth.measured) that the path from DRAM serves.

A copy in runs of r bytes shorter than a 128-byte line asks one request per run, 32 / r per sector (0.5 for 64-byte
runs, 1 for 32-byte ones; 0.25 for whole lines). Where the requests bind, a stream's rate is the request rate R times
r, so each configuration with runs shorter than a line gives R x 32 / B = rate x (32 / r) / B, B the machine file's
measured DRAM rate; the figure recorded is the median over those configurations. Left out: configurations that did
not compile or whose sums were wrong, and tiles of more than MAX_TILE elements (their fp32 sum takes more than 128
registers a thread and spills: 500 GB/s at every run). Printed beside it, per layout and run: the rates measured
and what min(B, R x r) says.

    python benchmarks/derive_dram_requests.py [RUN_DIR] [--bandwidth-gbs 4308.8]
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections import defaultdict
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-11-29" / "dram_runs"
LINE, SECTOR = 128, 32
MAX_TILE = 16384


def usable(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The configurations that ran, summed right, and kept their sums in registers."""
    return [r for r in rows if r["checked"] == "True" and int(r["bn"]) * int(r["bk"]) <= MAX_TILE]


def requests_per_sector(rows: list[dict[str, str]], bandwidth_gbs: float) -> tuple[float, list[float]]:
    """(median, every estimate) of rate x (32 / run) / bandwidth over the usable configurations with sub-line runs."""
    est = [float(r["gb_per_s"]) * SECTOR / int(r["run_bytes"]) / bandwidth_gbs
           for r in usable(rows) if int(r["run_bytes"]) < LINE]  # fmt: skip
    return statistics.median(est), est


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", nargs="?", default=str(DEFAULT))
    ap.add_argument("--bandwidth-gbs", type=float, default=4308.8,
                    help="the machine file's memory.dram.bandwidth.measured (default: the H200's)")  # fmt: skip
    args = ap.parse_args()
    with (Path(args.run_dir) / "runs.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    limit, est = requests_per_sector(rows, args.bandwidth_gbs)
    print(f"requests per sector: median {limit:.3f} over {len(est)} configurations with runs under {LINE} B "
          f"(min {min(est):.3f}, max {max(est):.3f}); at B = {args.bandwidth_gbs:g} GB/s, "
          f"R = {limit * args.bandwidth_gbs / SECTOR:.1f} G requests/s")  # fmt: skip
    by = defaultdict(list)
    for r in usable(rows):
        by[(r["layout"], int(r["run_bytes"]))].append(float(r["gb_per_s"]))
    print("layout  run B   n   measured GB/s: min / median / max   min(B, R x run)")
    for (layout, run), v in sorted(by.items()):
        model = min(args.bandwidth_gbs, limit * args.bandwidth_gbs / SECTOR * min(run, LINE))
        print(f"{layout:>6} {run:6d} {len(v):3d}   {min(v):7.0f} / {statistics.median(v):7.0f} / {max(v):7.0f}"
              f"   {model:7.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
