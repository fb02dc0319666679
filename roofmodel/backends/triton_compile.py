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


def compile_kernel(
    job: CompileJob, capability: int, kernel: Any = None, constants: dict[str, Any] | None = None
) -> Any:
    """Triton's compiled kernel for ``job`` on ``capability`` (e.g. 90), no GPU: its ``asm`` holds the PTX and the
    cubin; a ProblemError where Triton refuses it. ``kernel``: another JIT function with the matmul's arguments
    (roofmodel.backends.triton_gemm's by default), ``constants`` its own constexpr values beside the tile's."""
    import triton
    from triton.backends.compiler import GPUTarget

    from roofmodel.backends import triton_gemm as tg

    if job.dtype not in POINTER:
        raise ProblemError(f"--compile: no Triton kernel for dtype {job.dtype}")
    fn = tg._matmul_kernel if kernel is None else kernel
    names = fn.arg_names
    sam, sak = (job.k, 1) if job.a_major == "k" else (1, job.m)
    sbk, sbn = (job.n, 1) if job.b_major == "n" else (1, job.k)
    ints = {"M": job.m, "N": job.n, "K": job.k, "stride_am": sam, "stride_ak": sak, "stride_bk": sbk,
            "stride_bn": sbn, "stride_cm": job.n, "stride_cn": 1}  # fmt: skip
    sig = {"a_ptr": POINTER[job.dtype], "b_ptr": POINTER[job.dtype], "c_ptr": OUTPUT[job.dtype]}
    const = {"BLOCK_M": job.block_m, "BLOCK_N": job.block_n, "BLOCK_K": job.block_k, "GROUP_M": job.group_m,
             **({"PRECISION": tg.PRECISION[job.dtype]} if "PRECISION" in names else {}), **(constants or {})}  # fmt: skip
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
    return kernel


def compiled_main_loop(job: CompileJob, capability: int, kernel: Any = None,
                       constants: dict[str, Any] | None = None) -> list[str]:  # fmt: skip
    """The main loop's SASS instructions of ``job`` compiled for ``capability`` (compile_kernel's ``kernel`` and
    ``constants``; main_loop): empty where no loop with an MMA was found."""
    return main_loop(cuobjdump(compile_kernel(job, capability, kernel, constants).asm["cubin"], "-sass")) or []


def compile_counts(job: CompileJob, capability: int) -> CompiledCounts:
    """What ptxas allocates for ``job`` on ``capability`` (e.g. 90), through Triton's compile (no GPU)."""
    import triton

    kernel = compile_kernel(job, capability)
    ptx, cubin = kernel.asm["ptx"], kernel.asm["cubin"]
    registers, stack_bytes = cubin_resources(cubin)
    family = mma_family(ptx)
    # The SASS is read where it tells something: a spilling loop's local traffic, a wgmma loop's waits. Without a stack
    # there is no local traffic, whatever the loop.
    body = main_loop(cuobjdump(cubin, "-sass")) if stack_bytes or family == "wgmma" else []
    loop: tuple[int, int] | None = (0, 0)
    waits: int | None = 0
    if stack_bytes:
        loop = None if body is None else loop_local_bytes(body)
        waits = None if body is None else local_reload_waits(body)
    wgmma = wgmma_waits(body or [])
    return CompiledCounts(
        registers=registers, spilled=stack_bytes // 4, shared_bytes=int(getattr(kernel.metadata, "shared", 0) or 0),
        instruction=family, target=gpu_name(capability), triton=triton.__version__,
        ptxas=str(ptxas_for(capability).version),
        loop_local_load_bytes=None if loop is None else loop[0],
        loop_local_store_bytes=None if loop is None else loop[1], loop_local_waits=waits,
        wgmma_waits_each=min(wgmma) == 0 if wgmma else None,
    )  # fmt: skip


def refusal_reason(text: str) -> str:
    """The line of a Triton compile error that says why (ptxas's ``error`` line, not its repro command), at
    most 200 characters."""
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    ptxas = [x for x in lines if re.match(r"ptxas(-[\w-]+)?\s+(error|fatal)\b", x)]  # ptxas's own, lower case
    said = ptxas or [x for x in lines if "error" in x.lower() and not x.lower().startswith("repro")]
    return " ".join((said[0] if said else lines[-1] if lines else "no reason given").split())[:200]


def cuobjdump(cubin: bytes, flag: str) -> str:
    """The text ``cuobjdump <flag>`` (``--dump-resource-usage``, ``-sass``) gives for a cubin, with the cuobjdump
    Triton's wheel carries."""
    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
    try:
        return subprocess.run([tool, flag, f.name], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        said = " ".join((getattr(exc, "stderr", None) or str(exc)).split())
        raise BackendUnavailableError(f"--compile: cuobjdump ({tool}) failed: {said[-200:]}") from None
    finally:
        os.unlink(f.name)


def cubin_resources(cubin: bytes) -> tuple[int, int]:
    """(registers per thread, stack frame bytes) of the kernel in the cubin Triton built, as ptxas allocated
    them with Triton's own options (``cuobjdump --dump-resource-usage``; Triton's ``n_spills`` is the frame / 4)."""
    out = cuobjdump(cubin, "--dump-resource-usage")
    regs, stack = re.search(r"REG:(\d+)", out), re.search(r"STACK:(\d+)", out)
    if regs is None or stack is None:
        raise BackendUnavailableError(f"--compile: cuobjdump gave no register count: {' '.join(out.split())[-200:]}")
    return int(regs.group(1)), int(stack.group(1))


# SASS instructions of the matrix units (Hopper's warpgroup HGMMA/QGMMA/IGMMA, mma.sync's HMMA/IMMA, Blackwell's
# UTC*MMA) and the FMA path's FFMA: what marks a kernel's main loop.
_MMA_SASS = re.compile(r"\b(?:[HQI]GMMA|HMMA|IMMA|UTC\w*MMA|FFMA2?)\b")
# A branch and its target: ``BRA 0x2ef0``, and Blackwell's uniform-predicate form ``BRA.U UP0, 0x20f0``.
_BRANCH = re.compile(r"\bBRA(?:\.\w+)*\s+(?:!?U?P[T\d]+\s*,\s*)?(?:`\()?(0x[0-9a-f]+)")
_LOCAL_SASS = re.compile(r"\b(LDL|STL)((?:\.\w+)*)")
_WIDTH_BYTES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}


def sass_instructions(sass: str) -> list[tuple[int, str]]:
    """(address, instruction text without its predicate's trailing ``;``) of each line of ``cuobjdump -sass``."""
    found = re.findall(r"^\s*/\*([0-9a-f]{4,})\*/\s+([^;]*);", sass, flags=re.MULTILINE)
    return [(int(a, 16), op.strip()) for a, op in found]


def local_access_bytes(op: str) -> tuple[int, int]:
    """(bytes loaded, bytes stored) per thread by one SASS instruction: an LDL or STL moves 4 bytes, or its
    width suffix's (.64: 8, .128: 16, .U8: 1, ...); anything else 0."""
    hit = _LOCAL_SASS.search(op)
    if hit is None:
        return 0, 0
    size = next((_WIDTH_BYTES[x] for x in hit.group(2).split(".") if x in _WIDTH_BYTES), 4)
    return (size, 0) if hit.group(1) == "LDL" else (0, size)


def main_loop(sass: str) -> list[str] | None:
    """The instructions of the kernel's main loop, in order: those between the target of a backward branch and
    the branch, for the loop that holds the most MMA instructions (its K loop; Triton does not unroll it). None
    where the SASS has no loop with an MMA."""
    code = sass_instructions(sass)
    best: tuple[int, list[str]] | None = None
    for i, (address, op) in enumerate(code):
        branch = _BRANCH.search(op)
        if branch is None or int(branch.group(1), 16) >= address:
            continue
        start = int(branch.group(1), 16)
        body = [o for a, o in code[: i + 1] if a >= start]
        mma = sum(1 for o in body if _MMA_SASS.search(o))
        if mma and (best is None or mma > best[0]):
            best = (mma, body)
    return None if best is None else best[1]


def loop_opcodes(body: list[str]) -> dict[str, int]:
    """How many instructions of each opcode (its first part: ``LDS`` of ``LDS.128``, predicates dropped) a loop
    body (main_loop) issues per pass."""
    out: dict[str, int] = {}
    for op in body:
        words = op.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if words:
            name = words[0].split(".")[0]
            out[name] = out.get(name, 0) + 1
    return out


def loop_local_bytes(body: list[str]) -> tuple[int, int]:
    """(local-memory bytes loaded, bytes stored) per thread by a loop's instructions: its LDL and STL."""
    loaded = stored = 0
    for op in body:
        ld, st = local_access_bytes(op)
        loaded, stored = loaded + ld, stored + st
    return loaded, stored


def main_loop_local_bytes(sass: str) -> tuple[int, int] | None:
    """loop_local_bytes of the kernel's main loop (main_loop); None where it has none. Nsight Compute's executed
    local loads and stores per warp and iteration match these counts on 16 spilling H100 kernels, the loads
    within 2%, the stores within 10% (docs/measurements/compile-study/README.md; the rest is the prologue and
    epilogue)."""
    body = main_loop(sass)
    return None if body is None else loop_local_bytes(body)


_REGISTER = re.compile(r"(?<![\w.])R(\d+)((?:\.\w+)*)")
# Instructions whose register operands are all read (stores, barriers, branches): no destination.
_NO_DESTINATION = re.compile(r"^(?:ST\w*|LDGSTS|RED|ATOM\w*|BAR|BRA|EXIT|WARPSYNC|DEPBAR|ARRIVES|SYNCS)\b")


def _registers(text: str, width: int = 1) -> set[int]:
    """The registers an operand names: R<n>, and the pair (``.64``) or quad (``.128``) it starts, or ``width``."""
    out: set[int] = set()
    for n, suffix in _REGISTER.findall(text):
        w = 2 if ".64" in suffix else 4 if ".128" in suffix else 1
        out.update(range(int(n), int(n) + max(w, width)))
    return out


def _mma_widths(opcode: str) -> tuple[int, int, int]:
    """Registers per thread of an MMA's accumulator, A and B operands (the SASS names each by its first):
    HGMMA.64xNxK.F32 holds N / 2 accumulators (F16: N / 4) and reads A from registers in 4 where it does;
    mma.sync's HMMA.16816 (and the tf32 m16n8k8) 4 / 4 / 2, HMMA.1688 with 16-bit inputs 4 / 2 / 1."""
    hit = re.match(r"[HQI]GMMA\.64x(\d+)x\d+\.(\w+)", opcode)
    if hit:
        return int(hit.group(1)) // (2 if hit.group(2) in ("F32", "S32") else 4), 4, 0
    wide = "16816" in opcode or "16832" in opcode or "TF32" in opcode
    return (4, 4, 2) if wide else (4, 2, 1)


def operands_written_read(op: str) -> tuple[str, set[int], set[int]]:
    """(opcode, registers written, registers read) of one SASS instruction, its predicate dropped. An MMA
    accumulates: it reads the registers it writes; a 64-bit load writes a pair, a 128-bit one a quad."""
    op = re.sub(r"^@!?U?P\w+\s+", "", op)
    opcode, _, rest = op.partition(" ")
    parts = [p.strip() for p in rest.split(",")] if rest else []
    width = 4 if ".128" in opcode else 2 if ".64" in opcode or ".WIDE" in opcode else 1
    if not parts or _NO_DESTINATION.match(opcode):
        # A store's data is as wide as the store; its address is what the brackets name.
        addresses = "".join(re.findall(r"\[[^\]]*\]", rest))
        return opcode, set(), _registers(addresses) | _registers(re.sub(r"\[[^\]]*\]", "", rest), width)
    if _MMA_SASS.search(opcode) and not opcode.startswith("FFMA"):
        acc, a, b = _mma_widths(opcode)
        written = _registers(parts[0], acc)
        widths = [a, b, acc] if len(parts) > 3 else [0, acc]
        read = set(written)
        for part, width in zip(parts[1:], widths, strict=False):
            read |= _registers(part, width)
        return opcode, written, read
    if opcode.startswith("LDSM"):  # ldmatrix: .x2 / .x4 write 2 / 4 registers (LDSM.16.M88.4)
        width = int(opcode.rsplit(".", 1)[1]) if opcode.rsplit(".", 1)[1] in ("2", "4") else 1
    read = _registers(",".join(parts[1:]))
    if ".WIDE" in opcode and len(parts) > 3:  # IMAD.WIDE d, a, b, c: the addend c is a 64-bit pair
        read |= _registers(parts[-1], 2)
    return opcode, _registers(parts[0], width), read


def local_reload_waits(body: list[str]) -> int:
    """How many times per pass of the main loop a warp waits on its own local reloads, issuing in order: each
    instruction that reads or overwrites a register an LDL has loaded and nothing has waited on since is one
    wait, after which every LDL issued before it has arrived (each takes the same round trip). The reloads
    issued between two waits are in flight together; a warp that waits after every reload pays the round trip
    each time. Counted on the second of two passes, so that a reload used in the next iteration counts."""
    pending: set[int] = set()
    waits = 0
    for second in (False, True):
        for op in body:
            opcode, written, read = operands_written_read(op)
            if pending & (read | written):
                waits += second
                pending.clear()
            if opcode.startswith("LDL"):
                pending |= written
    return waits


_WGMMA_WAIT = re.compile(r"\bWARPGROUP\.DEPBAR\.LE\s+gsb0\s*,\s*(0x[0-9a-f]+)")


def wgmma_waits(body: list[str]) -> list[int]:
    """The pending wgmma groups each wait of a loop body (main_loop) leaves in flight, in order
    (``WARPGROUP.DEPBAR.LE gsb0, N``): [1] where the loop keeps one group in flight across iterations, as Triton
    pipelines its wgmma; a 0 after each wgmma where every one is waited on before the next issues. Empty for a loop
    without wgmma."""
    return [int(m.group(1), 16) for op in body if (m := _WGMMA_WAIT.search(op))]


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
