"""On an NVIDIA GPU: how fast a GEMM's operand stream reads DRAM as a function of the length of its contiguous runs,
with no math beside it, against torch.sum over the same bytes (the figure behind memory.dram.bandwidth.measured).

A decode GEMM (M of a few rows) streams B from DRAM once; each CTA owns a band of B's N rows (or columns) and reads a
BK x BN tile of it per iteration, pipelined over ``stages`` buffers. Each tile is made of runs: BK elements long where
B is K-major (one run per row of the band, rows K elements apart), BN elements long where B is N-major (one run per
row of K, rows N elements apart). This kernel does that and only that: program p reads its band, tile by tile along K
(tl.range with num_stages, so Triton pipelines the copies as it does a matmul's), sums the tiles in fp32 and writes
one number. The time of each configuration is a do_bench median (the L2 flushed before each run); the rate is the
matrix's bytes over it.

Sweeps run bytes (BK or BN x the element size) at several band widths, grids and stages, in 2- and 4-byte elements,
over an N x K matrix of about 470 MB (N = 28672, K = 8192 at 2 bytes: a decode shape of the broad sweeps). Writes
OUT/runs.csv and OUT/meta.json (device, clock samples, torch.sum's rate over the same bytes).

With --sizes, instead: four of those configurations (long runs in either layout, 128- and 64-byte K-major runs) and
torch.sum over matrices of N x 4, 16, 32 and 64 KiB (117 MB to 1.9 GB), to tell a shortfall that shrinks with the
bytes (a fixed cost a launch) from one that does not (the access pattern): OUT/sizes.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_dram_runs.py OUT [--sizes]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv

N_ROWS = 28672
K_BYTES = 16384  # a K-major row: 8192 two-byte elements
STAGES = (3, 5)
WARPS = 4


@triton.jit
def _stream_kernel(x_ptr, out_ptr, steps, band_offset, step_offset, row_stride,
                   TR: tl.constexpr, TC: tl.constexpr, STAGES: tl.constexpr):  # fmt: skip
    p = tl.program_id(0).to(tl.int64)
    rows = tl.arange(0, TR)[:, None].to(tl.int64) * row_stride
    cols = tl.arange(0, TC)[None, :]
    base = x_ptr + p * band_offset + rows + cols
    acc = tl.zeros((TR, TC), dtype=tl.float32)
    for i in tl.range(0, steps, num_stages=STAGES):
        acc += tl.load(base + i * step_offset).to(tl.float32)
    tl.store(out_ptr + p, tl.sum(acc))


def configurations() -> list[dict[str, int | str]]:
    """Every (layout, element bytes, BN, BK, stages) timed: the run is BK x e (K-major) or BN x e (N-major)."""
    out: list[dict[str, int | str]] = []
    for e in (2, 4):
        for stages in STAGES:
            for bn in (64, 128, 256):
                for run in (32, 64, 128, 256, 512):
                    bk = run // e
                    if bn * bk * e <= 64 * 1024:
                        out.append({"layout": "k", "e": e, "bn": bn, "bk": bk, "stages": stages, "run_bytes": run})
            for run in (64, 128, 256, 512):
                bn = run // e
                for bk in (32, 64, 128):
                    if bn * bk * e <= 64 * 1024:
                        out.append({"layout": "n", "e": e, "bn": bn, "bk": bk, "stages": stages, "run_bytes": run})
    return out


def stream_launch(x, cfg: dict[str, int | str]) -> tuple[Any, bool]:
    """One configuration's launch over ``x`` (an N_ROWS x K_BYTES byte buffer, viewed as its element type) as a
    callable, after a first run whose per-program sums are checked against torch's."""
    import torch

    e, bn, bk = int(cfg["e"]), int(cfg["bn"]), int(cfg["bk"])
    v = x.view(torch.float16 if e == 2 else torch.float32)
    n = N_ROWS
    k, grid = v.numel() // n, n // bn
    if cfg["layout"] == "k":  # B is N x K, K contiguous: a band of BN rows, BK columns a step
        tr, tc, band, step, stride = bn, bk, bn * k, bk, k
    else:  # B is K x N, N contiguous: a band of BN columns, BK rows a step
        tr, tc, band, step, stride = bk, bn, bn, bk * n, n
    steps = k // bk
    out = torch.empty(grid, dtype=torch.float32, device=x.device)

    def run() -> None:
        _stream_kernel[(grid,)](v, out, steps, band, step, stride, TR=tr, TC=tc, STAGES=int(cfg["stages"]),
                                num_warps=WARPS)  # fmt: skip

    run()
    if cfg["layout"] == "k":
        want = v.view(n, k)[:, : steps * bk].float().view(grid, bn, -1).sum(dim=(1, 2))
    else:
        want = v.view(k, n)[: steps * bk].float().view(-1, grid, bn).sum(dim=(0, 2))
    return run, bool(torch.allclose(out, want, rtol=1e-3, atol=1e-1))


def stream_seconds(x, cfg: dict[str, int | str]) -> tuple[float, bool]:
    """do_bench median (s) of one configuration (stream_launch), and whether its sums were right."""
    run, ok = stream_launch(x, cfg)
    ms = triton.testing.do_bench(run, warmup=10, rep=100, return_mode="median")
    return ms * 1e-3, ok


SIZE_K_BYTES = (4096, 16384, 32768, 65536)
SIZE_CONFIGS = ({"layout": "k", "e": 2, "bn": 64, "bk": 128, "stages": 5, "run_bytes": 256},
                {"layout": "n", "e": 2, "bn": 128, "bk": 32, "stages": 5, "run_bytes": 256},
                {"layout": "k", "e": 2, "bn": 128, "bk": 64, "stages": 5, "run_bytes": 128},
                {"layout": "k", "e": 2, "bn": 128, "bk": 32, "stages": 5, "run_bytes": 64})  # fmt: skip


def size_sweep(out: Path) -> None:
    """--sizes: SIZE_CONFIGS and torch.sum over N_ROWS x each of SIZE_K_BYTES (OUT/sizes.csv)."""
    import torch

    rows = []
    for k_bytes in SIZE_K_BYTES:
        x = torch.rand(N_ROWS * k_bytes // 2, device="cuda").to(torch.float16).view(torch.uint8)
        nbytes = x.numel()
        ms = triton.testing.do_bench(lambda x=x: x.view(torch.float16).sum(dtype=torch.float32), warmup=10, rep=100,
                                     return_mode="median")  # fmt: skip
        rows.append({"k_bytes": k_bytes, "bytes": nbytes, "pattern": "torch.sum", "seconds": ms * 1e-3,
                     "gb_per_s": nbytes / (ms * 1e-3) / 1e9, "checked": True})  # fmt: skip
        print(rows[-1], flush=True)
        for cfg in SIZE_CONFIGS:
            s, ok = stream_seconds(x, cfg)
            name = f"{cfg['layout']}-major bn {cfg['bn']} bk {cfg['bk']} stages {cfg['stages']} ({cfg['run_bytes']} B runs)"
            rows.append({"k_bytes": k_bytes, "bytes": nbytes, "pattern": name, "seconds": s,
                         "gb_per_s": nbytes / s / 1e9, "checked": ok})  # fmt: skip
            print(rows[-1], flush=True)
        del x
    write_csv(out / "sizes.csv", rows)


def main() -> None:
    import torch

    from benchmarks.gpu_wgmma_chain import sm_clock_mhz

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    if "--sizes" in sys.argv[2:]:
        size_sweep(out)
        return
    x = torch.randn(N_ROWS * K_BYTES // 2, dtype=torch.float16, device="cuda").clamp_(-1, 1).view(torch.uint8)
    # 4-byte views of random fp16 bits are sometimes NaN or huge: fill them with small floats instead
    x32 = torch.rand(N_ROWS * K_BYTES // 4, dtype=torch.float32, device="cuda").view(torch.uint8)
    nbytes = x.numel()
    meta = {"device": torch.cuda.get_device_name(0), "triton": triton.__version__, "torch": torch.__version__,
            "matrix_bytes": nbytes, "n_rows": N_ROWS, "k_bytes": K_BYTES, "warps": WARPS, "clock_mhz": []}  # fmt: skip
    ref = triton.testing.do_bench(lambda: x.view(torch.float16).sum(dtype=torch.float32), warmup=10, rep=100,
                                  return_mode="median")  # fmt: skip
    meta["torch_sum_gb_per_s"] = nbytes / (ref * 1e-3) / 1e9
    print("torch.sum", round(meta["torch_sum_gb_per_s"]), "GB/s", flush=True)
    rows = []
    for cfg in configurations():
        try:
            s, ok = stream_seconds(x if cfg["e"] == 2 else x32, cfg)
            rows.append({**cfg, "seconds": s, "gb_per_s": nbytes / s / 1e9, "checked": ok, "error": ""})
        except Exception as exc:  # a configuration that does not compile is recorded, not fatal
            rows.append({**cfg, "seconds": "", "gb_per_s": "", "checked": False, "error": str(exc).splitlines()[0]})
        print(rows[-1], flush=True)
        if len(rows) % 10 == 0:
            meta["clock_mhz"].append(sm_clock_mhz())
    write_csv(out / "runs.csv", rows)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
