"""The round-cost check's figures (docs/measurements/h200-2026-11-29/round_cost): the K-sweep's tiles on 11 x 12 x R tiles
(R = 1, 2, 4, 8 tiles an SM) at 1, 2, 4 and 16 iterations, timed in two runs of two passes on an H200, against the
per-CTA model as compiled at 1980 MHz (each kernel's time the median of its four timings).

For each tile and iteration count, a least-squares line of the time over the rounds an SM runs (R over the CTAs an SM
holds at once, as the model counts them from the compiled shared memory and registers), measured and predicted: its
slope is what a round costs, and the difference of the slopes what the model leaves out of a round.

    python benchmarks/round_cost.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, print_table, timed_rows
from roofmodel.model.cta_model import rounds_per_sm

DATA = MEASUREMENTS / "h200-2026-11-29" / "round_cost"


def slope(xs: list[float], ys: list[float]) -> float:
    """The least-squares slope of ys over xs."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def per_round() -> list[tuple[str, str, int, int, float, float]]:
    """(tile, instruction, CTAs an SM holds, iterations, measured us a round, predicted us a round) for each tile and
    iteration count over the grids that take more than one round."""
    groups: dict[tuple[str, str, int, int], list[tuple[int, float, float]]] = {}
    for a, measured, terms, fp in timed_rows(DATA):
        tile, per = a.shape.removeprefix("roundcost-").rsplit("-x", 1)
        rounds = int(rounds_per_sm(int(fp["ctas_per_sm"]), int(per), 1))  # R tiles on the SM
        key = (tile, a.instruction or "fma", int(fp["ctas_per_sm"]), a.k // a.block_k)
        groups.setdefault(key, []).append((rounds, measured * 1e6, float(terms["total"]) * 1e6))
    out = []
    for (tile, instruction, held, iterations), rows in sorted(groups.items()):
        if len({r for r, _, _ in rows}) < 2:
            continue
        rounds = [float(r) for r, _, _ in rows]
        out.append((tile, instruction, held, iterations, slope(rounds, [m for _, m, _ in rows]),
                    slope(rounds, [p for _, _, p in rows])))  # fmt: skip
    return out


def main() -> None:
    print_table(["tile", "instruction", "CTAs an SM", "iterations", "measured us a round", "model", "left out"],
                [[tile, instruction, str(held), str(iterations), f"{measured:.2f}", f"{model:.2f}",
                  f"{measured - model:+.2f}"] for tile, instruction, held, iterations, measured, model in per_round()])  # fmt: skip


if __name__ == "__main__":
    main()
