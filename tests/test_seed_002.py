"""Golden tests: seed 002_1c1b0d2e6161fd98, ThunderKittens' CTA swizzling and persistent blocks."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from roofmodel.model.rasterization import RasterOrder, parse_order, raster_traffic, tile_order


def brute_force_super_m(tiles_m: int, tiles_n: int, super_m: int) -> list[tuple[int, int]]:
    """The layout seed 002 describes, enumerated: super blocks of super_M tile rows, one after the
    other; inside each, column-major (cta0..cta11 down a column, then the next column)."""
    out = []
    for block in range(tiles_m // super_m):
        for col in range(tiles_n):
            for r in range(super_m):
                out.append((block * super_m + r, col))
    return out


@pytest.mark.parametrize(
    ("tiles_m", "tiles_n", "super_m"), [(24, 11, 12), (12, 12, 12), (8, 5, 4), (6, 7, 1), (4, 4, 2)]
)
def test_super_m_formula_matches_the_enumeration(tiles_m, tiles_n, super_m):
    # row: (blockId / super_repeat) * super_M + blockId % super_M
    # col: (blockId % super_repeat) / super_M, with super_repeat = super_M * CBLOCKS
    rows, cols = tile_order(RasterOrder("superm", super_m), tiles_m, tiles_n)
    assert list(zip(np.asarray(rows).tolist(), np.asarray(cols).tolist(), strict=True)) == brute_force_super_m(
        tiles_m, tiles_n, super_m
    )


def test_super_m_simplification_is_exact():
    # The seed simplifies (id - (id / R) * R) % S to id % S because R = S * C is a multiple of S.
    for s, c in itertools.product(range(1, 9), range(1, 9)):
        r = s * c
        ids = np.arange(5 * r)
        assert np.array_equal((ids - (ids // r) * r) % s, ids % s)
        assert np.array_equal((ids - (ids // r) * r) // s, (ids % r) // s)


@pytest.mark.parametrize(("tiles_m", "tiles_n", "g"), [(24, 11, 12), (16, 16, 8), (8, 64, 4)])
def test_super_m_triton_grouped_and_cutlass_swizzle_agree_when_divisible(tiles_m, tiles_n, g):
    ref = tile_order(RasterOrder("superm", g), tiles_m, tiles_n)
    for spec in (f"grouped:{g}",) + ((f"swizzle:{g}",) if g & (g - 1) == 0 else ()):
        got = tile_order(parse_order(spec), tiles_m, tiles_n)
        assert np.array_equal(ref[0], got[0]) and np.array_equal(ref[1], got[1]), spec


def test_row_major_wave_needs_5_loads_and_swizzled_needs_4():
    # §3.2.1: A 128x64, B 64x256, 64x64 tiles: a 2 x 4 grid on 4 SMs. Row-major: "we need 5 GMEM
    # loads, and 3 L2 loads"; §3.2.2, swizzled into a 2x2 square: "4 GMEM accesses, and 4 ... L2".
    common = dict(concurrent=4, m=128, n=256, k=64, bm=64, bn=64, input_bytes=2, output_bytes=2, l2_bytes=1e9)
    panel = 64 * 64 * 2
    for order, dram_panels in (("row", 5), ("grouped:2", 4)):
        rows, cols = tile_order(parse_order(order), 2, 4)
        w = raster_traffic(rows, cols, **common).first_waves[0]
        assert w.unique_a_panels + w.unique_b_panels == dram_panels
        assert w.dram_read_bytes == dram_panels * panel
        assert w.tiles * 2 - dram_panels == 8 - dram_panels  # the rest are L2 hits
