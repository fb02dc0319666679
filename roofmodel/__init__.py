"""roofmodel: what it takes to make a compute-bound GPU kernel actually compute-bound.

The analytical core (machine files, the stage hierarchy, tiling, roofline) imports only
pydantic and PyYAML; the CLI, plots and GPU backend are thin layers over it.
"""

from roofmodel.analysis import analyze
from roofmodel.errors import MachineFileError, ProblemError, RoofmodelError
from roofmodel.machine import Machine, builtin_machine_names, load_machine
from roofmodel.problem import Gemm, Tile
from roofmodel.report import AnalysisResult

__version__ = "0.1.0"

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
