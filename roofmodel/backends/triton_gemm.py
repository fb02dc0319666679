"""A Triton GEMM parameterized like roofmodel's model: BLOCK_M/N/K, GROUP_M, warps, stages.

fp16/bf16 run on tensor cores; fp32 with ``input_precision="ieee"`` on CUDA cores (FFMA); tf32 on
tensor cores with tf32 inputs. GROUP_M orders the tiles as Triton's tutorial does (roofmodel's
``grouped:G``; 1 is row-major). Correct first: every run is checked against a float64 reference
on fresh random inputs, with the output poisoned (NaN) beforehand so that an unwritten element
fails. Works under TRITON_INTERPRET=1 on the CPU for correctness tests at small sizes.
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "tf32": "float32"}
PRECISION = {"fp16": "tf32", "bf16": "tf32", "fp32": "ieee", "tf32": "tf32"}  # fp16/bf16 ignore it
TOLERANCE = {"fp16": 1e-2, "bf16": 2e-2, "fp32": 1e-5, "tf32": 3e-3}


@triton.jit
def _matmul_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    PRECISION: tl.constexpr,
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
        k_left = K - kk * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def launch(a: Any, b: Any, c: Any, dtype: str, block_m: int, block_n: int, block_k: int, group_m: int,
           num_warps: int, num_stages: int) -> Any:  # fmt: skip
    """One launch; returns Triton's compiled kernel (registers and shared memory in its metadata)."""
    m, k = a.shape
    _, n = b.shape
    grid = (math.ceil(m / block_m) * math.ceil(n / block_n),)
    return _matmul_kernel[grid](
        a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=group_m, PRECISION=PRECISION[dtype],
        num_warps=num_warps, num_stages=num_stages,
    )  # fmt: skip


def random_inputs(m: int, n: int, k: int, dtype: str, device: str, seed: int) -> tuple[Any, Any]:
    import torch

    g = torch.Generator(device=device).manual_seed(seed)
    t = getattr(torch, TORCH_DTYPES[dtype])
    a = torch.randn((m, k), generator=g, device=device, dtype=torch.float32).to(t)
    b = torch.randn((k, n), generator=g, device=device, dtype=torch.float32).to(t)
    return a, b


def check(a: Any, b: Any, c: Any) -> float:
    """||c - ref|| / ||ref|| against a float64 product of the same (rounded) inputs; NaN fails."""
    import torch

    ref = a.double() @ b.double()
    err = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
    return err if math.isfinite(err) else float("inf")


def run_config(m: int, n: int, k: int, dtype: str, block_m: int, block_n: int, block_k: int, group_m: int,
               num_warps: int, num_stages: int, device: str = "cuda", time_it: bool = True,
               seed: int = 0) -> dict[str, Any]:  # fmt: skip
    """Check, then time (median of do_bench), one configuration. Raises ValueError if wrong."""
    import torch

    a, b = random_inputs(m, n, k, dtype, device, seed)
    c = torch.full((m, n), float("nan"), device=device, dtype=a.dtype)
    cfg = dict(dtype=dtype, block_m=block_m, block_n=block_n, block_k=block_k, group_m=group_m,
               num_warps=num_warps, num_stages=num_stages)  # fmt: skip
    compiled = launch(a, b, c, **cfg)
    err = check(a, b, c)
    if not err <= TOLERANCE[dtype]:
        raise ValueError(f"wrong result: relative error {err:.3g} > {TOLERANCE[dtype]} for {cfg}")
    out: dict[str, Any] = {"rel_error": err, "registers_per_thread": int(getattr(compiled, "n_regs", 0) or 0)}
    meta = getattr(compiled, "metadata", None)
    out["shared_bytes"] = int(getattr(meta, "shared", 0) or 0)
    if time_it:
        # Fresh inputs for timing (the checked ones stay cached in L2 otherwise only for tiny sizes).
        a, b = random_inputs(m, n, k, dtype, device, seed + 1)
        ms = triton.testing.do_bench(lambda: launch(a, b, c, **cfg), warmup=50, rep=200, return_mode="median")
        out["time_ms"] = ms
        out["tflops"] = 2.0 * m * n * k / (ms * 1e-3) / 1e12
    return out
