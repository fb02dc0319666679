"""What the device checks' readers share (round_cost.py, smem_bound.py, transpose_cost.py): a check's two runs
(DIR/broad.csv and DIR/repeat/broad.csv, the same kernels in the same order), each kernel's measured time as the median
of its four timings with the per-CTA model as compiled beside it, and the markdown table they print.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roofmodel.backends.broad import BroadRecord, Evaluator, read_broad_csv
from roofmodel.machine import load_machine

MEASUREMENTS = Path(__file__).resolve().parent.parent / "docs" / "measurements"


def timed_rows(
    directory: Path, machine: str = "h200", mhz: float = 1980.0
) -> list[tuple[BroadRecord, float, dict[str, Any], dict[str, Any]]]:
    """(the first run's record, measured seconds: the median of both runs' two passes, the model's terms, the kernel's
    footprint) for each kernel of a check timed twice; SystemExit where the runs' rows are not the same kernels."""
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


def print_table(headers: list[str], rows: list[list[str]]) -> None:
    """A markdown table of already formatted cells."""
    print("| " + " | ".join(headers) + " |")
    print("|" + "---|" * len(headers))
    for row in rows:
        print("| " + " | ".join(row) + " |")
