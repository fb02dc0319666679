"""A measurement campaign: a grid of Triton GEMM configurations over several shapes, timed,
checked, and (optionally) counted with Nsight Compute; written to CSV as it goes and resumed
where it stopped. The default grid follows issue 6: square 2048-8192, a short-K, a long-K and a
skinny shape, fp16, tiles of 64-256, GROUP_M varied."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roofmodel.backends.records import GEMM_COLUMNS, GemmRecord, read_csv, record_of, write_csv

Progress = Callable[[int, int, str], None]  # (done, total, what is being measured now)

SHAPES = [
    (2048, 2048, 2048),
    (4096, 4096, 4096),
    (8192, 8192, 8192),
    (8192, 8192, 1024),  # short K
    (2048, 2048, 16384),  # long K
    (16384, 512, 4096),  # skinny N
]
TILES = [  # (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
    (128, 128, 64, 4, 3),
    (128, 128, 64, 8, 4),
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (64, 128, 64, 4, 4),
    (128, 64, 64, 4, 4),
    (64, 64, 64, 4, 4),
]
GROUPS = (1, 4, 8, 16)


def grid(dtype: str = "fp16", quick: bool = False) -> list[dict[str, Any]]:
    shapes = SHAPES[:3] if quick else SHAPES
    tiles = TILES[:3] if quick else TILES
    return [
        dict(m=m, n=n, k=k, dtype=dtype, block_m=bm, block_n=bn, block_k=bk, group_m=g, num_warps=w, num_stages=s)
        for (m, n, k) in shapes
        for (bm, bn, bk, w, s) in tiles
        for g in GROUPS
    ]


def _key(cfg: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(cfg[c] for c in ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "group_m",
                                  "num_warps", "num_stages"))  # fmt: skip


def _label(cfg: dict[str, Any]) -> str:
    return (f"{cfg['m']}x{cfg['n']}x{cfg['k']} {cfg['block_m']}x{cfg['block_n']}x{cfg['block_k']} "
            f"g{cfg['group_m']} w{cfg['num_warps']} s{cfg['num_stages']}")  # fmt: skip


def run(
    out_dir: Path,
    configs: list[dict[str, Any]],
    with_ncu: bool,
    budget_s: float = 1e9,
    progress: Progress | None = None,
) -> list[GemmRecord]:
    """Time every configuration not yet in out_dir/gemm.csv, then count DRAM bytes for those
    without counters; rewrite the CSV after each step so that a cut-off run resumes. ``progress``
    is told, before each kernel, how many are done, of how many, and which is next."""
    report = progress or (lambda done, total, what: None)
    from roofmodel.backends import ncu
    from roofmodel.backends.triton_gemm import run_config

    path = out_dir / "gemm.csv"
    done = {(_key(r.model_dump())): r for r in read_csv(path)} if path.exists() else {}
    t0 = time.monotonic()
    todo = [c for c in configs if _key(c) not in done]
    for i, cfg in enumerate(todo, 1):
        report(i - 1, len(todo), f"timing {_label(cfg)}")
        if time.monotonic() - t0 > budget_s:
            sys.stdout.write(f"time budget reached after {i - 1} of {len(todo)} configurations; rerun to resume\n")
            break
        try:
            rec = record_of(cfg, run_config(**cfg))
        except Exception as exc:  # a config that fails to compile or to fit is recorded as skipped
            sys.stdout.write(f"[{i}/{len(todo)}] skipped {cfg}: {type(exc).__name__}: {str(exc)[:120]}\n")
            continue
        done[_key(cfg)] = rec
        sys.stdout.write(f"[{i}/{len(todo)}] {_label(cfg)}: {rec.tflops:6.1f} TFLOPS\n")
        path.write_text(write_csv(list(done.values())))
    if with_ncu and ncu.available():
        need = [r for r in done.values() if r.dram_read_bytes is None]
        if need:
            report(0, 1, f"counting the DRAM bytes of {len(need)} kernels with Nsight Compute")
            counted = ncu.count_gemms([{c: getattr(r, c) for c in GEMM_COLUMNS[:10]} for r in need])
            for r, c in zip(need, counted, strict=True):
                done[_key(r.model_dump())] = r.model_copy(update={
                    "dram_read_bytes": c.get("dram__bytes_read.sum"),
                    "dram_write_bytes": c.get("dram__bytes_write.sum"),
                    "l2_hit_rate_pct": c.get("lts__t_sector_hit_rate.pct"),
                })  # fmt: skip
            path.write_text(write_csv(list(done.values())))
    report(1, 1, "done")
    return list(done.values())
