"""The CLI through typer's runner: the happy paths and the JSON document."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from roofmodel import __version__
from roofmodel.machine import builtin_machine_names
from roofmodel.render.schemas import analysis_json_schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "schema" / "analysis.schema.json"
# analyze's defaults before roofmodel.defaults (issue 14), for the tests written against them.
FP32_ROW_2 = ("--dtype", "fp32", "--stages", "2", "--raster", "row", "--clock", "rated")
ROW_2 = FP32_ROW_2[2:]


def test_version(cli):
    r = cli("--version")
    assert r.exit_code == 0
    assert r.stdout.strip() == f"roofmodel {__version__}"


def test_machines_lists_the_builtins(cli):
    r = cli("machines", "--json")
    assert r.exit_code == 0
    names = [row["name"] for row in json.loads(r.stdout)["machines"]]
    assert (
        names == ["a100", "b200", "h100", "h200", "l40s", "mi300x", "rtx4090", "t4", "v100"] == builtin_machine_names()
    )
    text = cli("machines").stdout
    assert "NVIDIA H100 SXM5 80GB" in text and "Turing" in text
    # which figures are datasheet peaks and which measurements, and when the project measured them
    by = {row["name"]: row for row in json.loads(r.stdout)["machines"]}
    assert by["h200"]["calibrated"] == "2026-11-27" and by["h200"]["measured_figures"] > 20  # its L2 GEMM rate
    assert by["t4"]["calibrated"] is None and by["t4"]["measured_figures"] > 0  # the seeds' published figures
    assert by["v100"]["measured_figures"] == 0 and "spec only" in text


def test_show_machine_prints_every_number_with_its_source(cli):
    r = cli("show-machine", "t4")
    assert r.exit_code == 0
    line = next(x for x in r.stdout.splitlines() if x.startswith("memory.dram.bandwidth.measured"))
    assert "220" in line and "GB/s" in line and "measured" in line and "1903.07486" in line
    assert "memory.dram.bandwidth.spec" in r.stdout


@pytest.mark.parametrize("machine", ["a100", "h100", "t4", "v100", "H100", "h100-sxm5", "Tesla-T4"])
def test_analyze_runs_on_every_builtin_and_alias(cli, machine):
    r = cli("analyze", "--machine", machine, "--m", "4096", *FP32_ROW_2)
    assert r.exit_code == 0, r.output
    assert "Amplification budget" in r.stdout
    assert "Verdict:" in r.stdout


def test_analyze_json_matches_the_published_schema(cli):
    committed = json.loads(SCHEMA_FILE.read_text())
    assert committed == json.loads(json.dumps(analysis_json_schema())), (
        "docs/schema/analysis.schema.json is stale: run python docs/make_schemas.py"
    )
    for args in (
        ["--machine", "h100", "--m", "4096", "--dtype", "fp16", *ROW_2],
        ["--machine", "a100", "--m", "4096", "--levels", "dram,smem,rf", *FP32_ROW_2],
        ["--machine", "t4", "--m", "8192", "--dtype", "fp16", "--tile", "256x128x32", "--reg-tile", "64x64", *ROW_2],
    ):
        r = cli("analyze", *args, "--json")
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
        jsonschema.validate(doc, committed)
        for stage in doc["stages"]:
            assert {
                "source_level",
                "destination_level",
                "bandwidth_bytes_per_cycle_per_sm",
                "demand_bytes_per_cycle_per_sm",
                "required_reuse",
                "minimum_tile_edge",
            } <= stage.keys()


def test_json_traces_numbers_to_their_source(cli):
    doc = json.loads(
        cli(
            "analyze",
            "--machine",
            "a100",
            "--m",
            "4096",
            "--levels",
            "dram,smem,rf",
            "--bandwidth",
            "spec",
            "--json",
            *FP32_ROW_2,
        ).stdout
    )
    dram = doc["stages"][0]["bandwidth_input"]
    assert dram == {
        "field": "memory.dram.bandwidth.spec",
        "value": 2039.0,
        "unit": "GB/s",
        "kind": "spec",
        "source": dram["source"],
        "file": dram["file"],
        "line": dram["line"],
    }
    assert dram["file"].endswith("a100.yaml") and dram["line"] > 0
    assert "seed 000" in dram["source"]
    assert doc["pipe"]["rate_input"]["field"] == "compute.fp32.rate.spec"


def test_same_inputs_give_byte_identical_json(cli):
    args = ("analyze", "--machine", "h100", "--m", "8192", "--k", "1024", "--dtype", "bf16", "--json", *ROW_2)
    assert cli(*args).stdout == cli(*args).stdout


def test_bandwidth_choice_changes_the_dram_stage(cli):
    spec = json.loads(
        cli("analyze", "--machine", "t4", "--m", "4096", "--bandwidth", "spec", "--json", *FP32_ROW_2).stdout
    )
    meas = json.loads(cli("analyze", "--machine", "t4", "--m", "4096", "--json", *FP32_ROW_2).stdout)
    assert spec["stages"][0]["bandwidth_input"]["value"] == 320
    assert meas["stages"][0]["bandwidth_input"]["value"] == 220
    # L2 has only a measured figure on the T4: asking for spec falls back, and says so.
    assert any("L2 bandwidth: no spec figure; measured used" in n for n in spec["notes"])


def test_user_machine_file_with_base(cli, tmp_path):
    f = tmp_path / "my-h100.yaml"
    f.write_text(
        "base: h100\n"
        "name: My H100 at 1.6 GHz\n"
        "clocks:\n"
        "  boost: {value: 1600, unit: MHz, kind: measured, source: nvidia-smi during my run}\n"
        "memory:\n"
        "  dram:\n"
        "    bandwidth:\n"
        "      measured: {value: 3000, unit: GB/s, kind: measured, source: my copy kernel}\n"
    )
    doc = json.loads(cli("analyze", "--machine", str(f), "--m", "4096", "--json", *FP32_ROW_2).stdout)
    assert doc["machine"]["name"] == "My H100 at 1.6 GHz"
    assert doc["stages"][0]["bandwidth_input"]["value"] == 3000
    assert doc["stages"][0]["bandwidth_input"]["source"] == "my copy kernel"
    assert doc["pipe"]["clock_mhz"] == 1980  # fp32's rated clock still comes from the base file


# ---------------------------------------------------------------------------------------------
# One vocabulary (issue 14)


def _commands():
    """(name, click command) of every command, plot's included."""
    import click
    import typer.main

    from roofmodel.cli import app

    def walk(group, prefix=""):
        for name, cmd in group.commands.items():
            if isinstance(cmd, click.Group):
                yield from walk(cmd, f"{prefix}{name} ")
            else:
                yield prefix + name, cmd

    return list(walk(typer.main.get_command(app)))


def test_every_option_is_spelt_explained_and_checked_one_way():
    import click

    seen: dict[str, tuple[str | None, object]] = {}
    hidden = set()
    # Same spelling and parser, another help: rank's optional problem, predict's and measure's required BK,
    # validate's default machine and calibrate's base, sweep's directory.
    variants = {"--m", "--dtype", "--a-major", "--b-major", "--top", "--tile", "--machine", "-o/--out"}
    for name, cmd in _commands():
        for p in cmd.params:
            if not isinstance(p, click.Option) or p.name == "help":
                continue
            key = "/".join(p.opts)
            if p.hidden:
                hidden.add(key)
                continue
            parser = getattr(getattr(p.type, "func", None), "parser", type(p.type))
            if key in seen:
                help_ = seen[key][0] if key in variants else p.help
                assert (help_, parser) == seen[key], f"{name} {key} differs from the first command's"
            seen[key] = (p.help, parser)
    assert hidden == {"--order", "--clock-mhz", "--output", "--group-m"}  # the old spellings, still read


@pytest.mark.parametrize("name", [n for n, _ in _commands()])
def test_every_command_has_help(cli, name):
    r = cli(*name.split(), "--help")
    assert r.exit_code == 0 and "Usage: " in r.stdout


def test_the_defaults_are_the_shared_ones(cli):
    from roofmodel import defaults

    doc = json.loads(cli("analyze", "--machine", "h100", "--m", "4096", "--json").stdout)
    assert doc["gemm"]["dtype"] == defaults.DTYPE
    assert doc["cross_sm"]["raster"]["order"] == defaults.RASTER
    raster = json.loads(cli("raster", "--machine", "h100", "--m", "4096", "--json").stdout)
    assert raster["chosen"]["order"] == defaults.RASTER and raster["gemm"]["dtype"] == defaults.DTYPE
    p = json.loads(cli("predict", "--machine", "h100", "--m", "4096", "--tile", "128x128x64", "--json").stdout)
    assert f"s{defaults.STAGES}" in p["kernel"] or f"{defaults.STAGES} stages" in p["kernel"]


def test_old_spellings_still_read(cli, tmp_path):
    old = cli("raster", "--machine", "h100", "--m", "2048", "--order", "row", "--json")
    new = cli("raster", "--machine", "h100", "--m", "2048", "--raster", "row", "--json")
    assert old.exit_code == 0 and old.stdout == new.stdout
    mhz = cli("analyze", "--machine", "h100", "--m", "2048", "--clock-mhz", "1500", "--json")
    assert json.loads(mhz.stdout)["pipe"]["clock_mhz"] == 1500
    r = cli("plot", "budget", "--machine", "h100", "--m", "2048", "--output", str(tmp_path / "b.svg"))
    assert r.exit_code == 0 and (tmp_path / "b.svg").read_bytes().lstrip().startswith(b"<?xml")


def test_the_format_follows_the_suffix_unless_told(cli, tmp_path):
    r = cli("plot", "budget", "--machine", "h100", "--m", "2048", "-o", str(tmp_path / "b.pdf"))
    assert r.exit_code == 0 and (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")
    r = cli("plot", "budget", "--machine", "h100", "--m", "2048", "-o", str(tmp_path / "b"), "--format", "svg")
    assert r.exit_code == 0 and b"<svg" in (tmp_path / "b").read_bytes()
    r = cli("plot", "budget", "--machine", "h100", "--m", "2048", "-o", str(tmp_path / "x.svg"), "--format", "png")
    assert r.exit_code == 2 and "the file's suffix says svg" in r.stderr and not (tmp_path / "x.svg").exists()


def test_a_typo_gets_one_suggestion(cli):
    r = cli("analyse", "--machine", "h100")
    assert r.exit_code == 2 and r.stderr.count("did you mean") == 1 and "'analyze'" in r.stderr
    r = cli("analyze", "--machine", "h100", "--m", "64", "--ordr", "row")
    assert r.exit_code == 2 and "--order" not in r.stderr  # the hidden old spelling is never suggested


def test_short_kernels_print_their_time(cli):
    r = cli("predict", "--machine", "h100", "--m", "1", "--tile", "64x64x64")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("predicted"))
    assert " µs = " in line and "FLOPS" in line and "0.0000" not in line and " 0.0 TFLOPS" not in line


def test_times_and_rates_keep_their_digits():
    from roofmodel.render.text import format_rate, format_seconds

    assert format_seconds(2.1534e-4) == "0.2153 ms"
    assert format_seconds(7.0813e-6) == "7.081 µs"
    assert format_rate(612.34e12) == "612.3 TFLOPS"
    assert format_rate(2.821e5) == "282.1 kFLOPS"
    assert format_rate(3.2e10) == "32 GFLOPS"


def test_progress_shows_on_a_terminal_only(monkeypatch, capsys):
    import sys

    from roofmodel.cli.output import progress

    with progress("sweep") as report:  # stderr is not a terminal here
        report(1, 4, "timing 4096x4096x4096")
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress("sweep", quiet=True) as report:  # --json
        report(1, 4, "timing 4096x4096x4096")
    assert capsys.readouterr().err == ""
    with progress("sweep") as report:
        report(1, 4, "timing 4096x4096x4096")
    assert "timing 4096x4096x4096" in capsys.readouterr().err


def test_several_machines_side_by_side(cli):
    """Issue 15: analyze, predict and tune take --machine a,b and print one column a machine; the JSON is
    api.side_by_side's document, one entry a machine."""
    import json

    text = cli("analyze", "--machine", "h100,h200", "--m", "4096")
    assert text.exit_code == 0 and "one column a machine" in text.stdout
    assert "NVIDIA H100" in text.stdout and "NVIDIA H200" in text.stdout
    doc = json.loads(cli("tune", "--machine", "h100,h200", "--m", "4096", "--json").stdout)
    assert [c["machine"] for c in doc["columns"]] == ["h100", "h200"] and doc["space"] == "all"
    pred = json.loads(cli("predict", "--machine", "h100,a100", "--m", "4096", "--tile", "128x128x64", "--kernel",
                          "triton", "--json").stdout)  # fmt: skip
    h100, a100 = pred["columns"]
    assert h100["kernel_config"].endswith("wgmma reg 128x128 grouped:8") and "mma.sync" in a100["kernel_config"]
    assert h100["kernel_seconds"] < a100["kernel_seconds"]
    refused = cli("tune", "--machine", "h100,h200", "--m", "64", "--instruction", "wgmma")
    assert refused.exit_code == 2 and "--instruction" in refused.stderr
