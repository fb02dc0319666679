"""The convert check's figures (docs/measurements/h200-2026-12-02/convert_check): fp8 Triton matmuls with mma.sync
forced (Triton on sm_90 converts each warp's fragments to fp16 before m16n8k16), both operands K-major, tiles 32x32,
32x64 and 64x64 on 2, 4 and 8 warps at BK 64, 128 and 256, on 11 x 12 x R tiles (R = 1 and 8 tiles an SM), timed in
two runs of two passes on an H200 (54 configurations at K = 512, 1024, 2048 and 4096: 216 kernels), against the
per-CTA model as compiled at 1980 MHz: the slope of each kernel's time
over the iterations between K = 1024 and 4096 (each timing the median of the four), model over measured.

How kernel_costs.convert_shared and convert_warp were derived (pre-registered in 0625f85): of the pairs of GRID_ELEMENT
x GRID_WARP, the one whose model slope has the least median |log(model / measured)| over the check's kernels of 8
tiles an SM, where the SM's pipes bind, the least mean among equals (convert_pair). The pairs lie on a ridge: (0.009,
20) ties on the median and all but ties on the mean, so the per-warp part is a fitted intercept (a part of the
iteration that does not grow with BK), not a measured cost of named instructions.

    python benchmarks/convert_check.py
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import MEASUREMENTS, print_table
from roofmodel.backends.broad import BroadRecord, Evaluator, read_broad_csv
from roofmodel.machine import Machine, load_machine

DATA = MEASUREMENTS / "h200-2026-12-02" / "convert_check"
SLOPE_K = (1024, 4096)
PIPE_BOUND_TILES = 8  # tiles an SM where the SM's pipes, not one CTA's chain, bind
GRID_ELEMENT = tuple(round(0.005 + 0.0005 * i, 4) for i in range(41))  # SM cycles per element: 0.0050-0.0250
GRID_WARP = tuple(range(0, 41, 2))  # SM cycles per warp an iteration: 0-40


def tiles_per_sm(rec: BroadRecord) -> int:
    """convert-32x32x64-w2-t8 -> 8."""
    return int(rec.shape.rsplit("-t", 1)[1])


def measured_pairs(per_sm: int | None = None) -> list[tuple[BroadRecord, BroadRecord, float]]:
    """Per kernel of the check (of ``per_sm`` tiles an SM, or every one): its records at the two SLOPE_K and the measured
    seconds an iteration between them (each K's time the median of both runs' two passes)."""
    first = read_broad_csv(DATA / "broad.csv")
    repeat = read_broad_csv(DATA / "repeat" / "broad.csv")
    if [(r.shape, r.k) for r in first] != [(r.shape, r.k) for r in repeat]:
        raise SystemExit("convert_check: the two runs' rows differ")
    timed: dict[str, dict[int, tuple[BroadRecord, float]]] = {}
    for a, b in zip(first, repeat, strict=True):
        if a.k in SLOPE_K and (per_sm is None or tiles_per_sm(a) == per_sm):
            seconds = statistics.median(float(t) for t in (a.time_ms, a.time_ms_2, b.time_ms, b.time_ms_2) if t) * 1e-3
            timed.setdefault(a.shape, {})[a.k] = (a, seconds)
    out = []
    for by_k in timed.values():
        (short, t_short), (long, t_long) = by_k[SLOPE_K[0]], by_k[SLOPE_K[1]]
        out.append((short, long, (t_long - t_short) / ((long.k - short.k) // long.block_k)))
    return out


def with_costs(machine: Machine, per_element: float, per_warp: float) -> Machine:
    """``machine`` with kernel_costs.convert_shared and convert_warp set to these SM cycles (convert's provenance)."""
    costs = machine.kernel_costs
    assert costs is not None and costs.convert is not None
    element = costs.convert.model_copy(update={"value": per_element})
    warp = costs.convert.model_copy(update={"value": per_warp})
    return machine.model_copy(update={"kernel_costs": costs.model_copy(update={"convert_shared": element,
                                                                                "convert_warp": warp})})  # fmt: skip


def model_ratios(machine: Machine, pairs: list[tuple[BroadRecord, BroadRecord, float]]) -> dict[str, float]:
    """Per kernel: the model's seconds an iteration between the two K (as compiled at 1980 MHz) over the measured."""
    ev = Evaluator(machine, 1980.0)
    out = {}
    for short, long, measured in pairs:
        model = float(ev.seconds(long)["total"]) - float(ev.seconds(short)["total"])
        out[short.shape] = model / ((long.k - short.k) // long.block_k) / measured
    return out


def spread(ratios: dict[str, float]) -> float:
    """The median |log(model / measured)|."""
    return statistics.median(abs(math.log(r)) for r in ratios.values())


def spread_and_mean(ratios: dict[str, float]) -> tuple[float, float]:
    """The median and the mean |log(model / measured)|: the derivation's key (the median of 27 kernels is one kernel's,
    so pairs tie on it; the mean breaks the tie)."""
    return spread(ratios), statistics.fmean(abs(math.log(r)) for r in ratios.values())


def convert_pair(machine: str = "h200") -> tuple[tuple[float, float], dict[tuple[float, float], tuple[float, float]]]:
    """The derivation: ((per element, per warp) of GRID_ELEMENT x GRID_WARP with the least median |log(model /
    measured)| over the kernels of PIPE_BOUND_TILES tiles an SM, the least mean among equals; (median, mean) of every
    pair)."""
    base, pairs = load_machine(machine), measured_pairs(PIPE_BOUND_TILES)
    keys = {
        (e, w): spread_and_mean(model_ratios(with_costs(base, e, w), pairs)) for e in GRID_ELEMENT for w in GRID_WARP
    }
    return min(keys, key=keys.__getitem__), keys


def without_shared(machine: Machine) -> Machine:
    """``machine`` with neither convert_shared nor convert_warp: the model before the rule (convert alone)."""
    costs = machine.kernel_costs
    assert costs is not None
    return machine.model_copy(
        update={"kernel_costs": costs.model_copy(update={"convert_shared": None, "convert_warp": None})}
    )


def main() -> None:
    machine = load_machine("h200")
    pairs = measured_pairs()
    before, after = model_ratios(without_shared(machine), pairs), model_ratios(machine, pairs)
    print_table(["kernel", "measured ns/iteration", "convert alone / measured", "with the rule / measured"],
                [[short.shape.removeprefix("convert-"), f"{measured * 1e9:.1f}", f"{before[short.shape]:.2f}",
                  f"{after[short.shape]:.2f}"] for short, _, measured in pairs])  # fmt: skip
    for per in (1, PIPE_BOUND_TILES):
        keys = [s.shape for s, _, _ in pairs if tiles_per_sm(s) == per]
        print(f"\n{per} tile(s) an SM: median |log(model / measured)| "
              f"{spread({k: before[k] for k in keys}):.3f} -> {spread({k: after[k] for k in keys}):.3f}")  # fmt: skip
    (element, warp), keys = convert_pair()
    median, mean = keys[element, warp]
    print(
        f"\nderived: convert_shared {element} cycles an element, convert_warp {warp} cycles a warp (median "
        f"|log(model / measured)| {median:.4f}, mean {mean:.5f}, over the {PIPE_BOUND_TILES}-tile kernels)"
    )
    print("the runners-up: " + ", ".join(f"{e} and {w}: {m:.4f}, {a:.5f}"
                                         for (e, w), (m, a) in sorted(keys.items(), key=lambda kv: kv[1])[1:4]))  # fmt: skip


if __name__ == "__main__":
    main()
