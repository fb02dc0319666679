"""The judge pre-registered in 7e52c81 (superseding eb20cbd) for ranking register gambles last in the rankings by the
rule alone: on one recorded broad sample (optionally one split of it), `predict --kernel triton`'s first picks with
the ranking by time and with register gambles after every kernel that is not one (broad.rule_rank_key), and the
`tune --compile-top 8` emulation's (broad.compiled_pick_figures, whose compile order stays by time), computed in this
tree (the predicted times are the same either way), and the four conditions: (1) predict's worst first pick no lower;
(2) its groups under 0.90 no more; (3) its median first pick no lower by more than 0.01; (4) the compile-top
emulation's figures identical.

    python benchmarks/judge_gamble_rank.py h200:h200-2026-11-30/fresh44 h100:h100-2026-11-23 --split holdout
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roofmodel.backends.broad import compiled_pick_figures, evaluate, figures, read_broad_csv
from roofmodel.machine import load_machine

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements"


def picks(machine: str, sample: str, split: str | None) -> dict[bool, dict[str, Any]]:
    """Per ranking (gamble_last False, True): predict's first-pick figures and the compile-top emulation's."""
    records = [r for r in read_broad_csv(DATA / sample / "broad.csv") if split is None or r.split == split]
    rows = evaluate(load_machine(machine), records, 1980.0)
    # The compile-top emulation as tune runs it, before and after: by time (the rule leaves its order alone).
    return {last: {"predict": figures(rows, "predict", gamble_last=last),
                   "compiled": compiled_pick_figures(rows)} for last in (False, True)}  # fmt: skip


def conditions(before: dict[str, Any], after: dict[str, Any]) -> list[bool]:
    """The four pre-registered conditions (the module docstring), before = by time, after = gambles last."""
    p0, p1, c0, c1 = before["predict"], after["predict"], before["compiled"], after["compiled"]
    under = [p0["under_0_9"], p1["under_0_9"]]
    return [p1["first_over_best_min"] >= p0["first_over_best_min"], under[1] <= under[0],
            p1["first_over_best_median"] >= p0["first_over_best_median"] - 0.01,
            c1 == c0]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="+", help="GPU:SAMPLE, a machine file and a directory under docs/measurements")
    ap.add_argument("--split", default=None, help="only the kernels of this split (train or holdout)")
    args = ap.parse_args()
    print("| sample | ranking | predict: worst pick, median, under 0.90 | compile-top 8: worst, median, under 0.90 |")
    print("|---|---|---|---|")
    verdicts = []
    for spec in args.samples:
        machine, sample = spec.split(":", 1)
        done = picks(machine, sample, args.split)
        for last in (False, True):
            p, c = done[last]["predict"], done[last]["compiled"]
            print(f"| {sample} | {'gambles last' if last else 'by time'} | {p['first_over_best_min']:.2f}, "
                  f"{p['first_over_best_median']:.3f}, {p['under_0_9']} of "
                  f"{c['groups']} | {c['first_over_best_min']:.2f}, {c['first_over_best_median']:.3f}, "
                  f"{c['under_0_9']} of {c['groups']} |")  # fmt: skip
        met = conditions(done[False], done[True])
        verdicts.append(all(met))
        said = ", ".join(f"({i}) {'met' if m else 'FAILED'}" for i, m in enumerate(met, 1))
        print(f"| {sample} | conditions | {said} | |")
    print(f"judged: {'PASSED' if all(verdicts) else 'FAILED'}")


if __name__ == "__main__":
    main()
