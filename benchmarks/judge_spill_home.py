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
With --bands, the spilling kernels whose frames outgrow the L2, pooled over the samples, by band of frames / L2.
The tables in docs/validation.md are at the commits they name: later changes to the model move both columns.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import DATA, sample_figures
from benchmarks.judge_loop_local import conditions as loop_local_conditions
from roofmodel.backends.broad import Evaluator, Row, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.prediction import spill_frame_bytes

BANDS = (1.0, 1.5, 2.0, 3.0, 5.0, math.inf)


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


def frame_bands(specs: list[str]) -> dict[tuple[str, int], list[tuple[float, float]]]:
    """Per (instruction, band of F / L2 past 1: BANDS), the spilling kernels of the samples ``specs``
    (MACHINE:SAMPLE) as compiled: (log(predicted / measured) with every spill at the measured rate, homed). F is
    the resident frames of the spilled registers each kernel's loop reuses (prediction.spill_frame_registers)."""
    out: dict[tuple[str, int], list[tuple[float, float]]] = defaultdict(list)
    for spec in specs:
        machine, sample = spec.split(":", 1)
        m = load_machine(machine)
        old, new = Evaluator(m, 1980.0), Evaluator(m, 1980.0)
        old.spill_home = False
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set != "sweep" or not r.spilled_registers:
                continue
            terms, fp = new._terms(r, True, None)
            tiles = math.ceil(r.m / r.block_m) * math.ceil(r.n / r.block_n)
            frames = float(spill_frame_bytes(fp, 32 * r.num_warps, tiles, fp["ctas_per_sm"], m.sm_count.n))
            ratio = frames / m.memory.l2.capacity.bytes
            if ratio <= BANDS[0]:
                continue
            band = next(i for i, hi in enumerate(BANDS[1:]) if ratio <= hi)
            seconds = r.time_ms * 1e-3
            out[(r.instruction or "fma", band)].append(
                (math.log(float(old.seconds(r)["total"]) / seconds), math.log(float(terms["total"]) / seconds))
            )
    return out


def print_bands(specs: list[str]) -> None:
    """frame_bands as a table: per band and instruction, n and the median log(predicted / measured), old -> homed."""
    print("| F / L2 | instruction | n | every spill at the measured rate | homed |")
    print("|---|---|---|---|---|")
    for (ins, band), v in sorted(frame_bands(specs).items(), key=lambda kv: (kv[0][1], kv[0][0])):
        lo, hi = BANDS[band], BANDS[band + 1]
        print(
            f"| {lo:g}-{hi:g} | {ins} | {len(v)} | {statistics.median(a for a, _ in v):+.2f} | "
            f"{statistics.median(b for _, b in v):+.2f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="+", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-26/fresh7")
    ap.add_argument("--bands", action="store_true",
                    help="instead: the spilling kernels pooled over the samples by band of frames / L2 (frame_bands)")  # fmt: skip
    args = ap.parse_args()
    if args.bands:
        print_bands(args.samples)
        return
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
