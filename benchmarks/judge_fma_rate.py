"""A Triton kernel's FMA rate (kernel_costs.fma_rate, 85.6 FMA/cycle/SM on the H100: 44.4 TFLOPS at 1,965 MHz;
judged in 2d653f7 as the fp32 FMA instruction's own rate) against the fp32 pipe's (cuBLAS SGEMM's 52), on recorded
broad samples: the figures of the rule pre-registered in 2d653f7 (first read on fresh8), as compiled, with each
machine file (the one before the change, written out of git, against the one now).

    git show bd5ebc4:machines/h100.yaml > /tmp/h100-before.yaml
    python benchmarks/judge_fma_rate.py /tmp/h100-before.yaml:machines/h100.yaml:h100-2026-11-27/fresh8

Per sample and machine file: median and p90 |error| over the sweep's kernels, the median |error| of the fp32
kernels (those the rate changes), the worst within-shape Spearman, `tune --compile-top 8`'s worst pick and groups
under 0.90, and `predict --kernel triton`'s median and p90; then the rule's five conditions, those of
benchmarks/judge_spill_home.py with the fp32 kernels in place of the spilling ones.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import sample_figures
from benchmarks.judge_spill_home import conditions, table_cell
from roofmodel.backends.broad import Row


def fp32(row: Row) -> bool:
    """The kernels the FMA rate changes: fp32's, all FMA."""
    return row.record.dtype == "fp32"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="+", metavar="BEFORE:AFTER:SAMPLE",
                    help="two machine files and a sample, e.g. /tmp/h100-before.yaml:machines/h100.yaml:h100-2026-11-27/fresh8")  # fmt: skip
    args = ap.parse_args()
    print("| sample | the pipe's rate: median / p90, fp32, worst Spearman, worst pick, under 0.90; predict "
          "| Triton's FMA rate: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|")
    for spec in args.samples:
        before, after, sample = spec.split(":", 2)
        f = sample_figures("", sample, "", fp32, ("before", "after"), (before, after))
        ok = conditions(f["before"], f["after"])
        print(f"| {sample} | {table_cell(f['before'])} | {table_cell(f['after'])} | "
              f"{'pass' if all(ok) else 'fail ' + ','.join(str(i + 1) for i, x in enumerate(ok) if not x)} |")  # fmt: skip


if __name__ == "__main__":
    main()
