# %% [markdown]
# # Seed 000, walked through: from the simple roofline to multicast
#
# The argument of "How to make a compute-bound problem actually compute-bound", step by step,
# with roofmodel's numbers and pictures. This file is the script twin of
# `seed_000_walkthrough.ipynb` (the tests run it headless and check the two agree).

# %%
from pathlib import Path

from roofmodel import Gemm, Tile, analyze, load_machine
from roofmodel.model.multicast import cluster_cycles_per_k, multicast_factor
from roofmodel.render.plots import budget_figure, figure_bytes, raster_figure, roofline_data, roofline_figure

OUT = Path("walkthrough-figures")
OUT.mkdir(exist_ok=True)
a100 = load_machine("a100")
gemm = Gemm(m=4096, n=4096, k=4096, dtype="fp32")

# %% [markdown]
# ## 1. The simple machine model says "compute-bound"
# Infinite on-chip storage, one DRAM roof: the problem's intensity dwarfs the machine's balance.

# %%
simple = analyze(a100, gemm, levels=["dram", "smem", "rf"], bandwidth="spec")
print(
    f"problem intensity {simple.gemm.intensity_flop_per_byte:.0f} FLOP/B, "
    f"DRAM balance {simple.roofs[0].balance_flop_per_byte:.2f} FLOP/B -> {simple.classic_bound_tflops:.1f} TFLOPS"
)

# %% [markdown]
# ## 2. The realistic model: every stage must deliver 512 B/cycle/SM
# DRAM delivers 13.4 and shared memory 128, so tiles must amplify them 38x and 4x.

# %%
for s in simple.stages:
    print(
        f"{s.name:<11} {s.bandwidth_bytes_per_cycle_per_sm:6.1f} B/cycle -> reuse {s.required_reuse:5.1f} "
        f"-> tile {s.minimum_tile_edge}"
    )
(OUT / "budget_tiled.png").write_bytes(figure_bytes(budget_figure(simple), "png"))

# %% [markdown]
# ## 3. Tiling: a 64x64 shared-memory tile and a 4x4 register tile close both gaps

# %%
print(f"chosen tiles: CTA {simple.tiles.cta[:2]}, thread {simple.tiles.register_tile}; verdict: {simple.verdict}")
roof = roofline_figure([roofline_data(a100, simple)])
(OUT / "roofline.png").write_bytes(figure_bytes(roof, "png"))

# %% [markdown]
# ## 4. When the tile cannot grow: multicast across SMs
# A 32x32 tile gives reuse 32 of the 38 needed. Four SMs in a 2x2 cluster read 2 A and 2 B panels
# instead of 4 and 4: DRAM time halves from 19.2 K to 9.6 K cycles, under the 16 K of compute.

# %%
small = analyze(a100, gemm, levels=["dram", "smem", "rf"], bandwidth="spec", tile=Tile(bm=32, bn=32))
print(f"32x32 alone: {small.verdict}")
c = cluster_cycles_per_k(2, 2, 32, 32, 4, 13.3, 64)
print(
    f"2x2 cluster: reads {c.read_cycles_per_k:.2f} K -> {c.multicast_read_cycles_per_k:.2f} K cycles with "
    f"multicast (x{multicast_factor(2, 2, 32, 32):.0f}); compute {c.compute_cycles_per_k:.0f} K cycles"
)

# %% [markdown]
# ## 5. Rasterization decides how much the SMs share
# The same idea on a real chip: the order tiles reach the SMs sets the L2 sharing of each wave
# (8192^3 fp16 on an H100, 128x128 tiles: a row-major wave spans 2 rows of 64 tiles).

# %%
h100 = load_machine("h100")
for order in ("row", "grouped:8"):
    r = analyze(h100, Gemm(m=8192, n=8192, k=8192, dtype="fp16"), tile=Tile(bm=128, bn=128), raster=order)
    print(
        f"H100 fp16, raster {order:<10}: DRAM reads {r.cross_sm.dram_read_bytes / 2**20:6.0f} MiB, "
        f"sharing x{r.cross_sm.l2_sharing_factor:.2f}"
    )
(OUT / "raster.png").write_bytes(figure_bytes(raster_figure(r), "png"))
print(f"figures in {OUT}/: {sorted(p.name for p in OUT.iterdir())}")
