"""On an NVIDIA Hopper GPU: what a CTA's chain of wgmma costs per iteration with both operands already in shared
memory (the SM's tensor pipe fed by shared memory alone: no load, no copy, no barrier in the loop), by tile (BM 64-256,
BN 16-256), warps (4, 8), CTAs per SM (1 or 2; one where 8 warps), type (fp16, tf32, fp8) and operand layout (B K- or N-major, A from
shared memory or from registers). benchmarks/derive_wgmma_chain.py reads what it writes.

Each Triton kernel loads its A (BM x BK) and B (BK x BN) tiles once, then runs ``acc = tl.dot(a, b, acc)`` ITERS
times and stores acc. Triton 3.6 on sm_90a compiles the loop to BK / k wgmma.mma_async per 64 rows (m64nNk16 for 16-bit types,
k8 for tf32, k32 for fp8) reading both operands through shared-memory descriptors, one commit group per iteration
and ``wgmma.wait_group 1`` (the group before stays in flight); with ``reg_a`` A is scaled once in registers first,
and wgmma reads it from registers (one group per k step, three in flight). The grid is SMs x c programs, c CTAs
resident on each SM; the time per iteration is the slope of the median time over two ITERS, and the SM cycles per
CTA-iteration are slope x SM clock / c, the clock one nvidia-smi sample taken after the timing (it ran 1,830-1,980 MHz
on the H100, 1,770-1,980 on the H200: a few percent of noise in a row's cycles). Writes OUT/wgmma_chain.jsonl (a row per kernel, with the PTX's wgmma shapes
and whether A came from registers) and OUT/meta.json.

Run (GPU): python benchmarks/gpu_wgmma_chain.py OUT
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import triton
import triton.language as tl

# Per type: BK (four k steps of its wgmma) and element bytes.
CHAIN_TYPES = {"fp16": (64, 2), "tf32": (32, 4), "fp8": (128, 1)}


@triton.jit
def _chain(a_ptr, b_ptr, c_ptr, iters, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           B_N_MAJOR: tl.constexpr, REG_A: tl.constexpr):  # fmt: skip
    pid = tl.program_id(0)
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    if B_N_MAJOR:
        b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    else:
        b = tl.load(b_ptr + rn[None, :] * BK + rk[:, None])
    if REG_A:
        a = a * 1.5
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(iters):
        acc = tl.dot(a, b, acc, input_precision="tf32")  # read only where a and b are fp32
    tl.store(c_ptr + pid * BM * BN + rm[:, None] * BN + rn[None, :], acc)


SMEM_PER_SM = 227 * 1024
WGMMA = re.compile(r"wgmma\.mma_async\.sync\.aligned\.(m\d+n\d+k\d+)")
# An operand A from registers: the accumulator's braces, then A's braces (a descriptor is a 64-bit register).
RS = re.compile(r"wgmma\.mma_async[^;]*\}\s*,\s*\{")


def chain_configs() -> list[dict[str, Any]]:
    """Every tile the benchmark times: BM 64-256, BN 16-256, 4 or 8 warps (accumulators that fit: at most 128 a
    thread), fp16 (B K- and N-major, A from shared memory or registers at BN 32 and 128), tf32 and fp8 (K-major),
    1 or 2 CTAs an SM where shared memory and registers allow (at most 168 registers a thread assumed: 8 warps get
    one)."""
    out = []
    for dtype, layouts, reg_a, residents in (("fp16", ("k", "n"), (0, 1), (1, 2)), ("tf32", ("k",), (0,), (1, 2)),
                                             ("fp8", ("k",), (0,), (1, 2))):  # fmt: skip
        bk, e = CHAIN_TYPES[dtype]
        for bm in (64, 128, 256):
            for bn in (16, 32, 64, 128, 256):
                for warps in (4, 8):
                    if bm * bn // (32 * warps) > 128:  # accumulators that would spill
                        continue
                    for b_major in layouts:
                        for reg in reg_a:
                            if (reg or b_major == "n") and (bn not in (32, 128) or warps != 4):
                                continue
                            for c in residents:
                                if c * (bm + bn) * bk * e > SMEM_PER_SM or c * warps * 32 * 168 > 65536:
                                    continue
                                out.append({"dtype": dtype, "bm": bm, "bn": bn, "bk": bk, "warps": warps,
                                            "b_major": b_major, "reg_a": reg, "ctas_per_sm": c})  # fmt: skip
    return out


def sm_clock_mhz() -> float | None:
    """One nvidia-smi sample of the SM clock (MHz); None where it cannot be read."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        return float(out.split()[0])
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError):
        return None


def time_chain(cfg: dict[str, Any], sms: int) -> dict[str, Any]:
    """One configuration timed: ``cfg`` with the ITERS, the two median times, the SM clock sampled after them, the
    seconds per iteration, the SM cycles per CTA-iteration and what the PTX says (instruction shapes, A from
    registers); or ``cfg`` with ``error`` where Triton cannot compile or run it."""
    import torch

    dtypes = {"fp16": torch.float16, "tf32": torch.float32, "fp8": torch.float8_e4m3fn}
    bk, e = CHAIN_TYPES[cfg["dtype"]]
    bm, bn, c = cfg["bm"], cfg["bn"], cfg["ctas_per_sm"]
    a = torch.randn(bm * bk, device="cuda").to(dtypes[cfg["dtype"]])
    b = torch.randn(bk * bn, device="cuda").to(dtypes[cfg["dtype"]])
    out = torch.empty(sms * c * bm * bn, device="cuda", dtype=torch.float32)
    # SM cycles an iteration takes at 4,096 / e FMA a cycle (fp16 2,048): ITERS long enough for ~200k cycles
    ideal = bm * bn * bk * e / 4096
    short = 16
    long = short + int(min(16384, max(256, 200_000 / ideal)))

    def run(iters: int) -> Any:
        return _chain[(sms * c,)](a, b, out, iters, BM=bm, BN=bn, BK=bk, B_N_MAJOR=cfg["b_major"] == "n",
                                  REG_A=bool(cfg["reg_a"]), num_warps=cfg["warps"], num_stages=1)  # fmt: skip

    try:
        ptx = run(short).asm["ptx"]
        t0, t1 = (triton.testing.do_bench(lambda n=n: run(n), warmup=10, rep=rep, return_mode="median") * 1e-3
                  for n, rep in ((short, 60), (long, 150)))  # fmt: skip
    except Exception as exc:  # a configuration Triton cannot compile or run: said, not fatal
        return {**cfg, "error": " ".join(str(exc).split())[:200]}
    mhz = sm_clock_mhz()
    slope = (t1 - t0) / (long - short)
    return {**cfg, "iters": [short, long], "seconds": [t0, t1], "sm_clock_mhz": mhz, "seconds_per_iteration": slope,
            "sm_cycles_per_cta_iteration": slope * mhz * 1e6 / c if mhz else None,
            "instructions": sorted(set(WGMMA.findall(ptx))), "a_from_registers": bool(RS.search(ptx))}  # fmt: skip


def main() -> None:
    import torch

    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with (out_dir / "wgmma_chain.jsonl").open("w") as f:
        for cfg in chain_configs():
            row = time_chain(cfg, sms)
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(json.dumps(row), flush=True)
    meta = {"device": torch.cuda.get_device_name(0), "sms": sms, "torch": torch.__version__,
            "triton": triton.__version__, "how": __doc__.split("\n\n")[1].replace("\n", " ")}  # fmt: skip
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
