"""Machine files: the pydantic schema, the built-in presets and the validate-then-build loader.

A machine file is YAML (its syntax is documented in the header of every built-in file). Every
number is a quantity ``{value, unit, kind, source}``: ``kind`` says whether it is a datasheet
peak (``spec``) or a measurement (``measured``); where both exist (T4 DRAM: 320 GB/s spec, 220
GB/s measured) a field holds ``{spec: ..., measured: ...}`` and the analysis picks one.

A user's file may start from a built-in one with ``base: h100`` and override a few entries;
mappings merge key by key, while a quantity (a mapping with ``value``) or a list is replaced whole,
so an override always carries its own unit and source.
"""

from roofmodel.machine.files import as_machine, builtin_machine_names, load_machine, merge_overrides
from roofmodel.machine.schema import (
    Bandwidth,
    Instruction,
    KernelCosts,
    Machine,
    MachineDocument,
    Source,
    _Quantity,
)
from roofmodel.machine.summary import MachineInfo, MachinesDocument, MachineSummary, machine_summary

__all__ = [
    "Bandwidth",
    "Instruction",
    "KernelCosts",
    "Machine",
    "MachineDocument",
    "MachineInfo",
    "MachineSummary",
    "MachinesDocument",
    "Source",
    "_Quantity",
    "as_machine",
    "builtin_machine_names",
    "load_machine",
    "machine_summary",
    "merge_overrides",
]
