"""The register-level and CTA tiles: candidates, what each needs of an SM, and the choice."""

from __future__ import annotations

from pydantic import Field

from roofmodel.results import Input, Result


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
