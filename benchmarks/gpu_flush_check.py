"""On an NVIDIA GPU: what the L2 flush of triton.testing.do_bench costs the kernel it times.

do_bench clears the L2 before each timed run by zeroing a 256 MB buffer (cache.zero_()): the L2 is left full of
dirty lines, which the timed kernel's own DRAM traffic must write back as it evicts them. This times the same
kernels after three flushes, with CUDA events around the kernel alone (median of REPS runs each):

- ``zero``: do_bench's (256 MB zeroed: the L2 full of dirty lines);
- ``read``: 256 MB read (torch.sum): the L2 full of clean lines, nothing to write back;
- ``zero+read``: zeroed, then read: the dirty lines written back before the kernel starts.

Kernels: benchmarks/gpu_dram_runs.py's decode-B stream (N-major, 256-byte runs; and K-major 64-byte runs) over
1.8 MB to 1.9 GB (K_BYTES; the first run of 2026-11-29 took 117 MB, 470 MB and 1.9 GB only), torch.sum over the same
buffers, and an empty Triton kernel. The difference between ``zero`` and ``read`` is what the timed kernels of every
broad sweep (do_bench) carry, as a function of the bytes they bring into the L2. Writes OUT/flush.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_flush_check.py OUT
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import triton

REPS = 40
# Rows of 28,672 (gpu_dram_runs.N_ROWS) x these bytes: 1.8 MB to 1.9 GB, below and past the L2 (H200: 60 MiB).
K_BYTES = (64, 256, 512, 1024, 2048, 4096, 16384, 65536)
FLUSH_BYTES = 256 * 1024 * 1024


@triton.jit
def _empty_kernel(x_ptr):
    pass


def timed_ms(fn, flush) -> float:  # type: ignore[no-untyped-def]
    """Median over REPS of the CUDA-event time of ``fn`` alone, each run after ``flush``."""
    import torch

    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(REPS):
        flush()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def flushes(cache, sink) -> dict:  # type: ignore[no-untyped-def]
    """The flushes a kernel is timed after: ``zero`` (do_bench's: ``cache`` zeroed, the L2 left dirty), ``read``
    (``cache`` summed into ``sink``: the L2 clean) and ``zero+read`` (the dirty lines written back first)."""
    import torch

    def zero() -> None:
        cache.zero_()

    def read() -> None:
        torch.sum(cache, dim=0, out=sink)

    def zero_read() -> None:
        zero()
        read()

    return {"zero": zero, "read": read, "zero+read": zero_read}


def main() -> None:
    import torch

    from benchmarks.check_runs import write_csv
    from benchmarks.gpu_dram_runs import N_ROWS, stream_launch

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    cache = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    sink = torch.empty((), dtype=torch.int64, device="cuda")

    after = flushes(cache, sink)
    rows = []
    for k_bytes in K_BYTES:
        x = torch.rand(N_ROWS * k_bytes // 2, device="cuda").to(torch.float16).view(torch.uint8)
        kernels = {
            "n-major 256 B runs": stream_launch(x, {"layout": "n", "e": 2, "bn": 128, "bk": 32, "stages": 5})[0],
            "k-major 64 B runs": stream_launch(x, {"layout": "k", "e": 2, "bn": 128, "bk": 32, "stages": 5})[0],
            "torch.sum": lambda x=x: x.view(torch.float16).sum(dtype=torch.float32),
        }
        for name, fn in kernels.items():
            for flush_name, flush in after.items():
                ms = timed_ms(fn, flush)
                rows.append({"bytes": x.numel(), "kernel": name, "flush": flush_name, "ms": ms,
                             "gb_per_s": x.numel() / (ms * 1e-3) / 1e9})  # fmt: skip
                print(rows[-1], flush=True)
        del x
    for flush_name, flush in after.items():
        ms = timed_ms(lambda: _empty_kernel[(1,)](cache), flush)
        rows.append({"bytes": 0, "kernel": "empty", "flush": flush_name, "ms": ms, "gb_per_s": 0.0})
        print(rows[-1], flush=True)
    write_csv(out / "flush.csv", rows)


if __name__ == "__main__":
    main()
