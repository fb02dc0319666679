"""Fenced copies, by class, on recorded broad samples: the figures behind cta_model.fenced_queue_cycles and
prediction.fenced_copies. For each wgmma sweep kernel whose warps store an operand into shared memory and fence it
before the wgmma (Triton does not pipeline it: relaid through registers, or loaded one element at a time), as
compiled, the model is run four ways: before (the model of e55bbf6: no queue, a relaid operand's wait at the
loaded latency), the queue alone (each other resident CTA's shared-memory time added to a CTA's iteration, the loaded
wait kept), the rule (the queue for relaid operands and the proportional wait for every synchronous load), and the
rule with the queue charged on element-wise operands too (tried, not taken). Printed per class, spills and CTAs
per SM, for the kernels whose largest term in the rule is shared memory ("smem binds"), for those whose largest is
the latency ("wait binds": the queue overcharges them) and for all of the class: n and the median signed error
(predicted / measured - 1) each way.

    python benchmarks/fenced_copy_classes.py [--machine h100] [SAMPLE ...]

SAMPLE: a directory under docs/measurements (default: the H100's read broad sweeps, 2026-11-23 to fresh14).
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
from roofmodel.model.prediction import WARPGROUP, copy_plan
from roofmodel.model.problem import INPUT_BYTES

READ = read_h100(14)
RULE_FENCED, RULE_WAIT = prediction.fenced_copies, prediction.synchronous_wait_cycles


def loaded_for_relaid(plan: Any, loaded: Any, unloaded: Any, pipelined: Any) -> Any:
    """The wait before: the loaded latency for a relaid operand, the proportional one otherwise."""
    return loaded if bool(plan.relaid) else RULE_WAIT(plan, loaded, unloaded, pipelined)


WAYS = {
    "before": (lambda plan, family: False, loaded_for_relaid),
    "queue alone": (RULE_FENCED, loaded_for_relaid),
    "rule": (RULE_FENCED, RULE_WAIT),
    "element-wise too": (lambda plan, family: plan.synchronous & WARPGROUP[family], RULE_WAIT),
}


def fence_class(r: Any) -> str | None:
    """The record's class (None: not a wgmma kernel, or every load pipelined), by Triton's copy rules."""
    if r.instruction != "wgmma":
        return None
    plan = copy_plan(True, FAMILIES.index("wgmma"), INPUT_BYTES[r.dtype], r.m, r.n, r.k, r.a_major == "m",
                     r.b_major == "n", r.block_m, r.block_n)  # fmt: skip
    if bool(plan.relaid):
        return f"relaid {r.dtype}"
    return f"element-wise {INPUT_BYTES[r.dtype] * 8}-bit" if bool(plan.synchronous) else None


def residents(c: int) -> str:
    return "1" if c == 1 else "2" if c == 2 else "3-4" if c <= 4 else "5+"


def main() -> None:
    args = sample_args(__doc__, list(READ))
    ev = Evaluator(load_machine(args.machine), 1980.0)
    rows: dict[tuple[str, str, str], list[dict[str, float]]] = defaultdict(list)
    for sample in args.samples:
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set != "sweep" or not r.time_ms or (klass := fence_class(r)) is None:
                continue
            errors: dict[str, float] = {}
            for name, (fenced, wait) in WAYS.items():
                prediction.fenced_copies, prediction.synchronous_wait_cycles = fenced, wait
                try:
                    terms, fp = ev._terms(r, True, None)
                finally:
                    prediction.fenced_copies, prediction.synchronous_wait_cycles = RULE_FENCED, RULE_WAIT
                errors[name] = float(terms["total"]) / (r.time_ms * 1e-3) - 1
                if name == "rule":
                    parts = {k: float(v) for k, v in terms.items() if k not in ("total", "sm", "launch")}
                    largest = max(parts, key=parts.__getitem__)
                    errors["bound"], errors["wait"] = float(largest == "shared memory"), float(largest == "latency")
            tiles = -(-r.m // r.block_m) * -(-r.n // r.block_n)
            c = min(int(fp["ctas_per_sm"]), -(-tiles // ev.machine.sm_count.n))
            rows[(klass, "spills" if r.spilled_registers else "-", residents(c))].append(errors)
    head = " | ".join(WAYS)
    print(f"| class | spills | CTAs/SM | n (smem binds) | {head} | n (wait binds) | {head} | n (all) | {head} |")
    print("|---|---|---|" + ("---|" * (len(WAYS) + 1)) * 3)
    for key, v in sorted(rows.items()):
        cells = []
        for subset in ([x for x in v if x["bound"]], [x for x in v if x["wait"]], v):
            cells += [f"{len(subset)}", *(signed([x[w] for x in subset]) for w in WAYS)]
        print("| " + " | ".join(key) + " | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
