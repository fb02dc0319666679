"""``roofmodel machines`` and ``roofmodel show-machine``: the machine files."""

from __future__ import annotations

import sys
from typing import Any

from roofmodel.cli.options import JsonOpt, MachineArg


def machines(as_json: JsonOpt = False) -> None:
    """List the built-in machines."""
    from roofmodel.machine import MachinesDocument, builtin_machine_names, load_machine, machine_summary

    rows = [machine_summary(name, load_machine(name)) for name in builtin_machine_names()]
    if as_json:
        sys.stdout.write(MachinesDocument(machines=rows).model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_machines([r.model_dump() for r in rows]))


def render_machines(rows: list[dict[str, Any]]) -> str:
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
    return "\n".join(lines) + "\n"


def show_machine(
    name: MachineArg,
    as_json: JsonOpt = False,
) -> None:
    """Print one machine with every number's unit, kind and source."""
    from roofmodel.machine import MachineDocument, load_machine
    from roofmodel.results import JSON_SCHEMA_VERSION

    mach = load_machine(name)
    if as_json:
        doc = MachineDocument(schema_version=JSON_SCHEMA_VERSION, machine=mach)
        sys.stdout.write(doc.model_dump_json(indent=2, exclude_none=True) + "\n")
        return
    sys.stdout.write(render_machine(mach))


def render_machine(mach: Any) -> str:
    from roofmodel.machine.summary import quantities_of

    data = mach.model_dump(mode="json", exclude_none=True)
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
    return "\n".join(lines) + "\n"
