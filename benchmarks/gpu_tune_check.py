"""On a GPU: does ``roofmodel tune --space triton`` pick fast Triton kernels, and what clock does
the chip hold under sustained tensor-core load?

For each shape of the recorded sweep it ranks the Triton space with the calibrated H100 overlay,
then checks and times the first ``TOP`` configurations with the Triton backend (the same kernel and
method as ``roofmodel sweep``). Writes tune_check.csv, sustained_clock.json and provenance.json.

Run (GPU): python benchmarks/gpu_tune_check.py OUT_DIR [OVERLAY.yaml]
"""

from __future__ import annotations

import csv
import json
import sys
import time
from pathlib import Path

from roofmodel.backends import require_gpu

SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024), (2048, 2048, 16384),
          (16384, 512, 4096)]  # fmt: skip
TOP = 6


def main() -> None:
    require_gpu()
    from roofmodel import Gemm, load_machine
    from roofmodel.backends.microbench import sustained_clock_mhz
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.triton_gemm import run_config
    from roofmodel.search.space import Space, tune_report

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    overlay = sys.argv[2] if len(sys.argv) > 2 else "docs/measurements/h100-2026-11-22/h100-measured.yaml"
    machine = load_machine(overlay)
    clock = sustained_clock_mhz(seconds=10.0)
    (out / "sustained_clock.json").write_text(json.dumps(clock, indent=2))
    print(f"sustained SM clock {clock['value']:.0f} MHz, {clock['tflops']:.0f} TFLOPS over 10 s")
    rows = []
    sampler = ClockSampler()
    with sampler.running():
        for m, n, k in SHAPES:
            rep = tune_report(machine, Gemm(m=m, n=n, k=k, dtype="fp16"), Space(name="triton"), top=TOP,
                              compute="measured")  # fmt: skip
            for r in rep.top:
                c = r.config
                group_m = int(c.raster.split(":")[1]) if c.raster.startswith("grouped") else 1
                row = {"m": m, "n": n, "k": k, "rank": r.rank, "block_m": c.bm, "block_n": c.bn, "block_k": c.bk,
                       "group_m": group_m, "num_warps": c.warps, "num_stages": c.stages,
                       "predicted_tflops": round(r.tflops, 2), "predicted_limiter": r.limiter}  # fmt: skip
                t0 = time.perf_counter()
                try:
                    got = run_config(m, n, k, "fp16", c.bm, c.bn, c.bk, group_m, c.warps, c.stages)
                    row.update(measured_tflops=round(got["tflops"], 2), time_ms=got["time_ms"],
                               registers_per_thread=got["registers_per_thread"], shared_bytes=got["shared_bytes"],
                               error="")  # fmt: skip
                except Exception as exc:  # a compile failure (out of shared memory) is a result too
                    row.update(measured_tflops="", time_ms="", registers_per_thread="", shared_bytes="",
                               error=" ".join(str(exc).split())[:200])  # fmt: skip
                rows.append(row)
                print(
                    f"{m}x{n}x{k} #{r.rank} {c.label():<48} predicted {r.tflops:6.1f} measured "
                    f"{row['measured_tflops'] or 'n/a':>7} ({time.perf_counter() - t0:.1f} s) {row['error'][:60]}"
                )
    with (out / "tune_check.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (out / "provenance.json").write_text(collect(sampler.samples).model_dump_json(indent=2))


if __name__ == "__main__":
    main()
