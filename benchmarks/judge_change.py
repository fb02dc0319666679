"""A change to the model judged on recorded broad samples: the model at a git revision (before) against the
working tree or a second revision (after), each computed in its own process from its own code and machine files,
on the samples of this tree's docs/measurements. The figures and conditions of judge_spill_home.py (the five of the rules
pre-registered since c1948a3), with the kernels the change moves as the touched set: those whose predicted time as
compiled differs between the two models.

    python benchmarks/judge_change.py --before HEAD~1 [--after REV] h100:h100-2026-11-27/fresh9 --report h200:...

Per sample and model: median and p90 |error| over the sweep's kernels, the median |error| of the kernels the change
moves, the worst within-shape Spearman, `tune --compile-top 8` as the reports emulate it (its worst first pick and
groups under 0.90), and `predict --kernel triton`'s median and p90; then the five conditions: (1) median <= before
+ 0.2 points, (2) p90 <= before + 1 point, (3) the moved kernels' median below before, (4) the worst pick no more
than 0.02 lower and at most 2 more groups under 0.90, (5) predict's median <= before + 0.5 points and its p90 <=
before + 2. A sample named with --report is printed but decides nothing. With --split SPLIT (train or holdout) only a
sample's kernels of that split are judged: for a change to one GPU's file whose read sweeps are all read, its main
sweep's held-out shapes (h100-2026-11-23 with --split holdout) are the kernels no choice has looked at one by one.

    python benchmarks/judge_change.py --before REV --split holdout h100:h100-2026-11-23
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import DATA, row_figures
from benchmarks.judge_spill_home import conditions, table_cell
from roofmodel.backends.broad import Row, read_broad_csv

REPO = Path(__file__).resolve().parents[1]
KEY = ("shape", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major", "b_major")
# Run in a fresh interpreter whose roofmodel is the tree's (argv: tree, machine, broad.csv): every sweep kernel's
# configuration (KEY) and predicted seconds, as compiled and as `predict --kernel triton` states it (None: refused).
PREDICT = f"""
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import roofmodel
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
assert Path(roofmodel.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()), roofmodel.__file__
ev = Evaluator(load_machine(str(Path(sys.argv[1]) / "machines" / (sys.argv[2] + ".yaml"))), 1980.0)
out = [([str(getattr(r, f)) for f in {KEY!r}], float(ev.seconds(r)["total"]), ev.predict_seconds(r))
       for r in read_broad_csv(Path(sys.argv[3])) if r.set == "sweep"]
print(json.dumps(out))
"""


def predictions(tree: Path, machine: str, sample: str, records: list[Any]) -> list[tuple[float, float | None]]:
    """PREDICT's answer with the roofmodel and machine files of ``tree``, checked to be for ``records``, in order."""
    done = subprocess.run([sys.executable, "-c", PREDICT, str(tree), machine, str(DATA / sample / "broad.csv")],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"judge_change: the model of {tree} failed on {sample}:\n{done.stderr.strip()}")
    out = json.loads(done.stdout)
    keys = [[str(getattr(r, f)) for f in KEY] for r in records]
    if [k for k, _, _ in out] != keys:
        raise SystemExit(f"judge_change: the model of {tree} read {sample}'s kernels otherwise than this tree")
    return [(a, b) for _, a, b in out]


def export(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (git archive), unpacked under ``into``."""
    into.mkdir(parents=True)
    archive = into.parent / f"{into.name}.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), revision], check=True)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:  # Python before 3.10.12 / 3.11.4: no extraction filters (git archive writes plain files)
            tar.extractall(into)
    return into


def revision_name(revision: str | None) -> str:
    """The commit a revision names (the working tree: HEAD, and whether it has uncommitted changes)."""
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", revision or "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    if revision is not None:
        return head
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    return f"the working tree at {head}" + (" with uncommitted changes" if dirty else "")


def sweep_records(spec: str) -> list[Any]:
    """The sweep kernels of MACHINE:SAMPLE, or a one-line exit naming what is wrong with it."""
    machine, _, sample = spec.partition(":")
    csv_path = DATA / sample / "broad.csv"
    if not machine or not sample or not csv_path.is_file():
        raise SystemExit(f"judge_change: {spec!r} is not MACHINE:SAMPLE with {csv_path} recorded")
    records = [r for r in read_broad_csv(csv_path) if r.set == "sweep"]
    if not records:
        raise SystemExit(f"judge_change: {csv_path} holds no sweep kernels")
    return records


def split_indices(spec: str, records: list[Any], split: str | None) -> list[int]:
    """The positions in ``records`` of the kernels of ``split`` (all where None), or a one-line exit where there are
    none."""
    kept = [i for i, r in enumerate(records) if split is None or r.split == split]
    if not kept:
        raise SystemExit(f"judge_change: {spec} has no kernels of split {split!r}")
    return kept


def judge(before_tree: Path, after_tree: Path, spec: str, records: list[Any],
          split: str | None = None) -> tuple[tuple[float, ...], tuple[float, ...], int]:  # fmt: skip
    """(before's figures, after's figures, kernels moved) on MACHINE:SAMPLE, whose sweep kernels are ``records``; only
    those of ``split`` where one is given."""
    machine, sample = spec.split(":", 1)
    old, new = predictions(before_tree, machine, sample, records), predictions(after_tree, machine, sample, records)
    kept = split_indices(spec, records, split)
    records, old, new = [records[i] for i in kept], [old[i] for i in kept], [new[i] for i in kept]
    moved = {id(r) for r, a, b in zip(records, old, new, strict=True) if a[0] != b[0]}
    touched = lambda row: id(row.record) in moved  # noqa: E731

    def rows(preds: list[tuple[float, float | None]]) -> list[Row]:
        return [Row(r, cta, 0.0, stated) for r, (cta, stated) in zip(records, preds, strict=True)]

    return row_figures(rows(old), touched), row_figures(rows(new), touched), len(moved)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="*", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-27/fresh9")
    ap.add_argument("--before", required=True, help="the git revision of the model before the change")
    ap.add_argument("--after", help="the git revision of the model after it (default: the working tree)")
    ap.add_argument("--report", nargs="*", default=[], metavar="MACHINE:SAMPLE", help="printed, deciding nothing")
    ap.add_argument("--split", choices=("train", "holdout"),
                    help="only the kernels of this split, in every sample (--report's too)")  # fmt: skip
    args = ap.parse_args()
    # Every sample read and checked before anything is computed.
    records = {spec: sweep_records(spec) for spec in [*args.samples, *args.report]}
    for spec, recs in records.items():
        split_indices(spec, recs, args.split)
    print(
        f"before: {revision_name(args.before)}; after: {revision_name(args.after)}"
        + (f"; the {args.split} split only" if args.split else "")
    )
    print("| sample | moved | before: median / p90, moved kernels, worst Spearman, worst pick, under 0.90; predict "
          "| after: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|---|")
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = export(args.before, Path(tmp) / "before")
        after = REPO if args.after is None else export(args.after, Path(tmp) / "after")
        for spec in [*args.samples, *args.report]:
            old, new, moved = judge(tree, after, spec, records[spec], args.split)
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
