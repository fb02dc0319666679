"""The clock a figure is computed at: one rule for analyze, predict, tune and the plots.

Rates in a machine file are per cycle (FMA/cycle/SM, bytes/cycle/SM) or per second quoted at a
named clock; the clock chosen converts between them (units.py).
"""

from __future__ import annotations

import math
from typing import Any

from roofmodel import units
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.results import Input

CLOCK_CHOICES = "sustained, rated, boost or a number of MHz"


def check_accumulator(machine: Machine, dtype: str, accumulator: str | None) -> None:
    """Refuse an accumulator the machine's pipe does not take (compute.<dtype>.accumulators)."""
    allowed = machine.pipe(dtype).accumulators
    if accumulator is not None and allowed is not None and accumulator not in allowed:
        raise ProblemError(f"--acc {accumulator}: {machine.name}'s {dtype} pipe accumulates in {' or '.join(allowed)}")


def fma_per_cycle_per_sm(machine: Machine, dtype: str, instruction: Any, quantity: Any, clock_hz: float) -> float:
    """A pipe's rate as FMA/cycle/SM. A datasheet peak quoted per second (TFLOPS) is a rate per cycle at
    the clock it is quoted at (the instruction's or pipe's rated_clock), so at another clock the peak
    scales, as it does for a rate the file gives per cycle; a measurement per second is taken at the
    clock chosen (its source names the clock it ran at)."""
    pipe = machine.pipe(dtype)
    rated = pipe.rated_clock_of(instruction)[0]
    per_second = quantity.unit in ("TFLOPS", "GFLOPS")
    at = rated.hz if per_second and quantity.kind == "spec" and rated is not None else clock_hz
    return units.rate_fma_per_cycle_per_sm(quantity.value, quantity.unit, machine.sm_count.n, at)


def resolve_clock(
    machine: Machine, dtype: str, clock: str | float | None, instruction: str | None = None
) -> tuple[float, str, Input | None]:
    """(MHz, origin, input) of the clock a prediction assumes: ``sustained`` (the file's measured
    clock under load), ``rated`` (the clock the datasheet rates the pipe at, else boost), ``boost``,
    or a number of MHz. None: sustained where the file has it, else rated."""
    c = machine.clocks
    if clock is None:
        clock = "sustained" if c.sustained is not None else "rated"
    if isinstance(clock, str) and clock.strip().lower() not in ("sustained", "rated", "boost"):
        try:
            clock = float(clock)
        except ValueError:
            raise ProblemError(f"--clock: expected {CLOCK_CHOICES} (got {clock!r})") from None
    if isinstance(clock, float | int):
        if not (math.isfinite(clock) and 0 < clock <= 10_000):
            raise ProblemError(f"--clock: a number of MHz, 0 < MHz <= 10,000 (got {clock:g})")
        return float(clock), "set with --clock", None
    key = clock.strip().lower()
    pipe = machine.pipe(dtype)
    rated, rated_field = pipe.rated_clock_of(pipe.instruction(instruction))
    if key == "sustained":
        if c.sustained is None:
            raise ProblemError(f"--clock sustained: {machine.name} has no clocks.sustained (run roofmodel calibrate)")
        q, field, origin = c.sustained, "clocks.sustained", "sustained clock under load (clocks.sustained)"
    elif key == "rated" and rated is not None:
        q, field = rated, f"compute.{dtype}.{rated_field}"
        origin = "the clock the datasheet rates this pipe at"
    else:
        q, field, origin = c.boost, "clocks.boost", "boost clock"
    return q.hz / 1e6, origin, machine.input_of(field, q)
