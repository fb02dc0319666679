"""How a Triton kernel lays out an FMA (CUDA-core) dot across its threads, and the shared-memory wavefronts
its warps' operand reads take in that layout.

Triton gives a ``tt.dot`` that no tensor instruction takes a blocked layout of order (N, M) with the same
number of elements per thread along both dimensions: 4 x 4 where the tile holds at least 16 elements per
thread, 2 x 2 where it holds at least 4, else 1 x 1 (TritonToTritonGPU's dot pattern); the lanes, then the
warps, go along N first, as many as N's elements over that size allow, the rest along M (BlockedEncodingAttr's
default construction). Compiled for sm_90 with Triton 3.6 (benchmarks' ``compile_kernel``), every tile of the
broad sweeps' FMA space has the layout this module computes: 64x64 on 4 warps is sizePerThread [4, 4],
threadsPerWarp [2, 16], warpsPerCTA [4, 1], so each thread holds 8 rows x 4 columns of C.

The operands reach those registers from a stage in shared memory that keeps each operand's layout in global
memory, unswizzled (``swizzled_shared<vec = 1, perPhase = 1, maxPhase = 1>``, its order the global one), with
16-byte ``ld.shared`` along the stage's contiguous dimension where the thread holds 16 bytes of it: the same
count of loads in all four layouts (64x64x32 fp32 on 4 warps: 96 LDS.128 and 8 LDGSTS.128 an iteration,
each way). What differs is the bank conflicts. A 16-byte load serves a warp in phases of 8 lanes; each phase
takes as many 128-byte wavefronts as the most distinct addresses any one bank holds. Where a K-major operand
is read along K, the lanes of a phase that hold different rows read addresses a whole number of rows apart,
and a row of BK x 4 bytes >= 128 puts them all in the same banks: a K-major B is read with up to 8 wavefronts
a phase where an N-major one takes 1. At 64x64x32 on 4 warps that is 1,152 wavefronts a warp an iteration
against 256, 4,608 and 1,024 a CTA (Nsight Compute: 4,610 and 1,026), 4.5 x.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from roofmodel.model.arrays import logical_not as _not
from roofmodel.model.arrays import maximum as _maximum
from roofmodel.model.arrays import minimum as _minimum
from roofmodel.model.arrays import where as _where

WAVEFRONT_BYTES = 128  # 32 banks x 4 bytes: what shared memory serves a warp in one wavefront
VECTOR_BYTES = 16  # the widest ld.shared a thread issues
# Two adjacent phases of a load are served in one pass where each reads at most this many distinct addresses: read
# off Nsight Compute's counts of six kernels (docs/measurements/h100-2026-11-27/fma_wavefronts, 64x16x32 and
# 32x16x64 on 2 warps: phases of 2 served together, of 4 and 8 not); the other 58 would fit 1, 2 or 4 alike. Held out
# since: fma_wavefronts_check2.csv's 32 (4 lanes along N among them) are the count within 1.5%.
MERGED_DISTINCT = 2


class FmaLayout(NamedTuple):
    """Triton's blocked layout of an FMA dot (numbers or numpy arrays): elements per thread along each of M and N
    (``size``), lanes along M and N (``lanes_m``, ``lanes_n``), warps along M and N, and the rows (``rm``) and
    columns (``rn``) of C each thread holds."""

    size: Any
    lanes_m: Any
    lanes_n: Any
    warps_m: Any
    warps_n: Any
    rm: Any
    rn: Any


def _clamp(x: Any, lo: Any, hi: Any) -> Any:
    return _minimum(_maximum(x, lo), hi)


def triton_fma_layout(bm: Any, bn: Any, warps: Any, warp_size: int = 32) -> FmaLayout:
    """The layout Triton gives a BM x BN FMA dot on ``warps`` warps: size = 4 where BM x BN / threads >= 16, 2
    where >= 4, else 1; threads along N = clamp(threads, 1, max(1, BN / size)), lanes along N = min(that, warp
    size), warps along N = clamp(threads along N / lanes along N, 1, warps), the rest along M; each thread holds
    size x max(1, BM / (size x lanes_m x warps_m)) rows and likewise columns. Powers of two throughout."""
    threads = warps * warp_size
    per_thread = bm * bn // threads
    size = _where(per_thread >= 16, 4, _where(per_thread >= 4, 2, 1))
    along_n = _clamp(threads, 1, _maximum(1, bn // size))
    lanes_n = _minimum(along_n, warp_size)
    warps_n = _clamp(along_n // lanes_n, 1, warps)
    lanes_m, warps_m = warp_size // lanes_n, warps // warps_n
    rm = size * _maximum(1, bm // (size * lanes_m * warps_m))
    rn = size * _maximum(1, bn // (size * lanes_n * warps_n))
    return FmaLayout(size, lanes_m, lanes_n, warps_m, warps_n, rm, rn)


def _conflict(k_major: Any, distinct: Any, size: Any, bk: Any, element_bytes: int) -> Any:
    """Wavefronts one group of lanes takes where ``distinct`` of them read different addresses (the rest repeat
    one of those: a broadcast). K-major: the addresses are rows ``size`` x BK x e bytes apart, and rows 128 or more
    bytes apart fall in the same banks, closer ones in 128 / stride groups of banks: max(1, distinct x min(stride,
    128) / 128). MN-major: the lanes' elements lie side by side, ``size`` x e bytes each: ceil(distinct x size x e /
    128)."""
    stride = size * bk * element_bytes
    k_major_wf = _maximum(1, distinct * _minimum(stride, WAVEFRONT_BYTES) // WAVEFRONT_BYTES)
    mn_major_wf = _maximum(1, -(-(distinct * size * element_bytes) // WAVEFRONT_BYTES))
    return _where(k_major, k_major_wf, mn_major_wf)


def _operand_wavefronts(k_major: Any, rows: Any, size: Any, distinct: Any, bk: Any, element_bytes: int,
                        warp_size: int) -> Any:  # fmt: skip
    """Wavefronts one warp's reads of one operand take per iteration. ``rows``: the operand's rows (of M for A, N
    for B) each thread holds; ``distinct(p)``: the distinct lanes along the operand's own dimension among p
    consecutive lanes (lanes that differ only along the other dimension read the same addresses).

    Loads: K-major, 16 bytes along K (vector = min(16, BK x e) bytes), rows x BK x e / vector of them; MN-major,
    a thread's ``size`` contiguous elements (at most 16 bytes), BK x rows x e / vector. Shared memory serves a load
    in phases of p = 128 / vector lanes (8 for 16 bytes), each taking _conflict(distinct(p)) wavefronts. Two
    adjacent phases are served together where each reads at most MERGED_DISTINCT distinct addresses, then taking
    _conflict(distinct(2 p)); a load whose phase is the whole warp has no pair. Nsight Compute's load wavefronts of
    64 fp32 Triton FMA matmuls on an H100 (16 tiles, each in the four layouts; docs/measurements/h100-2026-11-27/
    fma_wavefronts) are this count within 2.6%, 63 of them within 1% (the rule was read off the first 32; the 32 of
    tiles chosen after it and measured after (CHECK_TILES) broke its first pairing limit on 6 kernels of two tiles
    (64x16x32 on 2 warps, 32x16x64 on 2), and MERGED_DISTINCT was then read off those 6 (the first 32 give the same
    counts with a limit of 1, 2 or 4): the final rule is fitted to those 64; 32 more, of tiles chosen after the fit
    and measured after it, are its count within 1.5%, the held-out test). A
    K-major B read by 16 lanes along N takes 32 wavefronts a load (two pairs of phases, each phase 8 rows in the
    same banks: 8 wavefronts), an N-major one 4; a K-major A whose lanes along N all read one row, 2."""
    vector = _where(k_major, _minimum(VECTOR_BYTES, bk * element_bytes),
                    _minimum(size * element_bytes, VECTOR_BYTES))  # fmt: skip
    phase = WAVEFRONT_BYTES // vector
    loads = rows * bk * element_bytes // vector
    one = distinct(phase)
    paired = _where(one <= MERGED_DISTINCT, _conflict(k_major, distinct(2 * phase), size, bk, element_bytes),
                    2 * _conflict(k_major, one, size, bk, element_bytes))  # fmt: skip
    per_load = _where(2 * phase <= warp_size, warp_size // (2 * phase) * paired,
                      _conflict(k_major, one, size, bk, element_bytes))  # fmt: skip
    return loads * per_load


def fma_read_wavefronts(layout: FmaLayout, bk: Any, element_bytes: int, a_m_major: Any, b_n_major: Any,
                        warp_size: int = 32) -> Any:  # fmt: skip
    """Shared-memory wavefronts one CTA's operand reads take per iteration, in Triton's FMA layout: warps x (A's +
    B's per warp, _operand_wavefronts). Lanes are numbered along N first, so p consecutive lanes span min(lanes_n, p)
    columns of N and min(lanes_m, max(1, p / lanes_n)) rows of M."""
    ln, lm = layout.lanes_n, layout.lanes_m
    a = _operand_wavefronts(_not(a_m_major), layout.rm, layout.size,
                            lambda p: _minimum(lm, _maximum(1, p // ln)), bk, element_bytes, warp_size)  # fmt: skip
    b = _operand_wavefronts(_not(b_n_major), layout.rn, layout.size, lambda p: _minimum(ln, p), bk, element_bytes,
                            warp_size)  # fmt: skip
    return layout.warps_m * layout.warps_n * (a + b)
