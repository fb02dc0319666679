"""Roofline formulas: classic (seed 003) and hierarchical (one roof per memory level).

Units: intensities in FLOP/byte, bandwidths in bytes/s, throughputs in FLOP/s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from roofmodel import units
from roofmodel.model.hierarchy import LEVEL_LABELS, level_bandwidth
from roofmodel.model.tiling import register_tile_read_bytes
from roofmodel.results import Result

if TYPE_CHECKING:
    from roofmodel.machine import Machine, Source
    from roofmodel.model.problem import Gemm
    from roofmodel.model.rasterization import RasterTraffic
    from roofmodel.model.stages import StageNeed
    from roofmodel.model.tile_choice import TileChoice


def attainable(intensity_flop_per_byte: float, bandwidth_bytes_per_s: float, peak_flop_per_s: float) -> float:
    """min(I * beta, tau): seed 003's roofline, seed 004's T_max = min(beta * I, tau)."""
    return min(peak_flop_per_s, intensity_flop_per_byte * bandwidth_bytes_per_s)


def balance_point(peak_flop_per_s: float, bandwidth_bytes_per_s: float) -> float:
    """The ridge point I* = tau / beta in FLOP/byte (seed 004: 49,439 GFLOP/s / 220 GB/s = 224.7)."""
    return peak_flop_per_s / bandwidth_bytes_per_s


def hierarchical_attainable(peak_flop_per_s: float, roofs: Iterable[tuple[float, float]]) -> float:
    """min(tau, min over levels of I_level * beta_level): every level's traffic must flow in time."""
    return min([peak_flop_per_s, *(i * b for i, b in roofs)])


def arithmetic_blend_bandwidth(l2_hit_rate: float, l2_bytes_per_s: float, dram_bytes_per_s: float) -> float:
    """Seed 004's achieved bandwidth: h * beta_L2 + (1 - h) * beta_DRAM (a weighted sum).

    Kept to reproduce the seed; the model itself uses harmonic_blend_bandwidth, because hits and
    misses take time in proportion to their bytes, not their bandwidths.
    """
    _check_rate(l2_hit_rate)
    return l2_hit_rate * l2_bytes_per_s + (1 - l2_hit_rate) * dram_bytes_per_s


def harmonic_blend_bandwidth(l2_hit_rate: float, l2_bytes_per_s: float, dram_bytes_per_s: float) -> float:
    """Effective bandwidth when a fraction h of bytes hits L2: 1 / (h / beta_L2 + (1 - h) / beta_DRAM).

    Time to move one byte is h/beta_L2 + (1-h)/beta_DRAM; its inverse is the bandwidth.
    """
    _check_rate(l2_hit_rate)
    return 1.0 / (l2_hit_rate / l2_bytes_per_s + (1 - l2_hit_rate) / dram_bytes_per_s)


def _check_rate(h: float) -> None:
    if not 0.0 <= h <= 1.0:
        raise ValueError(f"l2_hit_rate must be within [0, 1] (got {h})")


class LevelRoof(Result):
    level: str
    traffic_bytes: float
    traffic_basis: str
    intensity_flop_per_byte: float
    bandwidth_gb_per_s: float
    balance_flop_per_byte: float
    bound_tflops: float
    verdict: Literal["compute-bound", "memory-bound"]
    bandwidth_assumed: bool = False  # no figure in the machine file: taken to match the pipe's demand


def level_roofs(
    machine: Machine,
    gemm: Gemm,
    needs: list[StageNeed],
    tiles: TileChoice,
    granularity: str,
    traffic: RasterTraffic,
    raster_label: str,
    cluster: tuple[int, int],
    bandwidth: Source,
    peak_flops: float,
    clock_hz: float,
    dram_traffic: RasterTraffic | None = None,
) -> list[LevelRoof]:
    """One roof per memory level from that level's traffic for the whole GEMM (hierarchical roofline):
    DRAM reads (raster model) + C; CTA requests (over multicast) + C; register-tile reads; every
    operand read per FMA. Intensity = FLOP / bytes; bound = min(intensity x bandwidth, peak).

    The L2 roof's bandwidth blends the L2 rate with the same-address rate, where the file has one,
    for the requests one wave's CTAs repeat: the rate that moves this traffic in the same time (the
    probes' ceilings, where the amplification budget's stage takes memory.l2.gemm_bandwidth)."""
    sms = machine.sm_count.n
    c_bytes = float(gemm.m * gemm.n * gemm.output_bytes)
    cta, reg = tiles.cta, tiles.register_tile
    cm, cn = cluster
    roofs = []
    for s in needs:
        if s.dst == "llc":
            assert dram_traffic is not None
            level_bytes = dram_traffic.dram_read_bytes + c_bytes
            basis = f"DRAM reads through the last-level cache for raster order {raster_label} + C written once"
        elif s.dst == "l2":
            level_bytes = traffic.dram_read_bytes + c_bytes
            above = "LLC" if s.src == "llc" else "DRAM"
            basis = f"{above} reads for raster order {raster_label} (see cross_sm.raster) + C written once"
        elif s.dst == "smem":
            level_bytes = traffic.requested_bytes + c_bytes
            basis = f"CTA tile {cta[0]}x{cta[1]} requests" + (f" over {cm}x{cn} multicast" if cm * cn > 1 else "")
            basis += " + C written once"
        elif s.feeds_register_tile:
            level_bytes = register_tile_read_bytes(gemm.fmas, granularity, *reg, gemm.input_bytes)
            basis = f"{granularity} tile {reg[0]}x{reg[1]}"
        else:
            level_bytes, basis = 2.0 * gemm.fmas * gemm.input_bytes, "every operand read from registers for each FMA"
        bw_bps = units.bytes_per_cycle_per_sm_to_gb_per_s(s.bytes_per_cycle_per_sm, sms, clock_hz) * 1e9
        if s.src == "l2":  # the roof is a ceiling: the L2 probes' rates, not the GEMM rate the budget takes
            probe = level_bandwidth(machine, "l2", bandwidth, clock_hz)
            if probe is not None:
                bw_bps = probe.gb_per_s * 1e9
        shared_l2 = machine.memory.l2.shared_read_bandwidth
        if s.src == "l2" and s.dst == "smem" and shared_l2 is not None:
            q = shared_l2.pick(bandwidth)
            shared_bps = units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock_hz) * sms * clock_hz
            repeated = max(0.0, traffic.requested_bytes - traffic.wave_distinct_bytes)
            seconds = (level_bytes - repeated) / bw_bps + repeated / max(shared_bps, bw_bps)
            bw_bps = level_bytes / seconds
            basis += f"; repeated same-wave requests ({repeated / 2**20:,.0f} MiB) at the same-address rate"
        intensity = gemm.flops / level_bytes
        balance = balance_point(peak_flops, bw_bps)
        roofs.append(
            LevelRoof(
                level=LEVEL_LABELS[s.src],
                traffic_bytes=level_bytes,
                traffic_basis=basis,
                intensity_flop_per_byte=intensity,
                bandwidth_gb_per_s=bw_bps / 1e9,
                balance_flop_per_byte=balance,
                bound_tflops=attainable(intensity, bw_bps, peak_flops) / 1e12,
                verdict="compute-bound" if intensity >= balance else "memory-bound",
                bandwidth_assumed=s.bandwidth is None,
            )
        )
    return roofs
