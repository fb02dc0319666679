"""What roofmodel's predictor says about the kernels the seeds measured, and how far it is.

The predictor is the per-CTA model (roofmodel.model.cta_model) of a kernel stated by its parts: tiles,
order, stages, warps, instruction; it knows nothing of a kernel's code beyond them. Where a seed does not give a
parameter (BK, stages), the assumption is printed. Run: python examples/predictions_vs_seeds.py
"""

from roofmodel import Gemm, Tile, load_machine
from roofmodel.model.prediction import predict


def row(label: str, measured: float, machine, gemm, tile, **kw) -> None:
    p = predict(machine, gemm, tile, **kw)
    print(f"  {label:<34} measured {measured:7.1f}  predicted {p.tflops:7.1f} TFLOPS "
          f"({100 * (p.tflops / measured - 1):+5.0f}%, limited by {p.limiter})")  # fmt: skip


# Seed 001: H100 SXM5, TF32, A 4096x16384 @ B 16384x8192 (BK = 32 and 256 threads assumed; B K-major,
# the TN layout CuTe's GEMM examples take: tf32 wgmma reads both operands K-major).
h100 = load_machine("h100")
g = Gemm(m=4096, n=8192, k=16384, dtype="tf32")
tn = {"b_major": "k"}
print("seed 001, H100 TF32 4096x8192x16384 (TFLOPS):")
row("CuTe SMEM k=32 (mma.sync, 2 stages)", 95.2, h100, g, Tile(bm=128, bn=128, bk=32), stages=2,
    instruction="mma.sync", warps=4, **tn)  # fmt: skip
row("WGMMA pipe, 128x128, 2 stages", 244.3, h100, g, Tile(bm=128, bn=128, bk=32), stages=2, warps=8, **tn)
row("WGMMA pipe + column-major swizzle", 245.9, h100, g, Tile(bm=128, bn=128, bk=32), stages=2, warps=8, **tn,
    raster="col")  # fmt: skip
row("WGMMA TMA 128x128, 3 stages", 238.2, h100, g, Tile(bm=128, bn=128, bk=32), stages=3, warps=8, **tn)
row("WGMMA TMA 128x256, 3 stages", 300.9, h100, g, Tile(bm=128, bn=256, bk=32), stages=3, warps=8, **tn)
print("  cuBLAS TF32: measured 319.7")

# The same kernels against this project's H100 calibration (docs/measurements/h100-2026-11-22/).
cal = load_machine("docs/measurements/h100-2026-11-22/h100-measured.yaml")
print("seed 001 again, with the calibrated H100 overlay (its L2 and HBM measured, tf32 at cuBLAS's 370.5):")
row("WGMMA TMA 128x128, 3 stages", 238.2, cal, g, Tile(bm=128, bn=128, bk=32), stages=3, warps=8, **tn,
    compute="measured")  # fmt: skip
row("WGMMA TMA 128x256, 3 stages", 300.9, cal, g, Tile(bm=128, bn=256, bk=32), stages=3, warps=8, **tn,
    compute="measured")  # fmt: skip

# Seed 004: T4, fp16 8192^3 HGEMM (fp16 accumulation), the final kernel: 256x256x32, 64x64 warp tiles.
t4 = load_machine("t4")
hg = Gemm(m=8192, n=8192, k=8192, dtype="fp16", accumulator="fp16")
print("seed 004, T4 HGEMM 8192^3 (TFLOPS; cuBLAS measured 49.4, the final kernel 96% of it):")
row("kernel 6: 256x256x32, 2 stages", 0.96 * 49.439, t4, hg, Tile(bm=256, bn=256, bk=32), stages=2,
    warps=16)  # fmt: skip

# Seed 000: V100, FP32 on CUDA cores, 4096^3.
v100 = load_machine("v100")
f = Gemm(m=4096, n=4096, k=4096, dtype="fp32")
print("seed 000, V100 FP32 4096^3 (TFLOPS; cuBLAS measured 12.1):")
row("smem tiling 32x32 (1 output per thread)", 3.7, v100, f, Tile(bm=32, bn=32, bk=32), stages=1,
    warps=32, register_tile=(1, 1))  # fmt: skip
row("RF tiling 64x64, 4x4 per thread", 10.7, v100, f, Tile(bm=64, bn=64, bk=32), stages=1, warps=8,
    register_tile=(4, 4))  # fmt: skip
print("  (the naive kernel, 1.9 TFLOPS, has no shared-memory tile: outside what the predictor describes)")
