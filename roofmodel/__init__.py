"""roofmodel: what it takes to make a compute-bound GPU kernel actually compute-bound.

    import roofmodel
    r = roofmodel.analyze("h100", roofmodel.Gemm(4096))            # the amplification budget
    p = roofmodel.predict("h100", roofmodel.Gemm(4096), roofmodel.Tile(128, 256, 64))
    t = roofmodel.tune("h100", roofmodel.Gemm(8192, 8192, 1024))    # the best Triton configurations
    roofmodel.roofline_plot("h100", roofmodel.Gemm(4096), out="roofline.png")

The analytical core (machine files, the model, the search) imports only pydantic and PyYAML (numpy
for the search); the CLI, plots and GPU backend are thin layers over it. The public names are loaded
on first use (PEP 562), so ``import roofmodel`` itself costs nothing.
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

__version__ = "0.1.0"

_WHERE = {
    "AnalysisResult": "roofmodel.model.analysis",
    "Gemm": "roofmodel.model.problem",
    "Machine": "roofmodel.machine",
    "MachineFileError": "roofmodel.errors",
    "Prediction": "roofmodel.model.prediction",
    "ProblemError": "roofmodel.errors",
    "RoofmodelError": "roofmodel.errors",
    "Space": "roofmodel.search.space",
    "Tile": "roofmodel.model.problem",
    "TuneReport": "roofmodel.search.space",
    "analyze": "roofmodel.model.analysis",
    "builtin_machine_names": "roofmodel.machine",
    "load_machine": "roofmodel.machine",
    "predict": "roofmodel.model.prediction",
    "roofline_plot": "roofmodel.render.plots",
    "tune": "roofmodel.api",
}

__all__ = [
    "AnalysisResult",
    "Gemm",
    "Machine",
    "MachineFileError",
    "Prediction",
    "ProblemError",
    "RoofmodelError",
    "Space",
    "Tile",
    "TuneReport",
    "__version__",
    "analyze",
    "builtin_machine_names",
    "load_machine",
    "predict",
    "roofline_plot",
    "tune",
]

if _typing.TYPE_CHECKING:
    from roofmodel.api import tune
    from roofmodel.errors import MachineFileError, ProblemError, RoofmodelError
    from roofmodel.machine import Machine, builtin_machine_names, load_machine
    from roofmodel.model.analysis import AnalysisResult, analyze
    from roofmodel.model.prediction import Prediction, predict
    from roofmodel.model.problem import Gemm, Tile
    from roofmodel.render.plots import roofline_plot
    from roofmodel.search.space import Space, TuneReport


def __getattr__(name: str) -> _typing.Any:
    if name in _WHERE:
        value = getattr(_importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'roofmodel' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
