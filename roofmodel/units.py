"""Every unit conversion in roofmodel lives here.

The model works per SM per cycle (bytes/cycle/SM, FMA/cycle/SM) because that is where the
bandwidth-amplification argument is made (seed 000 §2: "a per-SM slice of the GPU").
Chip-wide figures (GB/s, TFLOPS) are derived by multiplying by the SM count and the clock.
Decimal prefixes for rates (1 GB/s = 1e9 B/s, 1 TFLOPS = 1e12 FLOP/s, as datasheets use),
binary prefixes for capacities (KiB, MiB, GiB).
"""

from __future__ import annotations

BANDWIDTH_UNITS = ("GB/s", "TB/s", "B/cycle/SM", "B/cycle")
RATE_UNITS = ("FMA/cycle/SM", "FLOP/cycle/SM", "TFLOPS", "GFLOPS")
CAPACITY_UNITS = ("B", "KiB", "MiB", "GiB")
LATENCY_UNITS = ("cycles", "ns")
CLOCK_UNITS = ("MHz", "GHz")

_CAPACITY_BYTES = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
_CLOCK_HZ = {"MHz": 1e6, "GHz": 1e9}
FLOP_PER_FMA = 2


def clock_hz(value: float, unit: str) -> float:
    """Clock in Hz from MHz or GHz."""
    return value * _CLOCK_HZ[unit]


def capacity_bytes(value: float, unit: str) -> float:
    """Capacity in bytes from B, KiB, MiB or GiB (binary prefixes)."""
    return value * _CAPACITY_BYTES[unit]


def gb_per_s_to_bytes_per_cycle_per_sm(gb_per_s: float, sm_count: int, clock: float) -> float:
    """Chip bandwidth (GB/s, 1e9 B/s) shared by all SMs -> bytes/cycle/SM at clock (Hz).

    seed 000 §2: 2039 GB/s / (108 SMs x 1.41 GHz) = 13.39 B/cycle/SM (the seed rounds to 13.3).
    """
    return gb_per_s * 1e9 / (sm_count * clock)


def bytes_per_cycle_per_sm_to_gb_per_s(b_per_cycle_per_sm: float, sm_count: int, clock: float) -> float:
    """Inverse of gb_per_s_to_bytes_per_cycle_per_sm: bytes/cycle/SM -> chip GB/s."""
    return b_per_cycle_per_sm * sm_count * clock / 1e9


def bandwidth_bytes_per_cycle_per_sm(value: float, unit: str, sm_count: int, clock: float) -> float:
    """A bandwidth in any of BANDWIDTH_UNITS -> bytes/cycle/SM at clock (Hz).

    'B/cycle' is a chip-wide figure per cycle (the A100 whitepaper's 5120 B/clk L2 read
    bandwidth), shared by all SMs.
    """
    if unit == "B/cycle/SM":
        return value
    if unit == "B/cycle":
        return value / sm_count
    if unit == "GB/s":
        return gb_per_s_to_bytes_per_cycle_per_sm(value, sm_count, clock)
    if unit == "TB/s":
        return gb_per_s_to_bytes_per_cycle_per_sm(value * 1e3, sm_count, clock)
    raise ValueError(f"unknown bandwidth unit {unit!r}")


def fma_per_cycle_per_sm_to_tflops(fma: float, sm_count: int, clock: float) -> float:
    """FMA/cycle/SM -> chip TFLOPS (2 FLOP per FMA). seed 001: 128 FMA x 132 x 1.98 GHz = 66.9."""
    return fma * FLOP_PER_FMA * sm_count * clock / 1e12


def tflops_to_fma_per_cycle_per_sm(tflops: float, sm_count: int, clock: float) -> float:
    """Chip TFLOPS -> FMA/cycle/SM at clock (Hz); inverse of fma_per_cycle_per_sm_to_tflops."""
    return tflops * 1e12 / (FLOP_PER_FMA * sm_count * clock)


def rate_fma_per_cycle_per_sm(value: float, unit: str, sm_count: int, clock: float) -> float:
    """A compute rate in any of RATE_UNITS -> FMA/cycle/SM at clock (Hz)."""
    if unit == "FMA/cycle/SM":
        return value
    if unit == "FLOP/cycle/SM":
        return value / FLOP_PER_FMA
    if unit == "TFLOPS":
        return tflops_to_fma_per_cycle_per_sm(value, sm_count, clock)
    if unit == "GFLOPS":
        return tflops_to_fma_per_cycle_per_sm(value / 1e3, sm_count, clock)
    raise ValueError(f"unknown rate unit {unit!r}")


def latency_cycles(value: float, unit: str, clock: float) -> float:
    """Latency in cycles from cycles or ns at clock (Hz). seed 001: 288.1 ns x 1.98 GHz = 570 cycles."""
    if unit == "cycles":
        return value
    if unit == "ns":
        return value * 1e-9 * clock
    raise ValueError(f"unknown latency unit {unit!r}")
