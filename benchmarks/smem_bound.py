"""The shared-memory check's figures (docs/measurements/h200-2026-11-29/smem_bound): fp16 wgmma tiles on one row of
132 x R tiles (M = 32 or 128; R = 1-4 tiles an SM) at 32 and 96 iterations, timed in two runs of two passes on an H200,
against the per-CTA model as compiled at 1980 MHz (each kernel's time the median of its four timings).

For each tile, M and R, the slope of the time over the iterations (the 64 between the two K) is what an iteration of
the SM's round costs: measured, as the model predicts it (its total), and as its SM time alone and its memory time
alone say; with the CTAs an SM holds at once (from the compiled shared memory and registers) and the model's
per-iteration shared-memory and latency terms of one CTA (SM cycles), so that a row says which bound the model takes.

    python benchmarks/smem_bound.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, iterations, print_table, timed_rows, two_k_pairs
from roofmodel.model import cta_model

DATA = MEASUREMENTS / "h200-2026-11-29" / "smem_bound"
MHZ = 1980.0


def per_iteration() -> list[dict[str, Any]]:
    """One row per tile, M and R: the CTAs an SM holds, and ns an iteration of the round measured, predicted (total),
    the model's SM time and memory time; the model's shared-memory and latency terms per CTA iteration (cycles)."""
    out = []
    for shape, (short, long) in sorted(two_k_pairs(timed_rows(DATA, mhz=MHZ)).items()):
        (_, t1, x1, fp), (_, t2, x2, _) = short, long
        i1, i2 = iterations(short), iterations(long)
        per = int(shape.rsplit("-x", 1)[1])
        steps = (i2 - i1) * 1e-9

        def slope(key: str, x1: dict[str, Any] = x1, x2: dict[str, Any] = x2, steps: float = steps) -> float:
            return (float(x2[key]) - float(x1[key])) / steps

        memory = [float(cta_model.memory_seconds(x["DRAM"], x["L2"], x["LLC"], x["issued copies"])) for x in (x1, x2)]
        # The terms are as if alone over the busiest SM's tiles x iterations (R x K/BK here); per CTA iteration:
        # the shared-memory term's cycles, and the latency term's times the CTAs it divides among (cta_model).
        cycles = MHZ * 1e6 / (per * i2)
        out.append(dict(
            tile=shape.removeprefix("smembound-").rsplit("-x", 1)[0], per=per, held=int(fp["ctas_per_sm"]),
            measured=(t2 - t1) / steps, model=slope("total"), sm=slope("sm"), memory=(memory[1] - memory[0]) / steps,
            smem=float(x2["shared memory"]) * cycles,
            latency=float(x2["latency"]) * cycles * min(int(fp["ctas_per_sm"]), per),
        ))  # fmt: skip
    return out


def main() -> None:
    print_table(["tile", "tiles an SM", "CTAs it holds", "measured ns/iteration", "model", "its SM", "its memory",
                 "model / measured", "smem, latency cycles/CTA-iteration"],
                [[r["tile"], str(r["per"]), str(r["held"]), f"{r['measured']:.1f}", f"{r['model']:.1f}",
                  f"{r['sm']:.1f}", f"{r['memory']:.1f}", f"{r['model'] / r['measured']:.2f}",
                  f"{r['smem']:.0f}, {r['latency']:.0f}"] for r in per_iteration()])  # fmt: skip


if __name__ == "__main__":
    main()
