"""Recorded measurements and what the model says of them. Pure: no torch, so CI can replay them.

A record holds one timed kernel with its configuration, what the compiler gave it (registers,
shared memory), what was counted (Nsight Compute's DRAM bytes, when it ran) and the provenance.
``predict_dram_traffic`` runs the raster model for exactly that kernel: the tile, the order
(Triton's GROUP_M is roofmodel's grouped:G; 1 is row-major), and the CTAs per SM that occupancy
gives with the compiled registers and shared memory.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel.machine import Machine
from roofmodel.model.occupancy import occupancy
from roofmodel.model.problem import INPUT_BYTES, OUTPUT_BYTES
from roofmodel.model.rasterization import RasterOrder, order_traffic
from roofmodel.results import JSON_SCHEMA_VERSION


class Provenance(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    device: str
    sm_count: int
    l2_bytes: int
    driver: str
    cuda: str
    torch: str
    triton: str
    date: str
    sm_clock_mhz_median: float | None = None
    sm_clock_mhz_max: float | None = None


class GemmRecord(BaseModel):
    """One Triton GEMM configuration on one shape, timed (and counted where ncu ran)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    m: int
    n: int
    k: int
    dtype: str
    block_m: int
    block_n: int
    block_k: int
    group_m: int
    num_warps: int
    num_stages: int
    registers_per_thread: int
    shared_bytes: int
    time_ms: float
    tflops: float
    rel_error: float
    dram_read_bytes: float | None = None
    dram_write_bytes: float | None = None
    l2_hit_rate_pct: float | None = None


GEMM_COLUMNS = list(GemmRecord.model_fields)


class MeasureDocument(BaseModel):
    """``roofmodel measure --json``: one timed kernel, the model's traffic for it, and provenance."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    record: GemmRecord
    model: dict[str, float]
    provenance: Provenance


def raster_order_of(group_m: int) -> RasterOrder:
    """Triton's grouped ordering with GROUP_M = 1 is row-major."""
    return RasterOrder("row") if group_m == 1 else RasterOrder("grouped", group_m)


def predicted_ctas_per_sm(machine: Machine, r: GemmRecord) -> int:
    return occupancy(machine, 32 * r.num_warps, r.registers_per_thread, r.shared_bytes).ctas_per_sm


def predict_dram_traffic(machine: Machine, r: GemmRecord) -> dict[str, float]:
    """The raster model's DRAM reads and writes for the recorded kernel, with the inputs it used."""
    ctas = predicted_ctas_per_sm(machine, r)
    t = order_traffic(
        raster_order_of(r.group_m),
        concurrent=machine.sm_count.n * ctas,
        m=r.m,
        n=r.n,
        k=r.k,
        bm=r.block_m,
        bn=r.block_n,
        input_bytes=INPUT_BYTES[r.dtype],
        output_bytes=OUTPUT_BYTES[r.dtype],
        l2_bytes=machine.memory.l2.capacity.bytes,
        keep_waves=0,
    )
    return {
        "ctas_per_sm": ctas,
        "waves": t.waves,
        "dram_read_bytes": t.dram_read_bytes,
        "dram_write_bytes": t.dram_write_bytes,
        "compulsory_read_bytes": t.compulsory_read_bytes,
        "requested_bytes": t.requested_bytes,
    }


def write_csv(rows: list[GemmRecord]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=GEMM_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.model_dump().items()})
    return buf.getvalue()


def read_csv(path: Path) -> list[GemmRecord]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for row in rows:
        data: dict[str, Any] = {}
        for name, field in GemmRecord.model_fields.items():
            raw = row.get(name, "")
            if raw == "":
                data[name] = None
            elif field.annotation is int:
                data[name] = int(raw)
            elif field.annotation is str:
                data[name] = raw
            else:
                data[name] = float(raw)
        out.append(GemmRecord(**data))
    return out


def percent_error(predicted: float, measured: float) -> float:
    """(predicted - measured) / measured, in percent."""
    return 100.0 * (predicted - measured) / measured


def summarize(errors: list[float]) -> dict[str, float]:
    """Median, p90 and worst of the absolute errors (percent)."""
    a = sorted(abs(e) for e in errors)
    if not a:
        return {"n": 0}
    p90 = a[min(len(a) - 1, math.ceil(0.9 * len(a)) - 1)]
    mid = len(a) // 2
    median = a[mid] if len(a) % 2 else (a[mid - 1] + a[mid]) / 2
    return {"n": len(a), "median_abs_pct": median, "p90_abs_pct": p90, "worst_abs_pct": a[-1]}
