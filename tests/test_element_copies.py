"""The element-copy check (docs/measurements/h200-2026-12-02/element_copies, recorded on an H200): what it measured, as
regression guards of the data and of its reader (benchmarks/element_copies.py), and where the model stands there."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO

LG, MIO = 0.16, 0.245  # the largest lg_throttle and mio_throttle shares of an element-copy loop's stalls (0.155, 0.243)


def _table():
    sys.path.insert(0, str(REPO / "benchmarks"))
    import element_copies

    return {r["tile"]: r for r in element_copies.table()}


def test_the_cycles_an_iteration_by_hand():
    """cycles_per_cta_iteration: 4096 x 4096 in 32x128 tiles is 4,096 tiles, 32 a busiest SM (ceil(4,096 / 132)); K =
    4004 at BK 64 is 63 iterations; 1 ms at 1,980 MHz is 1,980,000 cycles, / (32 x 63) = 982.1."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from element_copies import cycles_per_cta_iteration

    row = {"m": 4096, "n": 4096, "k": 4004, "block_m": 32, "block_n": 128, "block_k": 64}
    assert cycles_per_cta_iteration(row, 1e-3) == pytest.approx(1_980_000 / (32 * 63))


def test_element_copies_double_the_loop_and_its_instructions():
    """Recorded measurements, a guard: the loop whose operands are both copied 4 bytes at a time takes 1.78-2.49 x its
    16-byte twin's time an iteration in ten of the eleven tiles (1.19 at 32x32x16 on 8 warps), with 1.42-2.66 x its
    instructions, at about the same share of issue slots in use: more instructions, not a pipe that fills."""
    table = _table()
    assert len(table) == 11
    for tile, r in table.items():
        narrow, aligned = r["measured"]
        assert (1.15 <= narrow / aligned <= 1.25) if tile == "32x32x16-w8" else (1.75 <= narrow / aligned <= 2.5), tile
        assert 1.4 <= r["instructions"] <= 2.7, tile
        assert abs(r["issue"][0] - r["issue"][1]) <= 10, tile
        assert r["registers"][0] > r["registers"][1], tile


def test_no_shared_pipe_fills_in_the_element_copy_loops():
    """Recorded stalls, a guard: in every element-copy loop lg_throttle and mio_throttle are at most 0.16 and 0.24 of
    the stalled warp-cycles; long_scoreboard leads in seven of the eleven."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import element_copies

    loops = [element_copies.stall_shares(t) for t in element_copies.rows("stalls.csv") if t["copies"] == "element"]
    assert len(loops) == 11
    assert max(x["lg_throttle"] for x in loops) <= LG and max(x["mio_throttle"] for x in loops) <= MIO
    assert sum(max(x, key=x.get) == "long_scoreboard" for x in loops) == 7


def test_where_the_model_stands_on_the_check():
    """The model as compiled (its registers the check's): the 16-byte twins within 0.93-1.15 of their time; seven of the
    element-copy loops within 0.89-1.04, and the four whose warp-level element copy takes 8.1-10.1 SM cycles (32x128x64
    on 8 and 4 warps, 32x256x16 on 8, 32x32x16 on 8) at 0.67-0.79: the model's open error, named in docs/validation.md.
    A change to the model that moves these changes this test on purpose."""
    table = _table()
    slow = {"32x128x64-w8", "32x128x64-w4", "32x256x16-w8", "32x32x16-w8"}
    for tile, r in table.items():
        (mn, ma), (pn, pa) = r["measured"], r["model"]
        assert 0.92 <= pa / ma <= 1.16, tile
        if tile in slow:
            assert 0.66 <= pn / mn <= 0.80 and 8.0 <= r["per_copy"] <= 10.2, tile
        else:
            assert 0.88 <= pn / mn <= 1.05 and 5.9 <= r["per_copy"] <= 7.2, tile
