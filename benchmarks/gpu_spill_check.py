"""On a GPU with Nsight Compute: where the spills of the broad sweeps' spilling kernels go, to find
out what the spills term misses (issue 13: the recorded wgmma spill pairs give 24.1 B/cycle/SM, yet
mma.sync and FMA kernels with many spilled registers run 1.5-4x slower than that rate says, and wgmma
kernels on shapes whose operands are loaded one element at a time up to 6x).

For each kernel of CASES (taken from the committed broad sweeps, docs/measurements/*/broad.csv, with
the shape, tile, warps, stages, GROUP_M, dtype and operand layouts it was timed with there), one launch
under ncu with the clocks left alone and the caches flushed: its duration, the local-memory load and
store instructions and sectors at L1 (with the loads' L1 hits and misses), what L1 sends to L2, the
shared-memory wavefronts, the instructions executed and the registers per thread. From those:
local bytes per main-loop iteration per CTA against the model's 2 x spilled x 4 B x threads, and the
share of them L1 serves. Writes OUT.csv (one row per kernel, the recorded row's columns first).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_spill_check.py OUT.csv
       or, for COUNT of a day's training-shape spilling kernels drawn at random:
       PYTHONPATH=. python benchmarks/gpu_spill_check.py OUT.csv --sample h100-2026-11-23 COUNT SEED
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from gpu_ncu_check import ncu_rows  # a sibling script: benchmarks/ is the script's own directory

REPO = Path(__file__).resolve().parents[1]
CORE = (
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
    "launch__registers_per_thread",
    "smsp__inst_executed.sum",
    "smsp__inst_executed_op_local_ld.sum",
    "smsp__inst_executed_op_local_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
)
# Stall reasons where this ncu has them under these names (dropped, with a line on stderr, where not).
EXTRA = (
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
)
# (data day, m, n, k, dtype, block_m, block_n, block_k, warps, stages, group_m, a_major, b_major): why
CASES = (
    ("h100-2026-11-23", 4096, 4096, 4096, "fp16", 128, 256, 32, 4, 3, None, "k", "n"),  # wgmma, accumulators out
    ("h100-2026-11-23", 4096, 4096, 4096, "fp16", 256, 128, 32, 4, 5, None, "k", "k"),  # wgmma, accumulators out
    ("h100-2026-11-23", 5000, 3000, 4000, "bf16", 256, 128, 32, 8, 5, None, "k", "k"),  # wgmma, 16 outside the loop
    ("h100-2026-11-23", 5000, 3000, 4000, "tf32", 256, 128, 32, 8, 4, None, "k", "k"),  # wgmma, 84 outside
    ("h100-2026-11-23", 3000, 5000, 2000, "fp16", 256, 64, 32, 4, 4, None, "k", "k"),  # wgmma, 68 outside
    ("h100-2026-11-23", 3000, 5000, 2000, "tf32", 128, 128, 64, 4, 2, None, "k", "k"),  # wgmma, 152, part in
    ("h100-2026-11-23", 4096, 4096, 4096, "fp16", 256, 64, 128, 2, 2, None, "k", "n"),  # mma.sync, 762
    ("h100-2026-11-23", 2048, 2048, 16384, "fp16", 128, 128, 32, 2, 5, None, "m", "n"),  # mma.sync, 156
    ("h100-2026-11-23", 8192, 8192, 1024, "fp16", 128, 128, 64, 2, 2, None, "k", "k"),  # mma.sync, 384
    ("h100-2026-11-23", 3000, 5000, 2000, "bf16", 128, 64, 128, 2, 3, None, "k", "n"),  # mma.sync at 32 registers
    ("h100-2026-11-23", 4096, 4096, 4096, "fp32", 128, 128, 64, 2, 2, None, "k", "k"),  # FMA, 4,130
    ("h100-2026-11-23", 4096, 4096, 4096, "fp32", 64, 128, 64, 2, 4, None, "k", "n"),  # FMA, 232
    ("h100-2026-11-24", 7000, 1800, 2500, "fp8", 64, 32, 256, 4, 3, None, "k", "n"),  # wgmma, element-wise, 576
    ("h100-2026-11-24", 3500, 6000, 1500, "fp16", 128, 128, 64, 4, 3, None, "k", "n"),  # wgmma, element-wise, 92
    ("h100-2026-11-24", 7000, 1800, 2500, "fp16", 128, 128, 32, 4, 2, None, "k", "k"),  # wgmma, element-wise, 168
    ("h100-2026-11-24", 7000, 1800, 2500, "fp16", 256, 128, 32, 8, 5, None, "k", "k"),  # wgmma, element-wise, 162
)

CHILD = """
import json, sys, torch
from roofmodel.backends import triton_gemm as tg
for c in json.load(open(sys.argv[1])):
    a, b = tg.random_inputs(c['m'], c['n'], c['k'], c['dtype'], 'cuda', 7, c['a_major'], c['b_major'])
    out = tg.output_for(a, b, c['dtype'])
    tg.launch(a, b, out, c['dtype'], c['block_m'], c['block_n'], c['block_k'], c['group_m'], c['num_warps'],
              c['num_stages'])
    torch.cuda.synchronize()
"""


def recorded(case: tuple) -> dict[str, str]:
    """The first sweep row of the case's day that matches it (GROUP_M None: any)."""
    day, m, n, k, dtype, bm, bn, bk, w, s, g, a, b = case
    with open(REPO / "docs" / "measurements" / day / "broad.csv", newline="") as f:
        for row in csv.DictReader(f):
            key = (row["m"], row["n"], row["k"], row["dtype"], row["block_m"], row["block_n"], row["block_k"],
                   row["num_warps"], row["num_stages"], row["a_major"], row["b_major"])  # fmt: skip
            want = tuple(str(x) for x in (m, n, k, dtype, bm, bn, bk, w, s, a, b))
            if (row["set"] == "sweep" and row["status"] == "ok" and row["force_mma_v2"] == "0" and key == want
                    and (g is None or row["group_m"] == str(g))):  # fmt: skip
                return {"day": day, **row}
    raise SystemExit(f"{day}: no recorded row for {case}")


def run_ncu(cases: list[dict], metrics: tuple[str, ...]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "cases.json"
        f.write_text(json.dumps(cases))
        cmd = ["ncu", "--clock-control", "none", "--cache-control", "all", "--metrics", ",".join(metrics), "--csv",
               "-k", "regex:_matmul_kernel", sys.executable, "-c", CHILD, str(f)]  # fmt: skip
        return subprocess.run(cmd, capture_output=True, text=True, timeout=540, env=dict(os.environ))


def profile(cases: list[dict]) -> list[dict[str, str]]:
    out = run_ncu(cases, CORE + EXTRA)
    if out.returncode:
        print(f"ncu with the stall metrics failed ({out.stderr.strip()[-300:]}); again without them", file=sys.stderr)
        out = run_ncu(cases, CORE)
    if out.returncode:
        print(out.stdout[-3000:], out.stderr[-3000:])
        raise SystemExit(out.returncode)
    return [{r["Metric Name"]: r["Metric Value"].replace(",", "") for r in rows} for rows in ncu_rows(out.stdout)]


def sampled(day: str, count: int, seed: int) -> list[dict[str, str]]:
    """``count`` of the day's training-shape sweep kernels that spilled, drawn at random (``seed``), each
    family in proportion to its spilling kernels; only those under 20 ms (ncu replays each one)."""
    import random

    with open(REPO / "docs" / "measurements" / day / "broad.csv", newline="") as f:
        pool = [{"day": day, **r} for r in csv.DictReader(f)
                if r["set"] == "sweep" and r["status"] == "ok" and r["split"] == "train" and r["force_mma_v2"] == "0"
                and int(r["spilled_registers"] or 0) > 0 and float(r["time_ms"]) < 20]  # fmt: skip
    return random.Random(seed).sample(pool, min(count, len(pool)))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[2] == "--sample":
        rows = sampled(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        rows = [recorded(c) for c in CASES]
    cases = [{k: (int(r[k]) if k not in ("dtype", "a_major", "b_major") else r[k])
              for k in ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages",
                        "a_major", "b_major")} for r in rows]  # fmt: skip
    out = []
    for r, counters in zip(rows, profile(cases), strict=True):
        out.append({**r, **{f"ncu:{k}": v for k, v in counters.items()}})
        print(json.dumps(out[-1]), flush=True)
    names = list(dict.fromkeys(k for row in out for k in row))
    with open(sys.argv[1], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=names)
        w.writeheader()
        w.writerows(out)


if __name__ == "__main__":
    main()
