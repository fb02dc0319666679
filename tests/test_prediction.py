"""The predictor: every factor named, no prediction above the hierarchical bound, monotone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofmodel import Gemm, ProblemError, Tile, analyze, load_machine
from roofmodel.prediction import predict
from tests.conftest import machine_dict, machine_from

CONFIGS = st.sampled_from([(64, 64, 64), (128, 128, 64), (128, 256, 64), (256, 128, 32)])


def test_prediction_names_every_resource_and_takes_the_slowest():
    p = predict(load_machine("h100"), Gemm(m=8192, n=8192, k=8192, dtype="fp16"), Tile(bm=128, bn=256, bk=64),
                raster="grouped:8")  # fmt: skip
    assert {t.name for t in p.terms} == {"compute", "DRAM", "L2", "shared memory", "latency"}
    assert p.seconds == max(t.seconds for t in p.terms) == p.terms[0].seconds
    assert p.limiter == p.terms[0].name
    assert p.tflops == pytest.approx(2 * 8192**3 / p.seconds / 1e12)
    assert any(i.field == "compute.fp16.rate.spec" for i in p.inputs)


def test_compute_term_is_wave_quantized_at_sm_granularity():
    # 8192^2 / (128 x 256) = 2048 tiles over 132 SMs: 16 tiles per SM, each 128*256*8192 FMAs at
    # 2048 FMA/cycle and 1.83 GHz.
    h100, g, t = load_machine("h100"), Gemm(m=8192, n=8192, k=8192, dtype="fp16"), Tile(bm=128, bn=256, bk=64)
    p = predict(h100, g, t)
    compute = next(term for term in p.terms if term.name == "compute")
    assert compute.seconds == pytest.approx(16 * 128 * 256 * 8192 / (2048 * 1.83e9), rel=1e-12)
    assert p.wave_efficiency == pytest.approx(2048 / (16 * 132))


@given(
    st.sampled_from(["a100", "h100", "t4", "v100"]),
    st.integers(256, 8192),
    CONFIGS,
    st.sampled_from(["row", "grouped:8"]),
)
def test_prediction_never_beats_the_hierarchical_bound(name, size, cfg, raster):
    m = load_machine(name)
    dtype = "fp16"
    bm, bn, bk = cfg
    try:
        p = predict(m, Gemm(m=size, n=size, k=size, dtype=dtype), Tile(bm=bm, bn=bn, bk=bk), raster=raster, stages=2)
        r = analyze(
            m, Gemm(m=size, n=size, k=size, dtype=dtype), tile=Tile(bm=bm, bn=bn, bk=bk), raster=raster, stages=2
        )
    except ProblemError:
        return
    assert p.tflops <= r.hierarchical_bound_tflops * (1 + 1e-9)


@given(st.sampled_from(["dram", "l2", "smem"]), st.floats(1.0, 4.0), st.integers(512, 8192), CONFIGS)
def test_more_bandwidth_or_peak_never_predicts_slower(level, factor, size, cfg):
    bm, bn, bk = cfg
    g, t = Gemm(m=size, n=size, k=size, dtype="fp16"), Tile(bm=bm, bn=bn, bk=bk)
    try:
        base = predict(load_machine("h100"), g, t, stages=2)
    except ProblemError:
        return
    more_bw = machine_dict("h100")
    for entry in more_bw["memory"][level]["bandwidth"].values():
        entry["value"] *= factor
    more_peak = machine_dict("h100")
    more_peak["compute"]["fp16"]["rate"]["spec"]["value"] *= factor
    assert predict(machine_from(more_bw), g, t, stages=2).seconds <= base.seconds * (1 + 1e-9)
    assert predict(machine_from(more_peak), g, t, stages=2).seconds <= base.seconds * (1 + 1e-9)


def test_predict_command(cli):
    r = cli(
        "predict", "--machine", "h100", "--m", "8192", "--tile", "128x256x64", "--raster", "grouped:8", "--warps", "8"
    )
    assert r.exit_code == 0, r.output
    assert "limited by" in r.stdout and "slowest first" in r.stdout and "compute.fp16.rate.spec" in r.stdout
    bad = cli("predict", "--machine", "h100", "--m", "8192", "--tile", "128x256")
    assert bad.exit_code == 2 and "give BK too" in bad.stderr
