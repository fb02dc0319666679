"""Spills homed where their frames fit against every spill at the measured rate, on recorded broad samples: the
figures of the rule pre-registered in the commit that adds cta_model.spill_home (first read on fresh7), as
compiled, with the homing (the default) and without it (roofmodel.backends.broad.Evaluator.spill_home = False).

    python benchmarks/judge_spill_home.py h100:h100-2026-11-26/fresh7 h200:h200-2026-11-26/fresh7

Per sample and model: median and p90 |error| over the sweep's kernels, the median |error| of the kernels that
spill (those the homing can change), the worst within-shape Spearman, `tune --compile-top 8` as the reports
emulate it (compiled_pick_figures): its worst first pick and groups under 0.90, and `predict --kernel triton`'s
median and p90; then the rule's five conditions: (1) median <= the old model's + 0.2 points, (2) p90 <= the old
+ 1 point, (3) the spilling kernels' median below the old, (4) the worst pick no more than 0.02 lower and at
most 2 more groups under 0.90, (5) predict's median <= the old + 0.5 points and its p90 <= the old + 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import conditions as loop_local_conditions
from benchmarks.judge_loop_local import sample_figures
from roofmodel.backends.broad import Row


def spills(row: Row) -> bool:
    """The kernels the homing can change: those that spill."""
    return row.record.spilled_registers > 0


def conditions(old: tuple[float, ...], new: tuple[float, ...]) -> list[bool]:
    """The pre-registered rule's five conditions (module docstring): judge_loop_local's four, then predict's."""
    return [*loop_local_conditions(old, new), new[7] <= old[7] + 0.5 and new[8] <= old[8] + 2.0]


def table_cell(x: tuple[float, ...]) -> str:
    """One model's figures on a sample, as the tables in docs/validation.md give them."""
    return (f"{x[0]:.1f}% / {x[1]:.1f}%, {x[2]:.1f}%, {x[3]:.2f}, {x[4]:.2f}, {x[5]:.0f} of {x[6]:.0f}; "
            f"{x[7]:.1f}% / {x[8]:.1f}%")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="+", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-26/fresh7")
    args = ap.parse_args()
    print("| sample | measured rate: median / p90, spilling, worst Spearman, worst pick, under 0.90; predict "
          "| homed: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|")
    for spec in args.samples:
        machine, sample = spec.split(":", 1)
        f = sample_figures(machine, sample, "spill_home", spills, ("old", "homed"))
        ok = conditions(f["old"], f["homed"])
        print(f"| {sample} | {table_cell(f['old'])} | {table_cell(f['homed'])} | "
              f"{'pass' if all(ok) else 'fail ' + ','.join(str(i + 1) for i, x in enumerate(ok) if not x)} |")  # fmt: skip


if __name__ == "__main__":
    main()
