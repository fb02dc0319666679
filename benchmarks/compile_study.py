"""On the CPU: what ptxas does with Triton matmuls of shapes no measurement holds, to choose the register
rule's spill and collapse points without looking at the measured sweeps (issue 13: from `predict`, the
fresh samples' worst first picks were kernels whose operands are loaded one element at a time and that
spilled or went to the stack where the rule said they would not).

Draws configurations at random (M, N, K in 1000..6000, multiples of 8, so that about half of them are not
multiples of 16 and their operands are loaded one element at a time; the tile, warps, stages, dtype and
layouts as the broad sweep draws them: ``--space wgmma`` BLOCK_M >= 64 on 4 or 8 warps, ``--space
mma.sync`` 2 warps or BLOCK_M <= 32), compiles each for sm_90a with Triton's JIT specialization (an integer
argument equal to 1 is a constant, one divisible by 16 is marked so), and runs the ptxas Triton ships
(``ptxas -v``) for the registers per thread and the stack frame (Triton's ``n_spills`` is the frame / 4).
The kernel is roofmodel.backends.triton_gemm's. Writes one CSV row per kernel.

No GPU needed. The ptxas is the one the installed Triton runs for sm_90a (roofmodel.backends.triton_compile): with Triton 3.6, the
toolchain of every measured sweep, the counts equal the device's for 120 of 120 H100 sweep kernels drawn at
random; Triton 3.9's ptxas (CUDA 13.4) differs near the collapse point. ``--recompile CSV`` compiles a study's
kernels again with the installed Triton (docs/measurements/compile-study/README.md).

Run (CPU): python benchmarks/compile_study.py --space wgmma --seed 1 --count 120 OUT.csv
           python benchmarks/compile_study.py --space mma.sync --near-collapse --seed 21 --count 150 OUT.csv
           python benchmarks/compile_study.py --check-against docs/measurements/h100-2026-11-26/fresh5/broad.csv OUT.csv
           python benchmarks/compile_study.py --loop-local docs/measurements/h100-2026-11-23/broad.csv \
               docs/measurements/h100-2026-11-23/loop_local.csv
The committed study (docs/measurements/compile-study/) was drawn by an earlier form of this script, with the
same ranges and compile but another draw order: a run gives another sample of the same space, not those
rows (compile_counts reproduces each committed row's counts). Neither space draws 1 warp, nor BK 16 for 16-bit types.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BLOCK_K = {"fp16": (32, 64, 128), "bf16": (32, 64, 128), "tf32": (16, 32, 64), "fp8": (64, 128, 256)}
ELEMENT = {"fp16": 2, "bf16": 2, "tf32": 4, "fp8": 1}
COLUMNS = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major",
           "b_major", "registers", "spilled", "instruction", "triton", "ptxas")  # fmt: skip


def compile_counts(m: int, n: int, k: int, dtype: str, bm: int, bn: int, bk: int, warps: int, stages: int,
                   a_major: str, b_major: str, group_m: int = 8, maxnreg: int | None = None) -> tuple[int, int, str]:  # fmt: skip
    """(registers per thread, spilled registers (stack frame / 4), MMA family) of the kernel for sm_90a
    (``maxnreg``: Triton's cap on registers per thread, as a launch would pass it): roofmodel's compile
    backend (roofmodel.backends.triton_compile), the one ``predict --compile`` uses."""
    from roofmodel.backends.triton_compile import CompileJob
    from roofmodel.backends.triton_compile import compile_counts as counts

    c = counts(CompileJob(m, n, k, dtype, bm, bn, bk, warps, stages, a_major, b_major, group_m, maxnreg), 90)
    return c.registers, c.spilled, c.instruction


def toolchain() -> tuple[str, str]:
    """(Triton's version, the version of the ptxas it runs for sm_90a), as the CSV's last two columns record them.
    Triton 3.6 runs CUDA 12.8's ``ptxas``, Triton 3.9 CUDA 13.4's ``ptxas-blackwell``; the two allocate
    differently near the collapse point (fp16 32x128x32 on 2 warps, both operands element-wise: 32 registers
    and 650 spilled with Triton 3.6, as on the H100, 255 and 56 with Triton 3.9)."""
    import triton

    from roofmodel.backends.triton_compile import ptxas_for

    return triton.__version__, str(ptxas_for(90).version)


def draw(rng: random.Random, space: str, step: int = 8) -> tuple:
    """One configuration of the space (M, N, K multiples of step), its shared memory within 227 KB."""
    while True:
        m, n, k = (rng.randrange(1000, 6001, step) for _ in range(3))
        dtype = rng.choice(list(BLOCK_K))
        if space == "wgmma":
            warps, bm = rng.choice((4, 8)), rng.choice((64, 128, 256))
            bn = rng.choice((32, 64, 128, 256))
        else:
            warps = rng.choice((2, 2, 4, 8))
            bm = rng.choice((16, 32, 64, 128, 256)) if warps == 2 else rng.choice((16, 32))
            bn = rng.choice((32, 64, 128, 256))
        bk, stages = rng.choice(BLOCK_K[dtype]), rng.choice((2, 3, 4, 5))
        a_major, b_major = rng.choice("km"), rng.choice("nk")
        if (bm + bn) * bk * ELEMENT[dtype] * stages <= 227 * 1024:
            return m, n, k, dtype, bm, bn, bk, warps, stages, a_major, b_major


def rule_need_over_limit(m: int, n: int, k: int, dtype: str, bm: int, bn: int, bk: int, warps: int, stages: int,
                         a_major: str, b_major: str) -> tuple[float, bool]:  # fmt: skip
    """(registers the register rule says an mma.sync kernel needs, element pointers included, over the
    per-thread limit; whether a 16- or 8-bit operand is loaded one element at a time) on the H100."""
    from roofmodel.machine import load_machine
    from roofmodel.model.footprint import FAMILIES, kernel_footprint
    from roofmodel.model.kernel import register_tile_for
    from roofmodel.model.prediction import operand_staging, triton_copies

    machine = load_machine("h100")
    fi, e = FAMILIES.index("mma.sync"), ELEMENT[dtype]
    staging = operand_staging(triton_copies(machine, "triton"), fi, e, m, n, k, a_major == "m", b_major == "n", bm, bn)
    rm, rn = register_tile_for("mma.sync", bm, bn, warps) or (16, 8)
    fp = kernel_footprint(machine, bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, family=fi, element_bytes=e,
                          accumulator_registers=1.0, rm=rm, rn=rn, **staging)  # fmt: skip
    limit = machine.limits.max_registers_per_thread.n
    return float(fp["needed"]) / limit, bool(staging["narrow_rows"]) and e < 4


def job_of(row: dict[str, str]) -> Any:
    """The CompileJob of a study's or a measured sweep's CSV row (GROUP_M 8 where the row has none)."""
    from roofmodel.backends.triton_compile import CompileJob

    return CompileJob(int(row["m"]), int(row["n"]), int(row["k"]), row["dtype"], int(row["block_m"]),
                      int(row["block_n"]), int(row["block_k"]), int(row["num_warps"]), int(row["num_stages"]),
                      row["a_major"], row["b_major"], int(row.get("group_m") or 8))  # fmt: skip


def recompile(rows: list[dict[str, str]], jobs: int, keep_refused: bool = False) -> list[Any]:
    """The same kernels compiled again by the installed Triton (``--recompile``): a study's rows under another
    toolchain, row for row (COLUMNS without the toolchain's two; ``jobs`` processes; a kernel Triton refuses
    is None with ``keep_refused``, else left out)."""
    from roofmodel.backends.triton_compile import compile_many

    keys = [job_of(r) for r in rows]
    out = []
    for j, c in zip(keys, compile_many(keys, 90, jobs), strict=True):
        if isinstance(c, str):  # a configuration this Triton refuses to compile is not a sample
            print(f"skipped: {c}", file=sys.stderr)
            out.append(None)
            continue
        out.append((j.m, j.n, j.k, j.dtype, j.block_m, j.block_n, j.block_k, j.num_warps, j.num_stages, j.group_m,
                    j.a_major, j.b_major, c.registers, c.spilled, c.instruction))  # fmt: skip
    return out if keep_refused else [row for row in out if row is not None]


def check_against(broad: Path, w: Any, jobs: int, tools: tuple[str, str]) -> None:
    """Each sweep kernel of a measured broad.csv compiled here beside what the device's Triton compiled (its
    registers and spills); prints how many agree exactly."""
    with broad.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == "sweep" and r["dtype"] != "fp32" and r["status"] == "ok"]
    same = 0
    for r, row in zip(rows, recompile(rows, jobs, keep_refused=True), strict=True):
        dev = (int(r["registers_per_thread"]), int(r["spilled_registers"]))
        if row is None:
            continue
        same += (row[12], row[13]) == dev
        w.writerow((*row, *tools, *dev))
    print(f"{same} of {len(rows)} compiled here to the device's registers and spills exactly ({broad})")


LOOP_COLUMNS = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m",
                "a_major", "b_major", "registers", "spilled", "loop_local_load_bytes", "loop_local_store_bytes",
                "loop_local_waits", "triton", "ptxas", "device_registers", "device_spilled")  # fmt: skip


def loop_local(broad: Path, w: Any, jobs: int, tools: tuple[str, str]) -> None:
    """``--loop-local``: each kernel of a measured broad.csv that spilled on the device (Triton's own kernel;
    the sweeps' forced-mma.sync variant aside), compiled here, with the local-memory bytes each thread loads
    and stores per pass of its main loop and the times a warp waits on those reloads (triton_compile.main_loop,
    loop_local_bytes, local_reload_waits) beside the device's counts.
    Only the compiler's counts are read from the file, never a time."""
    from roofmodel.backends.triton_compile import CompileJob, compile_many

    with broad.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok" and r.get("force_mma_v2", "0") in ("0", "")
                and int(r.get("spilled_registers") or 0) > 0]  # fmt: skip
    jobs_ = [job_of(r) for r in rows]
    seen: set[CompileJob] = set()
    same = written = 0
    for r, j, c in zip(rows, jobs_, compile_many(jobs_, 90, jobs), strict=True):
        if j in seen:
            continue
        seen.add(j)
        if isinstance(c, str):
            print(f"skipped: {c}", file=sys.stderr)
            continue
        dev = (int(r["registers_per_thread"]), int(r["spilled_registers"]))
        same += (c.registers, c.spilled) == dev
        written += 1
        w.writerow((j.m, j.n, j.k, j.dtype, j.block_m, j.block_n, j.block_k, j.num_warps, j.num_stages, j.group_m,
                    j.a_major, j.b_major, c.registers, c.spilled, c.loop_local_load_bytes, c.loop_local_store_bytes,
                    c.loop_local_waits, *tools, *dev))  # fmt: skip
    print(f"{same} of {written} compiled here to the device's registers and spills exactly ({broad})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--space", choices=("wgmma", "mma.sync"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--near-collapse", action="store_true",
                    help="mma.sync only: keep draws with a 16- or 8-bit operand loaded one element at a time whose "
                    "rule need is 1-1.65 x the register limit (below STACK_COLLAPSE), where the rule says no collapse")  # fmt: skip
    ap.add_argument("--step", type=int, default=8, help="M, N and K are drawn in multiples of this (default 8)")
    ap.add_argument(
        "--recompile",
        metavar="CSV",
        help="compile the kernels of a study's CSV again with the installed Triton (no draw)",
    )
    ap.add_argument("--check-against", metavar="BROAD_CSV",
                    help="compile every sweep kernel of a measured broad.csv (fp32 aside) with the installed Triton "
                    "and write its counts beside the device's (no draw)")  # fmt: skip
    ap.add_argument("--loop-local", metavar="BROAD_CSV",
                    help="compile each kernel of a measured broad.csv that spilled and write the local-memory bytes "
                    "its main loop loads and stores per thread (no draw)")  # fmt: skip
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for --recompile")
    ap.add_argument("out")
    args = ap.parse_args()
    if sum(x is not None for x in (args.space, args.recompile, args.check_against, args.loop_local)) != 1:
        ap.error("give one of --space, --recompile, --check-against, --loop-local")
    warnings.filterwarnings("ignore")
    tools = toolchain()
    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        if args.loop_local:
            w.writerow(LOOP_COLUMNS)
            loop_local(Path(args.loop_local), w, args.jobs, tools)
            return
        w.writerow(COLUMNS + (("device_registers", "device_spilled") if args.check_against else ()))
        if args.check_against:
            check_against(Path(args.check_against), w, args.jobs, tools)
            return
        if args.recompile:
            with open(args.recompile, newline="") as src:
                w.writerows((*row, *tools) for row in recompile(list(csv.DictReader(src)), args.jobs))
            return
        rng = random.Random(args.seed)
        done = 0
        while done < args.count:
            m, n, k, dtype, bm, bn, bk, warps, stages, a_major, b_major = draw(rng, args.space, args.step)
            if args.near_collapse:
                over, narrow = rule_need_over_limit(m, n, k, dtype, bm, bn, bk, warps, stages, a_major, b_major)
                if not (narrow and 1.0 < over <= 1.65):
                    continue
            try:
                regs, spilled, family = compile_counts(m, n, k, dtype, bm, bn, bk, warps, stages, a_major, b_major)
            except Exception as exc:  # a configuration Triton refuses to compile is not a sample
                print(f"skipped {bm}x{bn}x{bk} w{warps} s{stages} {dtype}: {str(exc)[:120]}", file=sys.stderr)
                continue
            w.writerow((m, n, k, dtype, bm, bn, bk, warps, stages, 8, a_major, b_major, regs, spilled, family, *tools))
            f.flush()
            done += 1


if __name__ == "__main__":
    main()
