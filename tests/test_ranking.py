"""roofmodel rank --configs FILE (issue 13): a Triton autotune list or a sweep's CSV, ranked by the
per-CTA model with the limiter per row and the measured figure beside it where the file has one."""

from __future__ import annotations

import json

import pytest

from roofmodel import Gemm, ProblemError, load_machine
from roofmodel.search.ranking import rank_configs, read_configs
from tests.conftest import REPO

BROAD = REPO / "docs" / "measurements" / "h100-2026-11-23" / "broad.csv"

AUTOTUNE = """\
configs:
  - kwargs: {BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64, GROUP_M: 8}
    num_warps: 8
    num_stages: 3
  - kwargs: {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, GROUP_M: 8}
    num_warps: 4
    num_stages: 4
  - kwargs: {BLOCK_M: 256, BLOCK_N: 256, BLOCK_K: 32, GROUP_M: 8}
    num_warps: 8
    num_stages: 3
"""


def test_an_autotune_list_is_ranked_fastest_first(tmp_path):
    path = tmp_path / "autotune.yaml"
    path.write_text(AUTOTUNE)
    r = rank_configs(load_machine("h100"), read_configs(path), gemm=Gemm(m=8192, n=8192, k=8192, dtype="fp16"))
    assert r.configs == 3 and r.problems == 1 and [x.rank for x in r.ranked] == [1, 2, 3]
    assert [x.seconds for x in r.ranked] == sorted(x.seconds for x in r.ranked)
    assert r.ranked[0].row == 1  # 128x256x64 with 8 warps: two warpgroups of 64x256, no spills
    spiller = next(x for x in r.ranked if x.row == 3)  # 256x256 with 8 warps: 256 accumulators a thread
    assert spiller.spilled_registers > 0 and spiller.rank == 3
    assert r.spearman is None and all(x.measured_seconds is None for x in r.ranked)


def test_a_sweep_csv_is_ranked_per_problem_with_its_measurements(tmp_path):
    lines = BROAD.read_text().splitlines()
    head, rows = lines[0], [x for x in lines[1:] if x.startswith("sweep,sq4096,") and ",fp16," in x]
    path = tmp_path / "sweep.csv"
    path.write_text("\n".join([head, *rows]) + "\n")
    r = rank_configs(load_machine("h100"), read_configs(path), clock=1980)
    assert r.problems == 1 and r.configs == len(rows) >= 20
    assert all(x.measured_tflops and x.error_pct is not None for x in r.ranked)
    # the compiled counts are used: every row's registers are the CSV's
    assert r.spearman is not None and r.spearman > 0.5
    assert r.first_over_best is not None and 0 < r.first_over_best <= 1


def test_bad_config_files_are_one_line(cli, tmp_path):
    cases = {
        "bad.yaml": ("configs: [1, 2]", "expected a list of mappings"),
        "nums.yaml": ("- {BLOCK_M: 64, BLOCK_N: x, BLOCK_K: 32}", "BLOCK_N: not a number"),
        "missing.yaml": ("- {BLOCK_M: 64, BLOCK_K: 32}", "BLOCK_N is missing"),
        "empty.csv": ("", "no configurations"),
        "broken.yaml": ("- {BLOCK_M: [", "not valid YAML"),
        "kwargs.yaml": ("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, kwargs: [1, 2]}", "kwargs must be a mapping"),
        "inf.yaml": ("- {BLOCK_M: .inf, BLOCK_N: 64, BLOCK_K: 32}", "BLOCK_M: must be finite"),
        "regs.yaml": ("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, registers_per_thread: abc}", "not a number"),
        "spill.yaml": (
            "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, registers_per_thread: 100, spilled_registers: -5}",
            "spilled_registers: must be a whole number >= 0",
        ),
        "fast.yaml": ("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, time_ms: 0.000001}", "above the"),
        "alone.yaml": ("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, spilled_registers: 8}", "needs registers_per_thread"),
        "odd.yaml": ("- {BLOCK_M: 7, BLOCK_N: 9, BLOCK_K: 3}", "power of two of at least 16"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        r = cli("rank", "--machine", "h100", "--configs", str(path), "--m", "1024")
        assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1, (name, r.output)
    no_problem = tmp_path / "ok.yaml"
    no_problem.write_text("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32}")
    r = cli("rank", "--machine", "h100", "--configs", str(no_problem))
    assert r.exit_code == 2 and "give --m/--n/--k/--dtype" in r.stderr


def test_rank_command(cli, tmp_path):
    path = tmp_path / "autotune.yaml"
    path.write_text(AUTOTUNE)
    r = cli("rank", "--machine", "h100", "--configs", str(path), "--m", "4096", "--b-major", "k")
    assert r.exit_code == 0, r.output
    assert "4096x4096x4096 fp16" in r.stdout and "limited by" in r.stdout
    j = cli("rank", "--machine", "h100", "--configs", str(path), "--m", "4096", "--json")
    doc = json.loads(j.stdout)
    assert doc["configs"] == 3 and doc["ranked"][0]["rank"] == 1


def test_rows_that_a_preset_refuses_name_the_row(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 3}")
    with pytest.raises(ProblemError, match="power of two"):
        rank_configs(load_machine("h100"), read_configs(path), gemm=Gemm(m=1024, n=1024, k=1024, dtype="fp16"))


def test_compiled_spills_outside_the_loop_are_marked(cli, tmp_path):
    # The H100 sweep's fastest bf16 kernel of 5000x3000x4000 (255 registers, 16 spilled, its loop holding 176)
    # beside the same tile on 4 warps as compiled (255 + 204 spilled: its loop does not fit).
    path = tmp_path / "two.yaml"
    path.write_text(
        "- {BLOCK_M: 256, BLOCK_N: 128, BLOCK_K: 32, GROUP_M: 8, num_warps: 8, num_stages: 5,"
        " registers_per_thread: 255, spilled_registers: 16}\n"
        "- {BLOCK_M: 256, BLOCK_N: 128, BLOCK_K: 32, GROUP_M: 8, num_warps: 4, num_stages: 5,"
        " registers_per_thread: 255, spilled_registers: 204}\n"
    )
    args = ("rank", "--machine", "h100", "--configs", str(path), "--m", "5000", "--n", "3000", "--k", "4000",
            "--dtype", "bf16", "--b-major", "k")  # fmt: skip
    doc = json.loads(cli(*args, "--json").stdout)
    by_row = {x["row"]: x for x in doc["ranked"]}
    assert by_row[1]["loop_spilled_registers"] == 0 and by_row[2]["loop_spilled_registers"] == 204
    assert by_row[1]["rank"] == 1
    text = cli(*args).stdout
    assert "255+16*" in text and "255+204*" not in text and "*: none of them reloaded in the main loop" in text


def test_a_register_gamble_is_marked(cli, tmp_path):
    # 3000x5000x2000 fp16, B N-major (N = 5000: B loaded one element at a time). 128x128x128 on 4 warps is past
    # the register limit only by B's element pointers: faster by the rule, yet ranked after the configuration that
    # is no gamble (as tune ranks them), and marked; given what the compiler did, it is no gamble.
    path = tmp_path / "two.yaml"
    path.write_text(
        "- {BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 128, GROUP_M: 1, num_warps: 4, num_stages: 2}\n"
        "- {BLOCK_M: 256, BLOCK_N: 32, BLOCK_K: 64, GROUP_M: 1, num_warps: 4, num_stages: 2}\n"
    )
    args = ("rank", "--machine", "h100", "--configs", str(path), "--m", "3000", "--n", "5000", "--k", "2000")
    doc = json.loads(cli(*args, "--json").stdout)
    by_row = {x["row"]: x for x in doc["ranked"]}
    assert by_row[1]["register_gamble"] and not by_row[2]["register_gamble"]
    assert by_row[1]["seconds"] < by_row[2]["seconds"] and by_row[1]["rank"] == 2 and by_row[2]["rank"] == 1
    text = cli(*args).stdout
    assert "?: a register gamble, ranked after every configuration that is not one: past the per-thread" in text
    assert "1 problem(s), fastest first, register gambles last" in text.splitlines()[0]
    row1 = next(line for line in text.splitlines() if "128x128x128 w4 s2" in line)
    row2 = next(line for line in text.splitlines() if "256x32x64 w4 s2" in line)
    assert row1.rstrip().endswith("255?") and not row2.rstrip().endswith("?")
    compiled = rank_configs(load_machine("h100"), [{**read_configs(path)[0], "registers_per_thread": 255}],
                            gemm=Gemm(m=3000, n=5000, k=2000, dtype="fp16"))  # fmt: skip
    assert not compiled.ranked[0].register_gamble
