"""On a GPU with Nsight Compute: hardware counters of the layout-pair check's kernels (gpu_broad_sweep.py
--layout-pairs), to see where a wgmma loop with both operands K-major spends the time its twins with an MN-major
operand do not (issue 13: on the read sweeps those kernels run 11-18% slower than the model where their MMAs bind it,
their twins within 2-8%).

One launch of each LAYOUT_PAIR_TILES configuration in each of its layouts on 11 x 12 x 2 tiles at K = 96 x BK (the
check's longer kernel at two tiles an SM), under ncu with the clocks left alone: duration and SM cycles, the L2's
sectors and requests from the SMs and its throughput, the L1's requests and sectors of the copies (LDGSTS), the shared
memory's wavefronts and bank conflicts, the tensor pipe's activity (OUT/counters.csv). Then the same launches' warp
stalls by reason (STALLS, warp-cycles summed over the SM sub-partitions: OUT/stalls.csv), and each configuration at
K = 32 x BK launched twice with ncu's cache flush off (--cache-control none), so that the second launch finds its
operands in the L2 (OUT/warm.csv: both launches, ``launch`` 1 and 2). The metrics asked for are those that
``ncu --query-metrics`` lists on the machine (its list is written to OUT/metrics.txt).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_layout_counters.py OUT
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
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

STALL_REASONS = ("barrier", "gmma", "long_scoreboard", "short_scoreboard", "wait", "math_pipe_throttle", "mio_throttle",
                 "lg_throttle", "dispatch_stall", "no_instruction", "not_selected", "selected", "branch_resolving",
                 "membar", "misc", "drain", "sleeping", "tex_throttle", "imc_miss")  # fmt: skip
STALLS = (*(f"smsp__warps_issue_stalled_{r}.sum" for r in STALL_REASONS), "gpu__time_duration.sum",
          "sm__cycles_elapsed.avg", "smsp__cycles_active.avg")  # fmt: skip
WARM = ("gpu__time_duration.sum", "lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum",
        "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed")  # fmt: skip

# Each case launched ``launches`` times, on the same inputs.
CHILD = """
import json, sys, torch
from roofmodel.backends import triton_gemm as tg
for c in json.load(open(sys.argv[1])):
    a, b = tg.random_inputs(c['m'], c['n'], c['k'], c['dtype'], 'cuda', 7, c['a_major'], c['b_major'])
    out = tg.output_for(a, b, c['dtype'])
    for _ in range(c.get('launches', 1)):
        tg.launch(a, b, out, c['dtype'], c['block_m'], c['block_n'], c['block_k'], c['group_m'], c['num_warps'],
                  c['num_stages'])
    torch.cuda.synchronize()
"""


def listed(metrics: tuple[str, ...], query: str) -> tuple[str, ...]:
    """Those of ``metrics`` whose base name (before the first '.') begins a line of ``ncu --query-metrics``."""
    names = {line.split()[0] for line in query.splitlines() if line.strip()}
    return tuple(m for m in metrics if m.split(".")[0] in names)


def counted(
    cases: list[dict],
    metrics: tuple[str, ...],
    options: tuple[str, ...] = (),
    child: str = CHILD,
    mma_sync: bool = False,
) -> list[dict]:
    """Each launch of ``cases`` (a case's ``launches`` in turn) with its counters, numbered from 1 (``launch``);
    ``child``: the program that launches them from the cases' JSON file (gpu_ncu_check.profile, mma.sync forced where
    ``mma_sync``)."""
    launches = [{**c, "launch": i + 1} for c in cases for i in range(c.get("launches", 1))]
    rows = [{**c, **counters} for c, counters in zip(launches, profile(cases, mma_sync, metrics, child, options),
                                                      strict=True)]  # fmt: skip
    for r in rows:
        print(json.dumps(r), flush=True)
    return rows


def write_counters(
    path: Path,
    cases: list[dict],
    metrics: tuple[str, ...],
    query: str,
    options: tuple[str, ...] = (),
    label: str = "",
    child: str = CHILD,
    mma_sync: bool = False,
) -> None:
    """``counted``'s rows for ``cases`` into the CSV ``path`` (``child`` launching them), with those of ``metrics`` that
    ``query`` (``ncu --query-metrics``) lists; which were asked and which not listed, printed (after ``label``)."""
    asked = listed(metrics, query)
    print(*([label] if label else []), "metrics:", ", ".join(asked), "| not listed:",
          ", ".join(sorted(set(metrics) - set(asked))), flush=True)  # fmt: skip
    write_csv(path, counted(cases, asked, options, child, mma_sync))


def write_counters_and_stalls(out: Path, cases: list[dict], metrics: tuple[str, ...], child: str = CHILD,
                              mma_sync: bool = False) -> None:  # fmt: skip
    """A check's two ncu passes over ``cases``: ``metrics`` into OUT/counters.csv, then the warp stalls (STALLS) into
    OUT/stalls.csv; the metrics this ncu lists are asked once (``ncu --query-metrics``) and kept in OUT/metrics.txt."""
    query = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    (out / "metrics.txt").write_text(query)
    write_counters(out / "counters.csv", cases, metrics, query, label="counters", child=child, mma_sync=mma_sync)
    write_counters(out / "stalls.csv", cases, STALLS, query, label="stalls", child=child, mma_sync=mma_sync)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    query = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    (out / "metrics.txt").write_text(query)
    plan = [r for r in layout_pair_plan() if r["shape"].endswith("-x2")]
    for name, metrics, iterations, options, launches in (
        ("counters", METRICS, LAYOUT_PAIR_ITERATIONS[-1], (), 1),
        ("stalls", STALLS, LAYOUT_PAIR_ITERATIONS[-1], (), 1),
        ("warm", WARM, LAYOUT_PAIR_ITERATIONS[0], ("--cache-control", "none"), 2),
    ):
        cases = [{**r, "launches": launches} for r in plan if r["k"] == iterations * r["block_k"]]
        write_counters(out / f"{name}.csv", cases, metrics, query, options, label=name)


if __name__ == "__main__":
    main()
