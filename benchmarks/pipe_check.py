"""The pipe check's figures (docs/measurements/h200-2026-11-29/pipe): fp32 FMA and fp16 mma.sync tiles (mma.sync
forced) on 11 x 12 x R tiles (R = 1, 2, 4 tiles an SM) at 32 and 96 iterations, timed in two runs of two passes on an
H200, against the per-CTA model as compiled at 1980 MHz (each kernel's time the median of its four timings).

For each tile and R, the slope of the time over the iterations (the 64 between the two K) is what an iteration of the
SM's round costs: measured, as the model predicts it with the MMAs and the shared-memory path of the resident CTAs
combined by their 4-norm (cta_model.ISSUED_PIPE_NORM, since 2026-11-29) and as it predicted it with the larger alone
(before); with the CTAs an SM holds at once (from the compiled shared memory and registers) and the model's MMA and
shared-memory terms of one CTA iteration (SM cycles; their ratio is where the norm adds most, 19% at 1).

    python benchmarks/pipe_check.py
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, iterations, print_table, replaced, timed_rows, two_k_pairs
from roofmodel.model import cta_model

DATA = MEASUREMENTS / "h200-2026-11-29" / "pipe"
MHZ = 1980.0


def slopes(norm: float, data: Path = DATA) -> dict[str, tuple[float, float, int, float, float, str]]:
    """Per shape (tile and R, the shape's name ending -xR) of a two-K check in ``data``: (measured ns an iteration of
    the round, the model's with the pipes' ``norm``, the CTAs an SM holds, the MMAs' and shared memory's cycles a CTA
    iteration, the compiled family). ``norm`` is every issued family's, K-major FMA reads' (cta_model.CONFLICTING_PIPE_NORM)
    too."""
    with replaced(cta_model, ISSUED_PIPE_NORM=norm, CONFLICTING_PIPE_NORM=norm):
        rows = timed_rows(data, mhz=MHZ)
    out = {}
    for shape, (short, long) in two_k_pairs(rows).items():
        (_, t1, x1, _), (a, t2, x2, fp) = short, long
        per = int(shape.rsplit("-x", 1)[1])
        steps = (iterations(long) - iterations(short)) * 1e-9
        # The terms are as if alone over the busiest SM's tiles x iterations (R x K/BK): per CTA iteration, cycles.
        cycles = MHZ * 1e6 / (per * iterations(long))
        out[shape] = ((t2 - t1) / steps, (float(x2["total"]) - float(x1["total"])) / steps, int(fp["ctas_per_sm"]),
                      float(x2["compute"]) * cycles, float(x2["shared memory"]) * cycles, a.instruction)  # fmt: skip
    return out


def per_iteration() -> list[dict[str, Any]]:
    """One row per tile and R: the family, the CTAs an SM holds, the model's shared-memory over MMA cycles, and ns an
    iteration of the round measured, with the 4-norm (now) and with the larger alone (before)."""
    now, before = slopes(cta_model.ISSUED_PIPE_NORM), slopes(math.inf)
    out = []
    for shape in sorted(now, key=lambda s: (s.split("-")[1], s)):
        measured, model, held, mma, smem, family = now[shape]
        out.append(dict(tile=shape.removeprefix("pipe-").rsplit("-x", 1)[0], per=int(shape.rsplit("-x", 1)[1]),
                        family=family, held=held, ratio=smem / mma, measured=measured, now=model,
                        before=before[shape][1]))  # fmt: skip
    return out


def main() -> None:
    print_table(["tile", "family", "tiles an SM", "CTAs it holds", "smem / MMA cycles", "measured ns/iteration",
                 "4-norm", "larger alone", "4-norm / measured", "larger / measured"],
                [[r["tile"], r["family"], str(r["per"]), str(r["held"]), f"{r['ratio']:.2f}", f"{r['measured']:.1f}",
                  f"{r['now']:.1f}", f"{r['before']:.1f}", f"{r['now'] / r['measured']:.2f}",
                  f"{r['before'] / r['measured']:.2f}"] for r in per_iteration()])  # fmt: skip


if __name__ == "__main__":
    main()
