"""What a row-order kernel's rows read if no two share a panel (rasterization.unshared_row_read_bytes): the most its
rows read where they drift apart along K (docs/model.md, "Where a wave's rows do not share"), which predict and raster
state beside the caveat. No rule charges a share of it: one failed its judge (docs/measurements/h200-2026-11-30/
drift_rule)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roofmodel.model.rasterization import RasterOrder, order_traffic, unshared_row_read_bytes

MIB = 2**20


@settings(max_examples=200, deadline=None)
@given(
    m=st.integers(1, 700),
    n=st.integers(1, 700),
    k=st.integers(1, 300),
    bm=st.sampled_from([16, 32, 64, 128]),
    bn=st.sampled_from([16, 32, 64, 128]),
    e=st.sampled_from([1, 2, 4]),
    l2=st.sampled_from([1e3, 1e4, 6e4, 3e5, 1e6]),
)
def test_unshared_reads_are_the_raster_model_one_tile_at_a_time(m, n, k, bm, bn, e, l2):
    """The closed form is raster_traffic's reads of row order at one CTA at a time, exactly (edges, one column of
    tiles, panels that do not fit the L2 beside the next tile's)."""
    ref = order_traffic(RasterOrder("row"), concurrent=1, m=m, n=n, k=k, bm=bm, bn=bn, input_bytes=e, output_bytes=2,
                        l2_bytes=l2, keep_waves=0)  # fmt: skip
    assert unshared_row_read_bytes(m=m, n=n, k=k, bm=bm, bn=bn, input_bytes=e, l2_bytes=l2) == ref.dram_read_bytes


def test_unshared_reads_by_hand():
    """fp16 8192^3 in 64x128 tiles on a 50 MiB L2: 128 rows of 64 tiles; each tile reads its B panel (128 x 8192 x 2 B
    = 2 MiB), so each row all of B (128 MiB); each row's A panel (64 x 8192 x 2 B = 1 MiB) is read once, kept from tile
    to tile along the row (two A panels and two B panels, 6 MiB, fit the L2). With a 5 MiB L2 they do not: every tile
    reads its A panel too."""
    grid = dict(m=8192, n=8192, k=8192, bm=64, bn=128, input_bytes=2)
    assert unshared_row_read_bytes(l2_bytes=50 * MIB, **grid) == 128 * 128 * MIB + 128 * MIB
    assert unshared_row_read_bytes(l2_bytes=5 * MIB, **grid) == 128 * 128 * MIB + 128 * 64 * MIB


def test_predict_and_raster_state_the_most_the_rows_read(cli):
    """Where the caveat applies, predict's DRAM line and raster's note give the tile's no-sharing reads (fp16 8192^3
    64x128x64 on the H100: 16,512 MiB, by hand above; tf32 7104^3 64x128x16 on the H200: 111 rows x (each A panel,
    64 x 7104 x 4 B, once, and all of B, 7104^2 x 4 B) = 22.6 GB, the raster pairs' figure, tests/test_raster_checks.py);
    not where the L2 is split into private slices behind a last-level cache (MI300X), nor in grouped order or for a
    persistent kernel."""
    out = cli("predict", "--machine", "h100", "--m", "8192", "--tile", "64x128x64", "--warps", "4", "--stages", "4",
              "--raster", "row")  # fmt: skip
    assert out.exit_code == 0 and "if no two rows shared a panel, 16,512 MiB" in out.stdout
    raster = cli("raster", "--machine", "h200", "--m", "7104", "--tile", "64x128x16", "--dtype", "tf32")
    tf32 = 111 * (64 * 7104 * 4 + 7104 * 7104 * 4)
    assert tf32 == 22_609_133_568
    assert raster.exit_code == 0 and f"if no two rows shared a panel, {tf32 / 2**20:,.0f} MiB" in raster.stdout
    for other in (["--raster", "grouped:8"], ["--raster", "row", "--persistent"]):
        out = cli("predict", "--machine", "h100", "--m", "8192", "--tile", "64x128x64", "--warps", "4", "--stages", "4",
                  *other)  # fmt: skip
        assert out.exit_code == 0 and "no two rows shared" not in out.stdout, other
    mi = cli("raster", "--machine", "mi300x", "--m", "16384", "--tile", "64x64x32", "--raster", "row")
    assert mi.exit_code == 0 and "measured, not modelled: in row order" in mi.stdout
    assert "no two rows shared" not in mi.stdout
