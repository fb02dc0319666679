"""Pictures: the data behind each plot against the model, and the files a person would open."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from roofmodel import Gemm, ProblemError, Tile, analyze, load_machine
from roofmodel.machine import builtin_machine_names
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
    # fp32 at its own rated clock, 1.98 GHz, as `analyze --dtype fp32` prints (issue 14: it was drawn
    # at the tensor clock, 1.83 GHz, 61.8 TFLOPS)
    assert peaks["fp32"] == pytest.approx(fma_per_cycle_per_sm_to_tflops(128, 132, 1.98e9))
    assert peaks["fp32"] == pytest.approx(66.9, abs=0.05)
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


# ---------------------------------------------------------------------------------------------
# Issue 14: each compute roof at its own pipe's clock; titles that name the GEMM and the tile; one
# line style per memory level across machines; one call draws a roofline.


@pytest.mark.parametrize("name", builtin_machine_names())
@pytest.mark.parametrize("analysed", ["fp16", "fp32"])
def test_every_compute_roof_is_the_peak_analyze_prints(name, analysed):
    machine = load_machine(name)
    d = roofline_data(machine, analyze(machine, Gemm(m=4096, n=4096, k=4096, dtype=analysed)))
    # every pipe a GEMM can run on (fp4 is a peak the file carries, not a GEMM the model runs)
    assert sorted(p.dtype for p in d.peaks) == sorted(set(machine.compute) - {"fp4"})
    for p in d.peaks:
        expected = analyze(machine, Gemm(m=4096, n=4096, k=4096, dtype=p.dtype)).peak_tflops
        assert p.tflops == pytest.approx(expected, rel=1e-9), (name, p.dtype)


@pytest.mark.parametrize("clock", ["boost", "rated", 1500.0])
def test_compute_roofs_follow_the_clock_option(clock):
    machine = load_machine("h100")
    d = roofline_data(machine, analyze(machine, Gemm(4096), clock=clock))
    for p in d.peaks:
        expected = analyze(machine, Gemm(4096, dtype=p.dtype), clock=clock).peak_tflops
        assert p.tflops == pytest.approx(expected, rel=1e-9), (clock, p.dtype)


def test_a_roof_at_another_clock_says_which(h100_fp16):
    machine, r = h100_fp16
    labels = {p.dtype: p.label for p in roofline_data(machine, r).peaks}
    assert labels["fp32"] == "fp32 CUDA core 66.9 TFLOPS at 1,980 MHz"
    assert "MHz" not in labels["fp16"]  # the analysed clock is in the title


def _title(fig) -> str:
    return fig.axes[0].get_title()


def test_single_title_names_the_gemm_the_tile_and_the_bound():
    from roofmodel.render.plots import roofline_plot

    fig = roofline_plot("h100", Gemm(4096), tile=Tile(bm=128, bn=256, bk=64))
    r = analyze("h100", Gemm(4096), tile=Tile(bm=128, bn=256, bk=64))
    head = _title(fig).splitlines()[0]
    assert (
        head
        == f"NVIDIA H100 SXM5 80GB: 4096x4096x4096 fp16 GEMM, tile 128x256x64 — bound {r.hierarchical_bound_tflops:,.0f} TFLOPS"
    )
    assert "1830 MHz" in _title(fig)


def test_overlay_title_names_the_gemm_and_each_machines_tile():
    from roofmodel.render.plots import roofline_plot

    fig = roofline_plot(["a100", "t4"], Gemm(2048))
    title = _title(fig)
    assert title.splitlines()[0] == "Hierarchical rooflines: 2048x2048x2048 fp16 GEMM"
    for name in ("a100", "t4"):
        r = analyze(name, Gemm(2048))
        short = r.machine.name.replace("NVIDIA ", "").split()[0]
        tile = "x".join(str(v) for v in r.tiles.cta)
        assert f"{short}: tile {tile}, bound {r.hierarchical_bound_tflops:,.0f} TFLOPS" in title


def _memory_roofs(fig) -> list:
    return [line for line in fig.axes[0].get_lines() if str(line.get_gid()).startswith("memory-roof:")]


def test_overlay_keeps_one_line_style_per_level_and_one_colour_per_machine():
    from matplotlib.colors import to_hex

    from roofmodel.render.plots import LEVEL_STYLE, roofline_plot

    names = ["a100", "h100", "t4", "v100"]
    fig = roofline_plot(names, Gemm(8192))
    single = {line.get_gid().split(":")[1]: line.get_linestyle() for line in _memory_roofs(roofline_plot("h100"))}
    assert single == {"DRAM": "-", "L2": "--", "smem": "-."}
    style: dict[str, set[str]] = {}
    colour: dict[str, set[str]] = {}
    for line in _memory_roofs(fig):
        _, level, machine = line.get_gid().split(":", 2)
        assert level in line.get_label()  # "H100 smem 30,920 GB/s"
        style.setdefault(level, set()).add(line.get_linestyle())
        colour.setdefault(machine, set()).add(to_hex(line.get_color()))
    assert {level: s.pop() for level, s in style.items() if len(s) == 1} == single
    assert {level: LEVEL_STYLE[level] for level in style} == single
    assert len(colour) == len(names) and all(len(c) == 1 for c in colour.values())
    assert len({c.pop() for c in colour.values()}) == len(names)
    legends = [a for a in fig.axes[0].get_children() if type(a).__name__ == "Legend"]
    titles = {lg.get_title().get_text() for lg in legends}
    assert {"memory level: line style", "machine: colour"} <= titles
    key = next(lg for lg in legends if lg.get_title().get_text() == "memory level: line style")
    assert {h.get_label(): h.get_linestyle() for h in key.legend_handles} == {
        f"{lv} roof": ls for lv, ls in single.items()
    }


def test_roofline_plot_takes_names_paths_machines_and_defaults_the_gemm(tmp_path):
    from pathlib import Path

    import roofmodel
    from roofmodel.render.plots import roofline_plot

    by_name = roofline_plot("t4")
    assert "4096x4096x4096 fp16 GEMM" in _title(by_name)  # the default GEMM
    path = Path(roofmodel.__file__).resolve().parent.parent / "machines" / "t4.yaml"
    assert _title(roofline_plot(path)) == _title(by_name)
    assert _title(roofline_plot(load_machine("t4"))) == _title(by_name)
    assert len(_memory_roofs(roofline_plot([load_machine("t4"), "a100"]))) == 6


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf", "PNG"])
def test_roofline_plot_writes_the_format_its_suffix_names(tmp_path, suffix):
    from roofmodel.render.plots import roofline_plot

    out = tmp_path / f"roof.{suffix}"
    fig = roofline_plot("h100", Gemm(4096), out=out)
    data = out.read_bytes()
    assert {"png": data[:4] == b"\x89PNG", "svg": b"<svg" in data[:2000], "pdf": data[:4] == b"%PDF"}[suffix.lower()]
    assert fig.axes and [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize("name", ["roof.gif", "roof", "roof.png.bak"])
def test_roofline_plot_refuses_other_suffixes_and_writes_nothing(tmp_path, name):
    from roofmodel import RoofmodelError
    from roofmodel.render.plots import roofline_plot

    with pytest.raises(RoofmodelError, match=r"\.png, \.svg or \.pdf"):
        roofline_plot("h100", out=tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_roofline_plot_leaves_no_file_when_writing_fails(tmp_path, monkeypatch):
    import os

    from roofmodel import RoofmodelError
    from roofmodel.render.plots import roofline_plot

    with pytest.raises(RoofmodelError, match="does not exist"):
        roofline_plot("h100", out=tmp_path / "missing" / "roof.png")

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(RoofmodelError, match="cannot write"):
        roofline_plot("h100", out=tmp_path / "roof.png")
    assert list(tmp_path.iterdir()) == []


def test_roofline_plot_refuses_an_empty_list():
    from roofmodel.render.plots import roofline_plot

    with pytest.raises(ProblemError, match="at least one machine"):
        roofline_plot([])
