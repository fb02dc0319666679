"""The cost of transposing an MN-major 32-bit operand, measured on the GPU for ``roofmodel calibrate``
(kernel_costs.transpose; issue 13: every constant of the per-CTA model from a microbenchmark).

The same tf32 Triton matmul (4096^3, 128x128x64 tiles, 8 warps, 3 stages, GROUP_M 8) timed with both
operands K-major and with A M-major, B N-major and both: wgmma reads only K-major 32-bit operands
from shared memory, so Triton transposes an MN-major one in registers before storing it, and the
time that adds per element the busiest SM loads is the cost (roofmodel.model.kernel_costs.layout_pairs;
benchmarks/gpu_layout_check.py is the fuller check, with the compiled code, that found it).
"""

from __future__ import annotations

from typing import Any

SHAPE = {"m": 4096, "n": 4096, "k": 4096}
CONFIG = {"block_m": 128, "block_n": 128, "block_k": 64, "num_warps": 8, "num_stages": 3, "group_m": 8}
LAYOUTS = (("k", "n"), ("k", "k"), ("m", "n"), ("m", "k"))  # (A's, B's contiguous dimension)


def tf32_layout_check() -> dict[str, Any]:
    """Each layout timed (checked against float64 first), in the form of gpu_layout_check.py's JSON."""
    import torch

    from roofmodel.backends import triton_gemm

    kernels = []
    for a_major, b_major in LAYOUTS:
        out = triton_gemm.run_config(**SHAPE, dtype="tf32", **CONFIG, a_major=a_major, b_major=b_major)
        kernels.append({"dtype": "tf32", "a_major": a_major, "b_major": b_major, "time_ms": out["time_ms"],
                        "tflops": out["tflops"], "instruction": out.get("instruction")})  # fmt: skip
    return {"shape": SHAPE, "config": {**CONFIG, "block_k": {"tf32": CONFIG["block_k"]}}, "kernels": kernels,
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count}  # fmt: skip


def transpose_seconds() -> dict[str, Any]:
    """kernel_costs.transpose on this GPU: seconds per transposed element per SM, with how it was found."""
    return transpose_from_check(tf32_layout_check())


def transpose_from_check(check: dict[str, Any]) -> dict[str, Any]:
    """kernel_costs.transpose from a timed layout check (pure: the tests run it on recorded ones)."""
    from roofmodel.model.kernel_costs import layout_pairs, transpose_cost

    pairs = layout_pairs(check, "tf32", check["sm_count"])
    times = ", ".join(f"{p.label} {p.mn_major_s * 1e3:.3f} ms" for p in pairs)
    how = (f"tf32 4096^3, 128x128x64 tiles, 8 warps, 3 stages: both K-major {pairs[0].k_major_s * 1e3:.3f} ms, "
           f"{times}; median of (time - K-major time) / MN-major elements the busiest SM loads")  # fmt: skip
    return {"value": transpose_cost(pairs), "how": how, "check": check}
