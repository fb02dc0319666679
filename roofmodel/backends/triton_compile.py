"""Compile roofmodel's Triton matmul for a machine's architecture on the CPU (no GPU) and read what ptxas did:
registers per thread, spilled registers, shared memory and the MMA family.

The register rule (roofmodel.model.footprint) guesses the allocation from the tile; near the per-thread limit
ptxas decides by details the rule does not see (docs/measurements/compile-study/README.md: fp16 32x128x32 on 2
warps, both operands element-wise, 7000x1800x2500, goes to 32 registers and 650 spilled with A and B K-major and
keeps 216 registers with B N-major; with M or N a multiple of 16 neither collapses). Compiling answers it: Triton's
own front end with its JIT specialization of the arguments (an integer equal to 1 is a constant, one divisible by
16 is marked so; the pointers 16-byte aligned, as torch allocates) and its own ptxas run with its own options;
the registers and the stack frame (whose 4-byte words are Triton's ``n_spills``) are read from the cubin it built
(``cuobjdump --dump-resource-usage``, which Triton's wheel carries).

The counts are the installed Triton's: Triton 3.6 on a CPU gave the H100 sweeps' compiled counts exactly for every
kernel checked (docs/measurements/compile-study/README.md); Triton 3.9 (ptxas 13.4) allocates differently near
the collapse point (the kernel above: 255 registers and 56 spilled). Needs the ``triton`` package (``pip install
triton``), imported only here.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from roofmodel.errors import BackendUnavailableError, ProblemError
from roofmodel.machine import Machine
from roofmodel.model.kernel import KernelConfig
from roofmodel.model.problem import Gemm
from roofmodel.results import CompiledCounts

POINTER = {"fp16": "*fp16", "bf16": "*bf16", "fp32": "*fp32", "tf32": "*fp32", "fp8": "*fp8e4nv"}
OUTPUT = {"fp16": "*fp16", "bf16": "*bf16", "fp32": "*fp32", "tf32": "*fp32", "fp8": "*bf16"}


@dataclass(frozen=True)
class CompileJob:
    """One kernel of roofmodel's Triton matmul (roofmodel.backends.triton_gemm) on one problem."""

    m: int
    n: int
    k: int
    dtype: str
    block_m: int
    block_n: int
    block_k: int
    num_warps: int
    num_stages: int
    a_major: str = "k"
    b_major: str = "n"
    group_m: int = 8
    maxnreg: int | None = None


def require_triton() -> None:
    """Raise BackendUnavailableError unless the triton package is installed (no GPU needed)."""
    import importlib.util

    if importlib.util.find_spec("triton") is None:
        raise BackendUnavailableError("compiling needs Triton's compiler: pip install triton (no GPU needed)")


def compile_capability(machine: Machine) -> int:
    """The NVIDIA compute capability as Triton's target takes it (9.0 -> 90); a ProblemError for another vendor."""
    cc = machine.nvidia_capability
    if cc is None:
        raise ProblemError(
            f"--compile: {machine.name} is not an NVIDIA GPU ({machine.target}); ptxas compiles for sm_*"
        )
    return 10 * cc[0] + cc[1]


def ptxas_for(capability: int) -> Any:
    """The ptxas Triton itself runs for the target (its NvidiaTool: ``path``, ``version``)."""
    from triton.backends.nvidia.compiler import get_ptxas

    return get_ptxas(capability)


def gpu_name(capability: int) -> str:
    """ptxas's target: sm_90a for 9.0 (Triton compiles the architecture-specific form from Hopper on), sm_80 for 8.0."""
    return f"sm_{capability}{'a' if capability >= 90 else ''}"


def mma_family(ptx: str) -> str:
    """The MMA instruction family a kernel's PTX uses: tcgen05 (tcgen05.2sm where a CTA pair issues it,
    cta_group::2), wgmma, mma.sync, else fma."""
    if "tcgen05.mma" in ptx:
        return "tcgen05.2sm" if "tcgen05.mma.cta_group::2" in ptx else "tcgen05"
    return "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else "fma"


def compile_counts(job: CompileJob, capability: int) -> CompiledCounts:
    """What ptxas allocates for ``job`` on ``capability`` (e.g. 90), through Triton's compile (no GPU)."""
    import triton
    from triton.backends.compiler import GPUTarget

    from roofmodel.backends import triton_gemm as tg

    if job.dtype not in POINTER:
        raise ProblemError(f"--compile: no Triton kernel for dtype {job.dtype}")
    fn = tg._matmul_kernel
    names = fn.arg_names
    sam, sak = (job.k, 1) if job.a_major == "k" else (1, job.m)
    sbk, sbn = (job.n, 1) if job.b_major == "n" else (1, job.k)
    ints = {"M": job.m, "N": job.n, "K": job.k, "stride_am": sam, "stride_ak": sak, "stride_bk": sbk,
            "stride_bn": sbn, "stride_cm": job.n, "stride_cn": 1}  # fmt: skip
    sig = {"a_ptr": POINTER[job.dtype], "b_ptr": POINTER[job.dtype], "c_ptr": OUTPUT[job.dtype]}
    const = {"BLOCK_M": job.block_m, "BLOCK_N": job.block_n, "BLOCK_K": job.block_k, "GROUP_M": job.group_m,
             "PRECISION": tg.PRECISION[job.dtype]}  # fmt: skip
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in ("a_ptr", "b_ptr", "c_ptr")}
    for name, value in ints.items():
        if value == 1:
            const[name] = 1
        else:
            sig[name] = "i32"
            if value % 16 == 0:
                attrs[(names.index(name),)] = [["tt.divisibility", 16]]
    sig = {p: sig.get(p, "constexpr") for p in names}
    src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs={(names.index(c),): v for c, v in const.items()},
                                    attrs=attrs)  # fmt: skip
    # FP fusion as Triton 3.6 compiles by default (the measured sweeps'); said, so that Triton 3.9 does not warn.
    options: dict[str, Any] = {"num_warps": job.num_warps, "num_stages": job.num_stages, "enable_fp_fusion": True}
    if job.maxnreg:
        options["maxnreg"] = job.maxnreg
    try:
        # Triton prints the whole PTX to stdout where ptxas fails: kept off roofmodel's output.
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            kernel = triton.compile(src, target=GPUTarget("cuda", capability, 32), options=options)
    except Exception as exc:  # Triton's own refusal (a layout it cannot lower, ptxas out of registers)
        raise ProblemError(f"--compile: Triton refused {describe(job)}: {refusal_reason(str(exc))}") from None
    ptx = kernel.asm["ptx"]
    registers, stack_bytes = cubin_resources(kernel.asm["cubin"])
    return CompiledCounts(
        registers=registers, spilled=stack_bytes // 4, shared_bytes=int(getattr(kernel.metadata, "shared", 0) or 0),
        instruction=mma_family(ptx), target=gpu_name(capability), triton=triton.__version__,
        ptxas=str(ptxas_for(capability).version),
    )  # fmt: skip


def refusal_reason(text: str) -> str:
    """The line of a Triton compile error that says why (ptxas's ``error`` line, not its repro command), at
    most 200 characters."""
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    ptxas = [x for x in lines if re.match(r"ptxas(-[\w-]+)?\s+(error|fatal)\b", x)]  # ptxas's own, lower case
    said = ptxas or [x for x in lines if "error" in x.lower() and not x.lower().startswith("repro")]
    return " ".join((said[0] if said else lines[-1] if lines else "no reason given").split())[:200]


def cubin_resources(cubin: bytes) -> tuple[int, int]:
    """(registers per thread, stack frame bytes) of the kernel in the cubin Triton built, as ptxas allocated
    them with Triton's own options (``cuobjdump --dump-resource-usage``; Triton's ``n_spills`` is the frame / 4)."""
    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
    try:
        out = subprocess.run([tool, "--dump-resource-usage", f.name], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        said = " ".join((getattr(exc, "stderr", None) or str(exc)).split())
        raise BackendUnavailableError(f"--compile: cuobjdump ({tool}) failed: {said[-200:]}") from None
    finally:
        os.unlink(f.name)
    regs, stack = re.search(r"REG:(\d+)", out), re.search(r"STACK:(\d+)", out)
    if regs is None or stack is None:
        raise BackendUnavailableError(f"--compile: cuobjdump gave no register count: {' '.join(out.split())[-200:]}")
    return int(regs.group(1)), int(stack.group(1))


def job_for(gemm: Gemm, config: KernelConfig, a_major: str, b_major: str) -> CompileJob:
    """The compile of a ``--kernel triton`` configuration on a problem (its raster gives GROUP_M)."""
    from roofmodel.model.kernel import triton_group_m

    if config.compiler != "triton":
        raise ProblemError(
            "compiling takes roofmodel's Triton matmul: give --kernel triton (predict --compile) or --space triton (tune)"
        )
    if gemm.dtype not in POINTER:
        raise ProblemError(f"--compile: roofmodel's Triton matmul takes {', '.join(POINTER)}, not {gemm.dtype}")
    if (gemm.accumulator or "fp32") != "fp32":
        raise ProblemError(f"--compile: roofmodel's Triton matmul accumulates in fp32, not {gemm.accumulator}")
    return CompileJob(m=gemm.m, n=gemm.n, k=gemm.k, dtype=gemm.dtype, block_m=config.bm, block_n=config.bn,
                      block_k=config.bk, num_warps=config.warps, num_stages=config.stages, a_major=a_major,
                      b_major=b_major, group_m=triton_group_m(config.raster))  # fmt: skip


def compile_configs(machine: Machine, gemm: Gemm, configs: Sequence[KernelConfig], a_major: str, b_major: str,
                    processes: int | None = None) -> list[CompiledCounts | str]:  # fmt: skip
    """compile_many of Triton configurations on ``gemm`` for ``machine``'s architecture."""
    capability = compile_capability(machine)
    return compile_many([job_for(gemm, c, a_major, b_major) for c in configs], capability, processes)


def compiler_for(machine: Machine | str, gemm: Gemm, a_major: str = "k", b_major: str = "n") -> Callable[..., Any]:
    """The compiler ``tune --compile-top`` hands the search (roofmodel.search.space.tune_report, roofmodel.tune):
    configurations -> compile_configs on ``gemm`` for ``machine``'s architecture."""
    from roofmodel.machine import as_machine

    mach = as_machine(machine)
    require_triton()
    compile_capability(mach)

    def compile_these(configs: list[KernelConfig]) -> list[CompiledCounts | str]:
        return compile_configs(mach, gemm, configs, a_major, b_major)

    return compile_these


def describe(job: CompileJob) -> str:
    return (f"{job.dtype} {job.block_m}x{job.block_n}x{job.block_k} on {job.num_warps} warps, {job.num_stages} "
            f"stages, {job.m}x{job.n}x{job.k}")  # fmt: skip


def _one(args: tuple[CompileJob, int]) -> CompiledCounts | str:
    try:
        return compile_counts(*args)
    except ProblemError as exc:
        return str(exc)


def compile_many(
    jobs: Sequence[CompileJob], capability: int, processes: int | None = None
) -> list[CompiledCounts | str]:
    """compile_counts of each job, in ``processes`` worker processes (default: the CPUs); a job Triton refuses
    gives its one-line reason instead of counts."""
    require_triton()
    if len(jobs) <= 1:
        return [_one((j, capability)) for j in jobs]
    with ProcessPoolExecutor(min(len(jobs), processes or os.cpu_count() or 1)) as pool:
        return list(pool.map(_one, [(j, capability) for j in jobs]))
