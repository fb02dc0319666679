"""On an NVIDIA GPU: the same Triton matmul tile with 1, 2, 3 and 4 tiles on every SM (a grid of exactly SMs x c
tiles: M = BM x 12, N = BN x 11 x c on 132 SMs), each timed at two K so that the slope is the time the busiest SM
takes per main-loop iteration: one round of c CTAs where c of them can reside, more rounds where fewer can (the
compiled registers and shared memory in the CSV say which). How that time grows with c is what the per-CTA model's
round (cta_model.round_cycles: edges + K/BK x max(c x pipes, alone + (c - 1) x queued); until 2026-11-29 max(c x K/BK x pipes, edges + K/BK x (alone + (c - 1) x queued))) says it does; the
ladder holds it to that per class of copy: operands loaded one element at a time (K not a multiple of 16, both
K-major, or A only), relaid through registers (fp8 A M-major under wgmma), and copied 16 bytes at a time (the
control). Each kernel is checked against torch.matmul (a kernel that fails is written with status "wrong") and
timed once (one pass: time_ms_2 is left empty; the SM clock is one sample taken after the timing). Writes OUT/broad.csv in the broad sweep's
columns (set ``ladder``, split ``ladder``), so that the model reads it as it reads a sweep, and OUT/meta.json.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_resident_ladder.py OUT [--element-wise]
(--element-wise: the twelve fp16 tiles of ELEMENT_WISE_CLASSES instead, one and two CTAs an SM)
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from benchmarks.gpu_broad_sweep import COLUMNS as SWEEP_COLUMNS

# (label, dtype, BM, BN, BK, warps, stages, A major, B major, K offset): K = 2048 or 6144 plus the offset (8: not a
# multiple of 16 elements, so a K-major operand is loaded one element at a time).
CLASSES = (
    ("element-wise both", "fp16", 128, 64, 64, 4, 3, "k", "k", 8),
    ("element-wise both, 8 warps", "fp16", 128, 128, 64, 8, 3, "k", "k", 8),
    ("element-wise A", "fp16", 64, 128, 64, 4, 3, "k", "n", 8),
    ("element-wise both, bf16", "bf16", 64, 64, 64, 4, 4, "k", "k", 8),
    ("aligned", "fp16", 128, 64, 64, 4, 3, "k", "k", 0),
    ("aligned, 8 warps", "fp16", 128, 128, 64, 8, 3, "k", "k", 0),
    ("relaid fp8", "fp8", 128, 64, 128, 4, 3, "m", "k", 0),
    ("relaid fp8, 8 warps", "fp8", 128, 128, 128, 8, 3, "m", "k", 0),
)
# --element-wise: more tiles loaded one element at a time (fp16, 4 warps), one and two CTAs an SM, so that what a
# second resident CTA adds can be set against each tile's own terms.
ELEMENT_WISE_CLASSES = tuple(
    (f"element-wise {'both' if b == 'k' else 'A'} {bm}x{bn}x{bk} s{st}", "fp16", bm, bn, bk, 4, st, "k", b, 8)
    for bm, bn, bk in ((64, 64, 32), (64, 64, 64), (64, 128, 32), (128, 64, 32), (64, 32, 64), (128, 32, 64))
    for b, st in (("k", 2), ("n", 3))
)  # fmt: skip
RESIDENT = (1, 2, 3, 4)
K_BASE = (2048, 6144)
COLUMNS = (*SWEEP_COLUMNS, "label", "ctas")


def main() -> None:
    import torch
    import triton

    from benchmarks.gpu_wgmma_chain import sm_clock_mhz
    from roofmodel.backends import triton_gemm as tg

    out_dir = Path(sys.argv[1])  # then --element-wise, if given
    out_dir.mkdir(parents=True, exist_ok=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows_of_grid = 12 if sms % 12 == 0 else 1
    with (out_dir / "broad.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        element_wise = "--element-wise" in sys.argv[2:]
        for label, dtype, bm, bn, bk, warps, stages, a_major, b_major, offset in (
                ELEMENT_WISE_CLASSES if element_wise else CLASSES):  # fmt: skip
            for c in (1, 2) if element_wise else RESIDENT:
                m, n = bm * rows_of_grid, bn * (sms // rows_of_grid) * c
                for base in K_BASE:
                    k = base + offset
                    row = {"set": "ladder", "shape": f"ladder{m}x{n}x{k}", "family": "ladder", "split": "ladder",
                           "m": m, "n": n, "k": k, "dtype": dtype, "a_major": a_major, "b_major": b_major,
                           "block_m": bm, "block_n": bn, "block_k": bk, "group_m": 1, "num_warps": warps,
                           "num_stages": stages, "force_mma_v2": 0, "label": label, "ctas": c}  # fmt: skip
                    try:
                        a, b = tg.random_inputs(m, n, k, dtype, "cuda", 1, a_major, b_major)
                        out = tg.output_for(a, b, dtype)
                        kern = tg.launch(a, b, out, dtype, bm, bn, bk, 1, warps, stages)
                        ref = (a.float() @ b.float()).to(out.dtype).float()
                        err = float((out.float() - ref).norm() / ref.norm())
                        cfg = (dtype, bm, bn, bk, 1, warps, stages)
                        ms = triton.testing.do_bench(lambda a=a, b=b, out=out, cfg=cfg: tg.launch(a, b, out, *cfg),
                                                     warmup=10, rep=100, return_mode="median")  # fmt: skip
                        facts = tg.compiled_facts(kern)
                        ok = err < tg.TOLERANCE[dtype]
                        row.update(facts, status="ok" if ok else "wrong", rel_error=err, time_ms=ms,
                                   tflops=2 * m * n * k / (ms * 1e-3) / 1e12, sm_clock_mhz=sm_clock_mhz())  # fmt: skip
                    except Exception as exc:  # said, not fatal: the other rungs still run
                        row.update(status="failed: " + " ".join(str(exc).split())[:120], time_ms=0)
                    w.writerow(row)
                    f.flush()
                    print(json.dumps({k: row.get(k) for k in ("label", "ctas", "k", "status", "time_ms",
                                                               "registers_per_thread", "spilled_registers",
                                                               "shared_bytes", "instruction")}), flush=True)  # fmt: skip
    meta = {"device": torch.cuda.get_device_name(0), "sms": sms, "torch": torch.__version__,
            "triton": triton.__version__, "how": __doc__.split("\n\n")[0].replace("\n", " ")}  # fmt: skip
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
