"""On a GPU: does the L2 serve concurrent same-address reads faster than distinct ones?

The hierarchical bound counts every CTA's panel request as L2 traffic at the L2's distinct-address
bandwidth; on the H100 129 of 168 Triton GEMMs beat it (docs/validation-h100-2026-11-22.md). This measures
the two rates directly, three times each, and prints them (JSON to the path given, if any).

With --groups it reads slices shared by groups of programs instead, as a GEMM wave's CTAs share its
panels (roofmodel.backends.microbench.l2_group_read_gb_per_s: 1, 2, 4, 8, 16, 32 readers per slice and
every program on one slice, at 1, 2, 4 and 8 programs per SM, three times each). On the H100
(docs/measurements/h100-2026-11-25/l2_groups.json) distinct reads saturate near 7.5 TB/s at any
concurrency, while shared ones grow with the programs per SM (9.1 TB/s at one, 15 at two, 18 at four,
24 at eight): the probe's loads wait on each other, so a shared-read figure is the probe's concurrency,
not the L2's ceiling.

Run (GPU): python benchmarks/gpu_l2_sharing.py [OUT.json] [--groups]
"""

from __future__ import annotations

import json
import sys

from roofmodel.backends import require_gpu


def groups() -> list[dict]:
    """Every (readers per slice, programs per SM) point, three runs each."""
    from roofmodel.backends.microbench import l2_group_read_gb_per_s

    rows = []
    for programs_per_sm in (1, 2, 4, 8):
        for group in (1, 2, 4, 8, 16, 32, programs_per_sm * 132):
            runs = [l2_group_read_gb_per_s(group, programs_per_sm) for _ in range(3)]
            values = sorted(r["value"] for r in runs)
            rows.append({"group": group, "programs_per_sm": programs_per_sm, "gb_per_s": values, "how": runs[0]["how"]})
            print(f"group {group:4} programs/SM {programs_per_sm}: {values[1]:8.0f} GB/s (min {values[0]:.0f}, "
                  f"max {values[2]:.0f})", flush=True)  # fmt: skip
    return rows


def main() -> None:
    require_gpu()
    from roofmodel.backends.microbench import l2_read_gb_per_s

    if "--groups" in sys.argv:
        sys.argv.remove("--groups")
        rows = groups()
        if len(sys.argv) > 1:
            with open(sys.argv[1], "w") as f:
                json.dump({"groups": rows}, f, indent=2)
        return

    rows = []
    for shared in (False, True):
        for programs_per_sm in (4, 8):
            runs = [l2_read_gb_per_s(programs_per_sm=programs_per_sm, shared=shared) for _ in range(3)]
            values = sorted(r["value"] for r in runs)
            rows.append(
                {"shared": shared, "programs_per_sm": programs_per_sm, "gb_per_s": values, "how": runs[0]["how"]}
            )
            print(f"shared={shared!s:<5} programs/SM={programs_per_sm}: {values[1]:8.0f} GB/s "
                  f"(min {values[0]:.0f}, max {values[2]:.0f})")  # fmt: skip
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
