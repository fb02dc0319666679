"""The cross-SM half of the budget: cluster multicast, rasterization, occupancy and waves."""

from __future__ import annotations

import math
from dataclasses import dataclass

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.latency import LatencyHiding, latency_hiding
from roofmodel.model.occupancy import Occupancy, Waves, occupancy, waves
from roofmodel.model.problem import Gemm
from roofmodel.model.rasterization import RasterOrder, RasterTraffic, machine_traffic, order_traffic
from roofmodel.model.tiling import cta_tile_traffic_bytes
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
    l2_partitions: int = 1
    llc_read_bytes: float | None = None  # what the L2 (slices) read from a last-level cache, where one is

    dram_write_bytes: float
    compulsory_read_bytes: float
    raster: RasterTraffic
    occupancy: Occupancy
    waves: Waves
    latency: LatencyHiding


@dataclass(frozen=True)
class CrossSmTraffic:
    """The traffic of the whole GEMM once occupancy, the cluster and the raster order are known:
    ``cross_sm`` as reported, the raster model's ``traffic``, the bytes C writes, and the reuse
    factors the stages achieve (FLOP-operand bytes 2 x M x N x K x element bytes over each level's bytes)."""

    cross_sm: CrossSm
    traffic: RasterTraffic
    c_bytes: float
    in_sm_reuse: float
    smem_fill_reuse: float
    dram_reuse: float
    l2_fill_reuse: float  # operand bytes / what the L2 reads from the level above (DRAM or the LLC)
    dram_traffic: RasterTraffic | None = None  # a last-level cache's reads from DRAM, where there is one

    def fill_reuse(self) -> dict[str, float]:
        """The reuse each stage into a level achieves, by destination level."""
        out = {"smem": self.smem_fill_reuse, "l2": self.l2_fill_reuse}
        if self.dram_traffic is not None:
            out["llc"] = self.dram_reuse
        return out


def cross_sm_traffic(
    machine: Machine,
    gemm: Gemm,
    cta: tuple[int, int],
    bk: int,
    stages: int,
    path: tuple[str, ...],
    threads: int,
    registers_per_thread: int,
    smem_bytes: int,
    cluster: tuple[int, int],
    order: RasterOrder,
    fill_demand: float,
    clock_hz: float,
    tmem_columns: int = 0,
) -> CrossSmTraffic:
    """Occupancy (CTAs per SM from threads, registers and shared memory), the clusters that run at
    once, the raster model's DRAM and L2 traffic for the order (an L2-less path reads every request
    from DRAM), waves, and Little's law for the shared-memory fill at ``fill_demand`` bytes/cycle/SM
    over the in-SM and cluster reuse.

    Reuse factors: in-SM = operand bytes / CTA requests without sharing; smem fill = operand bytes /
    requests after multicast; DRAM = operand bytes / DRAM reads (x L2 sharing)."""
    sms = machine.sm_count.n
    b = gemm.input_bytes
    occ = occupancy(machine, threads, registers_per_thread, smem_bytes, tmem_columns)
    if occ.ctas_per_sm < 1:
        raise ProblemError(f"the CTA ({threads} threads, {registers_per_thread} registers each) does not fit one SM")
    cm, cn = cluster
    concurrent_clusters = sms * occ.ctas_per_sm // (cm * cn)
    if concurrent_clusters < 1:
        raise ProblemError(f"--cluster {cm}x{cn}: more CTAs than the chip runs at once")
    grid = dict(m=gemm.m, n=gemm.n, k=gemm.k, bm=cm * cta[0], bn=cn * cta[1], input_bytes=b,
                output_bytes=gemm.output_bytes)  # fmt: skip
    if "l2" in path:
        traffic, dram_traffic = machine_traffic(machine, order, concurrent=concurrent_clusters, **grid)
    else:
        l2_bytes = machine.memory.l2.capacity.bytes
        traffic = order_traffic(order, concurrent=concurrent_clusters, l2_bytes=l2_bytes, **grid)  # type: ignore[arg-type]
        dram_traffic = None
    if "llc" not in path:
        dram_traffic = None
    if "l2" not in path:
        # No L2 in this model of the machine: nothing is shared through it, every request is a DRAM read.
        traffic = traffic.model_copy(
            update={
                "dram_read_bytes": traffic.requested_bytes,
                "a_dram_read_bytes": traffic.a_requested_bytes,
                "sharing_factor": 1.0,
                "cache_assumption": "no L2 level in this analysis: every CTA request is read from DRAM",
            }
        )
    operand_bytes = 2.0 * gemm.fmas * b
    c_bytes = float(gemm.m * gemm.n * gemm.output_bytes)
    cta_requests = cta_tile_traffic_bytes(gemm.m, gemm.n, gemm.k, cta[0], cta[1], b, gemm.output_bytes) - c_bytes
    in_sm_reuse = operand_bytes / cta_requests
    smem_fill_reuse = operand_bytes / traffic.requested_bytes  # in-SM x cluster multicast
    l2_fill_reuse = operand_bytes / traffic.dram_read_bytes  # ... x L2 sharing between CTAs
    dram = dram_traffic or traffic
    dram_reuse = operand_bytes / dram.dram_read_bytes  # ... x sharing in the last-level cache, where one is
    latency = latency_hiding(
        machine, fill_demand / smem_fill_reuse, traffic, cta, bk, b, stages, occ.ctas_per_sm, clock_hz
    )
    report = CrossSm(
        cluster=(cm, cn),
        multicast_factor=cta_requests / traffic.requested_bytes,
        raster_order=order.label,
        l2_sharing_factor=traffic.requested_bytes / traffic.dram_read_bytes,
        in_sm_reuse=in_sm_reuse,
        dram_reuse=dram_reuse,
        dram_read_bytes=dram.dram_read_bytes,
        l2_partitions=machine.l2_partitions,
        llc_read_bytes=traffic.dram_read_bytes if dram_traffic is not None else None,
        dram_write_bytes=traffic.dram_write_bytes,
        compulsory_read_bytes=traffic.compulsory_read_bytes,
        raster=traffic,
        occupancy=occ,
        waves=waves(math.ceil(gemm.m / cta[0]) * math.ceil(gemm.n / cta[1]), sms, occ.ctas_per_sm),
        latency=latency,
    )
    return CrossSmTraffic(report, traffic, c_bytes, in_sm_reuse, smem_fill_reuse, dram_reuse, l2_fill_reuse,
                          dram_traffic)  # fmt: skip
