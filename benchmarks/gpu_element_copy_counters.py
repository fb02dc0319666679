"""On a GPU with Nsight Compute: where a Triton mma.sync tf32 loop whose operands are both copied one element at a time
spends its time (issue 13: on the read H200 sweeps such kernels without spills are 14% too fast in the model, fixed by
tile, from -0.5% at 32x32x32 on 4 warps to -37% at 32x128x64 on 4; measured over the warp-level element copies of a
CTA's stage they take 6.3-10.2 SM cycles a copy, the occupancy check's element copies 6.6-7.3, and the model gives them
5.6-7.3: docs/validation.md, "Tried and failed: tf32's both-K-major loop charged as fp16's").

ELEMENT_COPY_TILES (tf32, both operands K-major, mma.sync forced with DISABLE_MMA_V3=1, 3 stages, GROUP_M 8) at M = N =
4096, each at K = 4004 (a leading stride that is not a multiple of 16 elements: Triton copies both operands 4 bytes at
a time, cp.async) and K = 4000 (16 bytes at a time), so that each tile has an aligned twin:

- timed by do_bench (median, the L2 flushed between runs) in two passes, after a check against torch (OUT/times.csv);
- one launch of each under ncu with the clocks left alone: duration and SM cycles, instructions issued, the LSU pipe's
  and the L1's and L2's activity, the copies' L1 requests, sectors and shared-memory wavefronts, the L2's requests and
  sectors from the SMs, the tensor pipe's activity (OUT/counters.csv); then the same launches' warp stalls by reason
  (OUT/stalls.csv). The metrics asked for are those ``ncu --query-metrics`` lists (OUT/metrics.txt).

Planned before the run (2026-12-02), to read: whether the element copies' cycles grow with the tile through the L1's
work per copy (requests, sectors, wavefronts: a run of BK x 4 bytes of a row that does not start on a sector touches
more of them per byte at BK 16 than at 64), through the LSU pipe's occupancy, or through the warps' stalls on it
(lg_throttle, mio_throttle) while the same warps issue their MMAs.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_element_copy_counters.py OUT
     (CPU): python benchmarks/gpu_element_copy_counters.py --loops OUT.csv   # each kernel's main loop, sm_90a

``--loops`` (added after the run, on a CPU with Triton 3.6, the device's): per kernel of the plan, and for one tile of
the sweeps (64x32x32 on 2 warps, 4 stages) at 2500x7300x1900 and 2496x7296x1904 (an odd shape and its multiples of 16)
and at 4096 x 4096 x 4004 and 4000, the instructions a warp issues an iteration of the compiled main loop and its
LDGSTS, IMAD, IADD3, SEL, ISETP and LOP3.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["DISABLE_MMA_V3"] = "1"  # before Triton compiles anything: mma.sync for every tile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
from benchmarks.gpu_layout_counters import write_counters_and_stalls

M = N = 4096
K_NARROW, K_ALIGNED = 4004, 4000
# (block_m, block_n, block_k, warps): tiles of the class on the read sweeps (H200 to fresh89, median signed error as
# compiled, `python benchmarks/element_copies.py --sweeps`), from the least off to the most as far as they are known:
# 32x32x32 w4 -0.5%, 32x32x16 w2 -6.9%, 32x128x16 w4 -10.3%, 128x32x16 w2 -13.7%, 32x256x16 w8 -15.4%, 32x32x16 w8
# -15.8%, 64x64x16 w2 -19.8%, 32x64x64 w8 -23.6%, w4 -25.1%, 32x128x64 w8 -30.2%, w4 -37.3% (n = 9).
ELEMENT_COPY_TILES = [(32, 32, 32, 4), (32, 32, 16, 2), (128, 32, 16, 2), (32, 128, 16, 4), (32, 32, 16, 8),
                      (64, 64, 16, 2), (32, 256, 16, 8), (32, 64, 64, 4), (32, 64, 64, 8), (32, 128, 64, 4),
                      (32, 128, 64, 8)]  # fmt: skip
STAGES, GROUP_M = 3, 8

METRICS = (
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
    "smsp__inst_executed.sum",
    "smsp__issue_active.avg.pct_of_peak_sustained_elapsed",
    "sm__inst_executed_pipe_lsu.sum",
    "sm__pipe_lsu_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "smsp__inst_executed_op_ldgsts.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__m_xbar2l1tex_read_sectors.sum",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum",
)


def plan() -> list[dict]:
    """Each tile at K_NARROW and K_ALIGNED, both operands K-major."""
    return [dict(dtype="tf32", m=M, n=N, k=k, block_m=bm, block_n=bn, block_k=bk, num_warps=w, num_stages=STAGES,
                 group_m=GROUP_M, a_major="k", b_major="k", copies="element" if k == K_NARROW else "16-byte")
            for bm, bn, bk, w in ELEMENT_COPY_TILES for k in (K_NARROW, K_ALIGNED)]  # fmt: skip


def timed_rows(cases: list[dict]) -> list[dict]:
    """Each case checked against torch (its largest error over the largest value) and timed twice by do_bench, with
    the compiled kernel's instruction family, registers and spills."""
    import torch
    import triton

    from roofmodel.backends import triton_gemm as tg
    from roofmodel.backends.triton_compile import mma_family

    rows = []
    for c in cases:
        a, b = tg.random_inputs(c["m"], c["n"], c["k"], c["dtype"], "cuda", 7, c["a_major"], c["b_major"])
        out = tg.output_for(a, b, c["dtype"])

        def run(a=a, b=b, out=out, c=c):
            return tg.launch(a, b, out, c["dtype"], c["block_m"], c["block_n"], c["block_k"], c["group_m"],
                             c["num_warps"], c["num_stages"])  # fmt: skip

        kernel = run()
        torch.cuda.synchronize()
        ref = a.double() @ b.double()
        err = float((out.double() - ref).abs().max() / ref.abs().max())
        t1, t2 = (triton.testing.do_bench(run, warmup=10, rep=60, return_mode="median") for _ in range(2))
        rows.append({**c, "instruction": mma_family(kernel.asm["ptx"]), "registers": kernel.n_regs,
                     "spilled": kernel.n_spills, "shared_bytes": kernel.metadata.shared, "rel_error": err,
                     "time_ms": t1, "time_ms_2": t2})  # fmt: skip
        print(rows[-1], flush=True)
    return rows


LOOP_OPCODES = ("LDGSTS", "IMAD", "IADD3", "SEL", "ISETP", "LOP3", "HMMA")
# A sweep tile at an odd shape and at the shapes nearest it whose sizes are multiples of 16, and at the check's.
LOOP_EXTRA = [(2500, 7300, 1900, 64, 32, 32, 2, 4), (2496, 7296, 1904, 64, 32, 32, 2, 4),
              (4096, 4096, 4004, 64, 32, 32, 2, 4), (4096, 4096, 4000, 64, 32, 32, 2, 4)]  # fmt: skip


def loop_rows() -> list[dict]:
    """``--loops``: each plan kernel's and LOOP_EXTRA's compiled main loop (mma.sync forced), counted by opcode."""
    from roofmodel.backends.triton_compile import CompileJob, compiled_main_loop, loop_opcodes

    cases = [(c["m"], c["n"], c["k"], c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"])
             for c in plan()] + LOOP_EXTRA  # fmt: skip
    rows = []
    for m, n, k, bm, bn, bk, w, st in cases:
        body = compiled_main_loop(CompileJob(m, n, k, "tf32", bm, bn, bk, w, st, "k", "k", GROUP_M), 90)
        ops = loop_opcodes(body)
        rows.append({"m": m, "n": n, "k": k, "block_m": bm, "block_n": bn, "block_k": bk, "num_warps": w,
                     "num_stages": st, "instructions": len(body), **{op.lower(): ops.get(op, 0) for op in LOOP_OPCODES}})  # fmt: skip
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    if sys.argv[1] == "--loops":
        write_csv(Path(sys.argv[2]), loop_rows())
        return
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    cases = plan()
    write_csv(out / "times.csv", timed_rows(cases))
    write_counters_and_stalls(out, cases, METRICS, mma_sync=True)


if __name__ == "__main__":
    main()
