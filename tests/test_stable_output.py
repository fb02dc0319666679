"""Stable output (issue 7): published JSON Schemas, documented CSV columns, a snapshot of the text
report, byte-identical JSON, and every machine number traced to the line it is written on."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import pytest

from roofmodel.backends.records import GEMM_COLUMNS
from roofmodel.render.schemas import all_json_schemas
from roofmodel.results import JSON_SCHEMA_VERSION
from tests.conftest import REPO, mappings_with

SCHEMAS = REPO / "docs" / "schema"
SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "analyze_a100_seed000.txt"
RECORDED = REPO / "docs" / "measurements" / "h100-2026-11-22"


def test_committed_schemas_match_the_models():
    generated = all_json_schemas()
    assert sorted(p.stem.removesuffix(".schema") for p in SCHEMAS.glob("*.schema.json")) == sorted(generated)
    for stem, schema in generated.items():
        committed = json.loads((SCHEMAS / f"{stem}.schema.json").read_text())
        assert committed == json.loads(json.dumps(schema)), f"{stem}: run python docs/make_schemas.py"


@pytest.mark.parametrize(
    ("stem", "args"),
    [
        ("analysis", ["analyze", "--machine", "t4", "--m", "2048", "--dtype", "fp16", "--json"]),
        ("machines", ["machines", "--json"]),
        ("machine", ["show-machine", "h100", "--json"]),
        ("raster", ["raster", "--machine", "h100", "--m", "4096", "--tile", "128x128", "--json"]),
        ("validation", ["validate", str(RECORDED / "tf32"), "--json"]),
        ("prediction", ["predict", "--machine", "h100", "--m", "4096", "--tile", "128x256x64", "--json"]),
        ("tune", ["tune", "--machine", "h100", "--m", "2048", "--k", "1024", "--top", "3", "--json"]),
        (
            "explore",
            ["explore", "--machine", "t4", "--m", "1024", "--vary", "sm_count=20:40", "--steps", "2", "--json"],
        ),
    ],
)
def test_every_json_document_validates_and_is_byte_identical(cli, stem, args):
    first, second = cli(*args), cli(*args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert doc["schema_version"] == JSON_SCHEMA_VERSION
    jsonschema.validate(doc, json.loads((SCHEMAS / f"{stem}.schema.json").read_text()))


def test_csv_columns_are_documented():
    doc = (REPO / "docs" / "formats.md").read_text()
    table = doc.split("## gemm.csv")[1].split("`provenance.json`")[0]
    documented = re.findall(
        r"`([a-z0-9_]+)`", "".join(line.split("|")[1] for line in table.splitlines() if line.startswith("| `"))
    )
    assert documented == GEMM_COLUMNS


def _snapshot_text(cli) -> str:
    # analyze's defaults before roofmodel.defaults (issue 14), which the snapshot was taken with
    r = cli("analyze", "--machine", "a100", "--m", "4096", "--levels", "dram,smem,rf", "--bandwidth", "spec",
            "--dtype", "fp32", "--stages", "2", "--raster", "row")  # fmt: skip
    assert r.exit_code == 0
    # The machine file's path depends on the checkout; everything else must not change by accident.
    return re.sub(r"file: \S+", "file: <machines/a100.yaml>", r.stdout)


def test_text_report_snapshot(cli):
    """Catches unintended changes to the text report. To accept an intended one:
    UPDATE_SNAPSHOTS=1 python -m pytest tests/test_stable_output.py, and review the diff."""
    text = _snapshot_text(cli)
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text()


@pytest.mark.parametrize("machine", ["a100", "h100", "t4", "v100", str(RECORDED / "h100-measured.yaml")])
def test_every_machine_number_in_an_output_traces_to_its_line(cli, machine):
    doc = json.loads(cli("analyze", "--machine", machine, "--m", "4096", "--json").stdout)

    found = list(mappings_with(doc, {"field", "value", "source", "file", "line"}))
    assert len(found) >= 5
    for q in found:
        line = Path(q["file"]).read_text().splitlines()[q["line"] - 1]
        value = re.search(r"value:\s*([^,}\s]+)", line)
        assert value and float(value.group(1)) == q["value"], (q, line)
        assert q["source"][:20] in line or q["source"][:20] in Path(q["file"]).read_text()
