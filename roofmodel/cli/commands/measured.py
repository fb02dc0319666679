"""``roofmodel calibrate``, ``measure``, ``sweep`` (on a GPU) and ``validate`` (on their records).

Every input is checked before the GPU is asked for, so bad input says what is wrong on any machine.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from roofmodel import defaults
from roofmodel.backends.broad import broad_clock_mhz, broad_splits
from roofmodel.cli.app import typed
from roofmodel.cli.commands.analysis import gemm_of
from roofmodel.cli.options import (
    BaseMachineOpt,
    BudgetOpt,
    ClockOpt,
    DtypeOpt,
    JsonOpt,
    KernelTileOpt,
    KOpt,
    MachineOpt,
    MOpt,
    NcuOpt,
    NOpt,
    OldGroupMOpt,
    OldOutOpt,
    OutDirOpt,
    OutOpt,
    PngOpt,
    PngTflopsOpt,
    QuickOpt,
    RasterOpt,
    RecordedMachineOpt,
    ReportOpt,
    ResultsArg,
    StagesOpt,
    WarpsOpt,
    merged,
    out_path,
)
from roofmodel.cli.output import Outputs, figure_format, progress
from roofmodel.errors import ProblemError
from roofmodel.model.kernel import triton_group_m
from roofmodel.render.text import render_measurement, render_overlay

TRITON_WARPS = 4  # Triton's num_warps when none is given


def calibrate(
    machine: BaseMachineOpt,
    out: OutOpt = None,
    output: OldOutOpt = None,
) -> None:
    """Measure the ceilings on this GPU and write a machine-file overlay marked as measured."""
    from roofmodel.backends import require_gpu
    from roofmodel.machine import load_machine

    path, option = out_path(out, output, "the overlay YAML to write")
    base = load_machine(machine)  # a bad name fails before any GPU work
    outputs = Outputs()
    target = outputs.add(option, path)
    require_gpu()
    from roofmodel.backends.microbench import calibrate as run_calibration

    with progress("calibrate") as report:
        overlay, prov = run_calibration(machine, progress=report)
    text = render_overlay(overlay, prov.device, base.name)
    outputs.put(target, text, check=load_machine)  # never leave an overlay that does not load
    outputs.write()
    sys.stdout.write(text)


def measure(
    machine: MachineOpt,
    m: MOpt,
    tile: KernelTileOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    raster: RasterOpt = defaults.RASTER,
    group_m: OldGroupMOpt = None,
    warps: WarpsOpt = None,
    stages: StagesOpt = defaults.STAGES,
    ncu: NcuOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Time one Triton GEMM configuration and hold it to the model (bounds and DRAM bytes)."""
    from roofmodel.backends import require_gpu
    from roofmodel.backends.records import predict_dram_traffic, record_of
    from roofmodel.machine import load_machine
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.problem import Tile

    old_raster = None if group_m is None else "row" if group_m == 1 else f"grouped:{group_m}"
    raster = merged("raster", raster, old_raster, "--group-m", "--raster")
    mach = load_machine(machine)
    t = Tile.parse(tile)
    if t.bk is None:
        raise ProblemError(f"--tile {tile}: give BLOCK_K too, e.g. {t.bm}x{t.bn}x64")
    g = gemm_of(m, n, k, _triton_dtype(dtype))
    cfg = dict(dtype=g.dtype, block_m=t.bm, block_n=t.bn, block_k=t.bk, group_m=triton_group_m(raster),
               num_warps=warps or TRITON_WARPS, num_stages=stages)  # fmt: skip
    try:  # a kernel Triton compiles
        triton_config(mach, g.dtype, **{k: v for k, v in cfg.items() if k != "dtype"})
    except ProblemError as exc:
        raise ProblemError(f"--tile {tile} --warps {cfg['num_warps']} --stages {stages}: {exc}") from None
    require_gpu()
    from roofmodel.backends import ncu as ncu_mod

    if ncu and not ncu_mod.available():
        raise ProblemError("--ncu: Nsight Compute (ncu) is not on the PATH")
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.triton_gemm import run_config

    sampler = ClockSampler()
    label = f"{g.m}x{g.n}x{g.k} {g.dtype}, tile {t.label()}"
    with progress("measure", quiet=as_json) as report:
        report(0, 2 if ncu else 1, f"compiling and timing {label}")
        with sampler.running():
            got = run_config(g.m, g.n, g.k, **cfg)
        counters: dict[str, float] = {}
        if ncu:
            report(1, 2, f"counting DRAM bytes of {label} with Nsight Compute")
            counters = ncu_mod.count_gemm({"m": g.m, "n": g.n, "k": g.k, **cfg})
    record = record_of({"m": g.m, "n": g.n, "k": g.k, **cfg}, got, counters)
    pred = predict_dram_traffic(mach, record)
    prov = collect(sampler.samples)
    if as_json:
        from roofmodel.backends.records import MeasureDocument

        doc = MeasureDocument(record=record, model=pred, provenance=prov)
        sys.stdout.write(doc.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_measurement(record, pred, prov))


def _triton_dtype(dtype: str) -> str:
    from roofmodel.backends.records import TRITON_DTYPES

    if dtype not in TRITON_DTYPES:
        raise ProblemError(f"--dtype {dtype}: the Triton kernel runs fp16, bf16, tf32 or fp32 (got {dtype!r})")
    return dtype


def sweep(
    out: OutDirOpt = None,
    quick: QuickOpt = False,
    ncu: NcuOpt = False,
    budget_s: BudgetOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
) -> None:
    """Time (and count) a grid of Triton GEMM configurations over several shapes; resumable."""
    from roofmodel.backends import require_gpu
    from roofmodel.backends.records import read_csv

    if out is None:
        raise ProblemError("missing option -o/--out (the directory for gemm.csv and provenance.json)")
    option = typed("-o", "--out")
    _triton_dtype(dtype)
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ProblemError(f"{option} {out}: exists and is not a directory")
    if not path.parent.is_dir():
        raise ProblemError(f"{option} {out}: directory {path.parent} does not exist")
    if (path / "gemm.csv").exists():
        read_csv(path / "gemm.csv")  # a sweep to resume must be readable before any GPU work
    require_gpu()
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.sweep import grid, run

    path.mkdir(exist_ok=True)
    sampler = ClockSampler()
    with sampler.running(), progress("sweep") as report:
        records = run(
            path, grid(dtype=dtype, quick=quick), with_ncu=ncu, budget_s=budget_s or math.inf, progress=report
        )
    outputs = Outputs()
    outputs.put(
        outputs.add(option, str(path / "provenance.json")), collect(sampler.samples).model_dump_json(indent=2) + "\n"
    )
    outputs.write()
    sys.stdout.write(f"{len(records)} records in {path / 'gemm.csv'}\n")


def validate(
    results: ResultsArg,
    machine: RecordedMachineOpt = "h100",
    report: ReportOpt = None,
    png: PngOpt = None,
    png_tflops: PngTflopsOpt = None,
    clock: ClockOpt = defaults.CLOCK,
    as_json: JsonOpt = False,
) -> None:
    """Compare the model with a sweep's measurements: DRAM bytes, bounds, and the order it picks; for a
    broad sweep (a directory with broad.csv), the per-CTA time model per split, dtype and shape family."""
    outputs = Outputs()  # every file is checked before any work, and written only if all is well
    figures = {}
    for option, path in (("--png", png), ("--png-tflops", png_tflops)):
        if path is not None:
            figures[option] = (outputs.add(option, path), figure_format(path, option, with_format=False))
    report_path = outputs.add("--report", report) if report is not None else None
    src = Path(results)
    if not src.exists():
        raise ProblemError(f"{results}: no such file or directory (a sweep directory, or its gemm.csv or broad.csv)")
    want_markdown = report is not None or not as_json
    if (src / "broad.csv").is_file() if src.is_dir() else src.name == "broad.csv":
        if figures:
            raise ProblemError(f"{' and '.join(figures)}: the scatters draw a gemm.csv's checks; {results} is a "
                               "broad sweep (broad.csv)")  # fmt: skip
        markdown, doc = _validate_broad(src / "broad.csv" if src.is_dir() else src, machine, clock, report,
                                        want_markdown, as_json)  # fmt: skip
    else:
        markdown, doc = _validate_gemm(src, results, machine, clock, figures, outputs, want_markdown)
    if report_path is not None:
        outputs.put(report_path, markdown or "")
    outputs.write()
    sys.stdout.write(doc if as_json else markdown or "")


def _validate_gemm(
    src: Path, results: str, machine: str, clock: str | None, figures: dict[str, Any], outputs: Outputs,
    want_markdown: bool,
) -> tuple[str | None, str]:  # fmt: skip
    """(Markdown report, JSON) of a gemm.csv's validation; the scatters put in ``outputs``."""
    from roofmodel.backends.provenance import read_provenance
    from roofmodel.backends.records import read_csv
    from roofmodel.backends.validation import report_markdown
    from roofmodel.backends.validation import validate as run_validation
    from roofmodel.machine import load_machine

    csv_path = src / "gemm.csv" if src.is_dir() else src
    if not csv_path.is_file():
        raise ProblemError(f"{results}: no gemm.csv there")
    provenance = read_provenance(csv_path.parent / "provenance.json")
    records = read_csv(csv_path)
    if not records:
        raise ProblemError(f"{csv_path}: no records")
    v = run_validation(load_machine(machine), records, clock)
    if figures:
        from roofmodel.render.plots import figure_bytes, tflops_scatter_figure, traffic_scatter_figure

        draw = {
            "--png": lambda: traffic_scatter_figure(v.checks, f"DRAM reads, {v.machine}: model vs Nsight Compute"),
            "--png-tflops": lambda: tflops_scatter_figure(
                v.checks, f"Triton GEMMs on {v.machine}: predicted vs measured"
            ),
        }
        for option, (path, fmt) in figures.items():
            try:
                fig = draw[option]()
            except ProblemError as exc:
                raise ProblemError(f"{option} {path}: {str(exc).removeprefix('plot: ')}") from None
            outputs.put(path, figure_bytes(fig, fmt))
    return (report_markdown(v, provenance) if want_markdown else None), v.model_dump_json(indent=2) + "\n"


def _validate_broad(
    csv_path: Path, machine: str, clock: str | None, report: str | None, want_markdown: bool, want_json: bool
) -> tuple[str | None, str]:
    """(Markdown report, JSON) of a broad sweep's validation."""
    from roofmodel.backends.broad import read_broad_csv, report_markdown
    from roofmodel.backends.provenance import read_provenance
    from roofmodel.machine import load_machine

    mach = load_machine(machine)
    mhz = broad_clock_mhz(mach, clock)
    prov = read_provenance(csv_path.parent / "provenance.json", need=("device", "triton", "torch", "date"))
    records = read_broad_csv(csv_path)
    if not records:
        raise ProblemError(f"{csv_path}: no timed records")
    source = f"{csv_path.parent.name}/{csv_path.name}"
    if prov is not None:
        source += f" ({prov['device']}, triton {prov['triton']}, torch {prov['torch']}, {prov['date']})"
    doc = ""
    if want_json:
        doc = json.dumps({"machine": mach.name, "clock_mhz": mhz, "splits": broad_splits(mach, records, mhz)},
                         indent=2) + "\n"  # fmt: skip
    markdown = None
    if want_markdown:
        command = f"roofmodel validate {csv_path.parent} --machine {machine}" + (f" --clock {clock}" if clock else "")
        markdown = report_markdown(mach, records, mhz, source, command + (f" --report {report}" if report else ""))
    return markdown, doc
