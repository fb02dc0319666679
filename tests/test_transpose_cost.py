"""benchmarks/transpose_cost.py on the recorded transpose check (docs/measurements/h200-2026-11-29/transpose: twelve tf32
wgmma tiles with B N-major against K-major, one and two tiles an SM, two runs of two passes on an H200): what a
transposed element costs by tile, as a regression guard labelled as such (no rule is taken from it: the README says
what it shows)."""

from __future__ import annotations

from benchmarks import transpose_cost


def test_what_a_transposed_element_costs_by_tile():
    rows = {(r["tile"], r["per"]): r for r in transpose_cost.per_element()}
    assert len(rows) == 24
    # BN >= 128: kernel_costs.transpose's 0.258 ns holds, at one and two tiles an SM.
    for tile in ("128x128x32-w8-s3", "128x128x64-w8-s3", "128x256x32-w8-s3", "64x128x32-w4-s3"):
        assert all(0.25 < rows[(tile, per)]["measured_per_element"] < 0.28 for per in (1, 2))
    # BN = 32 on one tile an SM: nearly free; BN = 64 about half.
    for tile in ("64x32x16-w4-s3", "64x32x32-w4-s3", "64x32x64-w4-s3", "128x32x32-w4-s3", "128x32x32-w8-s3",
                 "256x32x32-w8-s3"):  # fmt: skip
        assert rows[(tile, 1)]["measured_per_element"] < 0.09 < rows[(tile, 1)]["model_per_element"]
    assert all(0.12 < rows[(tile, 1)]["measured_per_element"] < 0.18 for tile in ("64x64x32-w4-s3", "128x64x32-w4-s3"))
