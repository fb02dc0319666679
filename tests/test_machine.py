"""Machine files: loading, aliases, inheritance, spec/measured choice, the installed layout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from roofmodel import MachineFileError, load_machine
from roofmodel.machine import builtin_machine_names, merge_overrides
from tests.conftest import REPO, mappings_with


@pytest.mark.parametrize("name", ["a100", "h100", "h200", "t4", "v100"])
def test_every_builtin_validates_and_cites_every_number(name):
    m = load_machine(name)
    dumped = m.model_dump(mode="json", exclude_none=True)

    quantities = list(mappings_with(dumped, {"value", "unit"}))
    assert len(quantities) >= 18
    for q in quantities:
        assert q["kind"] in ("spec", "measured")
        assert len(q["source"]) > 10, q


def test_names_are_case_insensitive_and_aliases_resolve():
    assert load_machine("H100").name == load_machine("h100-sxm5").name == "NVIDIA H100 SXM5 80GB"
    assert load_machine("Tesla-T4").name == "NVIDIA T4"
    with pytest.raises(MachineFileError, match="unknown machine 'b300'"):
        load_machine("b300")


def test_both_spec_and_measured_are_carried_where_both_exist():
    t4 = load_machine("t4")
    assert t4.memory.dram.bandwidth.pick("spec").value == 320
    assert t4.memory.dram.bandwidth.pick("measured").value == 220
    # Only a measured L2 figure: either preference gets it.
    assert t4.memory.l2.bandwidth.pick("spec").kind == "measured"


def test_merge_replaces_quantities_whole_and_merges_mappings():
    base = {"a": {"x": {"value": 1, "unit": "B", "source": "s", "kind": "spec"}, "y": 2}}
    out = merge_overrides(base, {"a": {"x": {"value": 5}}})
    assert out["a"]["x"] == {"value": 5}
    assert out["a"]["y"] == 2


def test_hopper_has_clusters_and_older_chips_do_not():
    assert load_machine("h100").cluster.tma_multicast
    assert all(load_machine(n).cluster is None for n in ("a100", "t4", "v100"))


def test_machine_files_ship_in_the_wheel_and_load_from_another_directory(tmp_path):
    """A plain, non-editable install must find the machine files (force-included in the wheel)."""
    pytest.importorskip("hatchling")
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    wheel = next(out.glob("roofmodel-*.whl"))
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    for name in builtin_machine_names():
        assert f"roofmodel/machines/{name}.yaml" in names
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "import roofmodel, sys; m = roofmodel.load_machine('h100'); print(m.source_file)"
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=elsewhere,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    )
    assert Path(res.stdout.strip()).is_relative_to(site)
