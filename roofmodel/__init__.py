"""roofmodel: what it takes to make a compute-bound GPU kernel actually compute-bound.

The analytical core (machine files, the stage hierarchy, tiling, roofline) imports only
pydantic and PyYAML; the CLI, plots and GPU backend are thin layers over it. The public names are
loaded on first use (PEP 562), so ``import roofmodel`` itself costs nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE = {
    "AnalysisResult": "roofmodel.model.analysis",
    "Gemm": "roofmodel.model.problem",
    "Machine": "roofmodel.machine",
    "MachineFileError": "roofmodel.errors",
    "ProblemError": "roofmodel.errors",
    "RoofmodelError": "roofmodel.errors",
    "Tile": "roofmodel.model.problem",
    "analyze": "roofmodel.model.analysis",
    "builtin_machine_names": "roofmodel.machine",
    "load_machine": "roofmodel.machine",
}

__all__ = [
    "AnalysisResult",
    "Gemm",
    "Machine",
    "MachineFileError",
    "ProblemError",
    "RoofmodelError",
    "Tile",
    "__version__",
    "analyze",
    "builtin_machine_names",
    "load_machine",
]

if TYPE_CHECKING:
    from roofmodel.errors import MachineFileError, ProblemError, RoofmodelError
    from roofmodel.machine import Machine, builtin_machine_names, load_machine
    from roofmodel.model.analysis import AnalysisResult, analyze
    from roofmodel.model.problem import Gemm, Tile


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'roofmodel' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
