"""Pictures: the data behind each plot against the model, and the files a person would open."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from roofmodel import Gemm, ProblemError, Tile, analyze, load_machine
from roofmodel.render.plots import (
    budget_data,
    budget_figure,
    figure_bytes,
    raster_figure,
    roofline_data,
    roofline_figure,
    tile_map_data,
)
from roofmodel.units import fma_per_cycle_per_sm_to_tflops


@pytest.fixture(scope="module")
def h100_fp16():
    m = load_machine("h100")
    return m, analyze(m, Gemm(m=4096, n=4096, k=4096, dtype="fp16"), raster="grouped:8")


def test_roofline_data_matches_the_model(h100_fp16):
    machine, r = h100_fp16
    d = roofline_data(machine, r)
    assert [c.level for c in d.ceilings] == ["DRAM", "L2", "smem"]
    assert [c.bandwidth_gb_per_s for c in d.ceilings] == [x.bandwidth_gb_per_s for x in r.roofs]
    peaks = {p.dtype: p.tflops for p in d.peaks}
    assert peaks["fp16"] == pytest.approx(989.4, abs=0.05)  # at the analysed clock, 1.83 GHz
    assert peaks["fp32"] == pytest.approx(fma_per_cycle_per_sm_to_tflops(128, 132, 1.83e9))
    for c in d.ceilings:
        assert d.ridges[c.level] == pytest.approx(r.peak_tflops * 1e12 / (c.bandwidth_gb_per_s * 1e9))
    assert [p.intensity_flop_per_byte for p in d.points] == [x.intensity_flop_per_byte for x in r.roofs]
    assert all(p.tflops == r.hierarchical_bound_tflops for p in d.points)
    limiting = [p for p in d.points if p.limiting]
    assert len(limiting) == 1
    # The limiting level's roof is the bound, or above it where the peak binds (since issue 12 this
    # GEMM is compute-bound on the built-in H100: shared memory is at its 128 B/cycle/SM bank limit).
    roof = (
        limiting[0].intensity_flop_per_byte
        * next(c.bandwidth_gb_per_s for c in d.ceilings if c.level == limiting[0].level)
        / 1e3
    )
    assert roof >= r.hierarchical_bound_tflops * (1 - 1e-9)
    assert r.hierarchical_bound_tflops == pytest.approx(min(roof, r.peak_tflops))
    # equal peaks share a label (fp16/bf16, fp8/int8)
    assert {p.label for p in d.peaks if p.dtype in ("fp16", "bf16")} == {"fp16/bf16 tensor 989.4 TFLOPS"}


def test_budget_data_matches_the_stages(h100_fp16):
    _, r = h100_fp16
    for bar, s in zip(budget_data(r), r.stages, strict=True):
        assert bar.raw == s.bandwidth_bytes_per_cycle_per_sm
        assert bar.after_tiling == pytest.approx(s.bandwidth_bytes_per_cycle_per_sm * s.in_sm_reuse)
        assert bar.achieved == pytest.approx(s.bandwidth_bytes_per_cycle_per_sm * s.achieved_reuse)
        assert bar.missing == s.missing_amplification
        assert bar.achieved >= bar.demand * (1 - 1e-9) or bar.missing > 1


def test_tile_map_marks_what_does_not_fit_and_agrees_with_analyze():
    m = load_machine("t4")
    g = Gemm(m=2048, n=2048, k=2048, dtype="fp16")
    # Two stages, stated: with the shared default of three, 64x128x64 needs 72 KiB of the T4's 64.
    data = tile_map_data(m, g, edges=(32, 64, 128, 512), stages=2)
    i, j = 1, 2  # 64 x 128
    assert data.bound_tflops[i][j] == pytest.approx(
        analyze(m, g, tile=Tile(bm=64, bn=128), stages=2).amplification_bound_tflops
    )
    assert data.bound_tflops[3][3] is None  # 512x512 cannot fit 64 KiB of shared memory
    with pytest.raises(ProblemError):
        analyze(m, g, tile=Tile(bm=512, bn=512), stages=2)
    assert "shared memory" in data.reasons[3][3]


def _check_png(data: bytes) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert 20_000 < len(data) < 2_000_000


def test_figures_render_to_valid_files(h100_fp16):
    machine, r = h100_fp16
    _check_png(figure_bytes(roofline_figure([roofline_data(machine, r)]), "png"))
    _check_png(figure_bytes(budget_figure(r), "png"))
    svg = figure_bytes(budget_figure(r), "svg")
    assert ET.fromstring(svg).tag.endswith("svg")
    assert figure_bytes(budget_figure(r), "pdf").startswith(b"%PDF")
    small = analyze(machine, Gemm(m=2048, n=2048, k=512, dtype="fp16"), tile=Tile(bm=128, bn=128), raster="grouped:4")
    _check_png(figure_bytes(raster_figure(small), "png"))


@pytest.mark.parametrize(
    ("args", "suffix"),
    [
        (["roofline", "--machine", "a100,h100,t4,v100", "--m", "4096"], "png"),
        (["roofline", "--machine", "h100", "--m", "4096", "--dtype", "bf16"], "svg"),
        (["budget", "--machine", "h100", "--m", "8192", "--cluster", "2x1"], "pdf"),
        (["tiles", "--machine", "t4", "--m", "2048"], "png"),
        (["raster", "--machine", "h100", "--m", "4096", "--tile", "128x256", "--order", "grouped:8"], "png"),
    ],
)
def test_plot_commands_write_files(cli, tmp_path, args, suffix):
    out = tmp_path / f"plot.{suffix}"
    r = cli("plot", *args, "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.stat().st_size > 10_000
    assert r.stdout.strip() == f"wrote {out}"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["raster", "--machine", "h100", "--m", "65536"], "too large to draw"),
        (["budget", "--machine", "h100", "--m", "64", "--format", "gif"], "cannot tell the format"),
        (["budget", "--machine", "h100", "--m", "0"], "--m"),
        (["roofline", "--machine", ",", "--m", "64"], "at least one machine"),
        (["raster", "--machine", "h100", "--m", "64", "--waves", "0"], "--waves"),
    ],
)
def test_bad_plots_write_nothing(cli, tmp_path, args, needle):
    out = tmp_path / "x.gif" if "gif" in args else tmp_path / "x.png"
    r = cli("plot", *args, "-o", str(out))
    assert r.exit_code == 2
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_missing_directory(cli, tmp_path):
    r = cli("plot", "budget", "--machine", "h100", "--m", "64", "-o", str(tmp_path / "no" / "x.png"))
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_plots_module_imports_matplotlib_only_when_drawing():
    code = (
        "import sys, roofmodel.render.plots as p\n"
        "assert 'matplotlib' not in sys.modules\n"
        "from roofmodel import load_machine, analyze, Gemm\n"
        "m = load_machine('a100'); r = analyze(m, Gemm(m=512, n=512, k=512))\n"
        "p.budget_data(r); p.roofline_data(m, r)\n"
        "assert 'matplotlib' not in sys.modules\n"
        "p.budget_figure(r)\n"
        "assert 'matplotlib' in sys.modules and 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
