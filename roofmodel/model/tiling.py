"""Tiles and the reuse they buy (seed 000 §5.1; seed 004, 'arithmetic intensity as a function
of tile dimensions').

Under an output-stationary dataflow a BM x BN output tile reads a BM x K panel of A and a K x BN
panel of B once from the level above, and performs BM*BN*K FMAs on them: each A element is used
BN times, each B element BM times, so the average operand reuse is 2*BM*BN/(BM+BN). A stage whose
bandwidth is 1/R of the compute pipe's operand demand needs a tile of reuse >= R.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

POW2_EDGES = tuple(2**i for i in range(0, 12))  # 1 .. 2048


def tile_reuse(bm: float, bn: float) -> float:
    """Average operand reuse of a BM x BN output tile: 2*BM*BN/(BM+BN) (dimensionless)."""
    return 2 * bm * bn / (bm + bn)


# One wgmma instruction covers 64 rows: a warpgroup tile of 64*j rows is j instructions, each
# reading its own 64 rows of A and all of the tile's B from shared memory (PTX ISA, wgmma.mma_async).
WGMMA_ROWS = 64
# The most rows one instruction multiplies against the B it reads from shared memory, by tile
# granularity: wgmma 64; tcgen05 128 (M = 128, cta_group::1); tcgen05's pair 256 across two SMs, each
# SM's shared memory holding 128 rows of A and half of B, so per SM it reads as a 256-row tile would.
ROWS_PER_B_READ = {"warpgroup": WGMMA_ROWS, "cta": 128, "cta pair": 256}


def register_tile_reuse(granularity: str, rm: float, rn: float) -> float:
    """Reuse of a register-level tile from the level that feeds it: 2*rm*rn/(rm+rn), with rm
    capped at the rows one instruction covers (ROWS_PER_B_READ: wgmma and tcgen05 read their operands
    from shared memory per instruction). Per SM for tcgen05's pair: 2*128*N/(128 + N/2) = reuse(256, N)."""
    return tile_reuse(min(rm, ROWS_PER_B_READ.get(granularity, rm)), rn)


def register_tile_read_bytes(fmas: float, granularity: str, rm: float, rn: float, element_bytes: int) -> float:
    """Operand bytes read into the register-level tiles for the whole GEMM: FMAs x (1/rm + 1/rn) x
    bytes, rm capped as in register_tile_reuse."""
    rows = min(rm, ROWS_PER_B_READ.get(granularity, rm))
    return fmas * (1 / rows + 1 / rn) * element_bytes


def tile_intensity_flop_per_byte(bm: float, bn: float, element_bytes: float) -> float:
    """FLOP per operand byte moved into a BM x BN tile: 2*BM*BN*K / ((BM+BN)*K*bytes).

    For fp16 this is BM*BN/(BM+BN), seed 004's formula (256x128 -> 85.3 FLOP/B).
    """
    return tile_reuse(bm, bn) / element_bytes


def smallest_pow2_square(reuse: float) -> int:
    """Smallest power-of-two edge T with T >= reuse (a square tile's reuse is its edge)."""
    return 2 ** max(0, math.ceil(math.log2(max(reuse, 1.0)) - 1e-12))


def balanced_pow2_rectangles(reuse: float, max_edge: int = 2048, limit: int = 3) -> list[tuple[int, int]]:
    """The smallest-area power-of-two tiles BM <= BN whose reuse reaches ``reuse``.

    Ordered by area, then by how square they are. For reuse 39 (seed 000) this gives 32x64
    (reuse 42.7, area 2048) before the 64x64 square (area 4096).
    """
    found: list[tuple[int, int, int]] = []
    for bm in POW2_EDGES:
        for bn in POW2_EDGES:
            if bm <= bn <= max_edge and tile_reuse(bm, bn) >= reuse - 1e-9:
                found.append((bm * bn, bn // bm, bm))
    found.sort()
    out: list[tuple[int, int]] = []
    for area, _ratio, bm in found:
        if len(out) == limit or (out and area > 2 * out[0][0] * out[0][1]):
            break
        out.append((bm, area // bm))
    return out


def smem_tile_bytes(bm: int, bn: int, bk: int, element_bytes: int, stages: int) -> int:
    """Shared memory of a pipelined CTA tile: (BM+BN) * BK * bytes * stages (seed 004, K dim)."""
    return (bm + bn) * bk * element_bytes * stages


def default_bk(element_bytes: int) -> int:
    """BK covering one 128-byte row of K (32 fp32, 64 fp16, 128 fp8): the TMA/cp.async swizzle width."""
    return max(1, 128 // element_bytes)


@dataclass(frozen=True)
class RegisterTileCost:
    """Registers per thread for one register-level tile (accumulators + one k-step of operands)."""

    accumulators: float
    fragments: float
    threads: int

    @property
    def per_thread(self) -> float:
        return self.accumulators + self.fragments


def register_tile_cost(
    granularity: str, rm: int, rn: int, element_bytes: int, acc_regs: float, k_step: int
) -> RegisterTileCost:
    """Registers per thread that hold an rm x rn register-level tile.

    thread (FFMA, seed 000 §5.1.2): rm*rn accumulators + rm + rn operand registers, 1 thread.
    warp (mma.sync, seed 004): rm*rn/32 accumulators + (rm+rn)*k*bytes/(4*32) operand registers.
    warpgroup (wgmma): rm*rn/128 accumulators; operands stay in shared memory.
    cta, cta pair (tcgen05): none; the accumulators are in tensor memory, the operands in shared memory.
    Address and loop registers are not counted.
    """
    from roofmodel.model.footprint import UNIT_THREADS, tile_registers

    family = {"thread": 0, "warp": 1, "warpgroup": 2, "cta": 3, "cta pair": 4, "wavefront": 5}.get(granularity)
    if family is None:
        raise ValueError(f"unknown tile granularity {granularity!r}")
    acc, operands = tile_registers(family, rm, rn, element_bytes, acc_regs, k_step)
    return RegisterTileCost(acc, operands, UNIT_THREADS[family])


def cta_tile_traffic_bytes(m: int, n: int, k: int, bm: int, bn: int, input_bytes: int, output_bytes: int) -> int:
    """Bytes a CTA-tiled GEMM moves from the level above shared memory, with no reuse across CTAs.

    Each of the ceil(M/BM) x ceil(N/BN) CTAs reads a BM x K panel of A and a K x BN panel of B,
    so A is read ceil(N/BN) times and B ceil(M/BM) times; C is written once:
    M*K*bytes*ceil(N/BN) + K*N*bytes*ceil(M/BM) + M*N*output bytes.
    """
    return m * k * input_bytes * math.ceil(n / bn) + k * n * input_bytes * math.ceil(m / bm) + m * n * output_bytes
