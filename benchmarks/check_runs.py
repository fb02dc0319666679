"""What the device checks' readers share (round_cost.py, smem_bound.py, transpose_cost.py): a check's two runs
(DIR/broad.csv and DIR/repeat/broad.csv, the same kernels in the same order), each kernel's measured time as the median
of its four timings with the per-CTA model as compiled beside it, and the markdown table they print; the slopes over
two K of the checks that write their own CSV (two_k_slopes) and the CSV they write (write_csv).
"""

from __future__ import annotations

import csv
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roofmodel.backends.broad import BroadRecord, Evaluator, read_broad_csv
from roofmodel.machine import load_machine

MEASUREMENTS = Path(__file__).resolve().parent.parent / "docs" / "measurements"
# (the first run's record, measured seconds, the model's terms, the kernel's footprint): timed_rows' rows.
TimedRow = tuple[BroadRecord, float, dict[str, Any], dict[str, Any]]


def timed_rows(directory: Path, machine: str = "h200", mhz: float = 1980.0) -> list[TimedRow]:
    """A TimedRow for each kernel of a check timed twice (its measured seconds the median of both runs' two passes);
    SystemExit where the runs' rows are not the same kernels."""
    first, repeat = read_broad_csv(directory / "broad.csv"), read_broad_csv(directory / "repeat" / "broad.csv")
    if [(r.shape, r.k) for r in first] != [(r.shape, r.k) for r in repeat]:
        raise SystemExit(f"{directory.name}: the two runs' rows differ")
    ev = Evaluator(load_machine(machine), mhz)
    out = []
    for a, b in zip(first, repeat, strict=True):
        terms, footprint = ev._terms(a, True, None)
        measured = statistics.median(float(t) for t in (a.time_ms, a.time_ms_2, b.time_ms, b.time_ms_2) if t) * 1e-3
        out.append((a, measured, terms, footprint))
    return out


@contextmanager
def replaced(owner: Any, **values: Any) -> Iterator[None]:
    """The model's names on ``owner`` (a module: a constant, or a rule's function) set to ``values`` inside the block
    and restored after it: a check's reader prints the model as it is beside the model before a change."""
    saved = {name: getattr(owner, name) for name in values}
    for name, value in values.items():
        setattr(owner, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(owner, name, value)


def two_k_pairs(rows: list[TimedRow]) -> dict[str, tuple[TimedRow, TimedRow]]:
    """Each shape's two kernels (timed_rows' rows), the fewer iterations first: a check timed at two K, whose slope
    over the iterations between them is what an iteration of the SM's round costs. SystemExit where a shape has
    other than two."""
    groups: dict[str, list[TimedRow]] = {}
    for row in rows:
        groups.setdefault(row[0].shape, []).append(row)
    if any(len(pair) != 2 for pair in groups.values()):
        raise SystemExit("check_runs: a shape of a two-K check has other than two kernels")
    return {shape: (min(pair, key=iterations), max(pair, key=iterations)) for shape, pair in groups.items()}


def iterations(row: TimedRow) -> int:
    """A row's main-loop iterations, K / BK."""
    return row[0].k // row[0].block_k


def print_table(headers: list[str], rows: list[list[str]]) -> None:
    """A markdown table of already formatted cells."""
    print("| " + " | ".join(headers) + " |")
    print("|" + "---|" * len(headers))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """``rows`` (dicts with the same keys) as a CSV with a header."""
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def two_k_slopes(paths: tuple[Path, ...], key: Callable[[dict[str, str]], tuple[Any, ...]],
                 mhz: float = 1980.0) -> dict[tuple[Any, ...], float]:  # fmt: skip
    """Per ``key`` of a row of the CSVs at ``paths`` (runs of the same kernels, each timed twice: time_ms and
    time_ms_2) timed at two K: SM cycles an iteration at ``mhz``, (median of the longer kernel's timings - median of the
    shorter's) / the iterations (K / BK) between them. SystemExit where a key has other than two K."""
    times: dict[tuple[Any, ...], dict[int, list[float]]] = {}
    for path in paths:
        with path.open() as f:
            for r in csv.DictReader(f):
                by_k = times.setdefault(key(r), {})
                by_k.setdefault(int(r["k"]) // int(r["block_k"]), []).extend(
                    float(r[c]) for c in ("time_ms", "time_ms_2")
                )
    if any(len(by_k) != 2 for by_k in times.values()):
        raise SystemExit("check_runs: a kernel of a two-K check has other than two K")
    out = {}
    for k, by_k in times.items():
        short, long = sorted(by_k)
        out[k] = (statistics.median(by_k[long]) - statistics.median(by_k[short])) * 1e-3 * mhz * 1e6 / (long - short)
    return out
