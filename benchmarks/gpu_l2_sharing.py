"""On a GPU: does the L2 serve concurrent same-address reads faster than distinct ones?

The hierarchical bound counts every CTA's panel request as L2 traffic at the L2's distinct-address
bandwidth; on the H100 129 of 168 Triton GEMMs beat it (docs/validation-h100-2026-11-22.md). This measures
the two rates directly, three times each, and prints them (JSON to the path given, if any).

Run (GPU): python benchmarks/gpu_l2_sharing.py [OUT.json]
"""

from __future__ import annotations

import json
import sys

from roofmodel.backends import require_gpu


def main() -> None:
    require_gpu()
    from roofmodel.backends.microbench import l2_read_gb_per_s

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
