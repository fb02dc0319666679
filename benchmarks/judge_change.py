"""A change to the model judged on recorded broad samples: the model at a git revision (before) against the
working tree (after), each computed in its own process from its own code and machine files, on the samples of
this tree's docs/measurements. The figures and conditions of judge_spill_home.py (the five of the rules
pre-registered since c1948a3), with the kernels the change moves as the touched set: those whose predicted time as
compiled differs between the two models.

    python benchmarks/judge_change.py --before HEAD~1 h100:h100-2026-11-27/fresh9 h200:h200-2026-11-27/fresh9

Per sample and model: median and p90 |error| over the sweep's kernels, the median |error| of the kernels the change
moves, the worst within-shape Spearman, `tune --compile-top 8` as the reports emulate it (its worst first pick and
groups under 0.90), and `predict --kernel triton`'s median and p90; then the five conditions: (1) median <= before
+ 0.2 points, (2) p90 <= before + 1 point, (3) the moved kernels' median below before, (4) the worst pick no more
than 0.02 lower and at most 2 more groups under 0.90, (5) predict's median <= before + 0.5 points and its p90 <=
before + 2. A sample named with --report is printed but decides nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import DATA, row_figures
from benchmarks.judge_spill_home import conditions, table_cell
from roofmodel.backends.broad import Row, read_broad_csv

REPO = Path(__file__).resolve().parents[1]
# Run in a fresh interpreter whose roofmodel is the tree's (argv: tree, machine, broad.csv): every sweep kernel's
# predicted seconds, as compiled and as `predict --kernel triton` states it (None: refused), in the file's order.
PREDICT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
ev = Evaluator(load_machine(str(Path(sys.argv[1]) / "machines" / (sys.argv[2] + ".yaml"))), 1980.0)
out = [(float(ev.seconds(r)["total"]), ev.predict_seconds(r)) for r in read_broad_csv(Path(sys.argv[3])) if r.set == "sweep"]
print(json.dumps(out))
"""


def predictions(tree: Path, machine: str, sample: str) -> list[tuple[float, float | None]]:
    """PREDICT's answer with the roofmodel and machine files of ``tree``."""
    done = subprocess.run([sys.executable, "-c", PREDICT, str(tree), machine, str(DATA / sample / "broad.csv")],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return [(a, b) for a, b in json.loads(done.stdout)]


def export(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (git archive), unpacked under ``into``."""
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), revision], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def judge(before_tree: Path, spec: str) -> tuple[tuple[float, ...], tuple[float, ...], int]:
    """(before's figures, after's figures, kernels moved) on MACHINE:SAMPLE."""
    machine, sample = spec.split(":", 1)
    records = [r for r in read_broad_csv(DATA / sample / "broad.csv") if r.set == "sweep"]
    old, new = predictions(before_tree, machine, sample), predictions(REPO, machine, sample)
    moved = {id(r) for r, a, b in zip(records, old, new, strict=True) if a[0] != b[0]}
    touched = lambda row: id(row.record) in moved  # noqa: E731

    def rows(preds: list[tuple[float, float | None]]) -> list[Row]:
        return [Row(r, cta, 0.0, stated) for r, (cta, stated) in zip(records, preds, strict=True)]

    return row_figures(rows(old), touched), row_figures(rows(new), touched), len(moved)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="*", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-27/fresh9")
    ap.add_argument("--before", required=True, help="the git revision of the model before the change")
    ap.add_argument("--report", nargs="*", default=[], metavar="MACHINE:SAMPLE", help="printed, deciding nothing")
    args = ap.parse_args()
    print("| sample | moved | before: median / p90, moved kernels, worst Spearman, worst pick, under 0.90; predict "
          "| after: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|---|")
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = export(args.before, Path(tmp))
        for spec in [*args.samples, *args.report]:
            old, new, moved = judge(tree, spec)
            ok = conditions(old, new)
            decides = spec in args.samples
            verdicts.append(all(ok) if decides else True)
            verdict = "pass" if all(ok) else "fail " + ",".join(str(i + 1) for i, x in enumerate(ok) if not x)
            print(f"| {spec.split(':', 1)[1]}{'' if decides else ' (report)'} | {moved} | {table_cell(old)} | "
                  f"{table_cell(new)} | {verdict} |")  # fmt: skip
    if args.samples:
        print("judged:", "PASSED" if all(verdicts) else "FAILED")


if __name__ == "__main__":
    main()
