"""On a GPU: what ``tune --space triton`` picks with and without ``--compile-top 8``, timed.

For each shape of SHAPES (fixed before the run, none in a measured sweep; most not multiples of 16, where the
register rule is least sure) in fp16, bf16, fp8 and tf32, with A K-major and B alternately K- and N-major,
ranks the Triton space with the built-in H100 at 1980 MHz, then as ``tune --compile-top 8`` compiles the first 8
and on (roofmodel.backends.triton_compile on this host's CPU, the installed Triton) and ranks them again, and
times the rule's first 8 and the compile's first 8 on the GPU, and the first 8 of the same compile charged by the
spill rules instead of its main loop's counted local loads, stores and waits (``rules_compiled_rank``: how the
compile ranked before 3a67c14) (the
same kernel and method as the broad sweep: checked against float64, median of do_bench), with cuBLAS
(torch.matmul) beside them. Each row: the configuration, its place by the rule and by the compile, both
predictions, the CPU's and the device's registers and spills, the measured time. Writes compile_pick.csv and
provenance.json.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_compile_pick_check.py OUT_DIR [--shapes 0:5]
(``--shapes``: a slice of SHAPES, to split the run; the CSV is written as each case ends.)
"""

from __future__ import annotations

import csv
import sys
import time
from collections.abc import Callable
from pathlib import Path

from roofmodel.backends import require_gpu

# (M, N, K): chosen 2026-11-26 before the run; none is in a broad sweep or fresh sample.
SHAPES = [(3000, 5000, 2200), (6100, 1900, 2700), (2900, 2900, 5100), (7300, 1500, 3300), (4100, 4100, 4100),
          (5200, 3600, 1800), (1500, 8800, 4400), (3072, 6144, 2048), (2600, 7000, 1400), (4500, 2300, 6100)]  # fmt: skip
DTYPES = ("fp16", "bf16", "fp8", "tf32")
TOP = 8


def main() -> None:
    require_gpu()
    import torch

    from roofmodel import Gemm, load_machine
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.triton_compile import compiler_for
    from roofmodel.backends.triton_gemm import OUT_DTYPES, run_config
    from roofmodel.search.space import Space, tune_report

    out = Path(sys.argv[1])
    first_shape, last_shape = 0, len(SHAPES)
    if len(sys.argv) > 3 and sys.argv[2] == "--shapes":
        a, b = sys.argv[3].split(":")
        first_shape, last_shape = int(a or 0), int(b or len(SHAPES))
    out.mkdir(parents=True, exist_ok=True)
    machine = load_machine("h100")
    rows = []
    sampler = ClockSampler()
    start = time.monotonic()
    with sampler.running():
        for i, (m, n, k) in enumerate(SHAPES):
            if not first_shape <= i < last_shape:
                continue
            for dtype in DTYPES:
                b_major = "k" if (i + DTYPES.index(dtype)) % 2 == 0 else "n"
                g = Gemm(m=m, n=n, k=k, dtype=dtype)
                common = dict(top=TOP, compute="measured", clock=1980.0, a_major="k", b_major=b_major)
                rule = tune_report(machine, g, Space(name="triton"), **common)
                compiler = compiler_for(machine, g, "k", b_major)
                comp = tune_report(machine, g, Space(name="triton"), compile_top=TOP, compiler=compiler,
                                   **common)  # fmt: skip
                by_rules = tune_report(machine, g, Space(name="triton"), compile_top=TOP,
                                       compiler=without_loop_counts(compiler), **common)  # fmt: skip
                cublas_ms = cublas_time(torch, m, n, k, dtype, OUT_DTYPES, b_major)
                # The rule's first 8 and the compile's first 8 (which may lie past the rule's 8): each timed once.
                info: dict = {}
                for r in rule.top:
                    info.setdefault(r.config, {}).update(rule_rank=r.rank, rule_ms=r.seconds * 1e3,
                                                         rule_registers=r.registers_per_thread,
                                                         rule_spilled=r.spilled_registers)  # fmt: skip
                for r in comp.top:
                    info.setdefault(r.config, {}).update(rule_rank=r.rule_rank, compiled_rank=r.rank,
                                                         compiled_ms=r.seconds * 1e3,
                                                         cpu_registers=r.compiled.registers if r.compiled else "",
                                                         cpu_spilled=r.compiled.spilled if r.compiled else "")  # fmt: skip
                for r in by_rules.top:
                    info.setdefault(r.config, {}).update(rule_rank=r.rule_rank, rules_compiled_rank=r.rank,
                                                         rules_compiled_ms=r.seconds * 1e3,
                                                         cpu_registers=r.compiled.registers if r.compiled else "",
                                                         cpu_spilled=r.compiled.spilled if r.compiled else "")  # fmt: skip
                first = len(rows)
                for c, facts in info.items():
                    group_m = int(c.raster.split(":")[1]) if c.raster.startswith("grouped") else 1
                    row = {"m": m, "n": n, "k": k, "dtype": dtype, "a_major": "k", "b_major": b_major,
                           "block_m": c.bm, "block_n": c.bn, "block_k": c.bk, "group_m": group_m,
                           "num_warps": c.warps, "num_stages": c.stages, "instruction": c.instruction,
                           "rule_rank": "", "compiled_rank": "", "rules_compiled_rank": "", "rule_ms": "",
                           "compiled_ms": "", "rules_compiled_ms": "",
                           "rule_registers": "", "rule_spilled": "", "cpu_registers": "", "cpu_spilled": "",
                           "compiled_count": comp.compiled, "cublas_ms": cublas_ms}  # fmt: skip
                    row.update(facts)
                    try:
                        got = run_config(m, n, k, dtype, c.bm, c.bn, c.bk, group_m, c.warps, c.stages,
                                         b_major=b_major)  # fmt: skip
                        row.update(time_ms=got["time_ms"], registers_per_thread=got["registers_per_thread"],
                                   spilled_registers=got["spilled_registers"], error="")  # fmt: skip
                    except Exception as exc:  # a failure is a result too
                        row.update(time_ms="", registers_per_thread="", spilled_registers="",
                                   error=" ".join(str(exc).split())[:200])  # fmt: skip
                    rows.append(row)
                picks = [x for x in rows[first:] if x["time_ms"] != ""]
                best = min((x["time_ms"] for x in picks), default=float("nan"))
                first_rule = next((x for x in picks if x["rule_rank"] == 1), None)
                first_comp = next((x for x in picks if x["compiled_rank"] == 1), None)
                first_by_rules = next((x for x in picks if x["rules_compiled_rank"] == 1), None)
                print(f"[{time.monotonic() - start:6.1f} s] {m}x{n}x{k} {dtype} B {b_major}: best of {len(picks)} "
                      f"{best:.3f} ms, rule's first {ms(first_rule)}, compile's first {ms(first_comp)} (spill rules "
                      f"{ms(first_by_rules)}), cuBLAS {cublas_ms:.3f}", flush=True)  # fmt: skip
                write_rows(out / "compile_pick.csv", rows)
                (out / "provenance.json").write_text(collect(sampler.samples).model_dump_json(indent=2))


def write_rows(path: Path, rows: list[dict]) -> None:
    """The rows so far, the whole file again (a run cut short keeps every case it finished)."""
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def without_loop_counts(compiler: Callable[[list], list]) -> Callable[[list], list]:
    """``compiler`` with the main loop's counted local loads, stores and waits dropped from its counts, so that the
    model charges the compiled spills by its rules (the loop-fits rule, mma_sync_spill_reloads)."""

    def compile_these(configs: list) -> list:
        gone = {"loop_local_load_bytes": None, "loop_local_store_bytes": None, "loop_local_waits": None}
        return [c if isinstance(c, str) else c.model_copy(update=gone) for c in compiler(configs)]

    return compile_these


def ms(row: dict | None) -> str:
    return f"{row['time_ms']:.3f}" if row else "n/a"


def cublas_time(torch: object, m: int, n: int, k: int, dtype: str, out_dtypes: dict, b_major: str) -> float:
    """torch.matmul's median time (ms) on the same layouts; fp8 through torch._scaled_mm (B must be K-major
    there, so fp8 with B N-major is timed K-major); tf32 with TF32 allowed."""
    import triton

    from roofmodel.backends.triton_gemm import random_inputs

    a, b = random_inputs(m, n, k, dtype, "cuda", 0, "k", b_major)
    tt = torch  # type: ignore[assignment]
    if dtype == "fp8":
        bt = b.t().contiguous().t()
        one = tt.ones((), device="cuda", dtype=tt.float32)

        def fn():
            return tt._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=tt.bfloat16)
    else:
        tt.backends.cuda.matmul.allow_tf32 = dtype == "tf32"

        def fn():
            return a @ b

    try:
        return float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
    except Exception:  # cuBLAS refused the shape (fp8 needs dimensions that are multiples of 16)
        return float("nan")


if __name__ == "__main__":
    main()
