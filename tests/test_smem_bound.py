"""benchmarks/smem_bound.py on the recorded shared-memory check (docs/measurements/h200-2026-11-29/smem_bound: eight
fp16 wgmma tiles on one row of 1-4 tiles an SM at two K, two runs of two passes on an H200): what an iteration of a
round costs against the model, as a regression guard labelled as such (no rule is taken from it: the README says
what it shows)."""

from __future__ import annotations

from benchmarks import smem_bound


def test_what_an_iteration_of_the_round_costs():
    rows = {(r["tile"], r["per"]): r for r in smem_bound.per_iteration()}
    assert len(rows) == 64

    def ratio(tile: str, per: int) -> float:
        return rows[(tile, per)]["model"] / rows[(tile, per)]["measured"]

    # One CTA an SM, latency-bound: right at 2 and 3 stages, 19% short at 5, where the SM and memory times meet.
    assert 1.0 < ratio("fp16-128x32x64-w4-s2-m32", 1) < 1.1
    assert 0.9 < ratio("fp16-128x32x64-w4-s3-m32", 1) < 0.97
    assert 0.78 < ratio("fp16-128x32x64-w4-s5-m32", 1) < 0.84
    # 256x32x64 on 8 warps, two CTAs an SM: the shared-memory path slower than 128 B a cycle, at every R and both M.
    assert all(0.72 < ratio(f"fp16-256x32x64-w8-s3-m{m}", per) < 0.9 for m in (32, 128) for per in (1, 2, 3, 4))
    assert rows[("fp16-256x32x64-w8-s3-m32", 2)]["held"] == 2
    # Every CTA reading the same A panel (M = 128): the model's L2 term overshoots.
    assert ratio("fp16-128x32x64-w4-s3-m128", 3) > 1.4 and ratio("fp16-64x32x64-w4-s3-m128", 2) > 1.3
    # Nothing near: within 10%.
    assert all(0.9 < ratio("fp16-256x64x64-w8-s3-m32", per) < 1.05 for per in (1, 2, 3, 4))
