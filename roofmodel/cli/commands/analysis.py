"""``roofmodel analyze`` (the amplification budget) and ``roofmodel raster`` (the tile order)."""

from __future__ import annotations

import sys
from typing import Any

from roofmodel import defaults
from roofmodel.cli.options import (
    DEFAULT_CLUSTER,
    AccOpt,
    BandwidthOpt,
    ClockOpt,
    ClusterOpt,
    ComputeOpt,
    DtypeOpt,
    InstructionOpt,
    JsonOpt,
    KOpt,
    LevelsOpt,
    MachineOpt,
    MachinesOpt,
    MOpt,
    NOpt,
    OldClockOpt,
    OldOrderOpt,
    RasterOpt,
    RegOverheadOpt,
    RegsOpt,
    RegTileOpt,
    StagesOpt,
    TileOpt,
    WarpsOpt,
    WavesOpt,
    as_pair,
    merged,
)
from roofmodel.errors import ProblemError
from roofmodel.model.rasterization import raster_order_table
from roofmodel.render.text import render_raster


def gemm_of(m: int, n: int | None, k: int | None, dtype: str, acc: str | None = None) -> Any:
    """The GEMM the options describe (N and K default to M); an impossible accumulator names --acc."""
    from roofmodel.model.problem import Gemm

    try:
        return Gemm(m, n, k, dtype, accumulator=acc)
    except ProblemError as exc:
        if acc is None:
            raise
        raise ProblemError(f"--acc {acc}: {str(exc).removeprefix('gemm: ')}") from None


def check_instruction(machine: Any, dtype: str, instruction: str | None) -> None:
    """Refuse an --instruction the machine's pipe for the dtype does not list, naming the option."""
    if instruction is None or dtype not in machine.compute:
        return  # the library names a missing pipe
    have = [i.family for i in machine.compute[dtype].instructions]
    if instruction not in have:
        raise ProblemError(f"--instruction {instruction}: not available for {dtype} on {machine.name} "
                           f"(have: {', '.join(have)})")  # fmt: skip


def side_by_side(machines: str, gemm: Any, as_json: bool, **options: Any) -> None:
    """Several machines (--machine a,b,c): roofmodel.api.side_by_side, as JSON or one column a machine."""
    from roofmodel.api import side_by_side as compare
    from roofmodel.render.text import render_side_by_side

    doc = compare(machines.split(","), gemm, **options)
    sys.stdout.write(doc.model_dump_json(indent=2) + "\n" if as_json else render_side_by_side(doc))


def run_analysis(
    machine: Any,
    gemm: Any,
    *,
    tile: str | None,
    raster: str,
    cluster: str,
    stages: int,
    bandwidth: str,
    compute: str,
    clock: str | None,
    **options: Any,
) -> Any:
    """roofmodel.analyze with every option the command line gives, passed explicitly."""
    from roofmodel.model.analysis import analyze
    from roofmodel.model.multicast import parse_cluster
    from roofmodel.model.problem import Tile

    check_instruction(machine, gemm.dtype, options.get("instruction"))
    return analyze(
        machine,
        gemm,
        tile=Tile.parse(tile) if tile else None,
        raster=raster,
        cluster=parse_cluster(cluster),
        stages=stages,
        bandwidth=bandwidth,  # type: ignore[arg-type]
        compute=compute,  # type: ignore[arg-type]
        clock=clock,
        **{k: v for k, v in options.items() if v is not None},
    )


def analyze(
    machine: MachinesOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    tile: TileOpt = None,
    reg_tile: RegTileOpt = None,
    levels: LevelsOpt = None,
    instruction: InstructionOpt = None,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    clock_mhz: OldClockOpt = None,
    stages: StagesOpt = defaults.STAGES,
    reg_overhead: RegOverheadOpt = None,
    acc: AccOpt = None,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    raster: RasterOpt = defaults.RASTER,
    warps: WarpsOpt = None,
    regs: RegsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The bandwidth-amplification budget of a GEMM: reuse, tiles, rooflines, verdict."""
    from roofmodel.machine import load_machine

    clock = merged("clock", clock, clock_mhz, "--clock-mhz", "--clock")
    if "," in machine:
        from roofmodel.model.multicast import parse_cluster
        from roofmodel.model.problem import Tile

        options = {"tile": Tile.parse(tile) if tile else None, "raster": raster, "cluster": parse_cluster(cluster),
                   "stages": stages, "register_tile": as_pair(reg_tile), "instruction": instruction, "warps": warps,
                   "regs": regs, "levels": levels.split(",") if levels else None, "reg_overhead": reg_overhead}  # fmt: skip
        side_by_side(machine, gemm_of(m, n, k, dtype, acc), as_json, bandwidth=bandwidth, compute=compute,
                     clock=clock, **{key: v for key, v in options.items() if v is not None})  # fmt: skip
        return
    result = run_analysis(
        load_machine(machine), gemm_of(m, n, k, dtype, acc), tile=tile, raster=raster, cluster=cluster,
        stages=stages, bandwidth=bandwidth, compute=compute, clock=clock,
        register_tile=as_pair(reg_tile),
        levels=levels.split(",") if levels else None, instruction=instruction, reg_overhead=reg_overhead,
        warps=warps, regs=regs,
    )  # fmt: skip
    if as_json:
        sys.stdout.write(result.to_json())
        return
    from roofmodel.render.text import render_analysis

    sys.stdout.write(render_analysis(result))


def raster(
    machine: MachineOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    tile: TileOpt = None,
    raster: RasterOpt = defaults.RASTER,
    order: OldOrderOpt = None,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    warps: WarpsOpt = None,
    regs: RegsOpt = None,
    waves: WavesOpt = defaults.WAVES_SHOWN,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    as_json: JsonOpt = False,
) -> None:
    """Which tiles the first waves cover, their distinct panels, and DRAM traffic for every order."""
    from roofmodel.machine import load_machine
    from roofmodel.model.rasterization import RasterOrder, drifting_rows_caveat

    raster = merged("raster", raster, order, "--order", "--raster")
    spec = load_machine(machine)
    result = run_analysis(
        spec, gemm_of(m, n, k, dtype), tile=tile, raster=raster, cluster=cluster, stages=stages,
        bandwidth=bandwidth, compute=compute, clock=clock, warps=warps, regs=regs,
    )  # fmt: skip
    table = raster_order_table(spec, result, raster)
    if as_json:
        from roofmodel.model.rasterization import RasterDocument

        x = result.cross_sm
        doc = RasterDocument(machine=result.machine, gemm=result.gemm, tile=result.tiles.cta, cluster=x.cluster,
                             occupancy=x.occupancy, chosen=x.raster, orders=table)  # fmt: skip
        sys.stdout.write(doc.model_dump_json(indent=2) + "\n")
        return
    # Row order is in every table: its caveat whatever order was chosen.
    x, g, (cm, cn) = result.cross_sm, result.gemm, result.cross_sm.cluster
    caveat = drifting_rows_caveat(spec, RasterOrder("row"), x.occupancy.ctas_per_sm,
                                  x.raster.tiles_m * x.raster.tiles_n / x.raster.concurrent, m=g.m, n=g.n, k=g.k,
                                  bm=cm * result.tiles.cta[0], bn=cn * result.tiles.cta[1],
                                  input_bytes=g.input_bytes)  # fmt: skip
    sys.stdout.write(render_raster(result, table, waves, caveat))
