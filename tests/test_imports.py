"""Optional stays optional: the core and the CLI start without matplotlib, torch or triton."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("matplotlib", "torch", "triton")


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_import_roofmodel_leaves_heavy_modules_out():
    mods = _modules_after("import roofmodel")
    assert not [m for m in mods if m.split(".")[0] in (*HEAVY, "numpy", "rich", "typer")]


def test_cli_analyze_leaves_heavy_modules_out():
    code = (
        "import sys\n"
        "from roofmodel.cli import app\n"
        "try:\n"
        "    app(['analyze', '--machine', 'h100', '--m', '4096'], standalone_mode=True)\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
    )
    mods = _modules_after(code)
    assert not [m for m in mods if m.split(".")[0] in HEAVY]


def test_public_api_is_pinned():
    import roofmodel

    assert sorted(roofmodel.__all__) == [
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
    # dir() shows the public names only (no Any, TYPE_CHECKING or import_module).
    assert dir(roofmodel) == sorted(roofmodel.__all__)
