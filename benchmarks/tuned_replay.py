"""The tuned-replay check's figures (docs/measurements/h200-2026-11-29/tuned_replay): the 168 fp16 kernels of
2026-11-22 (tests/test_backends.py's guard, timed then on an H100) timed again on an H200 by gpu_broad_sweep.py
--tuned-replay, three runs of two passes each, against the per-CTA model as compiled.

The model is evaluated at 1980 MHz (what `roofmodel validate --clock 1980` takes for the sweeps) and at the clocks the
kernels ran at: the harness records the SM clock sampled as each timing was taken (broad.csv's sm_clock_mhz and
sm_clock_mhz_2; the sampler reads nvidia-smi about every half second), and each of a kernel's six timings is held to
the model at its own clock, the kernel's error the median of the six (at 1980 MHz, the model against the median of
the six times). The kernels run back to back at the board's power limit, so the clock falls under 1980 MHz for most
of them. Figures are printed by the nearness of the SM and memory times (the smaller over the larger; the memory time
the 2.5-norm of DRAM and the L2, as cta_model.MEMORY_NORM), with the model's overlap norm of the wgmma kernels
(cta_model.OVERLAP_NORM: 8 since 2026-11-29) or ``--norm P`` for another (``--norm inf``: the model before, the
larger alone, which the README's first table was written with).

    python benchmarks/tuned_replay.py [--norm inf]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model import cta_model

REPLAY = Path(__file__).resolve().parent.parent / "docs" / "measurements" / "h200-2026-11-29" / "tuned_replay"
RUNS = (REPLAY, REPLAY / "repeat2", REPLAY / "repeat3")
BANDS = ((0.0, 0.7), (0.7, 0.85), (0.85, 1.0))


def recorded_clocks(runs: tuple[Path, ...] = RUNS) -> list[list[tuple[float, float]]]:
    """Each kernel's (seconds, SM clock in MHz) for its timings that carry a clock: both passes of every run, in the
    runs' common row order (checked)."""
    tables = [read_broad_csv(run / "broad.csv") for run in runs]
    keys = [
        [(r.shape, r.block_m, r.block_n, r.block_k, r.group_m, r.num_warps, r.num_stages) for r in t] for t in tables
    ]
    if any(k != keys[0] for k in keys):
        raise SystemExit("tuned_replay: the runs' rows are not the same kernels in the same order")
    return [
        [(ms * 1e-3, mhz) for r in rows for ms, mhz in ((r.time_ms, r.sm_clock_mhz), (r.time_ms_2, r.sm_clock_mhz_2))
         if ms and mhz]
        for rows in zip(*tables, strict=True)
    ]  # fmt: skip


def errors(at_recorded_clocks: bool) -> list[tuple[float, float]]:
    """(predicted / measured - 1, nearness of SM and memory time) for each kernel: at 1980 MHz against the median of
    its six times, or each timing against the model at its own recorded clock, the median of the six errors."""
    machine = load_machine("h200")
    rows = read_broad_csv(RUNS[0] / "broad.csv")
    evaluators: dict[float, Evaluator] = {}

    def terms_at(row: Any, mhz: float) -> dict[str, Any]:
        ev = evaluators.setdefault(mhz, Evaluator(machine, mhz))
        return ev._terms(row, True, None)[0]

    out = []
    for row, timings in zip(rows, recorded_clocks(), strict=True):
        if at_recorded_clocks:
            err = statistics.median(float(terms_at(row, mhz)["total"]) / s - 1.0 for s, mhz in timings)
            terms = terms_at(row, statistics.median(mhz for _, mhz in timings))
        else:
            terms = terms_at(row, 1980.0)
            err = float(terms["total"]) / statistics.median(s for s, _ in timings) - 1.0
        memory = cta_model.p_norm(cta_model.MEMORY_NORM, terms["DRAM"], terms["L2"])
        near = min(terms["sm"], memory) / max(terms["sm"], memory)
        out.append((err, float(near)))
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
    clocks = sorted(mhz for timings in recorded_clocks() for _, mhz in timings)
    print(
        f"the SM and memory times of wgmma kernels by their p-norm, p = {cta_model.OVERLAP_NORM:g} (cta_model.OVERLAP_NORM)"
    )
    low = sum(c < 1900 for c in clocks)
    print(f"recorded SM clocks: {len(clocks)} timings, median {statistics.median(clocks):.0f} MHz, "
          f"{clocks[0]:.0f}-{clocks[-1]:.0f}; {low} under 1900")  # fmt: skip
    for label, recorded in (("1980 MHz", False), ("recorded clocks", True)):
        rows = errors(recorded)
        print(f"{label}: all {summary([e for e, _ in rows])}")
        for lo, hi in BANDS:
            print(f"  SM/memory nearness {lo:.2f}-{hi:.2f}: {summary([e for e, n in rows if lo < n <= hi])}")


if __name__ == "__main__":
    main()
