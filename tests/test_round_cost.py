"""benchmarks/round_cost.py on the recorded round-cost check (docs/measurements/h200-2026-11-29/round_cost: the K-sweep's
tiles on 1-8 tiles an SM at 1-16 iterations, two runs of two passes on an H200): what the model leaves out of a round,
as a regression guard labelled as such (with the rule taken from it, a round's prologue and epilogue paid beside its
main loops, cta_model.round_cycles, 2026-11-29: the README says what it shows and what is left)."""

from __future__ import annotations

from benchmarks import round_cost


def test_what_a_round_leaves_out():
    rows = {(tile, it): (held, measured - model) for tile, _, held, it, measured, model in round_cost.per_round()}
    assert len(rows) == 28
    # One CTA an SM: a round costs what the model says (within 0.1 us up to 4 iterations, 0.4 at 16).
    assert all(abs(rows[("fp16-128x256x64-w8", it)][1]) < 0.1 for it in (1, 2, 4))
    assert rows[("fp16-128x256x64-w8", 1)][0] == 1
    # Two an SM under wgmma: 0.5-1.2 us a round left out, whatever the iterations (0.6-1.3 us before the round paid
    # its edges).
    for tile in ("fp16-128x128x64-w4", "fp16-64x128x64-w4"):
        assert all(rows[(tile, it)][0] == 2 and 0.4 < rows[(tile, it)][1] < 1.2 for it in (1, 2, 4, 16))
    # mma.sync at two an SM: 0.68-0.79 us at 1-4 iterations and none at 16 since its warps' MMAs and shared-memory
    # reads combine by their 4-norm (cta_model.ISSUED_PIPE_NORM, 2026-11-29; 0.65-0.90 us at every count before, 1.0-2.7
    # before the round paid its edges). FMA at five an SM: 0.6 us at 1 iteration, 0.2 at 2, and too much from 4 on,
    # 0.8 us at 4 and 7.7 us at 16 (11% of the round), where the larger alone charged 0.9 us too much at 16 (0.9-1.0 us
    # left out at 1-4): this tile's pipes run side by side more than the read sweeps' FMA kernels near it say.
    v2 = [rows[("fp16-128x128x64-w4-v2", it)] for it in (1, 2, 4, 16)]
    assert all(held == 2 for held, _ in v2)
    assert all(0.6 < left < 0.85 for _, left in v2[:3]) and abs(v2[3][1]) < 0.1
    fma = [rows[("fp32-64x64x32-w4", it)][1] for it in (1, 2, 4, 16)]
    assert 0.5 < fma[0] < 0.7 and 0.1 < fma[1] < 0.3 and -0.9 < fma[2] < -0.7 and -8.0 < fma[3] < -7.3
    # tf32 with B N-major at two an SM: 5.7-7 us (6.5-10 before).
    assert all(5.5 < rows[("tf32-128x128x32-w4", it)][1] < 7.5 for it in (1, 2, 4, 16))


def test_every_check_flag_names_a_plan_of_kernels():
    """gpu_broad_sweep.py's checks: each flag's plan lays out kernels the harness can time (one table, CHECKS, serves
    --help and the choice of plan); the round-cost plan is the K-sweep's seven tiles x 4 grids x 4 iterations."""
    from benchmarks import gpu_broad_sweep as g

    keys = {"set", "shape", "family", "split", "m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps"}
    for flag, (text, plan) in g.CHECKS.items():
        rows = plan()
        assert text and rows and all(keys <= r.keys() for r in rows), flag
    assert len(g.CHECKS["round-cost"][1]()) == 7 * 4 * 4
    assert {r["k"] // r["block_k"] for r in g.CHECKS["round-cost"][1]()} == {1, 2, 4, 16}
    assert g.CHECKS["narrow-mma-sync"][1]() != g.CHECKS["narrow"][1]()
