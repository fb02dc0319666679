"""The broad sweep's records (benchmarks/gpu_broad_sweep.py) and the per-CTA time model on them.

Pure (no torch): CI replays the committed measurements. A record is one timed Triton kernel drawn
at random from the legal space, with what the compiler gave it (MMA family, registers, spills,
shared memory) and the split of its shape (``train``, ``holdout``, or ``micro`` for the
microbenchmark kernels), fixed in the sweep script before anything was measured. Constants are
fitted on ``train`` only; every figure the report leads with is on ``holdout``.

``record_seconds`` feeds roofmodel.cta_model with the machine's rates (prediction.machine_rates:
the instruction family's measured rate, the bandwidths, the loaded latencies, the kernel costs) for
the kernel as compiled: its registers, spills and shared memory (occupancy), the raster model's
DRAM and L2 traffic for its GROUP_M order, and its operand layouts.
"""

from __future__ import annotations

import csv
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator

from roofmodel.backends.records import GemmRecord, percent_error, raster_order_of, summarize
from roofmodel.cta_model import kernel_terms
from roofmodel.errors import ProblemError
from roofmodel.kernel import register_tile_for
from roofmodel.latency import mean_latency_cycles
from roofmodel.machine import Machine
from roofmodel.occupancy import occupancy
from roofmodel.prediction import Rates, l2_seconds, machine_rates
from roofmodel.problem import INPUT_BYTES, OUTPUT_BYTES
from roofmodel.rasterization import RasterTraffic, order_traffic
from roofmodel.tiling import register_tile_read_bytes
from roofmodel.validation import predict_recorded_kernel, spearman

# The K of one MMA step, by family and element bytes (a spilled accumulator is touched once per step
# along BK); for FMA, Triton's blocked dot is taken to reload per 8 elements of K (an assumption).
INSTRUCTION_K = {"wgmma": {2: 16, 4: 8, 1: 32}, "mma.sync": {2: 16, 4: 8, 1: 32}, "fma": {4: 8, 8: 8}}
INSTRUCTION_ROWS = {"wgmma": 64, "mma.sync": 16, "fma": 1}
GRANULARITY = {"wgmma": "warpgroup", "mma.sync": "warp", "fma": "thread"}


class BroadRecord(GemmRecord):
    """One row of broad.csv: a GemmRecord plus the sweep's own columns."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    dtype: Literal["fp16", "bf16", "tf32", "fp32", "fp8"]
    set: str
    shape: str
    family: str
    split: str
    a_major: Literal["k", "m"]
    b_major: Literal["n", "k"]
    force_mma_v2: int
    instruction: Literal["wgmma", "mma.sync", "fma"]
    spilled_registers: int = Field(ge=0)
    status: str
    time_ms_2: float | None = None

    @model_validator(mode="after")
    def _positive(self) -> BroadRecord:
        for name in ("m", "n", "k", "block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1 (got {getattr(self, name)})")
        if not self.time_ms > 0:
            raise ValueError(f"time_ms must be > 0 (got {self.time_ms})")
        return self


def read_broad_csv(path: Path) -> list[BroadRecord]:
    """The checked and timed rows of a broad sweep's CSV; a bad file is one clear error."""
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            need = [n for n, field in BroadRecord.model_fields.items() if field.is_required()]
            missing = [c for c in need if c not in (reader.fieldnames or [])]
            if missing:
                raise ProblemError(f"{path}: not a broad-sweep CSV (missing columns: {', '.join(missing)})")
            rows = [(i, r) for i, r in enumerate(reader, 2) if r.get("status") == "ok"]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ProblemError(f"{path}: cannot read: {exc}") from None
    out = []
    for line, row in rows:
        try:
            out.append(BroadRecord(**{k: v for k, v in row.items() if v != ""}))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(map(str, err["loc"])) or "row"
            msg = err["msg"].removeprefix("Value error, ")
            raise ProblemError(f"{path}, line {line}: {where}: {msg}") from None
    return out


def layout_factors(r: BroadRecord) -> tuple[float, float]:
    """How many times more copy requests an operand's stage fill costs when it is stored against the
    layout its instruction reads: a 32- or 8-bit operand that is MN-major (A M-major, B N-major)
    under wgmma or mma.sync, which transpose only 16-bit types in hardware (PTX ISA, wgmma; Triton
    AccelerateMatmul: allowTranspose only for f16/bf16), is copied one element per request instead
    of 16 bytes; the FMA path reads B along N, so a K-major B costs the same way."""
    e = INPUT_BYTES[r.dtype]
    fa = fb = 1.0
    if r.instruction in ("wgmma", "mma.sync") and e != 2:
        fa = 16 / e if r.a_major == "m" else 1.0
        fb = 16 / e if r.b_major == "n" else 1.0
    elif r.instruction == "fma" and r.b_major == "k":
        fb = 16 / e
    return fa, fb


class Evaluator:
    """The per-CTA model on recorded kernels of one machine at one clock: the machine's rates per
    dtype and the raster traffic per (shape, tile, order, concurrency), each computed once."""

    def __init__(self, machine: Machine, clock_mhz: float) -> None:
        self.machine, self.clock_mhz = machine, clock_mhz
        self._rates: dict[str, Rates] = {}
        self._traffic: dict[tuple[Any, ...], RasterTraffic] = {}

    def rates(self, dtype: str) -> Rates:
        if dtype not in self._rates:
            self._rates[dtype] = machine_rates(self.machine, dtype, compute="measured", bandwidth="measured",
                                               clock=self.clock_mhz)  # fmt: skip
        return self._rates[dtype]

    def traffic(self, r: BroadRecord, concurrent: int) -> RasterTraffic:
        key = (r.m, r.n, r.k, r.block_m, r.block_n, r.group_m, r.dtype, concurrent)
        if key not in self._traffic:
            self._traffic[key] = order_traffic(
                raster_order_of(r.group_m), concurrent=concurrent, m=r.m, n=r.n, k=r.k, bm=r.block_m, bn=r.block_n,
                input_bytes=INPUT_BYTES[r.dtype], output_bytes=OUTPUT_BYTES[r.dtype],
                l2_bytes=self.machine.memory.l2.capacity.bytes, keep_waves=0,
            )  # fmt: skip
        return self._traffic[key]

    def seconds(self, r: BroadRecord) -> dict[str, Any]:
        """The per-CTA model's terms (seconds) for one recorded kernel, as compiled."""
        m, rates = self.machine, self.rates(r.dtype)
        sms, clock = m.sm_count.n, rates.clock_hz
        e, eo = INPUT_BYTES[r.dtype], OUTPUT_BYTES[r.dtype]
        bm, bn, bk, w = r.block_m, r.block_n, r.block_k, r.num_warps
        regs = max(1, min(r.registers_per_thread, m.limits.max_registers_per_thread.n))
        smem_block = min(r.shared_bytes, int(m.memory.smem.max_per_block.bytes))
        c = occupancy(m, 32 * w, regs, smem_block).ctas_per_sm
        t = self.traffic(r, sms * c)
        ins = r.instruction or "fma"
        rm, rn = register_tile_for(ins, bm, bn, w) or (min(bm, INSTRUCTION_ROWS[ins]), min(bn, 8))
        fa, fb = layout_factors(r)
        operand = register_tile_read_bytes(bm * bn * bk, GRANULARITY[ins], rm, rn, e) * (fb if ins == "fma" else 1.0)
        per_cycle_per_sm = sms * clock
        l1_free = (m.memory.smem.l1_smem_combined or m.memory.smem.capacity_per_sm).bytes - c * r.shared_bytes
        spill_fits_l1 = c * r.spilled_registers * 4 * 32 * w <= l1_free
        assert rates.l2_loaded_latency_cycles is not None and rates.dram_loaded_latency_cycles is not None
        latency = mean_latency_cycles(t.dram_read_bytes, t.requested_bytes, rates.l2_loaded_latency_cycles,
                                      rates.dram_loaded_latency_cycles)  # fmt: skip
        c_bytes = r.m * r.n * eo
        repeated = max(0.0, t.requested_bytes - t.wave_distinct_bytes)
        return kernel_terms(
            sms=sms, clock_hz=clock, m=r.m, n=r.n, k=r.k, bm=bm, bn=bn, bk=bk, warps=w, stages=r.num_stages,
            ctas_per_sm=c, fma_per_cycle_per_sm=rates.family_fma_per_s(ins) / clock,
            instruction_rows=INSTRUCTION_ROWS[ins], warpgroup=ins == "wgmma", smem_operand_bytes_per_iter=operand,
            smem_fill_bytes_per_iter=(bm * fa + bn * fb) * bk * e,
            smem_bytes_per_cycle=rates.smem_bps / per_cycle_per_sm, spilled_registers=r.spilled_registers,
            spill_touches_per_iter=bk / INSTRUCTION_K[ins].get(e, 8),
            spill_bytes_per_cycle=(rates.smem_bps if spill_fits_l1 else rates.l2_bps) / per_cycle_per_sm,
            load_latency_cycles=latency, synchronous_loads=(fa != 1.0 or fb != 1.0) and ins != "fma",
            c_bytes_per_tile=bm * bn * eo, dram_write_bytes_per_cycle_per_sm=rates.dram_bps / per_cycle_per_sm,
            stage_bytes=(bm + bn) * bk * e, dram_bytes=t.dram_read_bytes + c_bytes, dram_bps=rates.dram_bps,
            dram_latency_s=rates.dram_loaded_latency_cycles / clock,
            l2_seconds=l2_seconds(t.requested_bytes + c_bytes, repeated, rates.l2_bps, rates.l2_same_address_bps),
            costs=rates.costs,
        )  # fmt: skip

    def naive_roofline_seconds(self, r: BroadRecord) -> float:
        """The classic roofline with measured ceilings: max(FLOPs / the family's measured rate,
        compulsory bytes / measured DRAM bandwidth); the baseline issue 13 names."""
        rates = self.rates(r.dtype)
        e, eo = INPUT_BYTES[r.dtype], OUTPUT_BYTES[r.dtype]
        compute = r.m * r.n * r.k / (rates.family_fma_per_s(r.instruction or "fma") * self.machine.sm_count.n)
        return max(compute, ((r.m + r.n) * r.k * e + r.m * r.n * eo) / rates.dram_bps)

    def resource_model_seconds(self, r: BroadRecord) -> float | None:
        """What ``roofmodel predict`` says today (the slowest resource alone); None where it refuses."""
        p = predict_recorded_kernel(self.machine, r, clock=self.clock_mhz)
        return p.seconds if p is not None else None


class Row:
    """One sweep kernel: measured seconds and each model's prediction (None: refused)."""

    def __init__(self, r: BroadRecord, cta: float, naive: float, resource: float | None) -> None:
        self.record, self.measured = r, r.time_ms * 1e-3
        self.cta, self.naive, self.resource = cta, naive, resource


def evaluate(machine: Machine, records: list[BroadRecord], clock_mhz: float) -> list[Row]:
    """Every sweep kernel (not the microbenchmarks) under the three models."""
    ev = Evaluator(machine, clock_mhz)
    return [
        Row(r, float(ev.seconds(r)["total"]), ev.naive_roofline_seconds(r), ev.resource_model_seconds(r))
        for r in records
        if r.set == "sweep"
    ]


def figures(rows: list[Row], model: str = "cta") -> dict[str, Any]:
    """Absolute error (median, p90), median signed error, and per (shape, dtype) group of at least 5
    kernels: Spearman of predicted and measured time, and best measured / measured time of the
    model's first-ranked kernel (1.0: its pick is the fastest). Refused kernels are counted."""
    done = [(row, getattr(row, model)) for row in rows if getattr(row, model) is not None]
    errs = [percent_error(p, row.measured) for row, p in done]
    out: dict[str, Any] = {**summarize(errs), "refused": len(rows) - len(done)}
    if errs:
        out["median_signed_pct"] = statistics.median(errs)
    groups: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for row, p in done:
        groups[(row.record.shape, row.record.dtype)].append((p, row.measured))
    sp = [spearman([p for p, _ in v], [t for _, t in v]) for v in groups.values() if len(v) >= 5]
    first = [min(t for _, t in v) / min(v)[1] for v in groups.values() if len(v) >= 5]
    if sp:
        out.update(spearman_median=statistics.median(sp), spearman_min=min(sp),
                   first_over_best_median=statistics.median(first), first_over_best_min=min(first))  # fmt: skip
    return out


def _cells(f: dict[str, Any]) -> str:
    if not f.get("n"):
        return "- | - | - | -"
    sp = f"{f['spearman_median']:.2f} ({f['spearman_min']:.2f})" if "spearman_median" in f else "-"
    fb = f"{f['first_over_best_median']:.2f} ({f['first_over_best_min']:.2f})" if "spearman_median" in f else "-"
    return f"{f['median_abs_pct']:.1f}% / {f['p90_abs_pct']:.0f}% | {f['median_signed_pct']:+.1f}% | {sp} | {fb}"


def report_markdown(machine: Machine, records: list[BroadRecord], clock_mhz: float, source: str) -> str:
    """The broad-sweep report: per split, dtype and shape family, the per-CTA model beside the
    resource model ``roofmodel predict`` uses and the naive roofline."""
    rows = evaluate(machine, records, clock_mhz)

    def table(split: str) -> list[str]:
        sel = [x for x in rows if x.record.split == split]
        keys = [("all", sel)]
        keys += [(f"dtype {d}", [x for x in sel if x.record.dtype == d]) for d in sorted({x.record.dtype for x in sel})]
        keys += [
            (f"family {f}", [x for x in sel if x.record.family == f]) for f in sorted({x.record.family for x in sel})
        ]
        out = [
            "| set | n | per-CTA model: median / p90 abs err | median signed | Spearman median (min) "
            "| first-ranked / best, median (min) | resource model (predict): median / p90, refused "
            "| resource model Spearman median | naive roofline median |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for name, v in keys:
            f, res, naive = figures(v), figures(v, "resource"), figures(v, "naive")
            res_sp = f"{res['spearman_median']:.2f}" if "spearman_median" in res else "-"
            out.append(f"| {name} | {f['n']} | {_cells(f)} | {res['median_abs_pct']:.0f}% / {res['p90_abs_pct']:.0f}%, "
                       f"{res['refused']} | {res_sp} | {naive['median_abs_pct']:.0f}% |")  # fmt: skip
        return out

    return "\n".join([
        f"# Per-CTA time model against the broad sweep ({machine.name})",
        "",
        f"Data: {source}. Models at {clock_mhz:.0f} MHz (the SM clock sampled during the sweep), with the kernels "
        "as compiled (MMA family, registers, spills, shared memory): the per-CTA model (roofmodel/cta_model.py "
        "through roofmodel/backends/broad.py); the resource model `roofmodel predict` uses (the slowest resource "
        "alone, each kernel as its Triton preset with its compiled registers; 'refused' counts the kernels it will "
        "not place); the naive roofline with measured ceilings. Errors are (predicted - measured) / measured time. "
        "Spearman and first-ranked/best are per (shape, dtype) group of at least 5 kernels; first-ranked/best is "
        "the best measured time over the measured time of the kernel the model ranks first (1.00: the model's "
        "pick is the fastest). Written by `roofmodel validate docs/measurements/h100-2026-11-23 --machine h100 "
        "--clock 1980 --report docs/validation-h100-broad.md`.",
        "",
        "## Held-out shapes (never used to choose or fit anything)",
        "",
        *table("holdout"),
        "",
        "## Training shapes (kernel_costs and the loaded latencies were fitted here)",
        "",
        *table("train"),
        "",
    ])  # fmt: skip
