"""Occupancy (seed 003) and waves: how many CTAs an SM holds, and how the tiles fill the chip.

CTAs per SM = min over the limits: blocks per SM; threads; warps; registers (allocated per warp
in units of the allocation granularity); shared memory (per block, plus the part the system
reserves). Occupancy = resident warps / the SM's warp limit (seed 003: a 32-warp block on a
64-warp SM, with nothing else fitting, is 50%).
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.footprint import cta_limits


class Occupancy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    threads_per_block: int
    registers_per_thread: int
    smem_per_block: int
    ctas_per_sm: int
    warps_per_sm: int
    occupancy: float
    limiter: str
    limits: dict[str, int]


def occupancy(
    machine: Machine, threads_per_block: int, registers_per_thread: int, smem_per_block: int, tmem_columns: int = 0
) -> Occupancy:
    """CTAs per SM and the resource that limits them (seed 003; the rule is footprint.cta_limits, tensor
    memory included where the CTA allocates ``tmem_columns``)."""
    lim = machine.limits
    if threads_per_block < 1 or threads_per_block > lim.max_threads_per_block.n:
        raise ProblemError(f"threads per block must be 1..{lim.max_threads_per_block.n} (got {threads_per_block})")
    if registers_per_thread < 1 or registers_per_thread > lim.max_registers_per_thread.n:
        raise ProblemError(
            f"registers per thread must be 1..{lim.max_registers_per_thread.n} (got {registers_per_thread})"
        )
    smem_block_limit = machine.memory.smem.max_per_block.bytes
    if smem_per_block < 0 or smem_per_block > smem_block_limit:
        raise ProblemError(f"shared memory per block must be 0..{smem_block_limit:.0f} B (got {smem_per_block})")
    warps = math.ceil(threads_per_block / machine.warp_size)
    limits = {
        k: int(v)
        for k, v in cta_limits(machine, threads_per_block, registers_per_thread, smem_per_block, tmem_columns).items()
    }
    ctas = min(limits.values())
    limiter = ", ".join(key for key, value in limits.items() if value == ctas)
    return Occupancy(
        threads_per_block=threads_per_block,
        registers_per_thread=registers_per_thread,
        smem_per_block=smem_per_block,
        ctas_per_sm=ctas,
        warps_per_sm=ctas * warps,
        occupancy=ctas * warps / lim.max_warps_per_sm.n,
        limiter=limiter,
        limits={k: min(v, 10**6) for k, v in limits.items()},
    )


class Waves(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    tiles: int
    concurrent: int
    waves: int
    last_wave_tiles: int
    last_wave_efficiency: float
    efficiency: float


def waves(tiles: int, sm_count: int, ctas_per_sm: int) -> Waves:
    """Tiles over SMs x CTAs per SM: the number of waves and the quantization loss.

    efficiency = tiles / (waves x concurrent): the fraction of CTA slots that do work. A
    persistent kernel striding by the number of SMs (seed 002 §3.1) runs the same waves; it saves
    launches and keeps the raster order, but does not remove the last wave's idle slots.
    """
    concurrent = sm_count * ctas_per_sm
    if tiles < 1 or concurrent < 1:
        raise ProblemError(f"waves need tiles >= 1 and CTAs per SM >= 1 (got {tiles}, {ctas_per_sm})")
    n = math.ceil(tiles / concurrent)
    last = tiles - (n - 1) * concurrent
    return Waves(
        tiles=tiles,
        concurrent=concurrent,
        waves=n,
        last_wave_tiles=last,
        last_wave_efficiency=last / concurrent,
        efficiency=tiles / (n * concurrent),
    )
