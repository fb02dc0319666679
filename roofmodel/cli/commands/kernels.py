"""``roofmodel predict``, ``tune``, ``explore`` and ``rank``: the per-CTA model on kernels."""

from __future__ import annotations

import sys

from roofmodel import defaults
from roofmodel.cli.commands.analysis import check_instruction, gemm_of, side_by_side
from roofmodel.cli.options import (
    DEFAULT_CLUSTER,
    AccOpt,
    AMajorOpt,
    BandwidthOpt,
    BMajorOpt,
    ClockOpt,
    ClusterOpt,
    CompileOpt,
    CompileTopOpt,
    ComputeOpt,
    ConfigsOpt,
    DtypeOpt,
    InstructionOpt,
    JsonOpt,
    KernelOpt,
    KernelTileOpt,
    KOpt,
    MachineOpt,
    MachinesOpt,
    MOpt,
    NOpt,
    PersistentOpt,
    RasterOpt,
    RegsOpt,
    RegTileOpt,
    RowAMajorOpt,
    RowBMajorOpt,
    RowDtypeOpt,
    RowMOpt,
    RowTopOpt,
    SpaceOpt,
    SpilledOpt,
    StagesOpt,
    StepsOpt,
    TopOpt,
    VaryOpt,
    WarpsOpt,
    as_pair,
)
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.kernel import KernelConfig, kernel_config
from roofmodel.render.text import render_explore, render_prediction, render_ranking, render_tune


def predict(
    machine: MachinesOpt,
    m: MOpt,
    tile: KernelTileOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    acc: AccOpt = None,
    kernel: KernelOpt = "stated",
    raster: RasterOpt = defaults.RASTER,
    cluster: ClusterOpt = DEFAULT_CLUSTER,
    stages: StagesOpt = defaults.STAGES,
    warps: WarpsOpt = None,
    regs: RegsOpt = None,
    spilled: SpilledOpt = None,
    a_major: AMajorOpt = defaults.A_MAJOR,
    b_major: BMajorOpt = defaults.B_MAJOR,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    reg_tile: RegTileOpt = None,
    instruction: InstructionOpt = None,
    clock: ClockOpt = defaults.CLOCK,
    persistent: PersistentOpt = False,
    compile_kernel: CompileOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Predicted time and TFLOPS of one kernel by the per-CTA model, with every term named."""
    from roofmodel.machine import load_machine
    from roofmodel.model.multicast import parse_cluster
    from roofmodel.model.prediction import predict_kernel
    from roofmodel.model.problem import Tile

    if spilled is not None and regs is None:
        raise ProblemError("--spilled: give it with --regs, as a whole number >= 0")
    t = Tile.parse(tile)
    if t.bk is None:
        raise ProblemError(f"--tile {tile}: give BK too, e.g. {t.bm}x{t.bn}x64")
    g = gemm_of(m, n, k, dtype, acc)
    if "," in machine:

        def config_for(mach: Machine) -> KernelConfig:
            check_instruction(mach, g.dtype, instruction)
            return kernel_config(mach, g.dtype, kernel, t, raster=raster, cluster=parse_cluster(cluster),
                                 stages=stages, warps=warps, instruction=instruction, reg_tile=as_pair(reg_tile),
                                 persistent=persistent)  # fmt: skip

        if regs is not None or compile_kernel:
            raise ProblemError(
                f"{'--compile' if compile_kernel else '--regs'}: one compiled kernel; give one --machine"
            )
        side_by_side(machine, g, as_json, kernel=config_for, a_major=a_major, b_major=b_major, bandwidth=bandwidth,
                     compute=compute, clock=clock)  # fmt: skip
        return
    mach = load_machine(machine)
    check_instruction(mach, g.dtype, instruction)
    cfg = kernel_config(mach, g.dtype, kernel, t, raster=raster, cluster=parse_cluster(cluster), stages=stages,
                        warps=warps, instruction=instruction, reg_tile=as_pair(reg_tile), persistent=persistent)  # fmt: skip
    compiled = None
    if compile_kernel:
        from roofmodel.backends.triton_compile import compile_configs

        if regs is not None:
            raise ProblemError("--compile: the compile gives the registers and spills; not --regs too")
        (compiled,) = compile_configs(mach, g, [cfg], a_major, b_major)
        if isinstance(compiled, str):
            raise ProblemError(compiled)
    p = predict_kernel(mach, g, cfg, a_major=a_major, b_major=b_major, regs=regs, spilled=spilled,
                       bandwidth=bandwidth, compute=compute, clock=clock, compiled=compiled)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(p.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_prediction(mach.name, g, p))


def tune(
    machine: MachinesOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    acc: AccOpt = None,
    top: TopOpt = 10,
    space: SpaceOpt = defaults.SPACE,
    instruction: InstructionOpt = None,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    a_major: AMajorOpt = defaults.A_MAJOR,
    b_major: BMajorOpt = defaults.B_MAJOR,
    compile_top: CompileTopOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Rank every configuration that fits by predicted time; say why the first wins."""
    from roofmodel.machine import load_machine
    from roofmodel.search.space import space_named, tune_report

    g = gemm_of(m, n, k, dtype, acc)
    if "," in machine:
        if instruction is not None or compile_top:
            raise ProblemError(f"{'--compile-top' if compile_top else '--instruction'}: give it with one --machine")
        side_by_side(machine, g, as_json, space=space, a_major=a_major, b_major=b_major, bandwidth=bandwidth,
                     compute=compute, clock=clock)  # fmt: skip
        return
    mach = load_machine(machine)
    check_instruction(mach, g.dtype, instruction)
    compiler = None
    if compile_top:
        from roofmodel.backends.triton_compile import compiler_for

        if space != "triton":
            raise ProblemError(f"--compile-top compiles roofmodel's Triton matmul: give --space triton, not {space}")
        compiler = compiler_for(mach, g, a_major, b_major)

    rep = tune_report(mach, g, space_named(space), top=top,
                      bandwidth=bandwidth, compute=compute, clock=clock, instruction=instruction,  # type: ignore[arg-type]
                      a_major=a_major, b_major=b_major, compile_top=compile_top, compiler=compiler)  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_tune(rep))


def explore(
    machine: MachineOpt,
    m: MOpt,
    vary: VaryOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    acc: AccOpt = None,
    steps: StepsOpt = 5,
    space: SpaceOpt = defaults.SPACE,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    as_json: JsonOpt = False,
) -> None:
    """Fix the dataflow, search the hardware: the best configuration as machine parameters vary."""
    from roofmodel.cli.output import progress
    from roofmodel.machine import load_machine
    from roofmodel.search.space import explore as run_explore
    from roofmodel.search.space import parse_vary, space_named

    with progress("explore", quiet=as_json) as report:
        rep = run_explore(load_machine(machine), gemm_of(m, n, k, dtype, acc), [parse_vary(v) for v in vary],
                          steps=steps, space=space_named(space), bandwidth=bandwidth, compute=compute,  # type: ignore[arg-type]
                          clock=clock, progress=report)  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_explore(rep))


def rank(
    machine: MachineOpt,
    configs: ConfigsOpt,
    m: RowMOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: RowDtypeOpt = None,
    a_major: RowAMajorOpt = None,
    b_major: RowBMajorOpt = None,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    top: RowTopOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank a file of candidate configurations by predicted time, with the measured figure beside it."""
    from pathlib import Path

    from roofmodel.machine import load_machine
    from roofmodel.search.ranking import rank_configs, read_configs

    if m is None and (n is not None or k is not None or dtype is not None):
        raise ProblemError("--n, --k and --dtype go with --m (else every row gives its own problem)")
    g = gemm_of(m, n, k, dtype or defaults.DTYPE) if m is not None else None
    mach = load_machine(machine)
    rows = read_configs(Path(configs))
    r = rank_configs(mach, rows, gemm=g, a_major=a_major, b_major=b_major, compute=compute, bandwidth=bandwidth,  # type: ignore[arg-type]
                     clock=clock, source=configs)  # fmt: skip
    if as_json:
        sys.stdout.write(r.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_ranking(r, top))
