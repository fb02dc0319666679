"""The register-level and CTA tiles: candidates, what each pair needs of one SM, the capacity
checks, and the model's choice where the user gave none.

Output-stationary dataflow at every level: each thread (FFMA), warp (mma.sync) or warpgroup (wgmma)
owns one register-level tile, and each CTA one BM x BN tile in shared memory.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pydantic import Field

from roofmodel.errors import ProblemError
from roofmodel.machine import Instruction, Machine
from roofmodel.model.footprint import (
    FAMILIES,
    REGISTERS_PER_THREAD_GRANULE,
    SUB_PARTITIONS,
    registers_fit,
    tmem_columns,
)
from roofmodel.model.problem import Gemm, Tile
from roofmodel.model.tiling import (
    POW2_EDGES,
    RegisterTileCost,
    register_tile_cost,
    register_tile_reuse,
    smem_tile_bytes,
    tile_reuse,
)
from roofmodel.results import Input, Result

# Among tile pairs that deliver equally, the chooser prefers a grid of at most this many tiles
# (where it can), so low-demand pipes (fp64 on a T4) do not pick 4x8 tiles for a 64K^2 problem.
PREFERRED_MAX_TILES = 1 << 16


class CapacityCheck(Result):
    resource: str
    need: float
    limit: float
    unit: str
    fits: bool
    limit_input: Input | None = None


class TileInfo(Result):
    cta: tuple[int, int, int]
    cta_origin: str
    register_tile: tuple[int, int]
    register_tile_granularity: str
    register_tile_origin: str
    warps: int
    stages: int
    smem_bytes: int
    registers_per_thread: float
    register_overhead: int = Field(description="registers per thread counted besides the tiles")


def instruction_k_step(instruction: Instruction) -> int:
    """K of one instruction (m16n8k16 -> 16); 1 for scalar FMA."""
    match = re.search(r"k(\d+)$", instruction.shape or "")
    return int(match.group(1)) if match else 1


@dataclass(frozen=True)
class TileContext:
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

    @property
    def span(self) -> int:
        """CTAs one instruction tile spans along M: 2 for tcgen05's pair (cta_group::2), else 1."""
        return 2 if self.granularity == "cta pair" else 1

    @property
    def b_share(self) -> float:
        """The share of B's tile a CTA holds in shared memory (half in tcgen05's pair)."""
        return 1.0 / self.span

    @property
    def tmem_columns_limit(self) -> int | None:
        """Tensor-memory columns per SM where the instruction accumulates there, else None."""
        tmem = self.machine.memory.tmem
        return tmem.columns if self.instruction.accumulator_in == "tmem" and tmem is not None else None

    def tmem_columns(self, bm: int, bn: int) -> int:
        """Columns one BM x BN CTA tile's accumulator allocates (footprint.tmem_columns)."""
        return tmem_columns(FAMILIES.index("tcgen05"), bm, bn, self.gemm.accumulator_registers)

    def smem_bytes(self, bm: int, bn: int) -> int:
        """One CTA's pipelined stages: (BM + BN x B share) x BK x bytes x stages (seed 004)."""
        if "smem" not in self.path:
            return 0
        return int(smem_tile_bytes(bm, int(bn * self.b_share), self.bk, self.gemm.input_bytes, self.stages))

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


def _register_tile_candidates(ctx: TileContext) -> list[tuple[int, int]]:
    if ctx.granularity == "warpgroup":
        max_n = ctx.instruction.max_n or 256
        return [(64, n) for n in POW2_EDGES if 8 <= n <= max_n]
    if ctx.granularity in ("cta", "cta pair"):  # tcgen05.mma: M 64 or 128 a CTA, N 16..256
        max_n = ctx.instruction.max_n or 256
        return [(m * ctx.span, n) for m in (64, 128) for n in POW2_EDGES if 16 <= n <= max_n]
    lo = 1 if ctx.granularity == "thread" else 16
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if lo <= a <= 256 and lo <= b <= 256]


def _cta_candidates(reg: tuple[int, int], span: int = 1) -> list[tuple[int, int]]:
    return [(a, b) for a in POW2_EDGES for b in POW2_EDGES if reg[0] <= a * span and a <= 1024 and reg[1] <= b <= 1024]


def warpgroup_n_for(reuse: float, rows: int = 64) -> int:
    """Smallest power-of-two N with reuse(rows, N) >= reuse (rows: 64 for wgmma; 2*64*N/(64+N) < 128
    for every N)."""
    for n in POW2_EDGES:
        if n >= 8 and tile_reuse(rows, n) >= reuse - 1e-9:
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
    tmem_fits: bool = True


def _needs(ctx: TileContext, cta: tuple[int, int], reg: tuple[int, int]) -> _Needs:
    cost = ctx.register_cost(*reg)
    per_thread = cost.per_thread + ctx.reg_overhead
    threads = math.ceil(cta[0] * ctx.span / reg[0]) * math.ceil(cta[1] / reg[1]) * cost.threads
    limit = ctx.tmem_columns_limit
    return _Needs(
        regs_per_thread=per_thread,
        threads=threads,
        regs_per_sm=threads * per_thread,
        smem_bytes=ctx.smem_bytes(*cta),
        divides=(cta[0] * ctx.span) % reg[0] == 0 and cta[1] % reg[1] == 0,
        tmem_fits=limit is None or ctx.tmem_columns(*cta) <= limit,
    )


def _register_tile_fits(ctx: TileContext, reg: tuple[int, int]) -> bool:
    max_n = ctx.instruction.max_n
    if max_n is not None and reg[1] > max_n:
        return False
    limit = ctx.machine.limits.max_registers_per_thread.value
    return ctx.register_cost(*reg).per_thread + ctx.reg_overhead <= limit


def _pair_fits(ctx: TileContext, cta: tuple[int, int], reg: tuple[int, int]) -> bool:
    lim = ctx.machine.limits
    n = _needs(ctx, cta, reg)
    return (
        n.divides
        and n.tmem_fits
        and _register_tile_fits(ctx, reg)
        and n.threads <= lim.max_threads_per_block.value
        and registers_fit(ctx.machine, n.threads, n.regs_per_thread)
        and n.smem_bytes <= ctx.machine.memory.smem.max_per_block.bytes
    )


def register_tile_checks(ctx: TileContext, rm: int, rn: int) -> list[CapacityCheck]:
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
    if max_n is not None:
        checks.append(
            CapacityCheck(
                resource=f"{ctx.instruction.family} N", need=rn, limit=max_n, unit="columns", fits=rn <= max_n
            )
        )
    return checks


def cta_checks(ctx: TileContext, bm: int, bn: int, reg: tuple[int, int]) -> list[CapacityCheck]:
    """A CTA tile with its register tile against shared memory, threads and registers."""
    lim = ctx.machine.limits
    n = _needs(ctx, (bm, bn), reg)
    checks: list[CapacityCheck] = []
    if "smem" in ctx.path:
        smem = ctx.machine.memory.smem.max_per_block
        checks.append(
            CapacityCheck(
                resource=(
                    f"shared memory per block ((BM+BN{'/2' if ctx.span == 2 else ''}) x BK={ctx.bk} x "
                    f"{ctx.gemm.input_bytes} B x {ctx.stages} stages)"
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
            resource=f"CTA tile {bm}x{bn}{' (x2 rows for the pair)' if ctx.span == 2 else ''} divisible by the "
            f"{ctx.granularity} tile {reg[0]}x{reg[1]}",
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
    ws = ctx.machine.warp_size
    unit = REGISTERS_PER_THREAD_GRANULE * ws
    per_warp = math.ceil(math.ceil(n.regs_per_thread) * ws / unit) * unit
    warps_fit = SUB_PARTITIONS * (lim.registers_per_sm.n // SUB_PARTITIONS // per_warp)
    warps = math.ceil(n.threads / ws)
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
    limit = ctx.tmem_columns_limit
    if limit is not None:
        tmem = ctx.machine.memory.tmem
        assert tmem is not None
        checks.append(
            CapacityCheck(
                resource=f"tensor memory columns per CTA (ceil(BM/{tmem.lanes.n}) x BN x accumulator cells, allocated "
                "in a power of two >= 32)",
                need=ctx.tmem_columns(bm, bn),
                limit=limit,
                unit="columns",
                fits=n.tmem_fits,
                limit_input=ctx.machine.input_of("memory.tmem.capacity_per_sm", tmem.capacity_per_sm),
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
    ctx: TileContext,
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
    span, tmem_limit, warp_size = ctx.span, ctx.tmem_columns_limit, ctx.machine.warp_size
    best: tuple[object, ...] | None = None
    choice: tuple[tuple[int, int], tuple[int, int]] | None = None
    for reg in regs:
        if not _register_tile_fits(ctx, reg):
            continue
        cost = ctx.register_cost(*reg)
        per_thread = cost.per_thread + ctx.reg_overhead
        reg_frac = min(1.0, register_tile_reuse(ctx.granularity, *reg) / reg_need)
        reg_key = (reg[0] == reg[1], -reg[0] * reg[1])
        for cta in [fixed_cta] if fixed_cta else _cta_candidates(reg, span):
            # The same limits as _pair_fits, inlined (see the docstring).
            if (cta[0] * span) % reg[0] or cta[1] % reg[1] or (cta[0] + cta[1] / span) * smem_per_edge > smem_limit:
                continue
            if tmem_limit is not None and ctx.tmem_columns(*cta) > tmem_limit:
                continue
            threads = (cta[0] * span // reg[0]) * (cta[1] // reg[1]) * cost.threads
            if threads > max_threads or not registers_fit(ctx.machine, threads, per_thread):
                continue
            if ctx.warps is not None and math.ceil(threads / warp_size) != ctx.warps:
                continue
            if threads < warp_size:  # a CTA smaller than one warp leaves SIMT lanes idle
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


@dataclass(frozen=True)
class TileChoice:
    """The CTA and register-level tiles a kernel uses, where each came from, and the most reuse any
    tile that fits could give (for the stages' ``max_feasible_reuse``)."""

    cta: tuple[int, int]
    register_tile: tuple[int, int]
    cta_origin: str
    register_tile_origin: str
    cost: RegisterTileCost
    threads: int
    max_cta_reuse: float
    max_register_reuse: float


PICKED = "model: the tile pair whose stages deliver the most (squares, then smallest, on ties)"


def pick_tiles(
    ctx: TileContext,
    cta_needs: list[float],
    register_need: float,
    tile: Tile | None = None,
    register_tile: tuple[int, int] | None = None,
) -> TileChoice:
    """The user's tiles, checked against the SM (``ProblemError`` naming the first limit broken), or
    the model's choice (choose_tiles) for the stages' required reuse: ``cta_needs`` of the stages
    into shared memory and L2, ``register_need`` of the stage the register-level tile feeds."""
    if register_tile is not None:
        if ctx.granularity == "warpgroup" and register_tile[0] % 64:
            raise ProblemError(
                f"--reg-tile: a wgmma warpgroup tile has a multiple of 64 rows (got {register_tile[0]}x{register_tile[1]})"
            )
        if ctx.granularity in ("cta", "cta pair") and register_tile not in _register_tile_candidates(ctx):
            raise ProblemError(
                f"--reg-tile: a {ctx.instruction.family} instruction tile is {64 * ctx.span} or {128 * ctx.span} rows "
                f"by a power of two of 16..{ctx.instruction.max_n or 256} (got {register_tile[0]}x{register_tile[1]})"
            )
        bad = [c for c in register_tile_checks(ctx, *register_tile) if not c.fits]
        if bad:
            raise ProblemError(f"--reg-tile {register_tile[0]}x{register_tile[1]}: {broken_limit(bad[0])}")
    fixed_cta = (tile.bm, tile.bn) if tile is not None else None
    try:
        cta, reg = choose_tiles(ctx, cta_needs, register_need, fixed_cta, register_tile)
    except ProblemError:
        if tile is None:
            raise
        # Name what the user's tile breaks, with the register tile that suits it best.
        reg = register_tile or max(
            (r for r in _register_tile_candidates(ctx) if _register_tile_fits(ctx, r)), key=lambda r: tile_reuse(*r)
        )
        bad = [c for c in cta_checks(ctx, tile.bm, tile.bn, reg) if not c.fits]
        raise ProblemError(f"--tile {tile.label()}: {broken_limit(bad[0])}") from None
    cost = ctx.register_cost(*reg)
    return TileChoice(
        cta=cta,
        register_tile=reg,
        cta_origin="--tile" if tile is not None else PICKED,
        register_tile_origin="--reg-tile" if register_tile is not None else PICKED,
        cost=cost,
        threads=(cta[0] * ctx.span // reg[0]) * (cta[1] // reg[1]) * cost.threads,
        max_cta_reuse=max(
            (tile_reuse(*c) for c in _cta_candidates(reg, ctx.span) if _pair_fits(ctx, c, reg)),
            default=tile_reuse(*cta),
        ),
        max_register_reuse=max(
            (
                register_tile_reuse(ctx.granularity, *c)
                for c in _register_tile_candidates(ctx)
                if _register_tile_fits(ctx, c)
            ),
            default=register_tile_reuse(ctx.granularity, *reg),
        ),
    )


def broken_limit(check: CapacityCheck) -> str:
    """One capacity check that fails, as words: 'threads per block: needs 2,048 threads, limit 1,024 threads'."""
    if check.unit == "":  # a yes/no condition, not a quantity
        return f"{check.resource}: it is not"
    return f"{check.resource}: needs {check.need:,.0f} {check.unit}, limit {check.limit:,.0f} {check.unit}"


def tile_info(ctx: TileContext, choice: TileChoice) -> TileInfo:
    """The tiles as reported: CTA tile with BK, register tile, warps, stages, shared memory, registers."""
    cta, reg = choice.cta, choice.register_tile
    return TileInfo(
        cta=(cta[0], cta[1], ctx.bk),
        cta_origin=choice.cta_origin,
        register_tile=reg,
        register_tile_granularity=ctx.granularity,
        register_tile_origin=choice.register_tile_origin,
        warps=max(1, math.ceil(choice.threads / ctx.machine.warp_size)),
        stages=ctx.stages,
        smem_bytes=ctx.smem_bytes(*cta),
        registers_per_thread=choice.cost.per_thread + ctx.reg_overhead,
        register_overhead=ctx.reg_overhead,
    )
