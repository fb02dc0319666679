"""On an NVIDIA GPU: what a kernel pays to start touching memory, beyond an empty kernel.

Every broad sweep's K sweep (one CTA per SM, K = 64..8192) reads, at its shortest K, 0.9 us (H100) and 1.6 us
(H200) above what the per-CTA model charges (launch, prologue, one iteration, epilogue): a fixed cost of the kernel
that no term names. This times small kernels whose programs do almost nothing but touch memory, to say what that
cost is made of:

- ``empty``: no memory at all (the model's kernel_costs.launch was this kernel on one program, under do_bench, when
  this was written; since 2026-11-29 it is on one program per SM);
- ``store``: each program stores one 128-byte line;
- ``load``: each program loads one 128-byte line and stores a float of it;
- ``chain D``: each program loads D lines one after another (each address depends on the value before it), then
  stores a float: the latency of a first touch and of the touches after it.

Each on 1 and on 132 programs (one per SM of an H100 or H200), with the programs' lines in one 2 MiB page
(``stride`` 128 B) or each in a page of its own (``stride`` 2 MiB; a chain's loads too), and timed with CUDA events
around the kernel alone (benchmarks/gpu_flush_check.timed_ms) after two flushes: ``zero`` (do_bench's: 256 MB
zeroed, the L2 left dirty) and ``read`` (256 MB read: the L2 clean); and each under do_bench itself (``do_bench``),
as the sweeps time kernels. (The first run, 2026-11-29, also timed ``none``, no flush between runs: those times,
23-37 us for every kernel, are the host's launch gap, not the GPU's, since nothing queued keeps the GPU busy between
the two events.) Then ``empty`` and ``load`` over GRIDS programs, under do_bench: what a grid's size adds to the
launch. Writes OUT/startup.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_startup_check.py OUT
"""

from __future__ import annotations

import sys
from pathlib import Path

import triton
import triton.language as tl

LINE_HALVES = 64  # fp16 elements in a 128-byte line
PAGE = 2 * 1024 * 1024
PROGRAMS = (1, 132)
STRIDES = (128, PAGE)
CHAINS = (1, 4, 16)
GRIDS = (1, 2, 4, 8, 16, 33, 66, 99, 132, 198, 264, 528, 1056, 2112, 4224, 8448)


@triton.jit
def _empty(x_ptr):
    pass


@triton.jit
def _store(out_ptr, stride_halves):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * stride_halves + tl.arange(0, 64)
    tl.store(out_ptr + offs, tl.zeros((64,), dtype=tl.float16))


@triton.jit
def _chain(x_ptr, out_ptr, stride_halves, DEPTH: tl.constexpr):
    """DEPTH dependent line loads per program, 132 strides apart (the buffer holds zeros: each address adds the value
    before it, so that each load waits on the one before)."""
    pid = tl.program_id(0)
    base = x_ptr + pid.to(tl.int64) * stride_halves
    acc = tl.zeros((64,), dtype=tl.float32)
    step = tl.zeros((), dtype=tl.int64)
    for d in tl.static_range(DEPTH):
        v = tl.load(base + d * stride_halves * 132 + step + tl.arange(0, 64)).to(tl.float32)
        acc += v
        step = tl.sum(v).to(tl.int64)
    tl.store(out_ptr + pid, tl.sum(acc))


def main() -> None:
    import torch

    from benchmarks.check_runs import write_csv
    from benchmarks.gpu_broad_sweep import bench_ms
    from benchmarks.gpu_flush_check import FLUSH_BYTES, flushes, timed_ms

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    cache = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    sink = torch.empty((), dtype=torch.int64, device="cuda")
    page_halves = PAGE // 2
    # Zeros, so that a chain's next address is its last plus nothing: 132 programs x 16 loads a page apart (4.4 GB).
    x = torch.zeros(132 * max(CHAINS) * page_halves, dtype=torch.float16, device="cuda")
    y = torch.zeros(132 * page_halves + LINE_HALVES, dtype=torch.float16, device="cuda")
    small = torch.empty(132, dtype=torch.float32, device="cuda")

    after = {k: v for k, v in flushes(cache, sink).items() if k in ("zero", "read")}
    kernels = []
    for grid in PROGRAMS:
        kernels.append(("empty", grid, 0, 0, lambda g=grid: _empty[(g,)](small)))
        for stride in STRIDES:
            kernels.append(("store", grid, stride, 0, lambda g=grid, s=stride: _store[(g,)](y, s // 2)))
            for depth in CHAINS:
                fn = (lambda g=grid, s=stride, d=depth:  # noqa: E731
                      _chain[(g,)](x, small, s // 2, DEPTH=d, num_warps=4))  # fmt: skip
                kernels.append(("load" if depth == 1 else f"chain {depth}", grid, stride, depth, fn))
    rows = []
    for name, grid, stride, depth, fn in kernels:
        for flush_name, flush in after.items():
            rows.append({"kernel": name, "programs": grid, "stride_bytes": stride, "depth": depth,
                         "flush": flush_name, "ms": timed_ms(fn, flush)})  # fmt: skip
            print(rows[-1], flush=True)
        rows.append({"kernel": name, "programs": grid, "stride_bytes": stride, "depth": depth, "flush": "do_bench",
                     "ms": bench_ms(fn)})  # fmt: skip
        print(rows[-1], flush=True)
    for grid in GRIDS:
        for name, fn in (("empty", lambda g=grid: _empty[(g,)](small)),
                         ("load", lambda g=grid: _chain[(g,)](x, y, 64, DEPTH=1, num_warps=4))):  # fmt: skip
            rows.append({"kernel": f"{name} grid", "programs": grid, "stride_bytes": 128 if name == "load" else 0,
                         "depth": int(name == "load"), "flush": "do_bench", "ms": bench_ms(fn)})  # fmt: skip
            print(rows[-1], flush=True)
    write_csv(out / "startup.csv", rows)


if __name__ == "__main__":
    main()
