"""On an sm_90 GPU: what Triton does with an MN-major tf32 or fp8 GEMM operand (issue 13, operand layouts).

What the compiler sources say: AccelerateMatmul lets a wgmma operand stay transposed (MN-major) in
shared memory only for fp16/bf16; for tf32 and fp8 it forces a K-major shared layout ("Registers will
be transposed before SMEM store and the pipelined load for this operand will be disabled"). The
pipeliner (AssignLatencies, isPipeliningBeneficial) still turns a load into cp.async when at least 4
contiguous bytes land in shared memory. So the inference to test: an MN-major tf32 operand is still
pipelined, with scalar 4-byte cp.async; an MN-major fp8 operand is not pipelined at all (a plain
global load in the loop, stored into shared memory by each thread).

For M = N = K = 4096, a 128x128 tile (BLOCK_K 64; fp8 128), 8 warps, 3 stages, GROUP_M 8, and each of
tf32, fp8 and fp16 (the control) in the four layouts (A k- or m-major) x (B n- or k-major): compile
(a fresh Triton cache, MLIR warnings on and captured), read the TTGIR and PTX (the MMA instruction,
cp.async count and widths, async copies, shared-memory stores and global loads per operand, the wgmma
wait depth), check against float64 with roofmodel's own check, and time twice (do_bench median) with
the SM clock sampled. Writes OUT_DIR/layout_check.json and the TTGIR (and PTX) of the tf32 and fp8
kernels with A K-major and B N-major.

Imports only roofmodel.backends.triton_gemm and benchmarks.gpu_broad_sweep (stdlib at import):
the device's image has torch and triton but no pydantic.

With --mma-sync every kernel is compiled with DISABLE_MMA_V3=1 (Hopper's mma.sync, what Triton uses for
BLOCK_M < 64 or warps that do not form warpgroups), to see where an MN-major tf32 or fp8 operand is laid
out for mma.sync: the inference there is that every operand is copied in its global layout with 16-byte
cp.async and every stage pipelined (the broad sweeps' compiled shared memory keeps every stage), so that
the cost of an MN-major operand is in the shared-memory loads that feed the MMAs (ldmatrix.trans is
.b16 only). --block-m/--block-n/--warps choose the tile (BLOCK_K stays per dtype).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_layout_check.py OUT_DIR [--seconds 220] [--mma-sync]
           [--block-m 128 --block-n 128 --warps 8]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

M = N = K = 4096
BLOCK_M = BLOCK_N = 128
BLOCK_K = {"tf32": 64, "fp8": 128, "fp16": 64}
NUM_WARPS, NUM_STAGES, GROUP_M = 8, 3, 8
DTYPES = ("tf32", "fp8", "fp16")
LAYOUTS = [(a, b) for a in ("k", "m") for b in ("n", "k")]
DUMPS = {("tf32", "k", "n"): "tf32_bn", ("fp8", "k", "n"): "fp8_bn", ("fp8", "m", "k"): "fp8_am"}


# --------------------------------------------------------------------------------------------------
# Reading the compiled kernel (pure text; tested on the CPU on Triton's own sm_90 output)


def _width_bytes(suffix: str) -> int | None:
    """Bytes moved by ``ld.global.v4.b32``-like instruction suffixes (``.v4.b32`` -> 16)."""
    parts = suffix.split(".")
    vec = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d+", p)), 1)
    bits = [int(p[1:]) for p in parts if re.fullmatch(r"[bfsu]\d+", p)]
    return vec * bits[-1] // 8 if bits else None


def _widths(ptx: str, opcode: str) -> dict[str, int]:
    """Static count of ``opcode`` instructions by bytes per thread (``"16B": 24``)."""
    out: Counter[str] = Counter()
    for m in re.finditer(rf"\b{re.escape(opcode)}((?:\.[\w:]+)*)\s", ptx):
        w = _width_bytes(m.group(1))
        out[f"{w}B" if w else m.group(1) or "?"] += 1
    return dict(sorted(out.items()))


def ptx_facts(ptx: str) -> dict[str, Any]:
    """Static instruction counts from the PTX: MMA family, cp.async by cache level and size, TMA,
    global loads and shared-memory stores/loads by width, ldmatrix/stmatrix."""
    cp: Counter[str] = Counter()
    for m in re.finditer(r"\bcp\.async\.(ca|cg)\.shared(?:::cta)?\.global[\w.:]*\s*\[[^\]]*\]\s*,\s*\[[^\]]*\]\s*,"
                         r"\s*(0x[0-9a-fA-F]+|\d+)", ptx):  # fmt: skip
        cp[f"cp.async.{m.group(1)} {int(m.group(2), 0)}B"] += 1
    wgmma = re.findall(r"\bwgmma\.mma_async[\w.:]*", ptx)
    mma = re.findall(r"\bmma\.sync[\w.:]*", ptx)
    return {
        "wgmma_mma_async": len(wgmma),
        "mma_sync": len(mma),
        "mma_shapes": sorted(set(wgmma + mma)),
        "cp_async": sum(cp.values()),
        "cp_async_by_size": dict(sorted(cp.items())),
        "cp_async_bulk_tma": len(re.findall(r"\bcp\.async\.bulk[\w.:]*", ptx)),
        "ld_global": _widths(ptx, "ld.global"),
        "st_shared": _widths(ptx, "st.shared"),
        "ld_shared": _widths(ptx, "ld.shared"),
        "ldmatrix": len(re.findall(r"\bldmatrix\.", ptx)),
        "stmatrix": len(re.findall(r"\bstmatrix\.", ptx)),
        "st_global": _widths(ptx, "st.global"),
    }


_OP = re.compile(r"^\s*(?:(%[\w#:]+)(?:\s*,\s*%[\w#:]+)*\s*=\s*)?\"?((?:tt|ttg|ttng|scf|nvgpu|nvg)\.[a-z_0-9]+)")
_LOC_ALIAS = re.compile(r'^#(loc\d+)\s*=\s*loc\("([^"]+)"')
PER_OPERAND_OPS = ("tt.load", "ttg.async_copy_global_to_local", "ttg.local_alloc", "ttg.local_store",
                   "ttng.async_tma_copy_global_to_local", "tt.descriptor_load")  # fmt: skip


def _operand(result: str | None, line: str, names: dict[str, str]) -> str:
    """Which tl.dot operand an op belongs to, from the value name Triton prints (``%a_53``, ``%b_94``)
    or the name its location carries (``loc(#loc84)`` with ``#loc84 = loc("a"(...))``)."""
    if result:
        m = re.fullmatch(r"%([a-z_]+?)(?:_\d+)?(?:#\d+)?", result)
        if m and m.group(1) in ("a", "b"):
            return m.group(1)
    loc = re.search(r"loc\(#(loc\d+)\)\s*$", line)
    name = names.get(loc.group(1), "") if loc else ""
    return name if name in ("a", "b") else "?"


def ttgir_facts(ttgir: str) -> dict[str, Any]:
    """Op counts from the TTGIR, per operand for the loads and shared-memory ops, the shared,
    blocked and MMA encodings, and the wgmma wait depths (``pendings``) and async-wait counts."""
    lines = ttgir.splitlines()
    names = {m.group(1): m.group(2) for m in map(_LOC_ALIAS.match, lines) if m}
    ops: Counter[str] = Counter()
    per: dict[str, Counter[str]] = {"a": Counter(), "b": Counter(), "?": Counter()}
    depth, in_loop, depth_at_for = 0, 0, 0  # scf.for nesting: a load left in the loop body is an unpipelined load
    for line in lines:
        m = _OP.match(line)
        if m:
            op = m.group(2)
            ops[op] += 1
            if op in PER_OPERAND_OPS:
                key = op + (" (in loop)" if in_loop else "")
                per[_operand(m.group(1), line, names)][key] += 1
            if op == "scf.for":
                in_loop += 1
                depth_at_for = depth
        depth += line.count("{") - line.count("}")
        if in_loop and depth <= depth_at_for:
            in_loop = 0
    encodings = [ln.strip() for ln in lines if re.match(r"#(shared|blocked|mma|nvmma|linear)\w*\s*=", ln)]
    return {
        "ops": dict(sorted((k, v) for k, v in ops.items() if not k.startswith(("tt.get_", "tt.make_range")))),
        "async_copy_global_to_local": ops["ttg.async_copy_global_to_local"],
        "local_alloc": ops["ttg.local_alloc"],
        "local_store": ops["ttg.local_store"],
        "tma_ops": sum(v for k, v in ops.items() if "tma" in k or "descriptor" in k),
        "warp_group_dot": ops["ttng.warp_group_dot"],
        "tt_dot": ops["tt.dot"],
        "per_operand": {k: dict(sorted(v.items())) for k, v in per.items() if v},
        "wgmma_wait_pendings": [int(x) for x in re.findall(r"pendings\s*=\s*(\d+)", ttgir)],
        "async_wait_num": [int(x) for x in re.findall(r"ttg\.async_wait[^\n]*?num\s*=\s*(\d+)", ttgir)],
        "encodings": encodings,
    }


def operand_verdict(dtype: str, a_major: str, b_major: str, tt: dict[str, Any], px: dict[str, Any],
                    mma_sync: bool = False) -> dict[str, Any]:  # fmt: skip
    """Per operand: MN-major or not, pipelined (an async copy attributed to it) or not; and whether
    the source-based inference predicted exactly this (``mma_sync``: every operand pipelined with
    16-byte copies, none relaid)."""
    out: dict[str, Any] = {}
    holds = True
    for op, mn in (("a", a_major == "m"), ("b", b_major == "n")):
        p = tt["per_operand"].get(op, {})
        pipelined = any(k.startswith("ttg.async_copy_global_to_local") for k in p)
        in_loop_load = p.get("tt.load (in loop)", 0) > 0
        expected = mma_sync or not (dtype == "fp8" and mn)
        out[op] = {"mn_major": mn, "pipelined": pipelined, "plain_load_in_loop": in_loop_load,
                   "expected_pipelined": expected}  # fmt: skip
        holds &= pipelined == expected and in_loop_load == (not expected)
    sizes = px["cp_async_by_size"]
    four = any(k.endswith(" 4B") for k in sizes)
    expect_four = not mma_sync and dtype == "tf32" and (a_major == "m" or b_major == "n")
    out["scalar_4B_cp_async"] = four
    out["expected_scalar_4B_cp_async"] = expect_four
    out["inference_holds"] = bool(holds and four == expect_four)
    return out


# --------------------------------------------------------------------------------------------------
# GPU side


@contextlib.contextmanager
def captured_stderr() -> Any:
    """File descriptor 2 into a temporary file (MLIR prints its warnings there, not to sys.stderr)."""
    sys.stderr.flush()
    saved = os.dup(2)
    box: list[str] = []
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield box
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            box.append(tmp.read().decode(errors="replace"))


def warnings_of(text: str) -> list[str]:
    return sorted({ln.split("warning:", 1)[1].strip()[:400] for ln in text.splitlines() if "warning:" in ln})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--seconds", type=float, default=220.0, help="stop timing after this (compiles are kept)")
    ap.add_argument("--mma-sync", action="store_true", help="compile every kernel with DISABLE_MMA_V3=1")
    ap.add_argument("--block-m", type=int, default=BLOCK_M)
    ap.add_argument("--block-n", type=int, default=BLOCK_N)
    ap.add_argument("--warps", type=int, default=NUM_WARPS)
    args = ap.parse_args()
    bm, bn, warps = args.block_m, args.block_n, args.warps
    if args.mma_sync:
        os.environ["DISABLE_MMA_V3"] = "1"
    start = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    # A fresh cache so that every kernel is compiled here (and its warnings printed); MLIR warnings on.
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-layout-check-")
    os.environ["MLIR_ENABLE_DIAGNOSTICS"] = "warnings"

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - start:6.1f} s] {msg}", flush=True)

    import torch
    import triton

    from benchmarks.gpu_broad_sweep import Sampler, provenance
    from roofmodel.backends import triton_gemm as tg

    result: dict[str, Any] = {
        "purpose": "issue 13, operand layouts: does Triton pipeline an MN-major tf32 / fp8 "
        f"{'mma.sync (DISABLE_MMA_V3=1)' if args.mma_sync else 'wgmma'} operand on sm_90?",
        "inference": "every operand pipelined with 16-byte cp.async in its global layout; an MN-major tf32 or "
        "fp8 operand pays in the shared-memory loads that feed mma.sync"
        if args.mma_sync
        else "tf32 MN-major: pipelined with 4-byte cp.async; fp8 MN-major: not pipelined (plain load "
        "in the loop, stored to shared memory by registers); fp16: both layouts pipelined with 16-byte cp.async",
        "shape": {"m": M, "n": N, "k": K},
        "config": dict(
            block_m=bm,
            block_n=bn,
            block_k=BLOCK_K,
            num_warps=warps,
            num_stages=NUM_STAGES,
            group_m=GROUP_M,
        ),
        "provenance": provenance(),
        "note": "PTX counts are static (prologue copies + one loop body + epilogue), per thread",
        "kernels": [],
    }
    sampler = Sampler(period=0.25)
    sampler.start()
    rows: list[dict[str, Any]] = result["kernels"]
    live: list[tuple[dict[str, Any], Any, tuple[Any, ...], dict[str, Any]]] = []
    for dtype in DTYPES:
        a0, b0 = tg.random_inputs(M, N, K, dtype, "cuda", seed=13)
        ref = tg.reference(a0, b0)
        for a_major, b_major in LAYOUTS:
            row: dict[str, Any] = {"dtype": dtype, "a_major": a_major, "b_major": b_major}
            rows.append(row)
            a = tg.layout(a0, 1 if a_major == "k" else 0)
            b = tg.layout(b0, 1 if b_major == "n" else 0)
            assert (a.stride(1) == 1) == (a_major == "k") and (b.stride(1) == 1) == (b_major == "n")
            c = tg.output_for(a, b, dtype)
            cfg = dict(dtype=dtype, block_m=bm, block_n=bn, block_k=BLOCK_K[dtype], group_m=GROUP_M,
                       num_warps=warps, num_stages=NUM_STAGES)  # fmt: skip
            t0 = time.monotonic()
            try:
                with captured_stderr() as err:
                    compiled = tg.launch(a, b, c, **cfg)
                    torch.cuda.synchronize()
                row["compile_s"] = round(time.monotonic() - t0, 2)
                row["compiler_warnings"] = warnings_of(err[0])
                row.update(tg.compiled_facts(compiled))
                asm = compiled.asm
                ttgir, ptx = (asm[k].decode() if isinstance(asm[k], bytes) else asm[k] for k in ("ttgir", "ptx"))
                row["ttgir"] = ttgir_facts(ttgir)
                row["ptx"] = ptx_facts(ptx)
                row["verdict"] = operand_verdict(dtype, a_major, b_major, row["ttgir"], row["ptx"], args.mma_sync)
                if (dtype, a_major, b_major) in DUMPS:
                    stem = f"layout_check_{DUMPS[dtype, a_major, b_major]}"
                    (args.out / f"{stem}.ttgir").write_text(ttgir)
                    (args.out / f"{stem}.ptx").write_text(ptx)
                rel = tg.check(a, b, c, ref)
                row["rel_error"] = rel
                row["status"] = "ok" if rel <= tg.TOLERANCE[dtype] else "wrong"
                if row["status"] == "ok":
                    kargs, kwargs, grid = tg.kernel_arguments(a, b, c, **cfg)
                    live.append((row, tg._matmul_kernel[grid], kargs, kwargs))
            except Exception as exc:
                row["status"] = f"error: {type(exc).__name__}: {str(exc)[:300]}"
            v = row.get("verdict", {})
            log(f"{dtype} A{a_major} B{b_major}: {row['status']} {row.get('instruction')} regs "
                f"{row.get('registers_per_thread')} spills {row.get('spilled_registers')} cp.async "
                f"{row.get('ptx', {}).get('cp_async_by_size')} pipelined a={v.get('a', {}).get('pipelined')} "
                f"b={v.get('b', {}).get('pipelined')} inference_holds={v.get('inference_holds')}")  # fmt: skip
        del a0, b0, ref
        torch.cuda.empty_cache()

    for pass_no, order in ((1, live), (2, live[::-1])):
        for row, kern, kargs, kwargs in order:
            if time.monotonic() - start > args.seconds:
                log("deadline: timing stopped")
                break
            t0 = time.monotonic()
            ms = float(triton.testing.do_bench(lambda kern=kern, kargs=kargs, kwargs=kwargs: kern(*kargs, **kwargs),
                                               warmup=25, rep=100, return_mode="median"))  # fmt: skip
            row[f"time_ms_{pass_no}"] = ms
            row[f"sm_clock_mhz_{pass_no}"] = sampler.clock_between(t0, time.monotonic())
    for row, *_ in live:
        times = [row[k] for k in ("time_ms_1", "time_ms_2") if k in row]
        if times:
            row["time_ms"] = statistics.median(times)
            row["tflops"] = 2.0 * M * N * K / (row["time_ms"] * 1e-3) / 1e12

    cublas: dict[str, Any] = {}
    one = torch.ones((), device="cuda")
    for dtype in DTYPES:  # context: the library on the same shape (fp8 wants B K-major)
        try:
            a, b = tg.random_inputs(M, N, K, dtype, "cuda", 1, "k", "k" if dtype == "fp8" else "n")
            torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"

            def fn(a: Any = a, b: Any = b, fp8: bool = dtype == "fp8") -> Any:
                return torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16) if fp8 else a @ b

            ms = float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            cublas[dtype] = {"time_ms": ms, "tflops": 2.0 * M * N * K / (ms * 1e-3) / 1e12}
        except Exception as exc:
            cublas[dtype] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False
    result["cublas"] = cublas
    sampler.stop()
    clocks = [s[1] for s in sampler.samples]
    result["sm_clock_mhz"] = (
        {"median": statistics.median(clocks), "min": min(clocks), "max": max(clocks), "samples": len(clocks)}
        if clocks
        else None
    )
    result["power_w_median"] = statistics.median([s[2] for s in sampler.samples]) if clocks else None
    result["inference_holds_all"] = all(r.get("verdict", {}).get("inference_holds") for r in rows)
    result["wall_s"] = round(time.monotonic() - start, 1)
    (args.out / "layout_check.json").write_text(json.dumps(result, indent=1))
    for r in rows:
        log(f"{r['dtype']:5} A{r['a_major']} B{r['b_major']}: {r.get('instruction', '?'):8} "
            f"{r.get('tflops', float('nan')):6.1f} TFLOPS  err {r.get('rel_error', float('nan')):.2g}")  # fmt: skip
    log(f"cublas: {json.dumps(cublas)}; clocks {result['sm_clock_mhz']}; inference holds: "
        f"{result['inference_holds_all']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
