"""What a synchronous load waits, by class, on recorded broad samples: the figures behind
prediction.synchronous_wait_cycles. For each kernel that loads an operand synchronously (Triton does not pipeline
it: loaded one element at a time, or relaid through registers under wgmma), as compiled, the model is run four
ways: every synchronous wait at the loaded latency (the model before 3b38542), every one at the unloaded latency,
the model's rule (the unloaded latency raised toward the loaded one by the share of the SM's traffic in flight
beside the wait, the other resident CTAs' stages included since 67769ce: prediction.beside_share; for every class), and the rule before the fence queue (the loaded latency for a relaid
operand: prediction.fenced_copies; the relaid kernels' fenced stores are charged either way). Printed per class (both
operands element-wise, one element-wise and the other pipelined, relaid) and instruction, for the kernels whose
largest term under the loaded latency is that wait ("latency"), and for all of the class: n and the median signed
error (predicted / measured - 1) of each way.

    python benchmarks/synchronous_wait_classes.py [--machine h100] [SAMPLE ...]

SAMPLE: a directory under docs/measurements (default: the H100's read broad sweeps, 2026-11-23 to fresh11); the
alignment check (h100-2026-11-25/alignment) is read for its align_check kernels.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import roofmodel.model.prediction as prediction
from benchmarks.read_samples import DATA, read_h100, sample_args, signed
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.kernel import FAMILIES
from roofmodel.model.prediction import copy_plan
from roofmodel.model.problem import INPUT_BYTES

READ = read_h100(11)
SETS = ("sweep", "align_check")
RULE = prediction.synchronous_wait_cycles
WAYS = {
    "loaded": lambda plan, loaded, unloaded, pipelined: loaded,
    "unloaded": lambda plan, loaded, unloaded, pipelined: unloaded,
    "rule": RULE,
    # the rule before the relaid kernels' fenced stores were charged: they kept the loaded latency
    "relaid loaded": lambda plan, loaded, unloaded, pipelined: (
        loaded if bool(plan.relaid) else RULE(plan, loaded, unloaded, pipelined)
    ),
}


def wait_class(r: Any) -> str | None:
    """The record's synchronous class (None: every load pipelined), by Triton's copy rules (prediction.copy_plan)."""
    family = FAMILIES.index(r.instruction or "fma")
    plan = copy_plan(True, family, INPUT_BYTES[r.dtype], r.m, r.n, r.k, r.a_major == "m", r.b_major == "n",
                     r.block_m, r.block_n)  # fmt: skip
    if bool(plan.relaid):
        return "relaid"
    ua, ub = (bool(x) for x in plan.unaligned)
    return "both element-wise" if ua and ub else "one element-wise" if ua or ub else None


def main() -> None:
    args = sample_args(__doc__, [*READ, "h100-2026-11-25/alignment"])
    ev = Evaluator(load_machine(args.machine), 1980.0)
    rows: dict[tuple[str, str, str], list[dict[str, float]]] = defaultdict(list)
    for sample in args.samples:
        where = "alignment check" if "alignment" in sample else "sweeps"
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set not in SETS or not r.time_ms or (klass := wait_class(r)) is None:
                continue
            errors, bound = {}, False
            for name, way in WAYS.items():
                prediction.synchronous_wait_cycles = way
                try:
                    terms = ev.seconds(r)
                finally:
                    prediction.synchronous_wait_cycles = RULE
                errors[name] = float(terms["total"]) / (r.time_ms * 1e-3) - 1
                if name == "loaded":
                    parts = {k: float(v) for k, v in terms.items() if k not in ("total", "sm")}
                    bound = max(parts, key=parts.__getitem__) == "latency"
            rows[(where, klass, r.instruction or "fma")].append({**errors, "bound": float(bound)})
    print(
        "| kernels | class | instruction | n (wait binds) | loaded | unloaded | rule | relaid loaded | n (all) | loaded | "
        "unloaded | rule | relaid loaded |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (where, klass, ins), v in sorted(rows.items()):
        b = [x for x in v if x["bound"]]
        cells = [f"{len(b)}", *(signed([x[w] for x in b]) if b else "-" for w in WAYS), f"{len(v)}",
                 *(signed([x[w] for x in v]) for w in WAYS)]  # fmt: skip
        print(f"| {where} | {klass} | {ins} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
