"""The stages operands flow through, outermost first (DRAM->L2 ... ->core), and what each must
amplify: required reuse = the pipe's demand / the level's bandwidth, both in bytes/cycle/SM (seed 000).
"""

from __future__ import annotations

from pydantic import Field

from roofmodel.model.tile_choice import CapacityCheck
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
