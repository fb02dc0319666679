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

With --model predict the change is one to `predict --kernel triton` alone (the register rule, with no compiled counts,
which leaves every time as compiled as it was): the touched set is the kernels whose predict time differs, and the
figures and conditions are predict's own: (1) its median <= before + 0.2 points, (2) its p90 <= before + 1 point,
(3) the moved kernels' median below before, (4) its worst first pick (register gambles last, as predict ranks) no
more than 0.02 lower and at most 2 more groups under 0.90, (5) the same of the `tune --compile-top 8` emulation, whose
compile order is predict's with every bet on registers won (broad.Row's compile_order).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_loop_local import DATA, row_figures
from benchmarks.judge_spill_home import conditions, table_cell
from roofmodel.backends.broad import Row, compiled_pick_figures, figures, read_broad_csv
from roofmodel.backends.records import percent_error

REPO = Path(__file__).resolve().parents[1]
KEY = ("shape", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major", "b_major")
# Run in a fresh interpreter whose roofmodel is the tree's (argv: tree, machine, broad.csv): every sweep kernel's
# configuration (KEY) and predicted seconds, as compiled and as `predict --kernel triton` states it (None: refused),
# whether the register rule calls it a register gamble, and the time tune --compile-top orders it by (broad.Row's
# compile_order; None where the tree's model has no such order: predict's).
PREDICT = f"""
import inspect, json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import roofmodel
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
assert Path(roofmodel.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()), roofmodel.__file__
ev = Evaluator(load_machine(str(Path(sys.argv[1]) / "machines" / (sys.argv[2] + ".yaml"))), 1980.0)
stated = getattr(ev, "predict", lambda r: (ev.predict_seconds(r), False))  # a tree before 280cc9c: no gamble flag
order = hasattr(ev, "predict") and "pointers_recomputed" in inspect.signature(ev.predict).parameters
out = [([str(getattr(r, f)) for f in {KEY!r}], float(ev.seconds(r)["total"]), *stated(r),
        ev.predict(r, pointers_recomputed=True)[0] if order else None)
       for r in read_broad_csv(Path(sys.argv[3])) if r.set == "sweep"]
print(json.dumps(out))
"""


def predictions(tree: Path, machine: str, sample: str,
                records: list[Any]) -> list[tuple[float, float | None, bool, float | None]]:  # fmt: skip
    """PREDICT's answer with the roofmodel and machine files of ``tree``, checked to be for ``records``, in order:
    (as compiled, predict, register gamble, compile order)."""
    done = subprocess.run([sys.executable, "-c", PREDICT, str(tree), machine, str(DATA / sample / "broad.csv")],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"judge_change: the model of {tree} failed on {sample}:\n{done.stderr.strip()}")
    out = json.loads(done.stdout)
    keys = [[str(getattr(r, f)) for f in KEY] for r in records]
    if [k for k, *_ in out] != keys:
        raise SystemExit(f"judge_change: the model of {tree} read {sample}'s kernels otherwise than this tree")
    return [(a, b, bool(g), o) for _, a, b, g, o in out]


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


def predict_figures(rows: list[Row], touched: Any) -> tuple[float, ...]:
    """--model predict's figures on a sample's rows: predict's median, p90, the median |error| of the kernels
    ``touched`` picks, its worst first pick (gambles last) and groups under 0.9, then the compile-top 8 emulation's
    worst pick and groups under 0.9, and the groups."""
    p, c = figures(rows, "predict"), compiled_pick_figures(rows)
    moved = [abs(percent_error(x.predict, x.measured)) for x in rows if touched(x) and x.predict is not None]
    return (p["median_abs_pct"], p["p90_abs_pct"], statistics.median(moved) if moved else 0.0,
            p["first_over_best_min"], p["under_0_9"], c["first_over_best_min"], c["under_0_9"], c["groups"])  # fmt: skip


def predict_conditions(old: tuple[float, ...], new: tuple[float, ...]) -> list[bool]:
    """--model predict's five conditions (the module docstring)."""
    return [new[0] <= old[0] + 0.2, new[1] <= old[1] + 1.0, new[2] < old[2],
            new[3] >= old[3] - 0.02 and new[4] <= old[4] + 2, new[5] >= old[5] - 0.02 and new[6] <= old[6] + 2]  # fmt: skip


def predict_cell(x: tuple[float, ...]) -> str:
    return f"{x[0]:.1f}% / {x[1]:.1f}%, {x[2]:.1f}%, {x[3]:.2f}, {x[4]:.0f}; {x[5]:.2f}, {x[6]:.0f} of {x[7]:.0f}"


def judge(before_tree: Path, after_tree: Path, spec: str, records: list[Any], split: str | None = None,
          model: str = "cta") -> tuple[tuple[float, ...], tuple[float, ...], int]:  # fmt: skip
    """(before's figures, after's figures, kernels moved) on MACHINE:SAMPLE, whose sweep kernels are ``records``; only
    those of ``split`` where one is given. ``model``: ``cta`` (as compiled) or ``predict`` (predict alone: which
    kernels moved, and the figures, predict_figures)."""
    machine, sample = spec.split(":", 1)
    old, new = predictions(before_tree, machine, sample, records), predictions(after_tree, machine, sample, records)
    kept = split_indices(spec, records, split)
    records, old, new = [records[i] for i in kept], [old[i] for i in kept], [new[i] for i in kept]
    which = 0 if model == "cta" else 1
    moved = {id(r) for r, a, b in zip(records, old, new, strict=True) if a[which] != b[which]}
    touched = lambda row: id(row.record) in moved  # noqa: E731

    def rows(preds: list[tuple[float, float | None, bool, float | None]]) -> list[Row]:
        return [Row(r, cta, 0.0, stated, gamble, order)
                for r, (cta, stated, gamble, order) in zip(records, preds, strict=True)]  # fmt: skip

    figures_of = row_figures if model == "cta" else predict_figures
    return figures_of(rows(old), touched), figures_of(rows(new), touched), len(moved)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", nargs="*", metavar="MACHINE:SAMPLE", help="e.g. h100:h100-2026-11-27/fresh9")
    ap.add_argument("--before", required=True, help="the git revision of the model before the change")
    ap.add_argument("--after", help="the git revision of the model after it (default: the working tree)")
    ap.add_argument("--report", nargs="*", default=[], metavar="MACHINE:SAMPLE", help="printed, deciding nothing")
    ap.add_argument("--split", choices=("train", "holdout"),
                    help="only the kernels of this split, in every sample (--report's too)")  # fmt: skip
    ap.add_argument("--model", choices=("cta", "predict"), default="cta",
                    help="predict: a change to predict --kernel triton alone, judged on its figures")  # fmt: skip
    args = ap.parse_args()
    # Every sample read and checked before anything is computed.
    records = {spec: sweep_records(spec) for spec in [*args.samples, *args.report]}
    for spec, recs in records.items():
        split_indices(spec, recs, args.split)
    print(
        f"before: {revision_name(args.before)}; after: {revision_name(args.after)}"
        + (f"; the {args.split} split only" if args.split else "")
    )
    if args.model == "predict":
        print("| sample | moved | before: predict's median / p90, moved kernels, worst pick, under 0.90; compile-top 8's "
              "worst pick, under 0.90 | after: the same | conditions |")  # fmt: skip
    else:
        print("| sample | moved | before: median / p90, moved kernels, worst Spearman, worst pick, under 0.90; "
              "predict | after: the same | conditions |")  # fmt: skip
    print("|---|---|---|---|---|")
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = export(args.before, Path(tmp) / "before")
        after = REPO if args.after is None else export(args.after, Path(tmp) / "after")
        for spec in [*args.samples, *args.report]:
            old, new, moved = judge(tree, after, spec, records[spec], args.split, args.model)
            ok = (conditions if args.model == "cta" else predict_conditions)(old, new)
            cell = table_cell if args.model == "cta" else predict_cell
            decides = spec in args.samples
            verdicts.append(all(ok) if decides else True)
            verdict = "pass" if all(ok) else "fail " + ",".join(str(i + 1) for i, x in enumerate(ok) if not x)
            print(f"| {spec.split(':', 1)[1]}{'' if decides else ' (report)'} | {moved} | {cell(old)} | "
                  f"{cell(new)} | {verdict} |")  # fmt: skip
    if args.samples:
        print("judged:", "PASSED" if all(verdicts) else "FAILED")


if __name__ == "__main__":
    main()
