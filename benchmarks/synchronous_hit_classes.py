"""A synchronous load's hit rate, by class, on recorded broad samples: the figures behind
prediction.synchronous_hit_bytes. Each kernel that loads an operand one element at a time (Triton does not pipeline
it), as compiled, under the model with the wait at the kernel's L2 hit rate (before d29e186) and at the hit rate of
the operands so loaded (the rule); printed per class (family, which operand, its layout, relaid or not, spills): n,
the median signed error (predicted / measured - 1) of each, and the median |error| of each; then every kernel the
rule moves, and per sample the decode class the rule was found on (A M-major loaded one element at a time, B
pipelined, 16- or 8-bit, no spills).

    python benchmarks/synchronous_hit_classes.py [--machine h200] [SAMPLE ...]

SAMPLE: a directory under docs/measurements (default: the machine's read broad sweeps the figures of docs/
validation.md were printed on: the H200's 2026-11-23 to fresh25, the H100's 2026-11-23 to fresh18).
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.read_samples import DATA, read_h100, read_h200, sample_args, signed
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.kernel import FAMILIES
from roofmodel.model.prediction import copy_plan
from roofmodel.model.problem import INPUT_BYTES

READ = {"h100": read_h100(18), "h200": read_h200(25)}


def hit_class(r: Any) -> str | None:
    """The record's class (None: no operand loaded one element at a time), by Triton's copy rules."""
    plan = copy_plan(True, FAMILIES.index(r.instruction or "fma"), INPUT_BYTES[r.dtype], r.m, r.n, r.k,
                     r.a_major == "m", r.b_major == "n", r.block_m, r.block_n)  # fmt: skip
    ua, ub = (bool(x) for x in plan.unaligned)
    if not (ua or ub):
        return None
    which = "both" if ua and ub else f"A {r.a_major}-major" if ua else f"B {r.b_major}-major"
    return (f"{r.family}, {which}" + (", other relaid" if bool(plan.relaid) else "")
            + (", spills" if r.spilled_registers else ""))  # fmt: skip


def the_decode_class(r: Any) -> bool:
    """Where the rule was found: decode, 16- or 8-bit, no spills, M-major A loaded one element at a time, B pipelined."""
    return (r.family == "decode" and r.dtype in ("fp16", "bf16", "fp8") and not r.spilled_registers
            and hit_class(r) == "decode, A m-major")  # fmt: skip


def main() -> None:
    args = sample_args(__doc__, [])
    samples = args.samples or list(READ[args.machine])
    machine = load_machine(args.machine)
    rule, kernel = Evaluator(machine, 1980.0), Evaluator(machine, 1980.0)
    kernel.own_hit_rate = False
    classes: dict[str, list[tuple[float, float]]] = defaultdict(list)
    moved: list[tuple[float, float]] = []
    per_sample: dict[str, list[tuple[float, float]]] = defaultdict(list)
    total = 0
    for sample in samples:
        for r in read_broad_csv(DATA / sample / "broad.csv"):
            if r.set != "sweep":
                continue
            total += 1
            key = hit_class(r)
            if key is None:
                continue
            measured = r.time_ms * 1e-3
            pair = (float(kernel.seconds(r)["total"]) / measured - 1, float(rule.seconds(r)["total"]) / measured - 1)
            classes[key].append(pair)
            if pair[0] != pair[1]:
                moved.append(pair)
            if the_decode_class(r):
                per_sample[sample].append(pair)

    def line(label: str, pairs: list[tuple[float, float]]) -> str:
        before, after = [p[0] for p in pairs], [p[1] for p in pairs]
        return (f"| {label} | {len(pairs)} | {signed(before)} -> {signed(after)} | "
                f"{100 * statistics.median(map(abs, before)):.1f}% -> {100 * statistics.median(map(abs, after)):.1f}% |")  # fmt: skip

    print(f"{args.machine}: {total:,} sweep kernels of {len(samples)} samples; the kernel's hit rate -> the rule")
    print("| class | n | median signed | median abs |\n|---|---|---|---|")
    for key in sorted(classes, key=lambda k: -len(classes[k])):
        print(line(key, classes[key]))
    print(line("moved by the rule", moved))
    print(line("the decode class", [p for pairs in per_sample.values() for p in pairs]))
    for sample, pairs in per_sample.items():
        print(line(f"  {sample}", pairs))


if __name__ == "__main__":
    main()
