"""The broad sweep's records (benchmarks/gpu_broad_sweep.py) and the per-CTA time model on them.

Pure (no torch): CI replays the committed measurements. A record is one timed Triton kernel drawn
at random from the legal space, with what the compiler gave it (MMA family, registers, spills,
shared memory) and the split of its shape (``train``, ``holdout``, or ``micro`` for the
microbenchmark kernels), fixed in the sweep script before anything was measured. Constants are
fitted on ``train`` only; every figure the report leads with is on ``holdout``.

``record_seconds`` feeds roofmodel.cta_model with the machine file's figures for the kernel as
compiled: the instruction family's measured rate, the compiled registers, spills and shared memory
(occupancy), the raster model's DRAM and L2 traffic for its GROUP_M order, the loaded latencies,
the kernel costs, and the operand layouts.
"""

from __future__ import annotations

import csv
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel import units
from roofmodel.cta_model import CtaCosts, kernel_terms
from roofmodel.errors import ProblemError
from roofmodel.kernel import register_tile_for
from roofmodel.machine import Machine
from roofmodel.occupancy import occupancy
from roofmodel.problem import INPUT_BYTES, OUTPUT_BYTES
from roofmodel.rasterization import RasterOrder, order_traffic
from roofmodel.tiling import register_tile_read_bytes

# The instruction K of one MMA step (a spilled accumulator is touched once per step along BK); for
# FMA, Triton's blocked dot reloads per 8 elements of K (an assumption; see cta_model's spill term).
INSTRUCTION_K = {"wgmma": {2: 16, 4: 8, 1: 32}, "mma.sync": {2: 16, 4: 8, 1: 32}, "fma": {4: 8, 8: 8}}
INSTRUCTION_ROWS = {"wgmma": 64, "mma.sync": 16, "fma": 1}
GRANULARITY = {"wgmma": "warpgroup", "mma.sync": "warp", "fma": "thread"}


class BroadRecord(BaseModel):
    """One row of broad.csv (the sweep script's COLUMNS)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    set: str
    shape: str
    family: str
    split: str
    m: int
    n: int
    k: int
    dtype: str
    a_major: str
    b_major: str
    block_m: int
    block_n: int
    block_k: int
    group_m: int
    num_warps: int
    num_stages: int
    force_mma_v2: int
    instruction: str
    registers_per_thread: int
    spilled_registers: int
    shared_bytes: int
    status: str
    time_ms: float
    time_ms_2: float | None = None
    tflops: float


def read_broad_csv(path: Path) -> list[BroadRecord]:
    """The checked and timed rows of a broad sweep's CSV; a missing column is one clear error."""
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        missing = [
            c for c in ("split", "instruction", "spilled_registers", "time_ms") if c not in (reader.fieldnames or [])
        ]
        if missing:
            raise ProblemError(f"{path}: not a broad-sweep CSV (missing columns: {', '.join(missing)})")
        rows = [r for r in reader if r.get("status") == "ok"]
    return [BroadRecord(**{k: (v if v != "" else None) for k, v in r.items()}) for r in rows]


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


def _rate_fma_per_cycle(machine: Machine, r: BroadRecord, clock_hz: float) -> float:
    pipe = machine.pipe(r.dtype)
    fam = r.instruction if r.instruction != "fma" else "fma"
    try:
        ins = pipe.instruction(fam)
    except Exception:  # the file lists no such family for this dtype: the pipe's own rate
        ins = pipe.instructions[0]
    rated, _, _ = pipe.rate_of(ins)
    q = rated.pick("measured")
    return units.rate_fma_per_cycle_per_sm(q.value, q.unit, machine.sm_count.n, clock_hz)


def _bandwidth_bps(machine: Machine, level: str, clock_hz: float) -> float:
    node = getattr(machine.memory, level).bandwidth.pick("measured")
    per_sm = units.bandwidth_bytes_per_cycle_per_sm(node.value, node.unit, machine.sm_count.n, clock_hz)
    return per_sm * machine.sm_count.n * clock_hz


def _latency_cycles(machine: Machine, level: str, clock_hz: float) -> float:
    lvl = getattr(machine.memory, level)
    q = lvl.loaded_latency or lvl.latency
    if q is None:
        return 0.0
    return units.latency_cycles(q.value, q.unit, clock_hz)


def machine_costs(machine: Machine) -> CtaCosts:
    c = machine.kernel_costs

    def ns(q: Any) -> float:
        return 0.0 if q is None else units.latency_cycles(q.value, q.unit, 1e9) if q.unit == "ns" else 0.0

    if c is None:
        return CtaCosts()
    return CtaCosts(launch_s=ns(c.launch) * 1e-9, iteration_ns=ns(c.iteration), copy_issue_ns=ns(c.copy_issue),
                    epilogue_ns=ns(c.epilogue))  # fmt: skip


def record_seconds(machine: Machine, r: BroadRecord, clock_mhz: float) -> dict[str, Any]:
    """The per-CTA model's terms (seconds) for one recorded kernel, as compiled, at ``clock_mhz``."""
    clock = clock_mhz * 1e6
    sms = machine.sm_count.n
    e, eo = INPUT_BYTES[r.dtype], OUTPUT_BYTES[r.dtype]
    bm, bn, bk, w = r.block_m, r.block_n, r.block_k, r.num_warps
    regs = max(1, min(r.registers_per_thread, machine.limits.max_registers_per_thread.n))
    c = occupancy(machine, 32 * w, regs, min(r.shared_bytes, int(machine.memory.smem.max_per_block.bytes))).ctas_per_sm
    order = RasterOrder("row") if r.group_m == 1 else RasterOrder("grouped", r.group_m)
    t = order_traffic(order, concurrent=sms * c, m=r.m, n=r.n, k=r.k, bm=bm, bn=bn, input_bytes=e, output_bytes=eo,
                      l2_bytes=machine.memory.l2.capacity.bytes, keep_waves=0)  # fmt: skip
    ins = r.instruction or "fma"
    rm, rn = register_tile_for(ins, bm, bn, w) or (min(bm, INSTRUCTION_ROWS[ins] or 1), min(bn, 8))
    operand = register_tile_read_bytes(bm * bn * bk, GRANULARITY[ins], rm, rn, e)
    fa, fb = layout_factors(r)
    if ins == "fma":
        operand *= fb
    smem_bpc = units.bandwidth_bytes_per_cycle_per_sm(
        machine.memory.smem.bandwidth.pick("measured").value, machine.memory.smem.bandwidth.pick("measured").unit,
        sms, clock)  # fmt: skip
    dram_bps = _bandwidth_bps(machine, "dram", clock)
    l2_bps = _bandwidth_bps(machine, "l2", clock)
    shared = machine.memory.l2.shared_read_bandwidth
    same_bps = l2_bps
    if shared is not None:
        q = shared.pick("measured")
        same_bps = max(l2_bps, units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock) * sms * clock)
    l1_free = (machine.memory.smem.l1_smem_combined or machine.memory.smem.capacity_per_sm).bytes - c * r.shared_bytes
    footprint = c * r.spilled_registers * 4 * 32 * w
    spill_rate = smem_bpc if footprint <= l1_free else l2_bps / (sms * clock)
    hit = 1.0 - t.dram_read_bytes / t.requested_bytes
    lat = hit * _latency_cycles(machine, "l2", clock) + (1 - hit) * _latency_cycles(machine, "dram", clock)
    c_bytes = r.m * r.n * eo
    repeated = max(0.0, t.requested_bytes - t.wave_distinct_bytes)
    l2_s = (t.requested_bytes + c_bytes - repeated) / l2_bps + repeated / same_bps
    return kernel_terms(
        sms=sms, clock_hz=clock, m=r.m, n=r.n, k=r.k, bm=bm, bn=bn, bk=bk, warps=w, stages=r.num_stages,
        ctas_per_sm=c, fma_per_cycle_per_sm=_rate_fma_per_cycle(machine, r, clock),
        instruction_rows=INSTRUCTION_ROWS[ins], warpgroup=ins == "wgmma", smem_operand_bytes_per_iter=operand,
        smem_fill_bytes_per_iter=(bm * fa + bn * fb) * bk * e, smem_bytes_per_cycle=smem_bpc,
        spilled_registers=r.spilled_registers, spill_touches_per_iter=bk / INSTRUCTION_K[ins].get(e, 8),
        spill_bytes_per_cycle=spill_rate, load_latency_cycles=lat,
        synchronous_loads=(fa != 1.0 or fb != 1.0) and ins != "fma", c_bytes_per_tile=bm * bn * eo,
        dram_write_bytes_per_cycle_per_sm=dram_bps / (sms * clock), stage_bytes=(bm + bn) * bk * e,
        dram_bytes=t.dram_read_bytes + c_bytes, dram_bps=dram_bps,
        dram_latency_s=_latency_cycles(machine, "dram", clock) / clock, l2_seconds=l2_s, costs=machine_costs(machine),
    )  # fmt: skip


def naive_roofline_seconds(machine: Machine, r: BroadRecord) -> float:
    """The classic roofline with measured ceilings: max(FLOPs / measured peak, compulsory bytes /
    measured DRAM bandwidth); the baseline the issue names."""
    clock = machine.clocks.boost.hz
    fma = _rate_fma_per_cycle(machine, r, clock)
    compute = r.m * r.n * r.k / (fma * machine.sm_count.n * clock)
    e, eo = INPUT_BYTES[r.dtype], OUTPUT_BYTES[r.dtype]
    memory = ((r.m + r.n) * r.k * e + r.m * r.n * eo) / _bandwidth_bps(machine, "dram", clock)
    return max(compute, memory)


def spearman(a: list[float], b: list[float]) -> float:
    def ranks(x: list[float]) -> list[float]:
        order = sorted(range(len(x)), key=lambda i: x[i])
        out = [0.0] * len(x)
        for rank, i in enumerate(order):
            out[i] = float(rank)
        return out

    ra, rb = ranks(a), ranks(b)
    n = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb, strict=True)) / (n * (n * n - 1))


class Figures(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    n: int
    median_abs_pct: float
    p90_abs_pct: float
    median_signed_pct: float
    baseline_median_abs_pct: float
    spearman_median: float | None
    spearman_min: float | None
    first_over_best_median: float | None
    first_over_best_min: float | None


def figures(rows: list[tuple[BroadRecord, float, float]]) -> Figures:
    """Errors of (record, predicted s, naive s) rows; Spearman and first-ranked vs best measured per
    (shape, dtype) group of at least 5 kernels."""
    errs = [100 * (p - r.time_ms * 1e-3) / (r.time_ms * 1e-3) for r, p, _ in rows]
    base = [abs(100 * (q - r.time_ms * 1e-3) / (r.time_ms * 1e-3)) for r, _, q in rows]
    a = sorted(abs(x) for x in errs)
    groups: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for r, p, _ in rows:
        groups[(r.shape, r.dtype)].append((p, r.time_ms))
    sp, first = [], []
    for v in groups.values():
        if len(v) >= 5:
            sp.append(spearman([x for x, _ in v], [y for _, y in v]))
            best = min(y for _, y in v)
            first.append(best / min(v)[1])
    return Figures(
        n=len(a), median_abs_pct=statistics.median(a), p90_abs_pct=a[min(len(a) - 1, math.ceil(0.9 * len(a)) - 1)],
        median_signed_pct=statistics.median(errs), baseline_median_abs_pct=statistics.median(base),
        spearman_median=statistics.median(sp) if sp else None, spearman_min=min(sp) if sp else None,
        first_over_best_median=statistics.median(first) if first else None,
        first_over_best_min=min(first) if first else None,
    )  # fmt: skip


def evaluate(machine: Machine, records: list[BroadRecord], clock_mhz: float) -> list[tuple[BroadRecord, float, float]]:
    """(record, predicted seconds, naive-roofline seconds) for every sweep kernel."""
    return [
        (r, float(record_seconds(machine, r, clock_mhz)["total"]), naive_roofline_seconds(machine, r))
        for r in records
        if r.set == "sweep"
    ]


def report_markdown(machine: Machine, records: list[BroadRecord], clock_mhz: float, source: str) -> str:
    """The held-out report: per split, dtype and shape family."""
    rows = evaluate(machine, records, clock_mhz)

    def table(split: str) -> list[str]:
        sel = [x for x in rows if x[0].split == split]
        keys = [("all", sel)]
        keys += [(f"dtype {d}", [x for x in sel if x[0].dtype == d]) for d in sorted({x[0].dtype for x in sel})]
        keys += [(f"family {f}", [x for x in sel if x[0].family == f]) for f in sorted({x[0].family for x in sel})]
        out = ["| set | n | median abs err | p90 abs err | median signed | naive roofline median | Spearman median (min) "
               "| first-ranked / best, median (min) |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for name, v in keys:
            f = figures(v)
            sp = f"{f.spearman_median:.2f} ({f.spearman_min:.2f})" if f.spearman_median is not None else "-"
            fb = f"{f.first_over_best_median:.2f} ({f.first_over_best_min:.2f})" if f.first_over_best_median else "-"
            out.append(f"| {name} | {f.n} | {f.median_abs_pct:.1f}% | {f.p90_abs_pct:.1f}% | {f.median_signed_pct:+.1f}% "
                       f"| {f.baseline_median_abs_pct:.0f}% | {sp} | {fb} |")  # fmt: skip
        return out

    lines = [
        f"# Per-CTA time model against the broad sweep ({machine.name})",
        "",
        f"Data: {source}. Model: roofmodel/cta_model.py through roofmodel/backends/broad.py, at {clock_mhz:.0f} MHz "
        "(the SM clock sampled during the sweep), with the kernels as compiled (MMA family, registers, spills, "
        "shared memory). Errors are (predicted - measured) / measured time. Spearman and first-ranked/best are per "
        "(shape, dtype) group of at least 5 kernels; first-ranked/best is the best measured time over the measured "
        "time of the kernel the model ranks first (1.00 = the model's pick is the fastest).",
        "",
        "## Held-out shapes (never used to choose or fit anything)",
        "",
        *table("holdout"),
        "",
        "## Training shapes (the constants in kernel_costs and the loaded latencies were fitted here)",
        "",
        *table("train"),
        "",
    ]
    return "\n".join(lines)
