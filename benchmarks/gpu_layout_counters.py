"""On a GPU with Nsight Compute: hardware counters of the layout-pair check's kernels (gpu_broad_sweep.py
--layout-pairs), to see where a wgmma loop with both operands K-major spends the time its twins with an MN-major
operand do not (issue 13: on the read sweeps those kernels run 11-18% slower than the model where their MMAs bind it,
their twins within 2-8%).

One launch of each LAYOUT_PAIR_TILES configuration in each of its layouts on 11 x 12 x 2 tiles at K = 96 x BK (the
check's longer kernel at two tiles an SM), under ncu with the clocks left alone: duration and SM cycles, the L2's
sectors and requests from the SMs and its throughput, the L1's requests and sectors of the copies (LDGSTS), the shared
memory's wavefronts and bank conflicts, the tensor pipe's activity. The metrics asked for are those of METRICS that
``ncu --query-metrics`` lists on the machine (its list is written to OUT/metrics.txt). Writes OUT/counters.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_layout_counters.py OUT
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gpu_broad_sweep import LAYOUT_PAIR_ITERATIONS, layout_pair_plan
from benchmarks.gpu_ncu_check import profile

METRICS = (
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
    "l1tex__m_xbar2l1tex_read_sectors.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    "l1tex__data_bank_reads.sum",
    "l1tex__data_bank_writes.sum",
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum",
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


def listed(metrics: tuple[str, ...], query: str) -> tuple[str, ...]:
    """Those of ``metrics`` whose base name (before the first '.') begins a line of ``ncu --query-metrics``."""
    names = {line.split()[0] for line in query.splitlines() if line.strip()}
    return tuple(m for m in metrics if m.split(".")[0] in names)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    query = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    (out / "metrics.txt").write_text(query)
    metrics = listed(METRICS, query)
    print("metrics:", ", ".join(metrics), "| not listed:", ", ".join(sorted(set(METRICS) - set(metrics))), flush=True)
    cases = [r for r in layout_pair_plan() if r["shape"].endswith("-x2") and r["k"] == LAYOUT_PAIR_ITERATIONS[-1] *
             r["block_k"]]  # fmt: skip
    rows = []
    for c, counters in zip(cases, profile(cases, False, metrics, CHILD), strict=True):
        rows.append({**c, **counters})
        print(json.dumps(rows[-1]), flush=True)
    with (out / "counters.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
