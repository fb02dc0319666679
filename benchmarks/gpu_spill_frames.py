"""On an NVIDIA GPU: how fast the chip reloads and stores a working set that every SM reuses in turn, as the set
grows past the L2, which is where a spilling kernel's local frames live (cta_model.spill_home charges the share of
them the L2 misses, 1 - C / F for frames of F bytes and an L2 of C, at the rates beyond it).

Each of P programs (P = SMs x ``per_sm``) owns F / P contiguous bytes and, R times over, loads every 16 bytes of
them (ld.global.cg: past L1, as a frame of many KiB per CTA would be) and stores them back plus one: a register
frame's store and reload per main-loop iteration, with every other program's frame touched between two touches of
one line. The time per pass is the slope of the time over R (R = 2 and 6, do_bench medians, the L2 flushed before
each run), so the first pass's cold misses drop out; the rate is 2 F / that time. Also ``torch.add_`` over the
whole buffer (the same reuse distance, a line touched by another SM each pass), and a one-thread pointer chase
(roofmodel.backends.microbench.pointer_chase_ns) at the sizes around the L2's capacity. Writes OUT/frames.csv
(pattern, per_sm, mib, seconds per pass, GB/s) and OUT/meta.json (device, L2 bytes the driver reports, SM clock
samples, the chase's latencies).

Run (GPU): PYTHONPATH=. python benchmarks/gpu_spill_frames.py OUT
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import triton
import triton.language as tl

MIB = (4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 96, 128, 192, 256)
PER_SM = (1, 4)
REPS = (2, 6)
CHASE_MIB = (8, 16, 24, 32, 40, 48, 56, 64, 96)
BLOCK = 2048  # int32 elements a program loads and stores at once (8 KiB)


@triton.jit
def _frames_kernel(x_ptr, chunk, reps, BLOCK: tl.constexpr):
    base = x_ptr + tl.program_id(0).to(tl.int64) * chunk
    for _ in range(reps):
        for off in range(0, chunk, BLOCK):
            p = base + off + tl.arange(0, BLOCK)
            v = tl.load(p, cache_modifier=".cg")
            tl.store(p, v + 1)


def frame_pass_seconds(x, programs: int, warps: int) -> float:
    """Seconds one pass of every program over its own chunk takes: (time at REPS[1] - time at REPS[0]) / the passes
    between them, do_bench medians. ``x``: int32, a multiple of programs x BLOCK elements."""
    chunk = x.numel() // programs

    def run(r: int) -> None:
        _frames_kernel[(programs,)](x, chunk, r, BLOCK=BLOCK, num_warps=warps)

    times = [triton.testing.do_bench(lambda r=r: run(r), warmup=5, rep=60, return_mode="median") for r in REPS]
    return (times[1] - times[0]) * 1e-3 / (REPS[1] - REPS[0])


def frames_checked(x, programs: int, warps: int) -> bool:
    """Whether a run of REPS[0] passes added REPS[0] to every element (the kernel touches the whole buffer)."""
    x.zero_()
    _frames_kernel[(programs,)](x, x.numel() // programs, REPS[0], BLOCK=BLOCK, num_warps=warps)
    return bool((x == REPS[0]).all().item())


def torch_add_ms(y, passes: int) -> float:
    """do_bench median (ms) of ``passes`` in-place additions over the whole of ``y``."""

    def run() -> None:
        for _ in range(passes):
            y.add_(1)

    return triton.testing.do_bench(run, warmup=5, rep=60, return_mode="median")


def main() -> None:
    import torch

    from benchmarks.gpu_wgmma_chain import sm_clock_mhz
    from roofmodel.backends.microbench import pointer_chase_ns

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    meta = {"device": torch.cuda.get_device_name(0), "l2_bytes": getattr(props, "L2_cache_size", None), "sms": sms,
            "triton": triton.__version__, "torch": torch.__version__, "block": BLOCK, "reps": REPS, "clock_mhz": []}  # fmt: skip
    rows = []
    for mib in MIB:
        for per_sm in PER_SM:
            programs, warps = sms * per_sm, 8 if per_sm == 1 else 4
            n = (mib * 2**20 // 4) // (programs * BLOCK) * programs * BLOCK
            x = torch.zeros(n, dtype=torch.int32, device="cuda")
            ok = frames_checked(x, programs, warps)
            s = frame_pass_seconds(x, programs, warps)
            rows.append({"pattern": "frames", "per_sm": per_sm, "warps": warps, "mib": round(n * 4 / 2**20, 3),
                         "seconds_per_pass": s, "gb_per_s": 2 * n * 4 / s / 1e9, "checked": ok})  # fmt: skip
            print(rows[-1], flush=True)
            del x
        y = torch.zeros(mib * 2**20 // 4, dtype=torch.int32, device="cuda")
        one, three = (torch_add_ms(y, r) for r in (1, 3))
        s = (three - one) * 1e-3 / 2
        rows.append({"pattern": "torch add_", "per_sm": "", "warps": "", "mib": mib, "seconds_per_pass": s,
                     "gb_per_s": 2 * y.numel() * 4 / s / 1e9, "checked": True})  # fmt: skip
        print(rows[-1], flush=True)
        del y
        meta["clock_mhz"].append(sm_clock_mhz())
    with (out / "frames.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    meta["chase_ns"] = {}
    for mib in CHASE_MIB:
        meta["chase_ns"][str(mib)] = pointer_chase_ns(mib)["value"]
        print("chase", mib, "MiB", round(meta["chase_ns"][str(mib)], 1), "ns", flush=True)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
