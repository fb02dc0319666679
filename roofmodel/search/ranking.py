"""Rank a list of candidate kernels (``roofmodel rank --configs FILE``): a Triton autotune list or
a sweep's CSV, each row predicted by the per-CTA model (prediction.predict_kernel) with its
limiter, and the measured figure beside it where the file has one, so a user can prune autotuning.

A row names a Triton configuration: BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages and GROUP_M
(or block_m, ..., group_m; GROUP_M defaults to 1, num_warps to 4, num_stages to 3). A row may also
carry the problem (m, n, k, dtype, a_major, b_major: a sweep's CSV) where the command line gives
none, what the compiler gave it (registers_per_thread, spilled_registers, shared_bytes: used as
compiled) and a measurement (time_ms, or tflops). YAML: a list of such mappings, or a mapping with
``configs:`` holding one; a mapping's ``kwargs:`` (as ``triton.Config`` holds them) is merged in. Rows are ranked by
predicted time within each problem, a register gamble (footprint.py) after every row that is not one, as ``tune``
ranks them.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine, Source
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import predict_kernel
from roofmodel.model.problem import DTYPES, Gemm
from roofmodel.results import JSON_SCHEMA_VERSION

ALIASES = {
    "block_m": ("BLOCK_M", "BLOCK_SIZE_M", "block_m", "bm"),
    "block_n": ("BLOCK_N", "BLOCK_SIZE_N", "block_n", "bn"),
    "block_k": ("BLOCK_K", "BLOCK_SIZE_K", "block_k", "bk"),
    "group_m": ("GROUP_M", "GROUP_SIZE_M", "group_m"),
    "num_warps": ("num_warps", "warps"),
    "num_stages": ("num_stages", "stages"),
}
DEFAULTS = {"group_m": 1, "num_warps": 4, "num_stages": 3}


class RankedConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: int
    row: int  # the row's number in the file (1 = the first configuration)
    config: str
    gemm: str
    a_major: str
    b_major: str
    seconds: float
    tflops: float
    limiter: str
    registers_per_thread: int
    spilled_registers: int
    loop_spilled_registers: int  # the registers its loop stores and reloads an iteration (Prediction's: can pass those)
    register_gamble: bool = False  # Prediction's: past the register limit only by element pointers
    measured_seconds: float | None
    measured_tflops: float | None
    error_pct: float | None  # (predicted - measured) / measured time


class Ranking(BaseModel):
    """``roofmodel rank --json``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    machine: str
    source: str
    configs: int
    problems: int
    ranked: list[RankedConfig]  # per problem, predicted fastest first, register gambles after the rest
    # Over the rows of a file of one problem where every row has a measurement; else None.
    spearman: float | None  # predicted vs measured time
    best_measured_rank: int | None  # the predicted rank of the measured fastest row
    first_over_best: float | None  # best measured time / measured time of the predicted first


def read_configs(path: Path) -> list[dict[str, Any]]:
    """The rows of a CSV or YAML file of configurations, as mappings; one clear error otherwise."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise ProblemError(f"--configs {path}: cannot read: {exc}") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ProblemError(f"--configs {path}: not valid YAML: {' '.join(str(exc).split())}") from None
        if isinstance(data, dict) and "configs" in data:
            data = data["configs"]
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise ProblemError(f"--configs {path}: expected a list of mappings (or configs: [...])")
        for i, r in enumerate(data, start=1):
            if not isinstance(r.get("kwargs") or {}, dict):
                raise ProblemError(f"--configs {path}: row {i}: kwargs must be a mapping (as triton.Config holds it)")
        rows = [{**{k: v for k, v in r.items() if k != "kwargs"}, **(r.get("kwargs") or {})} for r in data]
    else:
        try:
            rows = list(csv.DictReader(io.StringIO(text)))
        except csv.Error as exc:
            raise ProblemError(f"--configs {path}: not a CSV: {exc}") from None
        if rows and "status" in rows[0]:
            rows = [r for r in rows if r.get("status") in ("ok", None, "")]
    if not rows:
        raise ProblemError(f"--configs {path}: no configurations in the file")
    return rows


def _number(row: dict[str, Any], name: str, line: int) -> float | None:
    """The row's finite number under ``name``, None where it has none; one clear error otherwise."""
    v = row.get(name)
    if v in (None, ""):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ProblemError(f"row {line}: {name}: not a number ({v!r})") from None
    if not math.isfinite(f):
        raise ProblemError(f"row {line}: {name}: must be finite (got {v})")
    return f


def _int(row: dict[str, Any], names: tuple[str, ...], what: str, line: int, default: int | None = None,
         least: int = 1) -> int:  # fmt: skip
    for name in names:
        f = _number(row, name, line)
        if f is not None:
            if f != int(f) or f < least:
                raise ProblemError(f"row {line}: {what}: must be a whole number >= {least} (got {row.get(name)})")
            return int(f)
    if default is None:
        raise ProblemError(f"row {line}: {what} is missing (as {' or '.join(names)})")
    return default


def _measured_seconds(row: dict[str, Any], flops: float, peak_flops: float, line: int) -> float | None:
    """The row's measured time (``time_ms``, else ``tflops``), refused where it is not positive or
    beats the machine's datasheet peak for the dtype (the file or its problem is not this one)."""
    for name, to_s in (("time_ms", lambda v: v * 1e-3), ("tflops", lambda v: flops / (v * 1e12))):
        x = _number(row, name, line)
        if x is None:
            continue
        if x <= 0:
            raise ProblemError(f"row {line}: {name}: must be > 0 (got {x:g})")
        seconds = to_s(x)
        if flops / seconds > peak_flops:
            raise ProblemError(f"row {line}: {name}: {flops / seconds / 1e12:,.0f} TFLOPS measured, above the "
                               f"{peak_flops / 1e12:,.0f} TFLOPS peak of this dtype on this machine")  # fmt: skip
        return seconds
    return None


def rank_configs(
    machine: Machine,
    rows: list[dict[str, Any]],
    *,
    gemm: Gemm | None = None,
    a_major: str | None = None,
    b_major: str | None = None,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    source: str = "",
) -> Ranking:
    """Every row predicted and ranked, fastest first, a register gamble after every row that is not one (as tune
    ranks them; see the module docstring)."""
    from roofmodel.stats import spearman

    out = []
    for line, row in enumerate(rows, start=1):
        vals = {key: _int(row, names, names[0], line, DEFAULTS.get(key)) for key, names in ALIASES.items()}
        g = gemm
        if g is None:
            if any(row.get(d) in (None, "") for d in ("m", "n", "k", "dtype")):
                raise ProblemError(f"row {line}: no problem: give --m/--n/--k/--dtype or the row's own m, n, k, dtype")
            dims = {d: _int(row, (d,), d, line) for d in ("m", "n", "k")}
            dtype = str(row.get("dtype") or "")
            if dtype not in DTYPES:
                raise ProblemError(f"row {line}: dtype {dtype!r}: give --m/--n/--k/--dtype or the row's own")
            g = Gemm(**dims, dtype=dtype)
        am = a_major or str(row.get("a_major") or "k")
        bmj = b_major or str(row.get("b_major") or "n")
        cfg = triton_config(machine, g.dtype, **vals)
        compiled = {
            name: _int(row, (col,), col, line, least=least)
            for name, col, least in (
                ("regs", "registers_per_thread", 1),
                ("spilled", "spilled_registers", 0),
                ("shared_bytes", "shared_bytes", 0),
            )
            if row.get(col) not in (None, "")
        }
        if "spilled" in compiled and "regs" not in compiled:
            raise ProblemError(
                f"row {line}: spilled_registers needs registers_per_thread (the compiled counts go together)"
            )
        if "regs" in compiled:
            compiled["regs"] = max(1, min(compiled["regs"], machine.limits.max_registers_per_thread.n))
        try:
            p = predict_kernel(
                machine, g, cfg, a_major=am, b_major=bmj, compute=compute, bandwidth=bandwidth, clock=clock, **compiled
            )
        except ProblemError as exc:
            raise ProblemError(f"row {line} ({cfg.label()}): {exc}") from None
        measured = _measured_seconds(row, g.flops, _peak_flops(machine, g.dtype), line)
        out.append((p.seconds, line, cfg, g, p, measured))  # p carries the layouts it was predicted with
    # Rank within each problem (a sweep's CSV holds several): by problem as first met, then register gambles after
    # the rest (as tune ranks them), then time.
    first_seen: dict[str, int] = {}
    for _, line, _, g, _, _ in out:
        first_seen.setdefault(_label(g), line)
    out.sort(key=lambda x: (first_seen[_label(x[3])], x[4].register_gamble, x[0], x[1]))
    ranked, rank, prev = [], 0, None
    for s, line, cfg, g, p, meas in out:
        rank = 1 if _label(g) != prev else rank + 1
        prev = _label(g)
        ranked.append(RankedConfig(
            rank=rank, row=line, config=cfg.label(), gemm=_label(g), a_major=p.a_major, b_major=p.b_major, seconds=s,
            tflops=p.tflops, limiter=p.limiter,
            registers_per_thread=p.registers_per_thread, spilled_registers=p.spilled_registers,
            loop_spilled_registers=p.loop_spilled_registers, register_gamble=p.register_gamble, measured_seconds=meas,
            measured_tflops=g.flops / meas / 1e12 if meas else None, error_pct=100 * (s - meas) / meas if meas else None,
        ))  # fmt: skip
    sp = best_rank = first_over_best = None
    if len(first_seen) == 1 and len(ranked) >= 2 and all(r.measured_seconds for r in ranked):
        meas = [r.measured_seconds or 0.0 for r in ranked]
        sp = spearman([r.seconds for r in ranked], meas)
        best_rank = ranked[min(range(len(meas)), key=meas.__getitem__)].rank
        first_over_best = min(meas) / meas[0]
    return Ranking(machine=machine.name, source=source, configs=len(ranked), problems=len(first_seen),
                   ranked=ranked, spearman=sp, best_measured_rank=best_rank, first_over_best=first_over_best)  # fmt: skip


def _peak_flops(machine: Machine, dtype: str) -> float:
    """The largest datasheet rate any instruction of the dtype's pipe has, at the boost clock (FLOP/s)."""
    from roofmodel import units

    pipe, sms, hz = machine.pipe(dtype), machine.sm_count.n, machine.clocks.boost.hz
    best = 0.0
    for ins in pipe.instructions:
        q = pipe.rate_of(ins)[0].pick("spec")
        best = max(best, units.rate_fma_per_cycle_per_sm(q.value, q.unit, sms, hz) * 2 * sms * hz)
    return best


def _label(g: Gemm) -> str:
    return f"{g.m}x{g.n}x{g.k} {g.dtype}"
