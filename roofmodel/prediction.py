"""Predicted time of one kernel configuration, from the model's own pieces, every factor named.

Each term is the time one resource alone would take; the prediction is the largest (the
resources overlap perfectly, as the roofline assumes), and the report ranks them:

- compute: each SM works through ceil(tiles / SMs) output tiles of BM x BN x K FMAs, one after
  another, at the pipe's rate (wave quantization at SM granularity). A term for each tile's
  pipeline fill where one CTA per SM and no persistent producer hide it (one mean load latency
  per tile) was tried against the 168 recorded fp16 kernels and rejected: median error 24.7% ->
  24.1%, but the within-shape rank correlation fell from 0.86 to 0.74 (bf16: 0.86 -> 0.77), so
  ``persistent`` is carried and reported but changes no term;
- DRAM: the raster model's reads plus C's writes, over DRAM bandwidth;
- L2: the CTAs' requests plus C; each wave's distinct panel bytes go at the L2 bandwidth, the
  repeated requests of the same wave's CTAs at the L2's same-address bandwidth where the machine
  file has one (else the L2 bandwidth);
- shared memory: the register-level tiles' operand reads over shared-memory bandwidth;
- latency: Little's law on the shared-memory fill: max(stages - 1, 1) tile loads in flight per CTA,
  times the CTAs an SM holds (occupancy), over the mean L2/DRAM latency, bound the rate each SM
  can fill its tiles.

No fitted factor: the rates are the machine file's (``compute="measured"`` and a calibrated
overlay supply measured ceilings, each with its source), and the clock is named (``clock``:
the file's sustained clock where it has one, else the pipe's rated clock). ``resource_seconds``
is the one formula; the scalar ``predict`` and the vectorized search (roofmodel.search) both
call it, so they cannot drift apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel import units
from roofmodel.analysis import _input, analyze
from roofmodel.cta_model import CtaCosts
from roofmodel.errors import ProblemError
from roofmodel.hierarchy import level_bandwidth
from roofmodel.kernel import KernelConfig
from roofmodel.latency import mean_latency_cycles
from roofmodel.machine import KernelCosts, Machine, Source
from roofmodel.problem import Gemm, Tile
from roofmodel.report import JSON_SCHEMA_VERSION, Input
from roofmodel.tiling import register_tile_read_bytes

CLOCK_CHOICES = "sustained, rated, boost or a number of MHz"


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    seconds: float
    detail: str


class Prediction(BaseModel):
    """``roofmodel predict --json`` (with ``schema_version``; JSON Schema: docs/schema/prediction.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    seconds: float
    tflops: float
    limiter: str
    terms: list[Term]  # ranked, slowest first
    clock_mhz: float
    clock_origin: str
    ctas_per_sm: int
    occupancy_limiter: str
    wave_efficiency: float  # tiles / (ceil(tiles / SMs) x SMs): the SM-level quantization
    instruction: str
    register_tile: tuple[int, int]
    persistent: bool
    inputs: list[Input]


def _maximum(a: Any, b: Any) -> Any:
    if hasattr(a, "shape") or hasattr(b, "shape"):
        import numpy as np

        return np.maximum(a, b)
    return a if a >= b else b


def l2_seconds(l2_bytes: Any, repeated_bytes: Any, l2_bps: float, same_address_bps: float | None) -> Any:
    """(L2 bytes - repeated) / L2 B/s + repeated / max(same-address B/s, L2 B/s): a wave's repeated
    requests for the same panels go at the same-address rate where the file has one."""
    same = l2_bps if same_address_bps is None else _maximum(same_address_bps, l2_bps)
    return (l2_bytes - repeated_bytes) / l2_bps + repeated_bytes / same


def resource_seconds(
    *,
    sms: int,
    tiles: Any,
    tile_fmas: Any,
    fma_per_s_per_sm: float,
    dram_bytes: Any,
    dram_bps: float,
    l2_bytes: Any,
    l2_repeated_bytes: Any,
    l2_bps: float,
    l2_same_address_bps: float | None,
    smem_bytes: Any,
    smem_bps: float,
    requested_bytes: Any,
    in_flight_bytes_per_sm: Any,
    mean_latency_s: Any,
) -> dict[str, Any]:
    """Seconds each resource alone would take (numbers, or numpy arrays of configurations):

    compute = ceil(tiles / SMs) x tile FMAs / (FMA/s per SM)
    DRAM    = DRAM bytes / DRAM B/s
    L2      = (L2 bytes - repeated) / L2 B/s + repeated / max(same-address B/s, L2 B/s)
    smem    = register-tile operand bytes / smem B/s
    latency = requested bytes / (bytes in flight per SM / mean latency x SMs), where latency is known
    """
    per_sm = -(-tiles // sms)
    out = {
        "compute": per_sm * tile_fmas / fma_per_s_per_sm,
        "DRAM": dram_bytes / dram_bps,
        "L2": l2_seconds(l2_bytes, l2_repeated_bytes, l2_bps, l2_same_address_bps),
        "shared memory": smem_bytes / smem_bps,
    }
    if mean_latency_s is not None:
        out["latency"] = requested_bytes / (in_flight_bytes_per_sm / mean_latency_s * sms)
    return out


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

    def family_fma_per_s(self, family: str) -> float:
        return dict(self.family_fma_per_s_per_sm).get(family, self.fma_per_s_per_sm)

    @property
    def latency_known(self) -> bool:
        return self.l2_latency_cycles is not None and self.dram_latency_cycles is not None


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
        if not (math.isfinite(clock) and clock > 0):
            raise ProblemError(f"--clock: must be a finite number of MHz > 0 (got {clock})")
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
    return q.hz / 1e6, origin, _input(machine, field, q)


def machine_rates(
    machine: Machine,
    dtype: str,
    *,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    instruction: str | None = None,
) -> Rates:
    """The compute rate (of the instruction family: its own where the file gives one), bandwidths
    and latencies a prediction uses, at the resolved clock."""
    mhz, origin, clock_input = resolve_clock(machine, dtype, clock, instruction)
    clock_hz = mhz * 1e6
    sms = machine.sm_count.n
    pipe = machine.pipe(dtype)
    rated, _, rate_field = pipe.rate_of(pipe.instruction(instruction))
    rate_q = rated.pick(compute)
    fma = units.rate_fma_per_cycle_per_sm(rate_q.value, rate_q.unit, sms, clock_hz)
    inputs = [_input(machine, f"compute.{dtype}.{rate_field}.{rate_q.kind}", rate_q)]
    if clock_input is not None:
        inputs.append(clock_input)

    def bps(level: str) -> float:
        bw = level_bandwidth(machine, level, bandwidth, clock_hz)
        assert bw is not None and bw.quantity is not None and bw.field  # the schema requires these three
        inputs.append(_input(machine, bw.field, bw.quantity))
        return units.bytes_per_cycle_per_sm_to_gb_per_s(bw.bytes_per_cycle_per_sm, sms, clock_hz) * 1e9

    dram, l2, smem = bps("dram"), bps("l2"), bps("smem")
    same = None
    shared = machine.memory.l2.shared_read_bandwidth
    if shared is not None:
        q = shared.pick(bandwidth)
        same = units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock_hz) * sms * clock_hz
        inputs.append(_input(machine, f"memory.l2.shared_read_bandwidth.{q.kind}", q))
    mem = machine.memory
    named = {
        "memory.l2.latency": mem.l2.latency,
        "memory.dram.latency": mem.dram.latency,
        "memory.l2.loaded_latency": mem.l2.loaded_latency,
        "memory.dram.loaded_latency": mem.dram.loaded_latency,
    }
    if machine.kernel_costs is not None:
        named.update({f"kernel_costs.{k}": getattr(machine.kernel_costs, k) for k in KernelCosts.model_fields})
    cycles: dict[str, float | None] = {}
    for name, q in named.items():
        cycles[name] = units.latency_cycles(q.value, q.unit, clock_hz) if q is not None else None
        if q is not None:
            inputs.append(_input(machine, name, q))

    def seconds(name: str) -> float:
        return (cycles.get(name) or 0.0) / clock_hz

    lat_l2, lat_dram = cycles["memory.l2.latency"], cycles["memory.dram.latency"]
    family_rates = []
    for ins in pipe.instructions:
        q = pipe.rate_of(ins)[0].pick(compute)
        family_rates.append((ins.family, units.rate_fma_per_cycle_per_sm(q.value, q.unit, sms, clock_hz) * clock_hz))
    return Rates(
        family_fma_per_s_per_sm=tuple(family_rates),
        l2_loaded_latency_cycles=cycles["memory.l2.loaded_latency"] or lat_l2,
        dram_loaded_latency_cycles=cycles["memory.dram.loaded_latency"] or lat_dram,
        costs=CtaCosts(
            launch_s=seconds("kernel_costs.launch"),
            iteration_s=seconds("kernel_costs.iteration"),
            copy_issue_s=seconds("kernel_costs.copy_issue"),
            epilogue_s=seconds("kernel_costs.epilogue"),
        ),
        clock_hz=clock_hz,
        clock_origin=origin,
        fma_per_cycle_per_sm=fma,
        fma_per_s_per_sm=fma * clock_hz,
        dram_bps=dram,
        l2_bps=l2,
        l2_same_address_bps=same,
        smem_bps=smem,
        l2_latency_cycles=lat_l2,
        dram_latency_cycles=lat_dram,
        inputs=tuple(inputs),
    )


def predict(
    machine: Machine,
    gemm: Gemm,
    tile: Tile,
    *,
    raster: str = "row",
    cluster: tuple[int, int] = (1, 1),
    stages: int = 3,
    regs: int | None = None,
    warps: int | None = None,
    kernel_threads: int | None = None,
    register_tile: tuple[int, int] | None = None,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    instruction: str | None = None,
    clock: str | float | None = None,
    persistent: bool = False,
) -> Prediction:
    """Predicted time and TFLOPS of one configuration, with the time each resource alone takes."""
    rates = machine_rates(machine, gemm.dtype, compute=compute, bandwidth=bandwidth, clock=clock,
                          instruction=instruction)  # fmt: skip
    r = analyze(machine, gemm, tile=tile, raster=raster, cluster=cluster, stages=stages, regs=regs, warps=warps,
                kernel_threads=kernel_threads, register_tile=register_tile, compute=compute, bandwidth=bandwidth,
                instruction=instruction, clock_mhz=rates.clock_hz / 1e6)  # fmt: skip
    if "l2" not in r.levels or "smem" not in r.levels:
        raise ProblemError("predict: the operand path must include L2 and shared memory (leave --levels out)")
    sms = machine.sm_count.n
    x = r.cross_sm
    bm, bn, _ = r.tiles.cta
    rm, rn = r.tiles.register_tile
    ctas = x.occupancy.ctas_per_sm
    traffic = x.raster
    c_bytes = x.dram_write_bytes
    mean_cycles = None
    if rates.latency_known:
        assert rates.l2_latency_cycles is not None and rates.dram_latency_cycles is not None
        mean_cycles = mean_latency_cycles(
            traffic.dram_read_bytes, traffic.requested_bytes, rates.l2_latency_cycles, rates.dram_latency_cycles
        )
    in_flight = max(stages - 1, 1) * x.latency.stage_bytes * ctas
    repeated = _maximum(0.0, traffic.requested_bytes - traffic.wave_distinct_bytes)
    smem_bytes = register_tile_read_bytes(gemm.fmas, r.tiles.register_tile_granularity, rm, rn, gemm.input_bytes)
    seconds = resource_seconds(
        sms=sms, tiles=x.waves.tiles, tile_fmas=bm * bn * gemm.k, fma_per_s_per_sm=rates.fma_per_s_per_sm,
        dram_bytes=traffic.dram_read_bytes + c_bytes, dram_bps=rates.dram_bps,
        l2_bytes=traffic.requested_bytes + c_bytes, l2_repeated_bytes=repeated, l2_bps=rates.l2_bps,
        l2_same_address_bps=rates.l2_same_address_bps, smem_bytes=smem_bytes, smem_bps=rates.smem_bps,
        requested_bytes=traffic.requested_bytes, in_flight_bytes_per_sm=in_flight,
        mean_latency_s=mean_cycles / rates.clock_hz if mean_cycles is not None else None,
    )  # fmt: skip
    per_sm = math.ceil(x.waves.tiles / sms)
    mhz = rates.clock_hz / 1e6
    details = {
        "compute": f"{per_sm} tiles per SM x {bm}x{bn}x{gemm.k} FMAs at {rates.fma_per_cycle_per_sm:,.0f} "
        f"FMA/cycle, {mhz:.0f} MHz; the waves keep {x.waves.tiles / (per_sm * sms):.0%} of the SMs busy",
        "DRAM": f"{(traffic.dram_read_bytes + c_bytes) / 2**20:,.0f} MiB at {rates.dram_bps / 1e9:,.0f} GB/s",
        "L2": f"{(traffic.requested_bytes + c_bytes) / 2**20:,.0f} MiB requested + C at {rates.l2_bps / 1e9:,.0f} GB/s"
        + (
            f", {repeated / 2**20:,.0f} MiB of it same-wave repeats at {rates.l2_same_address_bps / 1e9:,.0f} GB/s"
            if rates.l2_same_address_bps
            else ""
        ),
        "shared memory": f"{smem_bytes / 2**30:,.1f} GiB of operand reads ({r.tiles.register_tile_granularity} tile "
        f"{rm}x{rn}) at {rates.smem_bps / 1e9:,.0f} GB/s",
        "latency": f"{max(stages - 1, 1)} loads x {x.latency.stage_bytes / 1024:,.0f} KiB in flight per CTA x {ctas} "
        f"CTA/SM (occupancy limited by {x.occupancy.limiter}) over {mean_cycles or 0:,.0f} cycles",
    }
    terms = sorted(
        (Term(name=name, seconds=float(s), detail=details[name]) for name, s in seconds.items()),
        key=lambda t: -t.seconds,
    )
    return Prediction(
        seconds=terms[0].seconds,
        tflops=gemm.flops / terms[0].seconds / 1e12,
        limiter=terms[0].name,
        terms=terms,
        clock_mhz=mhz,
        clock_origin=rates.clock_origin,
        ctas_per_sm=ctas,
        occupancy_limiter=x.occupancy.limiter,
        wave_efficiency=x.waves.tiles / (per_sm * sms),
        instruction=r.pipe.instruction,
        register_tile=(rm, rn),
        persistent=persistent,
        inputs=list(rates.inputs),
    )


def predict_kernel(
    machine: Machine,
    gemm: Gemm,
    config: KernelConfig,
    *,
    regs: int | None = None,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
) -> Prediction:
    """predict() for a KernelConfig (a preset's or the search's): its tile, warps as the CTA's
    threads, its instruction family and register-level tile."""
    return predict(
        machine, gemm, Tile(bm=config.bm, bn=config.bn, bk=config.bk), raster=config.raster, cluster=config.cluster,
        stages=config.stages, regs=regs, kernel_threads=32 * config.warps, register_tile=config.register_tile,
        compute=compute, bandwidth=bandwidth, instruction=config.instruction, clock=clock,
        persistent=config.persistent,
    )  # fmt: skip
