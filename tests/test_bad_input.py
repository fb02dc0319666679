"""Bad input: one clear line naming the problem, a non-zero exit, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_builtin


def _assert_one_line_error(result, *needles: str) -> None:
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr
    assert "Traceback" not in err and "Traceback" not in result.stdout
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("roofmodel: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert result.stdout == ""


CLI_CASES = [
    (
        ["analyze", "--machine", "b300", "--m", "64"],
        ["unknown machine 'b300'", "a100, b200, h100, h200, l40s, mi300x, rtx4090, t4, v100"],
    ),
    (["analyze", "--machine", "h100", "--m", "0"], ["--m", "> 0", "got 0"]),
    (["analyze", "--machine", "h100", "--m", "-5"], ["--m", "got -5"]),
    (["analyze", "--machine", "h100", "--m", "64", "--n", "0"], ["--n"]),
    (["analyze", "--machine", "h100", "--m", "64", "--k", "-1"], ["--k"]),
    (["analyze", "--machine", "h100", "--m", "1.5"], ["--m"]),
    (["analyze", "--machine", "h100", "--m", "abc"], ["--m"]),
    (["analyze", "--machine", "h100"], ["--m"]),
    (["analyze", "--m", "64"], ["--machine"]),
    (["analyze", "--machine", "h100", "--m", "64", "--dtype", "fp9"], ["--dtype", "fp9"]),
    (["analyze", "--machine", "t4", "--m", "64", "--dtype", "tf32"], ["no tf32 pipe"]),
    (["analyze", "--machine", "h100", "--m", "64", "--tile", "1024x1024"], ["--tile 1024x1024", "shared memory"]),
    (["analyze", "--machine", "h100", "--m", "64", "--tile", "128x"], ["--tile", "BMxBN"]),
    (["analyze", "--machine", "h100", "--m", "64", "--tile", "0x128"], ["BM must be > 0"]),
    (["analyze", "--machine", "a100", "--m", "64", "--tile", "64x64", "--reg-tile", "3x4"], ["divisible"]),
    (
        ["analyze", "--machine", "a100", "--m", "64", "--reg-tile", "16x16"],
        ["--reg-tile 16x16", "registers per thread"],
    ),
    (["analyze", "--machine", "h100", "--m", "64", "--dtype", "fp16", "--reg-tile", "32x64"], ["multiple of 64 rows"]),
    (["analyze", "--machine", "h100", "--m", "64", "--levels", "dram,l3"], ["unknown level 'l3'"]),
    (["analyze", "--machine", "h100", "--m", "64", "--levels", "l2,smem,rf"], ["must include 'dram'"]),
    (
        ["analyze", "--machine", "h100", "--m", "64", "--dtype", "fp16", "--levels", "dram,rf"],
        ["not on the operand path"],
    ),
    (["analyze", "--machine", "h100", "--m", "64", "--instruction", "wgmma"], ["not available"]),
    (["analyze", "--machine", "h100", "--m", "64", "--bandwidth", "best"], ["--bandwidth"]),
    (["analyze", "--machine", "h100", "--m", "64", "--stages", "0"], ["--stages", ">= 1"]),
    (["analyze", "--machine", "h100", "--m", "64", "--clock-mhz", "-1"], ["--clock-mhz"]),
    (["analyze", "--machine", "h100", "--m", "64", "--clock-mhz", "nan"], ["--clock-mhz"]),
    (["analyze", "--machine", "h100", "--m", "64", "--bogus"], ["--bogus"]),
    (["analyze", "--machine", "h100", "--m", "64", "--acc", "fp16"], ["fp32 GEMM accumulates in fp32"]),
    (["show-machine", "nope"], ["unknown machine 'nope'"]),
    (["analyze", "--machine", "a100", "--m", "64", "--cluster", "2x1"], ["no thread block clusters"]),
    (["analyze", "--machine", "h100", "--m", "64", "--cluster", "2by1"], ["--cluster", "CMxCN"]),
    (["analyze", "--machine", "h100", "--m", "64", "--cluster", "0x1"], ["--cluster", ">= 1"]),
    (["analyze", "--machine", "h100", "--m", "64", "--raster", "zigzag"], ["unknown order"]),
    (["analyze", "--machine", "h100", "--m", "64", "--raster", "swizzle:3"], ["power of two"]),
    (["analyze", "--machine", "h100", "--m", "64", "--raster", "superm:3"], ["divide"]),
    (["analyze", "--machine", "h100", "--m", "64", "--warps", "0"], ["--warps"]),
    (["analyze", "--machine", "h100", "--m", "64", "--warps", "3"], ["--warps 3"]),
    (["analyze", "--machine", "h100", "--m", "64", "--regs", "300"], ["--regs"]),
    (["raster", "--machine", "h100", "--m", "64", "--order", "nope"], ["unknown order"]),
    (["frobnicate"], ["frobnicate"]),
]


# analyze's defaults before roofmodel.defaults (issue 14), which these cases were written against;
# given first, so that a case's own --dtype, --stages or --raster wins.
OLD_ANALYZE_DEFAULTS = ["--dtype", "fp32", "--stages", "2", "--raster", "row"]


@pytest.mark.parametrize(("args", "needles"), CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_bad_cli_arguments(cli, args, needles):
    if args[0] == "analyze":
        args = [args[0], *OLD_ANALYZE_DEFAULTS, *args[1:]]
    _assert_one_line_error(cli(*args), *needles)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _edit(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path


MACHINE_CASES = {
    "truncated": (lambda p: _write(p, p.read_text().split("unit: MHz")[0]), ["malformed YAML"]),
    "not a mapping": (lambda p: _write(p, "- just\n- a list\n"), ["top level"]),
    "empty": (lambda p: _write(p, ""), ["top level"]),
    "missing field": (lambda p: _edit(p, "sm_count:", "sm_kount:"), ["sm_count: required field is missing"]),
    "unknown key": (
        lambda p: _edit(p, "architecture: Hopper", "architecture: Hopper\ncolour: green"),
        ["colour: unknown key"],
    ),
    "negative": (
        lambda p: _edit(p, "value: 132, unit: SMs", "value: -132, unit: SMs"),
        ["sm_count.value", "> 0", "-132"],
    ),
    "zero bandwidth": (
        lambda p: _edit(p, "value: 3350, unit: GB/s", "value: 0, unit: GB/s"),
        ["memory.dram.bandwidth.spec.value", "> 0"],
    ),
    "nan": (lambda p: _edit(p, "value: 3350, unit: GB/s", "value: .nan, unit: GB/s"), ["finite"]),
    "infinite": (lambda p: _edit(p, "value: 3350, unit: GB/s", "value: .inf, unit: GB/s"), ["finite"]),
    "wrong type": (lambda p: _edit(p, "value: 132, unit: SMs", "value: many, unit: SMs"), ["sm_count.value"]),
    "bad unit": (
        lambda p: _edit(p, "value: 3350, unit: GB/s", "value: 3350, unit: GiB/s"),
        ["memory.dram.bandwidth.spec.unit"],
    ),
    "fractional count": (lambda p: _edit(p, "value: 132, unit: SMs", "value: 132.5, unit: SMs"), ["whole number"]),
    "kind mismatch": (
        lambda p: _edit(p, "value: 3067, unit: GB/s, kind: measured", "value: 3067, unit: GB/s, kind: spec"),
        ["kind must be 'measured'"],
    ),
    "python tag": (
        lambda p: _edit(p, "name: NVIDIA H100 SXM5 80GB", "name: !!python/object/apply:os.system ['echo hi']"),
        ["malformed YAML"],
    ),
}


@pytest.mark.parametrize("case", sorted(MACHINE_CASES))
def test_bad_machine_files(cli, tmp_path, case):
    mutate, needles = MACHINE_CASES[case]
    path = mutate(copy_builtin(tmp_path, "h100"))
    _assert_one_line_error(cli("analyze", "--machine", str(path), "--m", "64"), str(path), *needles)


def test_base_chain_that_loops(cli, tmp_path):
    (tmp_path / "a.yaml").write_text("base: b.yaml\nname: a\n")
    (tmp_path / "b.yaml").write_text("base: a.yaml\nname: b\n")
    _assert_one_line_error(cli("show-machine", str(tmp_path / "a.yaml")), "base chain loops")


def test_missing_file_and_directory(cli, tmp_path):
    _assert_one_line_error(cli("show-machine", str(tmp_path / "nope.yaml")), "no such file")
    d = tmp_path / "dir.yaml"
    d.mkdir()
    _assert_one_line_error(cli("show-machine", str(d)), "is a directory")


def test_partial_quantity_override_is_rejected(cli, tmp_path):
    # A quantity is replaced whole, so an override without unit and source is an error, not a
    # silent mix of the user's value and the base file's source.
    f = tmp_path / "partial.yaml"
    f.write_text("base: h100\nsm_count: {value: 114}\n")
    _assert_one_line_error(cli("show-machine", str(f)), "sm_count.", "required field is missing")
