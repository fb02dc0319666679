"""Hold the model to recorded measurements (``roofmodel validate``). Pure: runs on CSV records.

What it checks, with the model as it stands:

- DRAM traffic: the raster model's predicted DRAM reads for each recorded kernel (its tile, its
  GROUP_M order, the CTAs per SM that occupancy gives with its compiled registers and shared
  memory) against Nsight Compute's count; error per record and per order, median / p90 / worst.
- Bounds: no measured kernel may beat the model's hierarchical roofline bound for its own tile and
  order; a kernel that does falsifies a machine-file number. Reported as measured / bound.
- Order choice: per shape and tile, whether the GROUP_M the model predicts to read the least DRAM
  is the measured fastest one (and by how much it is slower if not).

- Predicted TFLOPS (roofmodel.model.prediction's per-CTA model, each record described by the Triton preset,
  roofmodel.kernel.triton_config, with the machine file's rates: ``compute="measured"`` where the
  file has a measured rate) against measured: absolute percentage error per shape and
  overall (median, p90, worst), the Spearman rank correlation of predicted and measured speed
  within each shape, and how far the model's first-ranked configuration is from the fastest.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel.backends.records import GemmRecord, percent_error, predict_dram_traffic, raster_order_of, summarize
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.analysis import budget
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import Prediction, predict_kernel
from roofmodel.model.problem import Gemm, Tile
from roofmodel.results import JSON_SCHEMA_VERSION
from roofmodel.stats import spearman


class RecordCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    record: GemmRecord
    ctas_per_sm: int
    predicted_dram_read_bytes: float
    compulsory_read_bytes: float
    dram_read_error_pct: float | None
    hierarchical_bound_tflops: float | None
    amplification_bound_tflops: float | None
    measured_over_bound: float | None
    bound_note: str | None
    predicted_tflops: float | None
    predicted_limiter: str | None
    predicted_term_seconds: list[float] | None  # every resource's time, slowest first
    tflops_error_pct: float | None


class Validation(BaseModel):
    """``roofmodel validate --json`` (JSON Schema: docs/schema/validation.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    machine: str
    records: int
    counted: int
    dram_read_error: dict[str, float]
    dram_read_error_by_group: dict[str, dict[str, float]]
    bound_violations: int
    max_measured_over_bound: float | None
    order_choice: list[dict[str, Any]]
    tflops_error: dict[str, float]
    tflops_error_by_shape: dict[str, dict[str, float]]
    spearman_by_shape: dict[str, float]
    top_choice: list[dict[str, Any]]
    checks: list[RecordCheck]
    not_validated: str


def _compute_source(machine: Machine, dtype: str) -> str:
    pipe = machine.compute.get(dtype)  # type: ignore[call-overload]
    return "measured" if pipe is not None and pipe.rate.measured is not None else "spec"


def predict_recorded_kernel(machine: Machine, r: GemmRecord, clock: str | float | None = None) -> Prediction | None:
    """roofmodel predict for a recorded Triton kernel (its preset, its compiled registers, measured
    compute where the file has it); None where the model refuses the configuration. A record at the
    register limit without a spill count (the 2026-11-22 sweeps) spilled an unknown amount: the
    register rule (roofmodel.model.footprint) estimates it."""
    limit = machine.limits.max_registers_per_thread.n
    spilled = getattr(r, "spilled_registers", None)
    regs = None if r.registers_per_thread >= limit and spilled is None else max(1, min(r.registers_per_thread, limit))
    try:
        config = triton_config(machine, r.dtype, block_m=r.block_m, block_n=r.block_n, block_k=r.block_k,
                               group_m=r.group_m, num_warps=r.num_warps, num_stages=r.num_stages)  # fmt: skip
        return predict_kernel(
            machine,
            Gemm(m=r.m, n=r.n, k=r.k, dtype=r.dtype),
            config,
            regs=regs,
            spilled=spilled if regs is not None else None,
            shared_bytes=min(r.shared_bytes, int(machine.memory.smem.max_per_block.bytes)) if r.shared_bytes else None,
            compute=_compute_source(machine, r.dtype),  # type: ignore[arg-type]
            clock=clock,
        )
    except ProblemError:
        return None


def check_record(machine: Machine, r: GemmRecord, clock: str | float | None = None) -> RecordCheck:
    pred = predict_dram_traffic(machine, r)
    err = percent_error(pred["dram_read_bytes"], r.dram_read_bytes) if r.dram_read_bytes else None
    order = raster_order_of(r.group_m).label
    try:
        res = budget(
            machine,
            Gemm(m=r.m, n=r.n, k=r.k, dtype=r.dtype),
            tile=Tile(bm=r.block_m, bn=r.block_n, bk=r.block_k),
            raster=order,
            stages=r.num_stages,
            clock=clock,
            regs=min(max(r.registers_per_thread, 1), machine.limits.max_registers_per_thread.n),
        )
        hb, ab, note = res.hierarchical_bound_flops / 1e12, res.amplification_bound_flops / 1e12, None
    except ProblemError as exc:
        hb = ab = None
        note = f"the model cannot place this tile: {exc}"
    p = predict_recorded_kernel(machine, r, clock)
    if p is not None:
        ptf, plim, perr = p.tflops, p.limiter, percent_error(p.tflops, r.tflops)
        terms = [t.seconds for t in p.terms]
    else:
        ptf = plim = perr = terms = None
    return RecordCheck(
        record=r,
        ctas_per_sm=int(pred["ctas_per_sm"]),
        predicted_dram_read_bytes=pred["dram_read_bytes"],
        compulsory_read_bytes=pred["compulsory_read_bytes"],
        dram_read_error_pct=err,
        hierarchical_bound_tflops=hb,
        amplification_bound_tflops=ab,
        measured_over_bound=r.tflops / hb if hb else None,
        bound_note=note,
        predicted_tflops=ptf,
        predicted_limiter=plim,
        predicted_term_seconds=terms,
        tflops_error_pct=perr,
    )


def validate(machine: Machine, records: list[GemmRecord], clock: str | float | None = None) -> Validation:
    """Each record's DRAM traffic, bounds and predicted time against its measurement, at ``clock``
    (roofmodel.model.clock.resolve_clock: sustained where the file has it, else rated, by default)."""
    from roofmodel.model.clock import resolve_clock

    for dtype in sorted({r.dtype for r in records}) if clock is not None else ():
        resolve_clock(machine, dtype, clock)  # a clock the machine cannot give is refused, not skipped per record
    checks = [check_record(machine, r, clock) for r in records]
    counted = [c for c in checks if c.dram_read_error_pct is not None]
    by_group: dict[str, list[float]] = defaultdict(list)
    for c in counted:
        by_group[raster_order_of(c.record.group_m).label].append(c.dram_read_error_pct or 0.0)
    ratios = [c.measured_over_bound for c in checks if c.measured_over_bound is not None]
    # Order choice: within each (shape, tile, warps, stages), the model's least-DRAM GROUP_M vs the fastest.
    families: dict[tuple[Any, ...], list[RecordCheck]] = defaultdict(list)
    for c in checks:
        r = c.record
        families[(r.m, r.n, r.k, r.dtype, r.block_m, r.block_n, r.block_k, r.num_warps, r.num_stages)].append(c)
    choice = []
    for key, fam in sorted(families.items()):
        if len(fam) < 2:
            continue
        picked = min(fam, key=lambda c: (c.predicted_dram_read_bytes, c.record.group_m))
        fastest = min(fam, key=lambda c: c.record.time_ms)
        choice.append(
            {
                "shape": f"{key[0]}x{key[1]}x{key[2]}",
                "tile": f"{key[4]}x{key[5]}x{key[6]} w{key[7]} s{key[8]}",
                "model_group_m": picked.record.group_m,
                "fastest_group_m": fastest.record.group_m,
                "model_pick_slower_pct": 100.0 * (picked.record.time_ms / fastest.record.time_ms - 1.0),
            }
        )
    shapes: dict[str, list[RecordCheck]] = defaultdict(list)
    for c in checks:
        shapes[f"{c.record.m}x{c.record.n}x{c.record.k} {c.record.dtype}"].append(c)
    tf_by_shape, rho, top = {}, {}, []
    for shape, group in sorted(shapes.items()):
        ok = [c for c in group if c.predicted_tflops is not None]
        tf_by_shape[shape] = summarize([c.tflops_error_pct or 0.0 for c in ok])
        if len(ok) >= 3:
            rho[shape] = spearman([c.predicted_tflops or 0.0 for c in ok], [c.record.tflops for c in ok])
            # First by predicted time; among ties (several configurations at the compute ceiling), the one
            # whose next-slowest resource leaves the most slack.
            picked = min(
                ok, key=lambda c: [x / (c.record.m * c.record.n * c.record.k) for x in c.predicted_term_seconds or []]
            )
            best = max(ok, key=lambda c: c.record.tflops)
            top.append({
                "shape": shape,
                "model_first": _label(picked.record),
                "measured_best": _label(best.record),
                "model_first_tflops": picked.record.tflops,
                "best_tflops": best.record.tflops,
                "shortfall_pct": 100.0 * (1 - picked.record.tflops / best.record.tflops),
            })  # fmt: skip
    return Validation(
        machine=machine.name,
        records=len(checks),
        counted=len(counted),
        dram_read_error=summarize([c.dram_read_error_pct or 0.0 for c in counted]),
        dram_read_error_by_group={g: summarize(v) for g, v in sorted(by_group.items())},
        bound_violations=sum(1 for x in ratios if x > 1.0),
        max_measured_over_bound=max(ratios) if ratios else None,
        order_choice=choice,
        tflops_error=summarize([c.tflops_error_pct for c in checks if c.tflops_error_pct is not None]),
        tflops_error_by_shape=tf_by_shape,
        spearman_by_shape=rho,
        top_choice=top,
        checks=checks,
        not_validated=(
            "the per-CTA model's fixed costs (kernel_costs: iteration, copy issue, wgmma wait, loaded latencies) "
            "were fitted on the broad sweep's training shapes (docs/validation-h100.md), none on these kernels; "
            "kernels recorded at the register limit without a spill count get the register rule's spill estimate"
        ),
    )


def _label(r: GemmRecord) -> str:
    return f"{r.block_m}x{r.block_n}x{r.block_k} g{r.group_m} w{r.num_warps} s{r.num_stages}"


def report_markdown(v: Validation, provenance: dict[str, Any] | None = None) -> str:
    """The validation as a Markdown report."""
    e = v.dram_read_error
    lines = [f"# roofmodel validation on {v.machine}", ""]
    if provenance:
        lines += [
            f"Measured on {provenance.get('device')} ({provenance.get('sm_count')} SMs), {provenance.get('date')}; "
            f"driver {provenance.get('driver')}, CUDA {provenance.get('cuda')}, torch {provenance.get('torch')}, "
            f"triton {provenance.get('triton')}; SM clock median {provenance.get('sm_clock_mhz_median')} MHz.",
            "",
        ]
    lines += [
        f"{v.records} timed configurations, {v.counted} with Nsight Compute DRAM counters.",
        "",
        "## DRAM traffic: raster model vs counters",
        "",
    ]
    if v.counted:
        lines += [
            f"Predicted DRAM read bytes against `dram__bytes_read.sum`: median absolute error {e['median_abs_pct']:.1f}%, "
            f"p90 {e['p90_abs_pct']:.1f}%, worst {e['worst_abs_pct']:.1f}% (target: within 15%).",
            "",
            "| order | n | median abs % | p90 abs % | worst abs % |",
            "|---|---|---|---|---|",
        ]
        for g, s in v.dram_read_error_by_group.items():
            lines.append(
                f"| {g} | {int(s['n'])} | {s['median_abs_pct']:.1f} | {s['p90_abs_pct']:.1f} | {s['worst_abs_pct']:.1f} |"
            )
    else:
        lines.append("No counters were recorded.")
    lines += ["", "## Bounds", ""]
    if v.max_measured_over_bound is not None:
        lines.append(
            f"{v.bound_violations} of {v.records} kernels ran faster than the model's hierarchical bound for their own "
            f"tile and order; the highest measured / bound is {v.max_measured_over_bound:.2f}."
        )
    lines += ["", "## Order choice", "", "| shape | tile | model's GROUP_M | fastest | model's pick slower by |",
              "|---|---|---|---|---|"]  # fmt: skip
    for c in v.order_choice:
        lines.append(
            f"| {c['shape']} | {c['tile']} | {c['model_group_m']} | {c['fastest_group_m']} | "
            f"{c['model_pick_slower_pct']:.1f}% |"
        )
    t = v.tflops_error
    lines += ["", "## Predicted TFLOPS", ""]
    if t.get("n"):
        lines += [
            f"Predicted against measured TFLOPS over {int(t['n'])} kernels: median absolute error "
            f"{t['median_abs_pct']:.1f}%, p90 {t['p90_abs_pct']:.1f}%, worst {t['worst_abs_pct']:.1f}% "
            "(targets: median 10%, p90 25%).",
            "",
            "| shape | n | median abs % | p90 abs % | worst abs % | Spearman | model's first | measured best | "
            "shortfall |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        tops = {c["shape"]: c for c in v.top_choice}
        for shape, s in v.tflops_error_by_shape.items():
            top = tops.get(shape)
            lines.append(
                f"| {shape} | {int(s['n'])} | {s['median_abs_pct']:.1f} | {s['p90_abs_pct']:.1f} | "
                f"{s['worst_abs_pct']:.1f} | {v.spearman_by_shape.get(shape, float('nan')):.2f} | "
                + (f"{top['model_first']} ({top['model_first_tflops']:.0f}) | {top['measured_best']} "
                   f"({top['best_tflops']:.0f}) | {top['shortfall_pct']:.1f}% |" if top else "| | |")
            )  # fmt: skip
    lines += ["", "## Not modelled", "", v.not_validated + ".", ""]
    return "\n".join(lines)
