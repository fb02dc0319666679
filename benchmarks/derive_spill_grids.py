"""The spill rates of a --spill-grids run (benchmarks/gpu_broad_sweep.py): each spill pair's rate on each grid, as
kernel_costs.spill_bandwidth derives it (2 x spilled registers x 4 B x threads over the difference of the two kernels'
times per iteration, less the per-CTA model's gap between one warpgroup and two), and the two figures the machine file
takes from them (prediction.grid_bound_spills, cta_model.grid_spill_rate):

- kernel_costs.spill_bandwidth: the median over the wgmma pairs on the grid of one tile on every SM;
- kernel_costs.spill_bandwidth_alone: the median over the wgmma pairs on every grid of half the SMs or fewer.

The mma.sync and FMA pairs (not wgmma: no warpgroup gap taken out) are printed beside them, raw, to show whether their
rates move with the grid.

    python benchmarks/derive_spill_grids.py [--machine h200] [--data docs/measurements/h200-2026-11-29/spill_grids]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.derive_kernel_costs import measured_rate, recorded_kernels, sweep_clock_hz
from roofmodel.machine import load_machine
from roofmodel.model.kernel_costs import per_iteration_seconds, spill_pairs

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "docs" / "measurements" / "h200-2026-11-29" / "spill_grids"


def grid_rates(path: Path, machine: object, grid: int, clock_hz: float) -> tuple[dict[str, float], dict[str, float]]:
    """(wgmma pairs' rates as spill_pairs derives them, other families' raw rates), B/cycle/SM, by label, on the
    grid of ``grid`` tiles."""
    kernels = recorded_kernels(path, "spill_grid", grid_tiles=grid)
    wait = machine.kernel_costs.wait.value * 1e-9
    wgmma = {p.label: p.bytes_per_cycle(clock_hz)
             for p in spill_pairs(kernels, measured_rate(machine), machine.sm_count.n, wait, 0)}  # fmt: skip
    by_key = {(k.dtype, k.family, k.bm, k.bn, k.bk, k.warps): k for k in kernels}
    raw = {}
    for k in kernels:
        twin = by_key.get((k.dtype, k.family, k.bm, k.bn, k.bk, 2 * k.warps))
        if k.family == "wgmma" or not k.spilled or twin is None or twin.spilled:
            continue
        gap = per_iteration_seconds(k.points, k.bk) - per_iteration_seconds(twin.points, twin.bk)
        raw[k.label()] = 2.0 * k.spilled * 4 * 32 * k.warps / (gap * clock_hz)
    return wgmma, raw


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", default="h200")
    ap.add_argument("--data", default=str(DATA))
    args = ap.parse_args()
    machine = load_machine(args.machine)
    path = Path(args.data) / "broad.csv"
    clock = sweep_clock_hz(path)
    sms = machine.sm_count.n
    grids = sorted({(r.m // r.block_m) * (r.n // r.block_n) for r in _rows(path)}, reverse=True)
    print(f"{path}: SM clock {clock / 1e6:.0f} MHz, {sms} SMs, grids {grids}")
    alone: list[float] = []
    full: list[float] = []
    for grid in grids:
        wgmma, raw = grid_rates(path, machine, grid, clock)
        cells = ", ".join(f"{k} {v:.1f}" for k, v in wgmma.items())
        print(f"{grid:4d} tiles: wgmma {cells} (median {statistics.median(wgmma.values()):.1f})")
        print("            raw " + ", ".join(f"{k} {v:.1f}" for k, v in raw.items()))
        if grid == sms:
            full += wgmma.values()
        elif 2 * grid <= sms:
            alone += wgmma.values()
    if full:
        print(f"kernel_costs.spill_bandwidth: {statistics.median(full):.1f} B/cycle/SM (median of {len(full)})")
    if alone:
        print(f"kernel_costs.spill_bandwidth_alone: {statistics.median(alone):.1f} B/cycle/SM (median of {len(alone)})")


def _rows(path: Path) -> list:
    from roofmodel.backends.broad import read_broad_csv

    return [r for r in read_broad_csv(path) if r.set == "spill_grid"]


if __name__ == "__main__":
    main()
