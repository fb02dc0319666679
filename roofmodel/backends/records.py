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

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.occupancy import occupancy
from roofmodel.model.problem import DTYPES, INPUT_BYTES, OUTPUT_BYTES
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


TRITON_DTYPES = ("fp16", "bf16", "tf32", "fp32")  # what roofmodel's Triton GEMM runs (fp32: CUDA cores)
MAX_WARPS = 32  # 1,024 threads, the most a CTA can have on every NVIDIA GPU since Fermi
MAX_DIMENSION = 2**31 - 1  # what a kernel indexes with 32-bit integers


class GemmRecord(BaseModel):
    """One Triton GEMM configuration on one shape, timed (and counted where ncu ran)."""

    # Checked where a record is made (_checked), so that a bad row of a file never reaches the model.

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

    @model_validator(mode="after")
    def _checked(self) -> GemmRecord:
        if self.dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {', '.join(DTYPES)} (got {self.dtype!r})")
        for name in ("m", "n", "k", "block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1 (got {getattr(self, name)})")
        for name in ("m", "n", "k", "block_m", "block_n", "block_k", "group_m", "num_stages"):
            if getattr(self, name) > MAX_DIMENSION:
                raise ValueError(f"{name} must be < 2**31 (got {getattr(self, name)})")
        if self.num_warps > MAX_WARPS:
            raise ValueError(f"num_warps must be <= {MAX_WARPS}, 1,024 threads (got {self.num_warps})")
        for name in ("registers_per_thread", "shared_bytes"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0 (got {getattr(self, name)})")
        for name in ("time_ms", "tflops"):
            if not (math.isfinite(getattr(self, name)) and getattr(self, name) > 0):
                raise ValueError(f"{name} must be a finite number > 0 (got {getattr(self, name)})")
        for name in ("rel_error", "dram_read_bytes", "dram_write_bytes", "l2_hit_rate_pct"):
            v = getattr(self, name)
            if v is not None and not (math.isfinite(v) and v >= 0):
                raise ValueError(f"{name} must be a finite number >= 0 (got {v})")
        if self.l2_hit_rate_pct is not None and self.l2_hit_rate_pct > 100:
            raise ValueError(f"l2_hit_rate_pct must be <= 100 (got {self.l2_hit_rate_pct})")
        return self


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
    return occupancy(machine, machine.warp_size * r.num_warps, r.registers_per_thread, r.shared_bytes).ctas_per_sm


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


def record_of(config: dict[str, Any], timed: dict[str, Any], counters: dict[str, float] | None = None) -> GemmRecord:
    """The record of one kernel: its configuration (m, n, k, dtype, block_*, group_m, num_warps,
    num_stages), what triton_gemm.run_config measured, and Nsight Compute's counters where it ran."""
    c = counters or {}
    return GemmRecord(
        **config,
        registers_per_thread=timed["registers_per_thread"],
        shared_bytes=timed["shared_bytes"],
        time_ms=timed["time_ms"],
        tflops=timed["tflops"],
        rel_error=timed["rel_error"],
        dram_read_bytes=c.get("dram__bytes_read.sum"),
        dram_write_bytes=c.get("dram__bytes_write.sum"),
        l2_hit_rate_pct=c.get("lts__t_sector_hit_rate.pct"),
    )


REQUIRED_COLUMNS = [name for name, field in GemmRecord.model_fields.items() if field.is_required()]


def read_csv(path: Path) -> list[GemmRecord]:
    """The records of a gemm.csv. A file that is not one is one error: the missing columns, or the
    line, column, value and rule of the first bad row."""
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                what = "an empty file" if not header else f"missing columns: {', '.join(missing)}"
                raise ProblemError(f"{path}: not a roofmodel gemm.csv ({what}; see docs/formats.md)")
            rows = [(reader.line_num, row) for row in reader]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ProblemError(f"{path}: cannot read: {exc}") from None
    records = [_record(path, line, row, len(header)) for line, row in rows]
    for (line, _), r in zip(rows, records, strict=True):
        if r.dtype not in TRITON_DTYPES:
            raise ProblemError(f"{path}, line {line}: dtype must be one of {', '.join(TRITON_DTYPES)}, what the "
                               f"Triton kernel runs (got {r.dtype!r})")  # fmt: skip
    return records


def _record(path: Path, line: int, row: dict[Any, Any], columns: int) -> GemmRecord:
    where = f"{path}, line {line}"
    if None in row or any(v is None for v in row.values()):
        found = columns + len(row.get(None) or []) - sum(1 for v in row.values() if v is None)
        raise ProblemError(f"{where}: {found} fields, the header has {columns}")
    data = {name: row[name].strip() for name in GemmRecord.model_fields if row.get(name, "").strip() != ""}
    try:
        return GemmRecord(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = ".".join(map(str, err["loc"])) or "row"
        if err["type"] == "missing":
            raise ProblemError(f"{where}: {name}: empty (a measured value is required)") from None
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "value_error":  # _checked: the message names the field and the value
            raise ProblemError(f"{where}: {msg}") from None
        raise ProblemError(f"{where}: {name}: {msg} (got {err.get('input')!r})") from None


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
