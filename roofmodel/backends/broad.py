"""The broad sweep's records (benchmarks/gpu_broad_sweep.py) and the per-CTA time model on them.

Pure (no torch): CI replays the committed measurements. A record is one timed Triton kernel drawn
at random from the legal space, with what the compiler gave it (MMA family, registers, spills,
shared memory) and the split of its shape (``train``, ``holdout``, or ``micro`` for the
microbenchmark kernels), fixed in the sweep script before anything was measured. Constants are
fitted on ``train`` only; every figure the report leads with is on ``holdout``.

``record_seconds`` feeds roofmodel.model.cta_model with the machine's rates (prediction.machine_rates:
the instruction family's measured rate, the bandwidths, the loaded latencies, the kernel costs) for
the kernel as compiled: its registers, spills and shared memory (occupancy), the raster model's
DRAM and L2 traffic for its GROUP_M order, and its operand layouts.
"""

from __future__ import annotations

import csv
import dataclasses
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator

from roofmodel.backends.records import GemmRecord, percent_error, raster_order_of, summarize
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.footprint import kernel_footprint
from roofmodel.model.footprint import pointers_recomputed as footprint_recomputed
from roofmodel.model.kernel import FAMILIES, register_tile_for, triton_config
from roofmodel.model.prediction import (
    INSTRUCTION_ROWS,
    Rates,
    kernel_seconds,
    machine_rates,
    operand_staging,
    triton_copies,
)
from roofmodel.model.problem import INPUT_BYTES, OUTPUT_BYTES
from roofmodel.model.rasterization import RasterTraffic, order_traffic
from roofmodel.stats import spearman


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
    # The SM clock (MHz) the harness's sampler last read as each pass timed the kernel (nvidia-smi, about every 0.5 s).
    sm_clock_mhz: float | None = Field(default=None, gt=0)
    sm_clock_mhz_2: float | None = Field(default=None, gt=0)
    # Local-memory bytes per thread its main loop loads plus stores, counted in the SASS of the same kernel
    # compiled again on a CPU (loop_local.csv beside broad.csv: benchmarks/compile_study.py --loop-local).
    loop_local_bytes: int | None = Field(default=None, ge=0)
    loop_local_waits: int | None = Field(default=None, ge=0)  # times a warp waits on those reloads per pass

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
    return with_loop_local(out, path.parent / LOOP_LOCAL_CSV)


LOOP_LOCAL_CSV = "loop_local.csv"
# The columns that name one kernel of a sweep (a loop_local.csv row is matched to its broad.csv row by them).
KERNEL_KEY = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m",
               "a_major", "b_major")  # fmt: skip


def with_loop_local(records: list[BroadRecord], path: Path) -> list[BroadRecord]:
    """``records`` with loop_local_bytes from ``path`` (benchmarks/compile_study.py --loop-local) where it
    holds the same kernel compiled to the same registers and spills (Triton's own kernel: a forced-mma.sync
    row keeps none); unchanged where there is no such file."""
    if not path.is_file():
        return records
    need = (*KERNEL_KEY, "registers", "spilled", "loop_local_load_bytes", "loop_local_store_bytes", "loop_local_waits")
    counts = ("registers", "spilled", "loop_local_load_bytes", "loop_local_store_bytes", "loop_local_waits")
    found: dict[tuple[str, ...], dict[str, int]] = {}
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in need if c not in (reader.fieldnames or [])]
            if missing:
                raise ProblemError(f"{path}: cannot read: missing columns {', '.join(missing)}")
            for line, row in enumerate(reader, 2):
                if row.get("loop_local_load_bytes") in (None, ""):  # no main loop with an MMA was found: no counts
                    continue
                key = tuple(str(row[c]) for c in KERNEL_KEY)
                try:
                    values = {c: int(row[c]) for c in counts}
                except (TypeError, ValueError):
                    raise ProblemError(f"{path}, line {line}: the counts must be whole numbers") from None
                if min(values.values()) < 0:
                    raise ProblemError(f"{path}, line {line}: a count is negative")
                if key in found:
                    raise ProblemError(f"{path}, line {line}: the same kernel twice")
                found[key] = values
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ProblemError(f"{path}: cannot read: {exc}") from None
    out = []
    for r in records:
        got = found.get(tuple(str(getattr(r, c)) for c in KERNEL_KEY))
        if got is not None and not r.force_mma_v2 and (got["registers"], got["spilled"]) == (
            r.registers_per_thread, r.spilled_registers):  # fmt: skip
            r = r.model_copy(update={"loop_local_bytes": got["loop_local_load_bytes"] + got["loop_local_store_bytes"],
                                     "loop_local_waits": got["loop_local_waits"]})  # fmt: skip
        out.append(r)
    return out


class Evaluator:
    """The per-CTA model on recorded kernels of one machine at one clock: the machine's rates per
    dtype and the raster traffic per (shape, tile, order, concurrency), each computed once."""

    def __init__(self, machine: Machine, clock_mhz: float) -> None:
        self.machine, self.clock_mhz = machine, clock_mhz
        # benchmarks/fit_cta_costs.py tries costs on the training split: CtaCosts fields (seconds) that
        # replace the machine's, the others (transpose, convert, launch) kept per dtype
        self.cost_override: dict[str, float] | None = None
        # As compiled, charge the loop's local bytes counted in the SASS where the record has them (else the
        # spill rules): off to compare with the rules alone.
        self.loop_local = True
        # Spills whose resident frames outgrow the L2 move at the rates beyond it (prediction.spill_rates): off
        # to compare with every spill at the measured rate.
        self.spill_home = True
        # A synchronous load waits at the hit rate of the operands it loads (prediction.synchronous_hit_bytes): off to
        # compare with the kernel's hit rate (benchmarks/synchronous_hit_classes.py).
        self.own_hit_rate = True
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

    def seconds(self, r: BroadRecord, compiled: bool = True, family: str | None = None) -> dict[str, Any]:
        """The per-CTA model's terms (seconds) for one recorded kernel: as compiled (its MMA family,
        registers, spills and shared memory), or, with ``compiled=False``, as ``roofmodel predict
        --kernel triton`` sees it (Triton's rules and the register rule)."""
        return self._terms(r, compiled, family)[0]

    def footprint(self, r: BroadRecord, compiled: bool = True, family: str | None = None) -> dict[str, Any]:
        """The footprint (footprint.kernel_footprint) seconds() computes the kernel's terms with."""
        return self._terms(r, compiled, family)[1]

    def _terms(self, r: BroadRecord, compiled: bool, family: str | None,
               pointers_recomputed: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:  # fmt: skip
        """seconds()'s terms, and the footprint they were computed with; with ``pointers_recomputed``, the terms as
        they would be had ptxas recomputed the element pointers the rule spills (search.space.Configs.
        pointers_recomputed: tune --compile-top's order)."""
        m, rates = self.machine, self.rates(r.dtype)
        if not self.spill_home:
            rates = dataclasses.replace(rates, l2_capacity_bytes=None)
        if self.cost_override is not None:
            rates = dataclasses.replace(rates, costs=dataclasses.replace(rates.costs, **self.cost_override))
        family = family or r.instruction or "fma"
        fi = FAMILIES.index(family)
        e = INPUT_BYTES[r.dtype]
        a_m, b_n = r.a_major == "m", r.b_major == "n"
        limit = m.limits.max_registers_per_thread.n
        own = {"registers": max(1, min(r.registers_per_thread, limit)), "spilled": r.spilled_registers,
               "shared_bytes": min(r.shared_bytes, int(m.memory.smem.max_per_block.bytes)),
               "loop_local_bytes": r.loop_local_bytes if self.loop_local else None,
               "loop_local_waits": r.loop_local_waits if self.loop_local else None} if compiled else {}  # fmt: skip
        rm, rn = register_tile_for(family, r.block_m, r.block_n, r.num_warps) or (
            min(r.block_m, INSTRUCTION_ROWS[fi]), min(r.block_n, 8))  # fmt: skip
        fp = kernel_footprint(
            m, bm=r.block_m, bn=r.block_n, bk=r.block_k, warps=r.num_warps, stages=r.num_stages, family=fi,
            element_bytes=e, accumulator_registers=1.0, rm=rm, rn=rn, **own,
            **operand_staging(triton_copies(m, "triton"), fi, e, r.m, r.n, r.k, a_m, b_n, r.block_m, r.block_n),
        )  # fmt: skip
        if pointers_recomputed and float(fp["pointer_spilled"]):
            fp = footprint_recomputed(fp)
        t = self.traffic(r, m.sm_count.n * int(fp["ctas_per_sm"]))
        terms = kernel_seconds(
            m, rates, m=r.m, n=r.n, k=r.k, element_bytes=e, output_bytes=OUTPUT_BYTES[r.dtype], bm=r.block_m,
            bn=r.block_n, bk=r.block_k, warps=r.num_warps, stages=r.num_stages, family=fi, rm=rm, rn=rn,
            a_m_major=a_m, b_n_major=b_n, footprint=fp, requested=t.requested_bytes, distinct=t.wave_distinct_bytes,
            dram_read=t.dram_read_bytes, a_requested=t.a_requested_bytes if self.own_hit_rate else None,
            a_latency_dram_read=t.a_dram_read_bytes if self.own_hit_rate else None,
        )  # fmt: skip
        return terms, fp

    def naive_roofline_seconds(self, r: BroadRecord) -> float:
        """The classic roofline with measured ceilings: max(FLOPs / the family's measured rate,
        compulsory bytes / measured DRAM bandwidth); the baseline issue 13 names."""
        rates = self.rates(r.dtype)
        e, eo = INPUT_BYTES[r.dtype], OUTPUT_BYTES[r.dtype]
        compute = r.m * r.n * r.k / (rates.family_fma_per_s(r.instruction or "fma") * self.machine.sm_count.n)
        return max(compute, ((r.m + r.n) * r.k * e + r.m * r.n * eo) / rates.dram_bps)

    def predict_seconds(self, r: BroadRecord) -> float | None:
        """What ``roofmodel predict --kernel triton`` says for the kernel as its user states it (no
        compiled counts: the register rule, Triton's shared-memory rule); None where it refuses."""
        return self.predict(r)[0]

    def predict(self, r: BroadRecord, pointers_recomputed: bool = False) -> tuple[float | None, bool]:
        """predict_seconds, and whether the register rule calls the kernel a register gamble (footprint.py): the
        figures predict's note quotes are counted with it (tests/test_footprint.py); the rankings by the rule alone put
        it last (rule_rank_key). With ``pointers_recomputed``, the time as tune --compile-top orders it (_terms)."""
        p, gamble, order = self.predict_and_order(r, only_order=pointers_recomputed)
        return (order if pointers_recomputed else p), gamble

    def predict_and_order(self, r: BroadRecord, only_order: bool = False) -> tuple[float | None, bool, float | None]:
        """(predict's seconds, register gamble, the seconds tune --compile-top orders it by): the second time computed
        only where the rule spills element pointers (else predict's); ``only_order``: the order's alone (the first is
        None). Nones where predict refuses."""
        try:
            cfg = triton_config(self.machine, r.dtype, block_m=r.block_m, block_n=r.block_n, block_k=r.block_k,
                                group_m=r.group_m, num_warps=r.num_warps, num_stages=r.num_stages)  # fmt: skip
            terms, fp = self._terms(r, False, cfg.instruction, only_order)
            p = None if only_order else float(terms["total"])
            if only_order or not float(fp["pointer_spilled"]):
                return p, bool(fp["gamble"]), float(terms["total"])
            return p, bool(fp["gamble"]), float(self._terms(r, False, cfg.instruction, True)[0]["total"])
        except ProblemError:
            return None, False, None


class Row:
    """One sweep kernel: measured seconds and each model's prediction (None: refused), whether the register rule
    calls it a register gamble as ``predict --kernel triton`` states it (footprint.py), and the time tune
    --compile-top orders it by (``compile_order``: predict's with the element pointers the rule spills recomputed;
    predict's where not given)."""

    def __init__(self, r: BroadRecord, cta: float, naive: float, predict: float | None, gamble: bool = False,
                 compile_order: float | None = None) -> None:  # fmt: skip
        self.record, self.measured = r, r.time_ms * 1e-3
        self.cta, self.naive, self.predict, self.gamble = cta, naive, predict, gamble
        self.compile_order = predict if compile_order is None else compile_order


def evaluate(machine: Machine, records: list[BroadRecord], clock_mhz: float) -> list[Row]:
    """Every sweep kernel (not the microbenchmarks) under the three models."""
    ev = Evaluator(machine, clock_mhz)
    return [Row(r, float(ev.seconds(r)["total"]), ev.naive_roofline_seconds(r), *ev.predict_and_order(r))
            for r in records if r.set == "sweep"]  # fmt: skip


def rule_rank_key(row: Row, predicted: float, gamble_last: bool = True) -> tuple[bool, float]:
    """Where a kernel stands in a ranking by the rule (search.space.Evaluated.ranked): a register gamble after every
    kernel that is not one (``gamble_last``), then by predicted time."""
    return (gamble_last and row.gamble, predicted)


def figures(rows: list[Row], model: str = "cta", gamble_last: bool = True) -> dict[str, Any]:
    """Absolute error (median, p90), median signed error, and per (shape, dtype) group of at least 5
    kernels: Spearman of predicted and measured time, and best measured / measured time of the
    model's first-ranked kernel (1.0: its pick is the fastest; among equal predictions, the first in the
    file; ``predict``'s ranking puts register gambles last, as tune's does: rule_rank_key). Refused kernels are
    counted."""
    done = [(row, getattr(row, model)) for row in rows if getattr(row, model) is not None]
    errs = [percent_error(p, row.measured) for row, p in done]
    out: dict[str, Any] = {**summarize(errs), "refused": len(rows) - len(done)}
    if errs:
        out["median_signed_pct"] = statistics.median(errs)
    groups: dict[tuple[str, str], list[tuple[tuple[bool, float], float]]] = defaultdict(list)
    for row, p in done:
        groups[(row.record.shape, row.record.dtype)].append(
            (rule_rank_key(row, p, gamble_last and model == "predict"), row.measured)
        )
    sp = [spearman([p for (_, p), _ in v], [t for _, t in v]) for v in groups.values() if len(v) >= 5]
    # The pick among equal predictions is the first in the file, never the one measured faster.
    first = [min(t for _, t in v) / min(v, key=lambda x: x[0])[1] for v in groups.values() if len(v) >= 5]
    if sp:
        out.update(spearman_median=statistics.median(sp), spearman_min=min(sp),
                   first_over_best_median=statistics.median(first), first_over_best_min=min(first),
                   under_0_9=sum(x < 0.9 for x in first))  # fmt: skip
    return out


# How many of predict's first configurations `tune --compile-top` compiles in the figures the reports give
# (chosen on the read samples before the fifth fresh sample was read: docs/validation.md).
COMPILED_PICKS = 8


def compiled_pick_figures(rows: list[Row], compile_top: int = COMPILED_PICKS, beyond: bool = True) -> dict[str, Any]:
    """What ``tune --compile-top N`` would pick in each (shape, dtype) group of at least 5 kernels: the kernels
    in ``predict --kernel triton``'s order by time with every bet on registers won (Row.compile_order: register
    gambles among the rest, the element pointers the rule spills recomputed, which compiling resolves: tune
    compiles in that order, after predict's own first pick; ties: the first in the file), compiled one after another:
    the first N, then on while the next one's time in that order is faster than the best compiled so far, up to
    COMPILE_BEYOND x N compiles, a tile's raster copies sharing one (search.space's _compiled_ranking), ranked again by the model with their compiled counts (``cta``: the sweep's own counts,
    which Triton 3.6's compile on a CPU reproduces; ties: the compile order). Best measured / measured of that
    pick: median, min, and the groups under 0.9. ``beyond=False``: the first N only (N = 1: predict's own pick)."""
    from roofmodel.search.space import COMPILE_BEYOND, compiling_goes_on

    groups: dict[tuple[str, str], list[tuple[int, Row]]] = defaultdict(list)
    for i, row in enumerate(rows):
        if row.predict is not None:
            groups[(row.record.shape, row.record.dtype)].append((i, row))
    first = []
    for v in groups.values():
        if len(v) < 5:
            continue
        taken: list[Row] = []
        compiled: set[tuple[Any, ...]] = set()
        stopped = False
        # predict's own first (rule_rank_key) compiled first, as tune --compile-top does; then the compile order. A
        # tile's raster copy (another GROUP_M) shares its compile (search.space.compile_key): it takes no place.
        own = min(v, key=lambda t: (rule_rank_key(t[1], t[1].predict), t[0]))
        order = [own, *sorted((t for t in v if t is not own), key=lambda t: (t[1].compile_order, t[0]))]
        for _, row in order:
            r = row.record
            key = (r.block_m, r.block_n, r.block_k, r.num_warps, r.num_stages, r.a_major, r.b_major)
            if key not in compiled:
                stopped = stopped or len(compiled) >= (COMPILE_BEYOND if beyond else 1) * compile_top or not (
                    compiling_goes_on(len(compiled), compile_top, min((x.cta for x in taken), default=None),
                                      row.compile_order))  # fmt: skip
                if stopped:
                    continue
                compiled.add(key)
            taken.append(row)
        pick = min(enumerate(taken), key=lambda t: (t[1].cta, t[0]))[1]
        first.append(min(row.measured for _, row in v) / pick.measured)
    if not first:
        return {"groups": 0}
    return {"groups": len(first), "first_over_best_median": statistics.median(first),
            "first_over_best_min": min(first), "under_0_9": sum(x < 0.9 for x in first)}  # fmt: skip


def _cells(f: dict[str, Any]) -> str:
    if not f.get("n"):
        return "- | - | - | -"
    sp = f"{f['spearman_median']:.2f} ({f['spearman_min']:.2f})" if "spearman_median" in f else "-"
    fb = f"{f['first_over_best_median']:.2f} ({f['first_over_best_min']:.2f})" if "spearman_median" in f else "-"
    return f"{f['median_abs_pct']:.1f}% / {f['p90_abs_pct']:.0f}% | {f['median_signed_pct']:+.1f}% | {sp} | {fb}"


# What `roofmodel predict` said on the H100 sweep's held-out kernels before this model replaced it
# (the slowest resource alone, built-in h100, compiled registers): docs/validation-h100-broad.md at
# commit 2dae212.
BEFORE = "on the H100 sweep's held-out kernels, median 51%, p90 81%, Spearman median 0.46, 102 of 760 refused"


def _worst_groups(rows: list[Row], limit: int = 8) -> list[str]:
    """Held-out (instruction, dtype, A/B layout, spilling) groups of at least 5 kernels, by median
    absolute error of the per-CTA model, worst first."""
    groups: dict[tuple[str, str, str, str], list[Row]] = defaultdict(list)
    for x in rows:
        r = x.record
        groups[
            (r.instruction, r.dtype, f"A {r.a_major}, B {r.b_major}", "spills" if r.spilled_registers else "")
        ].append(x)
    scored = []
    for key, v in groups.items():
        if len(v) >= 5:
            f = figures(v)
            scored.append((f["median_abs_pct"], key, f))
    scored.sort(key=lambda t: -t[0])
    out = [
        "| instruction | dtype | layout | spills | n | median / p90 abs err | median signed |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, (ins, dt, lay, sp), f in scored[:limit]:
        out.append(f"| {ins} | {dt} | {lay} | {sp or '-'} | {f['n']} | {f['median_abs_pct']:.0f}% / "
                   f"{f['p90_abs_pct']:.0f}% | {f['median_signed_pct']:+.0f}% |")  # fmt: skip
    return out


def _compiled_line(rows: list[Row]) -> str:
    # predict alone ranks register gambles last (figures, as tune without --compile-top); the compiles go by time.
    c, pr = compiled_pick_figures(rows), figures(rows, "predict")
    if not c["groups"]:
        return "- With predict's first configurations compiled (`tune --compile-top`): no group of 5 kernels."
    return (f"- With predict's first {COMPILED_PICKS} (and on while the next could win) compiled and ranked by their "
            f"compiled counts (`tune --compile-top "
            f"{COMPILED_PICKS}`): first-ranked at {c['first_over_best_median']:.2f} of the best (min "
            f"{c['first_over_best_min']:.2f}; {c['under_0_9']} of {c['groups']} groups under 0.90, against "
            f"{pr['under_0_9']} by predict alone).")  # fmt: skip


def two_pass_noise(records: list[BroadRecord]) -> tuple[float, float]:
    """Median and p90 of |second pass / first pass - 1| over the kernels timed twice (percent)."""
    diffs = sorted(abs(r.time_ms_2 / r.time_ms - 1) * 100 for r in records if r.time_ms_2)
    if not diffs:
        return float("nan"), float("nan")
    return statistics.median(diffs), diffs[min(len(diffs) - 1, int(0.9 * len(diffs)))]


def report_markdown(
    machine: Machine, records: list[BroadRecord], clock_mhz: float, source: str, command: str = ""
) -> str:
    """The broad-sweep report: per split, dtype and shape family, the per-CTA model with the kernels
    as compiled, ``roofmodel predict --kernel triton`` as a user states them, and the naive roofline."""
    rows = evaluate(machine, records, clock_mhz)

    def table(split: str) -> list[str]:
        sel = [x for x in rows if x.record.split == split]
        keys = [("all", sel)]
        keys += [(f"dtype {d}", [x for x in sel if x.record.dtype == d]) for d in sorted({x.record.dtype for x in sel})]
        keys += [
            (f"family {f}", [x for x in sel if x.record.family == f]) for f in sorted({x.record.family for x in sel})
        ]
        out = [
            "| set | n | as compiled: median / p90 abs err | median signed | Spearman median (min) "
            "| first-ranked / best, median (min) | predict --kernel triton: median / p90, refused "
            "| its Spearman median (min) | its first / best median (min) | naive roofline median |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, v in keys:
            f, pr, naive = figures(v), figures(v, "predict"), figures(v, "naive")
            pr_sp = f"{pr['spearman_median']:.2f} ({pr['spearman_min']:.2f})" if "spearman_median" in pr else "-"
            pr_fb = (f"{pr['first_over_best_median']:.2f} ({pr['first_over_best_min']:.2f})"
                     if "spearman_median" in pr else "-")  # fmt: skip
            out.append(f"| {name} | {f['n']} | {_cells(f)} | {pr['median_abs_pct']:.1f}% / {pr['p90_abs_pct']:.0f}%, "
                       f"{pr['refused']} | {pr_sp} | {pr_fb} | {naive['median_abs_pct']:.0f}% |")  # fmt: skip
        return out

    held = [x for x in rows if x.record.split == "holdout"]
    f, pr, naive = figures(held), figures(held, "predict"), figures(held, "naive")
    noise = two_pass_noise(records)
    sweep = [r for r in records if r.set == "sweep"]
    n_shapes = len({r.shape for r in sweep})
    has_train = any(x.record.split == "train" for x in rows)
    train_section = (
        ["## Training shapes (the loaded-latency factor, the overlap and memory norms, the cold spilled registers, mma.sync's "
         "spill reloads and the "
         "register rule's overheads and pointer registers were fitted or chosen here)", "", *table("train"), ""]
        if has_train
        else ["## Training shapes", "", "None: every kernel of this sweep is held out (a fresh sample, "
              "benchmarks/gpu_broad_sweep.py --fresh or --fresh2), none was used to fit or choose anything.", ""]
    )  # fmt: skip
    return "\n".join([
        f"# The per-CTA time model against a broad sweep ({machine.name})",
        "",
        f"Data: {source}: {len(sweep):,} Triton matmuls drawn at random from the legal configuration space over "
        f"{n_shapes} shapes (square, short K, long K, skinny, decode with M <= 64, sizes that are not powers of two, "
        "small) "
        "in fp16, bf16, tf32, fp32 and fp8 with both operand layouts, each checked against float64 and timed in "
        f"two passes (median difference {noise[0]:.2f}%, p90 {noise[1]:.2f}%). The split of shapes into training and "
        "held-out was "
        "fixed in benchmarks/gpu_broad_sweep.py before anything was measured. The per-iteration costs "
        "(kernel_costs.iteration, copy_issue, wait) come from the K-sweep microbenchmark and the cost of "
        "transposing an MN-major tf32 operand (kernel_costs.transpose) from the layout check, the rate of "
        "spills (kernel_costs.spill_bandwidth) from pairs of wgmma kernels with and without spills, and the cost "
        "of converting fp8 for mma.sync (kernel_costs.convert) from the issue check's conversion-heavy fp8 tiles "
        "and of the byte gathers of an MN-major fp8 operand (kernel_costs.gather) from the gather check "
        "(benchmarks/derive_kernel_costs.py); the fitted constants, the loaded-latency factor, the norm with "
        "which DRAM and the L2 make the memory time and the overlap norm of the SM and memory times, a count of spilled registers charged nothing in every kernel "
        "(cta_model.COLD_SPILLED_REGISTERS) and the times an mma.sync kernel's spills are reloaded "
        "(cta_model.mma_sync_spill_reloads) "
        "(benchmarks/fit_cta_costs.py), and Triton's register overheads and the pointer registers of an operand "
        "loaded one element at a time (roofmodel/model/footprint.py) were fitted on "
        "the H100 sweep's training shapes only (a machine file states where each of its own figures comes from).",
        "",
        f"Models at {clock_mhz:.0f} MHz (the SM clock sampled during the sweep): **as compiled**, the per-CTA "
        "model (roofmodel/model/cta_model.py) with each kernel's compiled MMA family, registers, spills and shared "
        "memory; **predict --kernel triton**, the same model with what a user states (Triton's rules, the "
        "register rule of roofmodel/model/footprint.py, no compiled counts); the **naive roofline** with measured "
        "ceilings. Errors are (predicted - measured) / measured time. Spearman and first-ranked / best are per "
        "(shape, dtype) group of at least 5 kernels; first-ranked / best is the best measured time over the "
        "measured time of the kernel the model ranks first (1.00: its pick is the fastest; among equal "
        "predictions, the first in the file, not the one measured faster; `predict` ranks a register gamble after "
        "every kernel that is not one, as `tune` does)."
        + (f" Written by `{command}`." if command else ""),
        "",
        "## In short (held-out shapes)",
        "",
        f"- As compiled: median {f['median_abs_pct']:.1f}%, p90 {f['p90_abs_pct']:.0f}%, Spearman median "
        f"{f['spearman_median']:.2f} (min {f['spearman_min']:.2f}), first-ranked at {f['first_over_best_median']:.2f}"
        f" of the best (min {f['first_over_best_min']:.2f}); nothing refused.",
        f"- As a user states it (`roofmodel predict --kernel triton`): median {pr['median_abs_pct']:.1f}%, p90 "
        f"{pr['p90_abs_pct']:.0f}%, Spearman median {pr['spearman_median']:.2f} (min {pr['spearman_min']:.2f}), "
        f"first-ranked at {pr['first_over_best_median']:.2f} (min {pr['first_over_best_min']:.2f}); "
        f"{pr['refused']} refused.",
        _compiled_line(held),
        f"- Before issue 13 (the slowest resource alone): {BEFORE}. The naive roofline with measured ceilings: "
        f"median {naive['median_abs_pct']:.0f}%.",
        "- Issue 13's targets (median <= 10%, p90 <= 25% for fp16/bf16; <= 15% for tf32, fp32, fp8 and decode; "
        "Spearman >= 0.9 and first-ranked within 3% in every shape) are **not met**; the tables say by how much.",
        "",
        "## Held-out shapes (never used to choose or fit anything)",
        "",
        *table("holdout"),
        "",
        "## Where it still fails (held-out, as compiled, worst groups first)",
        "",
        *_worst_groups(held),
        "",
        *train_section,
    ])  # fmt: skip


def broad_clock_mhz(machine: Any, clock: str | None) -> float:
    """The SM clock (MHz) a broad sweep's kernels are predicted at: --clock's MHz, ``sustained`` or
    ``boost`` from the machine file; by default sustained where the file has it, else boost. (A broad
    sweep mixes dtypes, whose rated clocks differ: ``rated`` is refused.)"""
    c = machine.clocks
    if clock is None:
        return (c.sustained or c.boost).hz / 1e6
    if clock == "rated":
        raise ProblemError("--clock rated: a broad sweep mixes dtypes whose rated clocks differ; give sustained, "
                           "boost or MHz")  # fmt: skip
    if clock == "sustained":
        if c.sustained is None:
            raise ProblemError(f"--clock sustained: {machine.name} has no clocks.sustained (run roofmodel calibrate)")
        return c.sustained.hz / 1e6
    return c.boost.hz / 1e6 if clock == "boost" else float(clock)


def broad_splits(machine: Any, records: list[Any], mhz: float) -> dict[str, Any]:
    """The per-CTA, predict and naive models' figures on each split of a broad sweep."""
    from roofmodel.backends.broad import evaluate, figures

    rows = evaluate(machine, records, mhz)
    return {s: {m: figures([r for r in rows if r.record.split == s], m) for m in ("cta", "predict", "naive")}
            for s in ("holdout", "train")}  # fmt: skip
