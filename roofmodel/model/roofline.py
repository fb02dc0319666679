"""Roofline formulas: classic (seed 003) and hierarchical (one roof per memory level).

Units: intensities in FLOP/byte, bandwidths in bytes/s, throughputs in FLOP/s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from roofmodel.results import Result


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
