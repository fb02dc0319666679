"""``roofmodel predict``, ``tune``, ``explore`` and ``rank``: the per-CTA model on kernels."""

from __future__ import annotations

import sys
from typing import Any

from roofmodel import defaults
from roofmodel.cli.commands.analysis import check_instruction, gemm_of
from roofmodel.cli.options import (
    DEFAULT_CLUSTER,
    AMajorOpt,
    BandwidthOpt,
    BMajorOpt,
    ClockOpt,
    ClusterOpt,
    ComputeOpt,
    ConfigsOpt,
    DtypeOpt,
    InstructionOpt,
    JsonOpt,
    KernelOpt,
    KernelTileOpt,
    KOpt,
    MachineOpt,
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
from roofmodel.cli.output import format_rate, format_seconds, time_unit
from roofmodel.errors import ProblemError


def triton_group_m(raster: str, option: str = "--raster") -> int:
    """Triton's GROUP_M for a tile order: row is 1, grouped:G is G; Triton's kernel has no other.

    A rule of roofmodel.model.kernel's Triton preset; kept here until it moves there."""
    from roofmodel.model.rasterization import parse_order

    order = parse_order(raster)
    if order.kind not in ("row", "grouped"):
        raise ProblemError(f"{option} {raster}: Triton's kernel takes row or grouped:G (GROUP_M), not {raster!r}")
    return 1 if order.kind == "row" else order.size


def kernel_config(
    machine: Any, dtype: str, kind: str, tile: Any, *, raster: str, cluster: tuple[int, int], stages: int,
    warps: int | None, instruction: str | None, reg_tile: tuple[int, int] | None, persistent: bool,
) -> Any:  # fmt: skip
    """The kernel --kernel names, built from the options; each kind refuses options it does not take.

    The choice among roofmodel.model.kernel's presets; kept here until the library has one call for it."""
    from roofmodel.model.kernel import cutlass_config, generic_config, triton_config

    if kind == "triton":
        if cluster != (1, 1) or persistent or reg_tile or instruction:
            raise ProblemError("--kernel triton: the Triton tutorial kernel takes no --cluster, --persistent, "
                               "--reg-tile or --instruction (Triton's rules pick them)")  # fmt: skip
        return triton_config(machine, dtype, block_m=tile.bm, block_n=tile.bn, block_k=tile.bk,
                             group_m=triton_group_m(raster), num_warps=warps or 4, num_stages=stages)  # fmt: skip
    if kind == "cutlass":
        if warps or instruction:
            raise ProblemError("--kernel cutlass: CUTLASS's kernel sets the warps and instruction (--reg-tile: "
                               "the sm80/SIMT warp tile)")  # fmt: skip
        from roofmodel.model.rasterization import parse_order

        have = {i.family for i in machine.pipe(dtype).instructions}
        variant = "sm90" if "wgmma" in have else "sm80" if "mma.sync" in have else "simt"
        order = parse_order(raster)
        try:
            return cutlass_config(machine, dtype, kind=variant, tile=(tile.bm, tile.bn, tile.bk), stages=stages,
                                  cluster=cluster, swizzle=order.size if order.kind == "swizzle" else 1,
                                  warp_tile=reg_tile)  # fmt: skip
        except ProblemError as exc:
            raise ProblemError(f"--kernel cutlass: {exc}") from None
    return generic_config(machine, dtype, tile=tile, warps=warps, stages=stages, instruction=instruction,
                          register_tile=reg_tile, cluster=cluster, raster=raster, persistent=persistent)  # fmt: skip


def predict(
    machine: MachineOpt,
    m: MOpt,
    tile: KernelTileOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
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
    mach = load_machine(machine)
    g = gemm_of(m, n, k, dtype)
    check_instruction(mach, g.dtype, instruction)
    cfg = kernel_config(mach, g.dtype, kernel, t, raster=raster, cluster=parse_cluster(cluster), stages=stages,
                        warps=warps, instruction=instruction, reg_tile=as_pair(reg_tile), persistent=persistent)  # fmt: skip
    p = predict_kernel(mach, g, cfg, a_major=a_major, b_major=b_major, regs=regs, spilled=spilled,
                       bandwidth=bandwidth, compute=compute, clock=clock)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(p.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_prediction(mach.name, g, p))


def render_prediction(machine: str, g: Any, p: Any) -> str:
    spill = f", {p.spilled_registers} spilled" if p.spilled_registers else ""
    unit, scale = time_unit(p.seconds)
    lines = [
        f"{machine}: {g.m}x{g.n}x{g.k} {g.dtype}, A {p.a_major}-major, B {p.b_major}-major; kernel {p.kernel}",
        f"  ({p.kernel_origin})",
        f"{p.registers_per_thread} registers per thread{spill} ({p.registers_origin}), {p.shared_bytes:,} B shared "
        f"memory, {p.ctas_per_sm} CTA/SM (limited by {p.occupancy_limiter})",
        f"clock {p.clock_mhz:.0f} MHz: {p.clock_origin}",
        f"predicted {format_seconds(p.seconds)} = {format_rate(p.tflops * 1e12)}, limited by {p.limiter} "
        f"(busiest SM {format_seconds(p.sm_seconds)})",
        "what the time is made of, each as if it were alone, largest first:",
    ]
    for term in p.terms:
        lines.append(f"  {term.name:<17} {_time_cell(term.seconds, scale)} {unit}  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in p.inputs))
    return "\n".join(lines) + "\n"


def _time_cell(seconds: float, scale: float) -> str:
    """A time in a column of width 9: four decimals of ms, three of µs."""
    return f"{seconds * scale:9.4f}" if scale == 1e3 else f"{seconds * scale:9.3f}"


def _tflops_cell(tflops: float) -> str:
    """TFLOPS in a column of width 8: one decimal, or two significant digits below 0.1."""
    return f"{tflops:8.1f}" if tflops >= 0.1 or tflops == 0 else f"{tflops:8.2g}"


def tune(
    machine: MachineOpt,
    m: MOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    top: TopOpt = 10,
    space: SpaceOpt = "all",
    instruction: InstructionOpt = None,
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    a_major: AMajorOpt = defaults.A_MAJOR,
    b_major: BMajorOpt = defaults.B_MAJOR,
    as_json: JsonOpt = False,
) -> None:
    """Rank every configuration that fits by predicted time; say why the first wins."""
    from roofmodel.machine import load_machine
    from roofmodel.search.space import space_named, tune_report

    mach, g = load_machine(machine), gemm_of(m, n, k, dtype)
    check_instruction(mach, g.dtype, instruction)
    rep = tune_report(mach, g, space_named(space), top=top,
                      bandwidth=bandwidth, compute=compute, clock=clock, instruction=instruction,  # type: ignore[arg-type]
                      a_major=a_major, b_major=b_major)  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_tune(rep))


def render_tune(rep: Any) -> str:
    unit, scale = time_unit(rep.top[0].seconds)
    lines = [
        f"{rep.machine}: {rep.gemm} (A {rep.a_major}-major, B {rep.b_major}-major), space {rep.space}: "
        f"{rep.considered:,} configurations, {rep.feasible:,} fit; "
        f"{rep.evaluated_exactly:,} evaluated exactly ({rep.raster_keys} raster-model keys), the rest bounded out",
        f"clock {rep.clock_mhz:.0f} MHz: {rep.clock_origin}",
        f"{'#':>3}  {'configuration':<58} {unit:>9} {'TFLOPS':>8}  {'limited by':<14} against the first",
    ]
    for r in rep.top:
        lines.append(f"{r.rank:>3}  {r.config.label():<58} {_time_cell(r.seconds, scale)} {_tflops_cell(r.tflops)}  "
                     f"{r.limiter:<14} {r.note}")  # fmt: skip
    lines.append(f"why: {rep.why}")
    lines.append("what the first's time is made of, each as if it were alone, largest first:")
    for term in rep.winner.terms:
        lines.append(f"  {term.name:<17} {_time_cell(term.seconds, scale)} {unit}  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in rep.inputs))
    return "\n".join(lines) + "\n"


def explore(
    machine: MachineOpt,
    m: MOpt,
    vary: VaryOpt,
    n: NOpt = None,
    k: KOpt = None,
    dtype: DtypeOpt = defaults.DTYPE,
    steps: StepsOpt = 5,
    space: SpaceOpt = "all",
    bandwidth: BandwidthOpt = defaults.BANDWIDTH,
    compute: ComputeOpt = defaults.COMPUTE,
    clock: ClockOpt = defaults.CLOCK,
    as_json: JsonOpt = False,
) -> None:
    """Fix the dataflow, search the hardware: the best configuration as machine parameters vary."""
    from roofmodel.machine import load_machine
    from roofmodel.search.space import explore as run_explore
    from roofmodel.search.space import parse_vary, space_named

    rep = run_explore(load_machine(machine), gemm_of(m, n, k, dtype), [parse_vary(v) for v in vary], steps=steps,
                      space=space_named(space), bandwidth=bandwidth, compute=compute, clock=clock)  # type: ignore[arg-type]  # fmt: skip
    if as_json:
        sys.stdout.write(rep.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_explore(rep))


def render_explore(rep: Any) -> str:
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
            kt = (f"{_tflops_cell(p.kernel_tflops)} ({p.kernel_limiter})" if p.kernel_tflops is not None
                  else "does not fit")  # fmt: skip
            lines.append(f"  {p.value:10,.4g}  {p.best:<58} {_tflops_cell(p.best_tflops)}  {p.best_limiter:<14} {kt}")
    lines.append("sensitivity of the fixed kernel's time at the base machine (d ln time / d ln parameter, +10%):")
    for sv in rep.sensitivity:
        lines.append(f"  {sv.parameter:<26} {sv.elasticity:+.3f}  (base {sv.base_value:,.4g} {sv.unit})")
    lines.append(f"most sensitive to: {rep.most_sensitive}")
    return "\n".join(lines) + "\n"


def rank(
    machine: MachineOpt,
    configs: ConfigsOpt,
    m: RowMOpt = None,
    n: NOpt = None,
    k: KOpt = None,
    dtype: RowDtypeOpt = None,
    a_major: RowAMajorOpt = None,
    b_major: RowBMajorOpt = None,
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
    r = rank_configs(mach, rows, gemm=g, a_major=a_major, b_major=b_major, compute=compute, clock=clock,  # type: ignore[arg-type]
                     source=configs)  # fmt: skip
    if as_json:
        sys.stdout.write(r.model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_ranking(r, top))


def render_ranking(r: Any, top: int | None) -> str:
    unit, scale = time_unit(min((x.seconds for x in r.ranked), default=1.0))
    lines = [f"{r.machine}: {r.configs} configurations from {r.source}, {r.problems} problem(s), fastest first"]
    head = f"{'#':>4} {'row':>5}  {'configuration':<44} {unit:>9} {'TFLOPS':>8}  {'limited by':<17} {'regs':>9}"
    prev = None
    for x in r.ranked:
        if top is not None and x.rank > top:
            continue
        if x.gemm != prev:
            lines += [x.gemm, head + ("  measured TFLOPS, error" if x.measured_seconds else "")]
            prev = x.gemm
        regs = f"{x.registers_per_thread}" + (f"+{x.spilled_registers}" if x.spilled_registers else "")
        meas = (
            f"  {_tflops_cell(x.measured_tflops)} {x.error_pct:+6.1f}%"
            if x.measured_tflops and x.error_pct is not None
            else ""
        )
        lines.append(f"{x.rank:>4} {x.row:>5}  {x.config:<44} {_time_cell(x.seconds, scale)} {_tflops_cell(x.tflops)}  "
                     f"{x.limiter:<17} {regs:>9}{meas}")  # fmt: skip
    if r.spearman is not None:
        lines.append(f"Spearman (predicted vs measured time) {r.spearman:.2f}; the measured fastest is ranked "
                     f"{r.best_measured_rank}; the first runs at {r.first_over_best:.0%} of the fastest's speed")  # fmt: skip
    return "\n".join(lines) + "\n"
