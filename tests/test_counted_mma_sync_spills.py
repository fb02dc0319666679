"""A Triton mma.sync loop whose local loads and stores were counted in its SASS is charged those bytes, like every
other family's, and its frames are reused in turn (prediction.cyclic_frames) while the reloads its warps wait on miss
the L2 as uniform reuse says (prediction.cyclic_waits); a loop that was not counted keeps the fitted reload form
(cta_model.mma_sync_spill_reloads) and uniform reuse. By hand on the H200's figures."""

from __future__ import annotations

import numpy as np
import pytest

from roofmodel import Gemm, load_machine
from roofmodel.model.kernel import FAMILIES, triton_config
from roofmodel.model.prediction import cyclic_frames, cyclic_waits, machine_rates, predict_kernel, spill_rates

WGMMA, MMA_SYNC, FMA = (FAMILIES.index(f) for f in ("wgmma", "mma.sync", "fma"))


def test_which_frames_are_reused_in_turn():
    assert bool(cyclic_frames(WGMMA)) and bool(cyclic_frames(WGMMA, True))
    assert not bool(cyclic_frames(MMA_SYNC)) and bool(cyclic_frames(MMA_SYNC, True))
    assert not bool(cyclic_frames(FMA, True))
    families = np.array([WGMMA, MMA_SYNC, MMA_SYNC, FMA])
    assert list(cyclic_frames(families, np.array([False, True, False, True]))) == [True, True, False, False]
    assert list(cyclic_waits(families)) == [True, False, False, False]


@pytest.fixture(scope="module")
def h200_rates():
    return machine_rates(load_machine("h200"), "fp16", compute="measured", clock=1980)


def _frames(spilled: float) -> float:
    """spilled x 4 B x 64 threads (two warps) x 132 resident CTAs (132 tiles, one an SM)."""
    return spilled * 4 * 64 * 132


@pytest.mark.parametrize("spilled", [3200.0, 1500.0])
def test_a_counted_mma_sync_loops_rate_is_cyclic_and_its_waits_uniform(h200_rates, spilled):
    """3,200 spilled: 103.1 MiB of frames past the H200's 60 MiB L2. Reused in turn, all of the traffic misses it and
    moves at DRAM's 4,308.8 GB/s over 132 SMs at 1,980 MHz = 16.49 B/cycle/SM, under the 25.9 the L2 holds; a reload's
    round trip takes uniform reuse, 1 - 60 / 103.1 = 41.8% from DRAM: (0.582 x 291.9 + 0.418 x 669.6) / 291.9 = 1.54.
    1,500 spilled: 48.3 MiB, between the L2's reuse capacity (34.2 MiB) and its capacity: (48.3 - 34.2) / (60 - 34.2)
    = 54.8% miss, 16.49 / 0.548 = 30.1 B/cycle/SM, above 25.9: 25.9; uniform reuse misses none: a factor of 1. The
    same loop not counted: uniform reuse for both; a wgmma loop: cyclic for both."""
    r = h200_rates
    frames = _frames(spilled)
    l2, hold = 60 * 2**20, r.l2_reuse_bytes
    dram_per_sm = 4308.8e9 / (132 * 1980e6)
    assert dram_per_sm == pytest.approx(16.487, abs=1e-3)
    cyclic_miss = min(1.0, max(0.0, (frames - hold) / (l2 - hold)))
    uniform_miss = max(0.0, 1 - l2 / frames)
    assert r.l2_capacity_bytes == l2

    def home(miss: float) -> tuple[float, float]:
        rate = 1 / max(1 / 25.9, miss / dram_per_sm)
        return rate, ((1 - miss) * r.l2_latency_cycles + miss * r.dram_latency_cycles) / r.l2_latency_cycles

    fp = {"spilled": spilled, "loop_spilled": spilled, "loop_counted": True}
    rate, factor = spill_rates(r, fp, 64, 132, 1, 132, MMA_SYNC)
    assert float(rate) == pytest.approx(home(cyclic_miss)[0], rel=1e-6)
    assert float(factor) == pytest.approx(home(uniform_miss)[1], rel=1e-6)
    rate, factor = spill_rates(r, {**fp, "loop_counted": False}, 64, 132, 1, 132, MMA_SYNC)
    assert (float(rate), float(factor)) == pytest.approx(home(uniform_miss), rel=1e-6)
    rate, factor = spill_rates(r, fp, 64, 132, 1, 132, WGMMA)
    assert (float(rate), float(factor)) == pytest.approx(home(cyclic_miss), rel=1e-6)
    if spilled == 3200.0:
        assert cyclic_miss == 1.0 and home(cyclic_miss)[0] == pytest.approx(16.49, abs=0.01)
        assert home(uniform_miss)[1] == pytest.approx(1.54, abs=0.01)
    else:
        assert cyclic_miss == pytest.approx(0.548, abs=1e-3) and home(cyclic_miss)[0] == pytest.approx(25.9)
        assert home(uniform_miss)[1] == 1.0
    # The search's arrays (no loop counted) give the scalars' answers.
    rates, factors = spill_rates(r, {"spilled": np.array([spilled] * 2), "loop_spilled": np.array([spilled] * 2)},
                                 64, 132, 1, 132, np.array([MMA_SYNC, WGMMA]))  # fmt: skip
    assert list(rates) == pytest.approx([home(uniform_miss)[0], home(cyclic_miss)[0]], rel=1e-6)
    assert list(factors) == pytest.approx([home(uniform_miss)[1], home(cyclic_miss)[1]], rel=1e-6)
    # Counted and uncounted mma.sync loops in one array: each takes its own scalar's answer.
    mixed = {"spilled": np.array([spilled] * 3), "loop_spilled": np.array([spilled] * 3),
             "loop_counted": np.array([True, False, True])}  # fmt: skip
    rates, factors = spill_rates(r, mixed, 64, 132, 1, 132, np.array([MMA_SYNC, MMA_SYNC, WGMMA]))
    assert list(rates) == pytest.approx([home(cyclic_miss)[0], home(uniform_miss)[0], home(cyclic_miss)[0]], rel=1e-6)
    assert list(factors) == pytest.approx([home(uniform_miss)[1], home(uniform_miss)[1], home(cyclic_miss)[1]],
                                          rel=1e-6)  # fmt: skip


def test_predict_charges_a_counted_mma_sync_loop_its_counted_bytes():
    """A Triton mma.sync kernel with 156 spilled: not counted, 156 x mma_sync_spill_reloads(156) = 156 x 0.25 x
    log2(156 / 8) = 167.2 registers stored and reloaded an iteration; counted at 944 B a thread, 944 / 8 = 118; counted
    at 0 B, no spill term. The spills term scales with what is charged (the frames fit the L2 either way)."""
    h100 = load_machine("h100")
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    mma = triton_config(h100, "fp16", block_m=128, block_n=128, block_k=32, group_m=8, num_warps=2, num_stages=3)
    assert mma.instruction == "mma.sync"
    kw = dict(regs=255, spilled=156, shared_bytes=49152)

    def spills(p):
        return next(t.seconds for t in p.terms if t.name == "spills")

    fitted, counted = predict_kernel(h100, g, mma, **kw), predict_kernel(h100, g, mma, **kw, loop_local_bytes=944)
    assert counted.loop_spilled_registers == 118
    charged = 156 * 0.25 * np.log2(156 / 8)
    assert charged == pytest.approx(167.2, abs=0.1)
    assert spills(counted) == pytest.approx(spills(fitted) * 118 / charged, rel=1e-9)
    assert "counted in the compiled SASS" in next(t.detail for t in counted.terms if t.name == "spills")
    assert "times each per iteration, not once" in next(t.detail for t in fitted.terms if t.name == "spills")
    assert spills(predict_kernel(h100, g, mma, **kw, loop_local_bytes=0)) == 0.0
