"""The measured backend: its logic on recorded H100 measurements (CPU), the Triton kernel under
TRITON_INTERPRET=1 (CPU, where torch and triton are installed), and real runs (GPU only)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roofmodel.backends import missing_packages, require_gpu
from roofmodel.backends.ncu import parse_csv
from roofmodel.backends.records import read_csv, write_csv
from roofmodel.backends.validation import report_markdown, validate
from roofmodel.errors import BackendUnavailableError
from roofmodel.machine import load_machine
from tests.conftest import REPO

RECORDED = REPO / "docs" / "measurements" / "h100-2026-11-22"
HAS_TORCH_AND_TRITON = not missing_packages()


@pytest.fixture(scope="module")
def records():
    return read_csv(RECORDED / "gemm.csv")


def test_recorded_sweep_is_complete_and_correct(records):
    assert len(records) == 168
    assert len({(r.m, r.n, r.k) for r in records}) == 6  # square 2048-8192, short-K, long-K, skinny
    assert {r.group_m for r in records} == {1, 4, 8, 16}
    assert all(r.rel_error < 1e-2 for r in records)  # every kernel was checked before it was timed
    assert all(r.dram_read_bytes and r.dram_write_bytes for r in records)
    assert write_csv(records) == (RECORDED / "gemm.csv").read_text()  # round trip


def test_dram_writes_are_c_once_where_c_outgrows_l2(records):
    # The model writes C once. The counters agree where C (128 MiB at 8192^2 fp16) is larger than
    # the 50 MB L2; where C fits, much of it is still in the write-back L2 when the kernel ends
    # (2048^2: 5-19% of C reaches DRAM during the kernel), so "once" is an upper bound there.
    for r in records:
        ratio = r.dram_write_bytes / (r.m * r.n * 2)
        if (r.m, r.n, r.k) == (8192, 8192, 8192):
            assert ratio == pytest.approx(1.0, abs=0.02)
        if (r.m, r.n) == (2048, 2048) and r.k == 2048:
            assert ratio < 0.2


def test_raster_model_against_counted_dram_reads(records):
    """The cache model was fixed before these measurements (rasterization.CACHE_ASSUMPTION). On
    them: median error 0.4%, 137 of 168 within 15%. The test holds the model to that level, so a
    change that makes it worse against silicon fails here."""
    v = validate(load_machine("h100"), records)
    assert v.counted == 168
    assert v.dram_read_error["median_abs_pct"] < 1.0
    within = sum(1 for c in v.checks if abs(c.dram_read_error_pct) <= 15)
    assert within >= 137
    # Large tiles on large square problems: where the model is exact to a few percent.
    big = [
        c
        for c in v.checks
        if c.record.m == 8192 and c.record.k == 8192 and c.record.block_m * c.record.block_n >= 128 * 256
    ]
    assert big and all(abs(c.dram_read_error_pct) < 1.0 for c in big)


def test_known_failure_modes_stay_visible(records):
    """Where the model is wrong, and stays documented: short K with small GROUP_M (the real L2 keeps
    part of the previous wave where the model says all or nothing), and small tiles in row-major
    order on 8192^3 (a wave's panels are 3-5x the L2; CTAs drift apart along K and stop sharing)."""
    v = validate(load_machine("h100"), records)
    short_k = [c for c in v.checks if c.record.k == 1024 and c.record.group_m == 1]
    assert all(c.dram_read_error_pct < -15 for c in short_k)  # under-predicted
    drift = [c for c in v.checks if (c.record.m, c.record.k) == (8192, 8192) and c.record.group_m == 1
             and c.record.block_m * c.record.block_n <= 64 * 128]  # fmt: skip
    assert all(c.dram_read_error_pct < -40 for c in drift)


def _without_shared_l2(path):
    from tests.conftest import machine_from

    data = load_machine(path).model_dump(mode="json", exclude_none=True, exclude={"source_file"})
    data["memory"]["l2"].pop("shared_read_bandwidth", None)
    return machine_from(data)


def test_the_hierarchical_bound_and_same_address_l2_reads(records):
    """A falsified assumption and its repair. Counting every CTA's panel request at the L2's
    distinct-address rate, real kernels beat the bound (up to 1.7x with the calibrated ceilings);
    with the measured same-address rate for a wave's repeated requests, none does. Since issue 12
    the built-in h100 carries those measurements, so its bound holds too."""
    builtin = validate(load_machine("h100"), records)
    distinct_only = validate(_without_shared_l2(RECORDED / "h100-measured.yaml"), records)
    calibrated = validate(load_machine(RECORDED / "h100-measured.yaml"), records)
    assert builtin.bound_violations == 0 < distinct_only.bound_violations
    assert 1.5 < distinct_only.max_measured_over_bound < 1.8
    assert calibrated.bound_violations == 0 and calibrated.max_measured_over_bound < 1.0


def test_predicted_tflops_against_measured(records):
    """The predictor against the 168 kernels of 2026-11-22 (a regression guard, labelled as such:
    nothing was fitted on them; the per-CTA model's constants come from the broad sweep of
    2026-11-23 and its K-sweep microbenchmark). With the calibrated overlay: median 11.3%, p90 20.3% since a round's
    resident CTAs pay its prologue and epilogue beside their main loops (cta_model.round_cycles, 2026-11-29,
    pre-registered in 0dd3fc6 with these limits' move and judged on fresh38: the limits went from 10.5% / 19.5% to
    11.5% / 20.5%, pinning the model's figure again; at 1,980 MHz 7.0% / 17.3%, within the old limits below); 10.4%,
    19.0% since wgmma kernels' SM and memory times combine by their 8-norm (cta_model.OVERLAP_NORM, 2026-11-29; 7.1%, 17.0% before,
    Spearman 0.88-0.97, the first picks as before), past issue 13's 10% for fp16. These kernels show no knee: near it
    they were predicted 5-10% slow already (the L2-bound ones -10% median TFLOPS error), where the read broad sweeps'
    wgmma kernels are 12-14% fast, and the norm makes them slower. The norm was taken over them because the same 168
    configurations timed again on an H200 by the sweeps' harness (docs/measurements/h200-2026-11-29/tuned_replay,
    benchmarks/tuned_replay.py, tests/test_tuned_replay.py) do show it: at the clock recorded with each timing (the
    board at its power limit, median 1,500 MHz) they were 7.2% too fast within 15% of the knee, 1.5% with the norm,
    with the model of ca90d65 (with today's, which pays a round's prologue and epilogue, -4.6% and +0.2%).
    Why these differ is not known: they were timed over 200 ms of runs a kernel (do_bench rep=200; the sweeps take
    12 ms), on an H100. The overlay evaluates them at one sustained clock, 1,320 MHz, while their run's sampler
    recorded 1,980 MHz (median and maximum): at 1,980 MHz they read 7.0% / 17.1% with the norm (5.4% / 17.0% before),
    within this guard's old limits, which the second half holds. At 1,320 MHz the limits moved with the norm (median
    7.5% -> 10.5%, p90 18% -> 19.5%, then to 11.5% / 20.5% with the round's edges): they pin the model's figure
    there with two tenths of a point to spare, a regression guard, not a bar of accuracy. The 1,980 MHz half's worst
    Spearman is 0.859 with the round's edges (0.862 before), against its limit of 0.85
    (6.6%, 16.1% before the launch took an empty kernel on a full wave, 2026-11-29: these kernels of 31 us to
    several ms were predicted slow already, a median TFLOPS error of -4.9%, now -5.5%; 6.7%, 15.7% before DRAM and the L2 combined by their 2.5-norm, 6.0% before a stage's bytes were charged
    their time to stream in, both 2026-11-26)
    (the resource model it replaced: 24.7% and 49%); Spearman 0.89-0.97 within a shape (0.86-0.89
    before); its first-ranked configuration within 2.3% of the measured best on every shape but
    8192x8192x1024, 4.2% short (within 2.3% there too before the L2 took memory.l2.gemm_bandwidth and
    the overlap norm went to infinity, 2026-11-25)."""
    v = validate(load_machine(RECORDED / "h100-measured.yaml"), records)
    assert v.tflops_error["n"] == 168
    assert v.tflops_error["median_abs_pct"] < 11.5 and v.tflops_error["p90_abs_pct"] < 20.5
    assert min(v.spearman_by_shape.values()) > 0.85
    assert sorted(t["shortfall_pct"] for t in v.top_choice)[-2] <= 3
    assert max(t["shortfall_pct"] for t in v.top_choice) < 4.5
    # At the clock the run's sampler recorded: the old limits (the worst first pick there is 8192x8192x1024's, 8.5%
    # short, with the norm or without).
    at = validate(load_machine(RECORDED / "h100-measured.yaml"), records, 1980.0)
    assert at.tflops_error["median_abs_pct"] < 7.5 and at.tflops_error["p90_abs_pct"] < 18
    assert min(at.spearman_by_shape.values()) > 0.85


def test_committed_reports_are_current(records):
    prov = __import__("json").loads((RECORDED / "provenance.json").read_text())
    for name, machine in (("builtin", "h100"), ("calibrated", str(RECORDED / "h100-measured.yaml"))):
        text = report_markdown(validate(load_machine(machine), records), prov)
        assert (RECORDED / f"validation-{name}.md").read_text() == text, f"regenerate validation-{name}.md"


def test_calibrated_overlay_loads_and_is_marked_measured():
    m = load_machine(RECORDED / "h100-measured.yaml")
    assert m.memory.dram.bandwidth.measured.value == pytest.approx(3067.0)
    assert m.memory.dram.bandwidth.spec.value == 3350  # the base file's figures stay
    assert m.compute["fp16"].rate.measured.kind == "measured"
    assert "roofmodel calibrate on NVIDIA H100" in m.memory.l2.bandwidth.measured.source


def test_ncu_csv_parsing_scales_units():
    text = (
        '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
        '"0","_matmul_kernel","dram__bytes_read.sum","Mbyte","1,097.52"\n'
        '"0","_matmul_kernel","dram__bytes_write.sum","Gbyte","0.13"\n'
        '"1","_matmul_kernel","dram__bytes_read.sum","Kbyte","16.5"\n'
        '"0","_matmul_kernel","lts__t_sector_hit_rate.pct","%","81.2"\n'
    )
    got = parse_csv(text)
    assert got[0] == {
        "dram__bytes_read.sum": 1097.52e6,
        "dram__bytes_write.sum": 0.13e9,
        "lts__t_sector_hit_rate.pct": 81.2,
    }
    assert got[1] == {"dram__bytes_read.sum": 16500.0}


def test_require_gpu_names_what_is_missing(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(BackendUnavailableError, match=r"needs torch and triton: pip install 'roofmodel\[gpu\]'"):
        require_gpu()
    assert missing_packages() == ["torch", "triton"]


@pytest.mark.parametrize(
    "args",
    [
        ["measure", "--machine", "h100", "--m", "256", "--tile", "64x64x32"],
        ["calibrate", "--machine", "h100", "-o", "OUT/h100-measured.yaml"],
        ["sweep", "--out", "OUT/sweep", "--quick"],
    ],
)
def test_gpu_commands_without_a_gpu_say_so_in_one_line(cli, tmp_path, args):
    if not missing_packages():
        import torch

        if torch.cuda.is_available():
            pytest.skip("a GPU is present")
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    r = cli(*args)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("roofmodel: error: the measured backend needs")
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_validate_bad_input(cli, tmp_path):
    r = cli("validate", str(tmp_path))
    assert r.exit_code == 2 and "no gemm.csv" in r.stderr
    (tmp_path / "gemm.csv").write_text("not,a,roofmodel,file\n1,2,3,4\n")
    r = cli("validate", str(tmp_path))
    assert r.exit_code == 2 and "not a roofmodel gemm.csv" in r.stderr


def test_validate_cli_on_the_recorded_sweep(cli, tmp_path):
    png, png_tflops = tmp_path / "scatter.png", tmp_path / "tflops.png"
    r = cli("validate", str(RECORDED), "--machine", "h100", "--png", str(png), "--png-tflops", str(png_tflops))
    assert r.exit_code == 0, r.output
    assert "median absolute error 0.4%" in r.stdout
    assert png.stat().st_size > 20_000 and png_tflops.stat().st_size > 20_000


@pytest.mark.skipif(not HAS_TORCH_AND_TRITON, reason="needs torch and triton (CPU builds suffice)")
@pytest.mark.parametrize("dtype", ["fp32", "fp16", "tf32"])
def test_triton_kernel_is_correct_under_the_interpreter(dtype):
    # bf16 is left to the GPU test: the interpreter computes through numpy, which has no bfloat16.
    code = (
        "from roofmodel.backends.triton_gemm import run_config\n"
        f"r = run_config(70, 50, 90, '{dtype}', 32, 32, 16, 2, 4, 2, device='cpu', time_it=False)\n"
        "assert r['rel_error'] < 1e-2, r\n"
        f"r = run_config(64, 96, 40, '{dtype}', 32, 32, 16, 1, 4, 2, device='cpu', time_it=False, seed=3)\n"
        "assert r['rel_error'] < 1e-2, r\n"
    )
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=600)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["fp16", "bf16", "fp32", "tf32"])
def test_triton_kernel_on_the_gpu(dtype):
    from roofmodel.backends.triton_gemm import run_config

    r = run_config(1000, 700, 900, dtype, 64, 64, 32, 4, 4, 3)
    assert r["rel_error"] < 1e-2 and r["tflops"] > 0 and r["registers_per_thread"] > 0


def test_recorded_files_exist():
    for name in ("gemm.csv", "provenance.json", "h100-measured.yaml", "device-log.txt"):
        assert (RECORDED / name).is_file()
    assert Path(REPO / "docs" / "img" / "validation_dram_h100.png").is_file()


def test_timing_noise_between_two_runs_is_a_few_percent():
    from roofmodel.backends.sweep import _key

    first = {_key(r.model_dump()): r for r in read_csv(RECORDED / "gemm.csv")}
    again = read_csv(RECORDED / "repeat-fp16" / "gemm.csv")
    diffs = sorted(abs(r.time_ms / first[_key(r.model_dump())].time_ms - 1) for r in again)
    assert len(diffs) == 36
    assert diffs[len(diffs) // 2] < 0.02 and diffs[-1] < 0.05


def test_l2_serves_same_address_reads_faster_than_distinct_ones():
    rows = __import__("json").loads((RECORDED / "l2_sharing.json").read_text())
    med = {(r["shared"], r["programs_per_sm"]): r["gb_per_s"][1] for r in rows}
    assert med[(True, 4)] / med[(False, 4)] > 2.0
    # ... which is more than the most any GEMM beat the bound by, with the calibrated ceilings.
    distinct_only = validate(_without_shared_l2(RECORDED / "h100-measured.yaml"), read_csv(RECORDED / "gemm.csv"))
    assert med[(True, 4)] / med[(False, 4)] > distinct_only.max_measured_over_bound


@pytest.mark.parametrize(("sub", "n", "median_below"), [("tf32", 12, 2.0), ("fp32", 36, 16.0)])
def test_other_dtypes_recorded(sub, n, median_below):
    rs = read_csv(RECORDED / sub / "gemm.csv")
    assert len(rs) == n and all(r.dtype == sub and r.dram_read_bytes for r in rs)
    v = validate(load_machine("h100"), rs)
    assert v.dram_read_error["median_abs_pct"] < median_below
    assert v.bound_violations == 0


def test_bf16_hold_out():
    """The bf16 grid, run after the model and its tie-break were fixed (a regression guard on data the
    per-CTA model's constants were not fitted on, but since 2026-11-26 a guard of the fit, which bars a memory
    norm that breaks it): median 13.6%, p90 20.6% since a round's resident CTAs pay its prologue and epilogue beside
    their main loops (cta_model.round_cycles, 2026-11-29, pre-registered in 0dd3fc6 with this move of the limits,
    13.5% / 20% -> 14% / 21%, pinning the model's figure; 9.8% / 17.9% at 1,980 MHz); 13.0%, 19.4% since wgmma
    kernels' SM and memory times combine by their 8-norm
    (cta_model.OVERLAP_NORM, 2026-11-29; the limits moved with it, median 9% -> 13.5%, p90 18% -> 20%, pinning the
    model's figure: these kernels too show no knee and are evaluated at the overlay's one clock of 1,320 MHz; at the
    1,980 MHz their run recorded, 9.3% / 17.9% with the norm, 7.1% / 17.7% before;
    test_predicted_tflops_against_measured says why the norm was taken over them), Spearman 0.90-0.98, the first
    picks as before; 8.7%, 17.7% before it (7.6%, 16.5% before the launch took an empty kernel on a full wave,
    2026-11-29: the grid's kernels were predicted slow already, -7.6% median TFLOPS error, now -8.5%, its 2048^3
    kernels of 31-33 us 2 points more; 16.0% before DRAM and the L2 combined by their 2.5-norm; 6.8%
    before a stage's bytes were charged their time to stream in, both 2026-11-26), Spearman 0.89-0.98,
    first-ranked within 2.1% of the best on every shape but 8192x8192x1024, 7.2% short (within 2.1% before
    the L2 took memory.l2.gemm_bandwidth, 2026-11-25; before the per-CTA model: 25.4%, 45.6%, 0.86-0.89)."""
    rs = read_csv(RECORDED / "bf16" / "gemm.csv")
    assert len(rs) == 168 and all(r.dtype == "bf16" and r.rel_error < 2e-2 and r.dram_read_bytes for r in rs)
    v = validate(load_machine(RECORDED / "h100-measured.yaml"), rs)
    assert v.dram_read_error["median_abs_pct"] < 1.0
    assert v.tflops_error["median_abs_pct"] < 14 and v.tflops_error["p90_abs_pct"] < 21
    assert min(v.spearman_by_shape.values()) > 0.85
    assert sorted(t["shortfall_pct"] for t in v.top_choice)[-2] <= 3
    assert max(t["shortfall_pct"] for t in v.top_choice) < 7.5
    assert v.bound_violations == 0
