"""Seed 004: tensor-core HGEMM on a T4: balance points, tile intensities, the L2 blend.

Run: python examples/seed_004_t4_hgemm.py
"""

from roofmodel import Gemm, Tile, analyze, load_machine
from roofmodel.model.roofline import arithmetic_blend_bandwidth, harmonic_blend_bandwidth
from roofmodel.model.tiling import tile_intensity_flop_per_byte

t4 = load_machine("t4")
gemm = Gemm(m=8192, n=8192, k=8192, dtype="fp16")
measured = analyze(t4, gemm, compute="measured")
print(f"HMMA measured {measured.peak_tflops:.3f} TFLOPS; balance points (seed: 224 / 38 / 13):")
for roof in measured.roofs:
    print(f"  {roof.level:<5} {roof.bandwidth_gb_per_s:7.0f} GB/s -> {roof.balance_flop_per_byte:6.1f} FLOP/B")

print("\nblock tile intensity BM*BN/(BM+BN) FLOP/B for fp16 (seed: 85.3 and 128.0):")
for bm, bn in ((256, 128), (256, 256)):
    print(f"  {bm}x{bn}: {tile_intensity_flop_per_byte(bm, bn, 2):.1f}")

peak = 65_000e9
print("\nL2-weighted balance at a 50% hit rate (seed: 87.24):")
print(f"  seed's weighted sum, its own inputs: {peak / arithmetic_blend_bandwidth(0.5, 1280e9, 220e9):.2f} FLOP/B")
print(f"  the model's harmonic blend:          {peak / harmonic_blend_bandwidth(0.5, 1280e9, 220e9):.2f} FLOP/B")

# An HGEMM accumulates in fp16 (two to a register); with fp32 accumulators 256x256 would not fit.
hgemm = Gemm(m=8192, n=8192, k=8192, dtype="fp16", accumulator="fp16")
final = analyze(t4, hgemm, tile=Tile(bm=256, bn=256, bk=32), register_tile=(64, 64), stages=2)  # double-buffered
smem = next(r for r in final.roofs if r.level == "smem")
print(
    f"\nwarp tile 64x64: {smem.intensity_flop_per_byte:.0f} FLOP/B vs smem balance {smem.balance_flop_per_byte:.1f}"
    f" (seed: 32 vs 17.7)"
)
print(f"256x256x32 double-buffered: {final.tiles.smem_bytes // 1024} KiB of shared memory; {final.verdict}")
