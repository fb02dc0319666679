"""The cross-SM half of the budget: cluster multicast, rasterization, occupancy and waves."""

from __future__ import annotations

from roofmodel.model.latency import LatencyHiding
from roofmodel.model.occupancy import Occupancy, Waves
from roofmodel.model.rasterization import RasterTraffic
from roofmodel.results import Result


class CrossSm(Result):
    """The cross-SM half of the budget: cluster multicast, rasterization, occupancy, waves."""

    cluster: tuple[int, int]
    multicast_factor: float
    raster_order: str
    l2_sharing_factor: float
    in_sm_reuse: float
    dram_reuse: float
    dram_read_bytes: float
    dram_write_bytes: float
    compulsory_read_bytes: float
    raster: RasterTraffic
    occupancy: Occupancy
    waves: Waves
    latency: LatencyHiding
