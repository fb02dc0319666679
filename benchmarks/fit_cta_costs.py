"""Fit the per-CTA model's two fitted constants on the broad sweep's TRAINING shapes only, and print
every figure on both splits (issue 13: "fitted on a training split of shapes fixed before the fit
and every figure reported on the shapes it never saw").

The constants: the loaded-latency factor (loaded latency = factor x the pointer-chase latency, for L2
and DRAM), the memory norm q with which the chip-wide memory terms (DRAM, L2, a last-level cache) combine
into the memory time (cta_model.MEMORY_NORM) and the overlap norm p with which the SM time and that memory
time combine (roofmodel.model.cta_model.OVERLAP_NORM; infinity is the largest of them); then, at those, the
spilled registers per thread that cost nothing per iteration (cta_model.COLD_SPILLED_REGISTERS), among
the counts that keep the alignment check's guard (its unaligned kernels' median error below 20%), and the
times an mma.sync kernel's spilled register is reloaded per iteration (cta_model.mma_sync_spill_reloads), among
the forms the spill check's Nsight Compute counters allow (agrees_with_counters); last, at all of those, the
overlap norm of the kernels whose MMA warps issue their stage copies too (cta_model.ISSUED_OVERLAP_NORM: mma.sync
and FMA; until then they take the one overlap norm, as the earlier constants were fitted). The per-iteration costs (kernel_costs.iteration, copy_issue, wait) are the machine file's,
derived from the K-sweep microbenchmark by benchmarks/derive_kernel_costs.py; with --grid-costs they
are searched too, to show what a fit of all four would give. The objective is the median
|log(predicted / measured)| over the training kernels, as compiled, among the grid points that keep
the regression guards: the 168 well-tuned kernels of 2026-11-22 (docs/measurements/h100-2026-11-22,
as tests/test_backends.py holds them: median error < 7%, p90 < 18%), and their bf16 grid (bf16/: median < 8%,
p90 < 18%, test_bf16_hold_out; a guard of the fit since the memory norm, 2026-11-26, whose 2-norm passed the
fp16 guard and broke this one, 9.0%). The guard is there because the
training median alone chooses p = 2, which gives those kernels 18%: in a well-tuned kernel the SMs
overlap their work with L2 better than in a random one, which one norm cannot say. So the guard's
kernels take part in choosing p (none of the broad sweep's held-out kernels do). A grid, not a
solver: every point is printed with --verbose, and the winner is what machines/h100.yaml records;
points within 1% of the best training objective are a tie, broken by the training p90 (choose).

Since 2026-11-29 the model's OVERLAP_NORM (wgmma and FMA kernels) is 8, which this fit does not choose: it was taken
on the read broad sweeps and the tuned-replay check (cta_model's docstring), over these guards, whose 2026-11-22
kernels it puts at 10.4% and 13.0% (tests/test_backends.py re-set their limits). The fit keeps its grid and its
guards' limits as they were run, so it reproduces how the other constants were chosen (with p = infinity); it says
where its choice and the model's differ.

    python benchmarks/fit_cta_costs.py [--machine h100] [--data docs/measurements/h100-2026-11-23]
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import derive_kernel_costs as derive  # a sibling script: benchmarks/ is the script's own directory
import numpy as np

import roofmodel.model.cta_model as cta_model
from roofmodel.backends.broad import Evaluator, read_broad_csv
from roofmodel.backends.records import read_csv
from roofmodel.backends.validation import validate
from roofmodel.machine import load_machine, merge_overrides
from roofmodel.model.kernel_costs import spill_bandwidth
from roofmodel.stats import spearman

REPO = Path(__file__).resolve().parents[1]
COLD_GRID = (0, 8, 16, 24, 32, 48, 64)
ISSUED_NORM_GRID = (2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0, math.inf)


def overridden(machine: Any, override: dict[str, Any]) -> Any:
    """The machine with ``override`` merged into its file's data (roofmodel.machine.merge_overrides, as an
    overlay's ``base:`` is): each quantity given is replaced whole."""
    data = machine.model_dump(mode="json", exclude_none=True, exclude={"source_file"})
    return type(machine).model_validate(merge_overrides(data, override))


def scaled(machine: Any, factor: float, pointer_chase_ns: dict[str, float]) -> Any:
    """The machine with loaded latencies = factor x the pointer-chase latency."""
    mem = machine.memory
    return overridden(machine, {"memory": {
        level: {"loaded_latency": {**getattr(mem, level).loaded_latency.model_dump(mode="json", exclude_none=True),
                                   "value": factor * pointer_chase_ns[level], "unit": "ns"}}
        for level in ("l2", "dram")
    }})  # fmt: skip


TIE = 0.01  # training objectives within 1% of the best are a tie


def guard_errors(guarded: Any, guard_records: list[Any], bf16_records: list[Any]) -> tuple[dict[str, Any], ...]:
    """The well-tuned kernels' and their bf16 grid's TFLOPS errors under the machine ``guarded``."""
    g = validate(guarded, guard_records).tflops_error
    b = validate(guarded, bf16_records).tflops_error if bf16_records else {"median_abs_pct": 0, "p90_abs_pct": 0}
    return g, b


def guards_hold(g: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether those errors stay within the regression guards (module docstring)."""
    return g["median_abs_pct"] < 7 and g["p90_abs_pct"] < 18 and b["median_abs_pct"] < 8 and b["p90_abs_pct"] < 18


def choose(points: list[tuple[dict[str, float], Any]], kept: Any = None) -> Any:
    """The grid point with the least training median |log(predicted / measured)|; among the points
    within TIE of it (the objective is flat there: loaded-latency factors 6 and 8 came within 0.2% of
    each other), the model's own (``kept``) where it is one of them, else the one with the least training
    p90. Training figures only. (Since 2026-11-26 the model's own wins a tie: the training shapes cannot
    tell tied points apart, and moving on them moved the reload constants back and forth between refits,
    once to a point with the worse training median.)"""
    best = min(s["log"] for s, _ in points)
    tied = [(s, p) for s, p in points if s["log"] <= best * (1 + TIE)]
    if kept is not None and any(p == kept for _, p in tied):
        return kept
    return min(tied, key=lambda sp: sp[0]["p90"])[1]


ALIGNMENT = REPO / "docs" / "measurements" / "h100-2026-11-25" / "alignment" / "broad.csv"


def alignment_error(ev: Evaluator) -> float:
    """Median |predicted / measured - 1| over the alignment check's unaligned kernels, as compiled (the
    guard tests/test_cta_model.py holds below 20%); 0 where the check is not on disk."""
    if not ALIGNMENT.exists():
        return 0.0
    rows = [r for r in read_broad_csv(ALIGNMENT) if r.set == "align_check" and r.time_ms and r.shape != "align4096"]
    return statistics.median(abs(float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3) - 1) for r in rows)


def with_spill_bandwidth(machine: Any, value: float) -> Any:
    """The machine with kernel_costs.spill_bandwidth = ``value`` B/cycle/SM."""
    q = machine.kernel_costs.spill_bandwidth.model_dump(mode="json", exclude_none=True)
    return overridden(machine, {"kernel_costs": {"spill_bandwidth": {**q, "value": value}}})


SPILL_CHECK = REPO / "docs" / "measurements" / "h100-2026-11-25" / "spill_check"


def spill_counters() -> list[tuple[int, float]]:
    """(spilled registers, local bytes per iteration / (2 x spilled x 4 B x threads)) of the training-shape
    mma.sync kernels Nsight Compute measured (docs/measurements/h100-2026-11-25/spill_check); empty where the
    check is not on disk."""
    import csv

    out = []
    for name in ("spill_sample_train.csv", "spill_check.csv"):
        path = SPILL_CHECK / name
        if not path.exists():
            continue
        with path.open(newline="") as f:
            for r in csv.DictReader(f):
                if r["instruction"] != "mma.sync" or r["split"] != "train":
                    continue
                m, n, k, bm, bn, bk, w = (int(r[c]) for c in ("m", "n", "k", "block_m", "block_n", "block_k",
                                                              "num_warps"))  # fmt: skip
                spilled = int(r["spilled_registers"])
                local = sum(float(r[f"ncu:l1tex__t_sectors_pipe_lsu_mem_local_op_{o}.sum"]) for o in ("ld", "st"))
                iters = math.ceil(m / bm) * math.ceil(n / bn) * math.ceil(k / bk)
                out.append((spilled, local * 32 / iters / (2 * spilled * 4 * 32 * w)))
    return out


def agrees_with_counters(counters: list[tuple[int, float]]) -> bool:
    """Whether cta_model.mma_sync_spill_reloads, as set, says what the counters say, as
    tests/test_cta_model.py::test_the_reload_form_against_the_local_memory_counters holds the model to: the
    kernels that spill fewer than 30 charged and counted under 0.35 each; those that spill 30 or more within
    0.6-2.3 x each, median 0.9-1.3 x."""
    if not counters:
        raise SystemExit(
            f"fit_cta_costs: no spill-check counters under {SPILL_CHECK}: the reload forms cannot be checked"
        )
    small = [(cta_model.mma_sync_spill_reloads(s), measured) for s, measured in counters if s < 30]
    ratios = [cta_model.mma_sync_spill_reloads(s) / measured for s, measured in counters if s >= 30]
    return all(a < 0.35 and b < 0.35 for a, b in small) and (
        min(ratios) > 0.6 and max(ratios) < 2.3 and 0.9 < statistics.median(ratios) < 1.3
    )


def score(rows: list[Any], predicted: list[float]) -> dict[str, float]:
    logs = [abs(math.log(p / r.time_ms / 1e-3)) for r, p in zip(rows, predicted, strict=True)]
    errs = sorted(abs(p / (r.time_ms * 1e-3) - 1) * 100 for r, p in zip(rows, predicted, strict=True))
    groups: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for r, p in zip(rows, predicted, strict=True):
        groups[(r.shape, r.dtype)].append((p, r.time_ms))
    sp = [spearman([p for p, _ in v], [t for _, t in v]) for v in groups.values() if len(v) >= 5]
    first = [min(t for _, t in v) / min(v)[1] for v in groups.values() if len(v) >= 5]
    return {
        "log": statistics.median(logs),
        "median": statistics.median(errs),
        "p90": float(np.percentile(errs, 90)),
        "spearman": statistics.median(sp),
        "first": statistics.median(first),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", default="h100")
    ap.add_argument("--data", default=str(REPO / "docs" / "measurements" / "h100-2026-11-23"))
    ap.add_argument("--clock", type=float, default=1980.0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--grid-costs", action="store_true", help="search iteration, copy_issue and wait as well")
    ap.add_argument("--guard", default=str(REPO / "docs" / "measurements" / "h100-2026-11-22"),
                    help="the regression guard's gemm.csv and h100-measured.yaml ('' for none)")  # fmt: skip
    args = ap.parse_args()
    base = load_machine(args.machine)
    guard_records = read_csv(Path(args.guard) / "gemm.csv") if args.guard else []
    bf16_path = Path(args.guard) / "bf16" / "gemm.csv" if args.guard else None
    bf16_records = read_csv(bf16_path) if bf16_path is not None and bf16_path.exists() else []
    guard_machine = load_machine(Path(args.guard) / "h100-measured.yaml") if args.guard else None
    records = [r for r in read_broad_csv(Path(args.data) / "broad.csv") if r.set == "sweep"]
    train = [r for r in records if r.split == "train"]
    holdout = [r for r in records if r.split == "holdout"]
    mem = base.memory
    chase = {lvl: getattr(mem, lvl).latency.value for lvl in ("l2", "dram")}  # ns in the file
    own = base.kernel_costs
    assert own is not None and own.iteration and own.copy_issue and own.wait
    iterations = [100, 150, 200, 250, 300] if args.grid_costs else [own.iteration.value]
    copies = [0, 5, 10, 20, 30] if args.grid_costs else [own.copy_issue.value]
    waits = [0, 100, 150, 200, 250] if args.grid_costs else [own.wait.value]
    factors = [1.0, 1.5, 2.0, 3.0, 4.0, 4.5, 5.0, 5.5, 6.0, 8.0, 10.0, 12.0, 16.0]
    norms = [2.0, 3.0, 4.0, math.inf]  # 1.5 and 2.5 left out with the memory norm's grid (the fit's time x 6)
    memory_norms = [1.5, 2.0, 2.5, 3.0, 4.0, math.inf]
    points: list[tuple[dict[str, float], tuple[float, float, float, float, float, float]]] = []
    kept_norms = (cta_model.OVERLAP_NORM, cta_model.MEMORY_NORM)
    kept_issued = cta_model.ISSUED_OVERLAP_NORM  # the model's, before the stages below set it

    def costs(ev: Evaluator, it: float, cp: float, wait: float) -> dict[str, float]:
        return {"iteration_s": it * 1e-9, "copy_issue_s": cp * 1e-9, "wait_s": wait * 1e-9}

    for norm, memory_norm, factor in itertools.product(norms, memory_norms, factors):
        # Until the last stage, kernels whose warps issue their copies take the one overlap norm, as the model did
        # before ISSUED_OVERLAP_NORM (2026-11-27): the earlier constants were fitted so.
        cta_model.OVERLAP_NORM, cta_model.MEMORY_NORM = norm, memory_norm
        cta_model.ISSUED_OVERLAP_NORM = norm
        if guard_machine is not None:
            g, b = guard_errors(scaled(guard_machine, factor, chase), guard_records, bf16_records)
            if not guards_hold(g, b):
                if args.verbose:
                    print(f"norm {norm} memory norm {memory_norm} factor {factor}: breaks a guard (fp16 "
                          f"{g['median_abs_pct']:.1f}% / {g['p90_abs_pct']:.1f}%, bf16 {b['median_abs_pct']:.1f}% / "
                          f"{b['p90_abs_pct']:.1f}%)")  # fmt: skip
                continue
        machine = scaled(base, factor, chase)
        ev = Evaluator(machine, args.clock)
        for it, cp, wait in itertools.product(iterations, copies, waits):
            if args.grid_costs:
                ev.cost_override = costs(ev, it, cp, wait)
            s = score(train, [float(ev.seconds(r)["total"]) for r in train])
            if args.verbose:
                print(f"norm {norm} memory norm {memory_norm} factor {factor} iteration {it} ns copy {cp} ns "
                      f"wait {wait} ns: train {s}")  # fmt: skip
            points.append((s, (norm, memory_norm, factor, it, cp, wait)))
    assert points
    kept_factor = round(mem.l2.loaded_latency.value / chase["l2"], 2) if mem.l2.loaded_latency else None
    kept_point = (kept_norms[0], kept_norms[1], kept_factor, own.iteration.value, own.copy_issue.value, own.wait.value)
    norm, memory_norm, factor, it, cp, wait = choose(points, kept_point)
    cta_model.OVERLAP_NORM, cta_model.MEMORY_NORM = norm, memory_norm
    cta_model.ISSUED_OVERLAP_NORM = norm
    machine = scaled(base, factor, chase)
    ev = Evaluator(machine, args.clock)
    if args.grid_costs:
        ev.cost_override = costs(ev, it, cp, wait)
    print(f"best on train: overlap norm {norm}, memory norm {memory_norm}, loaded latency = {factor} x pointer chase, "
          f"iteration {it} ns, "
          f"copy issue {cp} ns, wait {wait} ns")  # fmt: skip
    if norm != kept_norms[0]:
        print(f"  (the model's OVERLAP_NORM is {kept_norms[0]:g}, not this fit's: chosen on the read sweeps and the "
              "tuned-replay check, cta_model's docstring)")  # fmt: skip
    # Then, at that norm and factor, the spilled registers per thread that cost nothing per iteration,
    # each with the spill bandwidth the recorded spill pairs give when those are not counted (the
    # pairs fix the cost of 128-256 spills; the cold ones move it to the kernels with few).
    chosen = cta_model.COLD_SPILLED_REGISTERS
    cold_scores: list[tuple[dict[str, float], int]] = []
    for cold in COLD_GRID:
        cta_model.COLD_SPILLED_REGISTERS = cold
        pairs = derive.recorded_spill_pairs(derive.SPILLS[0], machine, cold)
        spill = spill_bandwidth(pairs, derive.sweep_clock_hz(derive.SPILLS[0]))
        ev_cold = Evaluator(with_spill_bandwidth(machine, spill), args.clock)
        s = score(train, [float(ev_cold.seconds(r)["total"]) for r in train])
        align = alignment_error(ev_cold)
        if align < 0.20:
            cold_scores.append((s, cold))
        print(f"  cold spilled registers {cold}, spill bandwidth {spill:.1f} B/cycle/SM: train log {s['log']:.4f}, "
              f"p90 {s['p90']:.1f}; alignment check {100 * align:.1f}%{'' if align < 0.20 else ' (breaks its guard)'}")  # fmt: skip
    cold = choose(cold_scores, chosen)
    cta_model.COLD_SPILLED_REGISTERS = cold
    spill = spill_bandwidth(derive.recorded_spill_pairs(derive.SPILLS[0], machine, cold),
                            derive.sweep_clock_hz(derive.SPILLS[0]))  # fmt: skip
    ev = Evaluator(with_spill_bandwidth(machine, spill), args.clock)
    print(f"best on train: {cold} cold spilled registers and {spill:.1f} B/cycle/SM (the model's "
          f"COLD_SPILLED_REGISTERS: {chosen}; the machine file's spill bandwidth: "
          f"{base.kernel_costs.spill_bandwidth.value if base.kernel_costs and base.kernel_costs.spill_bandwidth else None})")  # fmt: skip
    # Then the times an mma.sync kernel's spilled register is charged per iteration, in the form Nsight
    # Compute's counters give (cta_model.mma_sync_spill_reloads), on the training shapes.
    # Only forms the spill check's counters allow (the local bytes an mma.sync kernel moves per iteration):
    # the training times alone took 0.35 x log2(spilled / 32) with the memory norm (2026-11-26), which charges
    # the kernels with 34-58 spilled 0.03-0.3 reloads where the counters count 0.5-0.9.
    counters = spill_counters()
    reload_scores: list[tuple[dict[str, float], tuple[float, float, float]]] = []
    kept = (cta_model.SPILL_RELOAD_SLOPE, cta_model.SPILL_RELOAD_KNEE, cta_model.SPILL_RELOAD_CAP)
    for slope, knee, cap in itertools.product((0.15, 0.2, 0.25, 0.35, 0.5), (2, 4, 8, 16, 32), (1.5, 2.0)):
        cta_model.SPILL_RELOAD_SLOPE, cta_model.SPILL_RELOAD_KNEE, cta_model.SPILL_RELOAD_CAP = slope, knee, cap
        s = score(train, [float(ev.seconds(r)["total"]) for r in train])
        if not agrees_with_counters(counters):
            if args.verbose:
                print(f"  mma.sync spill reloads {slope} x log2(spilled / {knee}), at most {cap}: disagrees with "
                      "the spill check's counters")  # fmt: skip
            continue
        reload_scores.append((s, (slope, knee, cap)))
        if args.verbose:
            print(f"  mma.sync spill reloads {slope} x log2(spilled / {knee}), at most {cap}: train log {s['log']:.4f}")
    slope, knee, cap = choose(reload_scores, kept)
    cta_model.SPILL_RELOAD_SLOPE, cta_model.SPILL_RELOAD_KNEE, cta_model.SPILL_RELOAD_CAP = slope, knee, cap
    print(f"best on train: mma.sync spills charged {slope} x log2(spilled / {knee}) times, at most {cap} (the model's: "
          f"{kept[0]} x log2(spilled / {kept[1]}), at most {kept[2]})")  # fmt: skip
    # Last, at all of those, the overlap norm of the kernels whose MMA warps issue the stage copies too (mma.sync,
    # FMA: cta_model.ISSUED_OVERLAP_NORM), among those that keep the guards.
    issued_scores: list[tuple[dict[str, float], float]] = []
    for issued in ISSUED_NORM_GRID:
        cta_model.ISSUED_OVERLAP_NORM = issued
        s = score(train, [float(ev.seconds(r)["total"]) for r in train])
        ok = guard_machine is None or guards_hold(
            *guard_errors(scaled(guard_machine, factor, chase), guard_records, bf16_records)
        )
        if ok:
            issued_scores.append((s, issued))
        print(f"  issued overlap norm {issued}: train log {s['log']:.4f}, p90 {s['p90']:.1f}"
              f"{'' if ok else ' (breaks a guard)'}")  # fmt: skip
    issued = choose(issued_scores, kept_issued)
    cta_model.ISSUED_OVERLAP_NORM = issued
    print(f"best on train: issued overlap norm {issued} (the model's ISSUED_OVERLAP_NORM: {kept_issued})")
    for name, rows in (("train", train), ("holdout", holdout)):
        s = score(rows, [float(ev.seconds(r)["total"]) for r in rows])
        print(f"  {name}: " + ", ".join(f"{k} {v:.3f}" for k, v in s.items()))


if __name__ == "__main__":
    main()
