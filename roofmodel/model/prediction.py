"""Predicted time of one kernel configuration, every term named (issue 13: the per-CTA model).

``predict_kernel`` takes a kernel configuration (roofmodel.model.kernel: a preset's, the search's, or
one stated by its parts), what one CTA needs and how many an SM holds (roofmodel.model.footprint: the
compiled registers and spills where given, else the register rule), the raster model's DRAM and L2
traffic for its order and cluster, and the machine's rates (``machine_rates``: the instruction
family's rate, bandwidths, loaded latencies, kernel costs, at a named clock), and returns the
per-CTA model's total and terms (roofmodel.model.cta_model). ``kernel_seconds`` is the one formula:
numbers here, numpy arrays in the search (roofmodel.search.space), so they cannot drift apart.

No factor per configuration: the rates are the machine file's (``compute="measured"`` and a
calibrated overlay supply measured ceilings, each with its source), and the clock is named
(``clock``: the file's sustained clock where it has one, else the pipe's rated clock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from roofmodel import defaults, units
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine, Source, as_machine
from roofmodel.model import cta_model
from roofmodel.model.arrays import ceil_div as _ceil_div
from roofmodel.model.arrays import exp as _exp
from roofmodel.model.arrays import is_array
from roofmodel.model.arrays import logical_not as _not
from roofmodel.model.arrays import lowest_set_bit as _lowest_set_bit
from roofmodel.model.arrays import maximum as _maximum
from roofmodel.model.arrays import minimum as _minimum
from roofmodel.model.arrays import take as _take
from roofmodel.model.arrays import where as _where
from roofmodel.model.arrays import whole as _whole
from roofmodel.model.clock import check_accumulator, fma_per_cycle_per_sm, resolve_clock
from roofmodel.model.cta_model import CtaCosts, charged_spills, kernel_terms
from roofmodel.model.fma_layout import WAVEFRONT_BYTES, fma_read_wavefronts, triton_fma_layout
from roofmodel.model.footprint import (
    ACCUMULATOR_SPILL_PER_K_STEP,
    ACCUMULATOR_WAITS_PER_K_STEP,
    B_SHARE,
    COLLAPSED_REGISTERS,
    COLLAPSED_SPILL_FACTOR,
    POINTER_ALONE_TOLERANCE,
    POINTER_COLLAPSE,
    POINTER_SPILL_FACTOR,
    POINTER_SPILL_WAITS,
    SINGLE_FRAGMENT_BK,
    SINGLE_FRAGMENT_ROTATES_AT,
    SINGLE_FRAGMENT_STAGES_B_N,
    STACK_COLLAPSE,
    STACK_LOOP_FACTOR,
    STACK_WAITS,
    accumulator_fragment_registers,
    kernel_footprint,
    loop_as_counted,
    mma_sync_k_steps,
    past_limit_without_pointers,
    times_factor,
)
from roofmodel.model.hierarchy import level_bandwidth
from roofmodel.model.kernel import FAMILIES, KernelConfig, generic_config, register_tile_for
from roofmodel.model.latency import l2_hit_rate, mean_latency_cycles
from roofmodel.model.multicast import check_cluster, check_pair_cluster
from roofmodel.model.occupancy import occupancy
from roofmodel.model.problem import Gemm, Tile
from roofmodel.model.rasterization import RasterTraffic, drifting_rows_caveat, machine_traffic, parse_order
from roofmodel.model.tile_choice import instruction_k_step
from roofmodel.model.tiling import ROWS_PER_B_READ as TILE_ROWS_PER_B_READ
from roofmodel.results import JSON_SCHEMA_VERSION, CompiledCounts, Input


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    seconds: float
    detail: str


# What the measured sweeps say of a register gamble (footprint.py); tests/test_footprint.py holds it to them.
GAMBLE_NOTE = (
    "and most lose it (docs/model.md): "
    "of the 80 kernels of the H100's first three broad samples that the rule calls one, "
    "46 spilled as compiled (mma.sync 23 of 42, wgmma 17 of 30, FMA 6 of 8)"
)


# The register rules that spill more than the registers that do not fit (Prediction.spill_rule).
SpillRule = Literal[
    "k-major pointers",
    "k-major pointers past the collapse point",
    "m- or n-major pointers past the collapse point",
    "mma.sync accumulators",
    "mma.sync stack",
    "wgmma fragments in turns",
    "wgmma fragment resident",
]


class Prediction(BaseModel):
    """``roofmodel predict --json`` (with ``schema_version``; JSON Schema: docs/schema/prediction.schema.json).

    ``seconds`` is the per-CTA model's total (roofmodel.model.cta_model); ``terms`` name what it is made
    of, each as if it were alone (the SM's parts, the chip-wide DRAM, LLC, L2 and issued-copies terms, the launch),
    slowest first; ``limiter`` is prediction.limiter_of's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    seconds: float
    tflops: float
    limiter: str
    sm_seconds: float  # the busiest SM's time, launch excluded
    # The chip's memory time: DRAM and L2 combined by their q-norm, at least a last-level cache's term and the issued
    # copies' (cta_model.memory_seconds); ``seconds`` is the launch plus the p-norm of it and sm_seconds.
    memory_seconds: float
    memory_norm: float | None  # q (cta_model.MEMORY_NORM); None: infinity, the larger of DRAM and L2 alone
    # p (cta_model.OVERLAP_NORM, or ISSUED_OVERLAP_NORM for an mma.sync kernel); None: infinity, the larger alone
    overlap_norm: float | None = None
    terms: list[Term]  # ranked, slowest first
    clock_mhz: float
    clock_origin: str
    ctas_per_sm: int
    occupancy_limiter: str
    wave_efficiency: float  # tiles / (ceil(tiles / SMs) x SMs): the SM-level quantization
    instruction: str
    register_tile: tuple[int, int]
    warps: int
    registers_per_thread: int
    spilled_registers: int
    # Of those, the ones reloaded every main-loop iteration: all, but none of a Triton wgmma kernel's compiled
    # spills where its loop fits the allocation (footprint.kernel_footprint); the spills term charges an uncounted
    # Triton mma.sync kernel's cta_model.mma_sync_spill_reloads times each (not where the register rule charges its
    # spilled accumulators, or its loop on the stack, as a counted loop: footprint.loop_as_counted); where the compiled
    # loop's SASS was counted (loop_local_bytes), any family's local bytes / 8, rounded, and on the stack by the rule
    # STACK_LOOP_FACTOR x the registers past the 32, either of which can exceed spilled_registers (a spilled register
    # reloaded more than once an iteration, or 64-bit pointers reloaded in 32-bit halves).
    loop_spilled_registers: int
    # Times per iteration a warp waits on its own local reloads, each charged kernel_costs.spill_wait (the compiled
    # loop's, counted in its SASS; or the register rule's, spill_rule's), and the register rule that set the spills
    # beyond the registers that do not fit: "k-major pointers" (POINTER_SPILL_FACTOR x the pointer registers that do
    # not fit, spill_rule_excess), "k-major pointers past the collapse point" (the same factors on the whole excess;
    # "m- or n-major pointers past the collapse point" where every operand loaded one element at a time is M- or
    # N-major and the rest of the registers fits, since 4b60f34),
    # "mma.sync accumulators" (ACCUMULATOR_SPILL_PER_K_STEP per mma.sync step along K; spill_rule_excess the registers
    # past the limit), "mma.sync stack" (a kernel sent to 32 registers and the stack, STACK_LOOP_FACTOR and STACK_WAITS x
    # the registers past the 32, spill_rule_excess), "wgmma fragments in turns" (a wgmma kernel's whole accumulator
    # fragments for the registers past the limit, twice those that do not fit, up to all) and "wgmma fragment resident"
    # (one fragment of two kept resident, the other and the registers past the limit spilled: footprint.
    # fragments_take_turns), spill_rule_excess those registers; None where no such rule applied.
    loop_waits: float = 0.0
    spill_rule: SpillRule | None = None
    spill_rule_excess: int | None = None
    # Past the per-thread limit by the register rule only by element pointers it expects ptxas to recompute,
    # so none spilled by the rule (footprint's register gamble): tune and rank mark it.
    register_gamble: bool = False
    registers_origin: str
    # Where the kernel was compiled (predict --compile): the counts taken in place of the register rule's.
    compiled: CompiledCounts | None = None
    shared_bytes: int
    a_major: str
    b_major: str
    # Operands copied one element at a time (stride not a multiple of 16 elements), and those Triton
    # does not pipeline (the 16- and 8-bit ones of those, and an 8-bit operand wgmma cannot read as stored).
    narrow_operands: list[str] = []
    unpipelined_operands: list[str] = []
    # The raster model's L2 hit rate of the CTAs' requests (1 - DRAM reads / requested), and the one an unpipelined
    # load waits at: that of the operands loaded one element at a time (synchronous_hit_bytes); None where every
    # load is pipelined or the machine file has no latencies (no wait is charged at a hit rate).
    l2_hit_rate: float | None = None
    synchronous_l2_hit_rate: float | None = None
    persistent: bool
    kernel: str
    kernel_origin: str
    inputs: list[Input]


def l2_seconds(l2_bytes: Any, repeated_bytes: Any, l2_bps: float, same_address_bps: float | None) -> Any:
    """(L2 bytes - repeated) / L2 B/s + repeated / max(same-address B/s, L2 B/s): a wave's repeated
    requests for the same panels go at the same-address rate where the file has one."""
    same = l2_bps if same_address_bps is None else _maximum(same_address_bps, l2_bps)
    return (l2_bytes - repeated_bytes) / l2_bps + repeated_bytes / same


@dataclass(frozen=True)
class Rates:
    """The machine's rates a prediction uses, in base units, with the inputs they came from."""

    clock_hz: float
    clock_origin: str
    fma_per_cycle_per_sm: float
    fma_per_s_per_sm: float
    dram_bps: float
    l2_bps: float
    l2_same_address_bps: float | None
    smem_bps: float
    l2_latency_cycles: float | None
    dram_latency_cycles: float | None
    inputs: tuple[Input, ...]
    # FMA/s per SM of each instruction family of the pipe, at the same clock (the search ranks
    # configurations of several families at once).
    family_fma_per_s_per_sm: tuple[tuple[str, float], ...] = ()
    # The per-CTA model's: latencies under load (the unloaded ones where the file has none) and the
    # kernel's fixed costs (zero where the file has none).
    l2_loaded_latency_cycles: float | None = None
    dram_loaded_latency_cycles: float | None = None
    costs: CtaCosts = field(default_factory=CtaCosts)
    # A last-level cache between the L2 and DRAM (memory.llc): its read bandwidth; None without one.
    llc_bps: float | None = None
    # Spilled registers stored and reloaded (kernel_costs.spill_bandwidth), chip-wide B/s; None where
    # the file has no measurement (the shared-memory bandwidth stands in).
    spill_bps: float | None = None
    # The rate where few SMs spill (kernel_costs.spill_bandwidth_alone), B/s per SM; None where the file has none.
    spill_alone_bps_per_sm: float | None = None
    # The L2's rate for a GEMM's requests (memory.l2.gemm_bandwidth), chip-wide B/s; None where the file
    # has none (then l2_bps, and l2_same_address_bps for a wave's repeated requests).
    l2_gemm_bps: float | None = None
    # The most line requests the L2 serves per sector of its data rate (memory.l2.requests_per_sector); None where
    # the file has none (no request bound).
    l2_requests_per_sector: float | None = None
    # The line requests per second the path from DRAM serves (memory.dram.requests_per_sector x its measured rate /
    # 32 B); None where the file has none (no request bound on DRAM).
    dram_requests_per_s: float | None = None
    # Where spilled registers live (cta_model.spill_home): the L2's capacity and, with a last-level cache,
    # its capacity and latency (cycles; None where the file has none). None where unused.
    l2_capacity_bytes: float | None = None
    # The most bytes of frames reused in turn that the L2 serves without misses (memory.l2.reuse_capacity); None
    # where the file has none (misses 1 - capacity / frames).
    l2_reuse_bytes: float | None = None
    llc_capacity_bytes: float | None = None
    llc_latency_cycles: float | None = None

    # What a Triton kernel's FMA loop reaches (kernel_costs.fma_rate), FMA/s per SM; None where the file has none.
    triton_fma_per_s_per_sm: float | None = None

    def family_fma_per_s(self, family: str) -> float:
        return dict(self.family_fma_per_s_per_sm).get(family, self.fma_per_s_per_sm)

    def kernel_fma_per_s(self, family: str, compiler: str) -> float:
        """The family's rate for a kernel of ``compiler``: the pipe's, or for a Triton kernel's FMA loop the lesser
        of that and what such a loop reaches (kernel_costs.fma_rate)."""
        rate = self.family_fma_per_s(family)
        if family == "fma" and compiler == "triton" and self.triton_fma_per_s_per_sm is not None:
            return min(rate, self.triton_fma_per_s_per_sm)
        return rate

    @property
    def l2_stream_bps(self) -> float:
        """The L2's rate a stage streams in at (cta_model.stage_stream_cycles): the GEMM rate where the file
        has one, else the probe's (infinite where unpublished: no streaming time)."""
        return self.l2_gemm_bps or self.l2_bps

    @property
    def latency_known(self) -> bool:
        return self.l2_latency_cycles is not None and self.dram_latency_cycles is not None


def machine_rates(
    machine: Machine,
    dtype: str,
    *,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    instruction: str | None = None,
    accumulator: str | None = None,
) -> Rates:
    """The compute rate (of the instruction family: its own where the file gives one, for the
    accumulator type where the file's rate depends on it), bandwidths and latencies a prediction
    uses, at the resolved clock."""
    mhz, origin, clock_input = resolve_clock(machine, dtype, clock, instruction)
    clock_hz = mhz * 1e6
    sms = machine.sm_count.n
    pipe = machine.pipe(dtype)
    check_accumulator(machine, dtype, accumulator)
    rated, _, rate_field = pipe.rate_of(pipe.instruction(instruction), accumulator)
    rate_q = rated.pick(compute)
    fma = fma_per_cycle_per_sm(machine, dtype, pipe.instruction(instruction), rate_q, clock_hz)
    inputs = [machine.input_of(f"compute.{dtype}.{rate_field}.{rate_q.kind}", rate_q)]
    if clock_input is not None:
        inputs.append(clock_input)

    def bps(level: str, field: str = "bandwidth") -> float | None:
        """Chip-wide B/s of memory.<level>.<field>, recorded among the inputs; None where the file has none."""
        bw = level_bandwidth(machine, level, bandwidth, clock_hz, field)
        if bw is None:
            return None
        assert bw.quantity is not None and bw.field
        inputs.append(machine.input_of(bw.field, bw.quantity))
        return bw.gb_per_s * 1e9

    # An L2 bandwidth the vendor does not publish: no L2 term (the report says so).
    dram, l2, smem = bps("dram") or math.inf, bps("l2") or math.inf, bps("smem") or math.inf
    llc = (bps("llc") or math.inf) if machine.memory.llc is not None else None
    # The time model charges every L2 request at the GEMM rate where the file has one; only without it
    # does it read the same-address rate (for a wave's repeated requests).
    gemm_l2 = bps("l2", "gemm_bandwidth")
    same = None if gemm_l2 is not None else bps("l2", "shared_read_bandwidth")
    mem = machine.memory
    named = {
        "memory.l2.latency": mem.l2.latency,
        "memory.dram.latency": mem.dram.latency,
        "memory.l2.loaded_latency": mem.l2.loaded_latency,
        "memory.dram.loaded_latency": mem.dram.loaded_latency,
    }
    if machine.kernel_costs is not None:
        # Only fp8 is converted for mma.sync (int8's mma.sync is native): the figure is an input of fp8's time alone.
        # The byte gathers were measured on fp8 (its conversions' pipe): int8's are not charged either. Copies all of
        # elements take their own rate under tf32 wgmma alone (copies_all_of_elements).
        named.update({f"kernel_costs.{k}": q for k, q in machine.kernel_costs.latencies().items()
                      if (k not in ("convert", "convert_shared", "convert_warp", "gather") or dtype == "fp8")
                      and (k != "fma_lone_issue" or dtype == "fp32")
                      and (k != "kmajor_copy" or dtype in KMAJOR_COPY_TYPES)
                      and (k != "copy_instruction_shared_elements" or dtype == "tf32")})  # fmt: skip
    cycles: dict[str, float | None] = {}
    for name, q in named.items():
        cycles[name] = units.latency_cycles(q.value, q.unit, clock_hz) if q is not None else None
        if q is not None:
            inputs.append(machine.input_of(name, q))

    def seconds(name: str) -> float:
        return (cycles.get(name) or 0.0) / clock_hz

    # The request bound scales the L2 term at the GEMM rate only (l2_request_factor): an input where that rate is.
    requests_q = mem.l2.requests_per_sector if gemm_l2 is not None else None
    if requests_q is not None:
        inputs.append(machine.input_of("memory.l2.requests_per_sector", requests_q))
    dram_requests_per_s = None
    dram_q = mem.dram.requests_per_sector
    # the schema gives the ratio only beside a measured rate, whichever rate the bytes take
    measured_dram = level_bandwidth(machine, "dram", "measured", clock_hz) if dram_q is not None else None
    if dram_q is not None and measured_dram is not None and measured_dram.quantity is not None:
        inputs.append(machine.input_of("memory.dram.requests_per_sector", dram_q))
        if bandwidth != "measured":  # the ratio is read against the measured rate, whichever rate the bytes take
            inputs.append(machine.input_of("memory.dram.bandwidth.measured", measured_dram.quantity))
        dram_requests_per_s = dram_q.value * measured_dram.gb_per_s * 1e9 / SECTOR_BYTES
    spill_bps = None
    spill_q = machine.kernel_costs.spill_bandwidth if machine.kernel_costs is not None else None
    if spill_q is not None:
        spill_bps = units.bandwidth_bytes_per_cycle_per_sm(spill_q.value, spill_q.unit, sms, clock_hz) * sms * clock_hz
        inputs.append(machine.input_of("kernel_costs.spill_bandwidth", spill_q))
    alone_q = machine.kernel_costs.spill_bandwidth_alone if spill_q is not None else None
    spill_alone = None
    if alone_q is not None:
        spill_alone = units.bandwidth_bytes_per_cycle_per_sm(alone_q.value, alone_q.unit, sms, clock_hz) * clock_hz
        inputs.append(machine.input_of("kernel_costs.spill_bandwidth_alone", alone_q))
    lat_l2, lat_dram = cycles["memory.l2.latency"], cycles["memory.dram.latency"]
    # Measured on fp32's FFMA loops: an input of fp32's time alone.
    fma_q = machine.kernel_costs.fma_rate if machine.kernel_costs is not None and dtype == "fp32" else None
    triton_fma = None
    if fma_q is not None:
        triton_fma = units.rate_fma_per_cycle_per_sm(fma_q.value, fma_q.unit, sms, clock_hz) * clock_hz
        inputs.append(machine.input_of("kernel_costs.fma_rate", fma_q))
    family_rates = []
    for ins in pipe.instructions:
        q = pipe.rate_of(ins, accumulator)[0].pick(compute)
        family_rates.append((ins.family, fma_per_cycle_per_sm(machine, dtype, ins, q, clock_hz) * clock_hz))
    return Rates(
        family_fma_per_s_per_sm=tuple(family_rates),
        l2_loaded_latency_cycles=cycles["memory.l2.loaded_latency"] or lat_l2,
        dram_loaded_latency_cycles=cycles["memory.dram.loaded_latency"] or lat_dram,
        costs=CtaCosts(
            launch_s=seconds("kernel_costs.launch"),
            iteration_s=seconds("kernel_costs.iteration"),
            copy_issue_s=seconds("kernel_costs.copy_issue"),
            epilogue_s=seconds("kernel_costs.epilogue"),
            wait_s=seconds("kernel_costs.wait"),
            transpose_s=seconds("kernel_costs.transpose"),
            convert_s=seconds("kernel_costs.convert"),
            convert_shared_s=seconds("kernel_costs.convert_shared"),
            convert_warp_s=seconds("kernel_costs.convert_warp"),
            gather_s=seconds("kernel_costs.gather"),
            spill_wait_s=seconds("kernel_costs.spill_wait"),
            flush_writeback_s=seconds("kernel_costs.flush_writeback"),
            copy_instruction_s=seconds("kernel_costs.copy_instruction"),
            copy_instruction_shared_s=seconds("kernel_costs.copy_instruction_shared"),
            copy_instruction_shared_elements_s=seconds("kernel_costs.copy_instruction_shared_elements"),
            fma_lone_issue_s=seconds("kernel_costs.fma_lone_issue"),
            kmajor_copy_s=seconds("kernel_costs.kmajor_copy"),
        ),
        clock_hz=clock_hz,
        clock_origin=origin,
        fma_per_cycle_per_sm=fma,
        fma_per_s_per_sm=fma * clock_hz,
        dram_bps=dram,
        l2_bps=l2,
        llc_bps=llc,
        l2_same_address_bps=same,
        smem_bps=smem,
        spill_bps=spill_bps,
        spill_alone_bps_per_sm=spill_alone,
        l2_gemm_bps=gemm_l2,
        l2_requests_per_sector=requests_q.value if requests_q is not None else None,
        dram_requests_per_s=dram_requests_per_s,
        l2_latency_cycles=lat_l2,
        dram_latency_cycles=lat_dram,
        triton_fma_per_s_per_sm=triton_fma,
        l2_capacity_bytes=mem.l2.capacity.bytes,
        l2_reuse_bytes=mem.l2.reuse_capacity.bytes if mem.l2.reuse_capacity is not None else None,
        llc_capacity_bytes=mem.llc.capacity.bytes if mem.llc is not None else None,
        llc_latency_cycles=units.latency_cycles(mem.llc.latency.value, mem.llc.latency.unit, clock_hz)
        if mem.llc is not None and mem.llc.latency is not None
        else None,
        inputs=tuple(inputs),
    )


# ---------------------------------------------------------------------------------------------
# The kernel's time: one formula for numbers (predict) and numpy arrays (tune, explore)

# Per instruction family, in kernel.FAMILIES order (fma, mma.sync, wgmma, tcgen05, tcgen05.2sm): the
# rows one CTA's instruction covers at least (a CTA tile is padded to them; tcgen05's smallest M is 64,
# 128 for the pair, 64 a CTA), the most rows of A one instruction multiplies against each B it reads
# from shared memory (wgmma 64; tcgen05 128; the pair 256 across its two SMs, so each SM's shared memory
# supplies half of B per row of A: PTX ISA, tcgen05.mma cta_group::2), and whether one CTA's instruction spans the SM's
# four sub-partitions (wgmma's warpgroup; tcgen05, issued by one thread for the whole tensor core).
INSTRUCTION_ROWS = (1, 16, 64, 64, 64, 16)
ROWS_PER_B_READ = (1 << 30, 1 << 30, *(TILE_ROWS_PER_B_READ[g] for g in ("warpgroup", "cta", "cta pair")), 1 << 30)
TENSOR_FAMILY = (False, True, True, True, True, True)
WARPGROUP = (False, False, True, True, True, False)
MMA_SYNC = (False, True, False, False, False, False)
# The families whose SM and memory times combine by cta_model.ISSUED_OVERLAP_NORM: mma.sync, whose warps issue the
# MMAs and the stage copies in one instruction stream. Measured on Triton's H100 kernels only; FMA kernels (the same
# warps issue FFMAs and copies) fit no better with it on the read sweeps, and MFMA was never measured.
ISSUES_OWN_COPIES = MMA_SYNC
# Whether the instruction reads an MN-major operand from shared memory only for 16-bit types (wgmma's
# transpose flags and ldmatrix.trans are .b16; mma.sync's operands come through ldmatrix). tcgen05's
# shared-memory descriptors take MN-major tf32 and 8-bit operands too (PTX ISA, tcgen05 matrix
# descriptors; CUTLASS's UMMA::Major::MN for every sm100 kind).
# mfma: what an MN-major 8- or 32-bit operand costs AMD's LDS loads has not been measured: not charged.
MN_MAJOR_16BIT_ONLY = (True, True, True, False, False, False)


def family_k_steps(machine: Machine, dtype: str) -> tuple[int, ...]:
    """K of one instruction step per family (kernel.FAMILIES order), from the pipe's instruction
    shapes (m16n8k16 -> 16; 1 for FMA or a family the pipe lacks)."""
    have = {i.family: instruction_k_step(i) for i in machine.pipe(dtype).instructions}
    return tuple(have.get(f, 1) for f in FAMILIES)


def layout_factors(family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any) -> tuple[Any, Any]:
    """How many times more copy requests each operand's stage fill costs when it is stored against
    the layout its instruction reads (1: none). Tensor instructions transpose only 16-bit operands
    in hardware (PTX ISA: wgmma's transpose flags and ldmatrix.trans are for .b16). Under wgmma a 32-
    or 8-bit operand that is MN-major (A M-major, B N-major) is stored K-major, one element per
    request instead of 16 bytes: 16 / element bytes (relaid_store_factor adds the bank conflicts of an
    8-bit one). Under mma.sync the stage keeps its own layout and the element-wise reads pay instead
    (operand_read_factors): its copies are 16 bytes wide for a 32-bit operand and 8 for an 8-bit one
    (compiled PTX, docs/measurements/h100-2026-11-25/layout_mma_sync: cp.async.ca 8B), 2x. FMA has no
    layout of its own: Triton copies each operand in its global layout, 16 bytes at a time, and what its reads
    then cost is fma_layout.fma_read_wavefronts' (triton_fma_layout_applies); any other FMA kernel's reads are
    charged their bytes over 128 (assumed laid out for its reads: unmeasured)."""
    tensor = _take(TENSOR_FAMILY, family)
    odd = _take(MN_MAJOR_16BIT_ONLY, family) & (element_bytes != 2)
    wide = 16.0 / element_bytes
    mn_copy = _where(_take(MMA_SYNC, family), 2.0 if element_bytes == 1 else 1.0, wide)
    fa = _where(tensor & odd & a_m_major, mn_copy, 1.0)
    fb = _where(tensor & odd & b_n_major, mn_copy, 1.0)
    return fa, fb


def smem_operand_bytes(bm: Any, bn: Any, bk: Any, element_bytes: int, rows: Any, rn: Any, read_a: Any = 1.0,
                       read_b: Any = 1.0) -> Any:  # fmt: skip
    """Bytes a CTA's MMAs read from shared memory per iteration: BM x BN x BK x (read_b / rows + read_a / rn) x
    element bytes. B is read once per ``rows`` rows of the register tile (min(rm, the rows one instruction reads B
    for: ROWS_PER_B_READ)), A once per ``rn`` columns; ``read_a``/``read_b`` 0 for an operand the MMA warps read
    otherwise (operand_read_factors' gathered reads). Numbers or numpy arrays."""
    return bm * bn * bk * (read_b / rows + read_a / rn) * element_bytes


def operand_read_factors(family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any) -> tuple[Any, Any]:
    """How many times more shared-memory wavefronts each operand's reads take than their bytes over
    128 (1: none). mma.sync's operands come through ldmatrix, 128 bytes a wavefront, but
    ldmatrix.trans is .b16 only: an MN-major 8- or 32-bit operand is read one element per thread per
    ld.shared (compiled PTX: ld.shared.b8 and .b32, no ldmatrix, docs/measurements/h100-2026-11-25/
    layout_mma_sync), 32 x e bytes a wavefront: 4 / e times (fp8 4, tf32 1). On the 128x128x128 fp8
    check (8 warps of 64x32) B N-major adds 725 cycles per tile and iteration; B's 32,768 bytes read at
    32 instead of 128 bytes a wavefront say 768 (896 with its 2x fill). The warps issue these loads
    themselves (ld.shared.b8, then shifts and packs) before their MMAs: kernel_seconds puts them in
    series with the MMAs (cta_model's gathered bytes)."""
    odd = _take(MMA_SYNC, family) & (element_bytes != 2)
    f = 4.0 / element_bytes
    return _where(odd & a_m_major, f, 1.0), _where(odd & b_n_major, f, 1.0)


# The types whose Triton wgmma loops pay kernel_costs.kmajor_copy with both operands K-major: those the layout-pair
# check timed against their B N-major twins (docs/measurements/h200-2026-11-30/layout_pairs). fp8's both-K-major loop
# forms half of the same copies' addresses with IADD3 (32 IMAD, 32 IADD3) and ran faster than fp16's of the same bytes
# (1,385 against 1,999 cycles an iteration; not timed against a twin of its own); tf32's compiled loop is fp16's of
# the same bytes a row (Triton 3.6: 64 IMAD at 128x128x32 on 4 warps, as fp16's at 128x128x64) and the check timed it
# as slow as fp16's (1,939 and 4,272 cycles an iteration against 1,999 and 3,931), but charging it moved a tf32 kernel
# that was the fastest measured behind a slower one, with the 16-bit types (47a36ac, on fresh41) and alone (cf9371e,
# on fresh90: small1104's 128x128x16 on 4 warps behind an mma.sync kernel the model has 29% too fast): measured, not
# charged.
KMAJOR_COPY_TYPES = ("fp16", "bf16")


def kmajor_copy_cycles(triton: bool, family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any, narrow: Any,
                       bm: Any, b_rows: Any, bk: Any, warps: Any, warp_size: int, cycles_per_copy: float) -> Any:  # fmt: skip
    """SM cycles both operands K-major add to a CTA's iteration in a Triton wgmma loop of 16-bit operands:
    ``cycles_per_copy`` (kernel_costs.kmajor_copy, given only for KMAJOR_COPY_TYPES by machine_rates) x the 16-byte
    copies a thread issues an iteration, (BM + B's rows) x BK x element bytes / 16 / (warp size x warps); 0 for another
    compiler, family, element size or layout, or where an operand is copied one element at a time (``narrow``: the
    operands' pair, copy_plan's; those copies are charged as such). Copies Triton narrows to 8 bytes for a small tile
    are counted as 16-byte ones here (the check's tiles had none). Why: Triton 3.6 (and 3.9) forms each such copy's
    address with more integer work (64 IMAD an iteration against 29 with B N-major at 128x128x64 on 4 warps), most of it
    for roofmodel's matmul's M and N masks (the mask-variant check: a kernel masked along K only pays less in some
    tiles); the layout-pair check timed 1.05-1.32 x the twin's cycles an iteration, per copy a thread issues 10.6 cycles
    (median of its 18 fp16 and bf16 cases, 3.6-37.6). Numbers or numpy arrays."""
    if not triton or element_bytes != 2 or not cycles_per_copy:
        return 0.0
    na, nb = narrow
    both = (family == FAMILIES.index("wgmma")) & _not(a_m_major) & _not(b_n_major) & _not(na) & _not(nb)
    return _where(both, cycles_per_copy * kmajor_thread_copies(bm, b_rows, bk, element_bytes, warps, warp_size), 0.0)


def kmajor_thread_copies(bm: Any, b_rows: Any, bk: Any, element_bytes: int, warps: Any, warp_size: int) -> Any:
    """The 16-byte copies a thread issues an iteration for a CTA's stage, as kmajor_copy_cycles counts them: (BM + B's
    rows) x BK x element bytes / 16 / (warp size x warps). Numbers or numpy arrays."""
    return (bm + b_rows) * bk * element_bytes / 16.0 / (warp_size * warps)


def transposed_elements(family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any, bm: Any, bn: Any,
                        bk: Any) -> Any:  # fmt: skip
    """Elements per iteration the warps transpose in registers: (BM if A is M-major) + (BN if B is
    N-major), times BK, for a 32-bit operand under wgmma (tf32), which reads only K-major 32-bit
    operands from shared memory. An 8-bit MN-major operand is also laid out again through registers,
    but Triton does not pipeline that copy (synchronous_copy), which the latency term charges."""
    wgmma32 = _take(WARPGROUP, family) & _take(MN_MAJOR_16BIT_ONLY, family) & (element_bytes == 4)
    return _where(wgmma32, (bm * _where(a_m_major, 1, 0) + bn * _where(b_n_major, 1, 0)) * bk, 0)


def converted_elements(family: Any, element_bytes: int, warps: Any, bm: Any, bn: Any, bk: Any, rm: Any,
                       rn: Any) -> Any:  # fmt: skip
    """fp8 elements per iteration a CTA's warps convert to fp16 before their mma.sync: each warp its own
    fragments of A (min(rm, BM) rows) and B (min(rn, BN) columns), BK deep, warps x (rows + columns) x
    BK; 0 for other families and 16- or 32-bit types (an 8-bit type counts here; machine_rates charges
    kernel_costs.convert to fp8 only: int8's mma.sync takes its operands as they are). Triton on sm_90 turns an fp8 mma.sync into
    cvt.rn.f16x2.e4m3x2 and m16n8k16.f16 (192 conversions a thread per iteration at 128x128x128 on 8
    warps of 64x32: 8 x 96 x 128 = 98,304 = 256 threads x 192 x 2; docs/measurements/h100-2026-11-25/
    layout_mma_sync). Charged at kernel_costs.convert where the machine file has it."""
    if element_bytes != 1:  # the search's 16- and 32-bit arrays skip the arithmetic
        return 0
    return _where(_take(MMA_SYNC, family), warps * (_minimum(rm, bm) + _minimum(rn, bn)) * bk, 0)


def gathered_elements(family: Any, element_bytes: int, warps: Any, bm: Any, bn: Any, bk: Any, rm: Any, rn: Any,
                      a_m_major: Any, b_n_major: Any) -> Any:  # fmt: skip
    """Elements per iteration of an 8-bit MN-major operand that a CTA's mma.sync warps read from shared
    memory one byte per thread (ldmatrix.trans is .b16 only: ld.shared.b8, then byte packs into registers;
    docs/measurements/h100-2026-11-25/layout_mma_sync): each warp its own fragment, warps x (min(rm, BM) if
    A is M-major + min(rn, BN) if B is N-major) x BK; 0 for other families and 16- or 32-bit types. Charged
    at kernel_costs.gather, on the pipe of the conversions (the warps' issue), for fp8 (machine_rates: int8's
    were not measured and cost nothing here). Their bytes also take 4 x the shared-memory wavefronts
    (operand_read_factors): that is the shared-memory path's time, this the warps' issue of the byte loads
    and packs, two resources."""
    if element_bytes != 1:  # the search's 16- and 32-bit arrays skip the arithmetic
        return 0
    rows = _minimum(rm, bm) * _where(a_m_major, 1, 0) + _minimum(rn, bn) * _where(b_n_major, 1, 0)
    return _where(_take(MMA_SYNC, family), warps * rows * bk, 0)


def synchronous_copy(family: Any, element_bytes: int, fa: Any, fb: Any) -> Any:
    """Whether a stage is copied synchronously through registers (no stage in flight across iterations, and the relaid
    operand's part of the stage held in registers: operand_staging): a wgmma 8-bit operand stored against its layout
    (fa, fb: layout_factors). Triton pipelines a copy only where at least 4 contiguous bytes land in shared memory
    (Pipeliner/AssignLatencies.cpp, isPipeliningBeneficial), so an MN-major tf32 operand is still pipelined, one 4-byte
    copy per element; under mma.sync every operand is copied in its own layout and pipelined (8-byte copies for an 8-bit
    MN-major one)."""
    return _take(WARPGROUP, family) & (element_bytes == 1) & ((fa != 1.0) | (fb != 1.0))


def unpipelined_operands(element_bytes: int, m: Any, n: Any, k: Any, a_m_major: Any, b_n_major: Any) -> tuple[Any, Any]:
    """Which operands (A, B) a Triton kernel cannot copy 16 bytes at a time, and which of those it
    does not pipeline at all. Triton's JIT marks an integer argument divisible by 16 only where it is
    (else it assumes nothing), so an operand whose leading stride (K for a K-major A, M for an
    M-major one; N for an N-major B, K for a K-major one) is not a multiple of 16 elements is known
    aligned to one element: each thread's loads are one element wide. Triton pipelines a load only
    where that is at least 32 bits, cp.async's smallest copy (Pipeliner: isPipeliningBeneficial ->
    canBeConvertedToAsyncLoad): a 16- or 8-bit operand is then loaded into registers and stored to a
    single shared-memory buffer every iteration, its latency exposed; a 32-bit one is still
    pipelined, one 4-byte copy per element. Returns ((narrow_a, narrow_b), (unpipelined_a,
    unpipelined_b)) as booleans (numbers or numpy arrays)."""
    narrow_a = _where(a_m_major, m, k) % 16 != 0
    narrow_b = _where(b_n_major, n, k) % 16 != 0
    small = element_bytes < 4
    return (narrow_a, narrow_b), (narrow_a & small, narrow_b & small)


def triton_copies(machine: Machine, compiler: str) -> bool:
    """Whether Triton's copy rules apply (unpipelined_operands, synchronous_copy, the one-buffer
    operands): a Triton kernel on an NVIDIA GPU with cp.async (compute capability 8.0 and later).
    CUTLASS and stated kernels are assumed built for their operands' layout and alignment; Triton on
    AMD or on sm_75, which have no cp.async, pipelines by other rules, not modelled."""
    cc = machine.nvidia_capability
    return compiler == "triton" and cc is not None and cc >= (8, 0)


def waits_each_wgmma(
    triton: bool,
    family: Any,
    element_bytes: int,
    bm: Any,
    bn: Any,
    warps: Any,
    b_n_major: Any,
    compiled: bool | None = None,
) -> Any:
    """Where a wgmma loop waits for each wgmma to finish before the next issues, keeping no group in flight across
    iterations, and its accumulator fits (BM x BN < 256 x 32 x warps: under 256 registers a thread). ``compiled``:
    the compiled loop's own answer where a compile read it (CompiledCounts.wgmma_waits_each); else Triton's loops
    (``triton``: Triton's rules apply, triton_copies) with B K-major, on 8 warps where BN x max(element bytes, 2) = 512
    bytes (BN = 256 in 16- and 8-bit types, 128 in tf32), on 16 warps where BN = 256 in 16- and 8-bit types and tf32's
    64 x 128. Numbers or numpy arrays. The layouts are a table of what the compiler does, not a law: no one rule of the
    tile's warpgroups gives them.

    Read from the loops Triton 3.6 compiled for sm_90a (benchmarks/wgmma_waits.py,
    docs/measurements/h200-2026-11-29/wgmma_wait/waits_grid.csv): every such loop ends each wgmma with
    ``WARPGROUP.DEPBAR.LE gsb0, 0x0``; every other of the grid's (BM, BN in 16..256 on 4, 8 and 16 warps, in each
    operand layout, BK and stages varied) waits once with a group in flight (0x1), save those whose accumulators spill
    (BM = BN = 256 on 8 warps, BM x BN >= 128 x 256 on 4), which wait so in every layout (Triton's WGMMAPipeline could
    not make the dot properly async). Those are not marked, compiled or not: their spill terms were measured on such
    loops and the read sweeps' 256x256 kernels on 8 warps are predicted 4-10% slow already (marked, they would be 5-13%
    slow); on one warpgroup the chain is the same either way. The 8-warp loops were timed (the wgmma-wait check); the
    16-warp ones only compiled (no sweep draws 16 warps). Triton 3.9 keeps a group in flight in the 128x256 loop on 8
    warps with B K-major: the table is Triton 3.6's, the measured sweeps' compiler."""
    if compiled is not None:
        waited: Any = compiled
    elif not triton:
        return False
    else:
        eight = (warps == 8) & (bn * max(element_bytes, 2) == 512)
        sixteen = (warps == 16) & ((bn == 256) & (element_bytes <= 2) | (bn == 128) & (bm == 64) & (element_bytes == 4))
        waited = _not(b_n_major) & (eight | sixteen)
    return (family == FAMILIES.index("wgmma")) & (bm * bn < 256 * 32 * warps) & waited


class CopyPlan(NamedTuple):
    """How a kernel's operands reach shared memory (numbers or numpy arrays): the layout factors
    ``fa``/``fb`` (layout_factors); ``narrow``, the operands (A, B) copied one element at a time, and
    ``unaligned``, those of them not pipelined (unpipelined_operands); ``relaid``, whether a wgmma
    8-bit operand is laid out again through registers, unpipelined (synchronous_copy); ``single``, the
    operands Triton keeps in one shared-memory buffer: the unaligned ones, and the relaid one under
    wgmma (the broad sweeps' compiled shared memory: one buffer in 122 of 126 such wgmma kernels,
    every stage's in all 135 such mma.sync kernels); ``gathered``, whether an 8-bit MN-major operand
    is gathered byte by byte from shared memory into mma.sync's fragments, pipelined, whose registers
    the register rule counts as a relaid operand's, its slice of a stage (operand_staging; on the broad sweeps'
    kernels of that kind, counting a whole stage, both operands, put the compiled counts 10 registers off at the median
    against 14 with none, and was then narrowed to the operand's slice in 2e86a60). Triton's rules only
    (triton_copies): elsewhere nothing is narrow, unaligned, relaid, single or gathered."""

    fa: Any
    fb: Any
    narrow: tuple[Any, Any]
    unaligned: tuple[Any, Any]
    relaid: Any
    single: tuple[Any, Any]
    gathered: Any

    @property
    def synchronous(self) -> Any:
        """Whether a load is not pipelined: its latency adds to each iteration."""
        return self.relaid | self.unaligned[0] | self.unaligned[1]


def pipelined_share(plan: CopyPlan, bm: Any, b_rows: Any) -> Any:
    """The share of a stage's bytes that streams in asynchronously (cp.async, its stages in flight): the rows of
    the operands neither loaded one element at a time nor relaid through registers over all of them, BM for A and
    ``b_rows`` for B (BN x B_SHARE): those CopyPlan.single keeps in one buffer. 1 where both are pipelined, 0 where
    neither is. Numbers or numpy arrays."""
    sync_a, sync_b = plan.single
    return (bm * _where(sync_a, 0.0, 1.0) + b_rows * _where(sync_b, 0.0, 1.0)) / (bm + b_rows)


def beside_share(pipelined: Any, resident: Any) -> Any:
    """The share of the SM's traffic in flight beside a synchronous load, where ``resident`` CTAs share the SM (the
    model's c: min(CTAs per SM, tiles per SM)) and each CTA streams ``pipelined`` (pipelined_share) of its stage
    asynchronously: 1 - (1 - pipelined) / resident. The load is the (1 - pipelined) / resident of the SM's stage
    bytes that are its own CTA's synchronous ones; everything else, the other resident CTAs' whole stages included,
    is in flight beside it. ``pipelined`` where one CTA has the SM. Numbers or numpy arrays.

    Found on the read H100 sweeps (2026-11-23 to fresh16) and the resident ladder (docs/measurements/h100-2026-11-27/
    ladder, ladder_element_wise): the element-wise 16-bit wgmma kernels' wait, measured as the time per iteration less
    the rest of a CTA's chain, stayed near 1,300-1,600 cycles at 2-5 CTAs an SM where the stage's own share gave
    450-740 (the ladder: a second resident CTA costs an element-wise tile 0-15% of its round, which the model did not
    charge). No constant fitted (the loaded latency is the fitted one), but the form was chosen on that read data:
    one stage of each other CTA counted, its synchronous bytes counted as in flight, the raise linear, whether the
    other SMs are busy not asked. Judged on fresh17, committed unread before it was written: passed (docs/
    validation.md: the 85 H100 kernels it moves 9.9% -> 8.1%). What it costs, on the read sweeps to fresh11
    (benchmarks/synchronous_wait_classes.py, median signed): the kernels with one operand element-wise and the other
    pipelined, right before, are now too slow (mma.sync +1.9% -> +9.5%, n = 198; wgmma +1.7% -> +9.1%, n = 109), while
    those with both element-wise gain (wgmma -12.7% -> -7.6%, n = 542; mma.sync +1.5% -> +2.4%, n = 715) and the
    relaid ones go -3.3% -> -0.3% (n = 705). The rule rises with c where the measured wait stayed flat from 2 to 5 CTAs. Every round of a kernel takes the c of
    its full rounds: a last round of fewer CTAs is charged the same share (the fence queue counts it by its own)."""
    return 1.0 - (1.0 - pipelined) / _maximum(resident, 1)


def fenced_copies(plan: CopyPlan, family: Any) -> Any:
    """Whether the warps store a copy into shared memory and fence it before wgmma reads it, and the model charges
    the queue that fence waits behind (cta_model.fenced_queue_cycles): a kernel with an operand relaid through
    registers under wgmma (the whole CTA's shared-memory time queues, an element-wise other operand's fill
    included). A kernel whose operands are only loaded one element at a time is fenced the same way and behaved the
    same before the rule (about right alone on an SM, 15-20% too fast at 2 or more), but is left out by a choice
    made on read data: charging the queue on it took the read H100 sweeps' 16-bit ones at 2 CTAs an SM from -19.3%
    to +9.3% (n = 134), at 3 or 4 from -14.6% to +14.0% (n = 58), and failed the 2026-11-24 sweep's third condition
    (the kernels it moves, 18.1% -> 22.3%); benchmarks/fenced_copy_classes.py prints it. (Relaid implies wgmma:
    synchronous_copy; the family test keeps the rule's scope explicit.) Numbers or numpy arrays."""
    return plan.relaid & _take(WARPGROUP, family)


def synchronous_hit_bytes(plan: CopyPlan, dram_read: Any, requested: Any, a_dram_read: Any = None,
                          a_requested: Any = None) -> tuple[Any, Any]:  # fmt: skip
    """(DRAM reads, requested bytes) whose ratio gives a synchronous load's L2 hit rate (its wait's latency,
    synchronous_wait_cycles): those of the operands loaded one element at a time (CopyPlan.unaligned), from A's part
    of the kernel's (``a_dram_read``, ``a_requested``: the raster model's, RasterTraffic.a_*) and B's, the rest; the
    kernel's own where A's part is not given, where no operand is loaded one element at a time, or where one is
    relaid through registers. A decode kernel's A (M <= 64 rows, every CTA of a wave reads the same panel) hits the
    L2 nearly always while its weights B stream from DRAM once: a load of A alone waits the L2's latency, not the
    kernel's mean (at M = 37, N = 16384, 64x64 tiles: A's hit rate 99%, the kernel's 36%).

    Found on the read broad sweeps (H200 2026-11-23 to fresh25, H100 2026-11-23 to fresh18;
    benchmarks/synchronous_hit_classes.py prints them): the 16- and 8-bit decode kernels without spills whose M-major A
    (M not a multiple of 16) is loaded one element at a time while B is pipelined were 18.0% too slow at the kernel's
    hit rate (H200, median signed, n = 372; H100 +17.4%, n = 286), -1.9% (-2.9%) at A's. Where an operand is relaid
    through registers (an 8-bit MN-major operand under wgmma, copied 16 bytes at a time) the wait keeps the kernel's
    rate, whichever operand is loaded one element at a time: a choice made on that data, since with the rule applied
    to them too (an experiment, not kept in the script) the relaid N-major B of the decode kernels, read from DRAM
    alone, went +5.0% -> +15.1% (n = 122) and the square ones +8.0% -> +11.4% (n = 175), and the fenced queue that
    fits them (fenced_copies) was judged at the kernel's. No constant fitted. Numbers or numpy arrays."""
    if a_dram_read is None or a_requested is None:
        return dram_read, requested
    (ua, ub), relaid = plan.unaligned, plan.relaid
    sa, sb = _where(ua, 1.0, 0.0), _where(ub, 1.0, 0.0)
    b_dram_read, b_requested = _maximum(dram_read - a_dram_read, 0.0), _maximum(requested - a_requested, 0.0)
    own_requested = sa * a_requested + sb * b_requested
    own = (own_requested > 0) & _not(relaid)
    return (_where(own, sa * a_dram_read + sb * b_dram_read, dram_read),
            _where(own, own_requested, requested))  # fmt: skip


def synchronous_wait_cycles(plan: CopyPlan, loaded_cycles: Any, unloaded_cycles: Any, pipelined: Any) -> Any:
    """What a synchronous load waits (cycles) before its stage's bytes stream in (cta_model.kernel_terms' exposed
    latency): unloaded + (loaded - unloaded) x ``pipelined`` (beside_share: the share of the SM's traffic in flight
    beside the load, the stage's asynchronous bytes and the other resident CTAs'), the unloaded latency
    (memory.*.latency, the pointer chase's, at the L2 hit rate of the operands it loads: synchronous_hit_bytes) raised toward the loaded one (memory.*.loaded_latency: 4.5 x the pointer chase on the H100, 3.7 x (DRAM) and
    4.1 x (L2) on the H200) by the traffic the kernel keeps in flight beside it; an operand relaid through registers
    (an 8-bit operand under wgmma laid out again) as one loaded one element at a time. ``plan`` is the kernel's
    CopyPlan (kept for the callers that vary the rule by class: benchmarks/synchronous_wait_classes.py).

    (The figures below were taken before beside_share, 67769ce, when ``pipelined`` was the stage's own share: 0 meant
    the unloaded latency whatever the CTAs an SM; it now does only where the CTA has the SM to itself.)

    The loaded latency is the latency under the traffic of a kernel whose stages all stream in, fitted as the time
    Little's law divides over the stages in flight. A load issued, waited on and stored before the MMAs with nothing
    else in flight (both operands element-wise: pipelined 0) waits the unloaded latency; one beside an operand that
    streams its stages waits between the two, here in proportion to that operand's bytes. No constant fitted. On the
    read broad sweeps (H100: 2026-11-23 to fresh11), with the model of ff50e52 (benchmarks/synchronous_wait_classes.py
    prints the figures for the model as it is), of the kernels whose wait is their largest term: both operands
    element-wise -5.0% (mma.sync) and -3.0% (wgmma), median signed, as compiled (+37% at the loaded latency); one
    element-wise and the other pipelined +14.4% and +1.4% (+33.5% and +28.1% at the loaded latency, -18.8% and -25.4%
    at the unloaded one), and the alignment check's (docs/measurements/h100-2026-11-25/alignment) +2.9% (+11.2%,
    -23.7%). The relaid kernels kept the loaded latency until their fenced stores were charged the queue of the
    other resident CTAs' (fenced_copies): in proportion alone they gained where the wait binds (+16.9% -> +7.3%,
    n = 90) and lost as a class (-12.0% -> -15.3%, n = 705); with the queue the class is -2.9% (n = 654,
    benchmarks/fenced_copy_classes.py). Numbers or numpy arrays."""
    return unloaded_cycles + (loaded_cycles - unloaded_cycles) * pipelined


def relaid_store_factor(element_bytes: int, rows: Any, warp_size: int = 32) -> Any:
    """The layout factor of an operand that the warps store from registers, one element per thread
    per instruction, into a shared-memory tile transposed from the one they loaded (an 8-bit MN-major
    operand under wgmma, Triton's ``local_alloc`` of a K-major NVMMA layout): 4 t / e, with
    t = min(warp size, rows x e / 16) the threads of a warp along the operand's contiguous dimension
    (``rows``: BM for an M-major A, BN for an N-major B). Triton's load layout gives each thread 16
    contiguous bytes, so those t threads each write a different row of the K-major tile, rows 16 / e
    apart; 16 / e rows of BK x e bytes are a whole number of 128-byte lines and the swizzle's phase
    depends only on the row modulo 8, so (for e = 1, rows 16 apart: the only operand relaid, copy_plan; for a
    4-byte element, rows 4 apart, the phase would alternate and t / 2 would do) all t rows start in the same bank:
    each store takes t
    wavefronts of 128 bytes (32 banks x 4 B), where it carries 32 x e bytes, 4 t / e times the bytes
    a wavefront moves. (The layout check's 128x128x128 fp8 kernels, t = 8, spend 0.29 cycles per relaid byte
    per SM over their K-major twin; t / 32 = 0.25, and 16 / e would say 0.125.) These are stores from registers,
    whose cost is their wavefronts: below 64 rows of fp8 (t < 4) that is less than the 16 / e a one-element
    cp.async request costs (layout_factors), which this factor took as a floor until the read sweeps showed the
    fp8 wgmma kernels with B N-major at BN = 32 (t = 2, factor 8) +19.8% too slow with it (H200, n = 360;
    +21.7%, n = 221, H100; median signed)."""
    t = _minimum(warp_size, _maximum(1.0, rows * element_bytes / 16.0))
    return 4.0 * t / element_bytes


def copy_plan(triton: bool, family: Any, element_bytes: int, m: Any, n: Any, k: Any, a_m_major: Any,
              b_n_major: Any, bm: Any, bn: Any, warp_size: int = 32) -> CopyPlan:  # fmt: skip
    """The CopyPlan of a kernel; ``triton``: whether Triton's copy rules apply (triton_copies). An
    operand relaid through registers under wgmma is stored element by element into a transposed tile,
    whose bank conflicts raise its layout factor (relaid_store_factor), where it was loaded 16 bytes a thread; one
    loaded one element at a time (narrow) keeps the one-element fill's 16 / e requests per 16 bytes. On the
    relaid-narrow check (docs/measurements/h200-2026-11-29/relaid, one CTA per SM) such an operand costs far less than
    the relaid factor says at 256 rows (256x64x64, A M-major with M 8 short: 112 us at K = 4096, 313 predicted
    with the factor, 115 without; B N-major at 128x256x64: 129, 325, 127), while its aligned twin follows it (332
    against 313); at 64 rows the two agree (factor 16); at 128 rows (factor 32) the check's one-byte kernels scatter
    around the two (13 of 24 worse under this rule, e.g. 128x128x64 B +4% -> -25%). Where 2 or more CTAs share an SM
    the fenced queue (fenced_copies) shrinks with the fill too: not measured. On the read sweeps the fp8 wgmma kernels it moves went from
    19.1% to 13.8% median |error| on the H200 (n = 176; p90 98% -> 40%) and from 14.9% to 15.9% on the H100 (n = 144;
    p90 91% -> 38%), where the eleven odd-shape ones without spills went +3.8% -> -23% (chosen on the check, judged on
    fresh27)."""
    fa, fb = layout_factors(family, element_bytes, a_m_major, b_n_major)
    none = (False, False)
    narrow, unaligned = unpipelined_operands(element_bytes, m, n, k, a_m_major, b_n_major) if triton else (none, none)
    relaid = synchronous_copy(family, element_bytes, fa, fb) & triton
    under_wgmma = relaid & _take(WARPGROUP, family)
    single = (unaligned[0] | (under_wgmma & (fa != 1.0)), unaligned[1] | (under_wgmma & (fb != 1.0)))
    if element_bytes == 1:  # only an 8-bit operand is relaid (synchronous_copy): skip the arrays otherwise
        # Loaded one byte at a time, a relaid operand's stores are not relaid_store_factor's 16-byte rows: its fill is
        # the one-element copy's (kernel_seconds' 16 / e), which the relaid-narrow check bears out (see below).
        fa = _where(under_wgmma & (fa != 1.0) & _not(narrow[0]), relaid_store_factor(element_bytes, bm, warp_size), fa)
        fb = _where(under_wgmma & (fb != 1.0) & _not(narrow[1]), relaid_store_factor(element_bytes, bn, warp_size), fb)
    gathered = _take(MMA_SYNC, family) & (element_bytes == 1) & ((fa != 1.0) | (fb != 1.0)) & triton
    return CopyPlan(fa, fb, narrow, unaligned, relaid, single, gathered)


def element_copies(plan: CopyPlan, family: Any, element_bytes: int, bm: Any, b_rows: Any, bk: Any) -> Any:
    """The copies of a CTA's stage per iteration that move one element each and that kernel_costs.copy_instruction
    charges (cta_model.copy_instruction_cycles): a 32-bit operand copied one element at a time and pipelined (4-byte
    cp.async; 16-bit ones are loaded synchronously) under wgmma, what the narrow check measured; 0 for mma.sync, FMA
    and other widths: (BM x [A] + ``b_rows`` x [B]) x BK. Numbers or numpy arrays."""
    if element_bytes != 4:
        return 0
    (na, nb), (ua, ub) = plan.narrow, plan.unaligned
    rows = bm * _where(na & _not(ua), 1, 0) + b_rows * _where(nb & _not(ub), 1, 0)
    return rows * bk * _where(_take(WARPGROUP, family), 1, 0)


def copies_all_of_elements(plan: CopyPlan, family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any,
                           spilled: Any) -> Any:  # fmt: skip
    """Where every copy of a CTA's stage is an element copy that kernel_costs.copy_instruction charges
    (element_copies), both operands K-major and no register spilled: a 32-bit wgmma stage whose A and B are both copied
    one element at a time, pipelined, and stored in their own layout, what the occupancy check's eight cases of 6.6-7.3
    cycles a copy were (cta_model.shared_copy_cycles, kernel_costs.copy_instruction_shared_elements). Left out, as the
    check timed none: an MN-major operand so copied, stored against its layout (layout_factors), and a kernel that
    spills (``spilled`` registers a thread, compiled or the register rule's, in the loop or not). Booleans (numbers or
    numpy arrays).

    Both are left out on the evidence of the read H200 sweeps too, not only for want of a measurement: charged there,
    the 261 such kernels with an MN-major operand (-0.6% signed at the median) went to -17.6%, the 27 spilling ones at two
    CTAs an SM (254-255 registers, 38-198 spilled, no local traffic in the loop) from -14.5% to -29%."""
    if element_bytes != 4:
        return False
    (na, nb), (ua, ub) = plan.narrow, plan.unaligned
    return (na & nb & _not(ua | ub) & _not(a_m_major | b_n_major) & (family == FAMILIES.index("wgmma"))
            & (spilled <= 0))  # fmt: skip


def narrowed_copies(rows: Any, bk: Any, element_bytes: int, threads: Any) -> Any:
    """The cp.async a CTA's threads issue for one operand's stage (``rows`` x BK elements) where the stage has fewer
    16-byte pieces than the CTA has threads, so that Triton narrows the vector to give each thread one copy of 4 or 8
    bytes: min(threads, rows x BK) where rows x BK x element bytes / 16 is fewer and each such copy is 4 bytes or more,
    else 0. 32x32x32 fp16 on eight warps copies each operand's 2,048 bytes as 256 copies of 8 bytes: LDGSTS.E.64,
    cp.async through L1, where a 16-byte copy is LDGSTS.E.BYPASS.128 (Triton 3.6, sm_90a SASS). Under 4 bytes a thread
    (16-bit 16x16x16 on eight warps, fp8 16x32x32) there is no cp.async that small: Triton loads the stage with LDG and
    STS, synchronously, which this does not count and the model does not charge as such (docs/model.md). Numbers or
    numpy arrays."""
    elements = rows * bk
    copies = _minimum(threads, elements)
    width = elements * element_bytes / copies
    return _where((elements * element_bytes / 16.0 < copies) & (width >= 4), copies, 0.0)


def operand_narrowed_copies(wgmma: Any, rows: Any, bk: Any, element_bytes: int, threads: Any, one_element: Any,
                            layout_factor: Any) -> Any:  # fmt: skip
    """narrowed_copies of one operand as narrowed_fill_cycles charges them: 0 where the operand keeps its own charge,
    copied one element at a time (``one_element``) or, under wgmma, taken against its layout (``layout_factor`` other
    than 1). Numbers or numpy arrays."""
    own = one_element | (wgmma & (layout_factor != 1.0))
    return _where(own, 0.0, narrowed_copies(rows, bk, element_bytes, threads))


def narrowed_fill_cycles(triton: bool, family: Any, element_bytes: int, rows: tuple[Any, Any], bk: Any, threads: Any,
                         narrow: tuple[Any, Any], fill_bytes: tuple[Any, Any], smem_bytes_per_cycle: Any,
                         cycles_per_copy: float, warp_size: int,
                         layout: tuple[Any, Any] = (1.0, 1.0)) -> Any:  # fmt: skip
    """SM cycles the shared-memory path takes to fill a Triton mma.sync or wgmma CTA's stage where an operand's copies
    are narrowed (narrowed_copies): that operand's copies / warp size x ``cycles_per_copy``
    (kernel_costs.copy_instruction_shared, SM cycles per warp-level cp.async of 4 bytes, measured by the occupancy
    check), the other operand's ``fill_bytes`` at ``smem_bytes_per_cycle``; 0 for other families and compilers and
    where no operand's copies are narrowed. An operand copied one element at a time (``narrow``) keeps its own charge,
    and so, under wgmma, does one it takes against its layout (``layout``: layout_factors other than 1, an MN-major
    8- or 32-bit operand, copied one element at a time or relaid, whose fill its factor charges). kernel_terms takes
    the larger of this and the fill bytes at the rate, beside the operand reads on the same path (mma.sync's ldmatrix,
    wgmma's own). The check measured 4-byte copies; that an 8-byte copy through L1 takes as long is an assumption (the
    32x32x32 mma.sync tiles on eight warps, all 8-byte copies, bear it out: 0.66 -> 0.94 of their time as compiled). A
    16-byte copy, which bypasses L1, is not charged so (charged at it too, the read sweeps' mma.sync kernels went from
    10.5% to 15.1% median |error|: the pre-registration of this rule, 578500e). Under wgmma since 5f38b6b (Triton 3.6's
    SASS: fp16 64x32x32 on eight warps copies B, 2 KB, with one LDGSTS.E.64 a thread, A with one LDGSTS.E.BYPASS.128;
    at BK 64 both 16 bytes). Not reconciled: an fp8 MN-major operand under mma.sync, which Triton copies 8 bytes at a
    time through L1 whatever the tile and layout_factors charges at twice its bytes, is charged both ways. Numbers or
    numpy arrays."""
    if not triton or not cycles_per_copy:
        return 0.0
    wgmma = family == FAMILIES.index("wgmma")
    total: Any = 0.0
    narrowed: Any = False
    for r, one_element, fill, factor in zip(rows, narrow, fill_bytes, layout, strict=True):
        copies = operand_narrowed_copies(wgmma, r, bk, element_bytes, threads, one_element, factor)
        total = total + _where(copies > 0, copies / warp_size * cycles_per_copy, fill / smem_bytes_per_cycle)
        narrowed = narrowed | (copies > 0)
    return _where((_take(MMA_SYNC, family) | wgmma) & narrowed, total, 0.0)


def narrowed_copy_note(triton: bool, config: KernelConfig, element_bytes: int, b_rows: int, threads: int,
                       narrow: tuple[bool, bool], rates: Rates, layout: tuple[float, float] = (1.0, 1.0)) -> str:  # fmt: skip
    """What narrowed_fill_cycles charges a kernel, in words ('' where it charges nothing)."""
    cycles = cta_model.shared_copy_instruction_s(rates.costs) * rates.clock_hz
    if not (triton and cycles and config.instruction in ("mma.sync", "wgmma")):
        return ""
    said, names = [], []
    for name, rows, one_element, factor in (
        ("A", config.bm, narrow[0], layout[0]),
        ("B", b_rows, narrow[1], layout[1]),
    ):
        copies = float(operand_narrowed_copies(config.instruction == "wgmma", rows, config.bk, element_bytes, threads,
                                               one_element, factor))  # fmt: skip
        if copies:
            names.append(name)
            said.append(f"{name}'s {rows * config.bk * element_bytes:,.0f} bytes as {copies:,.0f} copies of "
                        f"{rows * config.bk * element_bytes / copies:g} bytes")  # fmt: skip
    if not said:
        return ""
    part = " and ".join(f"{n}'s" for n in names) + (" parts" if len(names) > 1 else " part")
    return (f"; {part} of the stage {'have' if len(names) > 1 else 'has'} fewer 16-byte pieces than the CTA's "
            f"{threads} threads, so Triton copies {' and '.join(said)} (cp.async through L1), each warp's at "
            f"{cycles:.1f} SM cycles on this path (kernel_costs.copy_instruction_shared) in place of their bytes at the "
            "rate")  # fmt: skip


def operand_staging(triton: bool, family: Any, element_bytes: int, m: Any, n: Any, k: Any, a_m_major: Any,
                    b_n_major: Any, bm: Any, bn: Any) -> dict[str, Any]:  # fmt: skip
    """kernel_footprint's arguments for how the operands reach shared memory (copy_plan): ``staged``,
    the share of a stage copied through registers, (BM x [A] + BN x [B]) / (BM + BN) over the operands that are
    unaligned or laid out again (an 8-bit operand relaid under wgmma or gathered under mma.sync: the one whose layout
    factor is not 1; the other operand goes by cp.async straight to shared memory), ``single_a``/``single_b``, and
    ``narrow_rows``, the rows of the operands loaded one element at a time (their pointers' registers); and the
    layouts, ``a_m_major`` and ``b_n_major`` (footprint.fragments_take_turns).

    Until 2e86a60 a relaid or gathered stage counted both operands (staged 1): predict had the read sweeps' fp8 wgmma
    kernels with B N-major at a median 1.195 of their time, their compiled registers 17 under the rule's, and the
    2-warp mma.sync ones at 1.146, spilling 76 more than ptxas did (256x32x256: 1,152 against 118)."""
    plan = copy_plan(triton, family, element_bytes, m, n, k, a_m_major, b_n_major, bm, bn)
    (na, nb), (ua, ub) = plan.narrow, plan.unaligned
    through = plan.relaid | plan.gathered
    staged_a = ua | (through & (plan.fa != 1.0))
    staged_b = ub | (through & (plan.fb != 1.0))
    part = (bm * _where(staged_a, 1.0, 0.0) + bn * _where(staged_b, 1.0, 0.0)) / (bm + bn)
    return {"staged": part, "single_a": plan.single[0], "single_b": plan.single[1],
            "narrow_rows": bm * _where(na, 1, 0) + bn * _where(nb, 1, 0),
            "narrow_k_major": (na & _not(a_m_major)) | (nb & _not(b_n_major)), "a_m_major": a_m_major,
            "b_n_major": b_n_major}  # fmt: skip


def issued_stage_bytes(triton: bool, m: Any, n: Any, k: Any, bm: Any, bn: Any, bk: Any, element_bytes: int,
                       b_share: Any = 1.0) -> Any:  # fmt: skip
    """Bytes of the stage copies a Triton kernel's CTAs issue (``triton``: Triton's copy rules apply, triton_copies;
    else 0): tiles x ceil(K / BK) x (BM + BN x b_share) x BK x element bytes, tiles = ceil(M / BM) x ceil(N / BN),
    ``b_share`` the share of B's rows one CTA copies (B_SHARE). Its copies cover whole tiles: roofmodel's matmul masks
    the rows past M or N and the K past its end, and cp.async zero-fills them without reading, yet they take the path
    from the L2 at the rate requested copies do. On the read sweeps
    (H200 2026-11-23 to fresh77, H100 to fresh18, the held-out shapes of 2026-11-23 left out) Triton's wgmma decode
    kernels of 256x32 tiles, whose one tile row is mostly masked (M = 2 to 64), fill their stages at a median 30.8
    bytes a cycle an SM counting these copies (H100 31.9) and 6.6 counting only what they request, where the same
    tiles at the other shapes, masking almost nothing, fill at 31.8 (H100 29.9); 128x32: 28.8 against 33.3.
    The evidence is Triton's alone: a CUTLASS kernel's copies past the edges (sm90's TMA issues none; sm80's
    predicated cp.async was not measured) and a stated kernel's are left out, as are Triton's on a GPU without cp.async
    or on AMD's, whose loads follow rules not modelled (triton_copies). Numbers or numpy arrays."""
    tiles = _ceil_div(m, bm) * _ceil_div(n, bn)
    return _where(triton, tiles * _ceil_div(k, bk) * (bm + bn * b_share) * bk * element_bytes, 0.0)


def kernel_seconds(
    machine: Machine,
    rates: Rates,
    *,
    m: int,
    n: int,
    k: int,
    element_bytes: int,
    output_bytes: int,
    bm: Any,
    bn: Any,
    bk: Any,
    warps: Any,
    stages: Any,
    family: Any,
    rm: Any,
    rn: Any,
    a_m_major: Any,
    b_n_major: Any,
    footprint: dict[str, Any],
    requested: Any,
    distinct: Any,
    dram_read: Any,
    persistent: Any = False,
    latency_dram_read: Any = None,
    llc_read: Any = None,
    compiler: str = "triton",
    a_requested: Any = None,
    a_latency_dram_read: Any = None,
) -> dict[str, Any]:
    """Every term of the per-CTA model (roofmodel.cta_model.kernel_terms), in seconds, for kernels
    given as numbers or numpy arrays: the family's rate, the operand and stage-fill bytes each
    iteration reads from and writes to shared memory (with the layout factors), spills at the
    measured spill bandwidth (the shared-memory bandwidth where the file has none), the mean loaded latency from the
    raster model's hit rate (a synchronous load's wait: synchronous_wait_cycles), C's bytes per tile, DRAM and
    L2 from the raster traffic (``requested``, ``distinct``, ``dram_read`` bytes, the operands' requests taking
    l2_request_factor times their bytes' time where the file gives the L2's requests per sector; the latency's
    hit rate from ``latency_dram_read`` where given, the search's lower bound; a synchronous load's wait at the hit
    rate of the operands it loads, where ``a_requested`` and ``a_latency_dram_read``, A's part of ``requested`` and
    of those DRAM reads, are given: synchronous_hit_bytes); with a last-level cache,
    ``dram_read`` is what DRAM serves through it and ``llc_read`` what the L2 reads from it (its term:
    (llc_read + C) / its bandwidth). Loads are synchronous where the CopyPlan says so (``compiler``:
    Triton's rules apply to a Triton kernel, triton_copies)."""
    sms, clock = machine.sm_count.n, rates.clock_hz
    e = element_bytes
    c = footprint["ctas_per_sm"]
    triton = triton_copies(machine, compiler)
    plan = copy_plan(triton, family, e, m, n, k, a_m_major, b_n_major, bm, bn, machine.warp_size)
    fa, fb, (na, nb) = plan.fa, plan.fb, plan.narrow
    # An operand copied one element per request (narrow) costs its fill what an operand stored
    # against the instruction's layout costs: 16 / element bytes requests per 16 bytes. (A warp's
    # element copies land together, 32 x e bytes a wavefront, which would say 4 / e; on the training
    # shapes 4 / e is the worse of the two, median |log error| 0.193 -> 0.196.)
    wide = 16.0 / e
    fill_a, fill_b = _maximum(fa, _where(na, wide, 1.0)), _maximum(fb, _where(nb, wide, 1.0))
    b_share = _take(B_SHARE, family)
    rows = _minimum(rm, _take(ROWS_PER_B_READ, family))
    # An operand read one element per thread (operand_read_factors) is read by the MMA warps themselves,
    # which wait on it before their MMAs: its reads go in series (kernel_terms' gathered bytes), the
    # others' stay on the shared-memory pipe beside the MMAs.
    if e == 2:  # 16-bit operands are never read element-wise (ldmatrix.trans): the arrays are all ones
        gathered, piped_a, piped_b = 0.0, 1.0, 1.0
    else:
        ra, rb = operand_read_factors(family, e, a_m_major, b_n_major)
        gathered = bm * bn * bk * (_where(rb != 1.0, rb, 0.0) / rows + _where(ra != 1.0, ra, 0.0) / rn) * e
        piped_a, piped_b = _where(ra != 1.0, 0.0, 1.0), _where(rb != 1.0, 0.0, 1.0)
    operand = smem_operand_bytes(bm, bn, bk, e, rows, rn, piped_a, piped_b)
    # A Triton FMA kernel's reads, in its own layout, take the wavefronts their bank conflicts say (fma_layout), each
    # charged as 128 bytes; another compiler's are assumed conflict-free, their bytes over 128.
    triton_fma = (family == FAMILIES.index("fma")) & triton_fma_layout_applies(machine, compiler, e)
    lone = 0.0
    if triton_fma.any() if is_array(triton_fma) else triton_fma:
        layout = triton_fma_layout(bm, bn, warps, machine.warp_size)
        reads = fma_read_wavefronts(layout, bk, e, a_m_major, b_n_major, machine.warp_size) * WAVEFRONT_BYTES
        operand = _where(triton_fma, reads, operand)
        lone = _where(triton_fma, lone_fma_cycles(layout.rm, bm, bn, bk, warps, machine.warp_size,
                                                  rates.costs.fma_lone_issue_s * clock), 0.0)  # fmt: skip
    per_cycle_per_sm = sms * clock
    smem_rate = rates.smem_bps / per_cycle_per_sm  # bytes per SM cycle
    spilled = footprint.get("loop_spilled", footprint["spilled"])
    # mma.sync's spills cost a store and reload per iteration as often as the counters say (cta_model); where
    # the compiled loop's own local loads and stores were counted (footprint's loop_counted), those, and where the rule
    # charged spilled accumulators as such a loop (footprint.loop_as_counted), the rule's.
    counted = loop_as_counted(footprint)
    spilled = charged_spills(spilled, (family == FAMILIES.index("mma.sync")) & (compiler == "triton") & _not(counted))
    tiles = _ceil_div(m, bm) * _ceil_div(n, bn)
    spill_rate, reload_factor = spill_rates(rates, footprint, warps * machine.warp_size, tiles, c, sms, family)
    # The chip's last round, on its own tiles: fewer SMs spilling and fewer frames (cta_model.last_round_tiles).
    last_spill_rate, _ = spill_rates(rates, footprint, warps * machine.warp_size,
                                     cta_model.last_round_tiles(tiles, c, sms), c, sms, family)  # fmt: skip
    latency = 0.0
    exposed = None
    dram_latency_s = None
    if rates.l2_loaded_latency_cycles is not None and rates.dram_loaded_latency_cycles is not None:
        hit_read = dram_read if latency_dram_read is None else latency_dram_read
        latency = mean_latency_cycles(hit_read, requested, rates.l2_loaded_latency_cycles,
                                      rates.dram_loaded_latency_cycles)  # fmt: skip
        if rates.latency_known:
            beside = pipelined_share(plan, bm, bn * b_share)
            # Only a synchronous load waits (the search's aligned arrays skip the arithmetic: all pipelined, 1).
            if any(x.any() if is_array(x) else x for x in plan.single):
                beside = beside_share(beside, cta_model.resident_ctas(c, tiles, sms))
            sync_read, sync_requested = synchronous_hit_bytes(plan, hit_read, requested, a_latency_dram_read,
                                                              a_requested)  # fmt: skip
            exposed = synchronous_wait_cycles(
                plan,
                mean_latency_cycles(sync_read, sync_requested, rates.l2_loaded_latency_cycles,
                                    rates.dram_loaded_latency_cycles),
                mean_latency_cycles(sync_read, sync_requested, rates.l2_latency_cycles, rates.dram_latency_cycles),
                beside,
            )  # fmt: skip
        dram_latency_s = rates.dram_loaded_latency_cycles / clock
    fam_rates = tuple(rates.kernel_fma_per_s(f, compiler) / clock for f in FAMILIES)
    c_bytes = float(m * n * output_bytes)
    repeated = _maximum(0.0, requested - distinct)
    # The operand requests, as bytes at the L2's data rate: more where their copies' runs bind its tag stage.
    stride_a, stride_b = _where(a_m_major, m, k), _where(b_n_major, n, k)
    request_factor = l2_request_factor(rates.l2_requests_per_sector, e, bm, bn * b_share, bk, a_m_major, b_n_major,
                                       stride_a, stride_b)  # fmt: skip
    # Where 8-bit rows start 16 bytes into a sector, each requested byte of them moves a whole sector's worth: the
    # operand requests' bytes and requests alike (split_sector_factor). Masked copies fetch nothing, split or not.
    split_a, split_b = split_operands(e, stride_a, stride_b, *sector_copies(triton, plan, a_m_major, b_n_major))
    split = split_sector_factor(e, bm, bn * b_share, split_a, split_b)
    l2_requests = requested * split * request_factor
    l2_rate = rates.l2_stream_bps
    # Every copy the CTAs issue, the masked ones too, at the rate the L2 path takes GEMM copies (issued_stage_bytes;
    # where the machine file measured it: the evidence's rate). Where none is masked they are the requested bytes, which
    # the L2 term charges with C at that rate: the bound cannot pass it, and is 0.
    issued = issued_stage_bytes(triton, m, n, k, bm, bn, bk, e, b_share)
    issued_s = (_where(issued > requested * (1 + 1e-12),
                       (issued + requested * (split - 1.0)) * request_factor / rates.l2_gemm_bps, 0.0)
                if rates.l2_gemm_bps else 0.0)  # fmt: skip
    dram_requests = dram_request_seconds(rates.dram_requests_per_s, e, m, n, bm, bn * b_share, bk, a_m_major, b_n_major,
                                         dram_read, c_bytes)  # fmt: skip
    writeback = flush_writeback_seconds(rates.costs.flush_writeback_s, dram_read + c_bytes,
                                        machine.memory.l2.capacity.bytes)  # fmt: skip
    return kernel_terms(
        kmajor_copy_cycles=kmajor_copy_cycles(triton, family, e, a_m_major, b_n_major, plan.narrow, bm, bn * b_share,
                                              bk, warps, machine.warp_size, rates.costs.kmajor_copy_s * clock),
        sms=sms, clock_hz=clock, m=m, n=n, k=k, bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, ctas_per_sm=c,
        fma_per_cycle_per_sm=_take(fam_rates, family), instruction_rows=_take(INSTRUCTION_ROWS, family),
        warpgroup=_take(WARPGROUP, family), smem_operand_bytes_per_iter=operand,
        smem_fill_bytes_per_iter=(bm * fill_a + bn * b_share * fill_b) * bk * e, smem_bytes_per_cycle=smem_rate,
        spilled_registers=spilled,
        # An MN-major operand copied one element at a time lands transposed: no register transpose.
        gathered_bytes_per_iter=gathered,
        converted_elements_per_iter=converted_elements(family, e, warps, bm, bn, bk, rm, rn),
        gathered_elements_per_iter=gathered_elements(family, e, warps, bm, bn, bk, rm, rn, a_m_major, b_n_major),
        transposed_elements_per_iter=transposed_elements(family, e, a_m_major & _not(na), b_n_major & _not(nb), bm, bn, bk),
        spill_bytes_per_cycle=spill_rate, last_spill_bytes_per_cycle=last_spill_rate,
        load_latency_cycles=latency, synchronous_loads=plan.synchronous, exposed_latency_cycles=exposed,
        issues_copies=_take(ISSUES_OWN_COPIES, family),
        fenced_copies=fenced_copies(plan, family),
        stage_copies_per_iter=(bm * _where(na, wide, 1.0) + bn * b_share * _where(nb, wide, 1.0)) * bk * e / 16.0,
        fill_copy_cycles=narrowed_fill_cycles(triton, family, e, (bm, bn * b_share), bk, warps * machine.warp_size,
                                              (na, nb), (bm * fill_a * bk * e, bn * b_share * fill_b * bk * e),
                                              smem_rate, cta_model.shared_copy_instruction_s(rates.costs) * clock,
                                              machine.warp_size, (plan.fa, plan.fb)),
        element_copies_per_iter=element_copies(plan, family, e, bm, bn * b_share, bk),
        element_copies_only=copies_all_of_elements(plan, family, e, a_m_major, b_n_major, footprint["spilled"]),
        c_bytes_per_tile=bm * bn * output_bytes, dram_write_bytes_per_cycle_per_sm=rates.dram_bps / per_cycle_per_sm,
        stage_bytes=(bm + bn * b_share) * bk * e, dram_bytes=dram_read + c_bytes, dram_bps=rates.dram_bps,
        dram_request_seconds=dram_requests,
        flush_writeback_seconds=writeback,
        dram_latency_s=dram_latency_s,
        # A stage streams in at the SM's share of the L2 (cta_model.stage_stream_cycles), where the file gives
        # latencies; the L2 serves a CTA its share of the requested bytes (a cluster's multicast divides them).
        l2_bytes_per_cycle=l2_rate / clock if dram_latency_s is not None and math.isfinite(l2_rate) else None,
        l2_requested_bytes=requested,
        l2_seconds=(l2_requests + c_bytes) / rates.l2_gemm_bps
        if rates.l2_gemm_bps
        else l2_seconds(requested * split + c_bytes, repeated * split, rates.l2_bps, rates.l2_same_address_bps),
        costs=rates.costs, persistent=persistent, warp_size=machine.warp_size,
        llc_seconds=(llc_read + c_bytes) / rates.llc_bps if rates.llc_bps and llc_read is not None else 0.0,
        issued_copy_seconds=issued_s,
        spill_wait_cycles=footprint.get("loop_waits", 0) * rates.costs.spill_wait_s * reload_factor * clock,
        lone_warp_cycles=lone,
        waits_each_wgmma=waits_each_wgmma(triton, family, e, bm, bn, warps, b_n_major,
                                          footprint.get("wgmma_waits_each")),
        conflicting_reads=triton_fma & _not(b_n_major),
    )  # fmt: skip


# The L2's units: a request reads sectors of one 128-byte line (NVIDIA's L2: 32-byte sectors, four to a line).
SECTOR_BYTES = 32
LINE_BYTES = 128


def run_lines(run_bytes: Any, stride_bytes: Any = None) -> Any:
    """The mean number of 128-byte lines a contiguous run of ``run_bytes`` touches, where runs start every
    ``stride_bytes`` (an operand's leading stride) and at multiples of their own length along it: their starts fall
    uniformly on the multiples of G = gcd(stride, run, 128) within a line (a power of two: the lowest set bit of
    either, at most 128), and a run at offset o spans ceil((o + run) / 128) lines. With R - 1 = 128 q + r, the
    offsets at or past 128 - r are floor(r / G) of the 128 / G: 1 + q + floor(r / G) x G / 128 lines. Aligned strides
    (multiples of 128 bytes, or None) and runs that divide a line give 1 line a run (ceil(run / 128) for longer
    runs). Whole numbers of bytes, as numbers or numpy arrays."""
    run = _whole(run_bytes)
    g = _minimum(_lowest_set_bit(run), LINE_BYTES)
    if stride_bytes is not None:
        stride = _whole(stride_bytes)
        g = _minimum(g, _where(stride == 0, LINE_BYTES, _lowest_set_bit(stride)))
    q, r = divmod(run - 1, LINE_BYTES)
    return 1.0 + q + (r // g) * g / LINE_BYTES


def copy_requests_per_sector(element_bytes: int, bm: Any, b_rows: Any, bk: Any, a_m_major: Any, b_n_major: Any,
                             stride_a: Any = None, stride_b: Any = None) -> Any:  # fmt: skip
    """Line requests per 32-byte sector of a stage's copies: each operand's tile rows are contiguous runs of
    BK x e bytes (K-major) or BM x e / ``b_rows`` x e (MN-major; ``b_rows``: the BN x B_SHARE columns of B a CTA
    copies), requested 128 bytes at most at a time (a longer run in 128-byte pieces); a piece is a request per line it
    touches (run_lines), run_lines x 32 / piece bytes per sector, averaged over the operands' bytes (BM and
    ``b_rows`` rows of BK elements). ``stride_a``/``stride_b``: the operands' leading
    strides in elements (K for a K-major operand, M or N for an MN-major one); None takes every run to start on a
    line. Aligned: 0.25 for runs of 128 bytes or more, 0.5 for 64-byte runs (fp16 with BK 32 K-major), 1 for 32-byte
    ones; fp16 rows 32 bytes apart in a line (K = 4112) take 64-byte runs to 0.625 and whole lines to 0.4375.
    Numbers or numpy arrays."""
    per_a, per_b = operand_requests_per_sector(element_bytes, bm, b_rows, bk, a_m_major, b_n_major, stride_a, stride_b)
    return (bm * per_a + b_rows * per_b) / (bm + b_rows)


def operand_requests_per_sector(element_bytes: int, bm: Any, b_rows: Any, bk: Any, a_m_major: Any, b_n_major: Any,
                                stride_a: Any = None, stride_b: Any = None) -> tuple[Any, Any]:  # fmt: skip
    """(A's, B's) line requests per 32-byte sector of their copies: run_lines x 32 / piece bytes, a piece being a
    tile row's run (BK x e K-major, BM x e or ``b_rows`` x e MN-major) up to a 128-byte line
    (copy_requests_per_sector's terms). Numbers or numpy arrays."""
    chunk_a = _minimum(_where(a_m_major, bm, bk) * element_bytes, LINE_BYTES)
    chunk_b = _minimum(_where(b_n_major, b_rows, bk) * element_bytes, LINE_BYTES)
    return _pieces_per_sector(chunk_a, stride_a, element_bytes), _pieces_per_sector(chunk_b, stride_b, element_bytes)


def sector_copies(triton: Any, plan: CopyPlan, a_m_major: Any, b_n_major: Any) -> tuple[Any, Any]:
    """Whether A and B are K-major and go to shared memory by Triton's 16-byte cp.async (split_operands' ``copied_a``
    and ``copied_b``): a Triton kernel's K-major operands that are neither copied one element at a time nor kept single
    (unaligned). The odd-K check (benchmarks/gpu_odd_k_counters.py, docs/measurements/h200-2026-12-01/odd_k, NVIDIA
    H200, Nsight Compute) counted such copies: one fp8 wgmma binary with both operands K-major at M = N = 4096 sends the
    SMs 1.50 x the sectors its copies request at K = 2000 and 2032 (every other row 16 bytes into a sector), 2.00 x
    with every row so (both operands 16 bytes into their buffers) and 1.00 x at K = 2048 and 2016, in three tiles, DRAM
    reading the same bytes throughout; against K = 2016, whose rows cross lines as K = 2000's do but start on sectors,
    its time rises 1.44-1.54 x. An MN-major 8-bit operand (relaid through registers under wgmma, gathered from shared
    memory under mma.sync) was not counted and is left out: taking it as well failed its judge (docs/validation.md).
    So is a buffer that does not itself start on a sector (the model takes them aligned, as PyTorch allocates them)."""
    (na, nb), (sa, sb) = plan.narrow, plan.single
    return (triton & _not(a_m_major) & _not(na) & _not(sa), triton & _not(b_n_major) & _not(nb) & _not(sb))


def split_operands(element_bytes: int, stride_a: Any, stride_b: Any, copied_a: Any, copied_b: Any) -> tuple[Any, Any]:
    """Whether A's and B's rows alternate between starting on a 32-byte sector and 16 bytes into one where they are
    copied 16 bytes at a time (``copied_a``/``copied_b``: sector_copies): an 8-bit operand whose leading stride
    (``stride_a``/``stride_b``, elements) is an odd multiple of 16 bytes. Always False for 16- and 32-bit operands:
    Triton copies 16 bytes at a time only where a stride is a multiple of 16 elements (its divisibility
    specialization), 32 or 64 bytes, whole sectors. Numbers or numpy arrays."""
    if element_bytes != 1:
        return False, False
    half = SECTOR_BYTES // 2
    split_a = copied_a & (stride_a * element_bytes % SECTOR_BYTES == half)
    split_b = copied_b & (stride_b * element_bytes % SECTOR_BYTES == half)
    return split_a, split_b


def split_sector_factor(element_bytes: int, bm: Any, b_rows: Any, split_a: Any, split_b: Any) -> Any:
    """Sectors the operand copies move through the L2 per 32 bytes they request (dimensionless, >= 1): a 16-byte copy
    from a row that starts 16 bytes into a 32-byte sector brings the whole sector, and a split operand's rows
    (split_operands) alternate between such rows and rows on a sector, so half its bytes move twice:

        1 + 0.5 x (BM x [A split] + b_rows x [B split]) / (BM + b_rows),

    1.5 where both are split, 1 where neither (every 16- and 32-bit kernel). Each split sector is also its own
    request: kernel_seconds scales the operand requests' bytes and their l2_request_factor alike. Evidence: the odd-K
    check (sector_copies). Numbers or numpy arrays."""
    if element_bytes != 1:
        return 1.0
    rows = bm * _where(split_a, 0.5, 0.0) + b_rows * _where(split_b, 0.5, 0.0)
    return 1.0 + rows / (bm + b_rows)


# C leaves the L2 for DRAM as whole lines (its partial-line stores merge in the L2 before they are written back).
WRITE_BACK_REQUESTS_PER_SECTOR = SECTOR_BYTES / LINE_BYTES


def flush_writeback_seconds(writeback_s: float, l2_allocated_bytes: Any, l2_bytes: float) -> Any:
    """Seconds a kernel's DRAM spends writing back the dirty lines the timer's L2 flush leaves (do_bench zeroes 256 MB
    before each run), where it brings ``l2_allocated_bytes`` into an L2 of ``l2_bytes`` (its DRAM reads and C):

        writeback_s x (1 - exp(-l2_allocated_bytes / l2_bytes)),

    the share of the resident lines that many new ones evict when each evicts a resident line at random, of
    ``writeback_s``, the time of all of them (kernel_costs.flush_writeback). On the H200 (8.54 us, 60 MiB) a kernel
    bringing in 15 MB pays 1.8 us, 59 MB 5.2 us, 470 MB all of it (benchmarks/gpu_flush_check.py). Numbers or arrays."""
    if not writeback_s:
        return 0.0
    return writeback_s * (1.0 - _exp(-l2_allocated_bytes / l2_bytes))


def dram_request_seconds(requests_per_s: float | None, element_bytes: int, m: int, n: int, bm: Any, b_rows: Any,
                         bk: Any, a_m_major: Any, b_n_major: Any, dram_read: Any, c_bytes: float) -> Any:  # fmt: skip
    """Seconds the path from DRAM takes to serve a kernel's line requests at ``requests_per_s``
    (memory.dram.requests_per_sector x the measured rate / 32 B; 0 where the file has no figure):

        (dram_read x q_read + C x 1/4) / 32 B / requests_per_s,

    q_read the operands' requests per sector (operand_requests_per_sector, every row taken to start on a line)
    weighted by the bytes each must read at least (M x K of A, N x K of B), and C written back in whole lines. It
    binds where the copies' runs are shorter than a line: on the H200 (0.330) a stream of 64-byte runs (0.5 requests
    a sector) goes at 0.330 / 0.5 = 66% of the measured rate, of 32-byte runs at 33% (benchmarks/gpu_dram_runs.py,
    measured on rows that start on a line: what a run across two lines costs DRAM is not, so none is charged).
    Numbers or numpy arrays."""
    if not requests_per_s:
        return 0.0
    per_a, per_b = operand_requests_per_sector(element_bytes, bm, b_rows, bk, a_m_major, b_n_major)
    q_read = (m * per_a + n * per_b) / (m + n)
    return (dram_read * q_read + c_bytes * WRITE_BACK_REQUESTS_PER_SECTOR) / SECTOR_BYTES / requests_per_s


def _pieces_per_sector(piece_bytes: Any, stride: Any, element_bytes: int) -> Any:
    """run_lines x 32 / piece bytes; 32 / piece bytes outright where the stride (elements) is None or a number whose
    bytes are a multiple of a line (every piece on a line: the search's usual case, kept fast)."""
    if stride is None or (not is_array(stride) and stride * element_bytes % LINE_BYTES == 0):
        return SECTOR_BYTES / piece_bytes
    return run_lines(piece_bytes, stride * element_bytes) * SECTOR_BYTES / piece_bytes


def l2_request_factor(limit: float | None, element_bytes: int, bm: Any, b_rows: Any, bk: Any, a_m_major: Any,
                      b_n_major: Any, stride_a: Any = None, stride_b: Any = None) -> Any:  # fmt: skip
    """max(1, copy_requests_per_sector / limit): how much longer than their bytes at the L2's data rate the
    operand requests take where the tag stage, leaving the copies at most ``limit`` requests per sector of that rate
    (memory.l2.requests_per_sector), binds first; 1 where the file has no limit. On the H100 (0.455) a kernel
    whose operands are both copied in 64-byte runs takes 0.5 / 0.455 = 1.10 x; one with 128-byte runs on one
    operand and 64-byte ones on the other (0.375) is not bound (benchmarks/gpu_row_check.py: the first kind's L2
    throughput is its tag stage's, 76-95% of peak, the second's its data path's). Measured on Triton's cp.async
    copies with runs of 64 bytes and more; applied as well to other compilers' copies (TMA's, assumed alike) and to
    shorter runs (32-byte runs: 1 / 0.455 = 2.2 x), neither measured. ``stride_a``/``stride_b`` (elements): the
    operands' leading strides, where rows that do not start on a line ask more (copy_requests_per_sector; the row
    check at 4112, docs/measurements/h100-2026-11-27/row_check_4112); None takes them aligned."""
    if limit is None:
        return 1.0
    q = copy_requests_per_sector(element_bytes, bm, b_rows, bk, a_m_major, b_n_major, stride_a, stride_b)
    return _maximum(q / limit, 1.0)


# The A fragment (rm x BK values a thread of Triton's FMA layout reads of A in an iteration) past which a warp alone on
# its SM sub-partition stalls (kernel_costs.fma_lone_issue): a boundary observed, not explained. The FMA-occupancy check
# (docs/measurements/h200-2026-11-29/fma_occupancy) timed lone warps with fragments of 256 ((rm, BK) = (8, 32), (16,
# 16)) as the model's chain says (within 9%) and of 512 ((16, 32)) 39-44% slower, whatever the registers (64x64x16 on 2
# warps at 254 registers ran as the chain says, 64x64x32 on 2 warps at 168 did not); Triton's rm and BK are powers of
# two, so no fragment lies between. The FMA-boundary check (h200-2026-11-29/fma_boundary, planned after the rule) then
# found it holding at BK 64 (rm 8: 512, a stall) and at rm 16 x BK 16 (256, none). Not timed: BK 8, fragments past 512
# without spills, B's fragment (rn x BK) where rn = 8 (BN = 256 on one warp), which the rule ignores.
FMA_FRAGMENT_FIT = 256


def lone_fma_cycles(rm: Any, bm: Any, bn: Any, bk: Any, warps: Any, warp_size: int, lone_cycles_per_ffma: float) -> Any:
    """SM cycles one warp of a Triton FMA loop takes over its iteration where it issues alone on its sub-partition:
    its FFMAs (BM x BN x BK / (warp size x warps)) x kernel_costs.fma_lone_issue (cycles an FFMA, the whole iteration
    over its FFMAs), where its thread's A fragment rm x BK passes FMA_FRAGMENT_FIT and the CTA has no more warps than
    an SM has sub-partitions (more put two warps of the CTA on one: cta_model.SUB_PARTITIONS); 0 elsewhere or where the
    file has no such figure. kernel_terms takes it as a floor under each stream's chain. Numbers or numpy arrays."""
    if not lone_cycles_per_ffma:
        return 0.0
    past = (rm * bk > FMA_FRAGMENT_FIT) & (warps <= cta_model.SUB_PARTITIONS)
    return _where(past, bm * bn * bk / (warp_size * warps) * lone_cycles_per_ffma, 0.0)


def lone_fma_note(machine: Machine, rates: Rates, config: KernelConfig, element_bytes: int) -> str:
    """predict's words for lone_fma_cycles, where it passes one warp's FFMAs at the pipe's rate."""
    if config.instruction != "fma" or not triton_fma_layout_applies(machine, config.compiler, element_bytes):
        return ""
    rm = triton_fma_layout(config.bm, config.bn, config.warps, machine.warp_size).rm
    per_ffma = rates.costs.fma_lone_issue_s * rates.clock_hz
    cycles = float(lone_fma_cycles(rm, config.bm, config.bn, config.bk, config.warps, machine.warp_size, per_ffma))
    ffma = config.bm * config.bn * config.bk // (machine.warp_size * config.warps)
    fma_per_cycle = rates.kernel_fma_per_s("fma", config.compiler) / rates.clock_hz
    piped = ffma * machine.warp_size * cta_model.SUB_PARTITIONS / fma_per_cycle
    if cycles <= piped:
        return ""
    return (f"; a warp takes at least {per_ffma:.2f} cycles an FFMA over its iteration (kernel_costs.fma_lone_issue, "
            f"measured on warps alone on their sub-partitions: its thread's A fragment, {rm} x {config.bk} = "
            f"{rm * config.bk}, passes {FMA_FRAGMENT_FIT}): {ffma:,} x {per_ffma:.2f} = {cycles:,.0f} cycles, against "
            f"{piped:,.0f} for its FFMAs at the pipe's rate; a round of the CTAs an SM holds takes the longer of that "
            "and their FFMAs at the pipe's rate")  # fmt: skip


def triton_fma_layout_applies(machine: Machine, compiler: str, element_bytes: int) -> bool:
    """Whether a kernel's FMA operand reads are fma_layout's wavefronts: a Triton kernel on an NVIDIA GPU (32 banks of
    4 bytes; Triton lays an FMA dot out the same way on every NVIDIA target, with or without cp.async) with 4-byte
    elements, the only ones measured (docs/measurements/h100-2026-11-27/fma_wavefronts). Elsewhere (another
    compiler, AMD's LDS, fp64's DFMA or a 16-bit FMA dot) the reads are charged their bytes over 128, unmeasured."""
    return compiler == "triton" and machine.nvidia_capability is not None and element_bytes == 4


def fma_reads_note(config: KernelConfig, element_bytes: int, a_m_major: bool, b_n_major: bool, warp_size: int) -> str:
    """What predict says of a Triton FMA kernel's operand reads: Triton's layout and the wavefronts it takes, and with
    B K-major the norm by which they combine with the FFMAs."""
    lay = triton_fma_layout(config.bm, config.bn, config.warps, warp_size)
    wavefronts = fma_read_wavefronts(lay, config.bk, element_bytes, a_m_major, b_n_major, warp_size)
    return (f"{int(wavefronts):,} wavefronts of {WAVEFRONT_BYTES} B a CTA an iteration in Triton's FMA layout: "
            f"{lay.size}x{lay.size} a thread, lanes {lay.lanes_m}x{lay.lanes_n}, each thread {lay.rm}x{lay.rn} of C; "
            "K-major operands read along K with the bank conflicts fma_layout counts"
            + ("" if b_n_major else f"; with B K-major its FFMAs and these reads take their {cta_model.CONFLICTING_PIPE_NORM:g}"
               f"-norm, not the {cta_model.ISSUED_PIPE_NORM:g}-norm (cta_model.CONFLICTING_PIPE_NORM)"))  # fmt: skip


def spill_frame_registers(footprint: dict[str, Any]) -> Any:
    """The spilled registers per thread the main loop reuses each iteration: the compiled spills, or fewer where
    the loop was counted or the register rule says it holds the rest (footprint's loop_spilled)."""
    return _minimum(footprint["spilled"], footprint.get("loop_spilled", footprint["spilled"]))


def spill_frame_bytes(footprint: dict[str, Any], threads_per_cta: Any, tiles: Any, ctas_per_sm: Any, sms: int) -> Any:
    """Bytes of local memory the spilled registers the loop reuses take over the CTAs resident at once:
    spill_frame_registers x 4 B x threads x min(tiles, CTAs per SM x SMs) (cta_model.resident_frame_bytes)."""
    return cta_model.resident_frame_bytes(spill_frame_registers(footprint), threads_per_cta,
                                          _minimum(tiles, ctas_per_sm * sms))  # fmt: skip


def spill_home_levels(rates: Rates, active_sms: Any) -> tuple[tuple[str, float, Any, float | None], ...]:
    """The levels beyond the L2 that spills reach, in order: (name, capacity bytes, bytes per cycle per SM of the
    ``active_sms`` the grid fills, latency cycles or None): the last-level cache where the file has one, then DRAM."""
    per_cycle = active_sms * rates.clock_hz
    out: list[tuple[str, float, Any, float | None]] = []
    if rates.llc_bps is not None and rates.llc_capacity_bytes is not None:
        out.append(
            ("the last-level cache", rates.llc_capacity_bytes, rates.llc_bps / per_cycle, rates.llc_latency_cycles)
        )
    out.append(("DRAM", math.inf, rates.dram_bps / per_cycle, rates.dram_latency_cycles))
    return tuple(out)


def cyclic_frames(family: Any, counted: Any = False) -> Any:
    """Whether a kernel's spilled loop registers are reused in turn, each once an iteration with every other frame
    of the chip touched between (cta_model.reuse_miss_share): a wgmma kernel's, whose loop spills only where the
    accumulators and what the rule adds to them pass the allocation (footprint.kernel_footprint's fits_loop), so
    that what it stores and reloads are accumulators, every one once a wgmma; and an mma.sync kernel's (any
    compiler's) where its loop's local bytes were counted in the SASS, or where the register rule charges its spilled
    accumulators or its loop on the stack as such a loop (``counted``: footprint.loop_as_counted; pre-registered with
    those rules in 36707e7 and ef79ce4). That
    one is a choice made on read data, not a measured order: an mma.sync loop's counted bytes / 8 can pass its spilled
    registers (some reloaded more than once a pass, the repeats with a short reuse distance), and its waits keep
    uniform reuse (cyclic_waits). With its counted bytes, uniform reuse made the read H200 sweeps' kernels at 5-8 CTAs
    an SM with frames past the L2 too fast (+1.8% -> -17.7% median signed); the pair, counted bytes reused in turn,
    was pre-registered in 04fe70b and passed its judge, fresh35. An mma.sync loop that was not counted keeps uniform
    reuse (cache_miss_share): its reload count (cta_model.mma_sync_spill_reloads) was fitted with it, before frames
    were homed, and on the read H100 sweeps (2026-11-23 to fresh17, as compiled, median signed) cyclic reuse made the
    kernels it would move too slow (+5.5% -> +25.2%, n = 753). FMA loops keep uniform reuse: their frames' order was
    not measured, and on those sweeps the rule made them too slow (-11.4% -> +19.1%, n = 123) where it took wgmma's
    from -35.5% to -8.0% (n = 371; |error| 35.5% -> 13.3%): choices made on read data. tcgen05 keeps its accumulators
    in tensor memory: not cyclic. Numbers or numpy arrays."""
    return (family == FAMILIES.index("wgmma")) | ((family == FAMILIES.index("mma.sync")) & counted)


def cyclic_waits(family: Any) -> Any:
    """Whether the reloads a warp of a kernel waits on miss the L2 as its frames' bytes do (cyclic_frames): a wgmma
    kernel's, whose waits are on the accumulators it stores and reloads in turn (and, where the register rule charges
    them, on its spilled K-major element pointers: the same choice, not measured apart). An mma.sync kernel's waits take
    uniform reuse (1 - L2 / frames: none while the frames fit the L2) even where its bytes are reused in turn, a choice
    made on read data. fresh29's 14 kernels compiled to 32 registers (42.5-335 MiB of frames, 114-1,417 waits an
    iteration) go from 15.8% to 39.3% median |error| with their waits on the cyclic ramp (its factors median 2.29 x
    kernel_costs.spill_wait); the one with 51.4 MiB and 597 waits takes 1.33 x spill_wait a wait measured, where
    uniform reuse says 1.00 (-25%) and the ramp 1.86 (+40%). On the read H200 sweeps (to fresh34) the waits on the
    ramp as well took the counted mma.sync kernels at 2 CTAs an SM with 50-100 MiB of frames (the compiled spills')
    from +1.5% to +41.2% median signed (n = 75), at 3-4 from +17.2% to +33.7% (n = 114); all the kernels that variant
    moved went 14.0% -> 12.5% median |error|, this rule's 14.6% -> 12.4% (different sets): the choice rests on those
    groups and fresh29, not on the whole. Numbers or numpy arrays."""
    return family == FAMILIES.index("wgmma")


def grid_bound_spills(family: Any) -> Any:
    """Whether a kernel's spills move faster on a grid that fills fewer SMs (cta_model.grid_spill_rate): a wgmma
    kernel's, whose reloaded accumulators are its wgmma's operands. Measured on the H200's spill grids
    (docs/measurements/h200-2026-11-29/spill_grids: the five wgmma pairs 25.9 B/cycle/SM median on 132 tiles, 33.4-33.7
    on 66, 33 and 16), where the mma.sync pairs (two warps, one CTA an SM: 41-53 raw on every grid, one reload a
    spilled register assumed) and the FMA pair (10.6-10.7 down to 33 tiles, 13.6 on 16) do not change. Numbers or
    numpy arrays."""
    return family == FAMILIES.index("wgmma")


def held_spill_rate(rates: Rates, tiles: Any, sms: int, family: Any = None) -> Any:
    """Bytes per cycle per SM a kernel's spills move at where the L2 holds them: kernel_costs.spill_bandwidth, or for
    the ``family`` whose spills move faster on fewer SMs (grid_bound_spills) cta_model.grid_spill_rate of it and
    kernel_costs.spill_bandwidth_alone over min(tiles, SMs), where the file has both; the shared-memory bandwidth
    where it has no spill bandwidth. Numbers or numpy arrays."""
    measured = (rates.spill_bps or rates.smem_bps) / (sms * rates.clock_hz)
    if rates.spill_bps is None or rates.spill_alone_bps_per_sm is None or family is None:
        return measured
    alone = rates.spill_alone_bps_per_sm / rates.clock_hz
    return _where(grid_bound_spills(family), cta_model.grid_spill_rate(measured, alone, tiles, sms), measured)


def spill_rates(
    rates: Rates,
    footprint: dict[str, Any],
    threads_per_cta: Any,
    tiles: Any,
    ctas_per_sm: Any,
    sms: int,
    family: Any = None,
) -> tuple[Any, Any]:
    """cta_model.spill_home for a machine's rates: the bytes per cycle per SM spills move at and the factor on a
    reload's round trip. The frames are the loop's spilled registers (spill_frame_registers) x 4 B x threads x
    the CTAs resident at once (min(tiles, CTAs per SM x SMs)); the levels beyond the L2 share their bandwidth
    among the SMs the grid fills (min(tiles, SMs)); the L2 misses the frames a ``family`` reuses in turn
    (cyclic_frames) by its measured reuse capacity (l2_frame_miss_share). Only where the file measures the spill
    bandwidth (the rate of spills the L2 holds) and names the L2's capacity; elsewhere the shared-memory bandwidth
    stands in, unhomed."""
    measured = held_spill_rate(rates, tiles, sms, family)
    if rates.l2_capacity_bytes is None or rates.spill_bps is None:
        return measured, 1.0
    frames = spill_frame_bytes(footprint, threads_per_cta, tiles, ctas_per_sm, sms)
    beyond = tuple((cap, rate, lat) for _, cap, rate, lat in spill_home_levels(rates, _minimum(tiles, sms)))
    cyclic = False if family is None else cyclic_frames(family, loop_as_counted(footprint))
    l2_miss = cta_model.l2_frame_miss_share(frames, rates.l2_capacity_bytes, rates.l2_reuse_bytes, cyclic)
    # The reloads a warp waits on take uniform reuse where its bytes are reused in turn but its waits are not.
    uniform_waits = cyclic & _not(cyclic_waits(family)) if family is not None else False
    waits_miss = None
    if uniform_waits.any() if is_array(uniform_waits) else uniform_waits:
        waits_miss = _where(uniform_waits, cta_model.cache_miss_share(frames, rates.l2_capacity_bytes), l2_miss)
    return cta_model.spill_home(frames, measured, beyond, rates.l2_capacity_bytes, rates.l2_latency_cycles, l2_miss,
                                waits_miss)  # fmt: skip


SM_PARTS = ("compute", "shared memory", "spills", "transposes", "conversions", "latency", "overhead",
            "prologue/epilogue")  # fmt: skip
CHIP_TERMS = ("DRAM", "LLC", "L2", "issued copies")


def limiter_index(terms: dict[str, Any]) -> Any:
    """Index into LIMITERS (SM_PARTS, then DRAM, LLC, L2, issued copies) of what limits each kernel: where the memory
    time (cta_model.memory_seconds) reaches the SM time, the issued copies where they are that time, else the largest
    of DRAM, LLC and L2; elsewhere the largest part of the SM time (each part as if it were alone). Numbers or numpy
    arrays."""
    import numpy as np

    sm_parts = np.stack(np.broadcast_arrays(*(np.asarray(terms[t], dtype=float) for t in SM_PARTS)))
    chip = np.stack(np.broadcast_arrays(*(np.asarray(terms[t], dtype=float) for t in CHIP_TERMS)))
    # The memory time (DRAM and L2 combined, cta_model.memory_seconds) can pass the SM time where no one of
    # its terms does: then the largest of them is named.
    memory = np.asarray(cta_model.memory_seconds(terms["DRAM"], terms["L2"], terms["LLC"], terms["issued copies"]),
                        dtype=float)  # fmt: skip
    # The issued copies are named only where they are the memory time (a bound alone, not one of the q-norm's terms).
    copies = np.asarray(terms["issued copies"], dtype=float)
    largest = np.where((copies > 0) & (copies >= memory), CHIP_TERMS.index("issued copies"),
                       chip[: CHIP_TERMS.index("issued copies")].argmax(axis=0))  # fmt: skip
    out = np.where(memory >= np.asarray(terms["sm"], dtype=float), len(SM_PARTS) + largest, sm_parts.argmax(axis=0))
    return out if out.ndim else int(out)


LIMITERS = (*SM_PARTS, *CHIP_TERMS)


def limiter_of(terms: dict[str, Any]) -> str:
    """The name of what limits one kernel (limiter_index)."""
    return LIMITERS[limiter_index(terms)]


def raster_traffic(
    machine: Machine, gemm: Gemm, config: KernelConfig, ctas_per_sm: int
) -> tuple[RasterTraffic, RasterTraffic | None]:
    """The raster model's traffic for a configuration (rasterization.machine_traffic): its cluster
    tile, its order, the clusters the chip runs at once."""
    cm, cn = config.cluster
    return machine_traffic(
        machine, parse_order(config.raster), concurrent=max(1, machine.sm_count.n * ctas_per_sm // (cm * cn)),
        m=gemm.m, n=gemm.n, k=gemm.k, bm=cm * config.bm, bn=cn * config.bn, input_bytes=gemm.input_bytes,
        output_bytes=gemm.output_bytes, keep_waves=0,
    )  # fmt: skip


def _check_cluster_divides(gemm: Gemm, config: KernelConfig) -> None:
    cm, cn = config.cluster
    tm, tn = math.ceil(gemm.m / config.bm), math.ceil(gemm.n / config.bn)
    if tm % cm or tn % cn:
        raise ProblemError(
            f"--cluster {cm}x{cn}: the grid of {tm}x{tn} tiles is not a whole number of clusters "
            "(CUDA launches a grid of whole clusters; pick a cluster that divides it)"
        )


def compiled_loop_local_bytes(compiled: CompiledCounts) -> int | None:
    """Local-memory bytes per thread the compiled main loop loads plus stores (None where the SASS gave none)."""
    if compiled.loop_local_load_bytes is None or compiled.loop_local_store_bytes is None:
        return None
    return compiled.loop_local_load_bytes + compiled.loop_local_store_bytes


def predict_kernel(
    machine: Machine | str,
    gemm: Gemm,
    config: KernelConfig,
    *,
    a_major: str = "k",
    b_major: str = "n",
    regs: int | None = None,
    spilled: int | None = None,
    shared_bytes: int | None = None,
    register_overhead: int | None = None,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    compiled: CompiledCounts | None = None,
    loop_local_bytes: int | None = None,
    loop_local_waits: int | None = None,
) -> Prediction:
    """Predicted time of one kernel configuration by the per-CTA model, every term named.

    ``a_major``/``b_major``: the operand's contiguous dimension (k or m; k or n); the default is
    what torch.matmul of two contiguous tensors hands a kernel. ``regs``/``spilled``/
    ``shared_bytes``: the compiled kernel's, where known (else footprint.kernel_footprint's rule).
    ``compiled``: a compile's counts (roofmodel.backends.triton_compile), taken for all three and for
    the MMA family where the compiler chose another than the config's, and for ``loop_local_bytes``.
    ``loop_local_bytes``: local-memory bytes each thread loads plus stores in one pass of the compiled
    main loop (its SASS), charged in place of the spill rules' reloads (a Triton mma.sync kernel's too), and
    ``loop_local_waits`` the times a warp waits on those reloads per pass (kernel_costs.spill_wait each); with
    ``regs`` only.
    ``machine``: a ``Machine`` or a built-in name or file path.
    """
    machine = as_machine(machine)
    if compiled is not None:
        if regs is not None or spilled is not None or shared_bytes is not None:
            raise ProblemError("--compile: the compile gives the registers, spills and shared memory; not --regs too")
        regs, spilled, shared_bytes = compiled.registers, compiled.spilled, compiled.shared_bytes
        loop_local_bytes = compiled_loop_local_bytes(compiled)
        loop_local_waits = compiled.loop_local_waits
        config = config_as_compiled(machine, config, compiled)
    if (loop_local_bytes is not None or loop_local_waits is not None) and regs is None:
        raise ProblemError("the main loop's local-memory bytes come with the compiled registers (--regs)")
    if loop_local_waits is not None and loop_local_bytes is None:
        raise ProblemError("the waits on the main loop's local reloads come with its local-memory bytes")
    if min(loop_local_bytes or 0, loop_local_waits or 0) < 0:
        raise ProblemError("the main loop's local-memory bytes and waits cannot be negative")
    if a_major not in ("k", "m") or b_major not in ("k", "n"):
        raise ProblemError(f"--a-major k|m and --b-major k|n (got {a_major!r}, {b_major!r})")
    limit = machine.limits.max_registers_per_thread.n
    if regs is not None and not 1 <= regs <= limit:
        raise ProblemError(f"--regs: must be 1..{limit} (got {regs})")
    _check_cluster_divides(gemm, config)
    if config.compiler == "triton" and config.cluster != (1, 1):
        raise ProblemError(f"cluster {config.cluster[0]}x{config.cluster[1]}: a Triton kernel takes no cluster (its "
                           "cp.async copies cannot multicast)")  # fmt: skip
    check_cluster(machine, *config.cluster)
    check_pair_cluster(config.instruction, *config.cluster)
    rates = machine_rates(machine, gemm.dtype, compute=compute, bandwidth=bandwidth, clock=clock,
                          instruction=config.instruction, accumulator=gemm.accumulator)  # fmt: skip
    family = FAMILIES.index(config.instruction)
    e, a_m, b_n = gemm.input_bytes, a_major == "m", b_major == "n"
    triton = triton_copies(machine, config.compiler)
    plan = copy_plan(triton, family, e, gemm.m, gemm.n, gemm.k, a_m, b_n, config.bm, config.bn, machine.warp_size)
    fa, fb = float(plan.fa), float(plan.fb)
    fp = kernel_footprint(
        machine, bm=config.bm, bn=config.bn, bk=config.bk, warps=config.warps, stages=config.stages, family=family,
        element_bytes=e, accumulator_registers=gemm.accumulator_registers, register_overhead=register_overhead,
        **operand_staging(triton, family, e, gemm.m, gemm.n, gemm.k, a_m, b_n, config.bm, config.bn),
        compiler=config.compiler, rm=config.register_tile[0], rn=config.register_tile[1],
        k_step=family_k_steps(machine, gemm.dtype)[family], registers=regs, spilled=spilled, shared_bytes=shared_bytes,
        loop_local_bytes=loop_local_bytes, loop_local_waits=loop_local_waits, native_8bit=gemm.dtype == "int8",
    )  # fmt: skip
    if compiled is not None and compiled.wgmma_waits_each is not None:
        fp = {**fp, "wgmma_waits_each": compiled.wgmma_waits_each}  # the loop's own waits, in place of the rule's
    smem_limit = machine.memory.smem.max_per_block.bytes
    if fp["shared_bytes"] > smem_limit:
        raise ProblemError(
            f"shared memory: {config.bm}x{config.bn}x{config.bk} with {config.stages} stages needs "
            f"{fp['shared_bytes']:,.0f} B, the block limit is {smem_limit:,.0f} B"
        )
    if not fp["fits"]:
        raise ProblemError(f"the CTA ({fp['threads']} threads, {fp['shared_bytes']:,.0f} B) does not fit one SM")
    ctas = int(fp["ctas_per_sm"])
    occ = occupancy(machine, int(fp["threads"]), int(max(1, min(fp["registers"], limit))), int(fp["shared_bytes"]),
                    int(fp["tmem_columns"]))  # fmt: skip
    t, through_llc = raster_traffic(machine, gemm, config, ctas)
    dram_read = (through_llc or t).dram_read_bytes
    rm, rn = config.register_tile
    terms = kernel_seconds(
        machine, rates, m=gemm.m, n=gemm.n, k=gemm.k, element_bytes=e, output_bytes=gemm.output_bytes, bm=config.bm,
        bn=config.bn, bk=config.bk, warps=config.warps, stages=config.stages, family=family, rm=rm, rn=rn,
        a_m_major=a_m, b_n_major=b_n, footprint=fp, requested=t.requested_bytes, distinct=t.wave_distinct_bytes,
        dram_read=dram_read, persistent=config.persistent, latency_dram_read=t.dram_read_bytes,
        llc_read=t.dram_read_bytes if through_llc is not None else None, compiler=config.compiler,
        a_requested=t.a_requested_bytes, a_latency_dram_read=t.a_dram_read_bytes,
    )  # fmt: skip
    total = float(terms["total"])
    sms = machine.sm_count.n
    tiles = math.ceil(gemm.m / config.bm) * math.ceil(gemm.n / config.bn)
    per_sm = math.ceil(tiles / sms)
    k_it = math.ceil(gemm.k / config.bk)
    mhz = rates.clock_hz / 1e6
    c_bytes = gemm.m * gemm.n * gemm.output_bytes
    # Past the collapse point ptxas's stack holds more than the registers that do not fit (footprint).
    why_stack = (
        f" (the element pointers of a {e * 8}-bit operand loaded one element at a time take it past "
        f"{STACK_COLLAPSE:g} x the limit)"
        if int(fp["registers"]) == COLLAPSED_REGISTERS
        else ""
    )
    spill_note = (
        f"; needs {fp['needed']:,.0f} registers (limit {limit}): ptxas allocates {int(fp['registers'])}{why_stack} "
        f"and puts {fp['spilled']:,.0f} on the stack ({COLLAPSED_SPILL_FACTOR:g} x (needed - {int(fp['registers'])}))"
        if bool(fp["stack"]) and fp["spilled"]
        else f"; {fp['spilled']:,.0f} registers per thread spill (needs {fp['needed']:,.0f}, limit {limit}"
        + (
            single_fragment_note(fp, config.register_tile[1], gemm.accumulator_registers)
            if bool(fp.get("single_fragment", False))
            else wide_pointer_note(not a_m and not b_n)
            if bool(fp.get("pointers_at_limit", False))
            else ""
        )
        + ")"
        if fp["spilled"]
        else f": none by the rule (needs {fp['needed']:,.0f}, limit {limit}, past it only by the element pointers of "
        "operands loaded one element at a time, which ptxas may recompute rather than spill): a register gamble, "
        f"{GAMBLE_NOTE}; tune and rank mark it and rank it after every configuration that is not one (tune "
        "--compile-top compiles by time: a compile resolves the gamble)"
        + (
            "; an mma.sync kernel may go to the stack instead: of 150 such kernels of a compile study between the limit and "
            f"{STACK_COLLAPSE:g} x, 13 went to {COLLAPSED_REGISTERS} registers and the stack, none below 1.4 x and "
            "12 past 1.5 x, and one measured at 1.31 x ran 43 x slower than predicted "
            "(docs/measurements/compile-study/README.md)"
            if config.instruction == "mma.sync" and e < 4 and any(plan.narrow)
            else ""
        )
        + ")"
        if regs is None and float(fp["needed"]) > limit
        else ""
    )
    reload_note = ""
    if bool(fp["loop_counted"]):
        reload_note = (
            f"; its main loop loads and stores {loop_local_bytes:,} B of local memory per thread per iteration "
            f"(counted in the compiled SASS): charged as {float(fp['loop_spilled']):,.1f} registers stored and reloaded"
            + (
                f", and a warp waits on those reloads {int(fp['loop_waits'])} times an iteration, "
                f"{rates.costs.spill_wait_s * 1e9:.0f} ns each (kernel_costs.spill_wait): one CTA's iteration takes "
                "the larger of the two"
                if int(fp["loop_waits"]) and rates.costs.spill_wait_s
                else ""
            )
        )
    elif float(fp["accumulator_excess"]):
        reload_note = "; its accumulators alone pass the limit beside the overhead, and for such a Triton mma.sync " + (
            accumulator_spill_note(float(fp["accumulator_excess"]), float(fp["spilled"]), float(fp["loop_waits"]),
                                   config.bk, gemm.dtype, e, rates)
        )  # fmt: skip
    elif float(fp["stack_excess"]):
        reload_note = "; " + stack_spill_note(float(fp["stack_excess"]), float(fp["loop_spilled"]),
                                              float(fp["loop_waits"]), rates)  # fmt: skip
    elif config.instruction == "mma.sync" and config.compiler == "triton" and int(fp["loop_spilled"]):
        times = cta_model.mma_sync_spill_reloads(float(fp["loop_spilled"]))
        form = (
            f"{cta_model.SPILL_RELOAD_SLOPE:g} x log2(spilled / {cta_model.SPILL_RELOAD_KNEE:g}), between 0 and "
            f"{cta_model.SPILL_RELOAD_CAP:g}: the local-memory bytes Nsight Compute counts, cta_model.mma_sync_spill_reloads"
        )
        reload_note = (
            f"; a Triton mma.sync kernel's are charged {times:.2f} times each per iteration, not once ({form})"
            if times > 0
            else f"; not charged: a Triton mma.sync kernel's first {cta_model.SPILL_RELOAD_KNEE:g} spilled registers "
            f"are not reloaded in its loop ({form})"
        ) + (
            f", and a warp waits on its reloads {int(fp['loop_waits'])} times an iteration (counted in the compiled "
            f"SASS), {rates.costs.spill_wait_s * 1e9:.0f} ns each (kernel_costs.spill_wait): one CTA's iteration takes "
            "the larger of the two"
            if int(fp["loop_waits"]) and rates.costs.spill_wait_s
            else ""
        )
    if float(fp["pointer_spilled"]) > 0:
        excess, waits = float(fp["pointer_excess"]), float(fp["loop_waits"])
        rest_past = float(past_limit_without_pointers(fp, limit))
        spill_note += (
            f", {float(fp['pointer_spilled']):,.0f} of them the element pointers of operands loaded one element at "
            "a time (with a K-major one under wgmma, "
            + (
                factor_spill_note("pointer registers that do not fit", POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS,
                                  excess, waits, rates, "the medians of the compiled loops of the read sweeps' 1,309 "
                                  "such kernels, footprint.POINTER_SPILL_FACTOR and POINTER_SPILL_WAITS")
                + (f"; the rest of its registers pass the limit by {rest_past:,.0f}, within the register rule's median "
                   f"error (footprint.POINTER_ALONE_TOLERANCE, {POINTER_ALONE_TOLERANCE}), so the pointers are taken to "
                   "spill alone, as the read sweeps' 88 such kernels do" if rest_past > 0 else "")
                if waits
                else f"ptxas spills the {excess:,.0f} pointer registers that do not fit beside the accumulators'"
            )
            + ")"
        )  # fmt: skip
    if float(fp["collapse_excess"]) > 0:
        excess = float(fp["collapse_excess"])
        if bool(fp["collapse_mn_major"]):
            which = (f"of its operands loaded one element at a time, all M- or N-major, spill with the rest, since the "
                     f"rest of its registers fits the limit within footprint.POINTER_ALONE_TOLERANCE "
                     f"({POINTER_ALONE_TOLERANCE})")  # fmt: skip
            borne = ("the read sweeps' 79 such kernels move 1.85 and wait 0.40 (the 67 fp8 ones 1.95 and 0.44, the 12 "
                     "fp16 and bf16 ones 1.37 and 0.24)")  # fmt: skip
        else:
            which = "of its K-major operand loaded one element at a time spill with the rest"
            borne = "the compiled loops of the read sweeps' 626 such kernels bear out (1.76 and 0.31)"
        spill_note += (
            f"; past {POINTER_COLLAPSE:g} x the limit the element pointers {which} "
            f"({math.ceil(float(fp['needed'])) - limit:,} registers past the limit, "
            f"{excess:,.0f} in whole wgmma accumulator fragments): "
            + factor_spill_note("registers", POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS, excess,
                                float(fp["loop_waits"]), rates, "footprint.POINTER_SPILL_FACTOR and POINTER_SPILL_WAITS, "
                                f"fitted below that point; {borne}")
        )  # fmt: skip
    loop_spilled = round(float(fp["loop_spilled"]))
    if loop_spilled < int(fp["spilled"]) and not bool(fp["loop_counted"]):
        spill_note += (
            "; none of them reloaded in the main loop: what the loop holds by the register rule (accumulators, "
            f"overhead, element pointers: {float(fp['loop_needed']):,.0f}) fits the {int(fp['registers'])} "
            "allocated, and ptxas spills first the values the loop does not use"
        )
    ra, rb = (float(x) for x in operand_read_factors(family, e, a_m, b_n))
    layout = (
        (
            f"; A {a_major}-major x{fa:g}, B {b_major}-major x{fb:g} copy requests (copied in their own layout, "
            f"8-bit in 8-byte copies), and reads of A x{ra:g}, B x{rb:g} (one element per thread, by the warps "
            "before their MMAs: the transposes term)"
            if config.instruction == "mma.sync"
            else f"; A {a_major}-major x{fa:g}, B {b_major}-major x{fb:g} copy requests (stored against the layout "
            f"{config.instruction} reads)"
            + (
                ": an 8-bit MN-major operand is relaid through registers and stored one byte per thread, the t threads "
                "of a warp along its rows writing rows that start in the same bank, 4 t / e (prediction.relaid_store_factor); "
                "one loaded an element at a time keeps 16 / e"
                if e == 1 and config.instruction == "wgmma"
                else ""
            )
        )
        if fa != 1.0 or fb != 1.0 or ra != 1.0 or rb != 1.0
        else ""
    )
    (na, nb), (ua, ub) = plan.narrow, plan.unaligned
    narrow = " and ".join(f"{x} ({major}-major)" for x, major, on in (("A", a_major, na), ("B", b_major, nb)) if on)
    # Each operand Triton does not pipeline, once, with why.
    why = {x: "loaded one element at a time" if u else "8-bit, laid out again through registers"
           for x, u, one in zip(("A", "B"), (ua, ub), plan.single, strict=True) if one}  # fmt: skip
    unpipelined = " and ".join(f"{x} ({w})" for x, w in why.items())
    latency_known = rates.l2_loaded_latency_cycles is not None and rates.dram_loaded_latency_cycles is not None
    b_rows = config.bn * B_SHARE[family]  # the B columns a CTA copies
    kmajor = float(kmajor_copy_cycles(triton, family, e, a_m, b_n, (na, nb), config.bm, b_rows, config.bk,
                                      config.warps, machine.warp_size, rates.costs.kmajor_copy_s * rates.clock_hz))  # fmt: skip
    kmajor_per_copy = rates.costs.kmajor_copy_s * rates.clock_hz
    # The shared copy rate this kernel's stage takes (cta_model.shared_copy_cycles): its own where every copy is an
    # element copy and the file has the figure.
    all_elements = bool(copies_all_of_elements(plan, family, e, a_m, b_n, fp["spilled"]))
    shared_copy_name = ("copy_instruction_shared_elements" if all_elements and rates.costs.copy_instruction_shared_elements_s
                        else "copy_instruction_shared")  # fmt: skip
    shared_copy_per_copy = float(cta_model.shared_copy_cycles(rates.costs, rates.clock_hz, all_elements))
    kmajor_copies = kmajor_thread_copies(config.bm, b_rows, config.bk, e, config.warps, machine.warp_size)
    # Where the layouts would be charged but are not (tf32: timed as slow, not charged; a file without the figure), said
    # so.
    kmajor_layout = triton and config.instruction == "wgmma" and not (a_m or b_n or na or nb)
    kmajor_tf32_uncharged = kmajor_layout and e == 4
    kmajor_missing = kmajor_layout and e == 2 and not kmajor_per_copy
    # Measured, not modelled (the raster checks: docs/model.md, "Where a wave's rows do not share"): said where it applies.
    cm, cn = config.cluster
    drift_caveat = "" if config.persistent else drifting_rows_caveat(
        machine, parse_order(config.raster), ctas, tiles / (sms * max(ctas, 1)), m=gemm.m, n=gemm.n, k=gemm.k,
        bm=cm * config.bm, bn=cn * config.bn, input_bytes=e)  # fmt: skip
    resident = int(cta_model.resident_ctas(ctas, tiles, sms))
    beside = float(beside_share(pipelined_share(plan, config.bm, b_rows), resident))
    stride_a, stride_b = (gemm.m if a_m else gemm.k), (gemm.n if b_n else gemm.k)
    requests = float(copy_requests_per_sector(e, config.bm, b_rows, config.bk, a_m, b_n, stride_a, stride_b))
    request_factor = float(l2_request_factor(rates.l2_requests_per_sector, e, config.bm, b_rows, config.bk, a_m, b_n,
                                             stride_a, stride_b))  # fmt: skip
    split_a, split_b = split_operands(e, stride_a, stride_b, *sector_copies(triton, plan, a_m, b_n))
    split_factor = float(split_sector_factor(e, config.bm, b_rows, split_a, split_b))
    off_line = [x for x, st in (("A", stride_a), ("B", stride_b)) if st * e % LINE_BYTES]
    off_note = (
        f"; the rows of {' and '.join(off_line)} do not start on a line (stride not a multiple of {LINE_BYTES} B)"
        if off_line
        else ""
    )
    l2_request_note = (
        f"; the operands' copies ask {requests:.2f} line requests a sector (contiguous runs of A "
        f"{(config.bm if a_m else config.bk) * e} B, of B {(b_rows if b_n else config.bk) * e:g} B: a request per "
        f"{LINE_BYTES} B or less and per line it touches{off_note}), past the {rates.l2_requests_per_sector:g} the L2's "
        "tag stage serves at that rate "
        f"(memory.l2.requests_per_sector): their bytes take x{request_factor:.2f} (l2_request_factor)"
        if request_factor > 1.0
        else ""
    )
    split = [x for x, on in (("A", split_a), ("B", split_b)) if on]
    split_note = (
        f"; every other row of {' and '.join(split)} starts 16 B into a {SECTOR_BYTES}-byte sector, whose 16-byte "
        f"copies each bring the whole sector: the requested bytes and their requests take x{split_factor:.2f} more "
        "(split_sector_factor)"
        if split_factor > 1.0
        else ""
    )
    dram_requests_s = float(dram_request_seconds(rates.dram_requests_per_s, e, gemm.m, gemm.n, config.bm, b_rows,
                                                 config.bk, a_m, b_n, dram_read, c_bytes))  # fmt: skip
    dram_bytes_s = (dram_read + c_bytes) / rates.dram_bps
    issued = float(issued_stage_bytes(triton, gemm.m, gemm.n, gemm.k, config.bm, config.bn, config.bk, e,
                                      B_SHARE[family]))  # fmt: skip
    l2_bytes = machine.memory.l2.capacity.bytes
    writeback_s = float(flush_writeback_seconds(rates.costs.flush_writeback_s, dram_read + c_bytes, l2_bytes))
    dram_request_note = (
        f"; its line requests (runs of A {min((config.bm if a_m else config.bk) * e, LINE_BYTES)} B, of B "
        f"{min((b_rows if b_n else config.bk) * e, LINE_BYTES):g} B, a request each), at the "
        f"{rates.dram_requests_per_s / 1e9:.1f} G/s the path from DRAM serves (memory.dram.requests_per_sector), take "
        f"{dram_requests_s * 1e6:,.1f} us, more than its bytes' {dram_bytes_s * 1e6:,.1f} us (dram_request_seconds)"
        if rates.dram_requests_per_s
        and dram_requests_s > dram_bytes_s
        and dram_requests_s >= (float(terms["DRAM"]) - writeback_s) * (1 - 1e-9)
        else ""
    )
    queued_cycles = (float(terms["shared memory"]) + float(terms["transposes"])) * rates.clock_hz / (per_sm * k_it)
    rounds = int(cta_model.rounds_per_sm(ctas, tiles, sms))
    edge_us = float(terms["prologue/epilogue"]) * 1e6 / (1 if config.persistent else rounds)
    fence_note = (
        f"; the warps' stores of {unpipelined} are fenced before wgmma reads them (MEMBAR.ALL.CTA): as if each CTA "
        f"waited behind the shared-memory work the other resident CTAs queued first, each of the {resident - 1} "
        f"others adds its {queued_cycles:,.0f} cycles an iteration to a CTA's (fenced_queue_cycles)"
        if bool(fenced_copies(plan, family)) and resident > 1
        else ""
    )
    lone_cycles = float(terms["lone reads"]) * rates.clock_hz / (rounds * k_it)
    lone_note = (
        f"; its warps, each alone on its sub-partition, wait on their own conflicting reads of B: a CTA's chain takes "
        f"the {cta_model.LONE_CONFLICT_NORM:g}-norm of a warp's own chain and the round's shared-memory time, "
        f"{lone_cycles:,.0f} cycles an iteration, averaged over its rounds (lone_conflict_cycles)"
        if lone_cycles > 0
        else ""
    )
    own_read, own_requested = synchronous_hit_bytes(plan, t.dram_read_bytes, t.requested_bytes, t.a_dram_read_bytes,
                                                    t.a_requested_bytes)  # fmt: skip
    kernel_hit, own_hit = l2_hit_rate(t.dram_read_bytes, t.requested_bytes), l2_hit_rate(own_read, own_requested)
    hit_note = (
        f"; at {' and '.join(x for x, on in (('A', ua), ('B', ub)) if on)}'s L2 hit rate "
        f"{own_hit:.1%}, the kernel's {kernel_hit:.1%} (synchronous_hit_bytes)"
        if own_requested != t.requested_bytes
        else f"; at the kernel's L2 hit rate {kernel_hit:.1%}"
    )
    wait_kind = (
        "loaded latency"
        if not rates.latency_known
        else f"unloaded latency (memory.l2/dram.latency{hit_note}: synchronous_wait_cycles)"
        if beside == 0.0
        else f"unloaded latency raised {100 * beside:.0f}% of the way to the loaded one (the share of the SM's traffic "
        + (
            "in flight beside it, the other resident CTAs' included"
            if resident > 1
            else "in flight beside it, the CTA alone on its SM"
        )
        + f"{hit_note}: beside_share, synchronous_wait_cycles)"
    )
    per_sm_cycle = sms * rates.clock_hz
    l2_rate = rates.l2_stream_bps
    served = float(cta_model.l2_stage_bytes(t.requested_bytes, tiles, k_it))
    active = min(tiles, sms)
    port = rates.smem_bps / per_sm_cycle
    stream_ns = cta_model.stage_stream_cycles(served, tiles, sms, l2_rate / rates.clock_hz, port) / rates.clock_hz * 1e9
    stream_note = (
        f" and the {served / 1024:,.1f} KiB the L2 serves it streaming in at "
        + (
            f"the SM's share of the L2's rate ({l2_rate / 1e9:,.0f} GB/s / {active} SM{'s' if active > 1 else ''}"
            if l2_rate / active < rates.smem_bps / sms
            else f"the SM's shared-memory rate ({port:,.0f} B/cycle, less than the L2's {l2_rate / 1e9:,.0f} GB/s / {active}"
        )
        + f": {stream_ns:,.0f} ns)"
        if math.isfinite(l2_rate) and latency_known
        else ""
    )
    home_note, home_inputs = spill_home_note(machine, rates, fp, config.warps, tiles, ctas,
                                             FAMILIES.index(config.instruction))  # fmt: skip
    fma_rate = rates.kernel_fma_per_s(config.instruction, config.compiler)
    reads = (fma_reads_note(config, e, a_m, b_n, machine.warp_size)
             if config.instruction == "fma" and triton_fma_layout_applies(machine, config.compiler, e)
             else f"{config.instruction} tile {rm}x{rn}")  # fmt: skip
    waited_each = waits_each_wgmma(triton, family, e, config.bm, config.bn, config.warps, b_n,
                                   fp.get("wgmma_waits_each"))  # fmt: skip
    details = {
        "compute": f"{per_sm} tiles per SM x {k_it} iterations of {config.bm}x{config.bn}x{config.bk} at "
        f"{fma_rate / rates.clock_hz:,.0f} FMA/cycle ({config.instruction}"
        + (
            ", what a Triton FMA loop reaches: kernel_costs.fma_rate"
            if fma_rate < rates.family_fma_per_s(config.instruction)
            else ""
        )
        + "), "
        f"{mhz:.0f} MHz; {tiles / (per_sm * sms):.0%} of the SMs busy"
        + lone_fma_note(machine, rates, config, e)
        + (
            (
                "; the compiled loop waits for each wgmma before the next issues (its SASS)"
                if fp.get("wgmma_waits_each") is not None
                else "; Triton 3.6 compiles this loop to wait for each wgmma before the next issues (B K-major; on 8 "
                "warps BN x max(element bytes, 2) = 512, on 16 as benchmarks/wgmma_waits.py found: waits_each_wgmma)"
            )
            + ", so a warpgroup's iteration holds the CTA's MMAs and then its wait "
            f"(kernel_costs.wait, {rates.costs.wait_s * 1e9:.0f} ns), counted here"
            if waited_each
            else ""
        ),
        "shared memory": f"operand reads ({reads}) and stage fills at {rates.smem_bps / 1e9:,.0f} GB/s{layout}"
        + narrowed_copy_note(
            triton,
            config,
            e,
            b_rows,
            config.warps * machine.warp_size,
            (bool(na), bool(nb)),
            rates,
            (float(fa), float(fb)),
        )
        + fence_note
        + lone_note,
        "spills": "spilled registers stored and reloaded each iteration, before its MMAs, at "
        + (
            held_spill_note(rates, tiles, sms, FAMILIES.index(config.instruction))
            + last_round_spill_note(
                rates, fp, config.warps * machine.warp_size, tiles, ctas, sms, FAMILIES.index(config.instruction)
            )
            if rates.spill_bps
            else f"the shared-memory bandwidth ({rates.smem_bps / per_sm_cycle:.0f} B/cycle/SM: no spill bandwidth "
            "in the machine file)"
        )
        + (spill_note or ": none")
        + reload_note
        + home_note,
        "transposes": "MN-major 32-bit elements the warps transpose in registers before storing them for wgmma "
        f"(kernel_costs.transpose){'' if rates.costs.transpose_s else ': none in the machine file'}; and an "
        "MN-major 8- or 32-bit operand that mma.sync's warps read one element per thread before their MMAs",
        "conversions": (
            (
                "fp8 fragments mma.sync's warps convert to fp16 (Triton on sm_90), a pipe beside the MMAs: "
                + (
                    f"{1 / (rates.costs.convert_s * rates.clock_hz):.0f} elements/cycle/SM (kernel_costs.convert)"
                    if rates.costs.convert_s
                    else "none in the machine file"
                )
                + (
                    "; where CTAs share the SM and both operands are K-major, their pipe "
                    f"{1 / (rates.costs.convert_shared_s * rates.clock_hz):.0f} elements/cycle/SM "
                    f"(kernel_costs.convert_shared) and {rates.costs.convert_warp_s * rates.clock_hz:.0f} cycles a warp "
                    "an iteration (kernel_costs.convert_warp)"
                    if rates.costs.convert_shared_s
                    else ""
                )
                if gemm.dtype == "fp8"
                else "none: only fp8 is converted before mma.sync (kernel_costs.convert)"
            )
            + (
                "; after max(MMAs, conversions), in series (the warps load and pack them before their MMAs read them), "
                "the bytes of an 8-bit MN-major operand the warps read one at a time: "
                + (
                    f"{1 / (rates.costs.gather_s * rates.clock_hz):.0f} elements/cycle/SM (kernel_costs.gather)"
                    if rates.costs.gather_s
                    else "none in the machine file"
                )
                if config.instruction == "mma.sync" and gemm.dtype == "fp8" and (a_m or b_n)
                else ""
            )
        ),
        "latency": (
            "no load latency in the machine file: none charged"
            if not latency_known
            else f"a stage's whole {wait_kind}{stream_note} each iteration, before its MMAs: {unpipelined} not pipelined"
            if unpipelined
            else f"one stage's loaded latency{stream_note} over {max(config.stages - 1, 1)} stages in flight, per CTA"
        )
        + f"; {ctas} resident CTA(s) per SM, which hide each other's (occupancy limited by {occ.limiter})",
        "overhead": (
            "a fixed cost per iteration and per copy each thread issues (kernel_costs): 16 bytes"
            + (f", one element for {narrow} (stride not a multiple of 16 elements)" if narrow else "")
            + (
                f"; with an operand copied 4 bytes at a time, the SM takes each warp's copy in "
                f"{rates.costs.copy_instruction_s * rates.clock_hz:.1f} cycles (kernel_costs.copy_instruction), a "
                "pipe its CTAs share"
                + (
                    f", at {shared_copy_per_copy:.1f} cycles a copy over the CTAs it holds at once "
                    f"(kernel_costs.{shared_copy_name}; one CTA's chain keeps the first): "
                    + (
                        f"{resident} CTAs an SM here, the shared rate"
                        if resident > 1
                        else "one CTA an SM here, its chain's rate"
                    )
                    if rates.costs.copy_instruction_shared_s
                    else ""
                )
                if rates.costs.copy_instruction_s and element_copies(plan, family, e, config.bm, b_rows, config.bk)
                else ""
            )
            + (
                f"; both operands K-major (Triton, wgmma): {kmajor_copies:g} copies a thread x {kmajor_per_copy:.1f} "
                f"cycles = {kmajor:,.0f} cycles more a CTA's iteration, on the SM's pipes and in the CTA's chain "
                "(kernel_costs.kmajor_copy: the compiled loop forms those copies' addresses with more integer work, "
                "most of it for roofmodel's matmul's M and N masks; a kernel masked along K only pays less in some "
                "tiles)"
                if kmajor
                else ""
            )
            + (
                "; not charged: with both operands K-major, tf32's compiled wgmma loop forms its copies' addresses with "
                "the integer work that makes fp16's and bf16's slower, and the layout-pair check timed it as slow, "
                "but charging it moved the fastest kernels behind slower ones (two judges failed)"
                if kmajor_tf32_uncharged
                else ""
            )
            + (
                "; not charged: both operands K-major slow Triton's 16-bit wgmma loops (more integer work an "
                "iteration), and the machine file has no kernel_costs.kmajor_copy"
                if kmajor_missing
                else ""
            )
        )
        if rates.costs.iteration_s or rates.costs.copy_issue_s
        else "no kernel_costs in the machine file: none charged",
        "prologue/epilogue": (
            f"filling the first stage and writing C, once an SM: the kernel is persistent ({edge_us:,.2f} us)"
            if config.persistent
            else f"filling the first stage and writing C, once a round of the CTAs an SM holds (they start and end "
            f"together): {rounds} round(s) of {resident} CTA(s), {edge_us:,.2f} us each"
        ),
        "DRAM": f"{(dram_read + c_bytes) / 2**20:,.0f} MiB at up to {rates.dram_bps / 1e9:,.0f} GB/s "
        "(less where the grid keeps too few bytes in flight)"
        + dram_request_note
        + (
            f"; then {writeback_s * 1e6:.1f} us writing back the dirty lines the timer's L2 flush leaves that its "
            f"{(dram_read + c_bytes) / 2**20:,.0f} MiB evict (1 - exp(-that / the L2's {l2_bytes / 2**20:,.0f} MiB) of "
            f"{rates.costs.flush_writeback_s * 1e6:.1f} us: kernel_costs.flush_writeback; the kernel as "
            "triton.testing.do_bench times it, after zeroing 256 MB)"
            if rates.costs.flush_writeback_s
            else ""
        )
        + ("; not charged: " + drift_caveat if drift_caveat else ""),
        "L2": f"{(t.requested_bytes + c_bytes) / 2**20:,.0f} MiB requested + C at "
        + (
            f"{rates.l2_gemm_bps / 1e9:,.0f} GB/s (memory.l2.gemm_bandwidth)" + l2_request_note
            if rates.l2_gemm_bps
            else f"{rates.l2_bps / 1e9:,.0f} GB/s"
        )
        + split_note
        if math.isfinite(rates.l2_bps) or rates.l2_gemm_bps
        else "no L2 bandwidth in the machine file (unpublished): not bounded",
        "issued copies": (
            f"{issued / 2**20:,.0f} MiB of stage copies the CTAs issue, "
            f"{(issued - t.requested_bytes) / 2**20:,.0f} MiB of them past M, N or K (masked, zero-filled: no byte "
            f"read, yet they take the path as the rest do), at {rates.l2_gemm_bps / 1e9:,.0f} GB/s "
            "(memory.l2.gemm_bandwidth)"
            + (f", x{request_factor:.2f} (l2_request_factor)" if request_factor > 1.0 else "")
            + (f", the requested copies' bytes x{split_factor:.2f} (split_sector_factor)" if split_factor > 1.0 else "")
            + ": a bound beside DRAM and the L2, not contending with DRAM (issued_stage_bytes)"
            if float(terms["issued copies"]) > 0
            else f"none: {issued / 2**20:,.0f} MiB of stage copies, none past M, N or K (the L2 term's operand bytes, "
            "which it charges with C)"
            if issued > 0 and rates.l2_gemm_bps
            else "not charged: the machine file gives no memory.l2.gemm_bandwidth, the rate the copies were measured "
            "at (issued_stage_bytes)"
            if issued > 0
            else "not charged: Triton's loads on this GPU (no cp.async, or AMD's) follow rules not modelled "
            "(triton_copies, issued_stage_bytes)"
            if config.compiler == "triton"
            else "not charged: only Triton's copies past M, N or K were measured; a CUTLASS kernel's (sm90: TMA, "
            "which issues none out of bounds; sm80: predicated cp.async, not measured) and a stated kernel's are "
            "left out (issued_stage_bytes)"
        ),
        "LLC": f"{t.dram_read_bytes / 2**20:,.0f} MiB the L2 reads from the last-level cache and "
        f"{c_bytes / 2**20:,.0f} MiB of C, at {rates.llc_bps / 1e9:,.0f} GB/s"
        if through_llc is not None and rates.llc_bps
        else "no last-level cache in the machine file",
        "launch": "the fixed cost of a launch (kernel_costs.launch)",
    }
    overlap_norm = cta_model.overlap_norm(ISSUES_OWN_COPIES[family])
    ranked = sorted(
        (Term(name=name, seconds=float(terms[name]), detail=details[name]) for name in details),
        key=lambda x: -x.seconds,
    )
    return Prediction(
        seconds=total,
        tflops=gemm.flops / total / 1e12,
        limiter=limiter_of(terms),
        sm_seconds=float(terms["sm"]),
        memory_seconds=float(
            cta_model.memory_seconds(terms["DRAM"], terms["L2"], terms["LLC"], terms["issued copies"])
        ),
        memory_norm=cta_model.MEMORY_NORM if math.isfinite(cta_model.MEMORY_NORM) else None,
        overlap_norm=overlap_norm if math.isfinite(overlap_norm) else None,
        terms=ranked,
        clock_mhz=mhz,
        clock_origin=rates.clock_origin,
        ctas_per_sm=ctas,
        occupancy_limiter=occ.limiter,
        wave_efficiency=tiles / (per_sm * sms),
        instruction=config.instruction,
        register_tile=(rm, rn),
        warps=config.warps,
        registers_per_thread=int(fp["registers"]),
        spilled_registers=int(fp["spilled"]),
        loop_spilled_registers=loop_spilled,
        loop_waits=float(fp["loop_waits"]),
        **spill_rule_of(fp),
        register_gamble=bool(fp["gamble"]),
        registers_origin=registers_origin(regs, compiled),
        compiled=compiled,
        shared_bytes=int(fp["shared_bytes"]),
        a_major=a_major,
        b_major=b_major,
        narrow_operands=[x for x, on in (("A", na), ("B", nb)) if on],
        unpipelined_operands=list(why),
        l2_hit_rate=kernel_hit,
        synchronous_l2_hit_rate=own_hit if why and rates.latency_known else None,
        persistent=config.persistent,
        kernel=config.label(),
        kernel_origin=config.origin,
        inputs=[*rates.inputs, *home_inputs],
    )


def wide_pointer_note(both_k_major: bool) -> str:
    """Why a Triton kernel of 32-bit operands, both loaded one element at a time, spills its element pointers
    (footprint.pointers_spill_at_the_limit), in words: an mma.sync or FMA one with both operands K-major, or an FMA one
    with one of them K-major, with what the read sweeps' compiles of that class did (benchmarks/wide_pointer_rule.py)."""
    layout, kernels, past, spilled = (
        ("both K-major and loaded one element at a time", "mma.sync and FMA kernels", 297, 287) if both_k_major
        else ("both loaded one element at a time and one of them K-major", "FMA kernels", 134, 101))  # fmt: skip
    return (
        f"; the element pointers of its 32-bit operands among them, {layout}, which Triton's compiles of such "
        f"{kernels} spill rather than recompute (of the read sweeps' {past} past the limit by their pointers alone, "
        f"where the rule had bet they would not spill, {spilled} spilled: footprint.pointers_spill_at_the_limit)"
    )


def single_fragment_note(fp: dict[str, Any], rn: int, accumulator_registers: float) -> str:
    """Why a Triton wgmma kernel's accumulators spill once, not in turns (footprint.fragments_take_turns: both operands
    aligned, so no element pointers, and the layouts and stage count with which ptxas keeps one resident), in words."""
    fragment = accumulator_fragment_registers(rn, accumulator_registers)
    accumulators = float(fp["spilled"])
    excess = accumulators - fragment
    return (
        f"; one of a warpgroup's two accumulator fragments of {fragment:,.0f} stays resident and the loop brings the "
        f"other in for its wgmmas, the {excess:,.0f} past the limit spilling too while both are in: {fragment:,.0f} + "
        f"{excess:,.0f} = {accumulators:,.0f}, not both in turns (Triton's compile of 16-bit tiles at BK "
        f"{SINGLE_FRAGMENT_BK} with two such fragments a warpgroup, both operands aligned: on 8 warps, but both "
        f"K-major at {SINGLE_FRAGMENT_ROTATES_AT} stages, 212 of the read sweeps' 214 so kept spilled 158-174; on 4 "
        f"warps with B N-major, at up to {SINGLE_FRAGMENT_STAGES_B_N} stages with A K-major and at any with A M-major, "
        "70 of 72; "
        "footprint.fragments_take_turns)"
    )


def spill_rule_of(fp: dict[str, Any]) -> dict[str, Any]:
    """Prediction's ``spill_rule`` and ``spill_rule_excess`` for a footprint (footprint.kernel_footprint's
    ``pointer_spilled``, ``pointer_excess``, ``collapse_excess``, ``accumulator_excess``, ``stack_excess``,
    ``fragment_excess`` and ``single_fragment``)."""
    resident = bool(fp.get("single_fragment", False))
    # The pointers' factor applies only where they spill alone (footprint's POINTER_ALONE_TOLERANCE); where the rest
    # spills too they spill once, and the rule that spilled more is the fragments'.
    pointers = float(fp["pointer_spilled"]) > float(fp["pointer_excess"])
    mn_major = bool(fp["collapse_mn_major"])
    for rule, key, on in (("k-major pointers", "pointer_excess", pointers),
                          ("k-major pointers past the collapse point", "collapse_excess", not mn_major),
                          ("m- or n-major pointers past the collapse point", "collapse_excess", mn_major),
                          ("mma.sync accumulators", "accumulator_excess", True),
                          ("mma.sync stack", "stack_excess", True),
                          ("wgmma fragment resident", "fragment_excess", resident),
                          ("wgmma fragments in turns", "fragment_excess", not resident)):  # fmt: skip
        if on and float(fp[key]) > 0:
            return {"spill_rule": rule, "spill_rule_excess": round(float(fp[key]))}
    return {}


def factor_spill_note(what: str, factor: float, waits_factor: float, excess: float, waits: float, rates: Rates,
                      source: str) -> str:  # fmt: skip
    """How a rule that spills ``factor`` x the ``excess`` registers past the limit and waits ``waits_factor`` x them an
    iteration (footprint.factor_spills) charges them, in words, with where its factors come from (``source``)."""
    return (
        f"ptxas spills {factor:g} x the {excess:,.0f} {what}, ceil = {times_factor(excess, factor):,.0f}, each stored "
        f"and reloaded every iteration, and a warp waits on their reloads {waits_factor:g} x {excess:,.0f} = "
        f"{waits:.1f} times an iteration{spill_wait_clause(rates)}; {source}"
    )


def accumulator_spill_note(excess: float, moved: float, waits: float, bk: int, dtype: str, element_bytes: int,
                           rates: Rates) -> str:  # fmt: skip
    """How the register rule charges a Triton mma.sync kernel whose accumulators pass the limit (footprint's
    accumulator_spills, per mma.sync step along K), in words, with where its figures come from: ``moved`` is what its
    loop stores and reloads an iteration (the figure the spills term and the spill frames take)."""
    native = dtype == "int8"
    steps = int(mma_sync_k_steps(bk, element_bytes, native))
    counted = element_bytes if native else max(element_bytes, 2)
    why = {"fp8": " (fp8 counted at 2 bytes: Triton converts it to fp16 first)",
           "int8": " (int8 as mma.sync takes it, k32; no int8 kernel was measured)"}.get(dtype, "")  # fmt: skip
    return (
        f"kernel ptxas stores and reloads its spilled accumulators at each mma.sync step along K: s = ceil(BK {bk} x "
        f"{counted} B / 32) = {steps} steps an iteration{why}; the loop moves max({excess:,.0f} registers past the "
        f"limit, {ACCUMULATOR_SPILL_PER_K_STEP} x {steps}) = {moved:,.0f} registers an iteration (the spilled count "
        f"above is this traffic, not ptxas's spill count), and a warp waits on their reloads "
        f"{ACCUMULATOR_WAITS_PER_K_STEP:g} x {steps} = {waits:.1f} times an iteration{spill_wait_clause(rates)}; the "
        "medians per step of the compiled loops of the read sweeps' 2,240 such kernels (H100 and H200, two warps, 256 "
        "fp32 accumulators a thread; per s they run from 0.84 to 1.23 x the median, and up to 2 x apart by B's layout), "
        "footprint.ACCUMULATOR_SPILL_PER_K_STEP and ACCUMULATOR_WAITS_PER_K_STEP; the loop charged as a counted one"
    )


def stack_spill_note(excess: float, moved: float, waits: float, rates: Rates) -> str:
    """How the register rule charges a Triton kernel it sends to 32 registers and the stack (footprint's stack_excess,
    STACK_LOOP_FACTOR and STACK_WAITS), in words, with where its factors come from: ``moved`` is what its loop stores
    and reloads an iteration (the spills term's figure; the spill frames take the stack's)."""
    return (
        f"its main loop stores and reloads {STACK_LOOP_FACTOR:g} x the {excess:,.0f} registers past the "
        f"{COLLAPSED_REGISTERS} it keeps, ceil = {moved:,.0f}, every iteration (more than the stack holds: some are "
        f"reloaded twice), and a warp waits on those reloads {STACK_WAITS:g} x {excess:,.0f} = {waits:.1f} times an "
        f"iteration{spill_wait_clause(rates)}; the medians of the compiled loops of the read sweeps' 2,196 such kernels "
        "(H100 and H200 alike), footprint.STACK_LOOP_FACTOR and STACK_WAITS; the loop charged as a counted one"
    )


def spill_wait_clause(rates: Rates) -> str:
    """What a warp's waits on its local reloads cost (kernel_costs.spill_wait), or that the file does not say."""
    return (
        f", {rates.costs.spill_wait_s * 1e9:.0f} ns each (kernel_costs.spill_wait): one CTA's iteration takes the larger "
        "of those waits and the spills' traffic"
        if rates.costs.spill_wait_s
        else ", not charged: the machine file gives no kernel_costs.spill_wait"
    )


def held_spill_note(rates: Rates, tiles: int, sms: int, family: int) -> str:
    """The spills detail's rate where the L2 holds them (held_spill_rate), and where it comes from."""
    full = rates.spill_bps / (sms * rates.clock_hz)
    rate = float(held_spill_rate(rates, tiles, sms, family))
    if rates.spill_alone_bps_per_sm is None or not bool(grid_bound_spills(family)):
        return f"{full:.1f} B/cycle/SM (kernel_costs.spill_bandwidth) where the L2 holds them"
    return (f"{rate:.1f} B/cycle/SM where the L2 holds them: {grid_rate_formula(rates, tiles, sms)} SMs the grid "
            "fills)), a wgmma kernel's spills moving at kernel_costs.spill_bandwidth with every SM spilling and up to "
            "kernel_costs.spill_bandwidth_alone with few (cta_model.grid_spill_rate)")  # fmt: skip


def grid_rate_formula(rates: Rates, tiles: int, sms: int) -> str:
    """cta_model.grid_spill_rate written out with the file's figures, its closing parenthesis left to the caller:
    "max(R_all, min(R_alone, R_all x SMs / active" (B/cycle/SM; active = min(tiles, SMs))."""
    full = rates.spill_bps / (sms * rates.clock_hz)
    alone = rates.spill_alone_bps_per_sm / rates.clock_hz
    return f"max({full:.1f}, min({alone:.1f}, {full:.1f} x {sms} / {min(tiles, sms)}"


def last_round_spill_note(rates: Rates, fp: dict[str, Any], threads: int, tiles: int, ctas_per_sm: int, sms: int,
                          family: int) -> str:  # fmt: skip
    """Where the chip's last round moves its spills at another rate than a full round's (spill_rates of
    cta_model.last_round_tiles: fewer SMs spilling, fewer frames), what it is; nothing elsewhere."""
    last = int(cta_model.last_round_tiles(tiles, ctas_per_sm, sms))
    if last == tiles or not float(spill_frame_registers(fp)):
        return ""
    full = float(spill_rates(rates, fp, threads, tiles, ctas_per_sm, sms, family)[0])
    rate = float(spill_rates(rates, fp, threads, last, ctas_per_sm, sms, family)[0])
    if math.isclose(rate, full):
        return ""
    held = float(held_spill_rate(rates, last, sms, family))
    grid = ""
    if rates.spill_alone_bps_per_sm is not None and bool(grid_bound_spills(family)):
        grid = f"{grid_rate_formula(rates, last, sms)})) = {held:.1f} where the L2 holds them"
    frames = "" if math.isclose(rate, held) else f"{', ' if grid else ''}{rate:.1f} with its frames' home (spill_rates)"
    return (
        f"; the last round's {last} tiles on {min(last, sms)} SMs move theirs at {rate:.1f} B/cycle/SM "
        f"(its own rate, cta_model.last_round_tiles{': ' if grid or frames else ''}{grid}{frames})"
    )


def spill_home_note(
    machine: Machine, rates: Rates, fp: dict[str, Any], warps: int, tiles: int, ctas_per_sm: int, family: int
) -> tuple[str, list[Input]]:
    """What the spills term's detail adds about where the spilled registers the loop reuses live (spill_rates),
    and the capacities (and a last-level cache's latency, the L2's reuse capacity) it read: nothing where no spill
    is charged in the loop or the file measures no spill bandwidth."""
    frame_registers = float(spill_frame_registers(fp))
    if not frame_registers or rates.l2_capacity_bytes is None or rates.spill_bps is None:
        return "", []
    mem = machine.memory
    used = [machine.input_of("memory.l2.capacity", mem.l2.capacity)]
    if mem.llc is not None:
        used.append(machine.input_of("memory.llc.capacity", mem.llc.capacity))
        if mem.llc.latency is not None:
            used.append(machine.input_of("memory.llc.latency", mem.llc.latency))
    sms = machine.sm_count.n
    threads = warps * machine.warp_size
    resident = min(tiles, ctas_per_sm * sms)
    frames = float(spill_frame_bytes(fp, threads, tiles, ctas_per_sm, sms))
    l2 = rates.l2_capacity_bytes
    hold = rates.l2_reuse_bytes if bool(cyclic_frames(family, loop_as_counted(fp))) else None
    if hold is not None:
        used.append(machine.input_of("memory.l2.reuse_capacity", mem.l2.reuse_capacity))
    where = (f"; the spilled registers its loop reuses ({frame_registers:,.0f} a thread x 4 B x {threads} threads x "
             f"{resident} resident CTAs = {frames / 2**20:,.1f} MiB)")  # fmt: skip
    if frames <= (l2 if hold is None else hold):
        held = (
            f"fit the L2 ({l2 / 2**20:g} MiB)"
            if hold is None
            else f"fit what the L2 holds of frames reused in turn ({hold / 2**20:g} MiB)"
        )
        return f"{where} {held}", used
    l2_miss = cta_model.l2_frame_miss_share(frames, l2, hold, hold is not None)
    rate, factor = (float(x) for x in spill_rates(rates, fp, threads, tiles, ctas_per_sm, sms, family))
    levels = spill_home_levels(rates, min(tiles, sms))
    shares = [float(x) for x in cta_model.level_miss_shares(frames, l2, tuple(c for _, c, _, _ in levels), l2_miss)]
    reach = ", ".join(f"{share:.1%} reach {name} ({per_sm:.1f} B/cycle/SM over {min(tiles, sms)} SMs)"
                      for (name, _, per_sm, _), share in zip(levels, shares, strict=True))  # fmt: skip
    waits = float(fp.get("loop_waits", 0))
    round_trip = (
        f"; a reload's round trip is {factor:.2f} x kernel_costs.spill_wait (the mean latency over the L2's), "
        f"{waits:g} a warp an iteration"
        if waits and rates.costs.spill_wait_s and factor != 1.0
        else ""
    )
    if waits and rates.costs.spill_wait_s and hold is not None and not bool(cyclic_waits(family)):
        uniform = float(cta_model.cache_miss_share(frames, l2))
        round_trip = (
            f"; the reloads a warp waits on ({waits:g} an iteration) miss the L2 as uniform reuse says (cyclic_waits): "
            f"max(0, 1 - {l2 / 2**20:g} / {frames / 2**20:,.1f} MiB) = {uniform:.1%}, a round trip of {factor:.2f} x "
            "kernel_costs.spill_wait"
        )
    if hold is not None:
        misses = (f"reused in turn, they pass what the L2 holds of such frames ({hold / 2**20:g} MiB, "
                  f"memory.l2.reuse_capacity): (frames - that) / ({l2 / 2**20:g} MiB - that) of the traffic misses it, "
                  f"all of it from the L2's capacity on (cta_model.reuse_miss_share)")  # fmt: skip
    else:
        misses = f"outgrow the L2 ({l2 / 2**20:g} MiB): 1 - L2 / frames of the traffic misses it"
    return (
        f"{where} {misses}; {reach}; "
        f"so spills move at 1 / max(1 / {float(held_spill_rate(rates, tiles, sms, family)):.1f}, share / rate) = "
        f"{rate:.1f} "
        f"B/cycle/SM{round_trip} (cta_model.spill_home)",
        used,
    )


def config_as_compiled(machine: Machine, config: KernelConfig, compiled: CompiledCounts) -> KernelConfig:
    """The configuration with the MMA family the compiler chose, where it chose another than the config's (and
    that family's register-level tile); a ProblemError where that family's layout does not tile the CTA."""
    if compiled.instruction == config.instruction:
        return config
    tile = register_tile_for(compiled.instruction, config.bm, config.bn, config.warps, machine.warp_size)
    if tile is None:
        raise ProblemError(
            f"--compile: the compiler chose {compiled.instruction} for {config.label()}, whose warp layout the model "
            "does not tile"
        )
    return config.model_copy(update={"instruction": compiled.instruction, "register_tile": tile})


def registers_origin(regs: int | None, compiled: CompiledCounts | None) -> str:
    """Where a prediction's register counts come from, as its JSON and text say."""
    if compiled is not None:
        return f"compiled by Triton {compiled.triton} with ptxas {compiled.ptxas} for {compiled.target} (--compile)"
    return "as compiled (--regs)" if regs is not None else "estimated (roofmodel.model.footprint)"


def predict(
    machine: Machine | str,
    gemm: Gemm,
    tile: Tile,
    *,
    raster: str = defaults.RASTER,
    cluster: tuple[int, int] = defaults.CLUSTER,
    stages: int = defaults.STAGES,
    warps: int | None = None,
    register_tile: tuple[int, int] | None = None,
    instruction: str | None = None,
    persistent: bool = False,
    **kw: Any,
) -> Prediction:
    """predict_kernel for a kernel stated by its parts (kernel.generic_config picks the instruction
    the tile admits, the warps' layout, and checks that they agree). ``machine``: a ``Machine`` or a
    built-in name or file path; the other options are predict_kernel's."""
    machine = as_machine(machine)
    config = generic_config(machine, gemm.dtype, tile=tile, warps=warps, stages=stages, instruction=instruction,
                            register_tile=register_tile, cluster=cluster, raster=raster, persistent=persistent)  # fmt: skip
    return predict_kernel(machine, gemm, config, **kw)
