"""A Triton GEMM parameterized like roofmodel's model: BLOCK_M/N/K, GROUP_M, warps, stages, and the
operands' layouts.

fp16/bf16 run on tensor cores; fp32 with ``input_precision="ieee"`` on CUDA cores (FFMA); tf32 on
tensor cores with tf32 inputs; fp8 (e4m3) on tensor cores, writing bf16 (as roofmodel.model.problem
assumes). GROUP_M orders the tiles as Triton's tutorial does (roofmodel's ``grouped:G``; 1 is
row-major). ``a_major`` / ``b_major`` name the dimension that is contiguous in memory: A is (M, K)
with ``k`` (row-major, the default) or ``m``; B is (K, N) with ``n`` (row-major, what
``torch.matmul`` of two contiguous tensors hands a kernel) or ``k`` (``w.t()`` of an (N, K)
weight). The kernel reads through strides, so one kernel serves every layout; Triton specializes on
which stride is 1.

Correct first: every run is checked against a float64 reference on random inputs, with the output
poisoned (NaN) beforehand so that an unwritten element fails. Works under TRITON_INTERPRET=1 on
the CPU for correctness tests at small sizes (not fp8 or bf16: numpy has neither).
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "tf32": "float32", "fp8": "float8_e4m3fn"}
OUT_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "tf32": "float32", "fp8": "bfloat16"}
PRECISION = {"fp16": "tf32", "bf16": "tf32", "fp32": "ieee", "tf32": "tf32", "fp8": "tf32"}  # only fp32 reads it
TOLERANCE = {"fp16": 1e-2, "bf16": 2e-2, "fp32": 1e-5, "tf32": 3e-3, "fp8": 2e-2}
A_MAJORS = ("k", "m")
B_MAJORS = ("n", "k")


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


def kernel_arguments(a: Any, b: Any, c: Any, dtype: str, block_m: int, block_n: int, block_k: int, group_m: int,
                     num_warps: int, num_stages: int, maxnreg: int | None = None) -> tuple[tuple[Any, ...], dict[str, Any], tuple[int]]:  # fmt: skip
    """(positional arguments, keyword arguments, grid) of one launch on tensors a (M, K), b (K, N);
    ``maxnreg``: Triton's cap on registers per thread (ptxas spills past it), none by default."""
    m, k = a.shape
    _, n = b.shape
    grid = (math.ceil(m / block_m) * math.ceil(n / block_n),)
    args = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    kwargs = dict(BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=group_m, PRECISION=PRECISION[dtype],
                  num_warps=num_warps, num_stages=num_stages)  # fmt: skip
    if maxnreg is not None:
        kwargs["maxnreg"] = maxnreg
    return args, kwargs, grid


def launch(a: Any, b: Any, c: Any, dtype: str, block_m: int, block_n: int, block_k: int, group_m: int,
           num_warps: int, num_stages: int, kernel: Any = None, maxnreg: int | None = None) -> Any:  # fmt: skip
    """One launch; returns Triton's compiled kernel (registers, spills and shared memory in it).
    ``kernel``: another JIT object of the same function (one compiled under other settings)."""
    args, kwargs, grid = kernel_arguments(a, b, c, dtype, block_m, block_n, block_k, group_m, num_warps, num_stages,
                                          maxnreg)  # fmt: skip
    return (kernel or _matmul_kernel)[grid](*args, **kwargs)


def compiled_facts(compiled: Any) -> dict[str, Any]:
    """Registers per thread, spilled registers, shared memory bytes and the MMA instruction family
    of a compiled kernel (read from its PTX: wgmma, mma.sync or fma)."""
    init = getattr(compiled, "_init_handles", None)  # loads the binary, which fills n_regs / n_spills
    if callable(init):
        init()
    meta = getattr(compiled, "metadata", None)
    ptx = ""
    asm = getattr(compiled, "asm", None)
    if isinstance(asm, dict):
        ptx = asm.get("ptx", "") or ""
        if isinstance(ptx, bytes):
            ptx = ptx.decode(errors="replace")
    family = "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else "fma" if ptx else ""
    return {
        "registers_per_thread": int(getattr(compiled, "n_regs", 0) or 0),
        "spilled_registers": int(getattr(compiled, "n_spills", 0) or 0),
        "shared_bytes": int(getattr(meta, "shared", 0) or 0),
        "instruction": family,
    }


def layout(x: Any, contiguous_dim: int) -> Any:
    """The same matrix with dimension ``contiguous_dim`` (0 or 1) contiguous in memory."""
    return x.contiguous() if contiguous_dim == 1 else x.t().contiguous().t()


def random_inputs(m: int, n: int, k: int, dtype: str, device: str, seed: int, a_major: str = "k",
                  b_major: str = "n") -> tuple[Any, Any]:  # fmt: skip
    """Random normal A (M, K) and B (K, N) in ``dtype``, laid out as ``a_major`` / ``b_major`` say."""
    import torch

    if a_major not in A_MAJORS or b_major not in B_MAJORS:
        raise ValueError(f"a_major must be one of {A_MAJORS} and b_major one of {B_MAJORS}")
    g = torch.Generator(device=device).manual_seed(seed)
    t = getattr(torch, TORCH_DTYPES[dtype])
    a = torch.randn((m, k), generator=g, device=device, dtype=torch.float32).to(t)
    b = torch.randn((k, n), generator=g, device=device, dtype=torch.float32).to(t)
    return layout(a, 1 if a_major == "k" else 0), layout(b, 1 if b_major == "n" else 0)


def output_for(a: Any, b: Any, dtype: str) -> Any:
    """C (M, N), row-major, in the GEMM's output dtype, poisoned with NaN."""
    import torch

    return torch.full((a.shape[0], b.shape[1]), float("nan"), device=a.device, dtype=getattr(torch, OUT_DTYPES[dtype]))


def reference(a: Any, b: Any) -> Any:
    """A @ B in float64 from the (rounded) inputs."""
    return a.double() @ b.double()


def check(a: Any, b: Any, c: Any, ref: Any = None) -> float:
    """||c - ref|| / ||ref|| against a float64 product of the same (rounded) inputs; NaN fails."""
    import torch

    ref = reference(a, b) if ref is None else ref
    err = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
    return err if math.isfinite(err) else float("inf")


def run_config(m: int, n: int, k: int, dtype: str, block_m: int, block_n: int, block_k: int, group_m: int,
               num_warps: int, num_stages: int, device: str = "cuda", time_it: bool = True,
               seed: int = 0, a_major: str = "k", b_major: str = "n") -> dict[str, Any]:  # fmt: skip
    """Check, then time (median of do_bench), one configuration. Raises ValueError if wrong."""
    a, b = random_inputs(m, n, k, dtype, device, seed, a_major, b_major)
    c = output_for(a, b, dtype)
    cfg = dict(dtype=dtype, block_m=block_m, block_n=block_n, block_k=block_k, group_m=group_m,
               num_warps=num_warps, num_stages=num_stages)  # fmt: skip
    compiled = launch(a, b, c, **cfg)
    err = check(a, b, c)
    if not err <= TOLERANCE[dtype]:
        raise ValueError(f"wrong result: relative error {err:.3g} > {TOLERANCE[dtype]} for {cfg}")
    out: dict[str, Any] = {"rel_error": err, **compiled_facts(compiled)}
    if time_it:
        ms = triton.testing.do_bench(lambda: launch(a, b, c, **cfg), warmup=25, rep=100, return_mode="median")
        out["time_ms"] = ms
        out["tflops"] = 2.0 * m * n * k / (ms * 1e-3) / 1e12
    return out
