"""Derive the per-iteration kernel costs from the K-sweep microbenchmark of the broad sweep
(docs/measurements/h100-2026-11-23/broad.csv, set ``ksweep``; the ``micro`` split, neither training nor
held-out) with roofmodel.model.kernel_costs, the derivation `roofmodel calibrate` runs on its own K sweep,
the cost of transposing an MN-major tf32 operand from the layout check (layout_check.json of the same
folder, benchmarks/gpu_layout_check.py), the spill bandwidth from the spill pairs, and the cost of
converting fp8 for mma.sync from the issue check (gpu_broad_sweep.py --mma-issue, CONVERT_TILES). Prints every kernel and the figures machines/h100.yaml records.

    python benchmarks/derive_kernel_costs.py [--machine h200 --data docs/measurements/h200-2026-11-23]
"""

from __future__ import annotations

import csv
import json
import statistics
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roofmodel.backends.broad import read_broad_csv
from roofmodel.machine import load_machine
from roofmodel.model.kernel_costs import (
    CONVERT_TILES,
    CONVERT_TILES_PER_SM,
    KSweepKernel,
    convert_cycles_per_element,
    convert_rates,
    derive_kernel_costs,
    gather_cycles_per_element,
    gather_rates,
    layout_pairs,
    spill_bandwidth,
    spill_pairs,
    transpose_cost,
)
from roofmodel.model.problem import INPUT_BYTES

REPO = Path(__file__).resolve().parents[1]
BROAD = REPO / "docs" / "measurements" / "h100-2026-11-23" / "broad.csv"
ISSUE = REPO / "docs" / "measurements" / "h100-2026-11-25" / "mma_issue" / "broad.csv"
GATHER = REPO / "docs" / "measurements" / "h100-2026-11-26" / "gather" / "broad.csv"
SPILLS = [REPO / "docs" / "measurements" / "h100-2026-11-25" / "broad.csv",
          REPO / "docs" / "measurements" / "h100-2026-11-25" / "repeat" / "broad.csv"]  # fmt: skip


def recorded_kernels(path: Path = BROAD, kind: str = "ksweep", grid_tiles: int | None = None,
                     time_column: str = "time_ms") -> list[KSweepKernel]:  # fmt: skip
    """The recorded K-sweep kernels of one set (``ksweep``; ``spill_ksweep``: the spill pairs;
    ``mma_issue``: the issue check, with ``grid_tiles`` picking one grid size), one per (dtype,
    family, tile, warps), timed by the first pass (``time_ms``) or the second (``time_ms_2``)."""
    groups, spilled = defaultdict(list), {}
    for r in read_broad_csv(path):
        grid = (r.m // r.block_m) * (r.n // r.block_n)
        if r.set == kind and (grid_tiles is None or grid == grid_tiles) and (kind != "mma_issue" or r.b_major == "k"):
            key = (r.dtype, r.instruction, r.block_m, r.block_n, r.block_k, r.num_warps, r.a_major, r.b_major)
            groups[key].append((r.k, getattr(r, time_column) * 1e-3))
            spilled[key] = r.spilled_registers
    return [
        KSweepKernel(dtype=d, family=f, bm=bm, bn=bn, bk=bk, warps=w, element_bytes=INPUT_BYTES[d], points=tuple(pts),
                     spilled=spilled[(d, f, bm, bn, bk, w, am, bmaj)], a_major=am, b_major=bmaj)
        for (d, f, bm, bn, bk, w, am, bmaj), pts in sorted(groups.items())
    ]  # fmt: skip


def convert_tile_kernels(path: Path, kind: str, sms: int, time_column: str = "time_ms") -> list[KSweepKernel]:
    """The recorded kernels of the conversion-heavy tiles (CONVERT_TILES) on CONVERT_TILES_PER_SM tiles per SM,
    every layout the run timed: the issue check's (``mma_issue``) and the gather check's (``mma_gather``)."""
    picked = {(d, bm, bn, bk, w) for d, bm, bn, bk, w, _ in CONVERT_TILES}
    return [k for k in recorded_kernels(path, kind, sms * CONVERT_TILES_PER_SM, time_column)
            if (k.dtype, k.bm, k.bn, k.bk, k.warps) in picked]  # fmt: skip


def measured_rate(machine: Any) -> Callable[[str, str], float]:
    """rate_tflops(dtype, family): the machine file's measured rate of the family's instruction (TFLOPS)."""

    def rate(dtype: str, family: str) -> float:
        pipe = machine.pipe(dtype)
        return pipe.rate_of(pipe.instruction(family))[0].pick("measured").value

    return rate


def recorded_spill_pairs(path: Path, machine: Any, cold: int | None = None) -> list[Any]:
    """The spill pairs of a --spills run, with the model's gap between one warpgroup and two taken
    out (the machine's measured wgmma rates and kernel_costs.wait) and ``cold`` spilled registers
    (the model's COLD_SPILLED_REGISTERS by default) not counted."""
    from roofmodel.model.cta_model import COLD_SPILLED_REGISTERS

    cold = COLD_SPILLED_REGISTERS if cold is None else cold
    wait = machine.kernel_costs.wait.value * 1e-9
    return spill_pairs(recorded_kernels(path, "spill_ksweep"), measured_rate(machine), machine.sm_count.n, wait, cold)


def sweep_clock_hz(path: Path) -> float:
    """The median SM clock sampled while a sweep's kernels ran (Hz)."""
    with path.open() as f:
        return statistics.median(float(r["sm_clock_mhz"]) for r in csv.DictReader(f) if r["sm_clock_mhz"]) * 1e6


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", default="h100")
    ap.add_argument("--data", default=str(BROAD.parent))
    ap.add_argument("--spills", nargs="*", default=[str(p.parent) for p in SPILLS],
                    help="folders of gpu_broad_sweep.py --spills runs")  # fmt: skip
    ap.add_argument("--issue", default=str(ISSUE), help="broad.csv of a gpu_broad_sweep.py --mma-issue run")
    ap.add_argument("--gather", default=str(GATHER), help="broad.csv of a gpu_broad_sweep.py --mma-gather run")
    args = ap.parse_args()
    machine = load_machine(args.machine)
    fit = derive_kernel_costs(recorded_kernels(Path(args.data) / "broad.csv"), measured_rate(machine),
                              machine.sm_count.n)  # fmt: skip
    for label, per_iteration, mma, copies in fit.kernels:
        print(f"{label:<32} {per_iteration * 1e9:6.0f} ns per iteration, MMA {mma * 1e9:5.0f} ns, "
              f"extra {(per_iteration - mma) * 1e9:+5.0f} ns, {copies:.0f} copies/thread")  # fmt: skip
    assert fit.wait_s is not None and fit.iteration_s is not None and fit.copy_issue_s is not None
    print(f"wait (wgmma, one warpgroup, median): {fit.wait_s * 1e9:.0f} ns")
    print(f"mma.sync, four warps: iteration {fit.iteration_s * 1e9:.0f} ns, copy issue {fit.copy_issue_s * 1e9:.1f} ns")
    layout = Path(args.data) / "layout_check.json"
    if layout.exists():
        pairs = layout_pairs(json.loads(layout.read_text()), "tf32", machine.sm_count.n)
        for p in pairs:
            print(f"{p.label:<32} {p.k_major_s * 1e3:.3f} -> {p.mn_major_s * 1e3:.3f} ms, "
                  f"{p.seconds_per_element * 1e9:.4f} ns per MN-major element per SM")  # fmt: skip
        print(f"transpose (tf32 under wgmma, median): {transpose_cost(pairs) * 1e9:.3f} ns per element per SM")
    if Path(args.issue).exists():
        clock = sweep_clock_hz(Path(args.issue))
        for column in ("time_ms", "time_ms_2"):
            kernels = convert_tile_kernels(Path(args.issue), "mma_issue", machine.sm_count.n, column)
            rates = convert_rates(kernels, CONVERT_TILES_PER_SM, clock)
            print(
                f"fp8 conversions ({column}): " + ", ".join(f"{lab} {r:.1f}" for lab, r in rates) + " elements/cycle/SM"
            )
            per = convert_cycles_per_element(kernels, CONVERT_TILES_PER_SM, clock)
            print(f"convert ({args.issue}, {clock / 1e6:.0f} MHz, median of {len(rates)}): "
                  f"{1 / per:.1f} elements/cycle/SM = {per:.5f} cycles per element per SM")  # fmt: skip
    if Path(args.gather).exists():
        clock = sweep_clock_hz(Path(args.gather))
        for column in ("time_ms", "time_ms_2"):
            kernels = convert_tile_kernels(Path(args.gather), "mma_gather", machine.sm_count.n, column)
            rates = gather_rates(kernels, CONVERT_TILES_PER_SM, clock)
            print(
                f"8-bit gathers ({column}): " + ", ".join(f"{lab} {r:.4f}" for lab, r in rates) + " cycles/element/SM"
            )
            per = gather_cycles_per_element(kernels, CONVERT_TILES_PER_SM, clock)
            print(f"gather ({args.gather}, {clock / 1e6:.0f} MHz, median of {len(rates)}): {per:.5f} cycles per "
                  f"element per SM = {1 / per:.1f} elements/cycle/SM")  # fmt: skip
    for folder in args.spills:
        csv_path = Path(folder) / "broad.csv"
        clock = sweep_clock_hz(csv_path)
        spills = recorded_spill_pairs(csv_path, machine)
        for sp in spills:
            print(f"{sp.label:<32} {sp.spilling_s * 1e9:6.0f} ns per iteration against {sp.twin_s * 1e9:5.0f} on twice "
                  f"the warps, {sp.model_gap_s * 1e9:3.0f} of which the model gives the second warpgroup: "
                  f"{sp.bytes_per_cycle(clock):.1f} B/cycle/SM")  # fmt: skip
        rate = spill_bandwidth(spills, clock)
        print(f"spill bandwidth ({folder}, {clock / 1e6:.0f} MHz, median of {len(spills)} wgmma pairs): "
              f"{rate if rate is None else f'{rate:.1f}'} B/cycle/SM")  # fmt: skip


if __name__ == "__main__":
    main()
