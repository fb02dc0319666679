"""Threadblock rasterization: the order in which output tiles reach the SMs, and the DRAM
traffic that order costs (seed 000 §5.2.3, seed 002 §3.2, seed 004 "L2 cache locality").

Orders (``--raster``):

- ``row``: tile id -> (id // tiles_n, id % tiles_n), the launch order of a 2-D grid.
- ``col``: column-major, (id % tiles_m, id // tiles_m).
- ``grouped:G``: Triton's tutorial ordering: groups of G tile rows, column-major inside a group.
- ``swizzle:S`` / ``swizzle:S:m``: CUTLASS's SM90 tile scheduler (cluster 1x1), rasterizing along
  N (or M) in strips of S = 2^log_swizzle tiles; the grid is padded to a multiple of S and the
  padding does no work.
- ``superm:S``: ThunderKittens' super_M formula (seed 002 §3.2.3): row = (id / (S*C))*S + id % S,
  col = (id % (S*C)) / S, for tiles_m divisible by S.

The cache model, stated and tested: CTAs run in waves of ``concurrent`` consecutive tiles (the
dispatch order is the tile order: seed 004's assumption, exact for a persistent kernel that
strides over tiles by the number of CTA slots, seed 002 §3.2.4). Within a wave each distinct A or
B panel is read from DRAM once, because the CTAs of a wave stream K together and share it in L2.
A panel used by the previous wave is still in L2, and costs no DRAM read, if the two waves'
distinct panels (over the whole K) fit in L2 together; older waves are gone. C is written once.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.machine.summary import MachineInfo
from roofmodel.model.occupancy import Occupancy
from roofmodel.model.problem import GemmInfo
from roofmodel.results import JSON_SCHEMA_VERSION, Result

ORDER_HELP = "row, col, grouped:G, swizzle:S[:m], superm:S; +remap on a machine of private L2s"


@dataclass(frozen=True)
class RasterOrder:
    kind: str
    size: int = 1
    along: str = "n"
    # Renumbered so that each private L2 slice runs a contiguous share of the order (AMD's XCD remap:
    # ROCm/aiter remap_xcd, hipBLASLt WorkGroupMappingXCC) instead of every P-th tile.
    remap: bool = False

    @property
    def label(self) -> str:
        if self.kind in ("row", "col"):
            base = self.kind
        else:
            base = f"{self.kind}:{self.size}" + (":m" if self.kind == "swizzle" and self.along == "m" else "")
        return base + ("+remap" if self.remap else "")


def parse_order(text: str) -> RasterOrder:
    """'grouped:8' -> RasterOrder('grouped', 8). Sizes are whole numbers >= 1."""
    t = text.strip().lower()
    if t.endswith("+remap"):
        base = parse_order(t.removesuffix("+remap"))
        if base.remap:
            raise ProblemError(f"--raster: +remap is given once (got {text!r})")
        return RasterOrder(base.kind, base.size, base.along, remap=True)
    if t in ("row", "row-major", "rowmajor"):
        return RasterOrder("row")
    if t in ("col", "column", "column-major", "colmajor"):
        return RasterOrder("col")
    m = re.fullmatch(r"(grouped|swizzle|superm):(\d+)(?::([mn]))?", t)
    if not m or (m.group(3) and m.group(1) != "swizzle"):
        raise ProblemError(f"--raster: unknown order {text!r} (orders: {ORDER_HELP})")
    size = int(m.group(2))
    if size < 1:
        raise ProblemError(f"--raster: size must be >= 1 (got {text!r})")
    if m.group(1) == "swizzle" and size & (size - 1):
        raise ProblemError(f"--raster: a CUTLASS swizzle size is a power of two (got {size})")
    return RasterOrder(m.group(1), size, m.group(3) or "n")


NUMPY_ABOVE_TILES = 20_000  # below this, plain Python is faster than importing numpy
MAX_TILES = 1 << 24  # about 1 GB and 10 s of work at most; beyond, a larger tile is the answer


def _indices(order: RasterOrder, pid: Any, tiles_m: int, tiles_n: int, minimum: Any) -> tuple[Any, Any]:
    """(row, col) of tile id ``pid``: plain arithmetic, so ``pid`` may be an int or a numpy array."""
    if order.kind == "row":
        return pid // tiles_n, pid % tiles_n
    if order.kind == "col":
        return pid % tiles_m, pid // tiles_m
    if order.kind == "grouped":  # Triton, 03-matrix-multiplication tutorial
        g = order.size
        in_group = g * tiles_n
        first_m = (pid // in_group) * g
        group_size_m = minimum(tiles_m - first_m, g)
        return first_m + (pid % in_group) % group_size_m, (pid % in_group) // group_size_m
    if order.kind == "swizzle":  # CUTLASS sm90 tile scheduler, cluster 1x1; may fall off the grid
        s = order.size
        major = tiles_n if order.along == "n" else tiles_m
        extra = pid // s
        idx_minor, idx_major = (extra // major) * s + pid % s, extra % major
        return (idx_minor, idx_major) if order.along == "n" else (idx_major, idx_minor)
    if order.kind == "superm":  # ThunderKittens, seed 002 §3.2.3
        s = order.size
        repeat = s * tiles_n
        return (pid // repeat) * s + pid % s, (pid % repeat) // s
    raise ProblemError(f"--raster: unknown order {order.kind!r}")


def _launch_count(order: RasterOrder, tiles_m: int, tiles_n: int) -> int:
    """Tile ids to enumerate: CUTLASS pads its minor dimension to a multiple of the swizzle."""
    if tiles_m * tiles_n > MAX_TILES:
        raise ProblemError(
            f"the raster model handles at most {MAX_TILES:,} tiles (this grid has {tiles_m:,} x {tiles_n:,}); "
            "use a larger tile"
        )
    if order.kind == "superm" and tiles_m % order.size:
        raise ProblemError(
            f"--raster superm:{order.size}: seed 002's formula assumes the {tiles_m} tile rows divide by {order.size}"
        )
    if order.kind == "swizzle":
        minor, major = (tiles_m, tiles_n) if order.along == "n" else (tiles_n, tiles_m)
        return math.ceil(minor / order.size) * order.size * major
    return tiles_m * tiles_n


def tile_order(order: RasterOrder, tiles_m: int, tiles_n: int, *, vectorized: bool | None = None) -> tuple[Any, Any]:
    """(rows, cols) of the output tiles in scheduled order: numpy arrays for large grids (or when
    ``vectorized``), lists of ints otherwise. Padding tiles of a CUTLASS swizzle are dropped."""
    count = _launch_count(order, tiles_m, tiles_n)
    if vectorized if vectorized is not None else count > NUMPY_ABOVE_TILES:
        import numpy as np

        rows, cols = _indices(order, np.arange(count, dtype=np.int64), tiles_m, tiles_n, np.minimum)
        keep = (rows < tiles_m) & (cols < tiles_n)
        return rows[keep], cols[keep]
    pairs = [_indices(order, pid, tiles_m, tiles_n, min) for pid in range(count)]
    kept = [(r, c) for r, c in pairs if r < tiles_m and c < tiles_n]
    return [r for r, _ in kept], [c for _, c in kept]


class WaveStats(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    wave: int
    tiles: int
    unique_a_panels: int
    unique_b_panels: int
    sharing_factor: float
    footprint_bytes: float
    dram_read_bytes: float
    tile_rows: list[int]
    tile_cols: list[int]


class RasterTraffic(BaseModel):
    """Traffic of one order. Bytes for the whole GEMM; 'requested' is what the CTAs ask of L2."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    order: str
    tiles_m: int
    tiles_n: int
    concurrent: int
    waves: int
    requested_bytes: float
    wave_distinct_bytes: float  # sum over waves of each wave's distinct panel bytes
    dram_read_bytes: float
    # A's part of requested_bytes and of dram_read_bytes (B's is the rest): an operand's own L2 hit rate
    a_requested_bytes: float
    a_dram_read_bytes: float
    dram_write_bytes: float
    compulsory_read_bytes: float
    l2_capacity_bytes: float
    sharing_factor: float
    mean_wave_sharing_factor: float
    first_waves: list[WaveStats]
    cache_assumption: str


CACHE_ASSUMPTION = (
    "within a wave each distinct panel is read from DRAM once; a panel of the previous wave stays in L2 "
    "if both waves' panels fit in L2 together; older waves are evicted; C is written once"
)


def is_row_order(order: RasterOrder) -> bool:
    """Row order, or groups of one row (the same order)."""
    return order.kind == "row" or (order.kind == "grouped" and order.size == 1)


def rows_drift_apart(order: RasterOrder, ctas_per_sm: int, waves: float, b_bytes: float, l2_bytes: float) -> bool:
    """Whether CACHE_ASSUMPTION is measured to fail (the raster checks on an H200, docs/model.md, "Where a wave's rows
    do not share"): in row order (or groups of one row), with two or more CTAs an SM, two or more waves and B over the
    L2, the CTAs an SM holds may drift apart along K and later rows of tiles read B again."""
    return is_row_order(order) and ctas_per_sm >= 2 and waves >= 2 and b_bytes > l2_bytes


def unshared_row_read_bytes(*, m: int, n: int, k: int, bm: int, bn: int, input_bytes: int, l2_bytes: float) -> float:
    """DRAM reads of row order one tile at a time, where no two rows of a wave share a panel (raster_traffic at
    concurrent = 1, in closed form; bytes): each tile reads its A and B panels, but for what the tile before it read
    that it reads too, kept where both tiles' panels fit the L2 together: the A panel of the tile before it in its row,
    or with one column of tiles the B panel of the tile above it. What the rows read when the CTAs an SM holds drift
    apart along K and no two share B: the upper end of what the raster checks measured (drifting_rows_note)."""
    tiles_m, tiles_n = math.ceil(m / bm), math.ceil(n / bn)
    a = _panel_bytes(tiles_m, bm, m, k, input_bytes)
    b = _panel_bytes(tiles_n, bn, n, k, input_bytes)
    read = float(tiles_n * sum(a) + tiles_m * sum(b))
    if tiles_n > 1:  # (r, c - 1) then (r, c): the same A panel
        pairs = Counter(x + y for x, y in itertools.pairwise(b))
        for panel in a:
            read -= panel * sum(count for pair, count in pairs.items() if 2 * panel + pair <= l2_bytes)
    else:  # (r - 1, 0) then (r, 0): the same B panel
        read -= b[0] * sum(1 for x, y in itertools.pairwise(a) if x + y + 2 * b[0] <= l2_bytes)
    return read


def drifting_rows_note(ctas_per_sm: int, waves: float, b_bytes: float, unshared_bytes: float | None = None) -> str:
    """What the raster checks measured where rows_drift_apart, for a kernel's output; with ``unshared_bytes``
    (unshared_row_read_bytes of its tile), the most its rows would read."""
    return (
        f"in row order, with {ctas_per_sm} CTAs an SM over {waves:,.1f} waves and B ({b_bytes / 2**20:,.0f} MiB) over the "
        "L2, the CTAs an SM holds may drift apart along K, and later rows of tiles then read B again"
        + (
            f" (if no two rows shared a panel, {unshared_bytes / 2**20:,.0f} MiB: rasterization.unshared_row_read_bytes)"
            if unshared_bytes is not None
            else ""
        )
        + ": on an H200 such kernels read up to 6.5 x the raster model's bytes (these), more with more waves and the "
        "more B outgrows the L2, at a rate that is the tile's own (fp16 128x128x64 at 8192^3 1.2 x, its 64x128x64 twin "
        "3.1 x; the more so the larger the kernel's L2 time is against its SM time; with B 8.7 x the L2, a median 0.71 of the "
        "excess at 2-10 waves; grouped order: up to 1.6 x; docs/measurements/h200-2026-11-30/raster_* and drift_*)"
    )


def drifting_rows_caveat(machine: Machine, order: RasterOrder, ctas_per_sm: int, waves: float, *, m: int, n: int,
                         k: int, bm: int, bn: int, input_bytes: int) -> str:  # fmt: skip
    """drifting_rows_note where rows_drift_apart ("" elsewhere), for a kernel whose (cluster) tile is bm x bn: with its
    unshared_row_read_bytes where one L2 serves every SM and no last-level cache sits behind it (where the drift was
    measured), without elsewhere. What predict's DRAM line and raster's note say."""
    l2_bytes = machine.memory.l2.capacity.bytes
    b_bytes = n * k * input_bytes
    if not rows_drift_apart(order, ctas_per_sm, waves, b_bytes, l2_bytes):
        return ""
    one_l2 = machine.l2_partitions == 1 and machine.memory.llc is None
    unshared = (unshared_row_read_bytes(m=m, n=n, k=k, bm=bm, bn=bn, input_bytes=input_bytes, l2_bytes=l2_bytes)
                if one_l2 else None)  # fmt: skip
    return drifting_rows_note(ctas_per_sm, waves, b_bytes, unshared)


@dataclass(frozen=True)
class _PerWave:
    """Per-wave sums, in bytes, from either implementation."""

    requested: list[float]
    footprint: list[float]
    kept: list[float]
    unique_a: list[int]
    unique_b: list[int]
    # A's part of requested, footprint and kept
    requested_a: list[float]
    footprint_a: list[float]
    kept_a: list[float]


def _panel_bytes(count: int, edge: int, extent: int, k: int, element_bytes: int) -> list[int]:
    """Bytes of each panel: min(edge, extent - i*edge) x K x element bytes (exact at the edge)."""
    return [min(edge, extent - i * edge) * k * element_bytes for i in range(count)]


def _per_wave_scalar(
    rows: list[int], cols: list[int], concurrent: int, a: list[int], b: list[int], l2: float
) -> _PerWave:
    """The reference implementation: sets of panels per wave."""
    out = _PerWave([], [], [], [], [], [], [], [])
    prev_a: set[int] = set()
    prev_b: set[int] = set()
    prev_fp = math.inf
    for start in range(0, len(rows), concurrent):
        wr, wc = rows[start : start + concurrent], cols[start : start + concurrent]
        ua, ub = set(wr), set(wc)
        fp_a = sum(a[r] for r in ua)
        fp = fp_a + sum(b[c] for c in ub)
        fits = prev_fp + fp <= l2
        kept_a = sum(a[r] for r in ua & prev_a) if fits else 0
        kept = kept_a + sum(b[c] for c in ub & prev_b) if fits else 0
        requested_a = sum(a[r] for r in wr)
        out.requested.append(float(requested_a + sum(b[c] for c in wc)))
        out.footprint.append(float(fp))
        out.kept.append(float(kept))
        out.requested_a.append(float(requested_a))
        out.footprint_a.append(float(fp_a))
        out.kept_a.append(float(kept_a))
        out.unique_a.append(len(ua))
        out.unique_b.append(len(ub))
        prev_a, prev_b, prev_fp = ua, ub, fp
    return out


def _per_wave_numpy(rows: Any, cols: Any, concurrent: int, a: list[int], b: list[int], l2: float) -> _PerWave:
    """The same sums for large grids, in O(tiles) memory: each distinct (wave, panel) pair once,
    and a pair also present in the previous wave is a retained panel."""
    import numpy as np

    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    a_bytes = np.asarray(a, dtype=np.float64)
    b_bytes = np.asarray(b, dtype=np.float64)
    wave = np.arange(rows.size, dtype=np.int64) // concurrent
    n_waves = int(wave[-1]) + 1
    sums = []
    for idx, nbytes in ((rows, a_bytes), (cols, b_bytes)):
        width = nbytes.size
        keys = np.unique(wave * width + idx)  # distinct (wave, panel), sorted
        kw, kp = keys // width, keys % width
        unique = np.bincount(kw, minlength=n_waves)
        fp = np.bincount(kw, weights=nbytes[kp], minlength=n_waves)
        prev = keys - width  # the same panel one wave earlier
        again = np.isin(prev, keys) & (kw > 0)
        shared = np.bincount(kw[again], weights=nbytes[kp[again]], minlength=n_waves)
        sums.append((unique, fp, shared))
    (ua, fpa, sha), (ub, fpb, shb) = sums
    footprint = fpa + fpb
    kept, kept_a = np.zeros(n_waves), np.zeros(n_waves)
    if n_waves > 1:
        fits = footprint[:-1] + footprint[1:] <= l2
        kept[1:] = np.where(fits, (sha + shb)[1:], 0.0)
        kept_a[1:] = np.where(fits, sha[1:], 0.0)
    requested_a = np.bincount(wave, weights=a_bytes[rows], minlength=n_waves)
    requested = requested_a + np.bincount(wave, weights=b_bytes[cols], minlength=n_waves)
    return _PerWave(requested.tolist(), footprint.tolist(), kept.tolist(), ua.tolist(), ub.tolist(),
                    requested_a.tolist(), fpa.tolist(), kept_a.tolist())  # fmt: skip


def raster_traffic(
    rows: Any,
    cols: Any,
    *,
    concurrent: int,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    input_bytes: int,
    output_bytes: int,
    l2_bytes: float,
    order_label: str = "custom",
    keep_waves: int = 3,
    vectorized: bool | None = None,
) -> RasterTraffic:
    """DRAM traffic of tiles scheduled in the order (rows[i], cols[i]), ``concurrent`` at a time.

    Panel sizes are exact at the edges: tile row r reads min(BM, M - r*BM) x K of A.
    """
    if concurrent < 1:
        raise ProblemError(f"concurrent CTAs must be >= 1 (got {concurrent})")
    tiles_m, tiles_n = math.ceil(m / bm), math.ceil(n / bn)
    a = _panel_bytes(tiles_m, bm, m, k, input_bytes)
    b = _panel_bytes(tiles_n, bn, n, k, input_bytes)
    use_numpy = vectorized if vectorized is not None else len(rows) > NUMPY_ABOVE_TILES
    per = (_per_wave_numpy if use_numpy else _per_wave_scalar)(rows, cols, concurrent, a, b, l2_bytes)
    rows_list = rows.tolist() if hasattr(rows, "tolist") else list(rows)
    cols_list = cols.tolist() if hasattr(cols, "tolist") else list(cols)
    first = []
    for w in range(min(keep_waves, len(per.requested))):
        sl = slice(w * concurrent, (w + 1) * concurrent)
        first.append(
            WaveStats(
                wave=w,
                tiles=len(rows_list[sl]),
                unique_a_panels=int(per.unique_a[w]),
                unique_b_panels=int(per.unique_b[w]),
                sharing_factor=per.requested[w] / per.footprint[w],
                footprint_bytes=per.footprint[w],
                dram_read_bytes=per.footprint[w] - per.kept[w],
                tile_rows=rows_list[sl],
                tile_cols=cols_list[sl],
            )
        )
    requested = math.fsum(per.requested)
    reads = math.fsum(per.footprint) - math.fsum(per.kept)
    return RasterTraffic(
        order=order_label,
        tiles_m=tiles_m,
        tiles_n=tiles_n,
        concurrent=concurrent,
        waves=len(per.requested),
        requested_bytes=requested,
        wave_distinct_bytes=math.fsum(per.footprint),
        dram_read_bytes=reads,
        a_requested_bytes=math.fsum(per.requested_a),
        a_dram_read_bytes=math.fsum(per.footprint_a) - math.fsum(per.kept_a),
        dram_write_bytes=float(m * n * output_bytes),
        compulsory_read_bytes=float((m * k + k * n) * input_bytes),
        l2_capacity_bytes=float(l2_bytes),
        sharing_factor=requested / reads,
        mean_wave_sharing_factor=math.fsum(r / f for r, f in zip(per.requested, per.footprint, strict=True))
        / len(per.requested),
        first_waves=first,
        cache_assumption=CACHE_ASSUMPTION,
    )


def order_traffic(
    order: RasterOrder,
    *,
    concurrent: int,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    input_bytes: int,
    output_bytes: int,
    l2_bytes: float,
    keep_waves: int = 3,
    vectorized: bool | None = None,
) -> RasterTraffic:
    """raster_traffic for a named order over the (ceil(M/BM) x ceil(N/BN)) tile grid."""
    rows, cols = tile_order(order, math.ceil(m / bm), math.ceil(n / bn), vectorized=vectorized)
    return raster_traffic(
        rows,
        cols,
        concurrent=concurrent,
        m=m,
        n=n,
        k=k,
        bm=bm,
        bn=bn,
        input_bytes=input_bytes,
        output_bytes=output_bytes,
        l2_bytes=l2_bytes,
        order_label=order.label,
        keep_waves=keep_waves,
        vectorized=vectorized,
    )


def partitioned_order_traffic(
    order: RasterOrder,
    *,
    partitions: int,
    concurrent: int,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    input_bytes: int,
    output_bytes: int,
    l2_bytes: float,
    keep_waves: int = 3,
) -> RasterTraffic:
    """The traffic into an L2 split into ``partitions`` private slices (machine: l2.private_partitions)
    with tiles dealt round-robin in launch order: slice p runs tiles p, p + P, p + 2P, ... of the order,
    concurrent / P at a time, in capacity / P of L2; its misses are read from the level above. The sum
    over slices (each from raster_traffic): ``requested`` is unchanged, ``dram_read_bytes`` is what the
    slices read from above. Neighbouring tiles of the order land in different slices, which is what
    round-robin dispatch costs a grouped order (AMD MI300X: workgroup i runs on XCD i mod 8)."""
    rows, cols = tile_order(order, math.ceil(m / bm), math.ceil(n / bn), vectorized=True)
    per_slice = max(1, concurrent // partitions)
    if order.remap:  # each slice runs a contiguous share of the order, in order
        share = -(-len(rows) // partitions)
        slices = [slice(p * share, (p + 1) * share) for p in range(partitions)]
    else:  # round-robin: slice p runs tiles p, p + P, ...
        slices = [slice(p, None, partitions) for p in range(partitions)]
    grid = dict(m=m, n=n, k=k, bm=bm, bn=bn, input_bytes=input_bytes, output_bytes=output_bytes)
    parts = [
        raster_traffic(
            rows[sl],
            cols[sl],
            concurrent=per_slice,
            l2_bytes=l2_bytes / partitions,
            order_label=order.label,
            keep_waves=keep_waves,
            **grid,
        )  # type: ignore[arg-type]
        for sl in slices
        if len(rows[sl])
    ]
    requested = math.fsum(t.requested_bytes for t in parts)
    reads = math.fsum(t.dram_read_bytes for t in parts)
    first = parts[0]
    return first.model_copy(
        update={
            "concurrent": concurrent,
            "waves": max(t.waves for t in parts),
            "requested_bytes": requested,
            "wave_distinct_bytes": math.fsum(t.wave_distinct_bytes for t in parts),
            "dram_read_bytes": reads,
            "a_requested_bytes": math.fsum(t.a_requested_bytes for t in parts),
            "a_dram_read_bytes": math.fsum(t.a_dram_read_bytes for t in parts),
            "l2_capacity_bytes": float(l2_bytes),
            "sharing_factor": requested / reads,
            "mean_wave_sharing_factor": math.fsum(t.mean_wave_sharing_factor for t in parts) / len(parts),
            "cache_assumption": f"{partitions} private L2 slices of {l2_bytes / partitions / 2**20:,.0f} MiB, tiles "
            + (
                "renumbered so each slice runs a contiguous share of the order"
                if order.remap
                else "dealt round-robin in launch order"
            )
            + f" ({per_slice} at once each); per slice: {CACHE_ASSUMPTION}; first_waves are slice 0's",
        }
    )


def machine_traffic(
    machine: Machine, order: RasterOrder, *, concurrent: int, keep_waves: int = 3, **grid: Any
) -> tuple[RasterTraffic, RasterTraffic | None]:
    """(what the CTAs request of L2 and what the L2 reads from the level above, what DRAM serves
    through a last-level cache or None): the raster model over the machine's L2, split into its
    private slices where the file says so (partitioned_order_traffic), and, where the file has a
    chip-wide last-level cache, the same order over the whole chip at that cache's capacity (it sees
    every slice's misses and reads each distinct panel of a wave from DRAM once). ``grid``: m, n, k,
    bm, bn, input_bytes, output_bytes."""
    l2_bytes = machine.memory.l2.capacity.bytes
    if order.remap and machine.l2_partitions == 1:
        raise ProblemError(f"--raster {order.label}: {machine.name} has one L2 that every SM shares; +remap deals "
                           "contiguous tiles to private L2 slices (memory.l2.private_partitions)")  # fmt: skip
    if machine.l2_partitions > 1:
        l2 = partitioned_order_traffic(order, partitions=machine.l2_partitions, concurrent=concurrent,
                                       l2_bytes=l2_bytes, keep_waves=keep_waves, **grid)  # fmt: skip
    else:
        l2 = order_traffic(order, concurrent=concurrent, l2_bytes=l2_bytes, keep_waves=keep_waves, **grid)
    llc = machine.memory.llc
    if llc is None:
        return l2, None
    if not (order.remap and machine.l2_partitions > 1):
        return l2, order_traffic(order, concurrent=concurrent, l2_bytes=llc.capacity.bytes, keep_waves=keep_waves,
                                 **grid)  # fmt: skip
    # Remapped, the chip runs in launch order i the tile (i mod P) x share + i // P of the order: its
    # waves are P runs of the order at once, one a slice, and that is what the last-level cache sees.
    rows, cols = tile_order(
        order, math.ceil(grid["m"] / grid["bm"]), math.ceil(grid["n"] / grid["bn"]), vectorized=True
    )
    import numpy as np

    parts = machine.l2_partitions
    share = -(-len(rows) // parts)
    launch = np.arange(share * parts)
    logical = (launch % parts) * share + launch // parts
    logical = logical[logical < len(rows)]
    return l2, raster_traffic(rows[logical], cols[logical], concurrent=concurrent, l2_bytes=llc.capacity.bytes,
                              order_label=order.label, keep_waves=keep_waves, **grid)  # fmt: skip


def standard_orders(tiles_m: int) -> list[RasterOrder]:
    """The orders `roofmodel raster` compares: row, col, grouped and CUTLASS swizzles, super_M."""
    orders = [RasterOrder("row"), RasterOrder("col")]
    orders += [RasterOrder("grouped", g) for g in (4, 8, 16)]
    orders += [RasterOrder("swizzle", s) for s in (4, 8)]
    orders += [RasterOrder("superm", s) for s in (8, 12) if tiles_m % s == 0]
    return orders


class RasterDocument(Result):
    """``roofmodel raster --json``: the chosen order with its first waves, and every order compared."""

    schema_version: int = JSON_SCHEMA_VERSION
    machine: MachineInfo
    gemm: GemmInfo
    tile: tuple[int, int, int]
    cluster: tuple[int, int]
    occupancy: Occupancy
    chosen: RasterTraffic
    orders: list[RasterTraffic]


def raster_order_table(machine: Machine, result: Any, chosen: str) -> list[Any]:
    """DRAM traffic of an analysed kernel (an AnalysisResult) under each standard order (and each
    renumbered for private L2 slices, where the machine has them) and the chosen one, as analyze counts
    it (machine_traffic): DRAM reads through a last-level cache where there is one, and the L2's own
    sharing (requests over what the L2 reads from the level above)."""
    x, g = result.cross_sm, result.gemm
    cm, cn = x.cluster
    orders = standard_orders(x.raster.tiles_m)
    if machine.l2_partitions > 1:
        orders += [RasterOrder(o.kind, o.size, o.along, remap=True) for o in orders]
    picked = parse_order(chosen)
    if picked.label not in [o.label for o in orders]:
        orders.insert(0, picked)
    grid = dict(m=g.m, n=g.n, k=g.k, bm=result.tiles.cta[0] * cm, bn=result.tiles.cta[1] * cn,
                input_bytes=g.input_bytes, output_bytes=g.output_bytes)  # fmt: skip
    out = []
    for o in orders:
        if "l2" not in result.levels:  # seed 000's model without L2: every request is a DRAM read
            t = order_traffic(o, concurrent=x.raster.concurrent, l2_bytes=x.raster.l2_capacity_bytes, keep_waves=0,
                              **grid)  # type: ignore[arg-type]  # fmt: skip
            out.append(t)
            continue
        l2, dram = machine_traffic(machine, o, concurrent=x.raster.concurrent, keep_waves=0, **grid)
        out.append(l2 if dram is None else l2.model_copy(update={"dram_read_bytes": dram.dram_read_bytes,
                                                                 "a_dram_read_bytes": dram.a_dram_read_bytes}))  # fmt: skip
    return out
