"""``analyze``: the bandwidth-amplification budget of a GEMM on a machine (seed 000), composed of
its stages, each a function of its own module:

1. the pipe's rate and operand demand (stages.pipe_rate);
2. each stage's required reuse, demand / bandwidth (stages.stage_needs);
3. the tiles that provide it and whether they fit (tile_choice.pick_tiles);
4. across SMs: occupancy, cluster multicast, rasterization, waves, latency hiding (cross_sm.cross_sm_traffic);
5. what each stage achieves against its need (stages.stage_results);
6. one roof per level and the bounds (roofline.level_roofs);
7. the verdict (verdict).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from roofmodel import defaults
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine, Source, as_machine
from roofmodel.machine.summary import MachineInfo, machine_info
from roofmodel.model import roofline
from roofmodel.model.cross_sm import CrossSm, cross_sm_traffic
from roofmodel.model.hierarchy import operand_path
from roofmodel.model.multicast import check_cluster, check_pair_cluster
from roofmodel.model.problem import Gemm, GemmInfo, Tile, gemm_info
from roofmodel.model.rasterization import parse_order
from roofmodel.model.roofline import LevelRoof, level_roofs
from roofmodel.model.stages import (
    PipeInfo,
    PipeRate,
    StageResult,
    pipe_rate,
    register_stage,
    stage_needs,
    stage_results,
)
from roofmodel.model.tile_choice import TileContext, TileInfo, pick_tiles, tile_info
from roofmodel.model.tiling import default_bk
from roofmodel.results import JSON_SCHEMA_VERSION, Result

# Registers every GEMM main loop holds besides its tiles: global and shared-memory addresses,
# strides, the k counter, predicates and (wgmma) two 64-bit descriptors. A named, overridable
# model parameter (``--reg-overhead``), shown in every report; ptxas reports for real GEMM
# kernels show at least this many.
DEFAULT_REGISTER_OVERHEAD = 16


@dataclass(frozen=True)
class Budget:
    """Stages 1-6 of an analysis as typed parts (what ``validate`` and the plots need without a report)."""

    machine: Machine
    gemm: Gemm
    rate: PipeRate
    path: tuple[str, ...]
    tiles: TileInfo
    cross_sm: CrossSm
    stages: list[StageResult]
    roofs: list[LevelRoof]
    notes: list[str]

    @property
    def hierarchical_bound_flops(self) -> float:
        """min over levels of min(intensity x bandwidth, peak), FLOP/s."""
        return roofline.hierarchical_attainable(
            self.rate.peak_flops, [(r.intensity_flop_per_byte, r.bandwidth_gb_per_s * 1e9) for r in self.roofs]
        )

    @property
    def amplification_bound_flops(self) -> float:
        """peak x min over stages of min(1, achieved / required reuse), FLOP/s."""
        return self.rate.peak_flops * min(min(1.0, s.achieved_reuse / s.required_reuse) for s in self.stages)

    @property
    def classic_bound_flops(self) -> float:
        """Seed 003's roofline: min(FLOP / compulsory bytes x DRAM bandwidth, peak), FLOP/s."""
        intensity = self.gemm.flops / self.gemm.compulsory_bytes
        return roofline.attainable(intensity, self.stages[0].bandwidth_gb_per_s * 1e9, self.rate.peak_flops)


def budget(
    machine: Machine | str,
    gemm: Gemm,
    *,
    tile: Tile | None = None,
    register_tile: tuple[int, int] | None = None,
    levels: list[str] | None = None,
    instruction: str | None = None,
    bandwidth: Source = defaults.BANDWIDTH,  # type: ignore[assignment]
    compute: Source = defaults.COMPUTE,  # type: ignore[assignment]
    clock: str | float | None = defaults.CLOCK,
    clock_mhz: float | None = None,
    stages: int = defaults.STAGES,
    reg_overhead: int = DEFAULT_REGISTER_OVERHEAD,
    cluster: tuple[int, int] = defaults.CLUSTER,
    raster: str = defaults.RASTER,
    warps: int | None = None,
    regs: int | None = None,
    kernel_threads: int | None = None,
) -> Budget:
    """The amplification budget's parts (stages 1-6 of the module docstring); the arguments are
    ``analyze``'s."""
    machine = as_machine(machine)
    _check_options(machine, stages, warps, regs, reg_overhead)
    check_cluster(machine, *cluster)
    order = parse_order(raster)
    rate = pipe_rate(machine, gemm, instruction, compute, clock_mhz if clock_mhz is not None else clock)
    check_pair_cluster(rate.instruction.family, *cluster)
    path = operand_path(rate.instruction, levels, machine)
    needs, stage_notes = stage_needs(machine, path, rate.demand, bandwidth, rate.clock_hz)
    bk = (tile.bk if tile and tile.bk else None) or default_bk(gemm.input_bytes)
    ctx = TileContext(machine, gemm, rate.instruction, bk, stages, path, reg_overhead, warps)
    reg_stage = register_stage(needs)
    tiles = pick_tiles(
        ctx,
        [s.required for s in needs if s.feeds_cta_tile],
        reg_stage.required if reg_stage else 1.0,
        tile,
        register_tile,
    )
    info = tile_info(ctx, tiles)
    regs_thread = regs if regs is not None else _allocated_registers(machine, info.registers_per_thread)
    x = cross_sm_traffic(
        machine, gemm, tiles.cta, bk, stages, path, kernel_threads or tiles.threads, regs_thread,
        info.smem_bytes, cluster, order, rate.demand, rate.clock_hz,
        ctx.tmem_columns(*tiles.cta) if ctx.tmem_columns_limit is not None else 0,
    )  # fmt: skip
    stage_out = stage_results(ctx, needs, tiles, rate.demand, rate.clock_hz, x.in_sm_reuse, x.fill_reuse())
    roofs = level_roofs(
        machine, gemm, needs, tiles, ctx.granularity, x.traffic, order.label, cluster, bandwidth,
        rate.peak_flops, rate.clock_hz, x.dram_traffic,
    )  # fmt: skip
    return Budget(machine, gemm, rate, path, info, x.cross_sm, stage_out, roofs, [*rate.notes, *stage_notes])


def analyze(
    machine: Machine | str,
    gemm: Gemm,
    *,
    bandwidth: Source = defaults.BANDWIDTH,  # type: ignore[assignment]
    compute: Source = defaults.COMPUTE,  # type: ignore[assignment]
    **options: Any,
) -> AnalysisResult:
    """The amplification budget, tiles, rooflines and verdict for ``gemm`` on ``machine`` (a
    ``Machine``, a built-in name or a file path).

    Options (all keyword): ``tile``, ``register_tile``, ``levels``, ``instruction``; ``bandwidth``/
    ``compute`` pick measured or datasheet figures where a file has both; ``clock`` is
    ``sustained``, ``rated``, ``boost`` or MHz (default: sustained where the file measured it, else
    the pipe's rated clock, else boost; ``clock_mhz`` is the older spelling of a number);
    ``stages``; ``reg_overhead``; ``cluster`` (CTAs along M, along N) and ``raster`` (see
    rasterization.ORDER_HELP) set how SMs share operands; ``warps`` fixes the CTA's warp count;
    ``regs`` the compiled registers per thread used for occupancy (default: the model's estimate);
    ``kernel_threads`` a compiled kernel's own thread count. Defaults: roofmodel.defaults.
    """
    from roofmodel import __version__

    b = budget(machine, gemm, bandwidth=bandwidth, compute=compute, **options)
    verdict, limiting = _verdict(b.stages, b.roofs, gemm.dtype)
    notes = list(b.notes)
    if "l2" not in b.path and b.cross_sm.cluster == (1, 1):
        notes.append("no L2 level: DRAM->smem reuse comes from the CTA tile alone (and cluster multicast)")
    lat = b.cross_sm.latency
    if lat.stages_needed > lat.stages_given:
        notes.append(
            f"latency: {lat.stages_given} stages hold {lat.stages_given - 1} tile loads in flight; covering "
            f"{lat.bytes_in_flight_per_sm:,.0f} B per SM at {lat.mean_latency_cycles:.0f} cycles "
            f"needs {lat.stages_needed} (Little's law, seed 001)"
        )
    return AnalysisResult(
        roofmodel_version=__version__,
        machine=machine_info(b.machine),
        gemm=gemm_info(gemm),
        levels=list(b.path),
        bandwidth_preference=bandwidth,
        compute_preference=compute,
        pipe=b.rate.info,
        tiles=b.tiles,
        stages=b.stages,
        cross_sm=b.cross_sm,
        roofs=b.roofs,
        peak_tflops=b.rate.peak_flops / 1e12,
        classic_bound_tflops=b.classic_bound_flops / 1e12,
        hierarchical_bound_tflops=b.hierarchical_bound_flops / 1e12,
        limiting=limiting,
        verdict=verdict,
        amplification_bound_tflops=b.amplification_bound_flops / 1e12,
        notes=notes,
    )


def _check_options(machine: Machine, stages: int, warps: int | None, regs: int | None, reg_overhead: int) -> None:
    """The options no later stage checks (the clock is model.clock.resolve_clock's to check)."""
    if stages < 1:
        raise ProblemError(f"--stages: must be >= 1 (got {stages})")
    if warps is not None and warps < 1:
        raise ProblemError(f"--warps: must be >= 1 (got {warps})")
    if regs is not None and not 1 <= regs <= machine.limits.max_registers_per_thread.n:
        raise ProblemError(f"--regs: must be 1..{machine.limits.max_registers_per_thread.n} (got {regs})")
    if reg_overhead < 0:
        raise ProblemError(f"--reg-overhead: must be >= 0 (got {reg_overhead})")


def _allocated_registers(machine: Machine, needed: float) -> int:
    """Registers per thread as allocated: the need rounded up to 8, capped at the per-thread limit."""
    return min(machine.limits.max_registers_per_thread.n, math.ceil(needed / 8) * 8)


def _verdict(stages: list[StageResult], roofs: list[LevelRoof], dtype: str) -> tuple[str, str]:
    short = [s for s in stages if s.missing_amplification > 1.0 + 1e-9]
    if not short:
        return (
            f"compute-bound: every stage keeps up with the {dtype} pipe with in-SM reuse alone",
            "compute",
        )
    worst = max(short, key=lambda s: s.missing_amplification)
    parts = [f"{s.name} x{s.missing_amplification:.3g} ({s.remedy.split(':')[0]})" for s in short]
    in_sm_only = [s for s in short if s.remedy.startswith("none")]
    kind = "memory-bound" if in_sm_only else "compute-bound only with cross-SM reuse"
    return f"{kind}: missing amplification {'; '.join(parts)}", worst.name


class AnalysisResult(Result):
    """Everything ``roofmodel analyze`` reports, as data."""

    schema_version: int = JSON_SCHEMA_VERSION
    roofmodel_version: str
    machine: MachineInfo
    gemm: GemmInfo
    levels: list[str]
    bandwidth_preference: Literal["spec", "measured"]
    compute_preference: Literal["spec", "measured"]
    pipe: PipeInfo
    tiles: TileInfo
    stages: list[StageResult]
    cross_sm: CrossSm
    roofs: list[LevelRoof]
    peak_tflops: float
    classic_bound_tflops: float
    hierarchical_bound_tflops: float
    limiting: str
    verdict: str
    amplification_bound_tflops: float = Field(description="peak x min over stages of min(1, achieved / required reuse)")
    notes: list[str]

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2, sort_keys=False) + "\n"
