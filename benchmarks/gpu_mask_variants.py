"""On a GPU: is the both-K-major slowdown of the layout-pair check (docs/measurements/h200-2026-11-30/layout_pairs) the
layout's or the integer work roofmodel's Triton matmul spends on its masks? The same loop in three forms, each in the
four operand layouts: ``masked``, roofmodel.backends.triton_gemm's kernel (every load masked on M or N and on K, as the
sweeps ran it); ``kmask``, only K masked (as Triton's matmul tutorial does); ``nomask``, no mask (the shapes here
are multiples of the tile). Compiled for sm_90a by Triton 3.6, the main loop of 128x128x64 on 4 warps takes 216, 172,
184 and 187 instructions (kk, kn, mk, mn) masked, 145, 153, 152 and 170 with K masked only, 134, 128, 115 and 153
with none: with the M and N masks gone, both K-major is no longer the longest.

Each of LAYOUT_PAIR_TILES' fp16 tiles on 11 x 12 x 2 tiles (two an SM) at K = 32 and 96 x BK, GROUP_M 1, timed by
do_bench (median, the L2 flushed between runs) in two passes, after a check against torch at the shorter K. Writes
OUT/variants.csv (one row per kernel: variant, tile, layout, K, both passes' ms, the check's error).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_mask_variants.py OUT
     (CPU): python benchmarks/gpu_mask_variants.py --loops   # each variant's main loop, compiled for sm_90a
The committed runs' slopes: python benchmarks/mask_variants.py (CPU).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
from benchmarks.gpu_broad_sweep import LAYOUT_PAIR_ITERATIONS, LAYOUT_PAIR_TILES
from benchmarks.mask_variants import VARIANTS


@triton.jit
def _kmask_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    MASK_K: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    group_size_m = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % group_size_m
    pid_n = (pid % in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BLOCK_K)):
        if MASK_K:
            k_left = K - kk * BLOCK_K
            a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        else:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))


def variant_launch(kernel: Any, a: Any, b: Any, c: Any, bm: int, bn: int, bk: int, warps: int, stages: int,
                   **constants: Any) -> Any:  # fmt: skip
    """A callable that launches ``kernel`` (a JIT function with the matmul's arguments, GROUP_M 1, its own
    ``constants``) once on a (M, K), b (K, N) into c: roofmodel's arguments and grid (triton_gemm.kernel_arguments)."""
    from roofmodel.backends import triton_gemm as tg

    args, kwargs, grid = tg.kernel_arguments(a, b, c, "fp16", bm, bn, bk, 1, warps, stages)
    del kwargs["PRECISION"]
    kwargs.update(constants)
    return lambda: kernel[grid](*args, **kwargs)


def launcher(variant: str, a: Any, b: Any, c: Any, bm: int, bn: int, bk: int, warps: int, stages: int) -> Any:
    """A callable that launches ``variant`` once on a (M, K), b (K, N) into c."""
    from roofmodel.backends import triton_gemm as tg

    if variant == "masked":
        return lambda: tg.launch(a, b, c, "fp16", bm, bn, bk, 1, warps, stages)
    return variant_launch(_kmask_kernel, a, b, c, bm, bn, bk, warps, stages, MASK_K=variant == "kmask")


def timed(run: Any, c: Any, ref: Any) -> tuple[float, float, float | str]:
    """``run``'s two do_bench medians (ms) after one run whose output ``c`` is checked against ``ref`` (its largest
    error over the largest value; "" where there is no ``ref``)."""
    import torch

    run()
    torch.cuda.synchronize()
    err = float((c.float() - ref).abs().max() / ref.abs().max()) if ref is not None else ""
    times = [triton.testing.do_bench(run, warmup=10, rep=60, return_mode="median") for _ in range(2)]
    return times[0], times[1], err


def loop_counts() -> None:
    """``--loops``: per tile, variant and layout, the instructions of the main loop a warp issues an iteration as the
    installed Triton compiles it for sm_90a (on the CPU), and its IMAD, SEL and ISETP."""
    from roofmodel.backends.triton_compile import CompileJob, compiled_main_loop, loop_opcodes

    for dt, bm, bn, bk, w, st, layouts in LAYOUT_PAIR_TILES:
        if dt != "fp16":
            continue
        for variant in VARIANTS:
            for lay in layouts.split():
                job = CompileJob(11 * bm, 24 * bn, 96 * bk, dt, bm, bn, bk, w, st, lay[0], lay[1], 1)
                kernel, constants = (
                    (None, None) if variant == "masked" else (_kmask_kernel, {"MASK_K": variant == "kmask"})
                )
                body = compiled_main_loop(job, 90, kernel, constants)
                ops = loop_opcodes(body)
                print(f"{dt}-{bm}x{bn}x{bk}-w{w}-s{st} {variant} {lay}: {len(body)} instructions, "
                      + ", ".join(f"{op} {ops.get(op, 0)}" for op in ("IMAD", "SEL", "ISETP")), flush=True)  # fmt: skip


def main() -> None:
    if "--loops" in sys.argv[1:]:
        loop_counts()
        return
    import torch

    from roofmodel.backends import triton_gemm as tg

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for dt, bm, bn, bk, w, st, layouts in LAYOUT_PAIR_TILES:
        if dt != "fp16":
            continue
        for lay in layouts.split():
            for it in LAYOUT_PAIR_ITERATIONS:
                m, n, k = 11 * bm, 24 * bn, it * bk
                a, b = tg.random_inputs(m, n, k, dt, "cuda", 7, lay[0], lay[1])
                ref = (a.float() @ b.float()) if it == LAYOUT_PAIR_ITERATIONS[0] else None
                for variant in VARIANTS:
                    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
                    t1, t2, err = timed(launcher(variant, a, b, c, bm, bn, bk, w, st), c, ref)
                    rows.append(dict(variant=variant, dtype=dt, block_m=bm, block_n=bn, block_k=bk, num_warps=w,
                                     num_stages=st, a_major=lay[0], b_major=lay[1], m=m, n=n, k=k, time_ms=t1,
                                     time_ms_2=t2, rel_error=err))  # fmt: skip
                    print(rows[-1], flush=True)
    write_csv(out / "variants.csv", rows)


if __name__ == "__main__":
    main()
