"""The library as a notebook user expects it (issue 14, item 4): the public names resolve, take a
machine name or a Machine, and default N and K to M and the rest to roofmodel.defaults, as the CLI does."""

from __future__ import annotations

import pytest

import roofmodel
from roofmodel import Gemm, Tile, defaults


@pytest.mark.parametrize("name", roofmodel.__all__)
def test_every_public_name_resolves(name):
    assert getattr(roofmodel, name) is not None


def test_gemm_and_tile_as_a_user_writes_them():
    assert Gemm(4096) == Gemm(m=4096, n=4096, k=4096, dtype=defaults.DTYPE)
    assert Gemm(m=128, k=8192) == Gemm(128, 128, 8192)
    assert Tile(128, 256, 64) == Tile(bm=128, bn=256, bk=64)
    with pytest.raises(roofmodel.ProblemError, match="gemm: m"):
        Gemm(0)


def test_analyze_predict_and_tune_take_a_machine_name():
    h100 = roofmodel.load_machine("h100")
    g = Gemm(4096)
    assert roofmodel.analyze("h100", g).peak_tflops == roofmodel.analyze(h100, g).peak_tflops
    by_name = roofmodel.predict("h100", g, Tile(128, 256, 64), warps=8)
    assert by_name.seconds == roofmodel.predict(h100, g, Tile(128, 256, 64), warps=8).seconds
    report = roofmodel.tune("h100", Gemm(2048), top=3)
    assert len(report.top) == 3 and report.top[0].seconds <= report.top[-1].seconds


def test_an_unknown_machine_name_is_one_clear_error():
    with pytest.raises(roofmodel.MachineFileError, match="unknown machine"):
        roofmodel.analyze("h1000", Gemm(64))


def test_side_by_side_puts_the_same_gemm_on_each_machine():
    from roofmodel.api import side_by_side
    from roofmodel.render.text import render_side_by_side

    g = Gemm(8192)
    doc = side_by_side(["h100", "h200"], g)
    h100, h200 = doc.columns
    for col, name in ((h100, "h100"), (h200, "h200")):
        a = roofmodel.analyze(name, g)
        assert col.peak_tflops == a.peak_tflops and col.limiting == a.limiting
        assert col.dram_gb_per_s == a.stages[0].bandwidth_gb_per_s
        best = roofmodel.tune(name, g, top=1).top[0]
        assert (col.best_config, col.best_seconds) == (best.config.label(), best.seconds)
    # The same SMs and tensor cores with more HBM bandwidth (4.8 against 3.35 TB/s datasheet): the same
    # peak, a lower DRAM balance point, and a DRAM stage that needs less reuse.
    assert h200.peak_tflops == h100.peak_tflops
    assert h200.dram_balance_flop_per_byte < h100.dram_balance_flop_per_byte
    assert h200.required_reuse["DRAM->L2"] < h100.required_reuse["DRAM->L2"]
    text = render_side_by_side(doc)
    assert "h100" in text and "h200" in text and "best kernel (all space)" in text
    with pytest.raises(roofmodel.ProblemError, match="--machine"):
        side_by_side([], g)
