"""The L2's line requests, by class, on recorded broad samples: the figures behind prediction.l2_request_factor. Each
sweep kernel that loads both operands 16 bytes at a time and does not spill is put in a class by the line requests
per sector q its copies ask (prediction.copy_requests_per_sector, with the kernel's strides: 0.25 for whole lines,
0.375 for 64-byte runs on one operand and whole lines on the other, 0.5 for 64-byte runs on both, more for shorter
runs and for rows that do not start on a line) against the machine
file's limit (memory.l2.requests_per_sector), and the model is run twice, as
compiled: without the request bound (memory.l2.requests_per_sector taken away) and with it. Printed per class and
instruction, for the kernels whose largest term without the bound is the L2 ("L2 binds") and for all of the class: n
and the median signed error (predicted / measured - 1) each way.

    python benchmarks/l2_request_classes.py [--machine h100] [SAMPLE ...]

SAMPLE: a directory under docs/measurements (default: the H100's read broad sweeps, 2026-11-23 to fresh13).
"""

from __future__ import annotations

import dataclasses
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.read_samples import DATA, read_h100, sample_args, signed
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.kernel import FAMILIES
from roofmodel.model.prediction import B_SHARE, Rates, copy_plan, copy_requests_per_sector
from roofmodel.model.problem import INPUT_BYTES

READ = read_h100(13)


def q_class(q: float, limit: float) -> str:
    if q <= 0.25:
        return "1: whole lines (q = 0.25)"
    if q <= limit:
        return f"2: under the limit (0.25 < q <= {limit:g})"
    if q <= 0.5:
        return f"3: past it, to 64-byte runs on both ({limit:g} < q <= 0.5)"
    return "4: shorter runs (q > 0.5)"


class WithoutRequests(Evaluator):
    """The model with no request bound: every operand byte at the L2's data rate."""

    def rates(self, dtype: str) -> Rates:
        return dataclasses.replace(super().rates(dtype), l2_requests_per_sector=None)


def request_class(r, limit: float) -> str | None:
    """The record's class by its copies' requests per sector (None: an operand loaded one element at a time)."""
    family = FAMILIES.index(r.instruction or "fma")
    e = INPUT_BYTES[r.dtype]
    plan = copy_plan(True, family, e, r.m, r.n, r.k, r.a_major == "m", r.b_major == "n", r.block_m, r.block_n)
    if bool(plan.narrow[0]) or bool(plan.narrow[1]):
        return None
    a_m, b_n = r.a_major == "m", r.b_major == "n"
    q = float(copy_requests_per_sector(e, r.block_m, r.block_n * B_SHARE[family], r.block_k, a_m, b_n,
                                       r.m if a_m else r.k, r.n if b_n else r.k))  # fmt: skip
    return q_class(q, limit)


def main() -> None:
    args = sample_args(__doc__, list(READ))
    machine = load_machine(args.machine)
    on, off = Evaluator(machine, 1980.0), WithoutRequests(machine, 1980.0)
    if machine.memory.l2.requests_per_sector is None:
        raise SystemExit(f"{args.machine}: no memory.l2.requests_per_sector, nothing to compare")
    limit = machine.memory.l2.requests_per_sector.value
    rows: dict[tuple[str, str], list[tuple[float, float, bool]]] = defaultdict(list)
    for sample in args.samples:
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set != "sweep" or not r.time_ms or r.spilled_registers or (klass := request_class(r, limit)) is None:
                continue
            before = off.seconds(r)
            parts = {k: float(v) for k, v in before.items() if k not in ("total", "sm")}
            measured = r.time_ms * 1e-3
            rows[(klass, r.instruction or "fma")].append(
                (float(before["total"]) / measured - 1, float(on.seconds(r)["total"]) / measured - 1,
                 max(parts, key=parts.__getitem__) == "L2"))  # fmt: skip
    print("| copies' runs | instruction | n (L2 binds) | without | with | n (all) | without | with |")
    print("|---|---|---|---|---|---|---|---|")
    for (klass, ins), v in sorted(rows.items()):
        b = [x for x in v if x[2]]
        print(f"| {klass} | {ins} | {len(b)} | {signed([x[0] for x in b])} | {signed([x[1] for x in b])} | {len(v)} | "
              f"{signed([x[0] for x in v])} | {signed([x[1] for x in v])} |")  # fmt: skip


if __name__ == "__main__":
    main()
