"""``analyze``: the bandwidth-amplification budget of a GEMM on a machine (seed 000).

For each stage of the operand path it computes the reuse the stage needs (demand / bandwidth),
the tile that provides it, whether that tile fits where it must live, and what is left over for
cross-SM sharing; then the per-level rooflines and the bounds. Output-stationary dataflow at every
level: each thread (FFMA), warp (mma.sync) or warpgroup (wgmma) owns one register-level tile, and
each CTA one BM x BN tile in shared memory.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from roofmodel import roofline, units
from roofmodel.errors import ProblemError
from roofmodel.hierarchy import (
    LEVEL_LABELS,
    LevelBandwidth,
    level_bandwidth,
    operand_demand_bytes_per_cycle_per_sm,
    operand_path,
    required_reuse,
)
from roofmodel.machine import Instruction, Machine, Source, _Quantity
from roofmodel.problem import ACCUMULATOR_REGISTERS, Gemm, Tile
from roofmodel.report import (
    AnalysisResult,
    CapacityCheck,
    GemmInfo,
    Input,
    LevelRoof,
    MachineInfo,
    MinimumTile,
    PipeInfo,
    StageResult,
    TileInfo,
)
from roofmodel.tiling import (
    POW2_EDGES,
    RegisterTileCost,
    balanced_pow2_rectangles,
    default_bk,
    register_tile_cost,
    smallest_pow2_square,
    smem_tile_bytes,
    tile_reuse,
)

DEFAULT_STAGES = 2
# Registers every GEMM main loop holds besides its tiles: global and shared-memory addresses,
# strides, the k counter, predicates and (wgmma) two 64-bit descriptors. A named, overridable
# model parameter (``--reg-overhead``), shown in every report; ptxas reports for real GEMM
# kernels show at least this many.
DEFAULT_REGISTER_OVERHEAD = 16


def _input(field: str, q: _Quantity) -> Input:
    return Input(field=field, value=q.value, unit=q.unit, kind=q.kind, source=q.source)  # type: ignore[attr-defined]


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

    @property
    def granularity(self) -> str:
        return self.instruction.tile_granularity

    def register_cost(self, rm: int, rn: int) -> RegisterTileCost:
        return register_tile_cost(
            self.granularity,
            rm,
            rn,
            self.gemm.input_bytes,
            ACCUMULATOR_REGISTERS[self.gemm.dtype],
            instruction_k_step(self.instruction),
        )


# ---------------------------------------------------------------------------------------------
# Register-level tiles


def _register_tile_candidates(ctx: _Context) -> list[tuple[int, int]]:
    if ctx.granularity == "warpgroup":
        max_n = ctx.instruction.max_n or 256
        return [(64, n) for n in POW2_EDGES if 8 <= n <= max_n]
    lo = 1 if ctx.granularity == "thread" else 16
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if lo <= a <= 256 and lo <= b <= 256]


def register_tile_checks(ctx: _Context, rm: int, rn: int) -> list[CapacityCheck]:
    """Registers per thread of one register-level tile against the per-thread limit."""
    lim = ctx.machine.limits.max_registers_per_thread
    need = ctx.register_cost(rm, rn).per_thread + ctx.reg_overhead
    checks = [
        CapacityCheck(
            resource=f"registers per thread (tile + {ctx.reg_overhead} overhead)",
            need=need,
            limit=lim.value,
            unit="registers",
            fits=need <= lim.value,
            limit_input=_input("limits.max_registers_per_thread", lim),
        )
    ]
    if ctx.granularity == "warpgroup" and ctx.instruction.max_n is not None:
        checks.append(
            CapacityCheck(
                resource="wgmma N",
                need=rn,
                limit=ctx.instruction.max_n,
                unit="columns",
                fits=rn <= ctx.instruction.max_n,
            )
        )
    return checks


def _best_fit(cands: list[tuple[int, int]], need: float, ok) -> tuple[tuple[int, int], str]:
    """The default tile: the smallest power-of-two square reaching ``need`` (seed 000 §5.1.1
    picks 64 for a reuse of 39), else the smallest-area rectangle reaching it, else the
    feasible tile with the most reuse."""
    feasible = [c for c in cands if ok(*c)]
    if not feasible:
        raise ProblemError("no tile fits this machine's limits for this instruction")
    reaching = [c for c in feasible if tile_reuse(*c) >= need - 1e-9]
    squares = [c for c in reaching if c[0] == c[1]]
    if squares:
        return min(squares), "model: smallest power-of-two square reaching the stage's reuse"
    if reaching:
        best = min(reaching, key=lambda c: (c[0] * c[1], max(c) / min(c), -tile_reuse(*c)))
        return best, "model: smallest rectangle reaching the stage's reuse"
    best = max(feasible, key=lambda c: (tile_reuse(*c), -(c[0] * c[1])))
    return best, "model: largest feasible tile (the reuse needed does not fit)"


# ---------------------------------------------------------------------------------------------
# CTA tiles


def cta_checks(ctx: _Context, bm: int, bn: int, reg: tuple[int, int]) -> list[CapacityCheck]:
    """A CTA tile against shared memory per block, threads per block, and registers."""
    lim = ctx.machine.limits
    checks: list[CapacityCheck] = []
    if "smem" in ctx.path:
        smem = ctx.machine.memory.smem.max_per_block
        need = smem_tile_bytes(bm, bn, ctx.bk, ctx.gemm.input_bytes, ctx.stages)
        checks.append(
            CapacityCheck(
                resource=f"shared memory per block ((BM+BN) x BK={ctx.bk} x {ctx.gemm.input_bytes} B x {ctx.stages} stages)",
                need=need,
                limit=smem.bytes,
                unit="B",
                fits=need <= smem.bytes,
                limit_input=_input("memory.smem.max_per_block", smem),
            )
        )
    rm, rn = reg
    divides = bm % rm == 0 and bn % rn == 0
    checks.append(
        CapacityCheck(
            resource=f"CTA tile divisible by the {ctx.granularity} tile {rm}x{rn}",
            need=0 if divides else 1,
            limit=0,
            unit="",
            fits=divides,
        )
    )
    cost = ctx.register_cost(rm, rn)
    threads = math.ceil(bm / rm) * math.ceil(bn / rn) * cost.threads
    checks.append(
        CapacityCheck(
            resource="threads per block",
            need=threads,
            limit=lim.max_threads_per_block.value,
            unit="threads",
            fits=threads <= lim.max_threads_per_block.value,
            limit_input=_input("limits.max_threads_per_block", lim.max_threads_per_block),
        )
    )
    regs_sm = threads * (cost.per_thread + ctx.reg_overhead)
    checks.append(
        CapacityCheck(
            resource="registers per SM (threads x registers per thread)",
            need=regs_sm,
            limit=lim.registers_per_sm.value,
            unit="registers",
            fits=regs_sm <= lim.registers_per_sm.value,
            limit_input=_input("limits.registers_per_sm", lim.registers_per_sm),
        )
    )
    checks.extend(register_tile_checks(ctx, rm, rn))
    return checks


def _warpgroup_n_for(reuse: float) -> int:
    """Smallest power-of-two N with reuse(64, N) >= reuse; 2*64*N/(64+N) < 128 for every N."""
    for n in POW2_EDGES:
        if n >= 8 and tile_reuse(64, n) >= reuse - 1e-9:
            return n
    return 2 * POW2_EDGES[-1]


def _cta_candidates(reg: tuple[int, int]) -> list[tuple[int, int]]:
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if reg[0] <= a <= 1024 and reg[1] <= b <= 1024]


def _fits(checks: list[CapacityCheck]) -> bool:
    return all(c.fits for c in checks)


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
) -> AnalysisResult:
    """The amplification budget, tiles, rooflines and verdict for ``gemm`` on ``machine``.

    ``bandwidth``/``compute`` pick measured or datasheet figures where a file has both;
    ``clock_mhz`` overrides the clock (default: the pipe's rated clock, else the boost clock).
    """
    from roofmodel import __version__

    if stages < 1:
        raise ProblemError(f"--stages: must be >= 1 (got {stages})")
    if reg_overhead < 0:
        raise ProblemError(f"--reg-overhead: must be >= 0 (got {reg_overhead})")
    if clock_mhz is not None and not (math.isfinite(clock_mhz) and clock_mhz > 0):
        raise ProblemError(f"--clock-mhz: must be a finite number > 0 (got {clock_mhz})")
    pipe = machine.pipe(gemm.dtype)
    ins = pipe.instruction(instruction)
    path = operand_path(ins, levels)
    notes: list[str] = []
    sms = machine.sm_count.n

    if clock_mhz is not None:
        clock_hz, clock_origin = clock_mhz * 1e6, "set with --clock-mhz"
    elif pipe.rated_clock is not None:
        clock_hz, clock_origin = pipe.rated_clock.hz, "the clock the datasheet rates this pipe at"
    else:
        clock_hz, clock_origin = machine.clocks.boost.hz, "boost clock"

    rate_q = pipe.rate.pick(compute)
    if rate_q.kind != compute:
        notes.append(f"{gemm.dtype} rate: no {compute} figure in the machine file; {rate_q.kind} used")
    fma = units.rate_fma_per_cycle_per_sm(rate_q.value, rate_q.unit, sms, clock_hz)
    peak_flops = fma * units.FLOP_PER_FMA * sms * clock_hz
    demand = operand_demand_bytes_per_cycle_per_sm(fma, gemm.input_bytes)

    bk = (tile.bk if tile and tile.bk else None) or default_bk(gemm.input_bytes)
    ctx = _Context(machine, gemm, ins, bk, stages, path, reg_overhead)

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

    # Register-level tile: holds the stage into RF (fma, mma.sync) or smem->core (wgmma).
    reg_stage = next((s for s in stage_list if s.dst == "rf" or (s.dst == "core" and s.src == "smem")), None)
    reg_need = reg_stage.required if reg_stage else 1.0
    if register_tile is not None:
        reg, reg_origin = register_tile, "--reg-tile"
        if ctx.granularity == "warpgroup" and reg[0] != 64:
            raise ProblemError(f"--reg-tile: a wgmma warpgroup tile is 64xN (got {reg[0]}x{reg[1]})")
        bad = [c for c in register_tile_checks(ctx, *reg) if not c.fits]
        if bad:
            c = bad[0]
            raise ProblemError(
                f"--reg-tile {reg[0]}x{reg[1]}: needs {c.need:g} {c.resource} (limit {c.limit:g} {c.unit})"
            )
    else:
        reg, reg_origin = _best_fit(
            _register_tile_candidates(ctx),
            reg_need,
            lambda a, b: _fits(register_tile_checks(ctx, a, b)),
        )

    # CTA tile: holds the stages into smem and (in-SM part) into L2.
    cta_need = max([s.required for s in stage_list if s.dst in ("smem", "l2")], default=tile_reuse(*reg))
    if tile is not None:
        cta, cta_origin = (tile.bm, tile.bn), "--tile"
        bad = [c for c in cta_checks(ctx, *cta, reg) if not c.fits]
        if bad:
            c = bad[0]
            raise ProblemError(
                f"--tile {tile.label()}: {c.resource}: needs {c.need:g} {c.unit}, limit {c.limit:g} {c.unit}".rstrip()
            )
    else:
        cta, cta_origin = _best_fit(_cta_candidates(reg), cta_need, lambda a, b: _fits(cta_checks(ctx, a, b, reg)))
    cta_reuse = tile_reuse(*cta)
    reg_reuse = tile_reuse(*reg)
    cost = ctx.register_cost(*reg)
    threads = (cta[0] // reg[0]) * (cta[1] // reg[1]) * cost.threads

    max_cta_reuse = max(
        (tile_reuse(*c) for c in _cta_candidates(reg) if _fits(cta_checks(ctx, *c, reg))),
        default=cta_reuse,
    )
    max_reg_reuse = max(
        (tile_reuse(*c) for c in _register_tile_candidates(ctx) if _fits(register_tile_checks(ctx, *c))),
        default=reg_reuse,
    )

    stages_out: list[StageResult] = []
    achieved_list: list[float] = []
    for s in stage_list:
        if s.dst in ("l2", "smem"):
            achieved, max_feasible = cta_reuse, max_cta_reuse
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
                bandwidth_input=_input(s.bw.field, s.bw.quantity) if s.bw and s.bw.quantity and s.bw.field else None,
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
    g = gemm
    b = g.input_bytes
    c_bytes = g.m * g.n * g.output_bytes
    cta_traffic = g.m * g.k * b * math.ceil(g.n / cta[1]) + g.k * g.n * b * math.ceil(g.m / cta[0]) + c_bytes
    roofs: list[LevelRoof] = []
    for s in stage_list:
        if s.src == "dram" and "l2" in path:
            traffic, basis = (
                float(g.compulsory_bytes),
                "compulsory: all reuse across CTAs assumed to hit in L2",
            )
        elif s.dst in ("l2", "smem"):
            traffic, basis = (
                float(cta_traffic),
                f"CTA tile {cta[0]}x{cta[1]}: A read N/BN times, B M/BM times",
            )
        elif s is reg_stage:
            traffic = g.fmas * (1 / reg[0] + 1 / reg[1]) * b
            basis = f"{ctx.granularity} tile {reg[0]}x{reg[1]}"
        else:
            traffic, basis = 2.0 * g.fmas * b, "every operand read from registers for each FMA"
        bw_bps = units.bytes_per_cycle_per_sm_to_gb_per_s(s.per_sm, sms, clock_hz) * 1e9
        intensity = g.flops / traffic
        balance = roofline.balance_point(peak_flops, bw_bps)
        roofs.append(
            LevelRoof(
                level=LEVEL_LABELS[s.src],
                traffic_bytes=traffic,
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
    hierarchical = min([peak_flops, *(r.bound_tflops * 1e12 for r in roofs)])
    fractions = [min(1.0, st.achieved_reuse / st.required_reuse) for st in stages_out]
    amplification = peak_flops * min(fractions)

    verdict, limiting = _verdict(stages_out, roofs, gemm.dtype)
    if "l2" in path:
        notes.append(
            "the DRAM roof assumes perfect L2 reuse across CTAs (an upper bound); the amplification "
            "budget counts in-SM reuse only (a lower bound on what DRAM must deliver)"
        )

    return AnalysisResult(
        roofmodel_version=__version__,
        machine=MachineInfo(
            name=machine.name,
            file=machine.source_file,
            architecture=machine.architecture,
            compute_capability=machine.compute_capability,
            sm_count=sms,
        ),
        gemm=GemmInfo(
            m=g.m,
            n=g.n,
            k=g.k,
            dtype=g.dtype,
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
            engine=pipe.engine,
            instruction=ins.family,
            instruction_shape=ins.shape,
            operands_from=ins.operands_from,
            fma_per_cycle_per_sm=fma,
            peak_tflops=peak_flops / 1e12,
            clock_mhz=clock_hz / 1e6,
            clock_origin=clock_origin,
            rate_input=_input(f"compute.{g.dtype}.rate.{rate_q.kind}", rate_q),
        ),
        tiles=TileInfo(
            cta=(cta[0], cta[1], bk),
            cta_origin=cta_origin,
            register_tile=reg,
            register_tile_granularity=ctx.granularity,
            register_tile_origin=reg_origin,
            warps=max(1, math.ceil(threads / 32)),
            stages=stages,
            smem_bytes=smem_tile_bytes(cta[0], cta[1], bk, b, stages) if "smem" in path else 0,
            registers_per_thread=cost.per_thread + reg_overhead,
            register_overhead=reg_overhead,
        ),
        stages=stages_out,
        roofs=roofs,
        peak_tflops=peak_flops / 1e12,
        classic_bound_tflops=classic / 1e12,
        hierarchical_bound_tflops=hierarchical / 1e12,
        limiting=limiting,
        verdict=verdict,
        amplification_bound_tflops=amplification / 1e12,
        notes=notes,
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
