"""On a GPU with Nsight Compute: what an fp8 wgmma loop pays for an operand laid out again through registers (issue 13,
validation.md's lead "fp8 wgmma with MN-major operands": on the read H200 sweeps, as compiled, the model has such
kernels too slow where B alone is relaid and BM is 128 or 256 (+4.5% to +14% signed at BN 32-64) and too fast where
BM is 64 (-3% to -8%), and the mirror for A alone; with both relaid, -5% to -15%, the smaller the tile the more).

Eight fp8 tiles in each of the four layouts (A K- or M-major, B K- or N-major) on M = N = K = 4096, so that every SM
holds as many CTAs as their registers and shared memory allow. Each timed (triton.testing.do_bench, median) in two
passes (OUT/times.csv), then one launch of each under ncu with the clocks left alone: the counters of
gpu_layout_counters.METRICS with the shared-memory path's loads and stores apart (OUT/counters.csv), and the warp
stalls by reason (OUT/stalls.csv). The kernel is roofmodel's Triton matmul, as the broad sweeps ran it.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_relaid_counters.py OUT
The compiled counts (CPU, Triton 3.6, whose ptxas gives the device's): python benchmarks/gpu_relaid_counters.py
    --compile DIR (DIR/compiled.csv: registers, spilled registers and shared memory of each case)
The table (CPU): python benchmarks/gpu_relaid_counters.py --table DIR
    per case: its time (the two passes' median), the SM cycles an iteration of one CTA's share (time x clock x SMs /
    (tiles x K / BK)), the shared-memory wavefronts of its loads and stores an iteration of a CTA, their bank
    conflicts, the shared pipe's activity, the model's time as compiled over the measured (the
    compiled counts of --compile) and its shared-memory term's cycles an iteration of one CTA.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
from benchmarks.gpu_layout_counters import METRICS, write_counters_and_stalls
from benchmarks.gpu_odd_k_counters import CHILD, timed

M = N = K = 4096
# (BM, BN, BK, warps, stages): the read sweeps' relaid classes, small and large on each side.
TILES = ((64, 32, 128, 4, 4), (64, 128, 128, 4, 4), (64, 256, 128, 4, 3), (128, 32, 128, 4, 4),
         (128, 64, 128, 8, 4), (128, 128, 128, 8, 3), (256, 32, 128, 8, 3), (256, 64, 128, 8, 3))  # fmt: skip
LAYOUTS = (("k", "k"), ("k", "n"), ("m", "k"), ("m", "n"))
SHARED = (
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed.sum",
)


def cases() -> list[dict[str, Any]]:
    """Every tile in every layout, GROUP_M 8."""
    return [dict(m=M, n=N, k=K, dtype="fp8", group_m=8, block_m=bm, block_n=bn, block_k=bk, num_warps=w, num_stages=s,
                 a_major=a, b_major=b, offset=0)
            for bm, bn, bk, w, s in TILES for a, b in LAYOUTS]  # fmt: skip


def _number(x: str) -> float:
    return float(x.replace(",", "")) if x not in ("", "n/a") else float("nan")


def _key(r: dict[str, str]) -> tuple[Any, ...]:
    return (int(r["block_m"]), int(r["block_n"]), int(r["block_k"]), int(r["num_warps"]), int(r["num_stages"]),
            r["a_major"], r["b_major"])  # fmt: skip


def table(directory: Path, mhz: float = 1980.0, sms: int = 132) -> list[str]:
    """The table's lines (see the module docstring); the model's time from roofmodel's h200 file at ``mhz``."""
    import csv

    from roofmodel.backends.broad import BroadRecord, Evaluator
    from roofmodel.machine import load_machine

    with (directory / "times.csv").open() as f:
        times = {_key(r): (_number(r["time_ms"]) + _number(r["time_ms_2"])) / 2 for r in csv.DictReader(f)}
    with (directory / "counters.csv").open() as f:
        counters = {_key(r): r for r in csv.DictReader(f)}
    with (directory / "compiled.csv").open() as f:
        regs = {_key(r): r for r in csv.DictReader(f)}
    ev = Evaluator(load_machine("h200"), mhz)

    def metric(r: dict[str, str], name: str) -> float:
        hit = [v for k, v in r.items() if k.startswith(name + " ")]
        return _number(hit[0]) if hit else float("nan")

    lines = [
        "tile              A B  ms      cyc/CTA-it  ld wf/it  st wf/it  ld conf  st conf  shared%  model/meas  model smem"
    ]
    for key, r in counters.items():
        bm, bn, bk, w, s, a, b = key
        tiles = (M // bm) * (N // bn)
        its = tiles * (K // bk)
        ms = times[key]
        cyc = ms * 1e-3 * mhz * 1e6 * sms / its
        model = smem = float("nan")
        c = regs[key]
        if c["instruction"] == "wgmma":
            row = BroadRecord(m=M, n=N, k=K, dtype="fp8", block_m=bm, block_n=bn, block_k=bk, group_m=8, num_warps=w,
                      num_stages=s, registers_per_thread=int(c["registers_per_thread"]),
                      shared_bytes=int(c["shared_bytes"]), time_ms=ms, a_major=a, b_major=b, instruction="wgmma",
                      spilled_registers=int(c["spilled_registers"]), tflops=2 * M * N * K / (ms * 1e9), rel_error=0.0, set="micro", shape="relaid", family="square",
                              split="micro", force_mma_v2=0, status="ok")  # fmt: skip
            terms = ev.seconds(row)
            model = float(terms["total"]) / (ms * 1e-3)
            # The shared-memory term is the busiest SM's tiles x iterations at one CTA's cycles each (cta_model).
            smem = float(terms["shared memory"]) * mhz * 1e6 / (-(-tiles // sms) * (K // bk))
        cells = [metric(r, n) / its for n in SHARED[:4]]
        lines.append(
            f"{bm}x{bn}x{bk} w{w} s{s}".ljust(18) + f"{a} {b}  {ms:.4f}  {cyc:10.0f}  {cells[0]:8.1f}  {cells[1]:8.1f}"
            f"  {cells[2]:7.1f}  {cells[3]:7.1f}  {metric(r, 'sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed'):7.1f}"
            f"  {model:10.2f}  {smem:10.0f}"
        )  # fmt: skip
    return lines


def compiled(directory: Path) -> None:
    """Each case's registers per thread, spilled registers, shared memory and MMA family, compiled for sm_90a on the
    CPU (roofmodel.backends.triton_compile, as `predict --compile` does), into DIR/compiled.csv."""
    from roofmodel.backends.triton_compile import CompileJob, compile_counts

    rows = []
    for c in cases():
        job = CompileJob(c["m"], c["n"], c["k"], c["dtype"], c["block_m"], c["block_n"], c["block_k"], c["num_warps"],
                         c["num_stages"], c["a_major"], c["b_major"], c["group_m"], None)  # fmt: skip
        got = compile_counts(job, 90)
        rows.append({**c, "registers_per_thread": got.registers, "spilled_registers": got.spilled,
                     "shared_bytes": got.shared_bytes, "instruction": got.instruction})  # fmt: skip
    write_csv(directory / "compiled.csv", rows)


def main() -> None:
    if sys.argv[1:2] == ["--compile"]:
        compiled(Path(sys.argv[2]))
        return
    if sys.argv[1:2] == ["--table"]:
        print("\n".join(table(Path(sys.argv[2]))))
        return
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    plan = cases()
    timed(plan, out / "times.csv")
    write_counters_and_stalls(out, plan, (*METRICS, *SHARED), child=CHILD)


if __name__ == "__main__":
    main()
