"""A Triton mma.sync kernel's counted waits on its own reloads bound one CTA's iteration from below, as every other
family's do (footprint.kernel_footprint's loop_waits; kernel_costs.spill_wait each): by hand, in predict's note, and a
guard on the fresh29 group that showed it (docs/measurements/h200-2026-11-29/fresh29)."""

from __future__ import annotations

import statistics

import pytest

from roofmodel import Gemm, load_machine
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import predict_kernel
from tests.conftest import REPO


def _fp8_32_registers(waits: int | None):
    """fresh29's fp8 128x128x64 kernel on two warps, compiled to 32 registers and 2,394 spilled, 88 tiles (one CTA on
    each of 88 SMs) at 1000x1400x4100, its loop counted at 26,672 local bytes and ``waits`` waits a warp an
    iteration."""
    h200 = load_machine("h200")
    cfg = triton_config(h200, "fp8", block_m=128, block_n=128, block_k=64, group_m=8, num_warps=2, num_stages=2)
    cfg = cfg.model_copy(update={"instruction": "mma.sync"})
    return predict_kernel(h200, Gemm(m=1000, n=1400, k=4100, dtype="fp8"), cfg, b_major="k", regs=32, spilled=2394,
                          loop_local_bytes=26672, loop_local_waits=waits, clock="1980")  # fmt: skip


def test_the_waits_bound_a_lone_mma_sync_cta_by_hand():
    """65 iterations (4,100 / 64) of one CTA an SM, each 597 waits x 250 ns (the frames, 2,394 x 4 B x 64 threads x 88
    CTAs = 51.4 MiB, fit the H200's 60 MiB L2; the reloads an mma.sync loop waits on miss it as uniform reuse says,
    none: a round-trip factor of 1, prediction.cyclic_waits) = 9.70 ms of spills, above the counted bytes' 2.16 ms
    (26,672 B / 8 = 3,334 registers stored and reloaded: 65 x 2 x 3,334 x 4 B x 64 threads / 25.9 B/cycle/SM at
    1,980 MHz; reused in turn, 66.8% of them reach DRAM at 24.7 B/cycle/SM over 88 SMs, which does not bind): 9.89 ms
    in all, against 12.9 ms measured."""
    with_waits, without = _fp8_32_registers(597), _fp8_32_registers(0)
    spills = {t.name: t for t in with_waits.terms}["spills"]
    assert spills.seconds == pytest.approx(65 * 597 * 250e-9)
    assert with_waits.seconds > 2.5 * without.seconds
    # The larger of the bytes' time and the waits, not their sum: the kernel is the waits and a little more.
    assert with_waits.seconds < 1.05 * 65 * 597 * 250e-9
    assert "a warp waits on those reloads 597 times an iteration" in spills.detail
    assert "kernel_costs.spill_wait" in spills.detail
    assert (
        "uniform reuse says (cyclic_waits): max(0, 1 - 60 / 51.4 MiB) = 0.0%, a round trip of 1.00 x" in spills.detail
    )
    assert {t.name: t for t in without.terms}["spills"].seconds == pytest.approx(
        65 * 2 * 3334 * 4 * 64 / 25.9 / 1980e6, rel=1e-3
    )
    assert "a warp waits" not in {t.name: t for t in without.terms}["spills"].detail


def test_mma_sync_waits_regression_guard():
    """Regression guard on fresh29 (read: the sample that showed it; a guard, no validation): its 14 kernels compiled
    to 32 registers at 1000x1400x4100 were 5-82% too fast (median |error| 56%) with mma.sync's waits uncharged; now
    median 16%, none more than 35% off."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(load_machine("h200"), 1980.0)
    path = REPO / "docs" / "measurements" / "h200-2026-11-29" / "fresh29" / "broad.csv"
    errors = [float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3) - 1 for r in read_broad_csv(path)
              if r.set == "sweep" and r.shape == "odd1000x1400x4100" and r.registers_per_thread == 32]  # fmt: skip
    assert len(errors) == 14
    assert statistics.median(abs(e) for e in errors) < 0.2 and max(abs(e) for e in errors) < 0.36


@pytest.mark.parametrize("instruction", ["mma.sync", "wgmma"])
def test_every_family_counts_its_waits(instruction):
    """footprint.kernel_footprint gives a compiled loop's waits and its counted bytes / 8 to mma.sync as to wgmma (the
    fitted reload form is left to a loop that was not counted)."""
    from roofmodel.model.footprint import kernel_footprint
    from roofmodel.model.kernel import FAMILIES

    fp = kernel_footprint(load_machine("h200"), bm=128, bn=128, bk=64, warps=4, stages=3,
                          family=FAMILIES.index(instruction), element_bytes=2, accumulator_registers=1.0, staged=0.0,
                          registers=255, spilled=100, loop_local_bytes=400, loop_local_waits=7)  # fmt: skip
    assert fp["loop_waits"] == 7
    assert fp["loop_spilled"] == 50.0
    assert bool(fp["loop_counted"])
