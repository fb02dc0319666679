"""memory.l2.reuse_capacity from a run of benchmarks/gpu_spill_frames.py: for each pattern of frames (one or four
programs an SM), the share of the reloads and stores that miss the L2 at each size F, from the rate r(F) between
the pattern's L2 rate r_L2 (the median over 8-24 MiB) and its DRAM rate r_D (the median from 96 MiB on), the time a
byte takes being (1 - miss) / r_L2 + miss / r_D:

    miss(F) = (1 / r(F) - 1 / r_L2) / (1 / r_D - 1 / r_L2)

then the size at which half of them first miss (F_half, linear between the two measured sizes that bracket it) and
the ramp of cta_model.reuse_miss_share put through it, rising linearly from H to all misses at the L2's capacity C:
H = 2 F_half - C. The reuse capacity recorded is the mean of the patterns' H. Printed beside it, as a check of the
ramp's shape: the last size from 16 MiB on up to which no miss share passes 5%, and the first from which all pass 95%.

    python benchmarks/derive_spill_frames.py [FRAMES_CSV] [--capacity-mib 50]
"""

from __future__ import annotations

import argparse
import csv
import itertools
import statistics
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h100-2026-11-27" / "spill_frames"
HOLD, ALL = 0.05, 0.95
NOISE_MIB = 16  # below it a pass takes a few microseconds and the rates scatter by 10%


def miss_shares(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """(MiB, miss share) for (MiB, GB/s) points of one pattern, in order of size."""
    points = sorted(points)
    l2 = statistics.median(r for f, r in points if 8 <= f <= 24)
    dram = statistics.median(r for f, r in points if f >= 96)
    return [(f, (1 / r - 1 / l2) / (1 / dram - 1 / l2)) for f, r in points]


def hold_and_all(shares: list[tuple[float, float]]) -> tuple[float, float]:
    """(the largest size from NOISE_MIB on up to which every miss share is at most HOLD, the smallest from which
    every one is at least ALL), MiB."""
    shares = [(f, m) for f, m in shares if f >= NOISE_MIB]
    hold = max(f for f, _ in shares if all(m <= HOLD for g, m in shares if g <= f))
    full = min(f for f, _ in shares if all(m >= ALL for g, m in shares if g >= f))
    return hold, full


def half_miss_mib(shares: list[tuple[float, float]]) -> float:
    """The size (MiB) at which the miss share first reaches one half, linear between the measured sizes around it."""
    for (f0, m0), (f1, m1) in itertools.pairwise(shares):
        if m0 < 0.5 <= m1:
            return f0 + (0.5 - m0) / (m1 - m0) * (f1 - f0)
    raise ValueError("no measured size misses half of its reloads")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("frames", nargs="?", default=str(DEFAULT / "frames.csv"))
    ap.add_argument("--capacity-mib", type=float, default=50.0, help="the L2's capacity (memory.l2.capacity)")
    args = ap.parse_args()
    with Path(args.frames).open() as f:
        rows = [r for r in csv.DictReader(f) if r["pattern"] == "frames" and r["checked"] == "True"]
    starts = []
    for per_sm in sorted({r["per_sm"] for r in rows}, key=int):
        points = [(float(r["mib"]), float(r["gb_per_s"])) for r in rows if r["per_sm"] == per_sm]
        shares = miss_shares([p for p in points if p[1] > 0])
        half = half_miss_mib(shares)
        starts.append(2 * half - args.capacity_mib)
        hold, full = hold_and_all(shares)
        print(f"{per_sm} program(s) an SM: " + ", ".join(f"{f:g} MiB {m:.2f}" for f, m in shares if 24 <= f <= 64))
        print(f"  half miss at {half:.1f} MiB: the ramp starts at {starts[-1]:.1f} MiB; measured: holds to {hold:.1f} "
              f"MiB, misses all from {full:.1f} MiB")  # fmt: skip
    print(f"memory.l2.reuse_capacity: {statistics.mean(starts):.1f} MiB (the mean of {len(starts)} patterns' starts)")


if __name__ == "__main__":
    main()
