"""``roofmodel plot ...``: rooflines, the amplification budget, the tile map, raster waves."""

from __future__ import annotations

import sys
from typing import Any

import typer

from roofmodel import defaults
from roofmodel.cli.commands.analysis import gemm_of, run_analysis
from roofmodel.cli.options import (
    DEFAULT_CLUSTER,
    BandwidthOpt,
    ClockOpt,
    ClusterOpt,
    ComputeOpt,
    DtypeOpt,
    FormatOpt,
    KOpt,
    MachineOpt,
    MOpt,
    NOpt,
    OldOrderOpt,
    OldOutOpt,
    OutOpt,
    RasterOpt,
    StagesOpt,
    TileOpt,
    WavesOpt,
    merged,
    out_path,
)
from roofmodel.cli.output import Outputs, figure_format

plot_app = typer.Typer(
    help="Pictures: rooflines, the amplification budget, the tile map, raster waves.",
    no_args_is_help=True,
    suggest_commands=False,
)


class Figure:
    """Where a figure goes (-o/--out, --format), checked before any drawing; ``write`` saves it."""

    def __init__(self, out: str | None, old_out: str | None, fmt: str | None) -> None:
        path, self.option = out_path(out, old_out, "the file to write: .png, .svg or .pdf")
        self.format = figure_format(path, self.option, fmt)
        self.outputs = Outputs()
        self.path = self.outputs.add(self.option, path)

    def write(self, fig: Any) -> None:
        from roofmodel.render.plots import figure_bytes

        self.outputs.put(self.path, figure_bytes(fig, self.format))
        self.outputs.write()
        sys.stdout.write(f"wrote {self.path}\n")


@plot_app.command("roofline")
def plot_roofline(
    machine: MachineOpt,
    m: MOpt,
    out: OutOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    tile: TileOpt = None,
    raster: RasterOpt = defaults.RASTER,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    fmt: FormatOpt = None,
    output: OldOutOpt = None,
) -> None:
    """Hierarchical roofline: a roof per memory level and compute pipe, ridge points, the GEMM at each level.

    --machine takes several machines separated by commas (a100,h100,t4,v100) to draw them on one plot.
    """
    from roofmodel.machine import load_machine
    from roofmodel.render.plots import roofline_data, roofline_figure

    target = Figure(out, output, fmt)
    names = machine.split(",")  # options.machine has refused empty names
    g = gemm_of(m, n, k, dtype)
    datas = []
    for name in names:
        mach = load_machine(name)
        result = run_analysis(mach, g, tile=tile if len(names) == 1 else None, raster=raster, cluster=cluster,
                              stages=stages, bandwidth=bandwidth, compute=compute, clock=clock)  # fmt: skip
        datas.append(roofline_data(mach, result, clock=clock))
    target.write(roofline_figure(datas))


@plot_app.command("budget")
def plot_budget(
    machine: MachineOpt,
    m: MOpt,
    out: OutOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    tile: TileOpt = None,
    raster: RasterOpt = defaults.RASTER,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    fmt: FormatOpt = None,
    output: OldOutOpt = None,
) -> None:
    """The amplification budget per stage: raw bandwidth, tiling, cross-SM sharing, shortfall."""
    from roofmodel.machine import load_machine
    from roofmodel.render.plots import budget_figure

    target = Figure(out, output, fmt)
    result = run_analysis(load_machine(machine), gemm_of(m, n, k, dtype), tile=tile, raster=raster, cluster=cluster,
                          stages=stages, bandwidth=bandwidth, compute=compute, clock=clock)  # fmt: skip
    target.write(budget_figure(result))


@plot_app.command("tiles")
def plot_tiles(
    machine: MachineOpt,
    m: MOpt,
    out: OutOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    raster: RasterOpt = defaults.RASTER,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    fmt: FormatOpt = None,
    output: OldOutOpt = None,
) -> None:
    """A BM x BN map of the bound and the limiting stage; tiles that do not fit are hatched."""
    from roofmodel.machine import load_machine
    from roofmodel.model.multicast import parse_cluster
    from roofmodel.render.plots import tile_map_data, tiles_figure

    target = Figure(out, output, fmt)
    mach, g = load_machine(machine), gemm_of(m, n, k, dtype)
    options = dict(raster=raster, stages=stages, bandwidth=bandwidth, compute=compute, clock=clock)
    run_analysis(mach, g, tile=None, cluster=cluster, **options)  # every option checked before the map
    data = tile_map_data(mach, g, cluster=parse_cluster(cluster), **options)
    title = f"{mach.name}: {g.m}x{g.n}x{g.k} {g.dtype}, raster {raster}\nbound / peak and limiting stage per CTA tile"
    target.write(tiles_figure(data, title))


@plot_app.command("raster")
def plot_raster(
    machine: MachineOpt,
    m: MOpt,
    out: OutOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    tile: TileOpt = None,
    raster: RasterOpt = defaults.RASTER,
    order: OldOrderOpt = None,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    waves: WavesOpt = defaults.WAVES_SHOWN,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    fmt: FormatOpt = None,
    output: OldOutOpt = None,
) -> None:
    """The tile-to-wave assignment of the first waves for an order, with distinct panels per wave."""
    from roofmodel.machine import load_machine
    from roofmodel.render.plots import raster_figure

    raster = merged("raster", raster, order, "--order", "--raster")
    target = Figure(out, output, fmt)
    result = run_analysis(load_machine(machine), gemm_of(m, n, k, dtype), tile=tile, raster=raster, cluster=cluster,
                          stages=stages, bandwidth=bandwidth, compute=compute, clock=clock)  # fmt: skip
    target.write(raster_figure(result, waves))
