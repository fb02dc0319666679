"""The library as a notebook user calls it: ``roofmodel.analyze``, ``predict``, ``tune`` and
``roofline_plot`` take a machine name or a ``Machine``, a ``Gemm`` (N and K default to M) and the
defaults of roofmodel.defaults, the same as the command line; ``side_by_side`` puts the same GEMM on
several machines (``--machine h100,h200``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from roofmodel import defaults
from roofmodel.errors import ProblemError
from roofmodel.model.problem import GemmInfo
from roofmodel.results import JSON_SCHEMA_VERSION, Result

if TYPE_CHECKING:
    from collections.abc import Callable

    from roofmodel.machine import Machine
    from roofmodel.model.kernel import KernelConfig
    from roofmodel.model.problem import Gemm
    from roofmodel.search.space import Space, TuneReport


def tune(
    machine: Machine | str,
    gemm: Gemm,
    space: Space | str = defaults.SPACE,
    *,
    top: int = 10,
    compute: str = defaults.COMPUTE,
    bandwidth: str = defaults.BANDWIDTH,
    clock: str | float | None = defaults.CLOCK,
    instruction: str | None = None,
    a_major: str = defaults.A_MAJOR,
    b_major: str = defaults.B_MAJOR,
    compile_top: int = 0,
    compiler: Any = None,
) -> TuneReport:
    """The ``top`` kernel configurations of ``space`` (``all``: every one that fits; ``triton``: what a
    Triton matmul can express; or a ``Space``) ranked by the per-CTA model's predicted time, each with its limiter and
    terms: ``roofmodel tune``. ``compile_top`` N with a ``compiler`` (``triton`` space; e.g.
    ``roofmodel.backends.triton_compile.compiler_for(machine, gemm, a_major, b_major)``, which needs the triton
    package and no GPU): the first N compiled and ranked by what ptxas gives them (``tune --compile-top N``)."""
    from roofmodel.search.space import space_named, tune_report

    chosen = space_named(space) if isinstance(space, str) else space
    options: dict[str, Any] = {"compute": compute, "bandwidth": bandwidth, "clock": clock, "compiler": compiler}
    return tune_report(machine, gemm, chosen, top=top, instruction=instruction, a_major=a_major, b_major=b_major,
                       compile_top=compile_top, **options)  # fmt: skip


class MachineColumn(Result):
    """One machine's column of a side-by-side comparison: the same GEMM on each machine."""

    machine: str
    name: str
    calibrated: str | None = Field(
        description="date of the project's own calibration; None: datasheet and published figures"
    )
    peak_tflops: float = Field(description="the GEMM's pipe at its rated clock (analyze)")
    dram_gb_per_s: float
    dram_balance_flop_per_byte: float = Field(description="peak / DRAM bandwidth")
    required_reuse: dict[str, float] = Field(description="per stage: demand / bandwidth (analyze)")
    minimum_tile_edge: dict[str, int] = Field(description="per stage: smallest power-of-two square tile reaching it")
    stages_without_bandwidth: list[str] = Field(
        default_factory=list, description="stages whose source level has no bandwidth in the machine file"
    )
    limiting: str = Field(description="the stage that bounds the default kernel (analyze)")
    hierarchical_bound_tflops: float
    best_config: str = Field(description="tune's first pick in the space searched")
    best_limiter: str
    best_seconds: float
    best_tflops: float
    kernel_config: str | None = Field(default=None, description="the kernel stated (predict), as built on this machine")
    kernel_limiter: str | None = None
    kernel_seconds: float | None = None
    kernel_tflops: float | None = None


class SideBySide(Result):
    """``--machine a,b,c``: one column a machine, the same GEMM and options."""

    schema_version: int = JSON_SCHEMA_VERSION
    gemm: GemmInfo
    space: str = Field(description="the space tune searched for each machine's best kernel")
    columns: list[MachineColumn]


def side_by_side(
    machines: list[Machine | str],
    gemm: Gemm,
    *,
    space: Space | str = defaults.SPACE,
    compute: str = defaults.COMPUTE,
    bandwidth: str = defaults.BANDWIDTH,
    clock: str | float | None = defaults.CLOCK,
    kernel: Callable[[Machine], KernelConfig] | None = None,
    a_major: str = defaults.A_MAJOR,
    b_major: str = defaults.B_MAJOR,
    **analysis_options: Any,
) -> SideBySide:
    """The same GEMM on several machines: each one's peak, DRAM balance point, required reuse and
    minimum tile per stage, limiting stage and hierarchical bound (``analyze``), the best kernel of
    ``space`` with its predicted time and limiter (``tune``), and, where ``kernel`` builds one kernel
    for a machine, that kernel's predicted time and limiter there (``predict``)."""
    from roofmodel.machine import as_machine
    from roofmodel.model.problem import gemm_info
    from roofmodel.search.space import space_named

    if not machines:
        raise ProblemError("--machine: name at least one machine")
    columns = []
    for given in machines:
        machine = as_machine(given)
        try:
            columns.append(_column(machine, given, gemm, space, kernel, compute, bandwidth, clock, a_major, b_major,
                                   analysis_options))  # fmt: skip
        except ProblemError as exc:
            if len(machines) == 1:
                raise
            raise ProblemError(f"{given if isinstance(given, str) else machine.name}: {exc}") from None
    chosen = space_named(space) if isinstance(space, str) else space
    return SideBySide(gemm=gemm_info(gemm), space=chosen.name, columns=columns)


def _column(machine: Machine, given: Any, gemm: Gemm, space: Any, kernel: Any, compute: Any, bandwidth: Any,
            clock: Any, a_major: str, b_major: str, analysis_options: dict[str, Any]) -> MachineColumn:  # fmt: skip
    """One machine's column of side_by_side."""
    from roofmodel.machine import machine_summary
    from roofmodel.model.analysis import analyze
    from roofmodel.model.prediction import predict_kernel

    a = analyze(machine, gemm, compute=compute, bandwidth=bandwidth, clock=clock, **analysis_options)  # type: ignore[arg-type]
    t = tune(machine, gemm, space, top=1, compute=compute, bandwidth=bandwidth, clock=clock, a_major=a_major,
             b_major=b_major)  # fmt: skip
    best = t.top[0]
    dram = a.stages[0]
    stated = {}
    if kernel is not None:
        config = kernel(machine)
        p = predict_kernel(machine, gemm, config, a_major=a_major, b_major=b_major, compute=compute,  # type: ignore[arg-type]
                           bandwidth=bandwidth, clock=clock)  # type: ignore[arg-type]  # fmt: skip
        stated = {"kernel_config": config.label(), "kernel_limiter": p.limiter, "kernel_seconds": p.seconds,
                  "kernel_tflops": p.tflops}  # fmt: skip
    return MachineColumn(
        machine=given if isinstance(given, str) else machine.name,
        name=machine.name,
        calibrated=machine_summary(machine.name, machine).calibrated,
        peak_tflops=a.peak_tflops,
        dram_gb_per_s=dram.bandwidth_gb_per_s,
        dram_balance_flop_per_byte=a.peak_tflops * 1e12 / (dram.bandwidth_gb_per_s * 1e9),
        required_reuse={s.name: s.required_reuse for s in a.stages if not s.bandwidth_assumed},
        minimum_tile_edge={s.name: s.minimum_tile_edge for s in a.stages if not s.bandwidth_assumed},
        stages_without_bandwidth=[s.name for s in a.stages if s.bandwidth_assumed],
        limiting=a.limiting,
        hierarchical_bound_tflops=a.hierarchical_bound_tflops,
        best_config=best.config.label(),
        best_limiter=best.limiter,
        best_seconds=best.seconds,
        best_tflops=best.tflops,
        **stated,
    )
