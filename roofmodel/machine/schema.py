"""Machine files: the pydantic schema, the built-in presets and the validate-then-build loader.

A machine file is YAML (its syntax is documented in the header of every built-in file). Every
number is a quantity ``{value, unit, kind, source}``: ``kind`` says whether it is a datasheet
peak (``spec``) or a measurement (``measured``); where both exist (T4 DRAM: 320 GB/s spec, 220
GB/s measured) a field holds ``{spec: ..., measured: ...}`` and the analysis picks one.

A user's file may start from a built-in one with ``base: h100`` and override a few entries;
mappings merge key by key, while a quantity (a mapping with ``value``) or a list is replaced whole,
so an override always carries its own unit and source.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from roofmodel import units
from roofmodel.errors import MachineFileError
from roofmodel.results import Input

Kind = Literal["spec", "measured"]
Source = Literal["spec", "measured"]
# fp4 is a machine figure only: its peak is carried and shown, while GEMMs of sub-byte elements are not
# modelled (roofmodel.model.problem.DTYPES).
DtypeName = Literal["fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4"]
AccumulatorName = Literal["fp64", "fp32", "int32", "fp16"]
# NVIDIA's CUDA cores and tensor cores; AMD's SIMD vector ALUs and matrix cores.
Engine = Literal["cuda_core", "tensor_core", "simd", "matrix_core"]


class StrictModel(BaseModel):
    """Rejects unknown keys, so a typo in a machine file is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, strict=True)


class _Quantity(StrictModel):
    value: float
    kind: Kind
    source: str = Field(min_length=1)
    note: str | None = None

    @field_validator("value")
    @classmethod
    def _finite_positive(cls, v: float) -> float:
        if not math.isfinite(v):
            raise ValueError(f"must be a finite number (got {v})")
        if v <= 0:
            raise ValueError(f"must be > 0 (got {v:g})")
        return v


class Bandwidth(_Quantity):
    unit: Literal["GB/s", "TB/s", "B/cycle/SM", "B/cycle"]


class Rate(_Quantity):
    unit: Literal["FMA/cycle/SM", "FLOP/cycle/SM", "TFLOPS", "GFLOPS"]


class Capacity(_Quantity):
    unit: Literal["B", "KiB", "MiB", "GiB"]

    @property
    def bytes(self) -> float:
        return units.capacity_bytes(self.value, self.unit)


class Latency(_Quantity):
    unit: Literal["cycles", "ns"]


class Ratio(_Quantity):
    """A ratio of two counts, named by its unit."""

    unit: Literal["requests/sector"]


class Clock(_Quantity):
    unit: Literal["MHz", "GHz"]

    @property
    def hz(self) -> float:
        return units.clock_hz(self.value, self.unit)


class Count(_Quantity):
    unit: Literal["SMs", "CUs", "threads", "warps", "blocks", "registers", "CTAs", "lanes", "partitions"]

    @field_validator("value")
    @classmethod
    def _integral(cls, v: float) -> float:
        if v != int(v):
            raise ValueError(f"must be a whole number (got {v})")
        return v

    @property
    def n(self) -> int:
        return int(self.value)


class _Rated(StrictModel):
    """A figure that may exist as a datasheet peak, a measurement, or both.

    Two concrete subclasses rather than one generic class: a parametrized pydantic generic builds
    its schema at import, which cost the CLI about 60 ms of start-up.
    """

    spec: _Quantity | None = None
    measured: _Quantity | None = None

    @model_validator(mode="after")
    def _at_least_one(self) -> _Rated:
        if self.spec is None and self.measured is None:
            raise ValueError("needs a 'spec' or a 'measured' entry")
        for name in ("spec", "measured"):
            q = getattr(self, name)
            if q is not None and q.kind != name:
                raise ValueError(f"{name}: kind must be {name!r} (got {q.kind!r})")
        return self

    def pick(self, preferred: Source) -> Any:
        """The preferred entry where present, else the other one."""
        first, second = (self.measured, self.spec) if preferred == "measured" else (self.spec, self.measured)
        chosen = first if first is not None else second
        assert chosen is not None
        return chosen


class RatedBandwidth(_Rated):
    spec: Bandwidth | None = None
    measured: Bandwidth | None = None


class RatedRate(_Rated):
    spec: Rate | None = None
    measured: Rate | None = None


class Instruction(StrictModel):
    """An instruction family that drives a compute pipe, and where it reads its operands.

    ``fma`` (FFMA/DFMA on CUDA cores, one thread's tile), ``mma.sync`` (a warp's fragments in
    registers), ``wgmma`` (Hopper warpgroup MMA; operands read from shared memory descriptors),
    ``tcgen05`` and ``tcgen05.2sm`` (Blackwell: operands from shared memory, accumulator in tensor
    memory, one CTA or a pair), ``mfma`` (AMD CDNA: a wavefront's fragments in vector registers).
    """

    family: Literal["fma", "mma.sync", "wgmma", "tcgen05", "tcgen05.2sm", "mfma"]
    shape: str | None = None
    operands_from: Literal["rf", "smem"]
    max_n: int | None = Field(default=None, gt=0, description="wgmma, tcgen05: largest N of the instruction")
    # Where the accumulator lives: registers, or Blackwell's tensor memory (tcgen05; memory.tmem).
    accumulator_in: Literal["rf", "tmem"] = "rf"
    # Where this family runs at another rate, or on another engine, than the pipe's first family
    # (Hopper's mma.sync against wgmma; an A100's DMMA on tensor cores against DFMA on CUDA cores).
    rate: RatedRate | None = None
    # Where the rate depends on the accumulator type (GeForce Ada: fp16 with an fp32 accumulator at
    # half the fp16-accumulator rate): the rate for each accumulator that differs from ``rate``.
    rate_by_accumulator: dict[AccumulatorName, RatedRate] | None = None
    rated_clock: Clock | None = None
    engine: Engine | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Instruction:
        if self.family in ("fma", "mma.sync", "mfma") and self.operands_from != "rf":
            raise ValueError(f"{self.family} reads its operands from registers: operands_from must be 'rf'")
        tcgen05 = self.family.startswith("tcgen05")
        if tcgen05 != (self.accumulator_in == "tmem"):
            raise ValueError("tcgen05 (and only tcgen05) accumulates in tensor memory: accumulator_in must be "
                             f"{'tmem' if tcgen05 else 'rf'} for {self.family}")  # fmt: skip
        if tcgen05 and self.operands_from != "smem":
            raise ValueError(f"{self.family} reads B from shared memory: operands_from must be 'smem'")
        return self

    @property
    def tile_granularity(self) -> Literal["thread", "warp", "warpgroup", "cta", "cta pair", "wavefront"]:
        """Who owns one register-level (instruction-level) tile: a thread (FFMA), a warp (mma.sync),
        a warpgroup (wgmma), the CTA (tcgen05, issued by one thread for the CTA) or a pair of CTAs on
        two SMs (tcgen05 with cta_group::2)."""
        return {  # type: ignore[return-value]
            "fma": "thread", "mma.sync": "warp", "wgmma": "warpgroup", "tcgen05": "cta", "tcgen05.2sm": "cta pair",
            "mfma": "wavefront",
        }[self.family]  # fmt: skip


class ComputePipe(StrictModel):
    engine: Engine
    # The rate with the dtype's default accumulator (fp32 for fp16/bf16/tf32/fp8, int32 for int8).
    rate: RatedRate
    # The rate with another accumulator where it differs (``--acc``; an RTX 4090's fp16 pipe runs
    # twice as fast accumulating in fp16 as in fp32).
    rate_by_accumulator: dict[AccumulatorName, RatedRate] | None = None
    # The accumulator types the pipe's instructions take, where fewer than the dtype allows (the
    # MI300X's fp16 MFMA accumulates in fp32 only). Absent: every one the dtype allows.
    accumulators: list[AccumulatorName] | None = None
    rated_clock: Clock | None = None
    instructions: list[Instruction] = Field(min_length=1)

    def instruction(self, family: str | None) -> Instruction:
        if family is None:
            return self.instructions[0]
        for ins in self.instructions:
            if ins.family == family:
                return ins
        have = ", ".join(i.family for i in self.instructions)
        raise MachineFileError(f"instruction {family!r} is not available for this dtype (have: {have})")

    def _field(self, ins: Instruction, name: str) -> str:
        i = next(j for j, x in enumerate(self.instructions) if x is ins)
        return f"instructions.{i}.{name}"

    def rate_of(self, ins: Instruction, accumulator: str | None = None) -> tuple[RatedRate, Clock | None, str]:
        """(rate, rated clock, field path of the rate below compute.<dtype>) of one instruction
        family with an accumulator type (None: the dtype's default): the first of the instruction's
        rate for that accumulator, the instruction's rate, the pipe's rate for that accumulator, the
        pipe's rate."""
        clock = self.rated_clock_of(ins)[0]
        if accumulator is not None and ins.rate_by_accumulator and accumulator in ins.rate_by_accumulator:
            return ins.rate_by_accumulator[accumulator], clock, self._field(ins, f"rate_by_accumulator.{accumulator}")  # type: ignore[index]
        if ins.rate is not None:
            return ins.rate, clock, self._field(ins, "rate")
        if accumulator is not None and self.rate_by_accumulator and accumulator in self.rate_by_accumulator:
            return self.rate_by_accumulator[accumulator], clock, f"rate_by_accumulator.{accumulator}"  # type: ignore[index]
        return self.rate, clock, "rate"

    def rated_clock_of(self, ins: Instruction) -> tuple[Clock | None, str]:
        """(clock its datasheet rate is quoted at, field path below compute.<dtype>): the
        instruction's own where given, else the pipe's."""
        if ins.rated_clock is not None:
            return ins.rated_clock, self._field(ins, "rated_clock")
        return self.rated_clock, "rated_clock"

    def engine_of(self, ins: Instruction) -> str:
        return ins.engine or self.engine


class DramLevel(StrictModel):
    capacity: Capacity
    bandwidth: RatedBandwidth
    latency: Latency | None = None
    # The latency a load sees while the chip streams at full rate (queues included); the per-CTA
    # time model (cta_model.py) uses it for pipeline fill and Little's law. Optional.
    loaded_latency: Latency | None = None
    # The most line requests per 32-byte sector of ``bandwidth.measured`` that the path from DRAM serves: a copy
    # in runs shorter than a 128-byte line asks one request per run (32 / run bytes a sector), and past this ratio
    # its DRAM reads go at the requests' rate (prediction.dram_request_seconds). Optional; measured
    # (benchmarks/gpu_dram_runs.py), and read against bandwidth.measured, which it needs: a file that measures the
    # bandwidth again (roofmodel calibrate) measures this again too. Not with a last-level cache (memory.llc),
    # whose lines, not the L2's runs, are what DRAM serves there.
    requests_per_sector: Ratio | None = None

    @model_validator(mode="after")
    def _requests_need_the_measured_rate(self) -> DramLevel:
        if self.requests_per_sector is not None and self.bandwidth.measured is None:
            raise ValueError("requests_per_sector is read against bandwidth.measured: give that too")
        return self


class L2Level(StrictModel):
    capacity: Capacity
    # Optional: some vendors publish no L2 bandwidth (say so under the machine's ``unpublished``);
    # without it the L2 stage is assumed to keep up and predictions leave the L2 term out.
    bandwidth: RatedBandwidth | None = None
    # Reads of the same addresses by many SMs at once (a GEMM wave's shared panels) can be served
    # faster than distinct ones (the L2 request coalescer, seed 000 §5.2.4). Optional; measured.
    shared_read_bandwidth: RatedBandwidth | None = None
    # The rate at which the L2 serves a GEMM's operand requests, every CTA's panel bytes counted:
    # requested bytes / time of GEMMs that the L2 binds (Nsight Compute puts their L2 at 90% of its
    # peak or more). The per-CTA time model charges all of a kernel's L2 requests at this one rate
    # where the file has it (else at ``bandwidth``, a wave's repeated ones at
    # ``shared_read_bandwidth``); the roofline's bounds keep the ceilings above. Optional; measured.
    gemm_bandwidth: RatedBandwidth | None = None
    # The most line requests its tag stage leaves a kernel's copies per 32-byte sector of its data rate: the
    # two stages' peak ratio, less what the L2's other traffic takes (an effective limit, measured). One request
    # carries the sectors one row of a copy holds in one 128-byte line, so a copy in rows shorter than a line
    # asks for more requests per byte, and past this ratio the tag stage sets the rate
    # (prediction.l2_request_factor). Optional: without it a request is taken to cost nothing beyond its bytes.
    requests_per_sector: Ratio | None = None
    latency: Latency | None = None
    loaded_latency: Latency | None = None
    # The largest set of bytes that every SM reloads and stores in turn (each line once a pass, all the others
    # between: a spilling kernel's local frames, reused once a main-loop iteration) that the L2 still serves
    # without misses; past it the misses rise to all of them at ``capacity`` (cta_model.reuse_miss_share).
    # Optional; measured (benchmarks/gpu_spill_frames.py). Absent: misses are 1 - capacity / set beyond capacity.
    reuse_capacity: Capacity | None = None
    # An L2 split into slices each of which serves only its own group of SMs (MI300X: a 4 MB L2 per
    # XCD of 38 CUs): ``capacity`` and ``bandwidth`` are the chip's totals, each slice holds
    # capacity / partitions, and CTAs are dealt to the slices in launch order (AMD: workgroup i to XCD
    # i mod 8), so a slice sees every partitions-th tile. Absent: one L2 that every SM shares.
    private_partitions: Count | None = None
    partition_dispatch: Literal["round_robin"] = "round_robin"

    @model_validator(mode="after")
    def _reuse_within_capacity(self) -> L2Level:
        if self.reuse_capacity is not None and not self.reuse_capacity.bytes < self.capacity.bytes:
            raise ValueError("reuse_capacity must be less than capacity")
        return self


class LlcLevel(StrictModel):
    """A memory-side last-level cache between the L2 (or its partitions) and DRAM, shared by the whole
    chip (AMD's Infinity Cache): it caches DRAM for every L2 and holds nothing they write back."""

    capacity: Capacity
    bandwidth: RatedBandwidth
    latency: Latency | None = None
    loaded_latency: Latency | None = None


class SmemLevel(StrictModel):
    capacity_per_sm: Capacity
    max_per_block: Capacity
    l1_smem_combined: Capacity | None = None
    bandwidth: RatedBandwidth
    latency: Latency | None = None

    @model_validator(mode="after")
    def _block_within_sm(self) -> SmemLevel:
        if self.max_per_block.bytes > self.capacity_per_sm.bytes:
            raise ValueError("max_per_block must not exceed capacity_per_sm")
        return self


class RfLevel(StrictModel):
    capacity_per_sm: Capacity
    bandwidth: RatedBandwidth | None = None
    latency: Latency | None = None


class TmemLevel(StrictModel):
    """Blackwell's tensor memory: per SM, 128 lanes x 512 columns of 32-bit cells that hold tcgen05's
    accumulators instead of registers (PTX ISA, tensor memory). Allocated in columns, a power of two
    of at least 32."""

    capacity_per_sm: Capacity
    lanes: Count

    @property
    def columns(self) -> int:
        """32-bit columns per lane: capacity / (lanes x 4 B)."""
        return int(self.capacity_per_sm.bytes // (self.lanes.n * 4))


class Memory(StrictModel):
    dram: DramLevel
    llc: LlcLevel | None = None
    l2: L2Level
    smem: SmemLevel
    rf: RfLevel
    tmem: TmemLevel | None = None

    @model_validator(mode="after")
    def _dram_requests_without_llc(self) -> Memory:
        if self.llc is not None and self.dram.requests_per_sector is not None:
            raise ValueError("dram.requests_per_sector is not read where an llc serves DRAM's lines: leave it out")
        return self


class Clocks(StrictModel):
    boost: Clock
    base: Clock | None = None
    # The SM clock under sustained load (power and thermal limits), measured by `roofmodel
    # calibrate`; predictions use it where present (issue 5). Optional.
    sustained: Clock | None = None


class Limits(StrictModel):
    max_threads_per_sm: Count
    max_warps_per_sm: Count
    max_blocks_per_sm: Count
    max_threads_per_block: Count
    registers_per_sm: Count
    max_registers_per_thread: Count
    # Threads that issue together: 32 on NVIDIA GPUs (a warp), 64 on AMD CDNA (a wavefront). Absent: 32.
    warp_size: Count | None = None


class KernelCosts(StrictModel):
    """Fixed costs of a GEMM kernel that no bandwidth or rate explains (cta_model.py), each optional:
    per launch, per main-loop iteration, per 16-byte copy a thread issues in an iteration, per epilogue,
    per iteration of an asynchronous MMA (wgmma), the wait on the previous group, and per 32-bit element
    of an MN-major operand that wgmma cannot read from shared memory, which the warps transpose through
    registers (per SM), and per fp8 element the warps convert to fp16 for mma.sync (per SM, a pipe
    beside the MMAs; where CTAs share the SM and both operands are K-major, per element and per warp on that pipe:
    convert_shared, convert_warp), and per element of an 8-bit MN-major operand that mma.sync's warps read from shared
    memory one byte at a time (per SM, on the same pipe); and the rate at which a kernel's spilled registers are stored and reloaded,
    each once per main-loop iteration (``spill_bandwidth``, per SM, every SM spilling; ``spill_bandwidth_alone``, where
    few do), and the FMA rate the kernel's FMA loop reaches
    (``fma_rate``, per SM)."""

    launch: Latency | None = None
    iteration: Latency | None = None
    copy_issue: Latency | None = None
    epilogue: Latency | None = None
    wait: Latency | None = None
    transpose: Latency | None = None
    # Per fp8 element an SM's warps convert to fp16 in front of mma.sync, as Triton does on sm_90
    # (cvt.rn.f16x2.e4m3x2, then m16n8k16.f16 MMAs); absent where mma.sync takes fp8 itself (sm_89).
    convert: Latency | None = None
    # The same where CTAs share the SM and both operands are K-major, on the pipe beside the MMAs they share: SM cycles
    # per element the resident CTAs' warps convert, and SM cycles per warp a CTA-iteration (a part of the iteration
    # that does not grow with BK; fitted beside convert_shared, not measured apart) (cta_model.py). Absent: convert
    # for both, nothing per warp; each needs the one before it (convert_warp needs convert_shared, which needs convert).
    convert_shared: Latency | None = None
    convert_warp: Latency | None = None
    # Per element of an 8-bit MN-major operand mma.sync's warps read from shared memory one byte per thread
    # (ldmatrix.trans is .b16 only: ld.shared.b8, then byte packs), on the same issue pipe as convert.
    gather: Latency | None = None
    # Per time a warp waits on its own reloads of spilled registers in a main-loop iteration (a local load's
    # round trip and what waits on it), counted in the compiled loop (triton_compile.local_reload_waits).
    spill_wait: Latency | None = None
    # What a kernel that reads DRAM pays, as it is timed, to write back the dirty lines the timer's L2 flush leaves
    # (triton.testing.do_bench zeroes a 256 MB buffer before each run; benchmarks/gpu_flush_check.py): DRAM time
    # beside the kernel's own bytes. A kernel timed after a clean flush, or in a stream of kernels, may pay less.
    flush_writeback: Latency | None = None
    # Per warp-level cp.async a CTA issues in an iteration, the SM's time to take it (its load-store path, shared by
    # the resident CTAs), charged where a wgmma kernel's operand is copied one element at a time (4-byte copies:
    # Triton's tf32 operand whose leading stride is not a multiple of 16 elements): there every copy counts.
    copy_instruction: Latency | None = None
    # The same copies where CTAs share an SM: the SM's time per warp-level cp.async over its resident CTAs' copies,
    # less than one CTA's own (copy_instruction, which a CTA's chain keeps). Absent: copy_instruction for both.
    copy_instruction_shared: Latency | None = None
    # The same where both operands of a CTA's stage are K-major and copied one element at a time and no register
    # spills (prediction.copies_all_of_elements): the SM's time per warp-level cp.async over its resident CTAs'
    # copies. Absent: copy_instruction_shared.
    copy_instruction_shared_elements: Latency | None = None
    # Per 16-byte copy a thread issues in an iteration, what a Triton wgmma loop of 16-bit operands with both operands
    # K-major adds to its CTA's iteration over the same loop with B N-major: the compiled loop forms each such copy's
    # address with more integer work (benchmarks/gpu_broad_sweep.py --layout-pairs, benchmarks/layout_pairs.py
    # --derive). On the SM's pipes of a round and in one CTA's chain alike.
    kmajor_copy: Latency | None = None
    spill_bandwidth: Bandwidth | None = None
    # The rate each SM's spills reach where few SMs spill (per SM): a wgmma kernel's spills with every SM spilling
    # move at spill_bandwidth, with half the SMs or fewer at this (prediction.spill_rates; microbenchmark:
    # benchmarks/gpu_broad_sweep.py --spill-grids). Absent: spill_bandwidth on any grid.
    spill_bandwidth_alone: Bandwidth | None = None
    # Per FFMA one warp alone on its SM sub-partition issues in a Triton FMA loop whose thread's A fragment (rm x BK)
    # passes prediction.FMA_FRAGMENT_FIT values: that warp's whole iteration over its FFMAs (cycles), a floor under one
    # CTA's chain of four warps or fewer (benchmarks/gpu_broad_sweep.py --fma-occupancy, benchmarks/derive_fma_lone.py).
    fma_lone_issue: Latency | None = None
    # What the kernel's own FMA loop reaches on the CUDA cores (FMA/cycle/SM), where its code issues fewer FFMAs a
    # cycle than the pipe sustains (a Triton FMA matmul against cuBLAS SGEMM): a ceiling on the FMA family's
    # rate for the kernels these costs describe, never the pipe's (analyze and the roofline keep the pipe's).
    fma_rate: Rate | None = None

    @model_validator(mode="after")
    def _refinements_need_their_base(self) -> KernelCosts:
        # Each says how a measured figure varies (with the grid, with the CTAs an SM holds): alone it says nothing.
        for refinement, base in (("spill_bandwidth_alone", "spill_bandwidth"),
                                 ("copy_instruction_shared", "copy_instruction"),
                                 ("copy_instruction_shared_elements", "copy_instruction_shared"),
                                 ("convert_shared", "convert"), ("convert_warp", "convert_shared")):  # fmt: skip
            if getattr(self, refinement) is not None and getattr(self, base) is None:
                raise ValueError(f"{refinement} refines {base}: give {base} too")
        return self

    def latencies(self) -> dict[str, Latency | None]:
        """The fields that are times, by name (every one but the spill bandwidths and fma_rate)."""
        rates = ("spill_bandwidth", "spill_bandwidth_alone", "fma_rate")
        return {k: getattr(self, k) for k in type(self).model_fields if k not in rates}


class Cluster(StrictModel):
    max_size: Count
    max_size_nonportable: Count | None = None
    tma_multicast: bool


class Machine(StrictModel):
    """A validated GPU description. Build it with ``load_machine``."""

    schema_version: Literal[1]
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    architecture: str
    # NVIDIA's compute capability ("9.0"), or an AMD GPU's ISA target ("gfx942").
    compute_capability: str = Field(pattern=r"^(\d+\.\d+|gfx[0-9a-f]+)$")
    sm_count: Count
    clocks: Clocks
    compute: dict[DtypeName, ComputePipe] = Field(min_length=1)
    memory: Memory
    limits: Limits
    cluster: Cluster | None = None
    kernel_costs: KernelCosts | None = None
    # Figures the vendor does not publish, by field path, each with what is known instead: a spec-only
    # file says so rather than guessing (shown by ``show-machine``).
    unpublished: dict[str, str] = Field(default_factory=dict)
    source_file: str | None = Field(default=None, description="set by the loader")
    _lines: dict[str, tuple[str, int]] = PrivateAttr(default_factory=dict)

    @field_validator("unpublished")
    @classmethod
    def _unpublished_named(cls, v: dict[str, str]) -> dict[str, str]:
        for field, why in v.items():
            if not field.strip() or not why.strip():
                raise ValueError("each entry names a field and says what is known instead")
        return v

    @model_validator(mode="after")
    def _tensor_memory_declared(self) -> Machine:
        for dtype, pipe in self.compute.items():
            for ins in pipe.instructions:
                if ins.accumulator_in == "tmem" and self.memory.tmem is None:
                    raise ValueError(
                        f"compute.{dtype}: {ins.family} accumulates in tensor memory, and memory.tmem is missing"
                    )
        return self

    def source_line(self, field: str) -> tuple[str, int] | None:
        """(file, line) where the quantity at a dotted field path is written, base files included."""
        return self._lines.get(field)

    def input_of(self, field: str, quantity: _Quantity) -> Input:
        """A number of this machine as a computation used it, with the file and line it is written on."""
        where = self.source_line(field)
        return Input(
            field=field,
            value=quantity.value,
            unit=quantity.unit,  # type: ignore[attr-defined]
            kind=quantity.kind,
            source=quantity.source,
            file=where[0] if where else None,
            line=where[1] if where else None,
        )

    @property
    def target(self) -> str:
        """The ISA the machine runs: sm_90 for compute capability 9.0, or the AMD target (gfx942)."""
        cc = self.compute_capability
        return cc if cc.startswith("gfx") else f"sm_{cc.replace('.', '')}"

    @property
    def nvidia_capability(self) -> tuple[int, int] | None:
        """(major, minor) of an NVIDIA compute capability; None for another vendor's target."""
        if self.compute_capability.startswith("gfx"):
            return None
        major, _, minor = self.compute_capability.partition(".")
        return int(major), int(minor)

    @property
    def warp_size(self) -> int:
        """Threads of a warp (NVIDIA) or wavefront (AMD): limits.warp_size, else 32."""
        return self.limits.warp_size.n if self.limits.warp_size is not None else 32

    @property
    def l2_partitions(self) -> int:
        """Private L2 slices (memory.l2.private_partitions), else 1."""
        parts = self.memory.l2.private_partitions
        return parts.n if parts is not None else 1

    def pipe(self, dtype: str) -> ComputePipe:
        if dtype not in self.compute:
            have = ", ".join(self.compute)
            raise MachineFileError(f"{self.name} has no {dtype} pipe (has: {have})")
        return self.compute[dtype]  # type: ignore[index]


class MachineDocument(BaseModel):
    """``roofmodel show-machine --json``: the validated machine (JSON Schema: docs/schema/machine.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    schema_version: int
    machine: Machine
