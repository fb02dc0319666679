"""The ``roofmodel`` command. The only module that prints, exits, or catches the library's errors.

Every failure is one line on stderr, ``roofmodel: error: ...``, and a non-zero exit (2 for bad
input); nothing is written half-way, because output is rendered in full before it is printed.
"""

from __future__ import annotations

import os

# The CLI owns its process: skip pydantic's plugin discovery (an entry-point scan through
# importlib.metadata, about 60 ms of every start). Set before anything, typer included, imports
# pydantic.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import json
import math
import sys
from enum import Enum
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from roofmodel import __version__
from roofmodel.errors import RoofmodelError

EXIT_BAD_INPUT = 2
# Usage errors: click's ClickException, which newer typer releases vendor; found through
# typer.BadParameter so that both kinds of typer install are handled.
_CLICK_EXCEPTION = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    sys.stderr.write(f"roofmodel: error: {message}\n")
    sys.exit(code)


class _OneLineErrors(TyperGroup):
    """Turns click usage errors and roofmodel errors into one line and a non-zero exit."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "roofmodel",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except _CLICK_EXCEPTION as exc:
            _fail(" ".join(exc.format_message().split()))
        except typer.Abort:
            _fail("aborted", 130)
        except RoofmodelError as exc:
            _fail(str(exc))
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    help="What it takes to make a compute-bound GPU kernel actually compute-bound.",
)


class Pick(str, Enum):
    spec = "spec"
    measured = "measured"


# Options shared by several commands, declared once.
MachineOpt = Annotated[str, typer.Option("--machine", help="Built-in name (a100, h100, t4, v100) or a YAML path.")]
MOpt = Annotated[int, typer.Option("--m", help="Rows of A and C.")]
NOpt = Annotated[int | None, typer.Option("--n", help="Columns of B and C (default: M).")]
KOpt = Annotated[int | None, typer.Option("--k", help="Inner dimension (default: M).")]
DtypeOpt = Annotated[str, typer.Option("--dtype", help="fp32, fp64, tf32, fp16, bf16, fp8, int8.")]
TileOpt = Annotated[str | None, typer.Option("--tile", help="CTA tile BMxBN or BMxBNxBK.")]
RasterOpt = Annotated[str, typer.Option("--raster", help="row, col, grouped:G, swizzle:S[:m], superm:S.")]
ClusterOpt = Annotated[str, typer.Option("--cluster", help="Thread block cluster CMxCN (Hopper).")]
OutOpt = Annotated[str, typer.Option("-o", "--output", help="File to write (.png, .svg or .pdf).")]
FormatOpt = Annotated[str | None, typer.Option("--format", help="png, svg or pdf (default: from the file name).")]
RegsOpt = Annotated[int | None, typer.Option("--regs", help="Registers per thread as compiled.")]
StagesOpt = Annotated[int, typer.Option("--stages", help="Pipeline stages of the shared-memory tile.")]
InstructionOpt = Annotated[
    str | None, typer.Option("--instruction", help="fma, mma.sync or wgmma (default: the first listed).")
]
ClockOpt = Annotated[
    str | None,
    typer.Option(
        "--clock", help="sustained, rated, boost or MHz (default: sustained where the file has it, else rated)."
    ),
]
SpaceOpt = Annotated[str, typer.Option("--space", help="all, or triton (what a Triton matmul can express).")]
ComputeOpt = Annotated[Pick, typer.Option("--compute", help="Compute rate: spec or measured.")]
AMajorOpt = Annotated[
    str, typer.Option("--a-major", help="A's contiguous dimension: k (row-major, torch's default) or m.")
]
BMajorOpt = Annotated[
    str,
    typer.Option("--b-major", help="B's contiguous dimension: n (torch.matmul of contiguous tensors) or k (w.t())."),
]


def _majors(a_major: str, b_major: str) -> tuple[str, str]:
    a, b = a_major.strip().lower(), b_major.strip().lower()
    if a not in ("k", "m"):
        raise RoofmodelError(f"--a-major: k or m (got {a_major!r})")
    if b not in ("k", "n"):
        raise RoofmodelError(f"--b-major: k or n (got {b_major!r})")
    return a, b


def _version(value: bool) -> None:
    if value:
        typer.echo(f"roofmodel {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """What it takes to make a compute-bound GPU kernel actually compute-bound."""


def _positive(name: str, value: int | None) -> None:
    if value is not None and value <= 0:
        raise RoofmodelError(f"{name}: must be a whole number > 0 (got {value})")


def _pair(text: str | None, name: str) -> tuple[int, int] | None:
    if text is None:
        return None
    from roofmodel.model.problem import Tile

    t = Tile.parse(text, name)
    if t.bk is not None:
        raise RoofmodelError(f"--{name}: expected RMxRN (got {text!r})")
    return (t.bm, t.bn)


@app.command()
def analyze(
    machine: MachineOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp32",
    tile: TileOpt = None,
    reg_tile: Annotated[
        str | None,
        typer.Option(
            "--reg-tile",
            help="Register-level tile: per thread (FFMA), warp (mma.sync), 64xN (wgmma).",
        ),
    ] = None,
    levels: Annotated[
        str | None,
        typer.Option("--levels", help="Memory levels to model, e.g. dram,smem,rf (seed 000's simple model)."),
    ] = None,
    instruction: Annotated[str | None, typer.Option("--instruction", help="fma, mma.sync or wgmma.")] = None,
    bandwidth: Annotated[
        Pick, typer.Option("--bandwidth", help="Memory bandwidths: spec or measured.")
    ] = Pick.measured,
    compute: Annotated[Pick, typer.Option("--compute", help="Compute rate: spec or measured.")] = Pick.spec,
    clock_mhz: Annotated[
        float | None,
        typer.Option("--clock-mhz", help="SM clock (default: the pipe's rated clock)."),
    ] = None,
    stages: StagesOpt = 2,
    reg_overhead: Annotated[
        int,
        typer.Option("--reg-overhead", help="Registers per thread besides the tiles (addresses, counters)."),
    ] = 16,
    acc: Annotated[str | None, typer.Option("--acc", help="Accumulator type (fp16 GEMMs: fp32 or fp16).")] = None,
    cluster: Annotated[str, typer.Option("--cluster", help="Thread block cluster CMxCN (Hopper), e.g. 2x1.")] = "1x1",
    raster: Annotated[
        str, typer.Option("--raster", help="Tile order: row, col, grouped:G, swizzle:S[:m], superm:S.")
    ] = "row",
    warps: Annotated[int | None, typer.Option("--warps", help="Warps per CTA (constrains the tiles).")] = None,
    regs: Annotated[int | None, typer.Option("--regs", help="Registers per thread as compiled, for occupancy.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """The bandwidth-amplification budget of a GEMM: reuse, tiles, rooflines, verdict."""
    result = _analysis(
        machine, m, n, k, dtype, tile, reg_tile=reg_tile, levels=levels, instruction=instruction,
        bandwidth=bandwidth, compute=compute, clock_mhz=clock_mhz, stages=stages, reg_overhead=reg_overhead,
        acc=acc, cluster=cluster, raster=raster, warps=warps, regs=regs,
    )  # fmt: skip
    if as_json:
        text = result.to_json()
    else:
        from roofmodel.render.text import render_analysis

        text = render_analysis(result)
    sys.stdout.write(text)


def _analysis(
    machine: str,
    m: int,
    n: int | None = None,
    k: int | None = None,
    dtype: str = "fp32",
    tile: str | None = None,
    *,
    reg_tile: str | None = None,
    levels: str | None = None,
    instruction: str | None = None,
    bandwidth: Pick = Pick.measured,
    compute: Pick = Pick.spec,
    clock_mhz: float | None = None,
    stages: int = 2,
    reg_overhead: int = 16,
    acc: str | None = None,
    cluster: str = "1x1",
    raster: str = "row",
    warps: int | None = None,
    regs: int | None = None,
) -> Any:
    """Validate the problem options shared by analyze and raster, and run the analysis."""
    from roofmodel.machine import load_machine
    from roofmodel.model.analysis import analyze as run_analysis
    from roofmodel.model.multicast import parse_cluster
    from roofmodel.model.problem import DTYPES, Gemm, Tile

    for name, value in (("--m", m), ("--n", n), ("--k", k)):
        _positive(name, value)
    if dtype.lower() not in DTYPES:
        raise RoofmodelError(f"--dtype: unknown dtype {dtype!r} (choose from {', '.join(DTYPES)})")
    mach = load_machine(machine)
    gemm = Gemm(m=m, n=n if n is not None else m, k=k if k is not None else m, dtype=dtype.lower(), accumulator=acc)
    return run_analysis(
        mach,
        gemm,
        tile=Tile.parse(tile) if tile else None,
        register_tile=_pair(reg_tile, "reg-tile"),
        levels=levels.split(",") if levels else None,
        instruction=instruction,
        bandwidth=bandwidth.value,  # type: ignore[arg-type]
        compute=compute.value,  # type: ignore[arg-type]
        clock_mhz=clock_mhz,
        stages=stages,
        reg_overhead=reg_overhead,
        cluster=parse_cluster(cluster),
        raster=raster,
        warps=warps,
        regs=regs,
    )


@app.command()
def machines(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the built-in machines."""
    from roofmodel.machine import MachinesDocument, builtin_machine_names, load_machine, machine_summary

    rows = [machine_summary(name, load_machine(name)) for name in builtin_machine_names()]
    if as_json:
        sys.stdout.write(MachinesDocument(machines=rows).model_dump_json(indent=2) + "\n")
        return
    rows = [r.model_dump() for r in rows]
    lines = [f"{'name':<6} {'machine':<24} {'arch':<8} {'cc':<4} {'SMs':>4}  {'figures':<40} dtypes / aliases"]
    for r in rows:
        if r["calibrated"]:
            figures = f"calibrated {r['calibrated']}: {r['measured_figures']} measured, {r['spec_figures']} spec"
        elif r["measured_figures"]:
            figures = f"{r['measured_figures']} measured (published), {r['spec_figures']} spec"
        else:
            figures = f"spec only: {r['spec_figures']} figures"
        lines.append(
            f"{r['name']:<6} {r['full_name']:<24} {r['architecture']:<8} {r['compute_capability']:<4} "
            f"{r['sm_count']:>4}  {figures:<40} {','.join(r['dtypes'])} / {','.join(r['aliases'])}"
        )
    sys.stdout.write("\n".join(lines) + "\n")


@app.command("show-machine")
def show_machine(
    name: Annotated[str, typer.Argument(help="Built-in name or path to a machine file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the validated machine as JSON.")] = False,
) -> None:
    """Print one machine with every number's unit, kind and source."""
    from roofmodel.machine import MachineDocument, load_machine
    from roofmodel.machine.summary import quantities_of
    from roofmodel.results import JSON_SCHEMA_VERSION

    mach = load_machine(name)
    data = mach.model_dump(mode="json", exclude_none=True)
    if as_json:
        doc = MachineDocument(schema_version=JSON_SCHEMA_VERSION, machine=mach)
        sys.stdout.write(doc.model_dump_json(indent=2, exclude_none=True) + "\n")
        return
    lines = [
        f"{mach.name} ({mach.architecture}, compute capability {mach.compute_capability})",
        f"file: {mach.source_file}",
    ]
    for pipe_name, pipe in mach.compute.items():
        fams = ", ".join(
            f"{i.family}{' ' + i.shape if i.shape else ''} (operands from {i.operands_from})" for i in pipe.instructions
        )
        lines.append(f"compute.{pipe_name}: {pipe.engine}; {fams}")
    if mach.cluster is not None:
        lines.append(f"cluster.tma_multicast: {mach.cluster.tma_multicast}")
    width = max(len(p) for p, _ in quantities_of(data))
    for path, q in quantities_of(data):
        lines.append(f"{path:<{width}}  {q['value']:>10g} {q['unit']:<13} {q['kind']:<8}  {q['source']}")
    sys.stdout.write("\n".join(lines) + "\n")


@app.command()
def raster(
    machine: MachineOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp32",
    tile: TileOpt = None,
    order: Annotated[str, typer.Option("--order", help="row, col, grouped:G, swizzle:S[:m], superm:S.")] = "row",
    cluster: ClusterOpt = "1x1",
    stages: StagesOpt = 2,
    warps: Annotated[int | None, typer.Option("--warps", help="Warps per CTA.")] = None,
    regs: RegsOpt = None,
    waves_shown: Annotated[int, typer.Option("--waves", help="How many waves to draw.")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Which tiles the first waves cover, their unique panels, and DRAM traffic for every order."""
    from roofmodel.model.rasterization import order_traffic, parse_order, standard_orders

    result = _analysis(
        machine, m, n, k, dtype, tile, stages=stages, cluster=cluster, raster=order, warps=warps, regs=regs
    )
    x = result.cross_sm
    g = result.gemm
    cm, cn = x.cluster
    bm, bn = result.tiles.cta[0] * cm, result.tiles.cta[1] * cn
    chosen = parse_order(order)
    common = dict(
        concurrent=x.raster.concurrent,
        m=g.m,
        n=g.n,
        k=g.k,
        bm=bm,
        bn=bn,
        input_bytes=g.input_bytes,
        output_bytes=g.output_bytes,
        l2_bytes=x.raster.l2_capacity_bytes,
        keep_waves=0,
    )
    orders = standard_orders(x.raster.tiles_m)
    if chosen.label not in [o.label for o in orders]:
        orders.insert(0, chosen)
    table = [order_traffic(o, **common) for o in orders]
    if as_json:
        from roofmodel.model.rasterization import RasterDocument

        doc = RasterDocument(
            machine=result.machine,
            gemm=result.gemm,
            tile=result.tiles.cta,
            cluster=(cm, cn),
            occupancy=x.occupancy,
            chosen=x.raster,
            orders=table,
        )
        sys.stdout.write(doc.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(_render_raster(result, table, waves_shown))


def _render_raster(result: Any, table: list[Any], waves_shown: int) -> str:
    x = result.cross_sm
    r = x.raster
    unit = "cluster" if x.cluster != (1, 1) else "CTA"
    lines = [
        f"{result.machine.name}: {result.gemm.m}x{result.gemm.n}x{result.gemm.k} {result.gemm.dtype}, tile "
        f"{result.tiles.cta[0]}x{result.tiles.cta[1]}, cluster {x.cluster[0]}x{x.cluster[1]}: "
        f"{r.tiles_m} x {r.tiles_n} {unit} tiles, {r.concurrent} at a time "
        f"({x.occupancy.ctas_per_sm} CTA/SM), {r.waves} waves",
        f"order {r.order}; cache model: {r.cache_assumption}",
        "",
    ]
    for wv in r.first_waves[:waves_shown]:
        lines.append(
            f"wave {wv.wave}: {wv.tiles} tiles, {wv.unique_a_panels} distinct A panels + {wv.unique_b_panels} "
            f"distinct B panels; sharing x{wv.sharing_factor:.2f}; footprint {wv.footprint_bytes / 2**20:.1f} MiB; "
            f"DRAM reads {wv.dram_read_bytes / 2**20:.1f} MiB"
        )
    if r.tiles_m <= 64 and r.tiles_n <= 96 and r.first_waves:
        grid = [["." for _ in range(r.tiles_n)] for _ in range(r.tiles_m)]
        for wv in r.first_waves[:waves_shown]:
            for row, col in zip(wv.tile_rows, wv.tile_cols, strict=True):
                grid[row][col] = str(wv.wave % 10)
        lines.append("tile grid (rows = M tiles, columns = N tiles; digit = wave, '.' = later):")
        lines += ["  " + "".join(row) for row in grid]
    lines.append("")
    head = f"{'order':<14}{'DRAM reads':>12}{'x compulsory':>14}{'writes':>10}{'L2 sharing':>12}{'per wave':>10}"
    lines.append(head)
    for t in table:
        mark = " <-" if t.order == r.order else ""
        lines.append(
            f"{t.order:<14}{t.dram_read_bytes / 2**20:>9.0f} MiB{t.dram_read_bytes / t.compulsory_read_bytes:>14.2f}"
            f"{t.dram_write_bytes / 2**20:>6.0f} MiB{t.sharing_factor:>12.2f}{t.mean_wave_sharing_factor:>10.2f}{mark}"
        )
    lines.append(f"compulsory reads {r.compulsory_read_bytes / 2**20:.0f} MiB ({r.compulsory_read_bytes:.0f} B)")
    return "\n".join(lines) + "\n"


plot_app = typer.Typer(
    help="Pictures: rooflines, the amplification budget, the tile map, raster waves.", no_args_is_help=True
)
app.add_typer(plot_app, name="plot")


def _write_plot(fig: Any, output: str, fmt: str | None) -> None:
    from pathlib import Path

    from roofmodel.render.plots import FORMATS, save_figure

    path = Path(output)
    chosen = (fmt or path.suffix.lstrip(".")).lower()
    if chosen not in FORMATS:
        raise RoofmodelError(f"-o {output}: cannot tell the format; use .png, .svg or .pdf or --format")
    save_figure(fig, path, chosen)
    sys.stdout.write(f"wrote {path}\n")


def _plot_analysis(
    machine: str,
    m: int,
    n: int | None,
    k: int | None,
    dtype: str,
    tile: str | None,
    raster: str = "row",
    cluster: str = "1x1",
) -> Any:
    return _analysis(machine, m, n, k, dtype, tile, cluster=cluster, raster=raster)


@plot_app.command("roofline")
def plot_roofline(
    machine: MachineOpt,
    m: MOpt,
    output: OutOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    tile: TileOpt = None,
    raster: RasterOpt = "grouped:8",
    fmt: FormatOpt = None,
) -> None:
    """Hierarchical roofline: a roof per memory level and compute pipe, ridge points, the GEMM at each level.

    --machine takes several machines separated by commas (a100,h100,t4,v100) to draw them on one plot.
    """
    from roofmodel.machine import load_machine
    from roofmodel.render.plots import roofline_data, roofline_figure

    names = [x for x in machine.split(",") if x.strip()]
    if not names:
        raise RoofmodelError("--machine: give at least one machine")
    datas = []
    for name in names:
        result = _plot_analysis(name.strip(), m, n, k, dtype, tile if len(names) == 1 else None, raster)
        datas.append(roofline_data(load_machine(name.strip()), result))
    _write_plot(roofline_figure(datas), output, fmt)


@plot_app.command("budget")
def plot_budget(
    machine: MachineOpt,
    m: MOpt,
    output: OutOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    tile: TileOpt = None,
    raster: RasterOpt = "grouped:8",
    cluster: ClusterOpt = "1x1",
    fmt: FormatOpt = None,
) -> None:
    """The amplification budget per stage: raw bandwidth, tiling, cross-SM sharing, shortfall."""
    from roofmodel.render.plots import budget_figure

    _write_plot(budget_figure(_plot_analysis(machine, m, n, k, dtype, tile, raster, cluster)), output, fmt)


@plot_app.command("tiles")
def plot_tiles(
    machine: MachineOpt,
    m: MOpt,
    output: OutOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    raster: RasterOpt = "grouped:8",
    fmt: FormatOpt = None,
) -> None:
    """A BM x BN map of the bound and the limiting stage; tiles that do not fit are hatched."""
    from roofmodel.machine import load_machine
    from roofmodel.render.plots import tile_map_data, tiles_figure

    probe = _plot_analysis(machine, m, n, k, dtype, None, raster)  # validates every option first
    mach = load_machine(machine)
    g = probe.gemm
    from roofmodel.model.problem import Gemm

    data = tile_map_data(mach, Gemm(m=g.m, n=g.n, k=g.k, dtype=g.dtype), raster=raster)
    title = f"{mach.name}: {g.m}x{g.n}x{g.k} {g.dtype}, raster {raster}\nbound / peak and limiting stage per CTA tile"
    _write_plot(tiles_figure(data, title), output, fmt)


@plot_app.command("raster")
def plot_raster(
    machine: MachineOpt,
    m: MOpt,
    output: OutOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    tile: TileOpt = None,
    order: Annotated[str, typer.Option("--order", help="row, col, grouped:G, swizzle:S[:m], superm:S.")] = "grouped:8",
    cluster: ClusterOpt = "1x1",
    waves_shown: Annotated[int, typer.Option("--waves")] = 3,
    fmt: FormatOpt = None,
) -> None:
    """The tile-to-wave assignment of the first waves for an order, with distinct panels per wave."""
    from roofmodel.render.plots import raster_figure

    if waves_shown < 1:
        raise RoofmodelError(f"--waves: must be >= 1 (got {waves_shown})")
    result = _plot_analysis(machine, m, n, k, dtype, tile, order, cluster)
    _write_plot(raster_figure(result, waves_shown), output, fmt)


@app.command()
def calibrate(
    machine: Annotated[str, typer.Option("--machine", help="The built-in machine the overlay starts from.")],
    output: Annotated[str, typer.Option("-o", "--output", help="Overlay YAML to write.")],
) -> None:
    """Measure the ceilings on this GPU and write a machine-file overlay marked as measured."""
    from pathlib import Path

    import yaml

    from roofmodel.backends import require_gpu
    from roofmodel.machine import load_machine

    base = load_machine(machine)  # a bad name fails before any GPU work
    path = Path(output)
    if not path.parent.is_dir():
        raise RoofmodelError(f"-o {output}: directory {path.parent} does not exist")
    require_gpu()
    from roofmodel.backends.microbench import calibrate as run_calibration

    overlay, prov = run_calibration(machine)
    header = f"# Written by roofmodel calibrate: measured ceilings of {prov.device} over {base.name}.\n"
    text = header + yaml.safe_dump(overlay, sort_keys=False, width=200)
    load_check = Path(str(path) + ".tmp")
    load_check.write_text(text)
    try:
        load_machine(load_check)  # never leave an overlay that does not load
        load_check.replace(path)
    finally:
        load_check.unlink(missing_ok=True)
    sys.stdout.write(text)


@app.command()
def measure(
    machine: Annotated[str, typer.Option("--machine", help="Machine file to hold the kernel to.")],
    m: MOpt,
    tile: Annotated[str, typer.Option("--tile", help="BLOCK_M x BLOCK_N x BLOCK_K.")],
    n: NOpt = None,
    k: KOpt = None,
    dtype: Annotated[str, typer.Option("--dtype", help="fp16, bf16, tf32 or fp32 (CUDA cores).")] = "fp16",
    group_m: Annotated[int, typer.Option("--group-m", help="Triton GROUP_M (1: row-major).")] = 8,
    warps: Annotated[int, typer.Option("--warps", help="num_warps.")] = 4,
    stages: Annotated[int, typer.Option("--stages", help="num_stages.")] = 3,
    ncu: Annotated[bool, typer.Option("--ncu", help="Count DRAM bytes with Nsight Compute.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record as JSON.")] = False,
) -> None:
    """Time one Triton GEMM configuration and hold it to the model (bounds and DRAM bytes)."""
    from roofmodel.backends import require_gpu
    from roofmodel.backends.records import GemmRecord, predict_dram_traffic
    from roofmodel.machine import load_machine
    from roofmodel.model.problem import Tile

    mach = load_machine(machine)
    t = Tile.parse(tile)
    if t.bk is None:
        raise RoofmodelError(f"--tile: give BLOCK_K too, e.g. {t.bm}x{t.bn}x64")
    if dtype not in ("fp16", "bf16", "tf32", "fp32"):
        raise RoofmodelError(f"--dtype: the Triton kernel runs fp16, bf16, tf32 or fp32 (got {dtype!r})")
    for name, value in (
        ("--m", m),
        ("--n", n),
        ("--k", k),
        ("--group-m", group_m),
        ("--warps", warps),
        ("--stages", stages),
    ):
        _positive(name, value)
    require_gpu()
    from roofmodel.backends import ncu as ncu_mod
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.triton_gemm import run_config

    n = n or m
    k = k or m
    cfg = dict(
        dtype=dtype, block_m=t.bm, block_n=t.bn, block_k=t.bk, group_m=group_m, num_warps=warps, num_stages=stages
    )
    sampler = ClockSampler()
    with sampler.running():
        got = run_config(m, n, k, **cfg)
    counters: dict[str, float] = {}
    if ncu:
        if not ncu_mod.available():
            raise RoofmodelError("--ncu: Nsight Compute (ncu) is not on the PATH")
        counters = ncu_mod.count_gemm({"m": m, "n": n, "k": k, **cfg})
    record = GemmRecord(
        m=m,
        n=n,
        k=k,
        **cfg,
        registers_per_thread=got["registers_per_thread"],
        shared_bytes=got["shared_bytes"],
        time_ms=got["time_ms"],
        tflops=got["tflops"],
        rel_error=got["rel_error"],
        dram_read_bytes=counters.get("dram__bytes_read.sum"),
        dram_write_bytes=counters.get("dram__bytes_write.sum"),
        l2_hit_rate_pct=counters.get("lts__t_sector_hit_rate.pct"),
    )
    pred = predict_dram_traffic(mach, record)
    prov = collect(sampler.samples)
    if as_json:
        from roofmodel.backends.records import MeasureDocument

        doc = MeasureDocument(record=record, model=pred, provenance=prov)
        sys.stdout.write(doc.model_dump_json(indent=2) + "\n")
        return
    lines = [
        f"{prov.device}: {m}x{n}x{k} {dtype}, tile {t.bm}x{t.bn}x{t.bk}, GROUP_M {group_m}, {warps} warps, "
        f"{stages} stages ({record.registers_per_thread} regs, {record.shared_bytes} B smem)",
        f"measured {record.time_ms:.4f} ms = {record.tflops:.1f} TFLOPS (relative error {record.rel_error:.2g}); "
        f"SM clock median {prov.sm_clock_mhz_median or float('nan'):.0f} MHz",
        f"model: {pred['ctas_per_sm']} CTA/SM, {pred['waves']} waves; DRAM reads predicted "
        f"{pred['dram_read_bytes'] / 2**20:.1f} MiB, writes {pred['dram_write_bytes'] / 2**20:.1f} MiB",
    ]
    if record.dram_read_bytes is not None:
        lines.append(
            f"counted (ncu): DRAM reads {record.dram_read_bytes / 2**20:.1f} MiB, writes "
            f"{(record.dram_write_bytes or 0) / 2**20:.1f} MiB, L2 hit rate {record.l2_hit_rate_pct:.1f}%"
        )
    sys.stdout.write("\n".join(lines) + "\n")


@app.command()
def sweep(
    out: Annotated[str, typer.Option("--out", help="Directory for gemm.csv and provenance.json (resumed if there).")],
    quick: Annotated[bool, typer.Option("--quick", help="3 shapes x 3 tiles instead of the full grid.")] = False,
    ncu: Annotated[bool, typer.Option("--ncu", help="Count DRAM bytes of every kernel with Nsight Compute.")] = False,
    budget_s: Annotated[float, typer.Option("--budget-s", help="Stop timing after this many seconds.")] = 1e9,
    dtype: Annotated[str, typer.Option("--dtype", help="fp16, bf16, tf32 or fp32 (CUDA cores).")] = "fp16",
) -> None:
    """Time (and count) a grid of Triton GEMM configurations over several shapes; resumable."""
    if dtype not in ("fp16", "bf16", "tf32", "fp32"):
        raise RoofmodelError(f"--dtype: the Triton kernel runs fp16, bf16, tf32 or fp32 (got {dtype!r})")
    from pathlib import Path

    from roofmodel.backends import require_gpu

    path = Path(out)
    if path.exists() and not path.is_dir():
        raise RoofmodelError(f"--out {out}: exists and is not a directory")
    require_gpu()
    from roofmodel.backends.provenance import ClockSampler, collect
    from roofmodel.backends.sweep import grid, run

    path.mkdir(parents=True, exist_ok=True)
    sampler = ClockSampler()
    with sampler.running():
        records = run(path, grid(dtype=dtype, quick=quick), with_ncu=ncu, budget_s=budget_s)
    (path / "provenance.json").write_text(collect(sampler.samples).model_dump_json(indent=2) + "\n")
    sys.stdout.write(f"{len(records)} records in {path / 'gemm.csv'}\n")


@app.command()
def validate(
    results: Annotated[str, typer.Argument(help="A sweep directory (gemm.csv, provenance.json) or a gemm.csv.")],
    machine: Annotated[str, typer.Option("--machine", help="Machine file to hold the measurements to.")] = "h100",
    report: Annotated[str | None, typer.Option("--report", help="Write the Markdown report here.")] = None,
    png: Annotated[str | None, typer.Option("--png", help="Write the DRAM predicted-vs-counted scatter here.")] = None,
    png_tflops: Annotated[
        str | None, typer.Option("--png-tflops", help="Write the TFLOPS predicted-vs-measured scatter here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the validation as JSON.")] = False,
    clock: Annotated[
        float | None, typer.Option("--clock", help="Broad sweep: the SM clock (MHz) the kernels ran at.")
    ] = None,
) -> None:
    """Compare the model with a sweep's measurements: DRAM bytes, bounds, and the order it picks; for a
    broad sweep (a directory with broad.csv), the per-CTA time model per split, dtype and shape family."""
    from pathlib import Path

    from roofmodel.backends.records import read_csv
    from roofmodel.backends.validation import report_markdown
    from roofmodel.backends.validation import validate as run_validation
    from roofmodel.machine import load_machine

    src = Path(results)
    if (src / "broad.csv").is_file() if src.is_dir() else src.name == "broad.csv":
        _validate_broad(src / "broad.csv" if src.is_dir() else src, machine, clock, report, as_json)
        return
    csv_path = src / "gemm.csv" if src.is_dir() else src
    if not csv_path.is_file():
        raise RoofmodelError(f"{results}: no gemm.csv there")
    prov_path = csv_path.parent / "provenance.json"
    provenance = json.loads(prov_path.read_text()) if prov_path.is_file() else None
    try:
        records = read_csv(csv_path)
    except (ValueError, KeyError) as exc:
        raise RoofmodelError(f"{csv_path}: not a roofmodel gemm.csv: {exc}") from None
    if not records:
        raise RoofmodelError(f"{csv_path}: no records")
    v = run_validation(load_machine(machine), records)
    text = report_markdown(v, provenance)
    if png:
        from roofmodel.render.plots import save_figure, traffic_scatter_figure

        save_figure(traffic_scatter_figure(v.checks, f"DRAM reads, {v.machine}: model vs Nsight Compute"), Path(png))
    if png_tflops:
        from roofmodel.render.plots import save_figure, tflops_scatter_figure

        fig = tflops_scatter_figure(v.checks, f"Triton GEMMs on {v.machine}: predicted vs measured")
        save_figure(fig, Path(png_tflops))
    if report:
        Path(report).write_text(text)
    sys.stdout.write(v.model_dump_json(indent=2) + "\n" if as_json else text)


def _validate_broad(csv_path: Any, machine: str, clock: float | None, report: str | None, as_json: bool) -> None:
    from roofmodel.backends.broad import evaluate, figures, read_broad_csv, report_markdown
    from roofmodel.machine import load_machine

    if clock is not None and not (math.isfinite(clock) and clock > 0):
        raise RoofmodelError(f"--clock: must be a finite number of MHz > 0 (got {clock})")
    records = read_broad_csv(csv_path)
    if not records:
        raise RoofmodelError(f"{csv_path}: no timed records")
    mach = load_machine(machine)
    mhz = clock if clock is not None else (mach.clocks.sustained or mach.clocks.boost).hz / 1e6
    prov = csv_path.parent / "provenance.json"
    source = f"{csv_path.parent.name}/{csv_path.name}"
    if prov.is_file():
        try:
            p = json.loads(prov.read_text())
            source += f" ({p['device']}, triton {p['triton']}, torch {p['torch']}, {p['date']})"
        except (ValueError, KeyError, TypeError):
            raise RoofmodelError(f"{prov}: not a provenance file (device, triton, torch, date)") from None
    if as_json:
        rows = evaluate(mach, records, mhz)
        splits = {s: {m: figures([r for r in rows if r.record.split == s], m) for m in ("cta", "predict", "naive")}
                  for s in ("holdout", "train")}  # fmt: skip
        sys.stdout.write(json.dumps({"machine": mach.name, "clock_mhz": mhz, "splits": splits}, indent=2) + "\n")
        return
    command = f"roofmodel validate {csv_path.parent} --machine {machine}" + (f" --clock {clock:g}" if clock else "")
    text = report_markdown(mach, records, mhz, source, command + (f" --report {report}" if report else ""))
    if report:
        from pathlib import Path

        Path(report).write_text(text)
    sys.stdout.write(text)


@app.command()
def predict(
    machine: Annotated[str, typer.Option("--machine", help="Built-in name or YAML path (a calibrated overlay).")],
    m: MOpt,
    tile: Annotated[str, typer.Option("--tile", help="CTA tile BMxBNxBK.")],
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    kernel: Annotated[
        str,
        typer.Option(
            "--kernel",
            help="triton (Triton's instruction and warp-layout rules; --raster grouped:G is GROUP_M), cutlass "
            "(the CUTLASS sm90 warp-specialized kernel, else sm80 multistage, else SIMT), or stated "
            "(the default: the instruction the tile admits, or --instruction).",
        ),
    ] = "stated",
    raster: Annotated[str, typer.Option("--raster", help="row, col, grouped:G, swizzle:S[:m], superm:S.")] = "row",
    cluster: ClusterOpt = "1x1",
    stages: Annotated[int, typer.Option("--stages", help="Pipeline stages.")] = 3,
    warps: Annotated[int | None, typer.Option("--warps", help="Warps per CTA (the kernel's num_warps).")] = None,
    regs: RegsOpt = None,
    spilled: Annotated[
        int | None, typer.Option("--spilled", help="Registers per thread spilled as compiled (with --regs).")
    ] = None,
    a_major: AMajorOpt = "k",
    b_major: BMajorOpt = "n",
    compute: Annotated[Pick, typer.Option("--compute", help="Compute rate: spec or measured.")] = Pick.spec,
    reg_tile: Annotated[
        str | None, typer.Option("--reg-tile", help="Register-level tile: per thread (FFMA), warp, or 64xN.")
    ] = None,
    instruction: InstructionOpt = None,
    clock: ClockOpt = None,
    persistent: Annotated[
        bool, typer.Option("--persistent", help="A persistent kernel: each SM pays the prologue and epilogue once.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the prediction as JSON.")] = False,
) -> None:
    """Predicted time and TFLOPS of one kernel by the per-CTA model, with every term named."""
    from roofmodel.machine import load_machine
    from roofmodel.model.kernel import cutlass_config, generic_config, triton_config
    from roofmodel.model.multicast import parse_cluster
    from roofmodel.model.prediction import predict_kernel
    from roofmodel.model.problem import DTYPES, Gemm, Tile
    from roofmodel.model.rasterization import parse_order

    for name, value in (("--m", m), ("--n", n), ("--k", k), ("--stages", stages), ("--warps", warps)):
        _positive(name, value)
    if spilled is not None and (spilled < 0 or regs is None):
        raise RoofmodelError("--spilled: give it with --regs, as a whole number >= 0")
    if dtype not in DTYPES:
        raise RoofmodelError(f"--dtype: unknown dtype {dtype!r} (choose from {', '.join(DTYPES)})")
    am, bmj = _majors(a_major, b_major)
    t = Tile.parse(tile)
    if t.bk is None:
        raise RoofmodelError(f"--tile: give BK too, e.g. {t.bm}x{t.bn}x64")
    mach = load_machine(machine)
    cl = parse_cluster(cluster)
    order = parse_order(raster)
    kind = kernel.strip().lower()
    if kind == "triton":
        if cl != (1, 1) or persistent or reg_tile or instruction:
            raise RoofmodelError("--kernel triton: the Triton tutorial kernel takes no --cluster, --persistent, "
                                 "--reg-tile or --instruction (Triton's rules pick them)")  # fmt: skip
        if order.kind not in ("row", "grouped"):
            raise RoofmodelError(f"--kernel triton: --raster row or grouped:G (GROUP_M), not {raster!r}")
        group = 1 if order.kind == "row" else order.size
        cfg = triton_config(mach, dtype, block_m=t.bm, block_n=t.bn, block_k=t.bk, group_m=group,
                            num_warps=warps or 4, num_stages=stages)  # fmt: skip
    elif kind == "cutlass":
        if warps or instruction:
            raise RoofmodelError("--kernel cutlass: CUTLASS's kernel sets the warps and instruction (--reg-tile: "
                                 "the sm80/SIMT warp tile)")  # fmt: skip
        have = {i.family for i in mach.pipe(dtype).instructions}
        variant = "sm90" if "wgmma" in have else "sm80" if "mma.sync" in have else "simt"
        swizzle = order.size if order.kind == "swizzle" else 1
        cfg = cutlass_config(mach, dtype, kind=variant, tile=(t.bm, t.bn, t.bk), stages=stages, cluster=cl,
                             swizzle=swizzle, warp_tile=_pair(reg_tile, "reg-tile"))  # type: ignore[arg-type]  # fmt: skip
    elif kind == "stated":
        cfg = generic_config(mach, dtype, tile=t, warps=warps, stages=stages, instruction=instruction,
                             register_tile=_pair(reg_tile, "reg-tile"), cluster=cl, raster=raster,
                             persistent=persistent)  # fmt: skip
    else:
        raise RoofmodelError(f"--kernel: triton, cutlass or stated (got {kernel!r})")
    g = Gemm(m=m, n=n or m, k=k or m, dtype=dtype)
    p = predict_kernel(mach, g, cfg, a_major=am, b_major=bmj, regs=regs, spilled=spilled,
                       compute=compute.value, clock=clock)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(p.model_dump_json(indent=2) + "\n")
        return
    spill = f", {p.spilled_registers} spilled" if p.spilled_registers else ""
    lines = [
        f"{mach.name}: {g.m}x{g.n}x{g.k} {dtype}, A {am}-major, B {bmj}-major; kernel {p.kernel}",
        f"  ({p.kernel_origin})",
        f"{p.registers_per_thread} registers per thread{spill} ({p.registers_origin}), {p.shared_bytes:,} B shared "
        f"memory, {p.ctas_per_sm} CTA/SM (limited by {p.occupancy_limiter})",
        f"clock {p.clock_mhz:.0f} MHz: {p.clock_origin}",
        f"predicted {p.seconds * 1e3:.4f} ms = {p.tflops:,.1f} TFLOPS, limited by {p.limiter} "
        f"(busiest SM {p.sm_seconds * 1e3:.4f} ms)",
        "what the time is made of, each as if it were alone, largest first:",
    ]
    for term in p.terms:
        lines.append(f"  {term.name:<17} {term.seconds * 1e3:9.4f} ms  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in p.inputs))
    sys.stdout.write("\n".join(lines) + "\n")


@app.command()
def rank(
    machine: MachineOpt,
    configs: Annotated[str, typer.Option("--configs", help="CSV or YAML of Triton configurations (see the README).")],
    m: Annotated[int | None, typer.Option("--m", help="Rows of A and C (else each row's own m).")] = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: Annotated[str | None, typer.Option("--dtype", help="Element type (else each row's own).")] = None,
    a_major: Annotated[str | None, typer.Option("--a-major", help="k or m (else each row's own, else k).")] = None,
    b_major: Annotated[str | None, typer.Option("--b-major", help="n or k (else each row's own, else n).")] = None,
    compute: ComputeOpt = Pick.spec,
    clock: ClockOpt = None,
    top: Annotated[int | None, typer.Option("--top", help="Print only the first N of each problem.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ranking as JSON.")] = False,
) -> None:
    """Rank a file of candidate configurations by predicted time, with the measured figure beside it."""
    from pathlib import Path

    from roofmodel.machine import load_machine
    from roofmodel.search.ranking import rank_configs, read_configs

    _positive("--top", top)
    g = None
    if m is not None:
        g = _gemm(m, n, k, dtype or "fp16")
    elif n is not None or k is not None or dtype is not None:
        raise RoofmodelError("--n, --k and --dtype go with --m (else every row gives its own problem)")
    am, bmj = _majors(a_major or "k", b_major or "n")
    mach = load_machine(machine)
    rows = read_configs(Path(configs))
    r = rank_configs(mach, rows, gemm=g, a_major=am if a_major else None, b_major=bmj if b_major else None,
                     compute=compute.value, clock=clock, source=configs)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(r.model_dump_json(indent=2) + "\n")
        return
    lines = [f"{r.machine}: {r.configs} configurations from {r.source}, {r.problems} problem(s), fastest first"]
    head = f"{'#':>4} {'row':>5}  {'configuration':<44} {'ms':>9} {'TFLOPS':>8}  {'limited by':<17} {'regs':>9}"
    prev = None
    for x in r.ranked:
        if top is not None and x.rank > top:
            continue
        if x.gemm != prev:
            lines += [x.gemm, head + ("  measured TFLOPS, error" if x.measured_seconds else "")]
            prev = x.gemm
        regs = f"{x.registers_per_thread}" + (f"+{x.spilled_registers}" if x.spilled_registers else "")
        meas = (
            f"  {x.measured_tflops:8.1f} {x.error_pct:+6.1f}%" if x.measured_tflops and x.error_pct is not None else ""
        )
        lines.append(f"{x.rank:>4} {x.row:>5}  {x.config:<44} {x.seconds * 1e3:9.4f} {x.tflops:8.1f}  "
                     f"{x.limiter:<17} {regs:>9}{meas}")  # fmt: skip
    if r.spearman is not None:
        lines.append(f"Spearman (predicted vs measured time) {r.spearman:.2f}; the measured fastest is ranked "
                     f"{r.best_measured_rank}; the first runs at {r.first_over_best:.0%} of the fastest's speed")  # fmt: skip
    sys.stdout.write("\n".join(lines) + "\n")


def _gemm(m: int, n: int | None, k: int | None, dtype: str) -> Any:
    from roofmodel.model.problem import DTYPES, Gemm

    for name, value in (("--m", m), ("--n", n), ("--k", k)):
        _positive(name, value)
    if dtype not in DTYPES:
        raise RoofmodelError(f"--dtype: unknown dtype {dtype!r} (choose from {', '.join(DTYPES)})")
    return Gemm(m=m, n=n or m, k=k or m, dtype=dtype)


@app.command()
def tune(
    machine: MachineOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    top: Annotated[int, typer.Option("--top", help="How many configurations to list.")] = 10,
    space: SpaceOpt = "all",
    instruction: InstructionOpt = None,
    compute: ComputeOpt = Pick.spec,
    clock: ClockOpt = None,
    a_major: AMajorOpt = "k",
    b_major: BMajorOpt = "n",
    as_json: Annotated[bool, typer.Option("--json", help="Print the ranking as JSON.")] = False,
) -> None:
    """Rank every configuration that fits by predicted time; say why the first wins."""
    from roofmodel.machine import load_machine
    from roofmodel.search.space import space_named, tune_report

    _positive("--top", top)
    g = _gemm(m, n, k, dtype)
    am, bmj = _majors(a_major, b_major)
    rep = tune_report(load_machine(machine), g, space_named(space), top=top, compute=compute.value,  # type: ignore[arg-type]
                      clock=clock, instruction=instruction, a_major=am, b_major=bmj)  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    lines = [
        f"{rep.machine}: {rep.gemm} (A {rep.a_major}-major, B {rep.b_major}-major), space {rep.space}: "
        f"{rep.considered:,} configurations, {rep.feasible:,} fit; "
        f"{rep.evaluated_exactly:,} evaluated exactly ({rep.raster_keys} raster-model keys), the rest bounded out",
        f"clock {rep.clock_mhz:.0f} MHz: {rep.clock_origin}",
        f"{'#':>3}  {'configuration':<58} {'ms':>9} {'TFLOPS':>8}  {'limited by':<14} against the first",
    ]
    for r in rep.top:
        lines.append(
            f"{r.rank:>3}  {r.config.label():<58} {r.seconds * 1e3:9.4f} {r.tflops:8.1f}  {r.limiter:<14} {r.note}"
        )
    lines.append(f"why: {rep.why}")
    lines.append("what the first's time is made of, each as if it were alone, largest first:")
    for term in rep.winner.terms:
        lines.append(f"  {term.name:<17} {term.seconds * 1e3:9.4f} ms  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in rep.inputs))
    sys.stdout.write("\n".join(lines) + "\n")


@app.command()
def explore(
    machine: MachineOpt,
    m: MOpt,
    vary: Annotated[list[str], typer.Option("--vary", help="NAME=LOW:HIGH, repeatable (e.g. smem_bandwidth=64:512).")],
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = "fp16",
    steps: Annotated[int, typer.Option("--steps", help="Values per parameter, geometric from LOW to HIGH.")] = 5,
    space: SpaceOpt = "all",
    compute: ComputeOpt = Pick.spec,
    clock: ClockOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the exploration as JSON.")] = False,
) -> None:
    """Fix the dataflow, search the hardware: the best configuration as machine parameters vary."""
    from roofmodel.machine import load_machine
    from roofmodel.search.space import explore as run_explore
    from roofmodel.search.space import parse_vary, space_named

    g = _gemm(m, n, k, dtype)
    varies = [parse_vary(v) for v in vary]
    rep = run_explore(load_machine(machine), g, varies, steps=steps, space=space_named(space),
                      compute=compute.value, clock=clock)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    lines = [
        f"{rep.machine}: {rep.gemm}, space {rep.space}; kernel held fixed ({rep.kernel_origin}): {rep.kernel.label()}"
    ]
    for name in dict.fromkeys(p.parameter for p in rep.points):
        pts = [p for p in rep.points if p.parameter == name]
        lines.append(f"{name} ({pts[0].unit}):")
        lines.append(
            f"  {'value':>10}  {'best configuration':<58} {'TFLOPS':>8}  {'limited by':<14} {'fixed kernel':>12}"
        )
        for p in pts:
            kt = f"{p.kernel_tflops:8.1f} ({p.kernel_limiter})" if p.kernel_tflops is not None else "does not fit"
            lines.append(f"  {p.value:10,.4g}  {p.best:<58} {p.best_tflops:8.1f}  {p.best_limiter:<14} {kt}")
    lines.append("sensitivity of the fixed kernel's time at the base machine (d ln time / d ln parameter, +10%):")
    for sv in rep.sensitivity:
        lines.append(f"  {sv.parameter:<26} {sv.elasticity:+.3f}  (base {sv.base_value:,.4g} {sv.unit})")
    lines.append(f"most sensitive to: {rep.most_sensitive}")
    sys.stdout.write("\n".join(lines) + "\n")


def main() -> None:
    """Console-script entry point."""
    app()
