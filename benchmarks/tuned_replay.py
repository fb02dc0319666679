"""The tuned-replay check's figures (docs/measurements/h200-2026-11-29/tuned_replay): the 168 fp16 kernels of
2026-11-22 (tests/test_backends.py's guard, timed then on an H100) timed again on an H200 by gpu_broad_sweep.py
--tuned-replay, three runs of two passes each, against the per-CTA model as compiled.

Each kernel's measured time is the median of its six timings. The model is evaluated at 1980 MHz (what `roofmodel
validate --clock 1980` takes for the sweeps) and at the SM clock sampled while its shape ran: the median of every
clocks.csv sample within a quarter second of the shape's passes in the three runs (the log writes when each shape's
pass ends; a pass of 28 kernels lasts 0.4-1 s, about two samples). The kernels run back to back at the board's power
limit, so the clock falls under 1980 MHz for most shapes. Figures are printed by the nearness of the SM and memory
times (the smaller over the larger; the memory time the 2.5-norm of DRAM and the L2, as cta_model.MEMORY_NORM), and
with ``--norm P`` for a what-if overlap norm of the wgmma kernels (cta_model.OVERLAP_NORM: 8 since 2026-11-29;
``--norm inf`` is the model before, which the README's table was first written with).

    python benchmarks/tuned_replay.py [--norm inf]
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model import cta_model

REPLAY = Path(__file__).resolve().parent.parent / "docs" / "measurements" / "h200-2026-11-29" / "tuned_replay"
RUNS = (REPLAY, REPLAY / "repeat2", REPLAY / "repeat3")
PASS_LINE = re.compile(r"\[\s*([\d.]+) s\] pass (\d): shape (\S+) done")
BANDS = ((0.0, 0.7), (0.7, 0.85), (0.85, 1.0))


def sampled_clocks(runs: tuple[Path, ...] = RUNS) -> dict[str, float]:
    """Each shape's median SM clock (MHz) over the clocks.csv samples within 0.25 s of its passes, in every run."""
    samples: dict[str, list[float]] = {}
    for run in runs:
        clocks = [line.split(",") for line in (run / "clocks.csv").read_text().splitlines()[1:]]
        ends = [(float(t), shape) for t, _, shape in PASS_LINE.findall((run / "log.txt").read_text())]
        for i, (end, shape) in enumerate(ends):
            start = ends[i - 1][0] if i else end - 0.6
            samples.setdefault(shape, []).extend(
                float(c[1]) for c in clocks if start - 0.25 <= float(c[0]) <= end + 0.25
            )
    return {shape: statistics.median(v) for shape, v in samples.items()}


def errors(clock_of: dict[str, float] | None) -> list[tuple[float, float]]:
    """(predicted / measured - 1, nearness of SM and memory time) for each kernel, at 1980 MHz where ``clock_of`` is
    None, else at its shape's clock."""
    machine = load_machine("h200")
    runs = [read_broad_csv(run / "broad.csv") for run in RUNS]
    evaluators: dict[float, Evaluator] = {}
    out = []
    for i, row in enumerate(runs[0]):
        mhz = 1980.0 if clock_of is None else clock_of[row.shape]
        ev = evaluators.setdefault(mhz, Evaluator(machine, mhz))
        terms, _ = ev._terms(row, True, None)
        times = [float(t) for r in runs for t in (r[i].time_ms, r[i].time_ms_2) if t]
        measured = statistics.median(times) * 1e-3
        memory = cta_model.p_norm(cta_model.MEMORY_NORM, terms["DRAM"], terms["L2"])
        near = min(terms["sm"], memory) / max(terms["sm"], memory)
        out.append((float(terms["total"]) / measured - 1.0, float(near)))
    return out


def summary(errs: list[float]) -> str:
    """n, median and p90 |error|, median signed error (percent)."""
    if not errs:
        return "n 0"
    absolute = sorted(abs(e) for e in errs)
    p90 = absolute[math.ceil(0.9 * len(absolute)) - 1]
    return (f"n {len(errs):3d}, median {100 * statistics.median(absolute):5.1f}%, p90 {100 * p90:5.1f}%, "
            f"signed {100 * statistics.median(errs):+6.1f}%")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--norm", type=float, default=None, help="a what-if cta_model.OVERLAP_NORM (wgmma kernels)")
    args = ap.parse_args()
    if args.norm is not None:
        cta_model.OVERLAP_NORM = args.norm
    clocks = sampled_clocks()
    print(
        f"the SM and memory times of wgmma kernels by their p-norm, p = {cta_model.OVERLAP_NORM:g} (cta_model.OVERLAP_NORM)"
    )
    print("sampled SM clock by shape (MHz):", ", ".join(f"{s} {c:.0f}" for s, c in sorted(clocks.items())))
    for label, clock_of in (("1980 MHz", None), ("sampled clock", clocks)):
        rows = errors(clock_of)
        print(f"{label}: all {summary([e for e, _ in rows])}")
        for lo, hi in BANDS:
            print(f"  SM/memory nearness {lo:.2f}-{hi:.2f}: {summary([e for e, n in rows if lo < n <= hi])}")


if __name__ == "__main__":
    main()
