"""The JSON Schema of every ``--json`` document, by file stem under docs/schema/ (docs/make_schemas.py
writes them; a test keeps the committed files equal to the models)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from roofmodel.results import JSON_SCHEMA_VERSION


def _schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://roofmodel.invalid/schema/{name}-v{JSON_SCHEMA_VERSION}.json"
    return schema


def analysis_json_schema() -> dict[str, Any]:
    """The JSON Schema of ``roofmodel analyze --json`` (docs/schema/analysis.schema.json)."""
    from roofmodel.model.analysis import AnalysisResult

    return _schema(AnalysisResult, "analysis")


def all_json_schemas() -> dict[str, dict[str, Any]]:
    """Every --json document's schema, by file stem under docs/schema/."""
    from roofmodel.api import SideBySide
    from roofmodel.backends.records import MeasureDocument
    from roofmodel.backends.validation import Validation
    from roofmodel.machine import MachineDocument, MachinesDocument
    from roofmodel.model.prediction import Prediction
    from roofmodel.model.rasterization import RasterDocument
    from roofmodel.search.space import ExploreReport, TuneReport

    return {
        "analysis": analysis_json_schema(),
        "machines": _schema(MachinesDocument, "machines"),
        "machine": _schema(MachineDocument, "machine"),
        "raster": _schema(RasterDocument, "raster"),
        "validation": _schema(Validation, "validation"),
        "prediction": _schema(Prediction, "prediction"),
        "measurement": _schema(MeasureDocument, "measurement"),
        "tune": _schema(TuneReport, "tune"),
        "explore": _schema(ExploreReport, "explore"),
        "side-by-side": _schema(SideBySide, "side-by-side"),
    }
