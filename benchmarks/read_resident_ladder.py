"""The resident ladder (benchmarks/gpu_resident_ladder.py) against the per-CTA model as compiled: per class of copy
and CTAs an SM (c), the measured time per main-loop iteration of the busiest SM (the slope between the two K), the
model's, their ratio, and the model's error on the longer kernel. One tile per class, 1-4 tiles an SM in one
launch: where the compiled kernel lets fewer CTAs reside than c, the SM runs them in rounds (``resident``).

    python benchmarks/read_resident_ladder.py [DIR] [--machine h100]

DIR: a directory under docs/measurements holding the ladder's broad.csv (default: h100-2026-11-27/ladder; the
element-wise tiles of --element-wise: h100-2026-11-27/ladder_element_wise).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.read_samples import DATA
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine


def key(shape: str, dtype: str, *config: Any) -> tuple[Any, ...]:
    """A ladder kernel's identity: its shape, type, tile, B's layout and stages (the label and c are in the CSV)."""
    return (shape, dtype, *(str(x) for x in config))


def ladder_rungs(directory: Path, machine: str = "h100", clock_mhz: float = 1980.0) -> list[dict[str, Any]]:
    """Per (class, c): label, c, resident (the model's CTAs an SM), measured and predicted seconds per iteration of
    the busiest SM, and the model's error on the longer K."""
    labels = {}
    with (directory / "broad.csv").open(newline="") as f:
        for r in csv.DictReader(f):
            labels[key(r["shape"], r["dtype"], r["block_m"], r["block_n"], r["block_k"], r["b_major"],
                       r["num_stages"])] = (r["label"], int(r["ctas"]))  # fmt: skip
    ev = Evaluator(load_machine(machine), clock_mhz)
    points: dict[tuple[str, int], list[tuple[Any, ...]]] = {}
    for r in read_broad_csv(directory / "broad.csv"):
        terms, fp = ev._terms(r, True, None)
        points.setdefault(
            labels[key(r.shape, r.dtype, r.block_m, r.block_n, r.block_k, r.b_major, r.num_stages)], []
        ).append((r.k, r.time_ms * 1e-3, float(terms["total"]), int(fp["ctas_per_sm"]), r.block_k))
    out = []
    for (label, c), v in points.items():
        (k1, m1, p1, resident, bk), (k2, m2, p2, _, _) = sorted(v)[:2]
        iterations = (k2 - k1) / bk
        out.append({"label": label, "c": c, "resident": resident, "measured_s": (m2 - m1) / iterations,
                    "predicted_s": (p2 - p1) / iterations, "error": p2 / m2 - 1})  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default="h100-2026-11-27/ladder")
    ap.add_argument("--machine", default="h100")
    args = ap.parse_args()
    print("| class | CTAs an SM | resident | measured us/iteration | model | model / measured | error (longer K) |")
    print("|---|---|---|---|---|---|---|")
    for r in ladder_rungs(DATA / args.dir, args.machine):
        print(f"| {r['label']} | {r['c']} | {r['resident']} | {r['measured_s'] * 1e6:.3f} | {r['predicted_s'] * 1e6:.3f} "
              f"| {r['predicted_s'] / r['measured_s']:.2f} | {r['error']:+.1%} |")  # fmt: skip


if __name__ == "__main__":
    main()
