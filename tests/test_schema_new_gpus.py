"""The schema fields the new GPUs brought (issue 15), each refused when malformed: one line naming the
file and the field, exit 2, as every machine-file error (docs/machine-files.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import machine_dict


def _mutated(name: str, change: Any) -> dict[str, Any]:
    data = machine_dict(name)
    change(data)
    return data


def _set(path: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value

    return change


CASES = {
    # tcgen05 keeps its accumulator in tensor memory: the file must describe it
    "tcgen05 without memory.tmem": ("b200", _set("memory.tmem", None), "memory.tmem is missing"),
    "tcgen05 accumulating in registers": (
        "b200",
        _set("compute.fp16.instructions.0.accumulator_in", "rf"),
        "accumulator_in must be tmem",
    ),
    "wgmma accumulating in tensor memory": (
        "h100",
        _set("compute.fp16.instructions.0.accumulator_in", "tmem"),
        "accumulator_in must be rf",
    ),
    "tcgen05 with operands from registers": (
        "b200",
        _set("compute.fp16.instructions.0.operands_from", "rf"),
        "operands_from must be 'smem'",
    ),
    "mfma with operands from shared memory": (
        "mi300x",
        _set("compute.fp16.instructions.0.operands_from", "smem"),
        "operands_from must be 'rf'",
    ),
    "zero L2 partitions": (
        "mi300x",
        _set("memory.l2.private_partitions.value", 0),
        "memory.l2.private_partitions.value",
    ),
    "fractional warp size": ("mi300x", _set("limits.warp_size.value", 48.5), "limits.warp_size.value"),
    "an unknown dispatch": ("mi300x", _set("memory.l2.partition_dispatch", "random"), "partition_dispatch"),
    "an LLC without a bandwidth": ("mi300x", _set("memory.llc.bandwidth", None), "memory.llc.bandwidth"),
    "an unknown accumulator": (
        "rtx4090",
        _set(
            "compute.fp16.rate_by_accumulator",
            {"fp12": {"spec": {"value": 1, "unit": "TFLOPS", "kind": "spec", "source": "x"}}},
        ),
        "rate_by_accumulator",
    ),
    "an empty unpublished note": ("b200", _set("unpublished", {"sm_count": " "}), "unpublished"),
    "a malformed target": ("mi300x", _set("compute_capability", "gfx"), "compute_capability"),
    "an unknown engine": ("mi300x", _set("compute.fp16.engine", "xdl"), "compute.fp16.engine"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_malformed_new_field_is_one_line_naming_it(cli, tmp_path: Path, case: str) -> None:
    name, change, needle = CASES[case]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(_mutated(name, change), sort_keys=False))
    r = cli("show-machine", str(path))
    assert r.exit_code == 2, r.stdout
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("roofmodel: error: "), r.stderr
    assert str(path.name) in lines[0] and needle in lines[0], lines[0]


@pytest.mark.parametrize("name", ["b200", "l40s", "mi300x", "rtx4090"])
def test_each_new_file_round_trips_through_yaml(cli, tmp_path: Path, name: str) -> None:
    """A dumped new machine, written back as a user's file, loads and analyses as the built-in does."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(machine_dict(name), sort_keys=False))
    mine = cli("analyze", "--machine", str(path), "--m", "4096", "--json")
    builtin = cli("analyze", "--machine", name, "--m", "4096", "--json")
    assert mine.exit_code == builtin.exit_code == 0, mine.stderr + builtin.stderr
    import json

    a, b = json.loads(mine.stdout), json.loads(builtin.stdout)
    assert a["peak_tflops"] == b["peak_tflops"] and a["verdict"] == b["verdict"]
    assert [s["required_reuse"] for s in a["stages"]] == [s["required_reuse"] for s in b["stages"]]
