"""The defaults every command and library call shares (issue 14: one vocabulary), so that a plot, an
analysis and a prediction given the same arguments describe the same kernel.

A kernel unless told otherwise: fp16 operands (the tensor-core case most users ask about), three
shared-memory stages (Triton's and CUTLASS's usual pipeline depth), CTAs in GROUP_M = 8 order (the
Triton matmul tutorial's grouped ordering), no cluster; bandwidth from measurements where a machine
file has them and compute from the datasheet; the clock: sustained where the file measured one,
else the clock the datasheet rates the pipe at.
"""

from __future__ import annotations

DTYPE = "fp16"
STAGES = 3
RASTER = "grouped:8"
CLUSTER = (1, 1)
WAVES_SHOWN = 2
BANDWIDTH = "measured"
COMPUTE = "spec"
CLOCK = None  # sustained where the machine file has clocks.sustained, else rated
SPACE = "all"  # tune and explore: every configuration that fits (``triton``: what a Triton matmul can express)
A_MAJOR = "k"  # torch.matmul of two contiguous tensors: A row-major (K contiguous) ...
B_MAJOR = "n"  # ... and B row-major (N contiguous)
