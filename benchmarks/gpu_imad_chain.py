"""On a GPU: what integer instructions cost a Triton wgmma loop, by adding them. The mask-variant check
(docs/measurements/h200-2026-11-30/mask_variants) found the both-K-major slowdown going with the extra IMAD its loop
issues, not one cost per IMAD; this times a loop with a known number of extra IMAD.

The unmasked matmul of gpu_mask_variants.py with, each iteration, a chain of CHAIN dependent multiply-adds on each
thread's rows (x = x * x + stride_cm, from x = rows + the iteration: no closed form for the compiler to fold), summed
into a vector the kernel stores only if K < 0 (never): ptxas keeps the chain and the loads, copies and wgmma are as
before. CHAIN in CHAINS, on four of the layout-pair check's fp16 tiles with A K-major and B N-major or both K-major,
11 x 12 x 2 tiles (two an SM) at K = 32 and 96 x BK, GROUP_M 1, timed by do_bench twice after a check against torch.
OUT/chain.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_imad_chain.py OUT
     (CPU): python benchmarks/gpu_imad_chain.py --loops   # each kernel's main loop for sm_90a: instructions, IMAD
The committed runs' slopes: python benchmarks/imad_chain.py (CPU).
"""

from __future__ import annotations

import sys
from pathlib import Path

import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
from benchmarks.gpu_broad_sweep import LAYOUT_PAIR_ITERATIONS
from benchmarks.gpu_mask_variants import timed, variant_launch

TILES = ((128, 128, 64, 4, 3), (64, 128, 64, 4, 4), (128, 128, 64, 8, 3), (256, 128, 32, 8, 4))
LAYOUTS = ("kn", "kk")
CHAINS = (0, 4, 8, 16)


@triton.jit
def _chain_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    CHAIN: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    side = tl.zeros((BLOCK_M,), dtype=tl.int32)
    for kk in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        x = offs_m + kk
        for _ in tl.static_range(CHAIN):
            x = x * x + stride_cm
        side += x
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))
    if K < 0:
        tl.store(c_ptr + offs_m, side.to(c_ptr.dtype.element_ty))


def loop_counts() -> None:
    """``--loops``: per tile, layout and CHAIN, the main loop's instructions a warp issues an iteration and its IMAD, as
    the installed Triton compiles it for sm_90a (on the CPU)."""
    from roofmodel.backends.triton_compile import CompileJob, compiled_main_loop, loop_opcodes

    for bm, bn, bk, w, st in TILES:
        for lay in LAYOUTS:
            for chain in CHAINS:
                job = CompileJob(11 * bm, 24 * bn, 96 * bk, "fp16", bm, bn, bk, w, st, lay[0], lay[1], 1)
                ops = loop_opcodes(compiled_main_loop(job, 90, _chain_kernel, {"CHAIN": chain}))
                print(f"{bm}x{bn}x{bk}-w{w}-s{st} {lay} chain {chain}: {sum(ops.values())} instructions, "
                      f"IMAD {ops.get('IMAD', 0)}, HGMMA {ops.get('HGMMA', 0)}", flush=True)  # fmt: skip


def main() -> None:
    if "--loops" in sys.argv[1:]:
        loop_counts()
        return
    import torch

    from roofmodel.backends import triton_gemm as tg

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for bm, bn, bk, w, st in TILES:
        for lay in LAYOUTS:
            for it in LAYOUT_PAIR_ITERATIONS:
                m, n, k = 11 * bm, 24 * bn, it * bk
                a, b = tg.random_inputs(m, n, k, "fp16", "cuda", 7, lay[0], lay[1])
                ref = (a.float() @ b.float()) if it == LAYOUT_PAIR_ITERATIONS[0] else None
                for chain in CHAINS:
                    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
                    run = variant_launch(_chain_kernel, a, b, c, bm, bn, bk, w, st, CHAIN=chain)
                    t1, t2, err = timed(run, c, ref)
                    rows.append(dict(chain=chain, block_m=bm, block_n=bn, block_k=bk, num_warps=w, num_stages=st,
                                     a_major=lay[0], b_major=lay[1], m=m, n=n, k=k, time_ms=t1, time_ms_2=t2,
                                     rel_error=err))  # fmt: skip
                    print(rows[-1], flush=True)
    write_csv(out / "chain.csv", rows)


if __name__ == "__main__":
    main()
