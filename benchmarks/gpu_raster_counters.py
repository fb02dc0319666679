"""On a GPU with Nsight Compute: DRAM and L2 counters of the raster-pair check's kernels (gpu_broad_sweep.py
--raster-pairs), to see whether a wgmma kernel with GROUP_M 1 and B over the L2 is slow because DRAM serves more than
the raster model says (its wave's rows sharing B in the L2: rasterization.py), or because the L2 serves the same
requests more slowly.

One launch of each raster_pair_plan kernel under ncu with the clocks left alone and its caches flushed (ncu's default):
duration and SM cycles, DRAM bytes read and its throughput, the L2's sectors and requests read from the SMs (sum, and
the busiest and mean L2 slice: .max and .avg), their hits and misses and the L2's throughput (OUT/counters.csv). The metrics asked for are those that ``ncu --query-metrics`` lists on the machine.

With --smear or --waves, the raster-smear or raster-waves check's kernels (gpu_broad_sweep.py --raster-smear,
--raster-waves) instead.

With --plan FILE, the kernels a JSON file lists (each a gpu_broad_sweep micro_row's keys): raster_sample/plan.json,
48 row-order kernels of the read H200 sweeps drawn at random (seed 20261130) among those whose predicted time a rule for
the smear, fitted on the three checks, moved by more than 3%; dram_sample/plan.json, 160 kernels of the same sweeps
drawn at random (seed 20261201) from all of them but those with mma.sync forced; drift_twins/plan.json, drift_ramp/plan.json
and drift_rate/plan.json, 16 row-order kernels each that ask what keeps an H100's fp16 128x128x64 rows together, how
the drift builds with the waves, and whether the model's L2 time over its SM time sets its rate (their READMEs).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_raster_counters.py OUT [--smear | --waves | --plan FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gpu_broad_sweep import raster_pair_plan, raster_smear_plan, raster_waves_plan
from benchmarks.gpu_layout_counters import write_counters

METRICS = (
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
    "dram__bytes_read.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read.max",
    "lts__t_sectors_srcunit_tex_op_read.avg",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
)


def main() -> None:
    ap = argparse.ArgumentParser(description="DRAM and L2 counters of the raster checks' kernels under ncu")
    ap.add_argument("out", type=Path)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--smear", action="store_true", help="the raster-smear check's kernels")
    which.add_argument("--waves", action="store_true", help="the raster-waves check's kernels")
    which.add_argument("--plan", type=Path, help="a JSON list of kernels (the keys of gpu_broad_sweep's micro_row)")
    args = ap.parse_args()
    if args.plan:
        plan = json.loads(args.plan.read_text())
    else:
        plan = raster_smear_plan() if args.smear else raster_waves_plan() if args.waves else raster_pair_plan()
    args.out.mkdir(parents=True, exist_ok=True)
    query = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    (args.out / "metrics.txt").write_text(query)
    write_counters(args.out / "counters.csv", plan, METRICS, query)


if __name__ == "__main__":
    main()
