"""The stage hierarchy: the path operands take from DRAM to the compute pipe, and what each
stage must deliver (seed 000 §3-4).

Levels, outermost first: DRAM -> (a last-level cache, where the machine file has one: AMD's
Infinity Cache) -> L2 -> shared memory -> registers -> compute pipe. An instruction
that reads its operands from shared memory (Hopper wgmma) ends the path at shared memory. Each
stage is named by the level it reads from and the level it feeds; its bandwidth is the source
level's read bandwidth, in bytes/cycle/SM. Every stage must deliver the pipe's operand demand,
so its required global reuse is demand / bandwidth (seed 000 §5.1.1: 512 / 13.3 = 39).
"""

from __future__ import annotations

from dataclasses import dataclass

from roofmodel import units
from roofmodel.errors import ProblemError
from roofmodel.machine import Bandwidth, Instruction, Machine, Source

LEVELS: tuple[str, ...] = ("dram", "llc", "l2", "smem", "rf")
LEVEL_LABELS = {"dram": "DRAM", "llc": "LLC", "l2": "L2", "smem": "smem", "rf": "RF", "core": "core"}


def machine_levels(machine: Machine) -> tuple[str, ...]:
    """The levels this machine file describes, outermost first (LEVELS less a missing last-level cache)."""
    return tuple(lv for lv in LEVELS if lv != "llc" or machine.memory.llc is not None)


OPERANDS_PER_FMA = 2


def operand_demand_bytes_per_cycle_per_sm(fma_per_cycle_per_sm: float, element_bytes: int) -> float:
    """Bytes/cycle/SM of operands the pipe consumes: FMA/cycle x 2 operands x bytes.

    seed 000 §3: A100 FP32, 64 FMA x 2 x 4 B = 512 B/cycle.
    """
    return fma_per_cycle_per_sm * OPERANDS_PER_FMA * element_bytes


def required_reuse(demand_bytes_per_cycle: float, bandwidth_bytes_per_cycle: float) -> float:
    """Global reuse factor a stage needs: demand / bandwidth (seed 000 §5.1.1)."""
    return demand_bytes_per_cycle / bandwidth_bytes_per_cycle


def operand_path(instruction: Instruction, levels: list[str] | None, machine: Machine | None = None) -> tuple[str, ...]:
    """The memory levels operands pass through for this instruction, optionally reduced.

    ``levels`` may drop levels the data path skips in a simplified model, such as L2 in seed
    000's DRAM -> smem -> RF machine; it must keep DRAM and the level the instruction reads from.
    """
    have = machine_levels(machine) if machine is not None else tuple(lv for lv in LEVELS if lv != "llc")
    full = have[: have.index(instruction.operands_from) + 1]
    if levels is None:
        return full
    chosen = [lv.strip().lower() for lv in levels if lv.strip()]
    for lv in chosen:
        if lv not in have:
            raise ProblemError(f"--levels: unknown level {lv!r} (levels of this machine: {', '.join(have)})")
        if lv not in full:
            raise ProblemError(
                f"--levels: {lv!r} is not on the operand path of {instruction.family} "
                f"(its operands are read from {instruction.operands_from})"
            )
    if len(set(chosen)) != len(chosen):
        raise ProblemError(f"--levels: a level is repeated ({','.join(chosen)})")
    for needed in ("dram", instruction.operands_from):
        if needed not in chosen:
            raise ProblemError(f"--levels: must include {needed!r} (got {','.join(chosen)})")
    if "llc" in chosen and "l2" not in chosen:
        raise ProblemError(
            f"--levels: the last-level cache caches DRAM for the L2s: keep 'l2' with 'llc' (got {','.join(chosen)})"
        )
    return tuple(lv for lv in full if lv in chosen)


@dataclass(frozen=True)
class LevelBandwidth:
    """A level's read bandwidth, with the machine-file quantity it came from (None: assumed)."""

    level: str
    bytes_per_cycle_per_sm: float
    gb_per_s: float
    quantity: Bandwidth | None
    field: str | None


def level_bandwidth(
    machine: Machine, level: str, preferred: Source, clock_hz: float, field: str = "bandwidth"
) -> LevelBandwidth | None:
    """The read bandwidth of a level in bytes/cycle/SM at clock_hz (``memory.<level>.<field>``), or
    None if the file has none."""
    rated = getattr(getattr(machine.memory, level), field)
    if rated is None:
        return None
    q = rated.pick(preferred)
    sms = machine.sm_count.n
    per_sm = units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock_hz)
    return LevelBandwidth(
        level=level,
        bytes_per_cycle_per_sm=per_sm,
        gb_per_s=units.bytes_per_cycle_per_sm_to_gb_per_s(per_sm, sms, clock_hz),
        quantity=q,
        field=f"memory.{level}.{field}.{q.kind}",
    )


def stage_bandwidth(machine: Machine, level: str, preferred: Source, clock_hz: float) -> LevelBandwidth | None:
    """The rate a GEMM's stage out of ``level`` reaches: the L2's at memory.l2.gemm_bandwidth where the
    file has it (the requests of L2-bound GEMMs over their time: the H100's 8,980 GB/s, where the
    distinct-read probe gives 7,010 and a 64x32x64 fp16 kernel runs at 191.5 TFLOPS, which 7,010 would
    cap at 150), else the level's bandwidth."""
    if level == "l2":
        gemm = level_bandwidth(machine, level, preferred, clock_hz, "gemm_bandwidth")
        if gemm is not None:
            return gemm
    return level_bandwidth(machine, level, preferred, clock_hz)
