"""The kernels a change to the model moves, by class: every read broad sample of a GPU, as compiled, each model (a
git revision, or the working tree) computed in its own process from its own code and machine files, the moved
kernels (predicted time differs) grouped by what decides the changes of 2026-11-29:

- the MMA instruction;
- how much of the SM time the spills are, in the before model (under 20%, 20-50%, 50-80%, 80% or more);
- whether the grid fills every SM (``small``: fewer tiles than SMs);
- the CTAs an SM holds at once (min(CTAs per SM, tiles / SMs rounded up), 4 standing for 4 or more);
- which operands are copied one element at a time (their leading stride not a multiple of 16 elements: A, B, AB, -);
- whether the kernel was compiled to 32 registers (everything spilled).

Each row: n, median |error| and median signed error before -> after, over the read broad sweeps
(benchmarks/read_samples.py's lists, up to LAST_READ: an unread sample stays unread).

    python benchmarks/change_classes.py --before REV [--after REV] h200 [--by instruction,spill_share,...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.judge_change import export, revision_name
from benchmarks.read_samples import DATA, read_h100, read_h200

REPO = Path(__file__).resolve().parents[1]
KEYS = ("instruction", "spill_share", "grid", "resident", "narrow", "r32")
# Run in a fresh interpreter whose roofmodel is the tree's (argv: tree, machine, broad.csv paths): per sweep kernel,
# its predicted seconds as compiled, the spills' and the SM's terms and its CTAs per SM.
TERMS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import roofmodel
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
assert Path(roofmodel.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()), roofmodel.__file__
ev = Evaluator(load_machine(str(Path(sys.argv[1]) / "machines" / (sys.argv[2] + ".yaml"))), 1980.0)
out = []
for path in sys.argv[3:]:
    for r in read_broad_csv(Path(path)):
        if r.set == "sweep":
            t, fp = ev._terms(r, True, None)
            out.append([float(t["total"]), float(t["spills"]), float(t["sm"]), int(fp["ctas_per_sm"])])
print(json.dumps(out))
"""


# The read broad sweeps (benchmarks/read_samples.py's lists): the H200's to fresh110 (fresh42 read on 2026-11-30 to judge
# the drift rule, fresh43 to judge 2722b80, fresh44 to judge 7e52c81, fresh45 and fresh46 to judge 81262a8, fresh47 to
# judge f424b46, fresh48 to judge 36707e7, fresh49 to judge ef355d2, fresh50 to judge fa0b077, fresh52 to judge 395a218,
# fresh53 to judge ef79ce4, fresh54 and fresh55 to judge 578500e, fresh56 and fresh57 to judge 1ae0d90, fresh58 and
# fresh59 to judge 5f38b6b, fresh60 and fresh61 to judge 5975902, fresh62 and fresh63 to judge 15171f7 (failed), fresh64
# and fresh65 to judge db69df7, fresh51, fresh66 and fresh67 to judge 2e86a60, fresh68 and fresh69 to judge 76ea5e4,
# fresh70, fresh71 and fresh73 to judge ae77233 (failed), fresh72 to judge 7ea165e, fresh74-77 to judge 09cc1d6
# (failed), fresh78-80 to judge bdec836, fresh81-83 to judge ee9c89e (failed), fresh84-86 to judge c75fbc9, fresh87-89
# to judge 16c0a3f, fresh90-92 to judge cf9371e (failed), fresh93-95 to judge f080853 (failed), fresh97, fresh100, fresh101 and element_class to judge 31714e8, fresh96, fresh98
# and fresh99 to judge 67f1817, fresh102-104 to judge 073899b, fresh105-107 to judge 0625f85, fresh108-110 to judge 2923421 (failed)), the H100's to fresh18. A later sample joins when its README says it was read and this says so; --through pins an earlier
# set, as a figure quoted with it was printed on.
LAST_READ = {"h200": 110, "h100": 18}


def read_samples(gpu: str, through: int | None = None) -> list[Path]:
    """The GPU's read broad sweeps (read_samples.read_h200 / read_h100 up to ``through``, LAST_READ where None)."""
    listed = {"h200": read_h200, "h100": read_h100}.get(gpu)
    if listed is None:
        raise SystemExit(f"change_classes: no read samples listed for {gpu!r} (h200, h100)")
    last = LAST_READ[gpu] if through is None else through
    if last > LAST_READ[gpu]:
        raise SystemExit(f"change_classes: fresh{last} of the {gpu} is not read (read to fresh{LAST_READ[gpu]})")
    return [DATA / d / "broad.csv" for d in listed(last)]


def terms(tree: Path, gpu: str, paths: list[Path]) -> list[list[float]]:
    done = subprocess.run([sys.executable, "-c", TERMS, str(tree), gpu, *map(str, paths)], capture_output=True,
                          text=True)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"change_classes: the model of {tree} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout)


def classes(row: object, before: list[float], sms: int) -> dict[str, str]:
    """The class keys of one kernel (KEYS), from its record and the before model's terms."""
    _total, spills, sm, ctas = before
    tiles = -(-row.m // row.block_m) * -(-row.n // row.block_n)
    share = spills / sm if sm else 0.0
    band = "<20%" if share < 0.2 else "20-50%" if share < 0.5 else "50-80%" if share < 0.8 else ">=80%"
    resident = min(ctas, -(-tiles // sms), 4)
    a_stride = row.m if row.a_major == "m" else row.k
    b_stride = row.n if row.b_major == "n" else row.k
    narrow = ("A" if a_stride % 16 else "") + ("B" if b_stride % 16 else "") or "-"
    return {"instruction": row.instruction, "spill_share": band if row.spilled_registers else "no spills",
            "grid": "small" if tiles < sms else "full", "resident": str(resident), "narrow": narrow,
            "r32": "32 registers" if row.registers_per_thread <= 32 and row.spilled_registers else "-"}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gpu")
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=None, help="a revision (default: the working tree)")
    ap.add_argument("--by", default="instruction,spill_share,grid", help=f"comma-separated keys of {KEYS}")
    ap.add_argument("--through", type=int, default=None, metavar="N",
                    help="the read samples up to freshN only (default: every read one, LAST_READ)")  # fmt: skip
    args = ap.parse_args()
    keys = args.by.split(",")
    if bad := [k for k in keys if k not in KEYS]:
        raise SystemExit(f"change_classes: unknown key {bad[0]!r} (keys: {', '.join(KEYS)})")
    from roofmodel.backends.broad import read_broad_csv
    from roofmodel.machine import load_machine

    paths = read_samples(args.gpu, args.through)
    rows = [r for p in paths for r in read_broad_csv(p) if r.set == "sweep"]
    sms = load_machine(args.gpu).sm_count.n
    with tempfile.TemporaryDirectory() as scratch:
        before = terms(export(args.before, Path(scratch) / "before"), args.gpu, paths)
        after = terms(REPO if args.after is None else export(args.after, Path(scratch) / "after"), args.gpu, paths)
    assert len(before) == len(after) == len(rows)
    errors = [
        (b[0] / (r.time_ms * 1e-3) - 1, a[0] / (r.time_ms * 1e-3) - 1)
        for r, b, a in zip(rows, before, after, strict=True)
    ]
    moved = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if abs(a[0] / b[0] - 1) > 1e-9]

    def cell(idx: list[int]) -> str:
        eb, ea = [errors[i][0] for i in idx], [errors[i][1] for i in idx]
        return (f"{len(idx)} | {100 * statistics.median(map(abs, eb)):.1f}% / {100 * statistics.median(eb):+.1f}% | "
                f"{100 * statistics.median(map(abs, ea)):.1f}% / {100 * statistics.median(ea):+.1f}%")  # fmt: skip

    print(f"{args.gpu}: {len(rows):,} kernels of {len(paths)} read samples; {len(moved):,} moved, before "
          f"{revision_name(args.before)}, after {revision_name(args.after)}")  # fmt: skip
    print(f"| {' | '.join(keys)} | n | before: median abs / signed | after |")
    print("|" + "---|" * (len(keys) + 3))
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i in moved:
        c = classes(rows[i], before[i], sms)
        groups[tuple(c[k] for k in keys)].append(i)
    for key, idx in sorted(groups.items()):
        print(f"| {' | '.join(key)} | {cell(idx)} |")
    if moved:
        print(f"| all moved | {' | ' * (len(keys) - 1)}{cell(moved)} |")


if __name__ == "__main__":
    main()
