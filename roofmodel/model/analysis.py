"""``analyze``: the bandwidth-amplification budget of a GEMM on a machine (seed 000).

For each stage of the operand path it computes the reuse the stage needs (demand / bandwidth),
the tile that provides it, whether that tile fits where it must live, and what is left over for
cross-SM sharing; then the per-level rooflines and the bounds. Output-stationary dataflow at every
level: each thread (FFMA), warp (mma.sync) or warpgroup (wgmma) owns one register-level tile, and
each CTA one BM x BN tile in shared memory.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from roofmodel import units
from roofmodel.errors import ProblemError
from roofmodel.machine import Instruction, Machine, Source
from roofmodel.machine.summary import MachineInfo, machine_info
from roofmodel.model import roofline
from roofmodel.model.cross_sm import CrossSm
from roofmodel.model.footprint import REGISTER_ALLOCATION_UNIT, SUB_PARTITIONS, registers_fit
from roofmodel.model.hierarchy import (
    LEVEL_LABELS,
    LevelBandwidth,
    level_bandwidth,
    operand_demand_bytes_per_cycle_per_sm,
    operand_path,
    required_reuse,
)
from roofmodel.model.latency import LatencyHiding, bytes_in_flight, mean_latency_cycles, pipeline_stages_needed
from roofmodel.model.multicast import check_cluster
from roofmodel.model.occupancy import occupancy as occupancy_of
from roofmodel.model.occupancy import waves as waves_of
from roofmodel.model.problem import Gemm, GemmInfo, Tile
from roofmodel.model.rasterization import RasterTraffic, order_traffic, parse_order
from roofmodel.model.roofline import LevelRoof
from roofmodel.model.stages import MinimumTile, PipeInfo, StageResult
from roofmodel.model.tile_choice import CapacityCheck, TileInfo
from roofmodel.model.tiling import (
    POW2_EDGES,
    WGMMA_ROWS,
    RegisterTileCost,
    balanced_pow2_rectangles,
    cta_tile_traffic_bytes,
    default_bk,
    register_tile_cost,
    register_tile_read_bytes,
    register_tile_reuse,
    smallest_pow2_square,
    smem_tile_bytes,
    tile_reuse,
)
from roofmodel.results import JSON_SCHEMA_VERSION, Result
from roofmodel.units import latency_cycles

DEFAULT_STAGES = 2
# Registers every GEMM main loop holds besides its tiles: global and shared-memory addresses,
# strides, the k counter, predicates and (wgmma) two 64-bit descriptors. A named, overridable
# model parameter (``--reg-overhead``), shown in every report; ptxas reports for real GEMM
# kernels show at least this many.
DEFAULT_REGISTER_OVERHEAD = 16
# Among tile pairs that deliver equally, the chooser prefers a grid of at most this many tiles
# (where it can), so low-demand pipes (fp64 on a T4) do not pick 4x8 tiles for a 64K^2 problem.
PREFERRED_MAX_TILES = 1 << 16


def instruction_k_step(instruction: Instruction) -> int:
    """K of one instruction (m16n8k16 -> 16); 1 for scalar FMA."""
    match = re.search(r"k(\d+)$", instruction.shape or "")
    return int(match.group(1)) if match else 1


@dataclass(frozen=True)
class _Context:
    machine: Machine
    gemm: Gemm
    instruction: Instruction
    bk: int
    stages: int
    path: tuple[str, ...]
    reg_overhead: int
    warps: int | None = None

    @property
    def granularity(self) -> str:
        return self.instruction.tile_granularity

    def register_cost(self, rm: int, rn: int) -> RegisterTileCost:
        return register_tile_cost(
            self.granularity,
            rm,
            rn,
            self.gemm.input_bytes,
            self.gemm.accumulator_registers,
            instruction_k_step(self.instruction),
        )


# ---------------------------------------------------------------------------------------------
# Register-level and CTA tiles


def _register_tile_candidates(ctx: _Context) -> list[tuple[int, int]]:
    if ctx.granularity == "warpgroup":
        max_n = ctx.instruction.max_n or 256
        return [(64, n) for n in POW2_EDGES if 8 <= n <= max_n]
    lo = 1 if ctx.granularity == "thread" else 16
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if lo <= a <= 256 and lo <= b <= 256]


def _cta_candidates(reg: tuple[int, int]) -> list[tuple[int, int]]:
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if reg[0] <= a <= 1024 and reg[1] <= b <= 1024]


def _warpgroup_n_for(reuse: float) -> int:
    """Smallest power-of-two N with reuse(64, N) >= reuse; 2*64*N/(64+N) < 128 for every N."""
    for n in POW2_EDGES:
        if n >= 8 and tile_reuse(64, n) >= reuse - 1e-9:
            return n
    return 2 * POW2_EDGES[-1]


@dataclass(frozen=True)
class _Needs:
    """What a (CTA tile, register tile) pair needs of one SM, as plain numbers."""

    regs_per_thread: float
    threads: int
    regs_per_sm: float
    smem_bytes: int
    divides: bool


def _needs(ctx: _Context, cta: tuple[int, int], reg: tuple[int, int]) -> _Needs:
    cost = ctx.register_cost(*reg)
    per_thread = cost.per_thread + ctx.reg_overhead
    threads = math.ceil(cta[0] / reg[0]) * math.ceil(cta[1] / reg[1]) * cost.threads
    smem = smem_tile_bytes(cta[0], cta[1], ctx.bk, ctx.gemm.input_bytes, ctx.stages) if "smem" in ctx.path else 0
    return _Needs(
        regs_per_thread=per_thread,
        threads=threads,
        regs_per_sm=threads * per_thread,
        smem_bytes=smem,
        divides=cta[0] % reg[0] == 0 and cta[1] % reg[1] == 0,
    )


def _register_tile_fits(ctx: _Context, reg: tuple[int, int]) -> bool:
    max_n = ctx.instruction.max_n
    if ctx.granularity == "warpgroup" and max_n is not None and reg[1] > max_n:
        return False
    limit = ctx.machine.limits.max_registers_per_thread.value
    return ctx.register_cost(*reg).per_thread + ctx.reg_overhead <= limit


def _pair_fits(ctx: _Context, cta: tuple[int, int], reg: tuple[int, int]) -> bool:
    lim = ctx.machine.limits
    n = _needs(ctx, cta, reg)
    return (
        n.divides
        and _register_tile_fits(ctx, reg)
        and n.threads <= lim.max_threads_per_block.value
        and registers_fit(ctx.machine, n.threads, n.regs_per_thread)
        and n.smem_bytes <= ctx.machine.memory.smem.max_per_block.bytes
    )


def register_tile_checks(ctx: _Context, rm: int, rn: int) -> list[CapacityCheck]:
    """One register-level tile against the per-thread register limit (and wgmma's largest N)."""
    lim = ctx.machine.limits.max_registers_per_thread
    need = ctx.register_cost(rm, rn).per_thread + ctx.reg_overhead
    checks = [
        CapacityCheck(
            resource=f"registers per thread (tile + {ctx.reg_overhead} overhead)",
            need=need,
            limit=lim.value,
            unit="registers",
            fits=need <= lim.value,
            limit_input=ctx.machine.input_of("limits.max_registers_per_thread", lim),
        )
    ]
    max_n = ctx.instruction.max_n
    if ctx.granularity == "warpgroup" and max_n is not None:
        checks.append(CapacityCheck(resource="wgmma N", need=rn, limit=max_n, unit="columns", fits=rn <= max_n))
    return checks


def cta_checks(ctx: _Context, bm: int, bn: int, reg: tuple[int, int]) -> list[CapacityCheck]:
    """A CTA tile with its register tile against shared memory, threads and registers."""
    lim = ctx.machine.limits
    n = _needs(ctx, (bm, bn), reg)
    checks: list[CapacityCheck] = []
    if "smem" in ctx.path:
        smem = ctx.machine.memory.smem.max_per_block
        checks.append(
            CapacityCheck(
                resource=(
                    f"shared memory per block ((BM+BN) x BK={ctx.bk} x {ctx.gemm.input_bytes} B x {ctx.stages} stages)"
                ),
                need=n.smem_bytes,
                limit=smem.bytes,
                unit="B",
                fits=n.smem_bytes <= smem.bytes,
                limit_input=ctx.machine.input_of("memory.smem.max_per_block", smem),
            )
        )
    checks.append(
        CapacityCheck(
            resource=f"CTA tile divisible by the {ctx.granularity} tile {reg[0]}x{reg[1]}",
            need=0 if n.divides else 1,
            limit=0,
            unit="",
            fits=n.divides,
        )
    )
    checks.append(
        CapacityCheck(
            resource="threads per block",
            need=n.threads,
            limit=lim.max_threads_per_block.value,
            unit="threads",
            fits=n.threads <= lim.max_threads_per_block.value,
            limit_input=ctx.machine.input_of("limits.max_threads_per_block", lim.max_threads_per_block),
        )
    )
    # Registers come from the four sub-partitions, per warp (footprint.cta_limits): the warps whose
    # registers fit are 4 x floor(registers per SM / 4 / registers per warp).
    per_warp = math.ceil(math.ceil(n.regs_per_thread) * 32 / REGISTER_ALLOCATION_UNIT) * REGISTER_ALLOCATION_UNIT
    warps_fit = SUB_PARTITIONS * (lim.registers_per_sm.n // SUB_PARTITIONS // per_warp)
    warps = math.ceil(n.threads / 32)
    checks.append(
        CapacityCheck(
            resource=f"warps whose registers fit the SM (4 sub-partitions x {lim.registers_per_sm.n // 4:,} registers, "
            f"{per_warp:,} a warp)",
            need=warps,
            limit=warps_fit,
            unit="warps",
            fits=bool(registers_fit(ctx.machine, n.threads, n.regs_per_thread)),
            limit_input=ctx.machine.input_of("limits.registers_per_sm", lim.registers_per_sm),
        )
    )
    checks.extend(register_tile_checks(ctx, *reg))
    return checks


def _fits(checks: list[CapacityCheck]) -> bool:
    return all(c.fits for c in checks)


def exact_cta_reuse(gemm: Gemm, bm: int, bn: int) -> float:
    """The operand reuse a BM x BN CTA tile achieves on this problem, edge tiles included:
    2*M*N*K / (M*K*ceil(N/BN) + K*N*ceil(M/BM)). Equals 2*BM*BN/(BM+BN) when the tile divides M and N;
    below it when a ragged edge wastes part of a tile (a 256-row tile on M = 257)."""
    m, n, k = gemm.m, gemm.n, gemm.k
    return 2.0 * m * n * k / (m * k * math.ceil(n / bn) + k * n * math.ceil(m / bm))


def choose_tiles(
    ctx: _Context,
    cta_needs: list[float],
    reg_need: float,
    fixed_cta: tuple[int, int] | None = None,
    fixed_reg: tuple[int, int] | None = None,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (CTA, register) tile pair the model picks where the user gave none.

    The pair whose stages deliver the most: per-stage fractions min(1, reuse / required reuse), the
    CTA tile's reuse taken exactly for this problem (exact_cta_reuse),
    compared sorted from the worst stage up, so the bottleneck decides first; then a grid of at
    most PREFERRED_MAX_TILES tiles; then power-of-two squares before rectangles (seed 000 §5.1.1 picks 64 x 64 for a reuse of 39); then the
    smallest CTA tile and register tile. The register tile's reuse is idealized and C's writes are
    not weighed, so on a better machine the pick can, rarely, be marginally worse (the invariants
    are therefore stated for a fixed kernel). The limits are _pair_fits's, inlined below: through
    _pair_fits this loop takes about 80 ms instead of 10 for an FFMA pipe.
    """
    regs = [fixed_reg] if fixed_reg else [r for r in _register_tile_candidates(ctx) if _register_tile_fits(ctx, r)]
    lim = ctx.machine.limits
    max_threads = lim.max_threads_per_block.value
    smem_limit = ctx.machine.memory.smem.max_per_block.bytes if "smem" in ctx.path else math.inf
    smem_per_edge = ctx.bk * ctx.gemm.input_bytes * ctx.stages if "smem" in ctx.path else 0
    best: tuple[object, ...] | None = None
    choice: tuple[tuple[int, int], tuple[int, int]] | None = None
    for reg in regs:
        if not _register_tile_fits(ctx, reg):
            continue
        cost = ctx.register_cost(*reg)
        per_thread = cost.per_thread + ctx.reg_overhead
        reg_frac = min(1.0, register_tile_reuse(ctx.granularity, *reg) / reg_need)
        reg_key = (reg[0] == reg[1], -reg[0] * reg[1])
        for cta in [fixed_cta] if fixed_cta else _cta_candidates(reg):
            # The same limits as _pair_fits, inlined (see the docstring).
            if cta[0] % reg[0] or cta[1] % reg[1] or (cta[0] + cta[1]) * smem_per_edge > smem_limit:
                continue
            threads = (cta[0] // reg[0]) * (cta[1] // reg[1]) * cost.threads
            if threads > max_threads or not registers_fit(ctx.machine, threads, per_thread):
                continue
            if ctx.warps is not None and math.ceil(threads / 32) != ctx.warps:
                continue
            if threads < 32:  # a CTA smaller than one warp leaves SIMT lanes idle
                continue
            cta_reuse = exact_cta_reuse(ctx.gemm, *cta)
            fracs = tuple(sorted([reg_frac, *(min(1.0, cta_reuse / need) for need in cta_needs)]))
            grid = math.ceil(ctx.gemm.m / cta[0]) * math.ceil(ctx.gemm.n / cta[1])
            key = (fracs, grid <= PREFERRED_MAX_TILES, cta[0] == cta[1], -cta[0] * cta[1], *reg_key)
            if best is None or key > best:
                best, choice = key, (cta, reg)
    if choice is None:
        if ctx.warps is not None:
            raise ProblemError(f"--warps {ctx.warps}: no tile pair with that many warps fits this machine")
        raise ProblemError("no tile fits this machine's limits for this instruction")
    return choice


# ---------------------------------------------------------------------------------------------
# Stages


@dataclass(frozen=True)
class _Stage:
    src: str
    dst: str
    bw: LevelBandwidth | None
    per_sm: float
    required: float

    @property
    def name(self) -> str:
        return f"{LEVEL_LABELS[self.src]}->{LEVEL_LABELS[self.dst]}"


def _holder(stage: _Stage, granularity: str) -> str:
    if stage.dst == "l2":
        return "CTA tile + cross-SM"
    if stage.dst == "smem":
        return "CTA tile"
    if stage.dst == "rf":
        return f"{granularity} tile"
    return "warpgroup tile" if stage.src == "smem" else "registers"


def _remedy(stage: _Stage, machine: Machine) -> str:
    multicast = machine.cluster is not None and machine.cluster.tma_multicast
    if stage.dst == "l2" or (stage.dst == "smem" and stage.src == "dram"):
        return "cross-SM reuse: L2 sharing between concurrent CTAs (rasterization) or cluster multicast"
    if stage.dst == "smem":
        if multicast:
            return "cluster multicast (TMA): CTAs of a cluster share L2->smem loads"
        return "none across SMs on this chip (no multicast): a larger CTA tile or a faster L2"
    return "none across SMs: this stage bounds the pipe (a larger register tile or more bandwidth)"


def analyze(
    machine: Machine,
    gemm: Gemm,
    *,
    tile: Tile | None = None,
    register_tile: tuple[int, int] | None = None,
    levels: list[str] | None = None,
    instruction: str | None = None,
    bandwidth: Source = "measured",
    compute: Source = "spec",
    clock_mhz: float | None = None,
    stages: int = DEFAULT_STAGES,
    reg_overhead: int = DEFAULT_REGISTER_OVERHEAD,
    cluster: tuple[int, int] = (1, 1),
    raster: str = "row",
    warps: int | None = None,
    regs: int | None = None,
    kernel_threads: int | None = None,
) -> AnalysisResult:
    """The amplification budget, tiles, rooflines and verdict for ``gemm`` on ``machine``.

    ``bandwidth``/``compute`` pick measured or datasheet figures where a file has both;
    ``clock_mhz`` overrides the clock (default: the pipe's rated clock, else the boost clock).
    ``cluster`` (CTAs along M, along N) and ``raster`` (see rasterization.ORDER_HELP) set how SMs
    share operands; ``warps`` fixes the CTA's warp count; ``regs`` the compiled registers per
    thread used for occupancy (default: the model's estimate).
    """
    from roofmodel import __version__

    if stages < 1:
        raise ProblemError(f"--stages: must be >= 1 (got {stages})")
    if warps is not None and warps < 1:
        raise ProblemError(f"--warps: must be >= 1 (got {warps})")
    if regs is not None and not 1 <= regs <= machine.limits.max_registers_per_thread.n:
        raise ProblemError(f"--regs: must be 1..{machine.limits.max_registers_per_thread.n} (got {regs})")
    check_cluster(machine, *cluster)
    order = parse_order(raster)
    if reg_overhead < 0:
        raise ProblemError(f"--reg-overhead: must be >= 0 (got {reg_overhead})")
    if clock_mhz is not None and not (math.isfinite(clock_mhz) and clock_mhz > 0):
        raise ProblemError(f"--clock-mhz: must be a finite number > 0 (got {clock_mhz})")
    pipe = machine.pipe(gemm.dtype)
    ins = pipe.instruction(instruction)
    path = operand_path(ins, levels)
    notes: list[str] = []
    sms = machine.sm_count.n

    rated, rated_clock, rate_field = pipe.rate_of(ins)  # the instruction's own rate and clock where given
    if clock_mhz is not None:
        clock_hz, clock_origin = clock_mhz * 1e6, "set with --clock-mhz"
    elif rated_clock is not None:
        clock_hz, clock_origin = rated_clock.hz, "the clock the datasheet rates this pipe at"
    else:
        clock_hz, clock_origin = machine.clocks.boost.hz, "boost clock"

    rate_q = rated.pick(compute)
    if rate_q.kind != compute:
        notes.append(f"{gemm.dtype} rate: no {compute} figure in the machine file; {rate_q.kind} used")
    fma = units.rate_fma_per_cycle_per_sm(rate_q.value, rate_q.unit, sms, clock_hz)
    peak_flops = fma * units.FLOP_PER_FMA * sms * clock_hz
    demand = operand_demand_bytes_per_cycle_per_sm(fma, gemm.input_bytes)

    bk = (tile.bk if tile and tile.bk else None) or default_bk(gemm.input_bytes)
    ctx = _Context(machine, gemm, ins, bk, stages, path, reg_overhead, warps)

    # Stages, outermost first.
    stage_list: list[_Stage] = []
    for i, src in enumerate(path):
        dst = path[i + 1] if i + 1 < len(path) else "core"
        bw = level_bandwidth(machine, src, bandwidth, clock_hz)
        if bw is None:
            per_sm = demand
            notes.append(
                f"{LEVEL_LABELS[src]}->core: no bandwidth in the machine file; assumed to match the pipe's "
                f"demand (seed 000 §3: 'we don't need more than' the demand)"
            )
        else:
            per_sm = bw.bytes_per_cycle_per_sm
            if bw.quantity is not None and bw.quantity.kind != bandwidth:
                notes.append(f"{LEVEL_LABELS[src]} bandwidth: no {bandwidth} figure; {bw.quantity.kind} used")
        stage_list.append(_Stage(src, dst, bw, per_sm, required_reuse(demand, per_sm)))

    # The register-level tile holds the stage into RF (fma, mma.sync) or smem->core (wgmma);
    # the CTA tile holds the stages into smem and, for its in-SM part, into L2.
    reg_stage = next((s for s in stage_list if s.dst == "rf" or (s.dst == "core" and s.src == "smem")), None)
    reg_need = reg_stage.required if reg_stage else 1.0
    cta_needs = [s.required for s in stage_list if s.dst in ("smem", "l2")]
    if register_tile is not None:
        if ctx.granularity == "warpgroup" and register_tile[0] % WGMMA_ROWS:
            raise ProblemError(
                f"--reg-tile: a wgmma warpgroup tile has a multiple of 64 rows (got {register_tile[0]}x{register_tile[1]})"
            )
        bad = [c for c in register_tile_checks(ctx, *register_tile) if not c.fits]
        if bad:
            raise ProblemError(
                f"--reg-tile {register_tile[0]}x{register_tile[1]}: {bad[0].resource}: "
                f"needs {bad[0].need:,.0f}, limit {bad[0].limit:,.0f}"
            )
    fixed_cta = (tile.bm, tile.bn) if tile is not None else None
    try:
        cta, reg = choose_tiles(ctx, cta_needs, reg_need, fixed_cta, register_tile)
    except ProblemError:
        if tile is None:
            raise
        # Name what the user's tile breaks, with the register tile that suits it best.
        reg = register_tile or max(
            (r for r in _register_tile_candidates(ctx) if _register_tile_fits(ctx, r)), key=lambda r: tile_reuse(*r)
        )
        bad = [c for c in cta_checks(ctx, tile.bm, tile.bn, reg) if not c.fits]
        detail = f"{bad[0].resource}: needs {bad[0].need:,.0f} {bad[0].unit}, limit {bad[0].limit:,.0f} {bad[0].unit}"
        raise ProblemError(f"--tile {tile.label()}: {detail.rstrip()}") from None
    picked = "model: the tile pair whose stages deliver the most (squares, then smallest, on ties)"
    cta_origin = "--tile" if tile is not None else picked
    reg_origin = "--reg-tile" if register_tile is not None else picked
    cta_reuse = tile_reuse(*cta)
    reg_reuse = register_tile_reuse(ctx.granularity, *reg)
    cost = ctx.register_cost(*reg)
    threads = (cta[0] // reg[0]) * (cta[1] // reg[1]) * cost.threads

    max_cta_reuse = max((tile_reuse(*c) for c in _cta_candidates(reg) if _pair_fits(ctx, c, reg)), default=cta_reuse)
    max_reg_reuse = max(
        (
            register_tile_reuse(ctx.granularity, *c)
            for c in _register_tile_candidates(ctx)
            if _register_tile_fits(ctx, c)
        ),
        default=reg_reuse,
    )

    # Across SMs: occupancy sets how many CTAs run at once; the cluster and the raster order set
    # how many of their operand requests the memory system serves once (issue 3).
    g = gemm
    b = g.input_bytes
    smem_bytes = smem_tile_bytes(cta[0], cta[1], bk, b, stages) if "smem" in path else 0
    regs_thread = (
        regs
        if regs is not None
        else min(machine.limits.max_registers_per_thread.n, math.ceil((cost.per_thread + reg_overhead) / 8) * 8)
    )
    # A compiled kernel's own thread count (Triton's num_warps) sets its occupancy when given.
    occ = occupancy_of(machine, kernel_threads or threads, regs_thread, smem_bytes)
    if occ.ctas_per_sm < 1:
        raise ProblemError(f"the CTA ({threads} threads, {regs_thread} registers each) does not fit one SM")
    cm, cn = cluster
    concurrent_clusters = sms * occ.ctas_per_sm // (cm * cn)
    if concurrent_clusters < 1:
        raise ProblemError(f"--cluster {cm}x{cn}: more CTAs than the chip runs at once")
    traffic = order_traffic(
        order,
        concurrent=concurrent_clusters,
        m=g.m,
        n=g.n,
        k=g.k,
        bm=cm * cta[0],
        bn=cn * cta[1],
        input_bytes=b,
        output_bytes=g.output_bytes,
        l2_bytes=machine.memory.l2.capacity.bytes,
    )
    if "l2" not in path:
        # No L2 in this model of the machine: nothing is shared through it, every request is a DRAM read.
        traffic = traffic.model_copy(
            update={
                "dram_read_bytes": traffic.requested_bytes,
                "sharing_factor": 1.0,
                "cache_assumption": "no L2 level in this analysis: every CTA request is read from DRAM",
            }
        )
    wave = waves_of(math.ceil(g.m / cta[0]) * math.ceil(g.n / cta[1]), sms, occ.ctas_per_sm)
    operand_bytes = 2.0 * g.fmas * b
    c_bytes = float(g.m * g.n * g.output_bytes)
    cta_requests = cta_tile_traffic_bytes(g.m, g.n, g.k, cta[0], cta[1], b, g.output_bytes) - c_bytes
    in_sm_reuse = operand_bytes / cta_requests
    smem_fill_reuse = operand_bytes / traffic.requested_bytes  # in-SM x cluster multicast
    dram_reuse = operand_bytes / traffic.dram_read_bytes  # ... x L2 sharing between CTAs
    latency = _latency_hiding(machine, demand / smem_fill_reuse, traffic, cta, bk, b, stages, occ.ctas_per_sm, clock_hz)

    stages_out: list[StageResult] = []
    achieved_list: list[float] = []
    for s in stage_list:
        if s.dst in ("l2", "smem"):
            achieved = dram_reuse if (s.dst == "l2") else smem_fill_reuse
            max_feasible = max_cta_reuse
            t = smallest_pow2_square(s.required)
            checks = cta_checks(ctx, max(t, reg[0]), max(t, reg[1]), reg)
        elif s is reg_stage:
            achieved, max_feasible = reg_reuse, max_reg_reuse
            t = smallest_pow2_square(s.required)
            checks = register_tile_checks(
                ctx,
                *((64, _warpgroup_n_for(s.required)) if ctx.granularity == "warpgroup" else (t, t)),
            )
        else:  # RF -> core: operands are read from registers once per FMA
            achieved, max_feasible = 1.0, 1.0
            checks = []
        achieved_list.append(achieved)
        stages_out.append(
            StageResult(
                name=s.name,
                source_level=s.src,
                destination_level=s.dst,
                bandwidth_bytes_per_cycle_per_sm=s.per_sm,
                bandwidth_gb_per_s=units.bytes_per_cycle_per_sm_to_gb_per_s(s.per_sm, sms, clock_hz),
                bandwidth_input=machine.input_of(s.bw.field, s.bw.quantity)
                if s.bw and s.bw.quantity and s.bw.field
                else None,
                bandwidth_assumed=s.bw is None,
                demand_bytes_per_cycle_per_sm=demand,
                required_reuse=s.required,
                local_required_reuse=0.0,  # filled below
                minimum_tile=MinimumTile(
                    real_edge=max(s.required, 1.0),
                    pow2_square=smallest_pow2_square(s.required),
                    pow2_rectangles=balanced_pow2_rectangles(s.required),
                ),
                minimum_tile_edge=smallest_pow2_square(s.required),
                holder=_holder(s, ctx.granularity),
                tile=cta if s.dst in ("l2", "smem") else (reg if s is reg_stage else (1, 1)),
                achieved_reuse=achieved,
                in_sm_reuse=in_sm_reuse if s.dst in ("l2", "smem") else achieved,
                cross_sm_factor=achieved / in_sm_reuse if s.dst in ("l2", "smem") else 1.0,
                local_achieved_reuse=0.0,
                slack=achieved / s.required,
                max_feasible_reuse=max_feasible,
                capacity_checks=checks,
                fits=_fits(checks),
                missing_amplification=max(1.0, s.required / achieved),
                remedy=_remedy(s, machine),
            )
        )
    # Local reuse between adjacent levels (seed 000 §5.1.4): this stage's over the next one's.
    for i, st in enumerate(stages_out):
        nxt_req = stage_list[i + 1].required if i + 1 < len(stage_list) else 1.0
        nxt_ach = achieved_list[i + 1] if i + 1 < len(stage_list) else 1.0
        stages_out[i] = st.model_copy(
            update={
                "local_required_reuse": st.required_reuse / nxt_req,
                "local_achieved_reuse": st.achieved_reuse / nxt_ach,
            }
        )

    # Per-level rooflines from each level's traffic for the whole GEMM.
    roofs: list[LevelRoof] = []
    for s in stage_list:
        if s.dst == "l2":
            level_bytes = traffic.dram_read_bytes + c_bytes
            basis = f"DRAM reads for raster order {order.label} (see cross_sm.raster) + C written once"
        elif s.dst == "smem":
            level_bytes = traffic.requested_bytes + c_bytes
            basis = f"CTA tile {cta[0]}x{cta[1]} requests" + (f" over {cm}x{cn} multicast" if cm * cn > 1 else "")
            basis += " + C written once"
        elif s is reg_stage:
            level_bytes = register_tile_read_bytes(g.fmas, ctx.granularity, *reg, b)
            basis = f"{ctx.granularity} tile {reg[0]}x{reg[1]}"
        else:
            level_bytes, basis = operand_bytes, "every operand read from registers for each FMA"
        bw_bps = units.bytes_per_cycle_per_sm_to_gb_per_s(s.per_sm, sms, clock_hz) * 1e9
        shared_l2 = machine.memory.l2.shared_read_bandwidth
        if s.src == "l2" and s.dst == "smem" and shared_l2 is not None:
            # Repeated requests of one wave's CTAs for the same panels go at the same-address rate:
            # the L2 roof's bandwidth is the blend that moves this traffic in the same time.
            q = shared_l2.pick(bandwidth)
            shared_bps = units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock_hz) * sms * clock_hz
            repeated = max(0.0, traffic.requested_bytes - traffic.wave_distinct_bytes)
            seconds = (level_bytes - repeated) / bw_bps + repeated / max(shared_bps, bw_bps)
            bw_bps = level_bytes / seconds
            basis += f"; repeated same-wave requests ({repeated / 2**20:,.0f} MiB) at the same-address rate"
        intensity = g.flops / level_bytes
        balance = roofline.balance_point(peak_flops, bw_bps)
        roofs.append(
            LevelRoof(
                level=LEVEL_LABELS[s.src],
                traffic_bytes=level_bytes,
                traffic_basis=basis,
                intensity_flop_per_byte=intensity,
                bandwidth_gb_per_s=bw_bps / 1e9,
                balance_flop_per_byte=balance,
                bound_tflops=roofline.attainable(intensity, bw_bps, peak_flops) / 1e12,
                verdict="compute-bound" if intensity >= balance else "memory-bound",
            )
        )

    dram_bps = stages_out[0].bandwidth_gb_per_s * 1e9
    problem_intensity = g.flops / g.compulsory_bytes
    classic = roofline.attainable(problem_intensity, dram_bps, peak_flops)
    hierarchical = roofline.hierarchical_attainable(
        peak_flops, [(r.intensity_flop_per_byte, r.bandwidth_gb_per_s * 1e9) for r in roofs]
    )
    fractions = [min(1.0, st.achieved_reuse / st.required_reuse) for st in stages_out]
    amplification = peak_flops * min(fractions)

    verdict, limiting = _verdict(stages_out, roofs, gemm.dtype)
    if "l2" not in path and cm * cn == 1:
        notes.append("no L2 level: DRAM->smem reuse comes from the CTA tile alone (and cluster multicast)")
    if latency.stages_needed > stages:
        notes.append(
            f"latency: {stages} stages hold {stages - 1} tile loads in flight; covering "
            f"{latency.bytes_in_flight_per_sm:,.0f} B per SM at {latency.mean_latency_cycles:.0f} cycles "
            f"needs {latency.stages_needed} (Little's law, seed 001)"
        )

    return AnalysisResult(
        roofmodel_version=__version__,
        machine=machine_info(machine),
        gemm=GemmInfo(
            m=g.m,
            n=g.n,
            k=g.k,
            dtype=g.dtype,
            accumulator=g.accumulator or "",
            input_bytes=b,
            output_bytes=g.output_bytes,
            flops=float(g.flops),
            compulsory_bytes=float(g.compulsory_bytes),
            intensity_flop_per_byte=problem_intensity,
        ),
        levels=list(path),
        bandwidth_preference=bandwidth,
        compute_preference=compute,
        pipe=PipeInfo(
            dtype=g.dtype,
            engine=pipe.engine_of(ins),
            instruction=ins.family,
            instruction_shape=ins.shape,
            operands_from=ins.operands_from,
            fma_per_cycle_per_sm=fma,
            peak_tflops=peak_flops / 1e12,
            clock_mhz=clock_hz / 1e6,
            clock_origin=clock_origin,
            rate_input=machine.input_of(f"compute.{g.dtype}.{rate_field}.{rate_q.kind}", rate_q),
        ),
        tiles=TileInfo(
            cta=(cta[0], cta[1], bk),
            cta_origin=cta_origin,
            register_tile=reg,
            register_tile_granularity=ctx.granularity,
            register_tile_origin=reg_origin,
            warps=max(1, math.ceil(threads / 32)),
            stages=stages,
            smem_bytes=smem_bytes,
            registers_per_thread=cost.per_thread + reg_overhead,
            register_overhead=reg_overhead,
        ),
        stages=stages_out,
        cross_sm=CrossSm(
            cluster=(cm, cn),
            multicast_factor=cta_requests / traffic.requested_bytes,
            raster_order=order.label,
            l2_sharing_factor=traffic.requested_bytes / traffic.dram_read_bytes,
            in_sm_reuse=in_sm_reuse,
            dram_reuse=dram_reuse,
            dram_read_bytes=traffic.dram_read_bytes,
            dram_write_bytes=traffic.dram_write_bytes,
            compulsory_read_bytes=traffic.compulsory_read_bytes,
            raster=traffic,
            occupancy=occ,
            waves=wave,
            latency=latency,
        ),
        roofs=roofs,
        peak_tflops=peak_flops / 1e12,
        classic_bound_tflops=classic / 1e12,
        hierarchical_bound_tflops=hierarchical / 1e12,
        limiting=limiting,
        verdict=verdict,
        amplification_bound_tflops=amplification / 1e12,
        notes=notes,
    )


def _latency_hiding(
    machine: Machine,
    fill_bytes_per_cycle_per_sm: float,
    traffic: RasterTraffic,
    cta: tuple[int, int],
    bk: int,
    element_bytes: int,
    stages: int,
    ctas_per_sm: int,
    clock_hz: float,
) -> LatencyHiding:
    """Stages a CTA needs to keep its shared-memory fill rate going (Little's law, seed 001).

    The fill rate is the pipe's demand over the reuse the tile and cluster give; the latency is
    the mean of L2 hits and DRAM misses, weighted by the raster model's hit rate.
    """
    hit = 1.0 - traffic.dram_read_bytes / traffic.requested_bytes
    lat_l2 = machine.memory.l2.latency
    lat_dram = machine.memory.dram.latency
    if lat_l2 is None or lat_dram is None:
        mean = 0.0
    else:
        mean = mean_latency_cycles(
            traffic.dram_read_bytes,
            traffic.requested_bytes,
            latency_cycles(lat_l2.value, lat_l2.unit, clock_hz),
            latency_cycles(lat_dram.value, lat_dram.unit, clock_hz),
        )
    stage_bytes = (cta[0] + cta[1]) * bk * element_bytes
    in_flight = bytes_in_flight(fill_bytes_per_cycle_per_sm, mean)
    needed = pipeline_stages_needed(fill_bytes_per_cycle_per_sm, mean, stage_bytes, ctas_per_sm) if mean else 2
    return LatencyHiding(
        l2_hit_rate=hit,
        mean_latency_cycles=mean,
        latency_known=mean > 0,
        fill_bytes_per_cycle_per_sm=fill_bytes_per_cycle_per_sm,
        bytes_in_flight_per_sm=in_flight,
        stage_bytes=stage_bytes,
        stages_needed=needed,
        stages_given=stages,
    )


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
