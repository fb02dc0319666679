"""Latency hiding by Little's law (seed 001): bytes in flight = bandwidth x latency.

Seed 000 puts throughput first: latency = static latency + tile / bandwidth, and a stage only
keeps up if enough bytes are in flight to cover the static part. Units: bytes/cycle/SM and
cycles, or GB/s and ns (1 GB/s x 1 ns = 1 byte).
"""

from __future__ import annotations

import math
from typing import Any

from roofmodel.machine import Machine
from roofmodel.model.rasterization import RasterTraffic
from roofmodel.results import Result
from roofmodel.units import latency_cycles


def bytes_in_flight(bandwidth_bytes_per_cycle: float, latency_cycles: float) -> float:
    """Little's law: bytes that must be outstanding to sustain a bandwidth over a latency."""
    return bandwidth_bytes_per_cycle * latency_cycles


def sms_to_saturate(chip_gb_per_s: float, latency_ns: float, per_sm_bytes_in_flight: float) -> float:
    """SMs needed when each keeps per_sm_bytes_in_flight outstanding: BW x latency / per-SM bytes.

    seed 001: one SM reaches 66.7 GB/s (66.7 x 288.1 ns = 19.2 KB in flight); 1992 GB/s needs
    1992 x 288.1 / 19,217 = 29.9 SMs at the unloaded latency.
    """
    return chip_gb_per_s * latency_ns / per_sm_bytes_in_flight


def implied_latency_ns(chip_gb_per_s: float, sms: int, per_sm_bytes_in_flight: float) -> float:
    """The latency that makes Little's law fit a measurement: SMs x bytes in flight / bandwidth."""
    return sms * per_sm_bytes_in_flight / chip_gb_per_s


def pipeline_stages_needed(
    bandwidth_bytes_per_cycle_per_sm: float, latency_cycles: float, stage_bytes: float, ctas_per_sm: int = 1
) -> int:
    """Stages a CTA's shared-memory pipeline needs: one being computed on, plus enough loads in
    flight to cover bandwidth x latency (its share when ctas_per_sm CTAs share the SM).
    """
    per_cta = bytes_in_flight(bandwidth_bytes_per_cycle_per_sm, latency_cycles) / ctas_per_sm
    return 1 + max(1, math.ceil(per_cta / stage_bytes))


def l2_hit_rate(dram_read_bytes: Any, requested_bytes: Any) -> Any:
    """The L2 hit rate of the CTAs' requests: 1 - DRAM reads / requested bytes (the raster model's). Numbers or numpy
    arrays."""
    return 1.0 - dram_read_bytes / requested_bytes


def mean_latency_cycles(dram_read_bytes: Any, requested_bytes: Any, l2_cycles: float, dram_cycles: float) -> Any:
    """Mean latency of a CTA's tile loads: hit x L2 latency + (1 - hit) x DRAM latency, with the L2
    hit rate l2_hit_rate from the raster model. Numbers or numpy arrays."""
    hit = l2_hit_rate(dram_read_bytes, requested_bytes)
    return hit * l2_cycles + (1 - hit) * dram_cycles


class LatencyHiding(Result):
    """Little's law for the shared-memory fill (seed 001): bytes in flight = rate x latency."""

    l2_hit_rate: float
    mean_latency_cycles: float
    latency_known: bool
    fill_bytes_per_cycle_per_sm: float
    bytes_in_flight_per_sm: float
    stage_bytes: int
    stages_needed: int
    stages_given: int


def latency_hiding(
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
    hit = l2_hit_rate(traffic.dram_read_bytes, traffic.requested_bytes)
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
