"""Speed of the raster model, printed (issue 3: every order for an 8192^3 problem on 132 SMs in
well under a second). Compares the scalar reference and the numpy path on the same inputs.

Run: python benchmarks/bench_raster.py
"""

from __future__ import annotations

import time

from roofmodel.model.rasterization import order_traffic, standard_orders


def run(size: int, tile: int, concurrent: int, vectorized: bool | None) -> float:
    tiles = size // tile
    t0 = time.perf_counter()
    for order in standard_orders(tiles):
        order_traffic(
            order,
            concurrent=concurrent,
            m=size,
            n=size,
            k=size,
            bm=tile,
            bn=tile,
            input_bytes=2,
            output_bytes=2,
            l2_bytes=50 * 2**20,
            vectorized=vectorized,
        )
    return time.perf_counter() - t0


def main() -> None:
    for size, tile in ((8192, 128), (8192, 64), (32768, 128), (65536, 64)):
        tiles = (size // tile) ** 2
        n_orders = len(standard_orders(size // tile))
        line = f"{size}^3, {tile}x{tile} tiles ({tiles:,} tiles, {n_orders} orders, 132 CTAs/wave):"
        scalar = run(size, tile, 132, False) if tiles <= 70_000 else float("nan")
        vector = run(size, tile, 132, True)
        auto = run(size, tile, 132, None)
        print(f"{line:<62} scalar {scalar:6.3f} s  numpy {vector:6.3f} s  default {auto:6.3f} s")


if __name__ == "__main__":
    main()
