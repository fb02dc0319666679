"""``roofmodel machines`` and ``roofmodel show-machine``: the machine files."""

from __future__ import annotations

import sys

from roofmodel.cli.options import JsonOpt, MachineArg
from roofmodel.render.text import render_machine, render_machines


def machines(as_json: JsonOpt = False) -> None:
    """List the built-in machines."""
    from roofmodel.machine import MachinesDocument, builtin_machine_names, load_machine, machine_summary

    rows = [machine_summary(name, load_machine(name)) for name in builtin_machine_names()]
    if as_json:
        sys.stdout.write(MachinesDocument(machines=rows).model_dump_json(indent=2) + "\n")
        return
    sys.stdout.write(render_machines([r.model_dump() for r in rows]))


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
