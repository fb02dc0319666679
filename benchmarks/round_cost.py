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

from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine

DATA = Path(__file__).resolve().parent.parent / "docs" / "measurements" / "h200-2026-11-29" / "round_cost"


def slope(xs: list[float], ys: list[float]) -> float:
    """The least-squares slope of ys over xs."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def per_round() -> list[tuple[str, str, int, int, float, float]]:
    """(tile, instruction, CTAs an SM holds, iterations, measured us a round, predicted us a round) for each tile and
    iteration count over the grids that take more than one round."""
    first, repeat = read_broad_csv(DATA / "broad.csv"), read_broad_csv(DATA / "repeat" / "broad.csv")
    ev = Evaluator(load_machine("h200"), 1980.0)
    groups: dict[tuple[str, str, int, int], list[tuple[int, float, float]]] = {}
    for a, b in zip(first, repeat, strict=True):
        if (a.shape, a.k) != (b.shape, b.k):
            raise SystemExit("round_cost: the two runs' rows differ")
        terms, fp = ev._terms(a, True, None)
        measured = statistics.median(float(t) for t in (a.time_ms, a.time_ms_2, b.time_ms, b.time_ms_2) if t)
        tile, per = a.shape.removeprefix("roundcost-").rsplit("-x", 1)
        held = min(int(fp["ctas_per_sm"]), int(per))
        rounds = -(-int(per) // held)
        key = (tile, a.instruction or "fma", int(fp["ctas_per_sm"]), a.k // a.block_k)
        groups.setdefault(key, []).append((rounds, measured * 1e3, float(terms["total"]) * 1e6))
    out = []
    for (tile, instruction, held, iterations), rows in sorted(groups.items()):
        if len({r for r, _, _ in rows}) < 2:
            continue
        rounds = [float(r) for r, _, _ in rows]
        out.append((tile, instruction, held, iterations, slope(rounds, [m for _, m, _ in rows]),
                    slope(rounds, [p for _, _, p in rows])))  # fmt: skip
    return out


def main() -> None:
    print("| tile | instruction | CTAs an SM | iterations | measured us a round | model | left out |")
    print("|---|---|---|---|---|---|---|")
    for tile, instruction, held, iterations, measured, model in per_round():
        print(f"| {tile} | {instruction} | {held} | {iterations} | {measured:.2f} | {model:.2f} | "
              f"{measured - model:+.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
