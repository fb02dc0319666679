"""What a machine is, in a line: the identity every result document carries (``MachineInfo``) and
the listing of ``roofmodel machines`` (which figures are datasheet peaks, which measurements, and
the date of the project's own calibration)."""

from __future__ import annotations

import re
from typing import Any

from roofmodel.machine.schema import Machine
from roofmodel.results import JSON_SCHEMA_VERSION, Result


class MachineInfo(Result):
    name: str
    file: str | None
    architecture: str
    compute_capability: str
    sm_count: int
    target: str = ""  # sm_90, or an AMD ISA target (gfx942)
    sm_unit: str = "SMs"  # what the vendor calls its multiprocessors: SMs, or CUs


class MachineSummary(Result):
    name: str
    full_name: str
    aliases: list[str]
    architecture: str
    compute_capability: str
    sm_count: int
    dtypes: list[str]
    spec_figures: int
    measured_figures: int
    # The newest date (YYYY-MM-DD) in the sources of figures roofmodel measured itself (calibrate, the
    # sweeps); None where every measured figure is published elsewhere or there is none.
    calibrated: str | None


class MachinesDocument(Result):
    """``roofmodel machines --json``."""

    schema_version: int = JSON_SCHEMA_VERSION
    machines: list[MachineSummary]


def machine_info(machine: Machine) -> MachineInfo:
    return MachineInfo(
        name=machine.name,
        file=machine.source_file,
        architecture=machine.architecture,
        compute_capability=machine.compute_capability,
        sm_count=machine.sm_count.n,
        target=machine.target,
        sm_unit=machine.sm_count.unit,
    )


def quantities_of(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every quantity (a mapping with ``value`` and ``unit``) in a dumped machine, with its dotted path."""
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        if "value" in node and "unit" in node:
            return [(path, node)]
        for key, value in node.items():
            out.extend(quantities_of(value, f"{path}.{key}" if path else str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(quantities_of(value, f"{path}[{i}]"))
    return out


def machine_summary(name: str, machine: Machine) -> MachineSummary:
    """Counts of spec and measured figures; ``calibrated`` is the newest date in the sources of the
    figures roofmodel measured itself (their source names roofmodel)."""
    quantities = [q for _, q in quantities_of(machine.model_dump(mode="json", exclude_none=True))]
    measured = [q for q in quantities if q.get("kind") == "measured"]
    own = [
        d for q in measured if "roofmodel" in q.get("source", "") for d in re.findall(r"\d{4}-\d{2}-\d{2}", q["source"])
    ]
    return MachineSummary(
        name=name,
        full_name=machine.name,
        aliases=machine.aliases,
        architecture=machine.architecture,
        compute_capability=machine.compute_capability,
        sm_count=machine.sm_count.n,
        dtypes=list(machine.compute),
        spec_figures=len(quantities) - len(measured),
        measured_figures=len(measured),
        calibrated=max(own) if own else None,
    )
