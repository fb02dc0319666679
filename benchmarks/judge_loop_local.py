"""The counted loops against the spill rules on recorded broad samples: the figures of the rule pre-registered in
3a67c14 (first read on fresh6), as compiled, with each kernel's loop_local.csv counts (the default) and without them
(roofmodel.backends.broad.Evaluator.loop_local = False: the loop-fits rule and the compiled spill counts).

    python benchmarks/judge_loop_local.py h100:h100-2026-11-26/fresh6 h200:h200-2026-11-26/fresh6

Per sample and model: median and p90 |error| over the sweep's kernels, the median |error| of the wgmma and FMA
kernels that spill (those the counts change), the worst within-shape Spearman, and `tune --compile-top 8` as
the reports emulate it (compiled_pick_figures): its worst first pick and groups under 0.90; then the rule's four
conditions: (1) median <= the rules' + 0.2 points, (2) p90 <= the rules' + 1 point, (3) the wgmma and FMA
spilling median below the rules', (4) the worst pick no more than 0.02 lower and at most 2 more groups under 0.90.
The table in docs/validation.md is at the commits it names (3a67c14, the parser fixed in f2d1897): later changes to
the model (the spill homing of c1948a3, the FMA rate of 2d653f7) move both columns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roofmodel.backends.broad import Evaluator, Row, compiled_pick_figures, figures, read_broad_csv
from roofmodel.backends.records import percent_error
from roofmodel.machine import load_machine

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements"


def loop_counts_touch(row: Row) -> bool:
    """The kernels the counted loops changed when that judge ran: wgmma and FMA kernels with loop_local.csv counts
    (a counted mma.sync loop's bytes are charged too since 04fe70b; this judge keeps its own set)."""
    return row.record.loop_local_bytes is not None and row.record.instruction in ("wgmma", "fma")


def sample_figures(
    machine: str,
    sample: str,
    switch: str = "loop_local",
    touched: Callable[[Row], bool] = loop_counts_touch,
    names: tuple[str, str] = ("rules", "counted"),
    machines: tuple[str, str] | None = None,
) -> dict[str, tuple[float, ...]]:
    """{names[0] (the Evaluator's ``switch`` off) | names[1] (on): (median, p90, the median |error| of the kernels
    ``touched`` picks, worst Spearman, worst pick, groups under 0.9, groups, and ``predict --kernel triton``'s
    median and p90)} at 1980 MHz, as the reports are computed. ``machines``: two machine files (before, after) in
    place of ``machine`` and the switch (left on)."""
    records = [r for r in read_broad_csv(DATA / sample / "broad.csv") if r.set == "sweep"]
    out: dict[str, tuple[float, ...]] = {}
    for i, name in enumerate(names):
        ev = Evaluator(load_machine(machines[i] if machines else machine), 1980.0)
        if machines is None:
            setattr(ev, switch, bool(i))
        rows = [Row(r, float(ev.seconds(r)["total"]), 0.0, ev.predict_seconds(r)) for r in records]
        out[name] = row_figures(rows, touched)
    return out


def row_figures(rows: list[Row], touched: Callable[[Row], bool]) -> tuple[float, ...]:
    """One model's figures on a sample's rows (sample_figures' tuple): median, p90, the median |error| of the kernels
    ``touched`` picks, worst Spearman, worst pick, groups under 0.9, groups, predict's median and p90."""
    f, c, p = figures(rows), compiled_pick_figures(rows), figures(rows, "predict")
    picked = [abs(percent_error(x.cta, x.measured)) for x in rows if touched(x)]
    return (f["median_abs_pct"], f["p90_abs_pct"], statistics.median(picked) if picked else 0.0,
            f["spearman_min"], c["first_over_best_min"], c["under_0_9"], c["groups"],
            p["median_abs_pct"], p["p90_abs_pct"])  # fmt: skip


def conditions(rules: tuple[float, ...], counted: tuple[float, ...]) -> list[bool]:
    """The pre-registered rule's four conditions (module docstring)."""
    return [
        counted[0] <= rules[0] + 0.2,
        counted[1] <= rules[1] + 1.0,
        counted[2] < rules[2],
        counted[4] >= rules[4] - 0.02 and counted[5] <= rules[5] + 2,
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="+", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-26/fresh6")
    args = ap.parse_args()
    print("| sample | spill rules: median / p90, wgmma+FMA spilling, worst Spearman, worst pick, under 0.90 "
          "| counted loops: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|")
    for spec in args.samples:
        machine, sample = spec.split(":", 1)
        f = sample_figures(machine, sample)

        def cell(x: tuple[float, ...]) -> str:
            return f"{x[0]:.1f}% / {x[1]:.1f}%, {x[2]:.1f}%, {x[3]:.2f}, {x[4]:.2f}, {x[5]:.0f} of {x[6]:.0f}"

        ok = conditions(f["rules"], f["counted"])
        print(f"| {sample} | {cell(f['rules'])} | {cell(f['counted'])} | "
              f"{'pass' if all(ok) else 'fail ' + ','.join(str(i + 1) for i, x in enumerate(ok) if not x)} |")  # fmt: skip


if __name__ == "__main__":
    main()
