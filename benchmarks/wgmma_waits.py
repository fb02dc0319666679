"""On the CPU: how Triton's compiled wgmma loops wait on their wgmma, for sm_90a (no GPU needed; the Triton that
compiles is the installed one, 3.6 for every measured sweep).

Triton keeps one group of wgmma in flight across iterations where it can make the dot "properly async" (its
WGMMAPipeline pass; the loop waits once, ``WARPGROUP.DEPBAR.LE gsb0, 0x1``), and otherwise waits for each wgmma to
finish before the next issues (``0x0`` after every one). For each configuration this compiles roofmodel's Triton
matmul (roofmodel.backends.triton_gemm, as ``predict --compile`` does) and reads the waits of its main loop
(triton_compile.wgmma_waits), writing one CSV row per kernel: the wgmma instructions a warp issues per iteration, the
waits in order, and whether a group stays in flight.

    python benchmarks/wgmma_waits.py --check OUT.csv   # the wgmma-wait check's kernels (WGMMA_WAIT_TILES)
    python benchmarks/wgmma_waits.py --grid OUT.csv    # BM, BN in 64/128/256 on 4 and 8 warps, fp16/fp8/tf32
"""

from __future__ import annotations

import argparse
import csv
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COLUMNS = ("dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "a_major", "b_major",
           "wgmma_per_iteration", "waits", "group_in_flight")  # fmt: skip
# The grid's BK per dtype (64 bytes of K and more; the waits did not change with BK or the stages where tried).
GRID_BLOCK_K = {"fp16": 64, "fp8": 128, "tf32": 32}
# Layouts compiled per dtype: fp8 wgmma reads K-major operands only (Triton relays MN-major ones), so K-major alone;
# tf32's MN-major A is transposed in registers alike, so A K-major.
GRID_LAYOUTS = {"fp16": ("kk", "kn", "mk", "mn"), "fp8": ("kk",), "tf32": ("kk", "kn")}
SHAPE = 6144  # M = N = K of every compiled kernel (the loop does not depend on it where each is a multiple of 16)


def grid() -> list[tuple[str, int, int, int, int, int, str, str]]:
    """BM, BN in 64/128/256 on 4 and 8 warps in each dtype's layouts (GRID_LAYOUTS) at 3 stages; then narrow tiles
    (BN 16 and 32, 8 warps, both operands K-major), 128x256 on 8 warps at other BK and stages, and 16 warps (BN 128
    and 256, A K-major; 256 x 256 Triton refuses on 16 warps)."""
    square = [(dt, bm, bn, GRID_BLOCK_K[dt], w, 3, lay[0], lay[1]) for dt in GRID_BLOCK_K for bm in (64, 128, 256)
              for bn in (64, 128, 256) for w in (4, 8) for lay in GRID_LAYOUTS[dt]]  # fmt: skip
    narrow = [(dt, bm, bn, GRID_BLOCK_K[dt], 8, 3, "k", "k") for dt in ("fp16", "tf32") for bm in (64, 128)
              for bn in (16, 32)]  # fmt: skip
    depth = [("fp16", 128, 256, bk, 8, st, "k", b) for bk in (32, 128) for st in (2, 5) for b in ("k", "n")
             if (128 + 256) * bk * 2 * st <= 227 * 1024]  # fmt: skip
    sixteen = [(dt, bm, bn, GRID_BLOCK_K[dt], 16, 3, lay[0], lay[1]) for dt in GRID_BLOCK_K for bm in (64, 128, 256)
               for bn in (128, 256) if bm * bn < 256 * 256 for lay in GRID_LAYOUTS[dt] if lay[0] == "k"]  # fmt: skip
    return square + narrow + depth + sixteen


def check() -> list[tuple[str, int, int, int, int, int, str, str]]:
    from benchmarks.gpu_broad_sweep import WGMMA_WAIT_TILES

    return [(dt, bm, bn, bk, w, st, lay[0], lay[1]) for dt, bm, bn, bk, w, st, layouts in WGMMA_WAIT_TILES
            for lay in layouts.split()]  # fmt: skip


def compiled_waits(config: tuple[str, int, int, int, int, int, str, str]) -> dict[str, Any]:
    from roofmodel.backends.triton_compile import CompileJob, compile_kernel, cuobjdump, main_loop, wgmma_waits

    dt, bm, bn, bk, w, st, a, b = config
    kernel = compile_kernel(CompileJob(SHAPE, SHAPE, SHAPE, dt, bm, bn, bk, w, st, a, b, 8, None), 90)
    body = main_loop(cuobjdump(kernel.asm["cubin"], "-sass")) or []
    waits = wgmma_waits(body)
    mmas = sum(1 for op in body if "GMMA" in op.split(" ")[0])
    return dict(zip(COLUMNS[:8], config, strict=True), wgmma_per_iteration=mmas, waits=" ".join(map(str, waits)),
                group_in_flight=bool(waits) and min(waits) > 0)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--check", action="store_true")
    which.add_argument("--grid", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    configs = check() if args.check else grid()
    with ProcessPoolExecutor(args.jobs) as pool, args.out.open("w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=COLUMNS)
        out.writeheader()
        for row in pool.map(compiled_waits, configs):
            out.writerow(row)
            print(" ".join(str(row[c]) for c in COLUMNS), flush=True)


if __name__ == "__main__":
    main()
