"""On a GPU: what a spilled register costs per main-loop iteration as the spills grow, for kernels whose
spills are the element pointers of operands loaded one element at a time (issue 13: the broad sweeps'
kernels that spill hundreds of such pointers run 2-5 x slower than the spill bandwidth of the wgmma
spill pairs, kernel_costs.spill_bandwidth, says).

Each rung is one Triton kernel (roofmodel.backends.triton_gemm) compiled with a cap on its registers
(Triton's ``maxnreg``), so that ptxas spills more of the same kernel's registers at each lower cap. A and B
are both K-major with K = 4 mod 16, so Triton loads both one element at a time (the leading stride is not
a multiple of 16) and the spills past the tile's accumulators are the element pointers. The grid is exactly
``tiles_per_sm`` tiles per SM (the K sweep's grid, kernel_costs.grid_of), so one wave, and each kernel is
timed at four K: the slope of time over K / BK is one CTA's time per iteration, and the difference of a
rung's slope from the uncapped kernel's, over the spilled registers it adds, is what a spilled register
costs an iteration. A control of aligned operands (K = 0 mod 16, 16-byte copies) spills other registers.

Shapes: M = 11 x BM, N = 12 x BN (132 tiles: the H100's SMs, or tiles_per_sm x that), K in KSWEEP_K + 4;
no sample of the broad sweeps holds them.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_spill_ladder.py OUT.csv [--quick]

With ``--l1`` (2026-12-01, third session): whether a spilled byte of an mma.sync loop costs less where the SM's spill
frames fit the L1 left beside shared memory. On the read broad sweeps the per-CTA model as compiled over-predicts the
spill-bound Triton mma.sync kernels more the more of their frames (CTAs x threads x spilled registers x 4 B) fit
256 KB less the shared-memory carve-out (a median 0.90 of their measured time with under 1% fitting, 1.13 with half or
more), while wgmma kernels, whose spill rate was measured, show no such trend. L1_TILES, aligned (K a multiple of
16), no register cap, each at 1, 2, 3 and 4 tiles per SM (one launch; where fewer reside, rounds): the mma.sync tiles
whose accumulators spill (two warps, 256 fp32 accumulators a thread) at 2 and 5 stages (shared memory 16 and 64 KB a
CTA: the L1's room), beside their four-warp twins, which do not spill.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (dtype, BM, BN, BK, warps, stages, family): the tiles of the ladder.
TILES = (
    ("fp16", 64, 64, 64, 4, 3, "wgmma"),
    ("fp16", 64, 32, 256, 4, 3, "wgmma"),
    ("fp16", 64, 64, 128, 4, 3, "wgmma"),
    ("fp16", 64, 64, 256, 4, 2, "wgmma"),
    ("fp16", 64, 64, 64, 2, 3, "mma.sync"),
    ("fp16", 64, 32, 128, 2, 3, "mma.sync"),
)
# --l1: (dtype, BM, BN, BK, warps, stages, family), no cap, aligned, at L1_PER_SM tiles per SM.
L1_TILES = (
    ("fp16", 128, 128, 32, 2, 2, "mma.sync"),
    ("fp16", 128, 128, 32, 2, 5, "mma.sync"),
    ("fp16", 128, 128, 32, 4, 2, "mma.sync"),
    ("fp16", 128, 128, 32, 4, 5, "mma.sync"),
    ("fp16", 64, 256, 32, 2, 2, "mma.sync"),
    ("fp16", 64, 256, 32, 2, 5, "mma.sync"),
    ("fp16", 64, 256, 32, 4, 2, "mma.sync"),
    ("fp16", 64, 256, 32, 4, 5, "mma.sync"),
)
L1_PER_SM = (1, 2, 3, 4)
CAPS = (None, 192, 168, 128, 96)
K_POINTS = (1028, 2052, 4100, 8196)  # 4 mod 16: both K-major operands loaded one element at a time
ALIGNED_K = (1024, 2048, 4096, 8192)
COLUMNS = ("dtype", "family", "compiled_family", "block_m", "block_n", "block_k", "num_warps", "num_stages", "tiles_per_sm",
           "aligned", "maxnreg", "registers", "spilled", "shared_bytes", "k_points", "seconds", "slope_s_per_iter",
           "sms")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--quick", action="store_true", help="one tile, two caps")
    ap.add_argument("--seconds", type=float, default=400.0, help="stop starting kernels after this long")
    ap.add_argument("--l1", action="store_true", help="L1_TILES, aligned, uncapped, at L1_PER_SM tiles per SM")
    args = ap.parse_args()
    import torch
    import triton

    from roofmodel.backends import triton_gemm as tg
    from roofmodel.model.kernel_costs import grid_of, least_squares_line

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    tm, tn = grid_of(sms)
    start = time.monotonic()
    jit_v2 = triton.jit(tg._matmul_kernel.fn)
    tiles = TILES[:1] if args.quick else L1_TILES if args.l1 else TILES
    caps = CAPS[:2] if args.quick else (None,) if args.l1 else CAPS
    per_sm_counts, alignments = (L1_PER_SM, (True,)) if args.l1 else ((1, 2), (False, True))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for dtype, bm, bn, bk, warps, stages, family in tiles:
            for per_sm in per_sm_counts:
                for aligned in alignments:
                    for cap in caps:
                        if time.monotonic() - start > args.seconds:
                            print("out of time", flush=True)
                            return
                        points, facts = [], {}
                        for k in ALIGNED_K if aligned else K_POINTS:
                            a, b = tg.random_inputs(tm * bm, tn * per_sm * bn, k, dtype, "cuda", seed=k, a_major="k",
                                                    b_major="k")  # fmt: skip
                            c = tg.output_for(a, b, dtype)
                            cfg = dict(dtype=dtype, block_m=bm, block_n=bn, block_k=bk, group_m=1, num_warps=warps,
                                       num_stages=stages, kernel=jit_v2 if family == "mma.sync" else None, maxnreg=cap)  # fmt: skip
                            if family == "mma.sync":
                                os.environ["DISABLE_MMA_V3"] = "1"
                            try:
                                compiled = tg.launch(a, b, c, **cfg)
                            except Exception as exc:  # a cap ptxas cannot meet is not a rung
                                print(
                                    f"skipped {dtype} {bm}x{bn}x{bk} w{warps} cap {cap}: {str(exc)[:160]}", flush=True
                                )
                                points = []
                                break
                            finally:
                                os.environ.pop("DISABLE_MMA_V3", None)
                            err = tg.check(a, b, c)
                            if not err <= tg.TOLERANCE[dtype]:
                                raise RuntimeError(f"{dtype} {bm}x{bn}x{bk} cap {cap} K {k}: wrong result ({err:.3g})")
                            facts = tg.compiled_facts(compiled)
                            ms = triton.testing.do_bench(lambda a=a, b=b, c=c, cfg=cfg: tg.launch(a, b, c, **cfg),
                                                         warmup=25, rep=150, return_mode="median")  # fmt: skip
                            points.append((k, ms * 1e-3))
                        if not points:
                            continue
                        slope, _ = least_squares_line([(k / bk, s) for k, s in points])
                        w.writerow((dtype, family, facts["instruction"], bm, bn, bk, warps, stages, per_sm, int(aligned),
                                    cap or "", facts["registers_per_thread"], facts["spilled_registers"],
                                    facts["shared_bytes"], " ".join(str(k) for k, _ in points),
                                    " ".join(f"{s:.6g}" for _, s in points), f"{slope:.6g}", sms))  # fmt: skip
                        f.flush()
                        print(f"[{time.monotonic() - start:5.0f} s] {family} {bm}x{bn}x{bk} w{warps} x{per_sm} "
                              f"{'aligned' if aligned else 'element-wise'} cap {cap}: {facts['registers_per_thread']} regs, "
                              f"{facts['spilled_registers']} spilled, {slope * 1e9:.1f} ns/iteration", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
