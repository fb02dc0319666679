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
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roofmodel import units
from roofmodel.errors import ProblemError, RoofmodelError
from roofmodel.machine import Machine
from roofmodel.model.analysis import AnalysisResult, analyze
from roofmodel.model.problem import Gemm, Tile

# Okabe-Ito: distinguishable with colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
LEVEL_STYLE = {"DRAM": "-", "L2": "--", "smem": "-.", "RF": ":"}
LEVEL_MARKER = {"DRAM": "D", "L2": "s", "smem": "^", "RF": "v"}
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


@dataclass(frozen=True)
class GemmPoint:
    level: str
    intensity_flop_per_byte: float
    tflops: float
    limiting: bool


@dataclass
class RooflineData:
    """One machine's roofs (TFLOPS and GB/s at the analysis clock), ridges and the GEMM's points."""

    machine: str
    clock_mhz: float
    ceilings: list[Ceiling]
    peaks: list[Peak]
    ridges: dict[str, float]  # level -> FLOP/B where its roof meets the analysed pipe's peak
    points: list[GemmPoint]
    analysed_dtype: str
    bound_tflops: float
    notes: list[str] = field(default_factory=list)


def roofline_data(machine: Machine, result: AnalysisResult) -> RooflineData:
    """Roofs per memory level and per compute pipe, at the clock the analysis used.

    Memory roofs are the stages' bandwidths; compute roofs every pipe's peak at that clock
    (rate x 2 x SMs x clock). Ridge point of a level = analysed peak / level bandwidth. The GEMM
    appears once per level, at that level's intensity and the hierarchical bound.
    """
    clock = result.pipe.clock_mhz * 1e6
    sms = machine.sm_count.n
    ceilings = [
        Ceiling(f"{r.level} {r.bandwidth_gb_per_s:,.0f} GB/s", r.level, r.bandwidth_gb_per_s)
        for r, s in zip(result.roofs, result.stages, strict=True)
        if not s.bandwidth_assumed
    ]
    peaks = []
    for dtype, pipe in machine.compute.items():
        default = pipe.instructions[0]
        q = pipe.rate_of(default)[0].pick(result.compute_preference)
        fma = units.rate_fma_per_cycle_per_sm(q.value, q.unit, sms, clock)
        tflops = units.fma_per_cycle_per_sm_to_tflops(fma, sms, clock)
        engine = "tensor" if pipe.engine_of(default) == "tensor_core" else "CUDA core"
        peaks.append(Peak(f"{dtype} {engine} {tflops:,.1f} TFLOPS", dtype, tflops))
    # Pipes with the same peak (fp16 and bf16; fp8 and int8) share one labelled line.
    by_value: dict[float, list[Peak]] = {}
    for pk in peaks:
        by_value.setdefault(round(pk.tflops, 6), []).append(pk)
    for group in by_value.values():
        if len(group) > 1:
            names = "/".join(pk.dtype for pk in group)
            rest = group[0].label.split(" ", 1)[1]
            for pk in group:
                peaks[peaks.index(pk)] = Peak(f"{names} {rest}", pk.dtype, pk.tflops)
    peak = result.peak_tflops * 1e12
    ridges = {c.level: peak / (c.bandwidth_gb_per_s * 1e9) for c in ceilings}
    limiting_level = min(result.roofs, key=lambda r: r.bound_tflops).level
    points = [
        GemmPoint(r.level, r.intensity_flop_per_byte, result.hierarchical_bound_tflops, r.level == limiting_level)
        for r, s in zip(result.roofs, result.stages, strict=True)
        if not s.bandwidth_assumed
    ]
    notes = [f"clock {result.pipe.clock_mhz:.0f} MHz ({result.pipe.clock_origin})"]
    return RooflineData(
        machine.name,
        result.pipe.clock_mhz,
        ceilings,
        peaks,
        ridges,
        points,
        result.gemm.dtype,
        result.hierarchical_bound_tflops,
        notes,
    )


def _new_figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=150, layout="constrained")
    return fig


def roofline_figure(datas: list[RooflineData], title: str | None = None) -> Any:
    """Log-log hierarchical roofline for one or several machines.

    Memory roofs (one line style per level) run up to the analysed pipe's peak; compute roofs are
    horizontal, the analysed pipe's drawn heavier; open circles mark ridge points; filled markers
    the GEMM's intensity at each level, at the hierarchical bound (the limiting level's marker is
    filled in colour and touches its roof).
    """
    from matplotlib.lines import Line2D

    fig = _new_figure(9.0, 6.0)
    ax = fig.add_subplot()
    single = len(datas) == 1
    xs_all = [p.intensity_flop_per_byte for d in datas for p in d.points] + [
        r for d in datas for r in d.ridges.values()
    ]
    x_lo = 10 ** math.floor(math.log10(max(1e-2, min([0.5, *xs_all]) / 2)))
    x_hi = 10 ** math.ceil(math.log10(max([1e3, *xs_all]) * 3))
    drawn_peaks = [p.tflops for d in datas for p in d.peaks if single or p.dtype == d.analysed_dtype]
    y_hi = 10 ** math.ceil(math.log10(max(drawn_peaks) * (1.8 if single else 12)))
    y_lo = 10 ** math.floor(math.log10(min(*drawn_peaks, *(d.bound_tflops for d in datas)) / 30))
    roof_handles: list[Any] = []
    for i, d in enumerate(datas):
        colour = PALETTE[i % len(PALETTE)]
        short = d.machine if single else d.machine.replace("NVIDIA ", "").split()[0]
        analysed = next(p for p in d.peaks if p.dtype == d.analysed_dtype)
        for j, c in enumerate(d.ceilings):
            bw = c.bandwidth_gb_per_s / 1e3  # TFLOPS per FLOP/B
            knee = analysed.tflops / bw
            line_colour = PALETTE[j % len(PALETTE)] if single else colour
            (line,) = ax.plot(
                [x_lo, knee],
                [x_lo * bw, analysed.tflops],
                LEVEL_STYLE.get(c.level, "-"),
                color=line_colour,
                lw=1.8,
                label=(c.label if single else f"{short} {c.label}"),
            )
            roof_handles.append(line)
        drawn: set[str] = set()
        for p in d.peaks if single else [analysed]:
            main = p.dtype == d.analysed_dtype or p.label == analysed.label
            if p.label in drawn:
                continue
            drawn.add(p.label)
            ax.axhline(
                p.tflops,
                color=(colour if not single else ("0.1" if main else "0.6")),
                lw=1.8 if main else 0.8,
                ls="-" if main else (0, (4, 2)),
                zorder=1,
            )
            ax.annotate(
                p.label if single else f"{short} {p.label}",
                (x_lo, p.tflops),
                xytext=(3, 2),
                textcoords="offset points",
                ha="left",
                va="bottom",
                fontsize=7,
                color="0.1" if main else "0.45",
            )
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
        for p in d.points:
            ax.plot(
                [p.intensity_flop_per_byte],
                [p.tflops],
                LEVEL_MARKER.get(p.level, "o"),
                ms=9 if p.limiting else 6,
                mec="0.05",
                mfc=colour if p.limiting else "white",
                zorder=5,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_xlabel("arithmetic intensity at the level (FLOP per byte moved from it)")
    ax.set_ylabel("attainable throughput (TFLOPS)")
    ax.grid(True, which="major", color="0.88", lw=0.6)
    if single:
        first = ax.legend(
            handles=roof_handles, loc="lower right", fontsize=7, title="memory roofs", title_fontsize=7, framealpha=0.92
        )
    else:  # one column per level, above the roofs
        order = sorted(
            range(len(roof_handles)),
            key=lambda i: (
                list(LEVEL_STYLE).index(
                    next(lv for lv in LEVEL_STYLE if f" {lv} " in f" {roof_handles[i].get_label()} ")
                ),
                i,
            ),
        )
        first = ax.legend(
            handles=[roof_handles[i] for i in order],
            loc="upper left",
            ncol=3,
            fontsize=7,
            title="memory roofs",
            title_fontsize=7,
            framealpha=0.92,
        )
    ax.add_artist(first)
    levels = sorted({p.level for d in datas for p in d.points}, key=list(LEVEL_MARKER).index)
    point_handles = [
        Line2D([], [], ls="", marker=LEVEL_MARKER[lv], mfc="white", mec="0.05", ms=6, label=f"GEMM intensity at {lv}")
        for lv in levels
    ]
    point_handles.append(Line2D([], [], ls="", marker="o", mfc="0.4", mec="0.05", ms=8, label="limiting level"))
    point_handles.append(Line2D([], [], ls="", marker="o", mfc="white", mec="0.2", ms=5, label="ridge point (FLOP/B)"))
    ax.legend(
        handles=point_handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
        ncol=len(point_handles),
        fontsize=7,
        frameon=False,
    )
    if title is None:
        d = datas[0]
        title = (
            f"Hierarchical roofline: {d.machine}, {d.analysed_dtype} GEMM (bound {d.bound_tflops:,.0f} TFLOPS)"
            if single
            else f"Hierarchical rooflines, {d.analysed_dtype} GEMM"
        )
        title += "\n" + "; ".join(
            d.notes[0] if single else f"{d.machine.replace('NVIDIA ', '').split()[0]} at {d.clock_mhz:.0f} MHz"
            for d in datas
        )
    ax.set_title(title, fontsize=9)
    return fig


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


def save_figure(fig: Any, path: Path, fmt: str | None = None) -> Path:
    """Render fully in memory, then write atomically: a failure never leaves half a file."""
    fmt = fmt or (path.suffix.lstrip(".").lower() or "png")
    data = figure_bytes(fig, fmt)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise RoofmodelError(f"-o {path}: directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".roofmodel-", suffix=f".{fmt}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the file a normal mode
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise RoofmodelError(f"-o {path}: cannot write: {exc.strerror}") from None
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
