"""On a GPU with Nsight Compute: hardware counters of the layout checks' kernels, to see what binds
them (issue 13: the model runs the large K-major kernels 12-27% faster than they are).

For 4096^3 Triton matmuls (roofmodel.backends.triton_gemm) in fp16 and fp8 with both operand layouts,
at the tiles of the layout checks (wgmma 128x128 on 8 warps and 64x32 on 4; mma.sync, forced with
DISABLE_MMA_V3=1, 128x128 on 8 warps and 32x64 on 4), one launch each under ncu with the clocks left
alone and the caches flushed: duration, shared-memory wavefronts and bank conflicts of the LSU path
(ld/st.shared, ldmatrix; wgmma's own operand reads are not LSU traffic), L2 bytes and sectors read,
DRAM bytes, and the throughput of the SM, L1 and L2 as a share of their peaks. Writes OUT.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_ncu_check.py OUT.csv
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

M = N = K = 4096
METRICS = (
    "gpu__time_duration.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__inst_executed_op_ldsm.sum",
    "lts__t_bytes.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "dram__bytes_read.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "sm__cycles_elapsed.avg",
)
# (instruction forced, block_m, block_n, warps); BLOCK_K 64 for fp16, 128 for fp8; 3 stages, GROUP_M 8
TILES = (("wgmma", 128, 128, 8), ("wgmma", 64, 32, 4), ("mma.sync", 128, 128, 8), ("mma.sync", 32, 64, 4))
CASES = [(t, d, a, b) for t in TILES for d in ("fp16", "fp8") for a, b in (("k", "k"), ("k", "n"), ("m", "k"))]

CHILD = """
import json, sys, torch
from roofmodel.backends import triton_gemm as tg
for c in json.load(open(sys.argv[1])):
    a, b = tg.random_inputs(c['m'], c['n'], c['k'], c['dtype'], 'cuda', 7, c['a_major'], c['b_major'])
    out = tg.output_for(a, b, c['dtype'])
    tg.launch(a, b, out, c['dtype'], c['block_m'], c['block_n'], c['block_k'], 8, c['num_warps'], 3)
    torch.cuda.synchronize()
"""


def profile(cases: list[dict], mma_sync: bool, metrics: tuple[str, ...] = METRICS, child: str = CHILD,
            options: tuple[str, ...] = ()) -> list[dict[str, str]]:  # fmt: skip
    """One launch of each case under ncu (``child`` launches them from a JSON file; mma.sync forced where
    ``mma_sync``; ``options``: more of ncu's, e.g. --cache-control none): per launch, in order, each of ``metrics``
    as "name (unit)" -> value as ncu prints it."""
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "cases.json"
        f.write_text(json.dumps(cases))
        env = dict(os.environ, DISABLE_MMA_V3="1") if mma_sync else dict(os.environ)
        cmd = ["ncu", "--clock-control", "none", *options, "--metrics", ",".join(metrics), "--csv", "-k",
               "regex:_matmul_kernel", sys.executable, "-c", child, str(f)]  # fmt: skip
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=500, env=env)
        if out.returncode:
            print(out.stdout[-3000:], out.stderr[-3000:])
            raise SystemExit(out.returncode)
    return [
        {f"{r['Metric Name']} ({r['Metric Unit']})": r["Metric Value"] for r in rows} for rows in ncu_rows(out.stdout)
    ]


def ncu_rows(stdout: str) -> list[list[dict[str, str]]]:
    """The rows of ``ncu --csv`` output (one per metric: ID, Metric Name, Metric Unit, Metric Value, ...),
    grouped by launch, in launch order."""
    lines = [ln for ln in stdout.splitlines() if ln.startswith('"')]
    by_id: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        by_id.setdefault(row["ID"], []).append(row)
    return [by_id[i] for i in sorted(by_id, key=int)]


def main() -> None:
    rows = []
    for forced in (False, True):
        cases = [dict(m=M, n=N, k=K, dtype=d, block_m=bm, block_n=bn, block_k=64 if d == "fp16" else 128,
                      num_warps=w, a_major=a, b_major=b, instruction=t)
                 for (t, bm, bn, w), d, a, b in CASES if (t == "mma.sync") == forced]  # fmt: skip
        for c, counters in zip(cases, profile(cases, forced), strict=True):
            rows.append({**c, **counters})
            print(json.dumps(rows[-1]), flush=True)
    with open(sys.argv[1], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
