"""Pictures: hierarchical rooflines, the amplification budget, the tile map and raster waves.

Each picture has a data function (plain numbers, checked by the tests against the model) and a
figure function that draws it and returns a matplotlib Figure, so a notebook can restyle it. This
is the only module that imports matplotlib, and only inside the figure functions; figures are
built on matplotlib.figure.Figure (no pyplot), so they render headless. Lines differ in style and
marker as well as colour, so they survive greyscale printing.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roofmodel import defaults
from roofmodel.errors import ProblemError, RoofmodelError
from roofmodel.files import write_atomically
from roofmodel.machine import Machine, as_machine
from roofmodel.model.analysis import AnalysisResult, analyze
from roofmodel.model.problem import DTYPES, Gemm, Tile
from roofmodel.model.stages import pipe_rate

# Okabe-Ito: distinguishable with colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
LEVEL_STYLE = {"DRAM": "-", "LLC": (0, (6, 1.5, 1, 1.5, 1, 1.5)), "L2": "--", "smem": "-.", "RF": ":"}
LEVEL_MARKER = {"DRAM": "D", "LLC": "P", "L2": "s", "smem": "^", "RF": "v"}
LEVEL_COLOUR = {"DRAM": PALETTE[0], "LLC": PALETTE[4], "L2": PALETTE[1], "smem": PALETTE[2], "RF": PALETTE[3]}  # alone
WARNING = "#D55E00"
FORMATS = ("png", "svg", "pdf")


# ---------------------------------------------------------------------------------------------
# Roofline


@dataclass(frozen=True)
class Ceiling:
    label: str
    level: str
    bandwidth_gb_per_s: float


@dataclass(frozen=True)
class Peak:
    label: str
    dtype: str
    tflops: float
    clock_mhz: float | None = None  # the clock this pipe's roof is drawn at


@dataclass(frozen=True)
class GemmPoint:
    level: str
    intensity_flop_per_byte: float
    tflops: float
    limiting: bool


@dataclass
class RooflineData:
    """One machine's roofs (memory roofs in GB/s, each compute roof in TFLOPS at its own pipe's
    clock), ridges and the GEMM's points."""

    machine: str
    clock_mhz: float  # the analysed pipe's clock
    ceilings: list[Ceiling]
    peaks: list[Peak]
    ridges: dict[str, float]  # level -> FLOP/B where its roof meets the analysed pipe's peak
    points: list[GemmPoint]
    analysed_dtype: str
    bound_tflops: float
    notes: list[str] = field(default_factory=list)
    gemm_shape: tuple[int, int, int] | None = None  # M, N, K
    tile: tuple[int, int, int] | None = None  # the CTA tile BM, BN, BK the analysis used


# roofline_data's ``clock`` default: draw the other pipes under the clock rule the analysis followed.
AS_ANALYSED = "as analysed"


def roofline_data(machine: Machine, result: AnalysisResult, *, clock: str | float | None = AS_ANALYSED) -> RooflineData:
    """Roofs per memory level and per compute pipe.

    Memory roofs are the stages' bandwidths. Compute roofs: the analysed pipe's peak as the analysis
    computed it; every other pipe's peak = its default instruction's rate x 2 FLOP x SMs x that
    pipe's own clock, by the rule ``analyze`` uses (stages.pipe_rate): under the default clock
    rule the pipe's rated clock where the machine file gives one, else boost, so each roof is the
    peak ``analyze --dtype <that dtype>`` prints. ``clock`` is the analysis' clock option
    (``sustained``, ``rated``, ``boost``, MHz or None); by default it is read back from the result.
    Ridge point of a level = analysed peak / level bandwidth. The GEMM appears once per level, at
    that level's intensity and the hierarchical bound.
    """
    if clock == AS_ANALYSED:
        clock = _clock_option(machine, result)
    ceilings = [
        Ceiling(f"{r.level} {r.bandwidth_gb_per_s:,.0f} GB/s", r.level, r.bandwidth_gb_per_s)
        for r, s in zip(result.roofs, result.stages, strict=True)
        if not s.bandwidth_assumed
    ]
    peaks = _shared_labels([_pipe_peak(machine, dtype, result, clock) for dtype in machine.compute if dtype in DTYPES])
    peak = result.peak_tflops * 1e12
    ridges = {c.level: peak / (c.bandwidth_gb_per_s * 1e9) for c in ceilings}
    limiting_level = min(result.roofs, key=lambda r: r.bound_tflops).level
    points = [
        GemmPoint(r.level, r.intensity_flop_per_byte, result.hierarchical_bound_tflops, r.level == limiting_level)
        for r, s in zip(result.roofs, result.stages, strict=True)
        if not s.bandwidth_assumed
    ]
    notes = [f"clock {result.pipe.clock_mhz:.0f} MHz ({result.pipe.clock_origin})"]
    g = result.gemm
    return RooflineData(
        machine.name,
        result.pipe.clock_mhz,
        ceilings,
        peaks,
        ridges,
        points,
        g.dtype,
        result.hierarchical_bound_tflops,
        notes,
        gemm_shape=(g.m, g.n, g.k),
        tile=tuple(result.tiles.cta),  # type: ignore[arg-type]
    )


def _clock_option(machine: Machine, result: AnalysisResult) -> str | float | None:
    """The clock option an analysis was run with, read back from the clock it reports (clock.py's
    origins). A boost clock on a pipe without a rated clock reads as the default rule (rated,
    else boost), which gives that pipe the same clock either way."""
    origin = result.pipe.clock_origin
    if origin.startswith("set with"):
        return result.pipe.clock_mhz
    if origin.startswith("sustained"):
        return "sustained"
    if origin.startswith("boost"):
        pipe = machine.pipe(result.gemm.dtype)
        if pipe.rated_clock_of(pipe.instruction(result.pipe.instruction))[0] is not None:
            return "boost"
    return "rated"


def _pipe_peak(machine: Machine, dtype: str, result: AnalysisResult, clock: str | float | None) -> Peak:
    """One compute roof: the analysed pipe's peak as analysed, any other pipe's at its own clock."""
    if dtype == result.gemm.dtype:
        info = result.pipe
    else:
        info = pipe_rate(machine, Gemm(m=1, dtype=dtype), None, result.compute_preference, clock).info
    engine = {"tensor_core": "tensor", "matrix_core": "matrix core", "simd": "SIMD"}.get(info.engine, "CUDA core")
    at = "" if math.isclose(info.clock_mhz, result.pipe.clock_mhz) else f" at {info.clock_mhz:,.0f} MHz"
    return Peak(f"{dtype} {engine} {info.peak_tflops:,.1f} TFLOPS{at}", dtype, info.peak_tflops, info.clock_mhz)


def _shared_labels(peaks: list[Peak]) -> list[Peak]:
    """Pipes with the same roof (engine, peak and clock: fp16 and bf16; fp8 and int8) share one
    label: "fp16/bf16 tensor ..."."""
    by_roof: dict[str, list[int]] = {}
    for i, pk in enumerate(peaks):
        by_roof.setdefault(pk.label.split(" ", 1)[1], []).append(i)
    out = list(peaks)
    for rest, group in by_roof.items():
        if len(group) > 1:
            names = "/".join(peaks[i].dtype for i in group)
            for i in group:
                out[i] = Peak(f"{names} {rest}", peaks[i].dtype, peaks[i].tflops, peaks[i].clock_mhz)
    return out


def _new_figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=150, layout="constrained")
    return fig


def roofline_figure(datas: list[RooflineData], title: str | None = None) -> Any:
    """Log-log hierarchical roofline for one or several machines.

    Memory roofs run up to the analysed pipe's peak, one line style per level (LEVEL_STYLE) in
    every picture; alone, a machine's levels also differ in colour; overlaid, colour tells the
    machines apart. Compute roofs are horizontal, each at its own pipe's clock, the analysed pipe's
    drawn heavier; open circles mark ridge points; markers the GEMM's intensity at each level, at
    the hierarchical bound (the limiting level's marker is filled in colour and touches its roof).
    """
    fig = _new_figure(9.0, 6.0)
    ax = fig.add_subplot()
    single = len(datas) == 1
    names = _short_names(datas)
    x_lo, x_hi, y_lo, y_hi = _roofline_limits(datas)
    for i, d in enumerate(datas):
        colour = PALETTE[i % len(PALETTE)]
        analysed = next(p for p in d.peaks if p.dtype == d.analysed_dtype)
        _draw_memory_roofs(ax, d, analysed, x_lo, None if single else colour, "" if single else f"{names[i]} ")
        _draw_compute_roofs(ax, d.peaks if single else [analysed], analysed, x_lo, None if single else colour,
                            "" if single else f"{names[i]} ")  # fmt: skip
        _draw_ridges(ax, d, analysed)
        _draw_points(ax, d, None if single else colour)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_xlabel("arithmetic intensity at the level (FLOP per byte moved from it)")
    ax.set_ylabel("attainable throughput (TFLOPS)")
    ax.grid(True, which="major", color="0.88", lw=0.6)
    if single:
        _single_roof_legend(ax)
    else:
        _overlay_roof_legends(ax, datas, names)
    _point_legend(ax, datas)
    ax.set_title(title if title is not None else roofline_title(datas), fontsize=9)
    return fig


def roofline_title(datas: list[RooflineData]) -> str:
    """Names the GEMM, the tile, the bound and the clock: "NVIDIA H100 SXM5 80GB: 4096x4096x4096
    fp16 GEMM, tile 128x256x64 — bound 742 TFLOPS", then the analysed pipe's clock; overlaid, the
    GEMM then each machine's tile, bound and clock."""
    first = datas[0]
    gemm = f"{_dims(first.gemm_shape)} {first.analysed_dtype} GEMM".lstrip()
    if len(datas) == 1:
        tile = f", tile {_dims(first.tile)}" if first.tile else ""
        head = f"{first.machine}: {gemm}{tile} — bound {first.bound_tflops:,.0f} TFLOPS"
        return (
            f"{head}\nhierarchical roofline; the {first.analysed_dtype} pipe's {first.notes[0]}"
            if first.notes
            else head
        )
    if any(d.gemm_shape != first.gemm_shape or d.analysed_dtype != first.analysed_dtype for d in datas):
        gemm = "GEMMs"
    parts = [
        (f"{name}: tile {_dims(d.tile)}, " if d.tile else f"{name}: ")
        + f"bound {d.bound_tflops:,.0f} TFLOPS at {d.clock_mhz:,.0f} MHz"
        for name, d in zip(_short_names(datas), datas, strict=True)
    ]
    lines = ["; ".join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
    return "\n".join([f"Hierarchical rooflines: {gemm}", *lines])


def _dims(values: tuple[int, ...] | None) -> str:
    return "x".join(str(v) for v in values) if values else ""


def _short_names(datas: list[RooflineData]) -> list[str]:
    """ "H100" for "NVIDIA H100 SXM5 80GB" when overlaid (full names where short ones would clash)."""
    if len(datas) == 1:
        return [datas[0].machine]
    vendors = ("NVIDIA ", "AMD Instinct ", "AMD ", "GeForce ")
    short = []
    for d in datas:
        name = d.machine
        for v in vendors:
            name = name.replace(v, "")
        words = name.split()
        # the model's name: its first word, or the first two where the first has no digit (RTX 4090)
        short.append(" ".join(words[:2] if len(words) > 1 and not any(c.isdigit() for c in words[0]) else words[:1])
                     or d.machine)  # fmt: skip
    return short if len(set(short)) == len(short) else [d.machine for d in datas]


def _roofline_limits(datas: list[RooflineData]) -> tuple[float, float, float, float]:
    """Axes limits in whole decades: every point and ridge with room around them, every drawn
    compute roof with room above it for the legends."""
    single = len(datas) == 1
    xs = [p.intensity_flop_per_byte for d in datas for p in d.points] + [r for d in datas for r in d.ridges.values()]
    x_lo = 10 ** math.floor(math.log10(max(1e-2, min([0.5, *xs]) / 2)))
    x_hi = 10 ** math.ceil(math.log10(max([1e3, *xs]) * 3))
    drawn = [p.tflops for d in datas for p in d.peaks if single or p.dtype == d.analysed_dtype]
    y_hi = 10 ** math.ceil(math.log10(max(drawn) * (1.8 if single else 12)))
    y_lo = 10 ** math.floor(math.log10(min(*drawn, *(d.bound_tflops for d in datas)) / 30))
    return x_lo, x_hi, y_lo, y_hi


def _draw_memory_roofs(ax: Any, d: RooflineData, analysed: Peak, x_lo: float, colour: str | None, prefix: str) -> None:
    """One line per memory level, bandwidth x intensity up to the analysed peak, styled by level
    (LEVEL_STYLE); coloured by level when ``colour`` is None. Each line's gid is
    ``memory-roof:<level>:<machine>``."""
    for c in d.ceilings:
        bw = c.bandwidth_gb_per_s / 1e3  # TFLOPS per FLOP/B
        ax.plot(
            [x_lo, analysed.tflops / bw],
            [x_lo * bw, analysed.tflops],
            ls=LEVEL_STYLE.get(c.level, "-"),
            color=colour or LEVEL_COLOUR.get(c.level, "0.3"),
            lw=1.8,
            label=f"{prefix}{c.label}",
            gid=f"memory-roof:{c.level}:{d.machine}",
        )


def _draw_compute_roofs(
    ax: Any, peaks: list[Peak], analysed: Peak, x_lo: float, colour: str | None, prefix: str
) -> None:
    """Horizontal roofs, one per distinct peak; roofs at one height share one annotation."""
    at_height: dict[float, list[Peak]] = {}
    for p in peaks:
        at_height.setdefault(round(p.tflops, 6), []).append(p)
    for group in at_height.values():
        main = any(p.dtype == analysed.dtype or p.label == analysed.label for p in group)
        tflops = group[0].tflops
        ax.axhline(
            tflops,
            color=colour or ("0.1" if main else "0.6"),
            lw=1.8 if main else 0.8,
            ls="-" if main else (0, (4, 2)),
            zorder=2,  # above the grid, which would otherwise split a roof on a decade line
            gid=f"compute-roof:{'/'.join(p.dtype for p in group)}",
        )
        ax.annotate(
            prefix + _shared_annotation(group),
            (x_lo, tflops),
            xytext=(3, 2),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize=7,
            color="0.1" if main else "0.45",
        )


def _shared_annotation(group: list[Peak]) -> str:
    """ "fp32 CUDA core / fp64 tensor 66.9 TFLOPS at 1,980 MHz" for roofs at one height."""
    labels = list(dict.fromkeys(p.label for p in group))
    number = f" {group[0].tflops:,.1f} TFLOPS"
    if len(labels) == 1 or not all(number in label for label in labels):
        return labels[0] if len(labels) == 1 else "; ".join(labels)
    heads = [label.split(number, 1)[0] for label in labels]
    return " / ".join(heads) + number + labels[0].split(number, 1)[1]


def _draw_ridges(ax: Any, d: RooflineData, analysed: Peak) -> None:
    for ridge in d.ridges.values():
        ax.plot([ridge], [analysed.tflops], "o", mfc="white", mec="0.2", ms=5, zorder=4)
        ax.annotate(
            f"{ridge:,.0f}",
            (ridge, analysed.tflops),
            xytext=(0, -11),
            textcoords="offset points",
            ha="center",
            fontsize=6,
            color="0.3",
        )


def _draw_points(ax: Any, d: RooflineData, colour: str | None) -> None:
    """The GEMM at each level; the limiting level's marker filled in the colour of its roof."""
    for p in d.points:
        ax.plot(
            [p.intensity_flop_per_byte],
            [p.tflops],
            LEVEL_MARKER.get(p.level, "o"),
            ms=9 if p.limiting else 6,
            mec="0.05",
            mfc=(colour or LEVEL_COLOUR.get(p.level, "0.4")) if p.limiting else "white",
            zorder=5,
        )


# Long enough to show a dash-dot pattern at 1.8 pt (at matplotlib's default 2 a "-." looks solid).
ROOF_HANDLE_LENGTH = 4.5


def _roof_key(ax: Any, handles: list[Any], loc: str, title: str) -> None:
    """A legend of roof lines kept beside any other legend of the axes, with samples long enough to show
    each line style."""
    ax.add_artist(ax.legend(handles=handles, loc=loc, fontsize=7, title=title, title_fontsize=7, framealpha=0.92,
                            handlelength=ROOF_HANDLE_LENGTH))  # fmt: skip


def _single_roof_legend(ax: Any) -> None:
    roofs = [line for line in ax.get_lines() if str(line.get_gid()).startswith("memory-roof:")]
    _roof_key(ax, roofs, "lower right", "memory roofs")


def _overlay_roof_legends(ax: Any, datas: list[RooflineData], names: list[str]) -> None:
    """Two keys: the line style of each memory level, the colour of each machine (with its roofs' GB/s)."""
    from matplotlib.lines import Line2D

    levels = sorted({c.level for d in datas for c in d.ceilings}, key=_level_rank)
    styles = [Line2D([], [], ls=LEVEL_STYLE.get(lv, "-"), color="0.25", lw=1.8, label=f"{lv} roof") for lv in levels]
    _roof_key(ax, styles, "upper left", "memory level: line style")
    machines = [
        Line2D(
            [],
            [],
            color=PALETTE[i % len(PALETTE)],
            lw=3,
            label=f"{name}: " + ", ".join(f"{c.level} {c.bandwidth_gb_per_s:,.0f}" for c in d.ceilings) + " GB/s",
        )
        for i, (name, d) in enumerate(zip(names, datas, strict=True))
    ]
    ax.add_artist(
        ax.legend(
            handles=machines,
            loc="upper right",
            fontsize=7,
            title="machine: colour",
            title_fontsize=7,
            framealpha=0.92,
            handlelength=2.5,
        )
    )


def _level_rank(level: str) -> int:
    return list(LEVEL_STYLE).index(level) if level in LEVEL_STYLE else len(LEVEL_STYLE)


def _point_legend(ax: Any, datas: list[RooflineData]) -> None:
    from matplotlib.lines import Line2D

    levels = sorted({p.level for d in datas for p in d.points}, key=_level_rank)
    handles = [
        Line2D([], [], ls="", marker=LEVEL_MARKER.get(lv, "o"), mfc="white", mec="0.05", ms=6,
               label=f"GEMM intensity at {lv}")
        for lv in levels
    ]  # fmt: skip
    handles.append(Line2D([], [], ls="", marker="o", mfc="0.4", mec="0.05", ms=8, label="limiting level"))
    handles.append(Line2D([], [], ls="", marker="o", mfc="white", mec="0.2", ms=5, label="ridge point (FLOP/B)"))
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
        ncol=len(handles),
        fontsize=7,
        frameon=False,
    )


def roofline_plot(
    machine: Machine | str | Path | Sequence[Machine | str | Path],
    gemm: Gemm | None = None,
    *,
    tile: Tile | None = None,
    out: str | Path | None = None,
    **analysis_options: Any,
) -> Any:
    """One call draws a hierarchical roofline: analyse ``gemm`` on each machine and draw them.

    ``machine``: a built-in name, a machine file's path, a ``Machine``, or a list of those (drawn
    on one picture, one colour per machine). ``gemm``: default ``Gemm(4096)`` (4096^3 in the
    default dtype, fp16), the size the README's examples use. ``tile``: the CTA tile to analyse
    (default: the model picks one per machine). ``analysis_options``: ``analyze``'s keywords
    (``raster``, ``stages``, ``cluster``, ``clock``, ``bandwidth``, ``compute``, ...); other pipes'
    roofs follow the same clock option at their own rated clocks. ``out``: where to write the
    picture, the format chosen by the suffix (.png, .svg or .pdf), rendered in memory and renamed
    into place so a failure leaves no file. Returns the matplotlib Figure.
    """
    fmt = _format_of_suffix(Path(out)) if out is not None else None
    given = list(machine) if isinstance(machine, list | tuple) else [machine]
    if not given:
        raise ProblemError("roofline_plot: machine: give at least one machine (a name, a path or a Machine)")
    gemm = gemm if gemm is not None else Gemm(DEFAULT_PLOT_M)
    clock = analysis_options.get("clock_mhz") or analysis_options.get("clock", defaults.CLOCK)
    datas = []
    for m in given:
        mach = as_machine(m)
        datas.append(roofline_data(mach, analyze(mach, gemm, tile=tile, **analysis_options), clock=clock))
    fig = roofline_figure(datas)
    if out is not None:
        save_figure(fig, Path(out), fmt, option="out")
    return fig


# roofline_plot's GEMM when none is given: M = N = K = 4096 in the default dtype.
DEFAULT_PLOT_M = 4096


def _format_of_suffix(path: Path) -> str:
    """png, svg or pdf from the file's suffix; anything else a RoofmodelError naming those three."""
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        got = f"suffix {path.suffix!r}" if path.suffix else "no suffix"
        raise RoofmodelError(f"out {str(path)!r}: the suffix picks the format: .png, .svg or .pdf (got {got})")
    return fmt


# ---------------------------------------------------------------------------------------------
# Amplification budget


@dataclass(frozen=True)
class BudgetBar:
    stage: str
    raw: float
    after_tiling: float
    achieved: float
    demand: float
    missing: float


def budget_data(result: AnalysisResult) -> list[BudgetBar]:
    """Per stage, in bytes/cycle/SM: raw bandwidth, x in-SM tiling, x cross-SM sharing, vs demand."""
    return [
        BudgetBar(
            s.name,
            s.bandwidth_bytes_per_cycle_per_sm,
            s.bandwidth_bytes_per_cycle_per_sm * s.in_sm_reuse,
            s.bandwidth_bytes_per_cycle_per_sm * s.achieved_reuse,
            s.demand_bytes_per_cycle_per_sm,
            s.missing_amplification,
        )
        for s in result.stages
    ]


def budget_figure(result: AnalysisResult, title: str | None = None) -> Any:
    """Stacked log bars: raw bandwidth, what tiling adds, what cross-SM sharing adds, any shortfall."""
    from matplotlib.patches import Patch

    bars = budget_data(result)
    fig = _new_figure(8.0, 4.8)
    ax = fig.add_subplot()
    names = [b.stage for b in bars]
    xs = range(len(bars))
    lo = min(b.raw for b in bars) / 4
    for x, b in zip(xs, bars, strict=True):
        ax.bar(x, b.raw - lo, bottom=lo, color="0.55", width=0.6, edgecolor="0.2")
        if b.after_tiling > b.raw:
            ax.bar(x, b.after_tiling - b.raw, bottom=b.raw, color=PALETTE[0], width=0.6, edgecolor="0.2", hatch="//")
        if b.achieved > b.after_tiling * (1 + 1e-9):
            ax.bar(
                x,
                b.achieved - b.after_tiling,
                bottom=b.after_tiling,
                color=PALETTE[2],
                width=0.6,
                edgecolor="0.2",
                hatch="..",
            )
        if b.achieved < b.demand * (1 - 1e-9):
            ax.bar(
                x,
                b.demand - b.achieved,
                bottom=b.achieved,
                color="white",
                width=0.6,
                edgecolor=WARNING,
                hatch="xx",
                lw=1.5,
            )
            ax.annotate(
                f"x{b.missing:.2f} missing",
                (x, b.demand),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                fontsize=8,
                color=WARNING,
                fontweight="bold",
            )
        else:
            ax.annotate(
                f"x{b.achieved / b.raw:,.0f}",
                (x, b.achieved),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                fontsize=8,
                color="0.1",
            )
        ax.annotate(
            f"{b.raw:,.3g}",
            (x, b.raw),
            xytext=(0, -10),
            textcoords="offset points",
            ha="center",
            fontsize=7,
            color="white" if b.raw > lo * 3 else "0.1",
        )
    demand = bars[0].demand
    ax.axhline(demand, color="0.1", ls="--", lw=1.2)
    ax.annotate(
        f"demand of the\n{result.gemm.dtype} pipe:\n{demand:,.0f}\nB/cycle/SM",
        xy=(1.0, demand),
        xycoords=("axes fraction", "data"),
        xytext=(5, 0),
        textcoords="offset points",
        ha="left",
        va="center",
        fontsize=7,
    )
    ax.set_yscale("log")
    ax.set_ylim(lo, max(max(b.achieved for b in bars), demand) * 4)
    ax.set_xticks(list(xs), names)
    ax.set_ylabel("operand bandwidth delivered (bytes / cycle / SM)")
    ax.set_xlim(-0.6, len(bars) - 0.4)
    handles = [
        Patch(facecolor="0.55", edgecolor="0.2", label="raw bandwidth"),
        Patch(facecolor=PALETTE[0], edgecolor="0.2", hatch="//", label="x reuse from the tile (in-SM)"),
        Patch(facecolor=PALETTE[2], edgecolor="0.2", hatch="..", label="x cross-SM (multicast, L2 sharing)"),
        Patch(facecolor="white", edgecolor=WARNING, hatch="xx", label="shortfall"),
    ]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4, fontsize=7, frameon=False)
    t = result.tiles
    x = result.cross_sm
    ax.set_title(
        title
        or (
            f"Amplification budget: {result.machine.name}, {result.gemm.m}x{result.gemm.n}x{result.gemm.k} "
            f"{result.gemm.dtype}\nCTA {t.cta[0]}x{t.cta[1]}, {t.register_tile_granularity} tile "
            f"{t.register_tile[0]}x{t.register_tile[1]}, cluster {x.cluster[0]}x{x.cluster[1]}, raster {x.raster_order}"
        ),
        fontsize=9,
    )
    ax.grid(True, axis="y", which="major", color="0.88", lw=0.6)
    return fig


# ---------------------------------------------------------------------------------------------
# Tile map


@dataclass
class TileMap:
    edges: list[int]
    bound_tflops: list[list[float | None]]  # [bm index][bn index]; None: does not fit
    limiting: list[list[str | None]]
    reasons: list[list[str | None]]
    peak_tflops: float


TILE_EDGES = (16, 32, 64, 128, 256, 512)


def tile_map_data(machine: Machine, gemm: Gemm, edges: tuple[int, ...] = TILE_EDGES, **options: Any) -> TileMap:
    """The amplification bound and limiting stage for every BM x BN; None where the tile does not
    fit shared memory or registers (the reason kept)."""
    bound: list[list[float | None]] = []
    limiting: list[list[str | None]] = []
    reasons: list[list[str | None]] = []
    peak = 0.0
    for bm in edges:
        row_b, row_l, row_r = [], [], []
        for bn in edges:
            try:
                r = analyze(
                    machine,
                    gemm,
                    tile=Tile(bm=bm, bn=bn, bk=options.get("bk")),
                    **{k: v for k, v in options.items() if k != "bk"},
                )
            except ProblemError as exc:
                row_b.append(None)
                row_l.append(None)
                row_r.append(str(exc).split(": ", 1)[-1])
                continue
            peak = r.peak_tflops
            row_b.append(r.amplification_bound_tflops)
            row_l.append(r.limiting)
            row_r.append(None)
        bound.append(row_b)
        limiting.append(row_l)
        reasons.append(row_r)
    return TileMap(list(edges), bound, limiting, reasons, peak)


def tiles_figure(data: TileMap, title: str) -> Any:
    """BM x BN map of the amplification bound (fraction of peak), limiting stage written in each
    cell, infeasible tiles hatched."""
    import numpy as np

    fig = _new_figure(7.2, 6.0)
    ax = fig.add_subplot()
    n = len(data.edges)
    frac = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(n):
            v = data.bound_tflops[i][j]
            if v is not None and data.peak_tflops:
                frac[i, j] = v / data.peak_tflops
    im = ax.imshow(frac, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="equal")
    for i in range(n):
        for j in range(n):
            if data.bound_tflops[i][j] is None:
                ax.add_patch(_hatched_cell(j, i))
                ax.text(j, i, "does not\nfit", ha="center", va="center", fontsize=6, color="0.25")
            else:
                v = frac[i, j]
                ax.text(
                    j,
                    i,
                    f"{v:.0%}\n{_short(data.limiting[i][j])}",
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color="white" if v < 0.6 else "black",
                )
    ax.set_xticks(range(n), [str(e) for e in data.edges])
    ax.set_yticks(range(n), [str(e) for e in data.edges])
    ax.set_xlabel("BN (CTA tile columns)")
    ax.set_ylabel("BM (CTA tile rows)")
    cbar = fig.colorbar(im, ax=ax, shrink=0.85)
    cbar.set_label("amplification bound / peak")
    ax.set_title(title, fontsize=9)
    return fig


def _hatched_cell(x: float, y: float) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.92", edgecolor="0.5", hatch="xx", lw=0)


def _short(limiting: str | None) -> str:
    return "compute" if limiting in (None, "compute") else limiting


# ---------------------------------------------------------------------------------------------
# Raster waves


def raster_figure(result: AnalysisResult, waves_shown: int = 3, max_cells: int = 96) -> Any:
    """The tile grid coloured by the wave that computes each tile, for the first waves, with the
    distinct A and B panels of each wave in the legend (like seed 000's and seed 002's figures)."""
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    r = result.cross_sm.raster
    if r.tiles_m > max_cells or r.tiles_n > max_cells:
        raise ProblemError(
            f"plot raster: the {r.tiles_m} x {r.tiles_n} tile grid is too large to draw (at most {max_cells} a side): "
            "use a smaller problem or a larger tile"
        )
    shown = r.first_waves[:waves_shown]
    grid = np.full((r.tiles_m, r.tiles_n), -1.0)
    for w in shown:
        grid[w.tile_rows, w.tile_cols] = w.wave
    colours = ["#F2F2F2", *[PALETTE[i % len(PALETTE)] for i in range(len(shown))]]
    cell = min(0.3, 7.0 / max(r.tiles_n, r.tiles_m))
    fig = _new_figure(max(6.5, 1.2 + cell * r.tiles_n), max(4.0, 2.6 + cell * r.tiles_m))
    ax = fig.add_subplot()
    ax.imshow(
        grid + 1,
        cmap=ListedColormap(colours),
        vmin=-0.5,
        vmax=len(shown) + 0.5,
        origin="upper",
        interpolation="nearest",
        aspect="equal",
    )
    hatches = ["", "//", "..", "\\\\", "xx", "oo"]
    for w in shown:
        if w.wave % len(hatches):
            for row, col in zip(w.tile_rows, w.tile_cols, strict=True):
                ax.add_patch(_hatch_for(col, row, hatches[w.wave % len(hatches)]))
    ax.set_xticks(np.arange(-0.5, r.tiles_n, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, r.tiles_m, 1), minor=True)
    ax.grid(which="minor", color="white", lw=0.5)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel(f"N tiles ({r.tiles_n})")
    ax.set_ylabel(f"M tiles ({r.tiles_m})")
    handles = [
        Patch(
            facecolor=colours[w.wave + 1],
            hatch=hatches[w.wave % len(hatches)],
            edgecolor="0.3",
            label=f"wave {w.wave}: {w.tiles} tiles, {w.unique_a_panels} A + {w.unique_b_panels} B panels "
            f"(sharing x{w.sharing_factor:.2f})",
        )
        for w in shown
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.06 - 1.2 / max(8, r.tiles_m)),
        fontsize=7,
        frameon=False,
    )
    unit = "cluster" if result.cross_sm.cluster != (1, 1) else "CTA"
    ax.set_title(
        f"Raster {r.order}: {result.machine.name}\n{result.gemm.m}x{result.gemm.n}x{result.gemm.k}, "
        f"{unit} tile {result.tiles.cta[0] * result.cross_sm.cluster[0]}x{result.tiles.cta[1] * result.cross_sm.cluster[1]}, "
        f"{r.concurrent} per wave\nDRAM reads {r.dram_read_bytes / 2**20:,.0f} MiB "
        f"({r.dram_read_bytes / r.compulsory_read_bytes:.2f}x compulsory)",
        fontsize=9,
    )
    return fig


def _hatch_for(x: float, y: float, hatch: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch=hatch, edgecolor=(0, 0, 0, 0.35), lw=0)


# ---------------------------------------------------------------------------------------------
# Saving


def figure_bytes(fig: Any, fmt: str) -> bytes:
    """Render a Figure to PNG, SVG or PDF bytes (headless, through the Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if fmt not in FORMATS:
        raise RoofmodelError(f"--format: must be one of {', '.join(FORMATS)} (got {fmt!r})")
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata={"Software": None} if fmt == "png" else None)
    return buf.getvalue()


def save_figure(fig: Any, path: Path, fmt: str | None = None, *, option: str = "-o") -> Path:
    """Render fully in memory, then write atomically (a temporary file in the same directory,
    renamed into place): a failure never leaves half a file. ``option`` names the path in errors."""
    fmt = fmt or (path.suffix.lstrip(".").lower() or "png")
    data = figure_bytes(fig, fmt)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise RoofmodelError(f"{option} {path}: directory {directory} does not exist")
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise RoofmodelError(f"{option} {path}: cannot write: {exc.strerror}") from None
    return path


# ---------------------------------------------------------------------------------------------
# Validation


def traffic_scatter_figure(checks: list[Any], title: str) -> Any:
    """Predicted vs counted DRAM reads per recorded kernel (log-log), one marker per order, with
    y = x and a +-15% band."""
    fig = _new_figure(6.4, 5.6)
    ax = fig.add_subplot()
    counted = [c for c in checks if c.record.dram_read_bytes]
    if not counted:
        raise ProblemError("plot: no record has DRAM counters")
    groups = sorted({c.record.group_m for c in counted})
    markers = ["o", "s", "^", "D", "v", "P"]
    for i, g in enumerate(groups):
        sel = [c for c in counted if c.record.group_m == g]
        ax.plot([c.record.dram_read_bytes / 2**20 for c in sel], [c.predicted_dram_read_bytes / 2**20 for c in sel],
                markers[i % len(markers)], color=PALETTE[i % len(PALETTE)], mfc="none" if i % 2 else None, ms=5,
                label=("row-major" if g == 1 else f"grouped:{g}") + f" ({len(sel)})", ls="")  # fmt: skip
    values = [c.record.dram_read_bytes / 2**20 for c in counted] + [
        c.predicted_dram_read_bytes / 2**20 for c in counted
    ]
    lo, hi = min(values) / 1.5, max(values) * 1.5
    ax.plot([lo, hi], [lo, hi], "-", color="0.2", lw=1, label="predicted = counted")
    ax.fill_between([lo, hi], [lo * 0.85, hi * 0.85], [lo * 1.15, hi * 1.15], color="0.85", label="within 15%")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("DRAM reads counted by Nsight Compute (MiB)")
    ax.set_ylabel("DRAM reads predicted by the raster model (MiB)")
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(True, which="major", color="0.88", lw=0.6)
    ax.set_title(title, fontsize=9)
    return fig


def tflops_scatter_figure(checks: list[Any], title: str) -> Any:
    """Predicted vs measured TFLOPS per recorded kernel, one marker per CTA tile, with y = x."""
    fig = _new_figure(6.4, 5.6)
    ax = fig.add_subplot()
    done = [c for c in checks if c.predicted_tflops]
    if not done:
        raise ProblemError("plot: no record has a prediction")
    tiles = sorted({(c.record.block_m, c.record.block_n) for c in done})
    markers = ["o", "s", "^", "D", "v", "P", "X", "<"]
    for i, t in enumerate(tiles):
        sel = [c for c in done if (c.record.block_m, c.record.block_n) == t]
        ax.plot([c.record.tflops for c in sel], [c.predicted_tflops for c in sel], markers[i % len(markers)],
                color=PALETTE[i % len(PALETTE)], mfc="none" if i % 2 else None, ms=5, ls="",
                label=f"{t[0]}x{t[1]} ({len(sel)})")  # fmt: skip
    values = [c.record.tflops for c in done] + [c.predicted_tflops for c in done]
    lo, hi = min(values) / 1.2, max(values) * 1.2
    ax.plot([lo, hi], [lo, hi], "-", color="0.2", lw=1, label="predicted = measured")
    ax.fill_between([lo, hi], [lo * 0.9, hi * 0.9], [lo * 1.1, hi * 1.1], color="0.85", label="within 10%")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("measured TFLOPS")
    ax.set_ylabel("predicted TFLOPS")
    ax.legend(fontsize=7, loc="upper left", title="CTA tile", title_fontsize=7)
    ax.grid(True, color="0.88", lw=0.6)
    ax.set_title(title, fontsize=9)
    return fig
