"""On an NVIDIA GPU: the rate at which an SM converts fp8 (e4m3) to fp16 in a register loop, the
conversion Triton puts in front of every mma.sync on fp8 operands on sm_90 (its PTX: cvt.rn.f16x2.e4m3x2
and m16n8k16.f16 MMAs; docs/measurements/h100-2026-11-25/layout_mma_sync). A finding, not a model
constant (docs/validation.md: charged in series it over-predicts the checks' fp8 mma.sync kernels by
36-52%; as a pipe beside the tensor cores it never binds).

Three Triton kernels over 8 programs per SM, each thread looping over registers and converting a
pair of fp8 values 1, 2 or 4 times per step (cvt.rn.f16x2.e4m3x2, inline PTX), folding the results
into an accumulator: the slope of time over conversions per step is the cost of one conversion with
its share of the loop's integer work (about 2.5 instructions a conversion in the compiled loop);
elements per cycle per SM = 2 x conversions / (slope x SM clock x SMs). Three runs. Writes OUT.json.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_convert_rate.py OUT.json
"""

from __future__ import annotations

import json
import subprocess
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def _cvt_e4m3x2(x):
    return tl.inline_asm_elementwise("cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h", [x], dtype=tl.int32, is_pure=True, pack=1)


@triton.jit
def _convert_loop(x_ptr, out_ptr, REPS: tl.constexpr, BLOCK: tl.constexpr, CONVERTS: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for _ in range(REPS):
        y = _cvt_e4m3x2(x)
        if CONVERTS >= 2:
            y = y ^ _cvt_e4m3x2(x + 3)
        if CONVERTS >= 4:
            y = y ^ _cvt_e4m3x2(x + 5) ^ _cvt_e4m3x2(x + 9)
        acc = acc ^ y
        x = x + 1
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


def clock_mhz() -> float:
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout  # fmt: skip
    return float(out.split()[0])


def main() -> None:
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    block, reps, programs = 2048, 4096, sms * 8
    x = torch.randint(0, 2**15 - 1, (programs * block,), dtype=torch.int16, device="cuda")
    out = torch.empty(programs * block, dtype=torch.int32, device="cuda")
    rows = []
    for _ in range(3):
        times, clocks = {}, []
        for n in (1, 2, 4):
            fn = lambda n=n: _convert_loop[(programs,)](x, out, REPS=reps, BLOCK=block, CONVERTS=n, num_warps=8)  # noqa: E731
            times[n] = float(triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")) * 1e-3
            clocks.append(clock_mhz())
        conversions = programs * block * reps  # per conversion in the loop body
        mhz = sum(clocks) / len(clocks)
        slope = (times[4] - times[1]) / 3  # seconds per conversion in the body
        rows.append({"seconds_by_conversions_per_element": times, "sm_clock_mhz_sampled": clocks,
                     "fp8_elements_per_cycle_per_sm": 2 * conversions / (slope * mhz * 1e6 * sms)})  # fmt: skip
        print(json.dumps(rows[-1]), flush=True)
    result = {"device": torch.cuda.get_device_name(0), "sms": sms, "programs": programs, "block": block, "reps": reps,
              "runs": rows, "how": __doc__.split("\n\n")[1].replace("\n", " ")}  # fmt: skip
    with open(sys.argv[1], "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
