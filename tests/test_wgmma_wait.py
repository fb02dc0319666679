"""Triton's wgmma loops that wait for each wgmma (prediction.waits_each_wgmma): the rule against the loops Triton
compiled, and the wgmma-wait check (docs/measurements/h200-2026-11-29/wgmma_wait) as a regression guard."""

from __future__ import annotations

import csv
import sys

import pytest

from roofmodel.model.footprint import FAMILIES
from roofmodel.model.prediction import waits_each_wgmma
from roofmodel.model.problem import INPUT_BYTES
from tests.conftest import REPO

DATA = REPO / "docs" / "measurements" / "h200-2026-11-29" / "wgmma_wait"
WGMMA = FAMILIES.index("wgmma")


def test_the_rule_is_what_triton_compiled():
    """Every loop of the compile survey (benchmarks/wgmma_waits.py --grid, Triton 3.6 for sm_90a: 4, 8 and 16 warps)
    that waits for each wgmma is one the rule marks, and every one it marks waits so; the loops whose accumulators
    spill (BM x BN >= 256 registers a thread) all wait so and are left to the spill terms."""
    with (DATA / "waits_grid.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 165
    marked = spilling = 0
    for r in rows:
        bm, bn, warps = int(r["block_m"]), int(r["block_n"]), int(r["num_warps"])
        waited = r["group_in_flight"] == "False"
        assert waited == all(w == "0" for w in r["waits"].split())
        if bm * bn >= 256 * 32 * warps:
            assert waited, r
            spilling += 1
            continue
        rule = waits_each_wgmma(True, WGMMA, INPUT_BYTES[r["dtype"]], bm, bn, warps, r["b_major"] == "n")
        assert bool(rule) == waited, r
        marked += bool(rule)
    assert marked == 17 and spilling == 28
    # Not a Triton kernel, or not wgmma: never.
    assert waits_each_wgmma(False, WGMMA, 2, 128, 256, 8, False) is False
    assert not waits_each_wgmma(True, FAMILIES.index("mma.sync"), 2, 128, 256, 8, False)
    # A compile's own answer decides in place of the layouts, within the same gate: a wgmma loop whose accumulator fits.
    assert not waits_each_wgmma(True, WGMMA, 2, 128, 256, 8, False, compiled=False)
    assert waits_each_wgmma(False, WGMMA, 2, 128, 128, 8, True, compiled=True)
    assert not waits_each_wgmma(True, WGMMA, 2, 256, 256, 8, False, compiled=True)  # 256 registers a thread: spills


def _check_rows():
    sys.path.insert(0, str(REPO / "benchmarks"))
    import wgmma_wait

    return wgmma_wait.per_iteration()


def test_the_wgmma_wait_check_as_a_regression_guard():
    """Recorded measurements (H200, 2026-11-29), a regression guard: the model marks exactly the check's loops compiled
    with a wait per wgmma; those it moves go from 0.68-0.88 of their measured cycles an iteration to 0.81-1.04 (the
    two at three stages, partly latency-bound, 0.81 and 0.84), and it leaves their twins with a group in flight as
    they were (0.86-1.14)."""
    rows = _check_rows()
    assert len(rows) == 36
    moved = []
    for r in rows:
        assert r["marked"] == all(w == "0" for w in r["waits"].split()), r["shape"]
        if r["now"] != pytest.approx(r["before"], rel=1e-9):
            assert r["marked"], r["shape"]
            moved.append(r)
        elif not r["marked"]:
            assert 0.85 <= r["now"] / r["measured"] <= 1.15, r["shape"]
    assert len(moved) == 11
    for r in moved:
        assert 0.67 <= r["before"] / r["measured"] <= 0.89, r["shape"]
        assert 0.80 <= r["now"] / r["measured"] <= 1.05, r["shape"]


def test_a_compile_says_whether_its_loop_waits_in_place_of_the_rule():
    """With a compile's counts (predict --compile), the loop's own waits (CompiledCounts.wgmma_waits_each, read from its
    SASS) decide, not the rule, which is Triton 3.6's: the same 128x256 tile on 8 warps with B K-major, given as
    compiled with and without a wait per wgmma, takes the CTA's MMAs and a wait in its chain only in the first; the rule
    alone, with the same counts, gives the first's time."""
    from roofmodel import Gemm, load_machine
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel
    from roofmodel.results import CompiledCounts

    machine, gemm = load_machine("h200"), Gemm(m=6144, n=6144, k=6144, dtype="fp16")
    config = triton_config(machine, "fp16", block_m=128, block_n=256, block_k=32, num_warps=8, num_stages=4)
    counts = dict(registers=167, spilled=0, shared_bytes=98304, instruction="wgmma", target="sm_90a", triton="3.6.0",
                  ptxas="12.8")  # fmt: skip
    waited = predict_kernel(
        machine, gemm, config, b_major="k", compiled=CompiledCounts(**counts, wgmma_waits_each=True)
    )
    flowing = predict_kernel(machine, gemm, config, b_major="k",
                             compiled=CompiledCounts(**counts, wgmma_waits_each=False))  # fmt: skip
    ruled = predict_kernel(machine, gemm, config, b_major="k", regs=167, spilled=0, shared_bytes=98304)
    assert waited.seconds > 1.15 * flowing.seconds
    assert ruled.seconds == waited.seconds
    compute = {p.name: p for p in waited.terms}["compute"]
    assert "the compiled loop waits for each wgmma" in compute.detail
    assert "wait for each wgmma" not in {p.name: p for p in flowing.terms}["compute"].detail
