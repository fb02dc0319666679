"""The transpose check's figures (docs/measurements/h200-2026-11-29/transpose): twelve tf32 wgmma tiles with B N-major
and, as each one's control, K-major, on 11 x 12 x R tiles (R = 1, 2 tiles an SM) at 32 and 96 iterations, timed in
two runs of two passes on an H200, against the per-CTA model as compiled at 1980 MHz (each kernel's time the median of
its four timings).

For each tile and R: the slope of the time over the 64 iterations between the two K (what an iteration of the SM's
round costs), B N-major and K-major, measured and predicted; the difference of the two layouts' slopes is what the
transposes cost the SM an iteration, and over the B elements the SM's CTAs transpose an iteration (BN x BK each) it is
a cost per element (ns), against the model's kernel_costs.transpose.

    python benchmarks/transpose_cost.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, iterations, print_table, timed_rows, two_k_pairs

DATA = MEASUREMENTS / "h200-2026-11-29" / "transpose"


def slopes() -> dict[tuple[str, str, int], dict[str, Any]]:
    """(tile, B layout, R) -> ns an iteration of the round, measured and predicted, the CTAs an SM holds, and the B
    elements one CTA transposes an iteration (BN x BK)."""
    out = {}
    for shape, (short, long) in two_k_pairs(timed_rows(DATA)).items():
        tile, rest = shape.removeprefix("transpose-").split("-b")
        layout, per = rest.split("-x")
        steps = iterations(long) - iterations(short)
        a, held = long[0], int(long[3]["ctas_per_sm"])
        out[(tile, layout, int(per))] = dict(
            measured=(long[1] - short[1]) * 1e9 / steps, held=held, elements=a.block_n * a.block_k,
            model=(float(long[2]["total"]) - float(short[2]["total"])) * 1e9 / steps,
        )  # fmt: skip
    return out


def per_element() -> list[dict[str, Any]]:
    """For each tile and R: the transposes' cost an iteration of the round (N-major slope - K-major slope, ns),
    measured and predicted, and per element the CTAs of the round transpose (ns)."""
    s = slopes()
    out = []
    for (tile, layout, per), n in sorted(s.items()):
        if layout == "n":
            k = s[(tile, "k", per)]
            count = n["elements"] * per  # the B elements the SM's CTAs transpose an iteration of all its rounds
            out.append(dict(tile=tile, per=per, held=n["held"], n_measured=n["measured"], k_measured=k["measured"],
                            n_model=n["model"], k_model=k["model"], measured_per_element=(n["measured"] - k["measured"]) / count,
                            model_per_element=(n["model"] - k["model"]) / count))  # fmt: skip
    return out


def main() -> None:
    print_table(["tile", "tiles an SM", "CTAs an SM can hold", "ns/iteration B N-major: measured, model",
                 "B K-major: measured, model", "transposes ns/element: measured, model"],
                [[r["tile"], str(r["per"]), str(r["held"]), f"{r['n_measured']:.1f}, {r['n_model']:.1f}",
                  f"{r['k_measured']:.1f}, {r['k_model']:.1f}",
                  f"{r['measured_per_element']:.3f}, {r['model_per_element']:.3f}"] for r in per_element()])  # fmt: skip


if __name__ == "__main__":
    main()
