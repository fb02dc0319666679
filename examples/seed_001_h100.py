"""Seed 001: the H100 SXM5 machine numbers, and what they ask of a kernel.

Run: python examples/seed_001_h100.py
"""

from roofmodel import Gemm, analyze, load_machine
from roofmodel.units import latency_cycles

h100 = load_machine("h100")
for dtype in ("fp32", "tf32", "fp16"):
    r = analyze(h100, Gemm(m=4096, n=8192, k=16384, dtype=dtype))
    print(
        f"{dtype}: {r.pipe.fma_per_cycle_per_sm * 2:.0f} FLOP/cycle/SM at {r.pipe.clock_mhz:.0f} MHz "
        f"= {r.peak_tflops:.1f} TFLOPS; DRAM->L2 needs reuse {r.stages[0].required_reuse:.0f}, "
        f"L2->smem {r.stages[1].required_reuse:.0f}"
    )
    print(f"   {r.verdict}")

print("\nlatencies (seed 001, pointer chase), ns -> cycles at 1.98 GHz:")
for level, ns in (("shared memory", 14.4), ("L1", 20.3), ("L2", 131.3), ("HBM", 288.1)):
    print(f"  {level:<14} {ns:6.1f} ns = {latency_cycles(ns, 'ns', 1.98e9):6.1f} cycles")
