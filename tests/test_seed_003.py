"""Golden tests: seed 003_2270fdab40978c58, "Roofline and occupancy notes"."""

from __future__ import annotations

import pytest

from roofmodel import load_machine
from roofmodel.model.roofline import attainable, balance_point


@pytest.mark.parametrize("intensity", [0.5, 10.0, 100.0, 1e4])
def test_roofline_is_min_of_memory_and_compute_roofs(intensity):
    # "FLOP/Second = min(FLOP/Byte x Byte/Second, Peak)"
    peak, bw = 19.5e12, 2039e9
    assert attainable(intensity, bw, peak) == min(intensity * bw, peak)


def test_ridge_point_separates_memory_and_compute_bound():
    peak, bw = 19.5e12, 2039e9
    ridge = balance_point(peak, bw)
    assert attainable(ridge * 0.99, bw, peak) < peak
    assert attainable(ridge, bw, peak) == pytest.approx(peak)


def test_t4_warp_limit_differs_from_the_seed():
    # The seed: "Assume Tesla T4 allows maximum 64 Warps to be concurrently scheduled on an SM".
    # Compute capability 7.5 allows 32 warps (1024 threads) per SM; the machine file follows the
    # CUDA programming guide, so a 32-warp block already fills a T4 SM.
    t4 = load_machine("t4")
    assert t4.limits.max_warps_per_sm.n == 32
    assert t4.limits.max_threads_per_sm.n == 1024
    # The seed's 50% figure holds for its assumed 64-warp SM: 32 / 64.
    assert 32 / 64 == 0.5
