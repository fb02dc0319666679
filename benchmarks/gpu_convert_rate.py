"""On an NVIDIA GPU: the rate at which an SM converts fp8 (e4m3) to fp16, the conversion Triton puts in
front of every mma.sync on fp8 operands on sm_90 (its PTX: cvt.rn.f16x2.e4m3x2 and m16n8k16.f16
MMAs; docs/measurements/h100-2026-11-25/layout_mma_sync): kernel_costs.convert.

Three Triton kernels over 8 programs per SM, each thread looping over registers and converting a
pair of fp8 values 1, 2 or 4 times per step (cvt.rn.f16x2.e4m3x2, inline PTX), folding the results
into an accumulator: the slope of time over conversions per step is the cost of one
(roofmodel.backends.microbench.convert_seconds_per_element, which roofmodel calibrate runs too);
elements per cycle per SM at the sampled SM clock. Three runs. Writes OUT.json.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_convert_rate.py OUT.json
"""

from __future__ import annotations

import json
import subprocess
import sys

import torch

from roofmodel.backends.microbench import convert_seconds_per_element


def clock_mhz() -> float:
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout  # fmt: skip
    return float(out.split()[0])


def main() -> None:
    rows = []
    for _ in range(3):
        r = convert_seconds_per_element()
        mhz = clock_mhz()
        rows.append({"seconds_by_conversions_per_element": r["seconds"], "sm_clock_mhz_sampled": [mhz],
                     "seconds_per_element_per_sm": r["value"],
                     "fp8_elements_per_cycle_per_sm": 1 / (r["value"] * mhz * 1e6)})  # fmt: skip
        print(json.dumps(rows[-1]), flush=True)
    result = {"device": torch.cuda.get_device_name(0), "runs": rows, "how": __doc__.split("\n\n")[1].replace("\n", " ")}
    with open(sys.argv[1], "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
