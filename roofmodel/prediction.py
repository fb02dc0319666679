"""Predicted time of one kernel configuration, from the model's own pieces, every factor named.

Each term is the time one resource alone would take; the prediction is the largest (the
resources overlap perfectly, as the roofline assumes), and the report ranks them:

- compute: each SM works through ceil(tiles / SMs) output tiles of BM x BN x K FMAs, one after
  another, at the pipe's rate (wave quantization at SM granularity);
- DRAM: the raster model's reads plus C's writes, over DRAM bandwidth;
- L2: each wave's distinct panel bytes over the L2 bandwidth, plus the repeated requests of the
  same wave's CTAs for those panels over the L2's same-address bandwidth where the machine file
  has one (else the L2 bandwidth);
- shared memory: the register-level tiles' operand reads over shared-memory bandwidth;
- latency: Little's law on the shared-memory fill: (stages - 1) tile loads in flight per CTA over
  the mean L2/DRAM latency bound the rate each SM can fill its tiles.

No fitted factor: the rates are the machine file's (``--compute measured`` and a calibrated
overlay supply measured ceilings, each with its source), shown in every prediction.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from roofmodel.analysis import _input, analyze
from roofmodel.machine import Machine, Source
from roofmodel.problem import Gemm, Tile
from roofmodel.report import Input


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    seconds: float
    detail: str


class Prediction(BaseModel):
    """``roofmodel predict --json`` (with ``schema_version``; JSON Schema: docs/schema/prediction.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = 2
    seconds: float
    tflops: float
    limiter: str
    terms: list[Term]  # ranked, slowest first
    clock_mhz: float
    ctas_per_sm: int
    inputs: list[Input]


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
) -> Prediction:
    """Predicted time and TFLOPS of one configuration, with the time each resource alone takes."""
    r = analyze(machine, gemm, tile=tile, raster=raster, cluster=cluster, stages=stages, regs=regs, warps=warps,
                kernel_threads=kernel_threads, register_tile=register_tile, compute=compute, bandwidth=bandwidth,
                instruction=instruction)  # fmt: skip
    clock = r.pipe.clock_mhz * 1e6
    sms = machine.sm_count.n
    x = r.cross_sm
    tiles = x.waves.tiles
    bm, bn, _ = r.tiles.cta
    fma_per_s_per_sm = r.pipe.fma_per_cycle_per_sm * clock
    t_compute = math.ceil(tiles / sms) * bm * bn * gemm.k / fma_per_s_per_sm

    by_level = {s.source_level: s for s in r.stages}
    dram_bps = by_level["dram"].bandwidth_gb_per_s * 1e9
    t_dram = (x.dram_read_bytes + x.dram_write_bytes) / dram_bps

    terms = [
        Term(name="compute", seconds=t_compute,
             detail=f"{math.ceil(tiles / sms)} tiles per SM x {bm}x{bn}x{gemm.k} FMAs at "
                    f"{r.pipe.fma_per_cycle_per_sm:,.0f} FMA/cycle, {r.pipe.clock_mhz:.0f} MHz"),
        Term(name="DRAM", seconds=t_dram,
             detail=f"{(x.dram_read_bytes + x.dram_write_bytes) / 2**20:,.0f} MiB at {dram_bps / 1e9:,.0f} GB/s"),
    ]  # fmt: skip
    inputs = [r.pipe.rate_input] + [s.bandwidth_input for s in r.stages if s.bandwidth_input]
    if "l2" in by_level:
        # The same traffic and blended bandwidth as the analysis's L2 roof (distinct bytes at the L2
        # rate, a wave's repeated requests at the same-address rate where the file has one).
        l2_roof = next(roof for roof in r.roofs if roof.level == "L2")
        t_l2 = l2_roof.traffic_bytes / (l2_roof.bandwidth_gb_per_s * 1e9)
        shared = machine.memory.l2.shared_read_bandwidth
        if shared is not None:
            q = shared.pick(bandwidth)
            inputs.append(_input(machine, f"memory.l2.shared_read_bandwidth.{q.kind}", q))
        terms.append(Term(name="L2", seconds=t_l2,
                          detail=f"{l2_roof.traffic_bytes / 2**20:,.0f} MiB at an effective "
                                 f"{l2_roof.bandwidth_gb_per_s:,.0f} GB/s ({l2_roof.traffic_basis})"))  # fmt: skip
    if "smem" in by_level:
        smem_roof = next(roof for roof in r.roofs if roof.level == "smem")
        t_smem = smem_roof.traffic_bytes / (smem_roof.bandwidth_gb_per_s * 1e9)
        terms.append(Term(name="shared memory", seconds=t_smem,
                          detail=f"{smem_roof.traffic_bytes / 2**30:,.1f} GiB of operand reads ({smem_roof.traffic_basis}) "
                                 f"at {smem_roof.bandwidth_gb_per_s:,.0f} GB/s"))  # fmt: skip
    lat = x.latency
    if lat.latency_known and stages > 1:
        in_flight = (stages - 1) * lat.stage_bytes * x.occupancy.ctas_per_sm  # bytes per SM
        fill_bytes_per_s = in_flight / lat.mean_latency_cycles * clock * sms
        t_lat = x.raster.requested_bytes / fill_bytes_per_s
        terms.append(Term(name="latency", seconds=t_lat,
                          detail=f"{stages - 1} stages x {lat.stage_bytes / 1024:,.0f} KiB in flight per CTA over "
                                 f"{lat.mean_latency_cycles:,.0f} cycles"))  # fmt: skip
    terms.sort(key=lambda t: -t.seconds)
    seconds = terms[0].seconds
    return Prediction(
        seconds=seconds,
        tflops=gemm.flops / seconds / 1e12,
        limiter=terms[0].name,
        terms=terms,
        clock_mhz=r.pipe.clock_mhz,
        ctas_per_sm=x.occupancy.ctas_per_sm,
        inputs=inputs,
    )
