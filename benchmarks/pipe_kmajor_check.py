"""The K-major pipe check's figures (docs/measurements/h200-2026-11-30/pipe_kmajor): fp32 Triton FMA tiles with B
K-major (A K-major, and three with A M-major) against the same tiles with B N-major, on 11 x 12 x R tiles (R = 1, 2, 4
tiles an SM) at 32 and 96 iterations, timed in two runs of two passes on an H200, against the per-CTA model as
compiled at 1980 MHz (pipe_check.slopes: the slope of the time over the 64 iterations between the two K, what an
iteration of the SM's round costs).

The derivation fixed before the run (f3de243): p_k is the p of CANDIDATES whose model slope has the least median
|log(model / measured)| over the non-spilling rows with B K-major at R = 2 and 4; the rows with B N-major at R = 2 and
4 must be within 0.92-1.10 of the measured with the 4-norm (cta_model.ISSUED_PIPE_NORM), or no rule is derived.

    python benchmarks/pipe_kmajor_check.py
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, print_table, replaced, timed_rows
from benchmarks.pipe_check import slopes
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model import cta_model

DATA = MEASUREMENTS / "h200-2026-11-30" / "pipe_kmajor"
CANDIDATES = (1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
CONTROL_BAND = (0.92, 1.10)
JUDGED_GRIDS = (2, 4)


def _layout(shape: str) -> str:
    """pipek-kk-... -> "kk": A's and B's majors."""
    return shape.split("-")[1]


def spilled() -> set[str]:
    """The shapes whose compiled kernel spills registers (either K)."""
    return {row[0].shape for row in timed_rows(DATA) if row[0].spilled_registers > 0}


def per_iteration() -> list[dict[str, Any]]:
    """One row per tile, layout and R: whether it spills, the CTAs an SM holds, the model's FFMA over shared-memory
    cycles of a CTA iteration, and ns an iteration of the round measured and modelled at each p of CANDIDATES."""
    by_p = {p: slopes(p, DATA) for p in CANDIDATES}
    spills = spilled()
    out = []
    for shape, (measured, _, held, mma, smem, _) in sorted(by_p[4.0].items(), key=lambda kv: (_layout(kv[0]), kv[0])):
        out.append(dict(shape=shape.removeprefix("pipek-"), layout=_layout(shape), per=int(shape.rsplit("-x", 1)[1]),
                        spills=shape in spills, held=held, ratio=mma / smem, measured=measured,
                        model={p: by_p[p][shape][1] for p in CANDIDATES}))  # fmt: skip
    return out


def judged_rows(rows: list[dict[str, Any]], k_major: bool) -> list[dict[str, Any]]:
    """The rows the derivation judges: no spills, JUDGED_GRIDS tiles an SM, B K-major (``k_major``) or N-major."""
    return [r for r in rows if not r["spills"] and r["per"] in JUDGED_GRIDS and (r["layout"][1] == "k") == k_major]


def derived_norm(rows: list[dict[str, Any]]) -> tuple[float | None, dict[float, float], list[float]]:
    """(p_k, or None where the N-major controls leave CONTROL_BAND at p = 4; the median |log(model / measured)| of the
    judged K-major rows at each p; the controls' model / measured at p = 4)."""
    kmajor, controls = judged_rows(rows, True), judged_rows(rows, False)
    spread = {p: statistics.median(abs(math.log(r["model"][p] / r["measured"])) for r in kmajor) for p in CANDIDATES}
    control = [r["model"][4.0] / r["measured"] for r in controls]
    inside = all(CONTROL_BAND[0] <= c <= CONTROL_BAND[1] for c in control)
    return (min(spread, key=spread.__getitem__) if inside else None), spread, control


def fitted_norm() -> tuple[float, dict[float, float]]:
    """How cta_model.CONFLICTING_PIPE_NORM was fitted (pre-registered in 2722b80, the check having derived none): the p
    of CANDIDATES with the least median |log(predicted / measured)| over the H100 sweep's training kernels the rule
    touches (h100-2026-11-23, split train, Triton FMA with B K-major), as compiled at 1980 MHz; (p, spread by p)."""
    recs = [r for r in read_broad_csv(MEASUREMENTS / "h100-2026-11-23" / "broad.csv")
            if r.set == "sweep" and r.split == "train" and r.instruction == "fma" and r.b_major == "k"]  # fmt: skip
    ev = Evaluator(load_machine("h100"), 1980.0)
    spread = {}
    for p in CANDIDATES:
        with replaced(cta_model, CONFLICTING_PIPE_NORM=p):
            spread[p] = statistics.median(abs(math.log(float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3)))
                                          for r in recs)  # fmt: skip
    return min(spread, key=spread.__getitem__), spread


def lone_conflict_spread(layouts: tuple[str, ...] = ("kk", "mk")) -> dict[float, float]:
    """How cta_model.LONE_CONFLICT_NORM was derived from this check (lone_conflict_cycles, 2026-12-02): for each p of
    CANDIDATES (and infinity: the model without the term), the median |log(model / measured)| of the whole kernel's
    time as compiled at 1980 MHz over the check's rows of ``layouts`` (every R and K; the measured time the median of
    both runs' passes). The norm is the p with the least; the N-major rows (``("kn",)``) do not move with it."""
    out = {}
    for p in (*CANDIDATES, math.inf):
        with replaced(cta_model, LONE_CONFLICT_NORM=p):
            rows = [(m, t) for r, m, t, _ in timed_rows(DATA) if _layout(r.shape) in layouts]
        out[p] = statistics.median(abs(math.log(float(t["total"]) / m)) for m, t in rows)
    return out


def main() -> None:
    rows = per_iteration()
    shown = (1.5, 1.75, 2.0, 4.0)
    print_table(["tile", "tiles an SM", "spills", "CTAs it holds", "FFMA / smem cycles", "measured ns/iteration",
                 *(f"p={p} / measured" for p in shown)],
                [[r["shape"].rsplit("-x", 1)[0], str(r["per"]), "yes" if r["spills"] else "-", str(r["held"]),
                  f"{r['ratio']:.2f}", f"{r['measured']:.1f}", *(f"{r['model'][p] / r['measured']:.2f}" for p in shown)]
                 for r in rows])  # fmt: skip
    p_k, spread, control = derived_norm(rows)
    print()
    print("K-major rows (no spills, R = 2 and 4): median |log(model / measured)| by p: "
          + ", ".join(f"{p}: {v:.3f}" for p, v in spread.items()))  # fmt: skip
    print(
        f"N-major controls at p = 4, model / measured: {min(control):.2f}-{max(control):.2f} "
        f"(band {CONTROL_BAND[0]}-{CONTROL_BAND[1]})"
    )
    print(f"p_k = {p_k}" if p_k is not None else "no rule: the controls leave the band")
    lone = lone_conflict_spread()
    print(
        "lone warps' term (cta_model.LONE_CONFLICT_NORM), K-major rows' whole time, median |log(model / measured)| by "
        "p: " + ", ".join(f"{p}: {v:.3f}" for p, v in lone.items()) + f"; p = {min(lone, key=lone.__getitem__)}"
    )
    fitted, by_p = fitted_norm()
    print(f"fitted instead on the H100 sweep's training kernels with B K-major (2722b80): p = {fitted}; median |log "
          "error| by p: " + ", ".join(f"{p}: {v:.4f}" for p, v in by_p.items()))  # fmt: skip


if __name__ == "__main__":
    main()
