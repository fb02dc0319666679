"""The library as a notebook user calls it: ``roofmodel.analyze``, ``predict``, ``tune`` and
``roofline_plot`` take a machine name or a ``Machine``, a ``Gemm`` (N and K default to M) and the
defaults of roofmodel.defaults, the same as the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from roofmodel import defaults

if TYPE_CHECKING:
    from roofmodel.machine import Machine
    from roofmodel.model.problem import Gemm
    from roofmodel.search.space import Space, TuneReport


def tune(
    machine: Machine | str,
    gemm: Gemm,
    space: Space | str = "triton",
    *,
    top: int = 10,
    compute: str = defaults.COMPUTE,
    bandwidth: str = defaults.BANDWIDTH,
    clock: str | float | None = defaults.CLOCK,
    instruction: str | None = None,
    a_major: str = defaults.A_MAJOR,
    b_major: str = defaults.B_MAJOR,
) -> TuneReport:
    """The ``top`` kernel configurations of ``space`` (``triton``: what a Triton matmul can express;
    ``all``; or a ``Space``) ranked by the per-CTA model's predicted time, each with its limiter and
    terms: ``roofmodel tune``."""
    from roofmodel.search.space import space_named, tune_report

    chosen = space_named(space) if isinstance(space, str) else space
    options: dict[str, Any] = {"compute": compute, "bandwidth": bandwidth, "clock": clock}
    return tune_report(machine, gemm, chosen, top=top, instruction=instruction, a_major=a_major, b_major=b_major,
                       **options)  # fmt: skip
