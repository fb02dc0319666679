"""Search the configuration space (``roofmodel tune``) and the machine space (``roofmodel explore``).

The space: CTA tile BM x BN, BK, pipeline stages, warps, instruction family, the register-level
tile's layout over the warps, cluster shape and raster order, minus what does not fit registers,
threads or shared memory, and minus what occupancy cannot place. ``space="triton"`` keeps what the
Triton tutorial kernel expresses: the family and warp layout Triton's compiler picks
(roofmodel.model.kernel), GROUP_M orders, no clusters. ``persistent`` is not a search dimension (the
configurations are launched per tile; predict takes ``--persistent``).

Every configuration is evaluated by the prediction's own formula (prediction.kernel_seconds, the
per-CTA model) on numpy arrays, with what a CTA needs from roofmodel.model.footprint; the raster traffic
per (cluster tile, order, concurrent clusters) is computed once per key with
rasterization.order_traffic. The raster traffic is the one expensive piece (milliseconds per
key), so ``tune`` evaluates it lazily: every configuration first gets a lower bound with DRAM
reads at the compulsory bytes, every same-wave repeat at the same-address rate and every load at the
L2's latency, loaded or unloaded as the exact time has it (the requested bytes need no raster model), and configurations are then evaluated exactly in
order of their bound until the next bound exceeds the n-th best exact time. The ranking of the
top n is therefore exact, and ``evaluate`` gives every configuration its exact time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict

from roofmodel import units
from roofmodel.errors import ProblemError
from roofmodel.machine import Machine, Source, as_machine
from roofmodel.model.arrays import is_array, whole
from roofmodel.model.cta_model import TERMS
from roofmodel.model.footprint import REGISTER_GAMBLE, kernel_footprint, pointers_recomputed
from roofmodel.model.kernel import (
    FAMILIES,
    TCGEN05,
    TRITON_MIN_BLOCK,
    KernelConfig,
    register_tile_for,
    tcgen05_tile,
    tcgen05_warps,
    triton_family,
)
from roofmodel.model.multicast import check_cluster
from roofmodel.model.prediction import (
    LIMITERS,
    Prediction,
    Rates,
    config_as_compiled,
    family_k_steps,
    kernel_seconds,
    limiter_index,
    machine_rates,
    operand_staging,
    predict_kernel,
    triton_copies,
)
from roofmodel.model.problem import Gemm
from roofmodel.model.rasterization import MAX_TILES, machine_traffic, parse_order
from roofmodel.model.tiling import WGMMA_ROWS, default_bk
from roofmodel.results import JSON_SCHEMA_VERSION, CompiledCounts, Input

TILE_EDGES = (16, 32, 64, 128, 256)
WARPS = (1, 2, 4, 8, 16)
CLUSTERS = ((1, 1), (2, 1), (1, 2), (2, 2), (4, 1), (1, 4))
ORDERS_ALL = ("row", "col", "grouped:4", "grouped:8", "grouped:16", "swizzle:2", "swizzle:4", "swizzle:8")
ORDERS_TRITON = ("row", "grouped:4", "grouped:8", "grouped:16")
SPACES = ("all", "triton")


@dataclass(frozen=True)
class Space:
    """The values each dimension takes. ``triton``: Triton's own family and warp layout only."""

    name: str = "all"
    tiles: tuple[int, ...] = TILE_EDGES
    bks: tuple[int, ...] | None = None  # None: 1/4, 1/2, 1 and 2 x the 128-byte default
    # One stage (no prefetch) is left out: Little's law with one load in flight is optimistic for it.
    stages: tuple[int, ...] = (2, 3, 4, 5, 6)
    warps: tuple[int, ...] = WARPS
    clusters: tuple[tuple[int, int], ...] | None = None  # None: every cluster the machine runs
    orders: tuple[str, ...] | None = None  # None: the space's orders

    def bk_values(self, element_bytes: int) -> tuple[int, ...]:
        """BK values: ``bks``, else 1/4, 1/2, 1 and 2 x the 128-byte default (at least 8); in the Triton space, those of
        at least kernel.TRITON_MIN_BLOCK, as triton_config takes them: a 32-bit operand's 8 is left out there."""
        if self.bks is not None:
            return self.bks
        d = default_bk(element_bytes)
        values = sorted({max(8, d // 4), max(8, d // 2), d, 2 * d})
        return tuple(v for v in values if self.name != "triton" or v >= TRITON_MIN_BLOCK)

    def cluster_values(self, machine: Machine) -> tuple[tuple[int, int], ...]:
        if self.name == "triton" and self.clusters is not None and any(c != (1, 1) for c in self.clusters):
            raise ProblemError("the triton space takes no cluster: a Triton kernel's cp.async copies cannot multicast")
        if self.clusters is not None:
            chosen = self.clusters
        elif self.name == "triton":
            chosen = ((1, 1),)
        else:
            chosen = CLUSTERS
        out = []
        for c in chosen:
            try:
                check_cluster(machine, *c)
            except ProblemError:
                continue
            out.append(c)
        return tuple(out)

    def order_values(self) -> tuple[str, ...]:
        if self.orders is not None:
            return self.orders
        return ORDERS_TRITON if self.name == "triton" else ORDERS_ALL


def space_named(name: str) -> Space:
    if name not in SPACES:
        raise ProblemError(f"--space: unknown space {name!r} (spaces: {', '.join(SPACES)})")
    return Space(name=name)


def _layouts(
    family: str, bm: int, bn: int, warps: int, max_n: int | None, warp_size: int = 32
) -> list[tuple[int, int]]:
    """Every register-level tile that splits a BM x BN tile evenly over ``warps`` warps (tcgen05: its
    one instruction tile, with the warpgroups that read the accumulator)."""
    if family in TCGEN05:
        tile = tcgen05_tile(family, bm, bn, max_n or 256)
        return [tile] if tile and warps == tcgen05_warps(family, bm, bn, tile) else []
    if family == "fma":
        units_, lo_m, lo_n = warp_size * warps, 1, 1
    elif family == "mma.sync":
        units_, lo_m, lo_n = warps, 16, 8
    elif family == "mfma":
        units_, lo_m, lo_n = warps, 16, 16
    else:
        if warps % 4:
            return []
        units_, lo_m, lo_n = warps // 4, WGMMA_ROWS, 8
    out = []
    um = 1
    while um <= units_:
        un = units_ // um
        if um * un == units_ and bm % um == 0 and bn % un == 0:
            rm, rn = bm // um, bn // un
            ok = rm >= lo_m and rn >= lo_n and (family != "wgmma" or (rm % WGMMA_ROWS == 0 and rn % 8 == 0))
            if ok and (family != "wgmma" or max_n is None or rn <= max_n):
                out.append((rm, rn))
        um *= 2
    return out


@dataclass
class Configs:
    """Configurations as columns (numpy arrays of equal length), feasible ones only."""

    bm: Any
    bn: Any
    bk: Any
    warps: Any
    stages: Any
    family: Any  # index into FAMILIES
    rm: Any
    rn: Any
    cm: Any
    cn: Any
    order: Any  # index into ``orders``
    orders: tuple[str, ...]
    # derived (roofmodel.model.footprint)
    ctas_per_sm: Any = None
    registers: Any = None
    spilled: Any = None
    shared_bytes: Any = None
    gamble: Any = None  # footprint's register gamble: said beside the configuration
    waits: Any = None  # footprint's loop_waits: times a warp waits on its own local reloads an iteration
    pointer_spilled: Any = None  # footprint's: of the spills, a wgmma kernel's K-major element pointers'
    accumulator_excess: Any = None  # footprint's: an mma.sync kernel's loop charged as counted (loop_as_counted)
    stack_excess: Any = None  # footprint's: a kernel on the stack, its loop charged as counted (loop_as_counted)
    loop_spilled: Any = None  # footprint's: the registers its loop stores and reloads an iteration (None: spilled)
    a_major: str = "k"
    b_major: str = "n"
    compiler: str = "stated"

    def __len__(self) -> int:
        return int(self.bm.size)

    def gambles(self) -> Any:
        """footprint's register gamble per configuration, as booleans (all False where the columns carry none)."""
        return np.zeros(len(self), dtype=bool) if self.gamble is None else np.asarray(self.gamble, dtype=bool)

    def footprint(self) -> dict[str, Any]:
        """The footprint keys kernel_seconds and footprint.pointers_recomputed read, from the columns (the defaults where
        the columns carry none: no waits, no loop charged as counted, the loop's registers the spilled ones)."""
        return {"ctas_per_sm": self.ctas_per_sm, "spilled": self.spilled, "shared_bytes": self.shared_bytes,
                "pointer_spilled": 0 if self.pointer_spilled is None else self.pointer_spilled,
                "loop_waits": 0 if self.waits is None else self.waits,
                "accumulator_excess": 0 if self.accumulator_excess is None else self.accumulator_excess,
                "stack_excess": 0 if self.stack_excess is None else self.stack_excess,
                "loop_spilled": self.spilled if self.loop_spilled is None else self.loop_spilled}  # fmt: skip

    def pointers_recomputed(self) -> Configs:
        """The configurations as they would be had ptxas recomputed the element pointers the rule spills (a bet on
        registers won, as a register gamble's time already is): those spills (pointer_spilled) and the waits on them
        taken away. tune --compile-top compiles in the order of these times: a compile resolves the bet."""
        if self.pointer_spilled is None:
            return self
        won = pointers_recomputed(self.footprint())
        cols = {k: getattr(self, k) for k in _COLUMNS} | {"spilled": won["spilled"], "waits": won["loop_waits"],
                                                          "loop_spilled": won["loop_spilled"]}  # fmt: skip
        return Configs(**cols, orders=self.orders, a_major=self.a_major, b_major=self.b_major, compiler=self.compiler)

    def take(self, idx: Any) -> Configs:
        cols = {k: getattr(self, k)[idx] for k in _COLUMNS}
        return Configs(**cols, orders=self.orders, a_major=self.a_major, b_major=self.b_major, compiler=self.compiler)

    def config(self, i: int) -> KernelConfig:
        return KernelConfig(
            bm=int(self.bm[i]), bn=int(self.bn[i]), bk=int(self.bk[i]), warps=int(self.warps[i]),
            stages=int(self.stages[i]), instruction=FAMILIES[int(self.family[i])],  # type: ignore[arg-type]
            register_tile=(int(self.rm[i]), int(self.rn[i])), cluster=(int(self.cm[i]), int(self.cn[i])),
            raster=self.orders[int(self.order[i])], compiler=self.compiler, origin="roofmodel tune",  # type: ignore[arg-type]
        )  # fmt: skip


_COLUMNS = ("bm", "bn", "bk", "warps", "stages", "family", "rm", "rn", "cm", "cn", "order", "ctas_per_sm",
            "registers", "spilled", "shared_bytes", "gamble", "waits", "pointer_spilled", "accumulator_excess",
            "stack_excess", "loop_spilled")  # fmt: skip


def enumerate_space(
    machine: Machine,
    gemm: Gemm,
    space: Space,
    instruction: str | None = None,
    a_major: str = "k",
    b_major: str = "n",
) -> tuple[Configs, int]:
    """The feasible configurations of ``space`` for this problem, and how many were considered.

    Feasible by the one rule the scalar predictor applies (roofmodel.footprint.kernel_footprint):
    launchable threads and shared memory, at least one CTA per SM and one cluster on the chip, a
    grid of whole clusters. A configuration that needs more registers than a thread has is kept:
    it spills, and the model charges the spills.
    """
    pipe = machine.pipe(gemm.dtype)
    b = gemm.input_bytes
    families = [i for i in pipe.instructions if instruction is None or i.family == instruction]
    if not families:
        have = ", ".join(i.family for i in pipe.instructions)
        raise ProblemError(f"--instruction {instruction}: not available for {gemm.dtype} (have: {have})")
    # Per (family, BM, BN, warps, register tile), in plain Python: the few discrete shapes.
    shapes: list[tuple[int, int, int, int, int, int]] = []
    considered_shapes = 0
    for ins in families:
        fam = FAMILIES.index(ins.family)
        for bm in space.tiles:
            for bn in space.tiles:
                for w in space.warps:
                    if space.name == "triton":
                        try:
                            family = triton_family(machine, gemm.dtype, bm, bn, w)
                        except ProblemError:  # Triton's fallback is an instruction the file lacks
                            continue
                        if family != ins.family:
                            continue
                        reg = register_tile_for(ins.family, bm, bn, w, machine.warp_size)
                        layouts = [reg] if reg else []
                    else:
                        layouts = _layouts(ins.family, bm, bn, w, ins.max_n, machine.warp_size)
                    considered_shapes += max(1, len(layouts))
                    shapes.extend((fam, bm, bn, w, rm, rn) for rm, rn in layouts)
    bks = space.bk_values(b)
    stages = space.stages
    clusters = space.cluster_values(machine)
    orders = space.order_values()
    if machine.l2_partitions > 1 and space.orders is None:
        # private L2 slices: each order also renumbered so a slice runs a contiguous share (XCD remap)
        orders = (*orders, *(f"{o}+remap" for o in orders))
    for o in orders:
        parse_order(o)
    n_other = len(bks) * len(stages) * len(clusters) * len(orders)
    considered = considered_shapes * n_other
    if not shapes or not clusters:
        return _empty(orders), considered
    sh = np.array(shapes, dtype=np.int64)
    grid = np.stack(np.meshgrid(np.arange(len(shapes)), bks, stages, np.arange(len(clusters)), np.arange(len(orders)),
                                indexing="ij"), axis=-1).reshape(-1, 5)  # fmt: skip
    si, bk, st, ci, oi = (grid[:, j] for j in range(5))
    fam, bm, bn, w, rm, rn = (sh[si, j] for j in range(6))
    cl = np.array(clusters, dtype=np.int64)
    cm, cn = cl[ci, 0], cl[ci, 1]
    compiler = "triton" if space.name == "triton" else "stated"
    fp = kernel_footprint(machine, bm=bm, bn=bn, bk=bk, warps=w, stages=st, family=fam, element_bytes=b,
                          accumulator_registers=gemm.accumulator_registers,
                          **operand_staging(triton_copies(machine, compiler), fam, b, gemm.m, gemm.n, gemm.k, a_major == "m",
                                            b_major == "n", bm, bn),
                          compiler=compiler, rm=rm, rn=rn, native_8bit=gemm.dtype == "int8",
                          k_step=np.asarray(family_k_steps(machine, gemm.dtype))[fam])  # fmt: skip
    ok = fp["fits"] & ((machine.sm_count.n * fp["ctas_per_sm"]) // (cm * cn) >= 1)
    tiles_m, tiles_n = -(-gemm.m // bm), -(-gemm.n // bn)
    ok &= (tiles_m % cm == 0) & (tiles_n % cn == 0)  # a grid of whole clusters
    ok &= (fam != FAMILIES.index("tcgen05.2sm")) | (cm % 2 == 0)  # the pair is a cluster along M
    ok &= -(-tiles_m // cm) * -(-tiles_n // cn) <= MAX_TILES
    keep = np.nonzero(ok)[0]
    # CTAs per SM as integers (whole numbers that footprint's limits leave in floats): the model divides by them, and
    # numpy's floor division of floats costs eight times the integers'.
    c = Configs(
        bm=bm[keep], bn=bn[keep], bk=bk[keep], warps=w[keep], stages=st[keep], family=fam[keep], rm=rm[keep],
        rn=rn[keep], cm=cm[keep], cn=cn[keep], order=oi[keep], orders=orders, ctas_per_sm=whole(fp["ctas_per_sm"][keep]),
        registers=fp["registers"][keep], spilled=fp["spilled"][keep], shared_bytes=fp["shared_bytes"][keep],
        gamble=np.broadcast_to(fp["gamble"], ok.shape)[keep], waits=np.broadcast_to(fp["loop_waits"], ok.shape)[keep],
        pointer_spilled=np.broadcast_to(fp["pointer_spilled"], ok.shape)[keep],
        accumulator_excess=np.broadcast_to(fp["accumulator_excess"], ok.shape)[keep],
        stack_excess=np.broadcast_to(fp["stack_excess"], ok.shape)[keep],
        loop_spilled=np.broadcast_to(fp["loop_spilled"], ok.shape)[keep], a_major=a_major, b_major=b_major,
        compiler=compiler,
    )  # fmt: skip
    return c, considered


def _empty(orders: tuple[str, ...]) -> Configs:
    z = np.zeros(0, dtype=np.int64)
    return Configs(*(z,) * 11, orders=orders, ctas_per_sm=z, registers=z, spilled=z, shared_bytes=z,  # type: ignore[arg-type]
                   gamble=np.zeros(0, dtype=bool), waits=z, pointer_spilled=z,
                   accumulator_excess=z, stack_excess=z, loop_spilled=z)  # fmt: skip


class Traffic(NamedTuple):
    """The raster model's bytes for a configuration (rasterization.machine_traffic), numbers or numpy arrays: what the
    CTAs request of the L2, the waves' distinct panels, what DRAM serves, what the L2 reads from a last-level cache
    (NaN without one), and A's part of the requested bytes and of the L2's misses (RasterTraffic.a_*)."""

    requested: Any
    distinct: Any
    dram_read: Any
    llc_read: Any
    a_requested: Any
    a_dram_read: Any


class TrafficTable:
    """The raster model's traffic per (cluster tile, order, concurrent clusters), computed once each."""

    def __init__(self, machine: Machine, gemm: Gemm) -> None:
        self.machine, self.gemm = machine, gemm
        self.cache: dict[tuple[int, int, str, int], Traffic] = {}

    def get(self, bm: int, bn: int, order: str, concurrent: int) -> Traffic:
        """The Traffic of one cluster tile, order and concurrency, computed once."""
        key = (bm, bn, order, concurrent)
        hit = self.cache.get(key)
        if hit is None:
            g = self.gemm
            t, llc = machine_traffic(self.machine, parse_order(order), concurrent=concurrent, m=g.m, n=g.n, k=g.k,
                                     bm=bm, bn=bn, input_bytes=g.input_bytes, output_bytes=g.output_bytes,
                                     keep_waves=0)  # fmt: skip
            dram = (llc or t).dram_read_bytes
            hit = self.cache[key] = Traffic(t.requested_bytes, t.wave_distinct_bytes, dram,
                                            t.dram_read_bytes if llc is not None else math.nan, t.a_requested_bytes,
                                            t.a_dram_read_bytes)  # fmt: skip
        return hit

    def lookup(self, c: Configs) -> Traffic:
        """Every configuration's Traffic, the raster model run once per distinct key."""
        sms = self.machine.sm_count.n
        conc = (sms * c.ctas_per_sm) // (c.cm * c.cn)
        (a, b, o, q), inverse = distinct_rows(c.cm * c.bm, c.cn * c.bn, c.order, conc)
        per_key = np.array(
            [self.get(int(x), int(y), c.orders[int(z)], int(w)) for x, y, z, w in zip(a, b, o, q, strict=True)],
            dtype=np.float64,
        ).reshape(-1, len(Traffic._fields))
        # Each field gathered as its own contiguous column (a row of the transposed table): strided columns slowed
        # every later pass over them.
        return Traffic(*np.ascontiguousarray(per_key.T)[:, inverse])


def distinct_rows(*columns: Any) -> tuple[list[Any], Any]:
    """The distinct rows of equal-length arrays of non-negative integers, in lexicographic order, and each row's
    index among them: what np.unique of the rows gives (keys, inverse), from tables of the values present, in time
    linear in the rows (np.unique sorts them: 21 ms against 4 for the 238,128 configurations of an H100's whole
    space). Each column's values are ranked and the ranks combined in mixed radix; a code space grown past
    max(4 x rows, 2^20) is renumbered through np.unique first, which keeps the order."""
    n = columns[0].size
    code, size = np.zeros(n, dtype=np.int64), 1
    for col in columns:
        rank, count = _ranks(col)
        code, size = code * count + rank, size * count
        if size > max(4 * n, 1 << 20):
            _, code = np.unique(code, return_inverse=True)
            code, size = code.reshape(-1), int(code.max()) + 1
    inverse, keys = _ranks(code)
    row = np.empty(keys, dtype=np.int64)
    row[inverse] = np.arange(n)  # any row of a key will do: its rows agree in every column
    return [col[row] for col in columns], inverse


def _ranks(values: Any) -> tuple[Any, int]:
    """Each value's rank among the distinct values of a non-negative integer array, and how many there are."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int64), 0
    if values.dtype.kind not in "iu" or values.min() < 0:
        raise ValueError("distinct_rows: the columns must be non-negative integers")
    present = np.zeros(int(values.max()) + 1, dtype=bool)
    present[values] = True
    rank = np.cumsum(present) - 1
    return rank[values], int(rank[-1]) + 1


def requested_bytes(gemm: Gemm, c: Configs) -> Any:
    """What the CTAs request of L2, closed form (no raster model): each cluster tile row reads its A
    panel once per tile column and each column its B panel once per row:
    M*K*b*ceil(N/(cn*BN)) + K*N*b*ceil(M/(cm*BM))."""
    g = gemm
    return (
        g.m * g.k * g.input_bytes * -(-g.n // (c.cn * c.bn)) + g.k * g.n * g.input_bytes * -(-g.m // (c.cm * c.bm))
    ).astype(np.float64)


# Configurations evaluated at once. The formula is some 300 elementwise numpy passes; over blocks of 65,536 (512 KiB
# per float64 column) its temporaries stay in the caches and the allocator reuses them, where a column of the whole
# space (1.9 MB at 238,128) costs fresh pages at every pass: 3.2 million configurations/s against 1.6 million on this
# project's 2-core machine (2026-11-29; 32,768 and 16,384 gave 3.1 million, 4,096 2.5 million, per-call costs).
BLOCK = 65_536


def term_seconds(machine: Machine, gemm: Gemm, rates: Rates, c: Configs, traffic: Traffic | None) -> dict[str, Any]:
    """Every term of the per-CTA model (prediction.kernel_seconds) for every configuration: exact
    with ``traffic`` (TrafficTable.lookup's) from the raster model, a lower bound
    without it (DRAM reads at the compulsory bytes, every repeat at the same-address rate, the
    latency, loaded or unloaded, at the L2's for every load: each can only raise the time).
    Evaluated in blocks of BLOCK configurations; the formula is elementwise, so the result is the whole space's
    bit for bit."""
    n = len(c)
    if n <= BLOCK:
        return _block_term_seconds(machine, gemm, rates, c, traffic)
    blocks = []
    for start in range(0, n, BLOCK):
        part = slice(start, min(n, start + BLOCK))
        part_traffic = None if traffic is None else Traffic(*(t[part] if is_array(t) else t for t in traffic))
        blocks.append((part, _block_term_seconds(machine, gemm, rates, c.take(part), part_traffic)))
    return {name: _joined([(part, terms[name]) for part, terms in blocks], n) for name in blocks[0][1]}


def _joined(parts: list[tuple[slice, Any]], n: int) -> Any:
    """One term over the whole space from its blocks' values: a number where every block gave the same number (a
    term no configuration changes, as kernel_seconds returns it), else an array of n."""
    values = [v for _, v in parts]
    if not is_array(*values) and all(v == values[0] for v in values):
        return values[0]
    out = np.empty(n, dtype=np.result_type(*values))
    for part, v in parts:
        out[part] = v
    return out


def _block_term_seconds(
    machine: Machine, gemm: Gemm, rates: Rates, c: Configs, traffic: Traffic | None
) -> dict[str, Any]:
    """term_seconds of one block of configurations."""
    b = gemm.input_bytes
    if traffic is None:
        requested = requested_bytes(gemm, c)
        dram_read = np.full(len(c), float(gemm.m * gemm.k + gemm.k * gemm.n) * b)
        # All hits: the mean latency is the L2's (the lesser: more hits never slow a load).
        distinct, dram_read_for_latency = dram_read, np.zeros(len(c))
        llc_read = dram_read if machine.memory.llc is not None else None  # the L2 reads at least the compulsory
        a_requested, a_dram_read_for_latency = None, None  # every load a hit already
    else:
        requested, distinct, dram_read, llc_read, a_requested, a_dram_read_for_latency = traffic  # Traffic's order
        dram_read_for_latency = dram_read
        if machine.memory.llc is not None:
            dram_read_for_latency = llc_read
        else:
            llc_read = None
    fp = c.footprint()
    terms = kernel_seconds(
        machine, rates, m=gemm.m, n=gemm.n, k=gemm.k, element_bytes=b, output_bytes=gemm.output_bytes, bm=c.bm,
        bn=c.bn, bk=c.bk, warps=c.warps, stages=c.stages, family=c.family, rm=c.rm, rn=c.rn,
        a_m_major=c.a_major == "m", b_n_major=c.b_major == "n", footprint=fp, requested=requested,
        distinct=distinct, dram_read=dram_read, latency_dram_read=dram_read_for_latency, llc_read=llc_read,
        compiler=c.compiler, a_requested=a_requested, a_latency_dram_read=a_dram_read_for_latency,
    )  # fmt: skip
    return terms


def _stack(terms: dict[str, Any], n: int) -> Any:
    """(n, len(TERMS)) seconds of each named term."""
    return np.stack([np.broadcast_to(np.asarray(terms[t], dtype=float), (n,)) for t in TERMS], axis=1)


@dataclass
class Evaluated:
    configs: Configs
    terms: Any  # (n, len(TERMS)) seconds, each as if it were alone
    seconds: Any  # the per-CTA model's total
    limiter: Any  # index into prediction.LIMITERS
    exact: Any  # bool per configuration: raster traffic evaluated

    def ranked(self, gamble_last: bool = True) -> Any:
        """Indices of exact configurations by predicted time, register gambles (footprint's) after every configuration
        that is not one (``gamble_last``: the ranking by the rule alone; tune --compile-top compiles by time, which
        resolves a gamble); ties broken by the next-slowest terms in turn (the configuration with more slack first),
        then the simpler configuration: the smaller cluster, then the order listed first in the space (row before
        the others)."""
        idx = np.nonzero(self.exact)[0]
        srt = -np.sort(-self.terms[idx], axis=1)
        c = self.configs
        keys = (c.order[idx], c.cm[idx] * c.cn[idx], *(srt[:, j] for j in reversed(range(srt.shape[1]))),
                self.seconds[idx], c.gambles()[idx] & gamble_last)  # fmt: skip
        return idx[np.lexsort(keys)]


def evaluate(
    machine: Machine,
    gemm: Gemm,
    space: Space | None = None,
    *,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    instruction: str | None = None,
    a_major: str = "k",
    b_major: str = "n",
) -> Evaluated:
    """Every feasible configuration's exact predicted time (the raster model on every key)."""
    rates = machine_rates(
        machine, gemm.dtype, compute=compute, bandwidth=bandwidth, clock=clock, accumulator=gemm.accumulator
    )
    c, _ = enumerate_space(machine, gemm, space or Space(), instruction, a_major, b_major)
    table = TrafficTable(machine, gemm)
    terms = term_seconds(machine, gemm, rates, c, table.lookup(c))
    return Evaluated(c, _stack(terms, len(c)), np.asarray(terms["total"], dtype=float), limiter_index(terms),
                     np.ones(len(c), dtype=bool))  # fmt: skip


@dataclass
class TuneResult:
    evaluated: Evaluated
    considered: int
    feasible: int
    exact_count: int
    traffic_keys: int
    rates: Rates
    top: list[int]


def tune(
    machine: Machine | str,
    gemm: Gemm,
    space: Space | None = None,
    *,
    top: int = 10,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    instruction: str | None = None,
    max_batch: int = 8192,
    a_major: str = "k",
    b_major: str = "n",
    gamble_last: bool = True,
    pointers_recomputed: bool = False,
) -> TuneResult:
    """The ``top`` configurations by exact predicted time (register gambles after every configuration that is not
    one: Evaluated.ranked's ``gamble_last``), found by bound-ordered evaluation; with ``pointers_recomputed``, by the
    time each would take had ptxas recomputed the element pointers the rule spills (Configs.pointers_recomputed:
    tune --compile-top's order)."""
    machine = as_machine(machine)
    if top < 1:
        raise ProblemError(f"--top: must be >= 1 (got {top})")
    rates = machine_rates(
        machine, gemm.dtype, compute=compute, bandwidth=bandwidth, clock=clock, accumulator=gemm.accumulator
    )
    c, considered = enumerate_space(machine, gemm, space or Space(), instruction, a_major, b_major)
    if pointers_recomputed:
        c = c.pointers_recomputed()
    n = len(c)
    if n == 0:
        raise ProblemError("no configuration of this space fits the machine for this problem")
    bound_terms = term_seconds(machine, gemm, rates, c, None)
    terms = _stack(bound_terms, n)
    lower = np.asarray(bound_terms["total"], dtype=float)
    seconds = lower.copy()
    limiter = np.asarray(limiter_index(bound_terms))
    order = np.argsort(lower, kind="stable")
    exact = np.zeros(n, dtype=bool)
    table = TrafficTable(machine, gemm)
    best: Any = np.array([])
    # Where gambles rank last, only a configuration that is not one can push another out of the top n.
    counted = ~(c.gambles() & gamble_last)
    start, size = 0, max(64, 4 * top)
    while start < n:
        idx = order[start : start + size]
        if best.size >= top:
            # Past the n-th best exact time no bound can enter the top n (ties are evaluated too).
            idx = idx[lower[idx] <= best[top - 1]]
            if idx.size == 0:
                break
        sub = c.take(idx)
        t = term_seconds(machine, gemm, rates, sub, table.lookup(sub))
        terms[idx] = _stack(t, idx.size)
        seconds[idx] = t["total"]
        limiter[idx] = limiter_index(t)
        exact[idx] = True
        best = np.sort(seconds[exact & counted])[:top]
        start += size
        size = min(2 * size, max_batch)
    ev = Evaluated(c, terms, seconds, limiter, exact)
    ranked = ev.ranked(gamble_last)
    return TuneResult(ev, considered, n, int(exact.sum()), len(table.cache), rates, [int(i) for i in ranked[:top]])


# ---------------------------------------------------------------------------------------------
# Reports


class Ranked(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: int
    config: KernelConfig
    seconds: float
    tflops: float
    limiter: str
    terms: dict[str, float]
    registers_per_thread: int  # the register rule's (roofmodel.model.footprint)
    spilled_registers: int
    register_gamble: bool = False  # footprint's: past the register limit only by element pointers
    note: str  # why it ranks where it does, against the first
    # tune --compile-top N: its place among the N by the register rule, and what the compile gave it (the
    # registers, spills and time above are then the compiled ones)
    rule_rank: int | None = None
    compiled: CompiledCounts | None = None


class TuneReport(BaseModel):
    """``roofmodel tune --json`` (JSON Schema: docs/schema/tune.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    machine: str
    gemm: str
    space: str
    considered: int
    feasible: int
    evaluated_exactly: int
    raster_keys: int
    clock_mhz: float
    clock_origin: str
    a_major: str
    b_major: str
    inputs: list[Input]
    top: list[Ranked]
    winner: Prediction  # the scalar predictor on the first configuration: every term with its detail
    why: str
    caveats: list[str] = []  # what the machine file lacks that the ranking would weigh (search_caveats)
    # tune --compile-top N: how many distinct compiles were made, in the compile order (0: none; else ``top`` is
    # what they and the raster copies that share their counts rank as by their compiled counts; at least
    # ``compile_top``, then on while the next could beat the best compiled, up to COMPILE_BEYOND x it:
    # _compiled_ranking), and the one-line reason for each Triton refused
    compiled: int = 0
    compile_top: int = 0
    compile_refused: list[str] = []


def search_caveats(machine: Machine) -> list[str]:
    """What a machine file lacks that a ranking would otherwise weigh: said beside the ranking."""
    out = []
    if machine.memory.l2.bandwidth is None and machine.memory.l2.gemm_bandwidth is None:
        out.append("no L2 bandwidth in the machine file (unpublished): the L2 term is left out, so small tiles, "
                   "which request the most of L2, rank higher than they would; give memory.l2.bandwidth in a "
                   "file of your own to weigh them")  # fmt: skip
    mem = machine.memory
    if machine.kernel_costs is None and mem.l2.latency is None and mem.dram.latency is None:
        out.append("no latencies and no kernel costs in the machine file: stages, BK and the per-iteration "
                   "work cost nothing here, so configurations that differ only in them tie")  # fmt: skip
    if machine.kernel_costs is None or machine.kernel_costs.spill_bandwidth is None:
        out.append("no spill bandwidth in the machine file (kernel_costs.spill_bandwidth): spills are charged at "
                   "the shared-memory bandwidth, several times what the H100 measures, so configurations that "
                   "spill rank higher than they would")  # fmt: skip
    return out


def _loses_on(first: int, other: int, ev: Evaluated) -> str:
    """Why configuration ``other`` ranks below ``first``: its time and what limits it, or that it is a register gamble
    (Evaluated.ranked) where it is faster by the rule."""
    t0, t1 = float(ev.seconds[first]), float(ev.seconds[other])
    lim = LIMITERS[int(ev.limiter[other])]
    j = TERMS.index(lim)
    spill = int(ev.configs.spilled[other])
    spills = f"; it spills {spill} registers per thread" if spill else ""
    gamble = bool(ev.configs.gamble[other])
    spills += "; a register gamble" if gamble else ""
    if gamble and not bool(ev.configs.gamble[first]) and t1 <= t0:
        return (f"{100 * (1 - t1 / t0):.1f}% faster by the rule (limited by {lim}), but a register gamble, ranked after "
                f"every configuration that is not one{spills.removesuffix('; a register gamble')}")  # fmt: skip
    if t1 > t0 * (1 + 1e-12):
        if ev.terms[other, j] == ev.terms[first, j]:
            # The same limiting term as the first: the time differs by a term that adds (an mma.sync kernel's
            # memory time, through its overlap norm) or the launch; name the one that grew most.
            k = int(np.argmax(ev.terms[other] - ev.terms[first]))
            return (f"{100 * (t1 / t0 - 1):.1f}% slower: limited by {lim} as the first is, and its {TERMS[k]} "
                    f"{ev.terms[other, k] * 1e3:.4f} ms (the first's {ev.terms[first, k] * 1e3:.4f} ms){spills}")  # fmt: skip
        return (f"{100 * (t1 / t0 - 1):.1f}% slower: limited by {lim}, {ev.terms[other, j] * 1e3:.4f} ms "
                f"(the first's {ev.terms[first, j] * 1e3:.4f} ms){spills}")  # fmt: skip
    a, b = -np.sort(-ev.terms[first]), -np.sort(-ev.terms[other])
    for i in range(len(a)):
        if b[i] != a[i]:
            name = TERMS[int(np.nonzero(ev.terms[other] == b[i])[0][0])]
            return f"ties the first; its {name} ({b[i] * 1e3:.4f} ms) leaves less slack{spills}"
    return f"identical time and terms: no term depends on what differs; listed after by the tie-break{spills}"


# How many configurations tune --compile-top hands the compiler at once (it compiles them in parallel).
COMPILE_BATCH = 8
# tune --compile-top N compiles tune's own first, then the first N by the register rule with every bet on registers
# won (register gambles among the rest, spilled element pointers recomputed), then goes on in that order while the
# next could still win, up to this many times N distinct compiles in all (the first N of a large space are often one
# tile at several stage counts; its raster copies share one compile: compile_key).
COMPILE_BEYOND = 8
Compiler = Callable[[list[KernelConfig]], list["CompiledCounts | str"]]


def compiling_goes_on(position: int, least: int, best_compiled_s: float | None, rule_s: float) -> bool:
    """Whether tune --compile-top N compiles the configuration at ``position`` (0-based, in the compile order: tune's
    own first, then the register rule's with every bet on registers won): always among the first ``least`` (N), then
    only while its time by the rule (``rule_s``, the bet won) is faster than the best compiled so far
    (``best_compiled_s``, None before any): where the rule errs it is mostly optimistic (spills and collapses it did
    not count), so what follows would seldom win. (COMPILE_BEYOND x N caps the order.)"""
    return position < least or best_compiled_s is None or rule_s < best_compiled_s


def tune_report(
    machine: Machine | str,
    gemm: Gemm,
    space: Space,
    *,
    top: int = 10,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    instruction: str | None = None,
    a_major: str = "k",
    b_major: str = "n",
    compile_top: int = 0,
    compiler: Compiler | None = None,
) -> TuneReport:
    """``tune`` as a report: each of the ``top`` configurations with its time, limiter and terms.

    With ``compile_top`` N and a ``compiler`` (configurations -> compiled counts, or a one-line refusal:
    roofmodel.backends.triton_compile.compile_configs), the first N by the register rule are compiled, then the
    next ones while they could still win (up to COMPILE_BEYOND x N: _compiled_ranking), and ranked by
    predict_kernel with what the compile gave each; ``top`` lists the first of those."""
    machine = as_machine(machine)
    if compile_top and compiler is None:
        raise ProblemError("--compile-top: no compiler given")
    # Compiling resolves a bet on registers: --compile-top compiles in the order by the time each configuration would
    # take were the bet won, register gambles among the rest and the element pointers the rule spills recomputed.
    # Room for COMPILE_BEYOND x N distinct compiles: each tile may come in every raster order (compile_key).
    beyond = COMPILE_BEYOND * compile_top * len(space.order_values())
    r = tune(machine, gemm, space, top=max(top, beyond), compute=compute, bandwidth=bandwidth, clock=clock,
             instruction=instruction, a_major=a_major, b_major=b_major, gamble_last=not compile_top,
             pointers_recomputed=bool(compile_top))  # fmt: skip
    ev = r.evaluated
    ranked: list[Ranked] = []
    refused: list[str] = []
    taken = 0
    predicted = dict(compute=compute, bandwidth=bandwidth, clock=clock, a_major=a_major, b_major=b_major)
    if compile_top:
        assert compiler is not None
        # tune's own first (the rule's time, gambles last) is compiled first: the compiles cannot pick worse than it by
        # what ptxas gives, whatever the times with the bets won put ahead of it.
        own = tune(machine, gemm, space, top=1, compute=compute, bandwidth=bandwidth, clock=clock,
                   instruction=instruction, a_major=a_major, b_major=b_major).top[0]  # fmt: skip
        order = [own, *(i for i in r.top if i != own)][: len(r.top)]
        ranked, refused, taken = _compiled_ranking(machine, gemm, ev, order, compile_top, compiler, predicted, top)
        if not ranked:
            raise ProblemError(f"--compile-top: Triton refused all {len(refused)}: {refused[0]}")
        winner = predict_kernel(machine, gemm, ranked[0].config, compiled=ranked[0].compiled, **predicted)  # type: ignore[arg-type]
    else:
        for rank, i in enumerate(r.top[:top], start=1):
            ranked.append(_ranked_by_rule(rank, i, ev, gemm, r.top[0]))
        winner = predict_kernel(machine, gemm, ranked[0].config, **predicted)  # type: ignore[arg-type]
    lim = next(t for t in winner.terms if t.name == winner.limiter)
    why = f"the first is limited by {winner.limiter} ({lim.detail})"
    if winner.spilled_registers:
        spills = next(t for t in winner.terms if t.name == "spills")
        why += (f"; it spills {winner.spilled_registers} registers per thread, charged "
                f"{spills.seconds * 1e3:.4f} ms, and still ranks first")  # fmt: skip
    if winner.register_gamble:
        why += f"; it is a register gamble: {REGISTER_GAMBLE}"
    elif any(x.register_gamble for x in ranked):
        why += f"; those marked a register gamble are {REGISTER_GAMBLE}"
    others = [t for t in winner.terms if t.name not in (winner.limiter, "launch")]
    if others:
        why += f"; the next term, {others[0].name}, alone takes {100 * others[0].seconds / winner.seconds:.0f}% of its time"
    return TuneReport(
        machine=machine.name,
        gemm=f"{gemm.m}x{gemm.n}x{gemm.k} {gemm.dtype}",
        space=space.name,
        considered=r.considered,
        feasible=r.feasible,
        evaluated_exactly=r.exact_count,
        raster_keys=r.traffic_keys,
        clock_mhz=r.rates.clock_hz / 1e6,
        clock_origin=r.rates.clock_origin,
        a_major=a_major,
        b_major=b_major,
        inputs=list(r.rates.inputs),
        top=ranked,
        winner=winner,
        why=why,
        caveats=search_caveats(machine),
        compiled=taken,
        compile_top=compile_top,
        compile_refused=refused,
    )


def _ranked_by_rule(rank: int, i: int, ev: Evaluated, gemm: Gemm, first: int) -> Ranked:
    t = ev.terms[i]
    return Ranked(
        rank=rank, config=ev.configs.config(i), seconds=float(ev.seconds[i]),
        tflops=gemm.flops / float(ev.seconds[i]) / 1e12, limiter=LIMITERS[int(ev.limiter[i])],
        terms={name: float(t[j]) for j, name in enumerate(TERMS)}, registers_per_thread=int(ev.configs.registers[i]),
        spilled_registers=int(ev.configs.spilled[i]), register_gamble=bool(ev.configs.gamble[i]),
        note="first" if rank == 1 else _loses_on(first, i, ev),
    )  # fmt: skip


def compile_key(config: KernelConfig) -> KernelConfig:
    """The configuration a compile of ``config`` stands for: the same but for its raster order. Triton's GROUP_M only
    remaps program ids, so one tile's compiles in two orders come out alike (of the read sweeps' 253 kernels timed
    beside a copy with the other GROUP_M, 251 compiled to the same registers and spills, the other two within 6
    registers and 8 spilled): tune --compile-top compiles one and gives its counts to the others."""
    return config.model_copy(update={"raster": "row"})


def _compiled_ranking(machine: Machine, gemm: Gemm, ev: Evaluated, order: list[int], least: int, compiler: Compiler,
                      predicted: dict[str, Any], top: int) -> tuple[list[Ranked], list[str], int]:  # fmt: skip
    """The configurations ``order`` names (in the compile order), compiled in that order and ranked by predict_kernel
    with their compiled counts (ties keep the order), while compiling_goes_on, which counts distinct compiles: a
    configuration whose compile_key was compiled takes that compile's counts without another (a raster copy), and so
    does one after the stopping point. At most COMPILE_BEYOND x ``least`` compiles. Returns (ranked, the refusals, how
    many were compiled). The compiler gets COMPILE_BATCH distinct compiles at a time (to run them in parallel); what
    it compiled past the stopping point is not used, so the result does not depend on it."""
    done: list[tuple[float, int, int, KernelConfig, CompiledCounts, Prediction, str | None]] = []
    refused: list[str] = []
    configs = [ev.configs.config(i) for i in order]
    keys = [compile_key(c) for c in configs]
    first_of: dict[KernelConfig, KernelConfig] = {}  # the configuration compiled for a key: its first in the order
    for key, cfg in zip(keys, configs, strict=True):
        first_of.setdefault(key, cfg)
    counts_of: dict[KernelConfig, CompiledCounts | str] = {}  # compiled and taken
    batch: dict[KernelConfig, CompiledCounts | str] = {}  # compiled ahead, in COMPILE_BATCH
    best: float | None = None
    stopped = False
    for position, (i, cfg, key) in enumerate(zip(order, configs, keys, strict=True)):
        if key not in counts_of:
            if (
                stopped
                or len(counts_of) >= COMPILE_BEYOND * least
                or not compiling_goes_on(len(counts_of), least, best, float(ev.seconds[i]))
            ):
                stopped = True
                continue
            if key not in batch:
                ahead = list(dict.fromkeys(k for k in keys[position:] if k not in counts_of))[:COMPILE_BATCH]
                batch = dict(zip(ahead, compiler([first_of[k] for k in ahead]), strict=True))
            counts_of[key] = batch[key]
            if isinstance(counts_of[key], str):
                refused.append(counts_of[key])  # type: ignore[arg-type]
        counts = counts_of[key]
        if isinstance(counts, str):
            continue
        copy_of = None if first_of[key] == cfg else first_of[key].raster
        try:
            p = predict_kernel(machine, gemm, cfg, compiled=counts, **predicted)
        except ProblemError as exc:  # what it compiled to does not fit (Triton's epilogue scratch, say)
            refused.append(f"{cfg.label()} as compiled: {exc}")
            if copy_of is None:
                counts_of[key] = refused[-1]  # its raster copies do not fit either: one refusal
            continue
        done.append((p.seconds, position + 1, i, config_as_compiled(machine, cfg, counts), counts, p, copy_of))
        best = p.seconds if best is None else min(best, p.seconds)
    return _ranked_compiled(done, ev, top), refused, len(counts_of)


def _ranked_compiled(done: list[Any], ev: Evaluated, top: int) -> list[Ranked]:
    done.sort(key=lambda x: (x[0], x[1]))
    ranked = []
    for rank, (seconds, rule_rank, i, cfg, counts, p, copy_of) in enumerate(done[:top], start=1):
        recomputed = 0 if ev.configs.pointer_spilled is None else int(ev.configs.pointer_spilled[i])
        vs_rule = (f"compiled {rule_rank} in order; by the rule {int(ev.configs.registers[i])} registers and "
                   f"{int(ev.configs.spilled[i]) + recomputed} spilled, {float(ev.seconds[i]) * 1e3:.4f} ms"
                   + (f" with the {recomputed} of them its element pointers' recomputed" if recomputed else "")
                   + (f"; the counts of the same tile's compile in {copy_of} order, which compiles alike: compile_key"
                      if copy_of else ""))  # fmt: skip
        against = "first" if rank == 1 else f"{100 * (seconds / done[0][0] - 1):.1f}% slower: limited by {p.limiter}"
        ranked.append(Ranked(
            rank=rank, config=cfg, seconds=seconds, tflops=p.tflops, limiter=p.limiter,
            terms={t.name: t.seconds for t in p.terms}, registers_per_thread=counts.registers,
            spilled_registers=counts.spilled, note=f"{against}; compiled {counts.registers} registers and "
            f"{counts.spilled} spilled ({vs_rule})", rule_rank=rule_rank, compiled=counts,
        ))  # fmt: skip
    return ranked


# ---------------------------------------------------------------------------------------------
# Explore: fix the dataflow, search the hardware (seed 000 §6)

# name -> (path in the machine data, unit, rated: {spec, measured} pair or a single quantity)
PARAMETERS: dict[str, tuple[tuple[str, ...], str, bool]] = {
    "dram_bandwidth": (("memory", "dram", "bandwidth"), "GB/s", True),
    "l2_bandwidth": (("memory", "l2", "bandwidth"), "GB/s", True),
    "l2_same_address_bandwidth": (("memory", "l2", "shared_read_bandwidth"), "GB/s", True),
    "l2_gemm_bandwidth": (("memory", "l2", "gemm_bandwidth"), "GB/s", True),
    "l2_capacity": (("memory", "l2", "capacity"), "MiB", False),
    "smem_bandwidth": (("memory", "smem", "bandwidth"), "B/cycle/SM", True),
    "smem_capacity": (("memory", "smem", "capacity_per_sm"), "KiB", False),
    "peak": (("compute", "{dtype}", "rate"), "FMA/cycle/SM", True),
    "sm_count": (("sm_count",), "SMs", False),
    "registers_per_sm": (("limits", "registers_per_sm"), "registers", False),
    "l2_latency": (("memory", "l2", "latency"), "cycles", False),
    "dram_latency": (("memory", "dram", "latency"), "cycles", False),
}


def parse_vary(text: str) -> tuple[str, float, float]:
    """'smem_bandwidth=64:512' -> ('smem_bandwidth', 64.0, 512.0)."""
    name, _, rng = text.partition("=")
    name = name.strip()
    if name not in PARAMETERS:
        raise ProblemError(f"--vary: unknown parameter {name!r} (parameters: {', '.join(PARAMETERS)})")
    lo_s, _, hi_s = rng.partition(":")
    try:
        lo, hi = float(lo_s), float(hi_s)
    except ValueError:
        raise ProblemError(f"--vary {text!r}: expected NAME=LOW:HIGH, e.g. smem_bandwidth=64:512") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and 0 < lo <= hi):
        raise ProblemError(f"--vary {text!r}: need 0 < LOW <= HIGH")
    return name, lo, hi


def vary_machine(machine: Machine, dtype: str, name: str, value: float) -> Machine:
    """The machine with one parameter set to ``value`` (in PARAMETERS' unit), as a datasheet figure."""
    path, unit, rated = PARAMETERS[name]
    data = machine.model_dump(mode="json", exclude_none=True, exclude={"source_file"})
    l2 = machine.memory.l2
    if name == "l2_same_address_bandwidth" and l2.gemm_bandwidth is not None:
        raise ProblemError("--vary l2_same_address_bandwidth: this machine's time model charges every L2 request at "
                           "memory.l2.gemm_bandwidth (the same-address figure moves only the bounds): vary "
                           "l2_gemm_bandwidth or l2_bandwidth")  # fmt: skip
    if name == "l2_bandwidth" and l2.gemm_bandwidth is not None and l2.bandwidth is not None:
        # The rate GEMMs reach (what the time model charges) moves with the L2's bandwidth, in proportion.
        base = l2.bandwidth.pick("measured")
        gemm = l2.gemm_bandwidth.pick("measured")
        sms = machine.sm_count.n

        def per_sm(v: float, unit: str) -> float:  # at one reference clock: only the ratio is used
            return units.bandwidth_bytes_per_cycle_per_sm(v, unit, sms, 1e9)

        scaled = gemm.value * per_sm(value, "GB/s") / per_sm(base.value, base.unit)
        data["memory"]["l2"]["gemm_bandwidth"] = {"spec": {
            "value": scaled, "unit": gemm.unit, "kind": "spec",
            "source": f"roofmodel explore: l2_bandwidth set to {value:g} GB/s, this figure in proportion"}}  # fmt: skip
    q = {"value": value, "unit": unit, "kind": "spec", "source": f"roofmodel explore: {name} set to {value:g} {unit}"}
    node = data
    keys = [k.format(dtype=dtype) for k in path]
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = {"spec": q} if rated else q
    if name == "sm_count" and value != int(value):
        raise ProblemError(f"--vary sm_count: whole numbers only (got {value:g})")
    if name == "smem_capacity":
        # Keep what the system reserves: the per-block maximum stays this far below the SM's capacity.
        smem = machine.memory.smem
        reserve = smem.capacity_per_sm.bytes - smem.max_per_block.bytes
        node["max_per_block"] = {**q, "value": max(1.0, value - reserve / 1024)}
        if "l1_smem_combined" in node and node["l1_smem_combined"]["value"] < value:
            node.pop("l1_smem_combined")
    try:
        return Machine.model_validate(data)
    except ValueError as exc:
        raise ProblemError(f"--vary {name}={value:g}: the machine is not valid: {str(exc).splitlines()[-1]}") from None


class ExplorePoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    parameter: str
    value: float
    unit: str
    best: str
    best_seconds: float
    best_tflops: float
    best_limiter: str
    kernel_tflops: float | None  # the base machine's best configuration, held fixed
    kernel_limiter: str | None


class Sensitivity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    parameter: str
    base_value: float
    unit: str
    elasticity: float  # d ln(time) / d ln(parameter) of the fixed kernel at the base machine, over +10%


class ExploreReport(BaseModel):
    """``roofmodel explore --json`` (JSON Schema: docs/schema/explore.schema.json)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = JSON_SCHEMA_VERSION
    machine: str
    gemm: str
    space: str
    kernel: KernelConfig
    kernel_origin: str
    points: list[ExplorePoint]
    sensitivity: list[Sensitivity]  # most sensitive first
    most_sensitive: str


def _base_value(machine: Machine, dtype: str, name: str, compute: Source, bandwidth: Source) -> float:
    path, unit, rated = PARAMETERS[name]
    node: Any = machine
    for k in path:
        k = k.format(dtype=dtype)
        node = node[k] if isinstance(node, dict) else getattr(node, k)
    if node is None:
        raise ProblemError(f"--vary {name}: {machine.name} has no such figure to vary from")
    q = node.pick(compute if name == "peak" else bandwidth) if rated else node
    sms, clock = machine.sm_count.n, machine.pipe(dtype).rated_clock or machine.clocks.boost
    if unit == "GB/s":
        per_sm = units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock.hz)
        return units.bytes_per_cycle_per_sm_to_gb_per_s(per_sm, sms, clock.hz)
    if unit == "B/cycle/SM":
        return units.bandwidth_bytes_per_cycle_per_sm(q.value, q.unit, sms, clock.hz)
    if unit == "FMA/cycle/SM":
        return units.rate_fma_per_cycle_per_sm(q.value, q.unit, sms, clock.hz)
    if unit == "MiB":
        return q.bytes / 2**20
    if unit == "KiB":
        return q.bytes / 2**10
    if unit == "cycles":
        return units.latency_cycles(q.value, q.unit, clock.hz)
    return float(q.value)


def explore(
    machine: Machine | str,
    gemm: Gemm,
    varies: list[tuple[str, float, float]],
    *,
    steps: int = 5,
    space: Space | None = None,
    kernel: KernelConfig | None = None,
    compute: Source = "spec",
    bandwidth: Source = "measured",
    clock: str | float | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> ExploreReport:
    """For each parameter and value: the best configuration and its time, and the time of one kernel
    held fixed (``kernel``, else the base machine's best); the fixed kernel's elasticity to each.
    ``progress`` is told, before each machine searched, how many are done, of how many, and which is next."""
    machine = as_machine(machine)
    if steps < 2:
        raise ProblemError(f"--steps: must be >= 2 (got {steps})")
    sp = space or Space()
    kw: dict[str, Any] = {"compute": compute, "bandwidth": bandwidth, "clock": clock}
    if kernel is None:
        base = tune(machine, gemm, sp, top=1, **kw)
        kernel = base.evaluated.configs.config(base.top[0])
        origin = "the base machine's best configuration"
    else:
        origin = "given"
    base_seconds = predict_kernel(machine, gemm, kernel, **kw).seconds
    points, sens = [], []
    for v, (name, lo, hi) in enumerate(varies):
        unit = PARAMETERS[name][1]
        for i in range(steps):
            value = lo * (hi / lo) ** (i / (steps - 1))
            if name in ("sm_count", "registers_per_sm"):
                value = float(round(value))
            if progress is not None:
                progress(v * steps + i, len(varies) * steps, f"{name} = {value:,.4g} {unit}")
            m = vary_machine(machine, gemm.dtype, name, value)
            try:
                best = tune(m, gemm, sp, top=1, **kw)
            except ProblemError:
                continue
            j = best.top[0]
            secs = float(best.evaluated.seconds[j])
            try:
                p = predict_kernel(m, gemm, kernel, **kw)
                ktf, klim = p.tflops, p.limiter
            except ProblemError:
                ktf = klim = None
            points.append(ExplorePoint(
                parameter=name, value=value, unit=unit, best=best.evaluated.configs.config(j).label(),
                best_seconds=secs, best_tflops=gemm.flops / secs / 1e12,
                best_limiter=LIMITERS[int(best.evaluated.limiter[j])], kernel_tflops=ktf, kernel_limiter=klim,
            ))  # fmt: skip
        v0 = _base_value(machine, gemm.dtype, name, compute, bandwidth)
        try:
            up = predict_kernel(vary_machine(machine, gemm.dtype, name, v0 * 1.1), gemm, kernel, **kw).seconds
            sens.append(Sensitivity(parameter=name, base_value=v0, unit=unit,
                                    elasticity=math.log(up / base_seconds) / math.log(1.1)))  # fmt: skip
        except ProblemError:
            pass
    sens.sort(key=lambda s: -abs(s.elasticity))
    return ExploreReport(
        machine=machine.name,
        gemm=f"{gemm.m}x{gemm.n}x{gemm.k} {gemm.dtype}",
        space=sp.name,
        kernel=kernel,
        kernel_origin=origin,
        points=points,
        sensitivity=sens,
        most_sensitive=sens[0].parameter if sens and abs(sens[0].elasticity) > 1e-9 else "none",
    )
