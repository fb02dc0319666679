"""Triton's FMA layout and the shared-memory wavefronts of its operand reads (roofmodel/model/fma_layout.py).

The layouts are what Triton 3.6 (and 3.9) compiled for sm_90 (the TTGIR's dot layout, recorded here); the
wavefronts are held to Nsight Compute's counts of 64 fp32 Triton FMA matmuls on an H100
(docs/measurements/h100-2026-11-27/fma_wavefronts, benchmarks/gpu_fma_wavefronts.py): recorded measurements, a
regression guard. The compile test runs where the triton package is installed."""

from __future__ import annotations

import csv
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofmodel.model.fma_layout import FmaLayout, fma_read_wavefronts, triton_fma_layout

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h100-2026-11-27" / "fma_wavefronts"

# (BM, BN, warps) -> sizePerThread, threadsPerWarp (M, N), warpsPerCTA (M, N) of the dot's #blocked layout, as
# Triton 3.6 compiled each for sm_90a (fp32, input_precision="ieee").
COMPILED = {
    (64, 64, 4): (4, (2, 16), (4, 1)),
    (32, 32, 4): (2, (2, 16), (4, 1)),
    (128, 128, 4): (4, (1, 32), (4, 1)),
    (128, 128, 8): (4, (1, 32), (8, 1)),
    (32, 256, 4): (4, (1, 32), (2, 2)),
    (64, 32, 2): (4, (4, 8), (2, 1)),
    (256, 256, 8): (4, (1, 32), (4, 2)),
    (16, 16, 4): (1, (2, 16), (4, 1)),
    (64, 16, 2): (4, (8, 4), (2, 1)),
    (32, 16, 2): (2, (4, 8), (2, 1)),
}


def layout_fields(layout: FmaLayout) -> tuple:
    return layout.size, (layout.lanes_m, layout.lanes_n), (layout.warps_m, layout.warps_n)


@pytest.mark.parametrize(("tile", "compiled"), COMPILED.items())
def test_the_layout_is_what_triton_compiled(tile, compiled):
    assert layout_fields(triton_fma_layout(*tile)) == compiled


def test_the_thread_tile_by_hand():
    """64x64 on 4 warps: 4 x 4 per thread, 2 x 16 lanes, 4 x 1 warps cover 32 x 64, so each thread holds two
    blocks of 4 rows: 8 x 4. 128x128 on 4 warps: 1 x 32 lanes, 4 x 1 warps cover 16 x 128: 32 x 4."""
    assert triton_fma_layout(64, 64, 4)[5:] == (8, 4)
    assert triton_fma_layout(128, 128, 4)[5:] == (32, 4)


def test_wavefronts_by_hand():
    """64x64x32 fp32 on 4 warps (16-byte loads, phases of 8 lanes, two phases a pair, two pairs a load).
    A K-major: 8 rows x 32 / 4 = 64 loads; every lane of a phase reads one row (1 distinct, so a pair is one pass)
    and the two lanes along M are in different halves: 2 wavefronts a load, 128 a warp. B N-major: 32 loads, 8
    distinct 16-byte pieces side by side a phase, 1 wavefront, not paired: 4 a load, 128 a warp. B K-major: 4
    columns x 8 = 32 loads, 8 rows 512 bytes apart a phase, all in the same banks: 8 a phase, 32 a load, 1,024 a
    warp. A CTA: 4 x (128 + 128) = 1,024 and 4 x (128 + 1,024) = 4,608 (Nsight Compute: 1,026 and 4,610)."""
    layout = triton_fma_layout(64, 64, 4)
    assert fma_read_wavefronts(layout, 32, 4, False, True) == 1024
    assert fma_read_wavefronts(layout, 32, 4, False, False) == 4608


def recorded() -> list[dict[str, str]]:
    rows = []
    for name in ("fma_wavefronts.csv", "fma_wavefronts_check.csv", "fma_wavefronts_check2.csv"):
        with (DATA / name).open(newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


def test_wavefronts_against_nsight_compute_on_an_h100():
    """Regression guard on recorded measurements: the rule was fitted to the first 64 (read off fma_wavefronts.csv;
    fma_wavefronts_check.csv's 32, of tiles chosen before they were measured, broke its first pairing limit on 6
    kernels, off which MERGED_DISTINCT was read); fma_wavefronts_check2.csv's 32, of tiles chosen after the fit and
    measured after it, were its held-out test (within 1.5%). All 96 within 2.6%, 94 within 1%."""
    rows = recorded()
    assert len(rows) == 96
    errors = []
    for r in rows:
        bm, bn, bk, w = (int(r[c]) for c in ("block_m", "block_n", "block_k", "num_warps"))
        model = fma_read_wavefronts(triton_fma_layout(bm, bn, w), bk, 4, r["a_major"] == "m", r["b_major"] == "n")
        errors.append(abs(model / float(r["ld_wavefronts_per_cta_iteration"]) - 1))
    assert max(errors) < 0.026
    assert sum(e < 0.01 for e in errors) == 94


tiles = st.tuples(st.sampled_from([16, 32, 64, 128, 256]), st.sampled_from([16, 32, 64, 128, 256]),
                  st.sampled_from([16, 32, 64]), st.sampled_from([1, 2, 4, 8]))  # fmt: skip


@given(tiles)
def test_a_k_major_b_is_never_read_cheaper_than_an_n_major_one(tile):
    bm, bn, bk, w = tile
    layout = triton_fma_layout(bm, bn, w)
    for a_m in (False, True):
        assert fma_read_wavefronts(layout, bk, 4, a_m, False) >= fma_read_wavefronts(layout, bk, 4, a_m, True)


@given(st.lists(tiles, min_size=1, max_size=8), st.booleans(), st.booleans())
def test_scalar_and_vectorized_agree(tile_list, a_m, b_n):
    """One formula for predict (numbers) and tune (numpy arrays)."""
    bm, bn, bk, w = (np.array(c) for c in zip(*tile_list, strict=True))
    arrays = fma_read_wavefronts(triton_fma_layout(bm, bn, w), bk, 4, np.full(len(bm), a_m), np.full(len(bm), b_n))
    for i, (m, n, k, warps) in enumerate(tile_list):
        assert arrays[i] == fma_read_wavefronts(triton_fma_layout(m, n, warps), k, 4, a_m, b_n)


@pytest.mark.skipif(importlib.util.find_spec("triton") is None, reason="needs the triton package")
@pytest.mark.parametrize("tile", list(COMPILED))
def test_the_layout_against_the_installed_triton(tile):
    from roofmodel.backends.triton_compile import CompileJob, compile_kernel

    bm, bn, w = tile
    ttgir = compile_kernel(CompileJob(2048, 2048, 2048, "fp32", bm, bn, 32, w, 3, "k", "k", 8, None), 90).asm["ttgir"]
    dot = re.search(r"tt\.dot .*?-> tensor<\S+, #(\w+)>", ttgir).group(1)
    text = re.search(rf"^#{dot} = (.*)$", ttgir, re.M).group(1)
    size, lanes, warps = (tuple(int(x) for x in re.search(rf"{f} = \[(\d+), (\d+)\]", text).groups())
                          for f in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"))  # fmt: skip
    assert (size[0], lanes, warps) == COMPILED[tile] and size[0] == size[1]


def test_predict_names_the_wavefronts_of_a_triton_fma_kernel(cli):
    """predict says what it charged: 64x64x32 on 4 warps with B K-major, 4,608 wavefronts a CTA an iteration."""
    args = ["predict", "--machine", "h100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp32",
            "--tile", "64x64x32", "--kernel", "triton", "--warps", "4", "--stages", "3"]  # fmt: skip
    k_major = cli(*args, "--b-major", "k")
    assert k_major.exit_code == 0, k_major.output
    assert (
        "4,608 wavefronts of 128 B a CTA an iteration in Triton's FMA layout: 4x4 a thread, lanes 2x16"
        in k_major.output
    )
    n_major = cli(*args, "--b-major", "n")
    assert "1,024 wavefronts of 128 B" in n_major.output
    # With B K-major the FFMAs and these reads combine by their 2.5-norm (cta_model.CONFLICTING_PIPE_NORM), and predict
    # says so; with B N-major by the 4-norm every issued family takes, which needs no word here.
    norm = "with B K-major its FFMAs and these reads take their 2.5-norm, not the 4-norm"
    assert norm in k_major.output and norm not in n_major.output


def test_the_shared_memory_term_of_a_triton_fma_kernel_by_hand():
    """The H100 (128 B/cycle/SM of shared memory, 132 SMs), 4096^3 fp32 on 64x64x32 tiles, 4 warps: 4,096 tiles,
    32 on the busiest SM, 128 iterations each. Per iteration the reads take 4,608 wavefronts with B K-major (1,024
    with B N-major: test_wavefronts_by_hand), 128 bytes each, and the stage fill (64 + 64) x 32 x 4 = 16,384 bytes
    with no layout factor: (4,608 x 128 + 16,384) / 128 = 4,736 cycles (1,152 with B N-major)."""
    from roofmodel.machine import load_machine
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel
    from roofmodel.model.problem import Gemm

    h100 = load_machine("h100")
    gemm = Gemm(m=4096, n=4096, k=4096, dtype="fp32")
    cfg = triton_config(h100, "fp32", block_m=64, block_n=64, block_k=32, num_warps=4, num_stages=3)
    for b_major, cycles in (("k", 4736), ("n", 1152)):
        p = predict_kernel(h100, gemm, cfg, a_major="k", b_major=b_major)
        smem = next(t.seconds for t in p.terms if t.name == "shared memory")
        assert smem == pytest.approx(32 * 128 * cycles / (p.clock_mhz * 1e6), rel=1e-12)
