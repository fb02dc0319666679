"""Run roofmodel calibrate's kernel-cost microbenchmark on the GPU (without the rest of calibrate,
and without pydantic: the device machines lack it): the launch cost and the K sweep of
roofmodel.model.kernel_costs, wgmma and mma.sync, derived as calibrate derives them. Writes
OUT/kernel_costs.json.

    PYTHONPATH=. python benchmarks/gpu_kernel_costs.py OUT [--mma-sync-tflops 426]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--mma-sync-tflops", type=float, default=426.0, help="the machine file's fp16 mma.sync rate")
    args = ap.parse_args()
    import torch

    from roofmodel.backends.microbench import kernel_costs, matmul_tflops

    cublas = matmul_tflops("fp16")
    major = torch.cuda.get_device_capability(0)[0]

    def rate(dtype: str, family: str) -> float:
        return cublas["value"] if family == "wgmma" or major < 9 else args.mma_sync_tflops

    res = kernel_costs(rate)
    fit = res["fit"]
    doc = {
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "cublas_fp16_tflops": cublas["value"],
        "mma_sync_fp16_tflops": args.mma_sync_tflops,
        "launch_s": res["launch"]["value"],
        "wait_s": fit.wait_s,
        "iteration_s": fit.iteration_s,
        "copy_issue_s": fit.copy_issue_s,
        "kernels": [{"label": k.label(), "points": k.points} for k in res["kernels"]],
        "per_kernel": [
            {"label": a, "per_iteration_s": b, "mma_s": c, "copies_per_thread": d} for a, b, c, d in fit.kernels
        ],
    }
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "kernel_costs.json").write_text(json.dumps(doc, indent=1))
    print(json.dumps({k: v for k, v in doc.items() if k not in ("kernels",)}, indent=1))


if __name__ == "__main__":
    main()
