"""The stages operands flow through, outermost first (DRAM->L2 ... ->core), and what each must
amplify: required reuse = the pipe's demand / the level's bandwidth, both in bytes/cycle/SM (seed 000).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from roofmodel import units
from roofmodel.machine import Instruction, Machine, Source
from roofmodel.machine.schema import ComputePipe
from roofmodel.model.clock import check_accumulator, fma_per_cycle_per_sm, resolve_clock
from roofmodel.model.hierarchy import (
    LEVEL_LABELS,
    LevelBandwidth,
    level_bandwidth,
    operand_demand_bytes_per_cycle_per_sm,
    required_reuse,
    stage_bandwidth,
)
from roofmodel.model.problem import Gemm
from roofmodel.model.tile_choice import (
    CapacityCheck,
    TileChoice,
    TileContext,
    cta_checks,
    register_tile_checks,
    warpgroup_n_for,
)
from roofmodel.model.tiling import (
    ROWS_PER_B_READ,
    balanced_pow2_rectangles,
    register_tile_reuse,
    smallest_pow2_square,
)
from roofmodel.results import Input, Result


class PipeInfo(Result):
    dtype: str
    engine: str
    instruction: str
    instruction_shape: str | None
    operands_from: str
    fma_per_cycle_per_sm: float
    peak_tflops: float
    clock_mhz: float
    clock_origin: str
    rate_input: Input


class MinimumTile(Result):
    """The tile a stage needs: real square edge, smallest power-of-two square, and rectangles."""

    real_edge: float
    pow2_square: int
    pow2_rectangles: list[tuple[int, int]]


class StageResult(Result):
    name: str = Field(description="e.g. 'DRAM->L2'")
    source_level: str
    destination_level: str
    bandwidth_bytes_per_cycle_per_sm: float
    bandwidth_gb_per_s: float
    bandwidth_input: Input | None = Field(description="None where the machine file has no figure")
    bandwidth_assumed: bool
    demand_bytes_per_cycle_per_sm: float
    required_reuse: float = Field(description="global reuse factor: demand / bandwidth")
    local_required_reuse: float = Field(description="required reuse / required reuse of the next stage")
    minimum_tile: MinimumTile
    minimum_tile_edge: int = Field(description="smallest power-of-two square edge reaching the reuse")
    holder: str = Field(description="the tile that provides this stage's reuse")
    tile: tuple[int, int]
    achieved_reuse: float = Field(description="global reuse achieved: in-SM reuse x cross-SM factor")
    in_sm_reuse: float = Field(description="reuse from the tile held inside one SM")
    cross_sm_factor: float = Field(description="cluster multicast (into smem) or that x L2 sharing (into L2)")
    local_achieved_reuse: float
    slack: float = Field(description="achieved / required reuse (>= 1: the stage keeps up)")
    max_feasible_reuse: float
    capacity_checks: list[CapacityCheck]
    fits: bool
    missing_amplification: float = Field(description="required / achieved reuse, at least 1")
    remedy: str


# ---------------------------------------------------------------------------------------------
# The pipe: its rate and the operand bytes it consumes


@dataclass(frozen=True)
class PipeRate:
    """The pipe a GEMM runs on, at the clock chosen: ``info`` as reported, ``demand`` the operand
    bytes/cycle/SM it consumes (2 operands x element bytes x FMA/cycle/SM, seed 000 §3)."""

    pipe: ComputePipe
    instruction: Instruction
    info: PipeInfo
    clock_hz: float
    fma_per_cycle_per_sm: float
    peak_flops: float
    demand: float
    notes: tuple[str, ...]


def pipe_rate(
    machine: Machine, gemm: Gemm, instruction: str | None, compute: Source, clock: str | float | None
) -> PipeRate:
    """FMA/cycle/SM of the GEMM's pipe (its instruction's own rate where the file gives one), the
    peak = FMA/cycle/SM x 2 FLOP x SMs x clock, and the operand demand in bytes/cycle/SM."""
    pipe = machine.pipe(gemm.dtype)
    ins = pipe.instruction(instruction)
    check_accumulator(machine, gemm.dtype, gemm.accumulator)
    rated, _, rate_field = pipe.rate_of(ins, gemm.accumulator)
    mhz, clock_origin, _ = resolve_clock(machine, gemm.dtype, clock, instruction)
    clock_hz = mhz * 1e6
    rate_q = rated.pick(compute)
    notes = []
    if rate_q.kind != compute:
        notes.append(f"{gemm.dtype} rate: no {compute} figure in the machine file; {rate_q.kind} used")
    sms = machine.sm_count.n
    fma = fma_per_cycle_per_sm(machine, gemm.dtype, ins, rate_q, clock_hz)
    peak = fma * units.FLOP_PER_FMA * sms * clock_hz
    info = PipeInfo(
        dtype=gemm.dtype,
        engine=pipe.engine_of(ins),
        instruction=ins.family,
        instruction_shape=ins.shape,
        operands_from=ins.operands_from,
        fma_per_cycle_per_sm=fma,
        peak_tflops=peak / 1e12,
        clock_mhz=mhz,
        clock_origin=clock_origin,
        rate_input=machine.input_of(f"compute.{gemm.dtype}.{rate_field}.{rate_q.kind}", rate_q),
    )
    demand = operand_demand_bytes_per_cycle_per_sm(fma, gemm.input_bytes)
    return PipeRate(pipe, ins, info, clock_hz, fma, peak, demand, tuple(notes))


# ---------------------------------------------------------------------------------------------
# The stages and the reuse each needs


@dataclass(frozen=True)
class StageNeed:
    """One stage of the operand path: its bandwidth (bytes/cycle/SM; None where the file has none)
    and the reuse it needs, demand / bandwidth."""

    src: str
    dst: str
    bandwidth: LevelBandwidth | None
    bytes_per_cycle_per_sm: float
    required: float

    @property
    def name(self) -> str:
        return f"{LEVEL_LABELS[self.src]}->{LEVEL_LABELS[self.dst]}"

    @property
    def feeds_cta_tile(self) -> bool:
        """Into shared memory, L2 or a last-level cache: the CTA tile (and cross-SM sharing) provides
        its reuse."""
        return self.dst in ("smem", "l2", "llc")

    @property
    def feeds_register_tile(self) -> bool:
        """Into registers (FFMA, mma.sync) or from shared memory to the core (wgmma)."""
        return self.dst == "rf" or (self.dst == "core" and self.src == "smem")


def stage_needs(
    machine: Machine, path: tuple[str, ...], demand: float, bandwidth: Source, clock_hz: float
) -> tuple[list[StageNeed], list[str]]:
    """Each stage's required reuse = demand / bandwidth (bytes/cycle/SM), outermost first, and notes
    where a figure is missing (then the stage is assumed to match the demand, seed 000 §3)."""
    needs, notes = [], []
    for i, src in enumerate(path):
        dst = path[i + 1] if i + 1 < len(path) else "core"
        bw = stage_bandwidth(machine, src, bandwidth, clock_hz)
        if bw is None:
            per_sm = demand
            notes.append(
                f"{LEVEL_LABELS[src]}->{LEVEL_LABELS[dst]}: no bandwidth in the machine file; assumed to match the pipe's "
                f"demand (seed 000 §3: 'we don't need more than' the demand)"
            )
        else:
            per_sm = bw.bytes_per_cycle_per_sm
            if bw.quantity is not None and bw.quantity.kind != bandwidth:
                notes.append(f"{LEVEL_LABELS[src]} bandwidth: no {bandwidth} figure; {bw.quantity.kind} used")
            if bw.field and ".gemm_bandwidth." in bw.field and bw.quantity is not None:
                # Name the file: an overlay that changes memory.l2.bandwidth inherits its base's GEMM rate.
                where = machine.input_of(bw.field, bw.quantity).file
                probe = level_bandwidth(machine, src, bandwidth, clock_hz)
                notes.append(
                    f"{LEVEL_LABELS[src]}->{LEVEL_LABELS[dst]} at {bw.gb_per_s:,.0f} GB/s, the rate GEMMs reach "
                    f"({bw.field.rsplit('.', 1)[0]}{f' of {Path(where).name}' if where else ''}"
                    + (f"; memory.{src}.bandwidth {probe.gb_per_s:,.0f}" if probe else "")
                    + ")"
                )
        needs.append(StageNeed(src, dst, bw, per_sm, required_reuse(demand, per_sm)))
    return needs, notes


def register_stage(needs: list[StageNeed]) -> StageNeed | None:
    """The stage the register-level tile feeds (None on a path without one)."""
    return next((s for s in needs if s.feeds_register_tile), None)


# ---------------------------------------------------------------------------------------------
# What each stage achieves


def stage_results(
    ctx: TileContext,
    needs: list[StageNeed],
    tiles: TileChoice,
    demand: float,
    clock_hz: float,
    in_sm_reuse: float,
    fill_reuse: dict[str, float],
) -> list[StageResult]:
    """Each stage's achieved reuse against its need: the CTA tile's in-SM reuse times the cross-SM
    factor (multicast into smem; that x L2 sharing into L2), the register tile's reuse, or 1 (RF->core);
    the minimum tile that reaches the need and whether it fits; the local reuse between adjacent
    stages (seed 000 §5.1.4: this stage's over the next one's)."""
    machine, sms = ctx.machine, ctx.machine.sm_count.n
    reg_stage = register_stage(needs)
    out: list[StageResult] = []
    for s in needs:
        t = smallest_pow2_square(s.required)
        if s.feeds_cta_tile:
            achieved = fill_reuse[s.dst]
            max_feasible = tiles.max_cta_reuse
            reg = tiles.register_tile
            checks = cta_checks(ctx, max(t, reg[0]), max(t, reg[1]), reg)
            tile = tiles.cta
        elif s is reg_stage:
            achieved = register_tile_reuse(ctx.granularity, *tiles.register_tile)
            max_feasible = tiles.max_register_reuse
            rows = ROWS_PER_B_READ.get(ctx.granularity)  # instructions that read from shared memory
            checks = register_tile_checks(ctx, *((rows, warpgroup_n_for(s.required, rows)) if rows else (t, t)))
            tile = tiles.register_tile
        else:  # RF -> core: operands are read from registers once per FMA
            achieved, max_feasible, checks, tile = 1.0, 1.0, [], (1, 1)
        out.append(
            StageResult(
                name=s.name,
                source_level=s.src,
                destination_level=s.dst,
                bandwidth_bytes_per_cycle_per_sm=s.bytes_per_cycle_per_sm,
                bandwidth_gb_per_s=units.bytes_per_cycle_per_sm_to_gb_per_s(s.bytes_per_cycle_per_sm, sms, clock_hz),
                bandwidth_input=machine.input_of(s.bandwidth.field, s.bandwidth.quantity)
                if s.bandwidth and s.bandwidth.quantity and s.bandwidth.field
                else None,
                bandwidth_assumed=s.bandwidth is None,
                demand_bytes_per_cycle_per_sm=demand,
                required_reuse=s.required,
                local_required_reuse=0.0,  # filled below
                minimum_tile=MinimumTile(
                    real_edge=max(s.required, 1.0),
                    pow2_square=t,
                    pow2_rectangles=balanced_pow2_rectangles(s.required),
                ),
                minimum_tile_edge=t,
                holder=holder(s, ctx.granularity),
                tile=tile,
                achieved_reuse=achieved,
                in_sm_reuse=in_sm_reuse if s.feeds_cta_tile else achieved,
                cross_sm_factor=achieved / in_sm_reuse if s.feeds_cta_tile else 1.0,
                local_achieved_reuse=0.0,
                slack=achieved / s.required,
                max_feasible_reuse=max_feasible,
                capacity_checks=checks,
                fits=all(c.fits for c in checks),
                missing_amplification=max(1.0, s.required / achieved),
                remedy=remedy(s, machine),
            )
        )
    return [
        st.model_copy(
            update={
                "local_required_reuse": st.required_reuse / (out[i + 1].required_reuse if i + 1 < len(out) else 1.0),
                "local_achieved_reuse": st.achieved_reuse / (out[i + 1].achieved_reuse if i + 1 < len(out) else 1.0),
            }
        )
        for i, st in enumerate(out)
    ]


def holder(stage: StageNeed, granularity: str) -> str:
    """The tile that provides a stage's reuse."""
    if stage.dst in ("l2", "llc"):
        return "CTA tile + cross-SM"
    if stage.dst == "smem":
        return "CTA tile"
    if stage.dst == "rf":
        return f"{granularity} tile"
    return f"{granularity} tile" if stage.src == "smem" else "registers"


def remedy(stage: StageNeed, machine: Machine) -> str:
    """What can make up a stage's missing reuse beyond the tile held in one SM."""
    multicast = machine.cluster is not None and machine.cluster.tma_multicast
    if stage.dst in ("l2", "llc") or (stage.dst == "smem" and stage.src == "dram"):
        ways = ["L2 sharing between concurrent CTAs (rasterization)"]
        if machine.l2_partitions > 1:
            ways.append("an order renumbered for the private L2 slices (--raster ORDER+remap)")
        if multicast:
            ways.append("cluster multicast")
        return "cross-SM reuse: " + " or ".join(ways)
    if stage.dst == "smem":
        if multicast:
            return "cluster multicast (TMA): CTAs of a cluster share L2->smem loads"
        return "none across SMs on this chip (no multicast): a larger CTA tile or a faster L2"
    return "none across SMs: this stage bounds the pipe (a larger register tile or more bandwidth)"
