"""Seed 003: the roofline, min(I x beta, tau), and its ridge point, on the A100's FP32 pipe.

Run: python examples/seed_003_roofline.py
"""

from roofmodel.model.roofline import attainable, balance_point

peak, dram = 19.49e12, 2039e9  # A100 FP32 (108 x 64 x 2 x 1.41 GHz), HBM2e datasheet
ridge = balance_point(peak, dram)
print(f"ridge point: {ridge:.2f} FLOP/B")
for intensity in (0.25, 1, 4, ridge, 32, 683):
    bound = attainable(intensity, dram, peak)
    side = "memory-bound" if intensity < ridge else "compute-bound"
    print(f"  I = {intensity:7.2f} FLOP/B -> {bound / 1e12:6.2f} TFLOPS  ({side})")
