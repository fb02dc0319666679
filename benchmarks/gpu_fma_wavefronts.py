"""On a GPU with Nsight Compute: the shared-memory wavefronts of Triton's fp32 FMA matmuls in all four operand
layouts, against roofmodel.model.fma_layout's count (issue 13: the FMA kernels with B K-major were 17% over
and those with A M-major and B K-major 27% over, where the model multiplied every operand read by 4).

For 2048^3 fp32 Triton matmuls (roofmodel.backends.triton_gemm, ``input_precision="ieee"``: FFMA) at tiles whose
layouts differ (lanes along N 8, 16 and 32; 2 and 4 elements per thread, 1 in CHECK_TILES; BK 16 to 64), in each of the four
layouts (A K- or M-major, B N- or K-major), one launch each under ncu with the clocks left alone: the
wavefronts and instructions of the LSU's shared-memory loads and stores and the kernel's duration. Writes OUT.csv
with, per kernel, the load wavefronts per CTA per main-loop iteration measured (ld wavefronts / (tiles x K / BK))
and the model's (fma_read_wavefronts), and prints both.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_fma_wavefronts.py [--check | --check2] OUT.csv
(--check: CHECK_TILES, the tiles that tested the rule first read off TILES' counts; --check2: CHECK2_TILES, the
held-out test of the rule as fitted to both.)
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.gpu_ncu_check import profile
from roofmodel.model.fma_layout import fma_read_wavefronts, triton_fma_layout

M = N = K = 2048
METRICS = (
    "gpu__time_duration.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_ldgsts.sum",
)
# (block_m, block_n, block_k, warps); 3 stages, GROUP_M 8
TILES = ((64, 64, 32, 4), (32, 32, 32, 4), (128, 128, 32, 4), (128, 32, 64, 8), (16, 64, 32, 2), (64, 32, 16, 2),
         (32, 256, 32, 4), (128, 64, 32, 8))  # fmt: skip
# Chosen after the rule was read off TILES' counts and before these were measured (--check): one element or two per
# thread (4- and 8-byte loads), 4 lanes along N, BK 16 and 64, 256-wide tiles.
CHECK_TILES = ((16, 16, 32, 4), (64, 16, 32, 2), (32, 64, 16, 4), (256, 32, 32, 8), (64, 64, 64, 8),
               (16, 128, 32, 4), (32, 16, 64, 2), (128, 256, 32, 8))  # fmt: skip
# Chosen after the rule was fitted to TILES and CHECK_TILES (d5542dc) and before these were measured (--check2): a
# held-out test of it, the pairing limit included (4 lanes along N, 2 elements per thread with 16 and 32 lanes).
CHECK2_TILES = ((128, 16, 32, 4), (32, 32, 16, 2), (64, 32, 32, 8), (16, 32, 64, 4), (256, 16, 16, 4),
                (32, 64, 32, 8), (64, 128, 64, 4), (128, 32, 16, 8))  # fmt: skip
LAYOUTS = (("k", "n"), ("k", "k"), ("m", "n"), ("m", "k"))

CHILD = """
import json, sys, torch
from roofmodel.backends import triton_gemm as tg
for c in json.load(open(sys.argv[1])):
    a, b = tg.random_inputs(c['m'], c['n'], c['k'], 'fp32', 'cuda', 7, c['a_major'], c['b_major'])
    out = tg.output_for(a, b, 'fp32')
    tg.launch(a, b, out, 'fp32', c['block_m'], c['block_n'], c['block_k'], 8, c['num_warps'], 3)
    torch.cuda.synchronize()
"""


def model_wavefronts(c: dict) -> int:
    layout = triton_fma_layout(c["block_m"], c["block_n"], c["num_warps"])
    return int(fma_read_wavefronts(layout, c["block_k"], 4, c["a_major"] == "m", c["b_major"] == "n"))


def main() -> None:
    flags = {"--check": CHECK_TILES, "--check2": CHECK2_TILES}
    tiles = next((t for f, t in flags.items() if f in sys.argv[1:]), TILES)
    targets = [a for a in sys.argv[1:] if a not in flags]
    if len(targets) != 1:
        raise SystemExit("usage: python benchmarks/gpu_fma_wavefronts.py [--check | --check2] OUT.csv")
    cases = [dict(m=M, n=N, k=K, block_m=bm, block_n=bn, block_k=bk, num_warps=w, a_major=a, b_major=b)
             for bm, bn, bk, w in tiles for a, b in LAYOUTS]  # fmt: skip
    rows = []
    for c, launch in zip(cases, profile(cases, False, METRICS, CHILD), strict=True):
        # "name (unit)" -> value as ncu prints it, to name -> number
        counters = {k.rsplit(" (", 1)[0]: float(v.replace(",", "")) for k, v in launch.items()}
        iterations = (M // c["block_m"]) * (N // c["block_n"]) * (K // c["block_k"])
        measured = counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] / iterations
        rows.append({**c, **counters, "ld_wavefronts_per_cta_iteration": round(measured, 1),
                     "model_wavefronts_per_cta_iteration": model_wavefronts(c)})  # fmt: skip
        r = rows[-1]
        print(f"{c['block_m']}x{c['block_n']}x{c['block_k']} w{c['num_warps']} A {c['a_major']} B {c['b_major']}: "
              f"measured {measured:,.0f}, model {r['model_wavefronts_per_cta_iteration']:,}", flush=True)  # fmt: skip
    with open(targets[0], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
