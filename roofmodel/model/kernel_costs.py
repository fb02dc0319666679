"""The per-CTA model's per-iteration costs from a K-sweep microbenchmark (issue 13: every new
machine constant comes from a microbenchmark). Pure: the GPU side (roofmodel.backends.microbench,
``roofmodel calibrate``) times the kernels; this module derives the costs, and the tests run it on
the recorded sweep (docs/measurements/h100-2026-11-23/broad.csv, set ``ksweep``).

A K-sweep kernel has one tile per SM (a grid of exactly the SM count, so one CTA per SM and one wave)
and is timed at several K: the slope of its time against K / BK is the time one CTA alone takes per
main-loop iteration. The per-CTA model with four warps (one instruction stream per sub-partition)
says:

- wgmma:    per iteration = MMA time + wait                      -> wait = slope - MMA time
- mma.sync: per iteration = MMA time + iteration + c x copy_issue  (c: 16-byte copies per thread)
  -> a least-squares line of (slope - MMA time) over c gives iteration (intercept) and copy_issue;

MMA time = 2 x BM x BN x BK / (the family's measured rate / SMs), in seconds.

The rate at which spilled registers are stored and reloaded (``kernel_costs.spill_bandwidth``) comes
from pairs of wgmma kernels timed the same way: a tile whose accumulators do not fit one warpgroup's
registers (256x128 or 128x256 on four warps: 256 fp32 accumulators per thread, Triton spills 128-256
of them) beside the same tile on eight warps, which does not spill and runs the same MMAs per
iteration. The difference of their slopes, less what the model says the second warpgroup alone
saves (one warpgroup: MMA + wait per iteration; two: max(MMA, MMA / 2 + wait)), is what the spills
cost per iteration; each spilled register past the ones that stay out of the loop
(cta_model.COLD_SPILLED_REGISTERS) is stored and reloaded once per iteration:

    spill bandwidth = 2 x (spilled - cold) x 4 B x threads / ((slope difference - model gap) x SM clock)

in B/cycle/SM, the median over the pairs.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from roofmodel.model.arrays import ceil_div

if TYPE_CHECKING:
    from roofmodel.machine import Machine

# What roofmodel calibrate times (and the broad sweep timed): fp16 tiles with four warps.
KSWEEP_TILES = ((64, 128, 64, 4, 4), (128, 128, 64, 4, 3))  # BM, BN, BK, warps, stages
KSWEEP_K = (1024, 2048, 4096, 8192)
# The spill pairs roofmodel calibrate times on a GPU with wgmma: (dtype, BM, BN, BK, stages), each on
# four warps (spills) and eight (its twin, which does not).
SPILL_PAIR_TILES = (("fp16", 256, 128, 32, 3), ("fp16", 128, 256, 32, 3), ("fp16", 128, 256, 64, 3),
                    ("fp8", 256, 128, 64, 3))  # fmt: skip


@dataclass(frozen=True)
class KSweepKernel:
    """One kernel timed over K: (K, seconds) points."""

    dtype: str
    family: str
    bm: int
    bn: int
    bk: int
    warps: int
    element_bytes: int
    points: tuple[tuple[int, float], ...]
    spilled: int = 0  # registers per thread the compiler spilled
    # Which dimension of A (k or m) and of B (k or n) is contiguous. The default, both K-major, is what
    # the conversion and gather checks' twins are; every constructor of timed kernels states its own (the
    # K sweep's 16-bit B is N-major).
    a_major: str = "k"
    b_major: str = "k"

    def label(self) -> str:
        return f"{self.dtype} {self.family} {self.bm}x{self.bn}x{self.bk} w{self.warps}"

    def layout(self) -> str:
        """A's and B's majors, as the broad sweep writes them (``kn``: A K-major, B N-major)."""
        return self.a_major + self.b_major


@dataclass(frozen=True)
class KernelCostFit:
    """Derived costs (seconds; None where the sweep had no kernel to derive them from) and, per kernel,
    (label, seconds per iteration, MMA seconds, copies per thread)."""

    wait_s: float | None
    iteration_s: float | None
    copy_issue_s: float | None
    kernels: list[tuple[str, float, float, float]] = field(default_factory=list)


def grid_of(sms: int) -> tuple[int, int]:
    """Tiles along M and N whose product is exactly ``sms``, as square as possible (132 -> 11 x 12)."""
    best = (1, sms)
    for a in range(1, int(sms**0.5) + 1):
        if sms % a == 0:
            best = (a, sms // a)
    return best


def least_squares_line(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """(slope, intercept) of the least-squares line through (x, y) points."""
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return slope, my - slope * mx


def per_iteration_seconds(points: Sequence[tuple[int, float]], bk: int, k_min: int = 1024) -> float:
    """Least-squares slope of time over K / BK, over the points with K >= k_min (seconds)."""
    pts = [(k / bk, t) for k, t in points if k >= k_min]
    if len(pts) < 2:
        raise ValueError(f"need two or more points with K >= {k_min} (got {len(pts)})")
    return least_squares_line(pts)[0]


def family_rate_tflops(machine: Machine, measured: dict[str, float], dtype: str, family: str) -> float:
    """The TFLOPS to take a K sweep's or spill pair's MMA time at: the pipe's first instruction family at
    the rate measured here (``measured``: cuBLAS per dtype) where this run measured the dtype, any other
    family or dtype at the base file's rate for it (fp8's spill pair: calibrate times no fp8 GEMM)."""
    pipe = machine.pipe(dtype)
    own = pipe.rate_of(pipe.instruction(family))[0].pick("measured")
    return measured[dtype] if family == pipe.instructions[0].family and dtype in measured else own.value


def derive_kernel_costs(
    kernels: Sequence[KSweepKernel], rate_tflops: Callable[[str, str], float], sms: int
) -> KernelCostFit:
    """wait from the four-warp wgmma kernels (median), iteration and copy_issue from the four-warp
    mma.sync kernels (a line over copies per thread); see the module docstring."""
    waits, sync, rows = [], [], []
    for kern in kernels:
        per_iteration = per_iteration_seconds(kern.points, kern.bk)
        mma = 2 * kern.bm * kern.bn * kern.bk / (rate_tflops(kern.dtype, kern.family) * 1e12 / sms)
        copies = (kern.bm + kern.bn) * kern.bk * kern.element_bytes / (16 * 32 * kern.warps)
        rows.append((kern.label(), per_iteration, mma, copies))
        if kern.warps == 4 and kern.family == "wgmma":
            waits.append(per_iteration - mma)
        if kern.warps == 4 and kern.family == "mma.sync" and kern.dtype == "fp16":
            sync.append((copies, per_iteration - mma))
    wait = statistics.median(waits) if waits else None
    iteration = copy_issue = None
    if len({c for c, _ in sync}) >= 2:
        copy_issue, iteration = least_squares_line(sync)
    return KernelCostFit(wait_s=wait, iteration_s=iteration, copy_issue_s=copy_issue, kernels=rows)


# ---------------------------------------------------------------------------------------------
# The rate of spills (wgmma pairs)


@dataclass(frozen=True)
class SpillPair:
    """A spilling kernel and its twin (the same tile, dtype and family on twice the warps, no
    spills): seconds per iteration of each, and the spilled bytes one iteration stores and reloads."""

    label: str
    spilling_s: float
    twin_s: float
    spilled_bytes_per_iteration: float
    model_gap_s: float = 0.0  # what the model says the twin's second warpgroup saves per iteration

    @property
    def spill_s(self) -> float:
        """Seconds per iteration the spills cost: spilling - twin - model gap."""
        return self.spilling_s - self.twin_s - self.model_gap_s

    def bytes_per_cycle(self, clock_hz: float) -> float:
        """Spilled bytes per iteration / (spill seconds x clock) (B/cycle/SM)."""
        return self.spilled_bytes_per_iteration / (self.spill_s * clock_hz)


def warpgroup_gap_s(mma_s: float, wait_s: float, warps: int) -> float:
    """What a CTA of twice ``warps`` (two warpgroups where one had one) saves per iteration in the
    per-CTA model, no spills: (MMA + wait) - max(MMA, MMA / 2 + wait) for four warps against eight."""
    one = mma_s + wait_s
    two = max(mma_s, mma_s / 2 + wait_s)
    return one - two if warps == 4 else 0.0


def spill_pairs(kernels: Sequence[KSweepKernel], rate_tflops: Callable[[str, str], float] | None = None,
                sms: int = 1, wait_s: float = 0.0, cold: int = 0, warp_size: int = 32) -> list[SpillPair]:  # fmt: skip
    """The wgmma kernels that spilled, each with its twin on twice the warps that did not; with
    ``rate_tflops`` (the family's rate), ``sms`` and ``wait_s``, the model's gap between the two is
    taken out, and ``cold`` spilled registers a thread are not counted (see the module docstring)."""
    by_key = {(k.dtype, k.family, k.bm, k.bn, k.bk, k.warps): k for k in kernels}
    out = []
    for k in kernels:
        twin = by_key.get((k.dtype, k.family, k.bm, k.bn, k.bk, 2 * k.warps))
        if k.family != "wgmma" or k.spilled <= cold or twin is None or twin.spilled:
            continue
        gap = 0.0
        if rate_tflops is not None:
            mma = 2 * k.bm * k.bn * k.bk / (rate_tflops(k.dtype, k.family) * 1e12 / sms)
            gap = warpgroup_gap_s(mma, wait_s, k.warps)
        out.append(SpillPair(label=k.label(), spilling_s=per_iteration_seconds(k.points, k.bk),
                             twin_s=per_iteration_seconds(twin.points, twin.bk), model_gap_s=gap,
                             spilled_bytes_per_iteration=2.0 * (k.spilled - cold) * 4 * warp_size * k.warps))  # fmt: skip
    return out


def spill_bandwidth(pairs: Sequence[SpillPair], clock_hz: float) -> float | None:
    """The median of the pairs' spill bandwidths (B/cycle/SM; see the module docstring); None
    without a pair whose spills cost time."""
    rates = [p.bytes_per_cycle(clock_hz) for p in pairs if p.spill_s > 0]
    return statistics.median(rates) if rates else None


# ---------------------------------------------------------------------------------------------
# The cost of transposing an MN-major 32-bit operand (tf32 under wgmma)


@dataclass(frozen=True)
class LayoutPair:
    """One kernel timed with both operands K-major and with one or both of them MN-major, all else
    equal; ``elements_per_sm``: the MN-major elements the busiest SM loads (tiles per SM x K x (BM if A
    is M-major + BN if B is N-major))."""

    label: str
    k_major_s: float
    mn_major_s: float
    elements_per_sm: float

    @property
    def seconds_per_element(self) -> float:
        """(MN-major time - K-major time) / MN-major elements per SM."""
        return (self.mn_major_s - self.k_major_s) / self.elements_per_sm


def layout_pairs(check: dict, dtype: str, sms: int) -> list[LayoutPair]:
    """The pairs of a layout check (benchmarks/gpu_layout_check.py's JSON: one shape and tile, every
    operand layout of each dtype): each MN-major kernel against the K-major one."""
    shape, cfg = check["shape"], check["config"]
    bm, bn = cfg["block_m"], cfg["block_n"]
    tiles = ceil_div(shape["m"], bm) * ceil_div(shape["n"], bn)
    per_sm = ceil_div(tiles, sms)
    kernels = {(k["a_major"], k["b_major"]): k["time_ms"] * 1e-3 for k in check["kernels"] if k["dtype"] == dtype}
    base = kernels[("k", "k")]
    pairs = []
    for (a, b), seconds in sorted(kernels.items()):
        edges = bm * (a == "m") + bn * (b == "n")
        if edges:
            pairs.append(LayoutPair(f"{dtype} A {a}, B {b}", base, seconds, per_sm * shape["k"] * edges))
    return pairs


def transpose_cost(pairs: Sequence[LayoutPair]) -> float:
    """kernel_costs.transpose: the median over the pairs of seconds per transposed element per SM."""
    return statistics.median(p.seconds_per_element for p in pairs)


# ---------------------------------------------------------------------------------------------
# The cost of converting fp8 to fp16 for mma.sync (Triton on sm_90)

# What roofmodel calibrate times for kernel_costs.convert (and the issue check timed, 2026-11-25):
# fp8 tiles whose warps convert the most elements per MMA (warp tiles of 16x16 and 32x16: 3/32 to
# 1/8 conversions per FMA), mma.sync forced, on CONVERT_TILES_PER_SM tiles per SM, so that the SM's
# conversions, not one CTA's latency, set the pace: (dtype, BM, BN, BK, warps, stages).
CONVERT_TILES = (("fp8", 32, 32, 64, 4, 3), ("fp8", 32, 32, 128, 4, 3), ("fp8", 32, 64, 64, 4, 3),
                 ("fp8", 32, 64, 128, 4, 3), ("fp8", 64, 64, 64, 8, 3), ("fp8", 64, 64, 128, 8, 3))  # fmt: skip
CONVERT_TILES_PER_SM = 8


def convert_rates(kernels: Sequence[KSweepKernel], tiles_per_sm: int, clock_hz: float) -> list[tuple[str, float]]:
    """Per fp8 mma.sync kernel timed over K on ``tiles_per_sm`` tiles per SM: (label, fp8 elements
    converted per SM cycle) = elements a tile-iteration converts (prediction.converted_elements: warps x
    (warp rows + warp columns) x BK) x tiles per SM / (seconds per iteration x clock)."""
    from roofmodel.model.kernel import FAMILIES, register_tile_for
    from roofmodel.model.prediction import converted_elements

    out = []
    for kern in kernels:
        tile = register_tile_for("mma.sync", kern.bm, kern.bn, kern.warps)
        # an MN-major operand's byte gathers share the pipe (gather_rates): only both operands K-major count
        if kern.family != "mma.sync" or kern.element_bytes != 1 or tile is None or kern.layout() != "kk":
            continue
        elements = converted_elements(FAMILIES.index("mma.sync"), 1, kern.warps, kern.bm, kern.bn, kern.bk, *tile)
        out.append((kern.label(), elements * tiles_per_sm / (per_iteration_seconds(kern.points, kern.bk) * clock_hz)))
    return out


def convert_cycles_per_element(kernels: Sequence[KSweepKernel], tiles_per_sm: int, clock_hz: float) -> float | None:
    """kernel_costs.convert: 1 / the median over the kernels of elements converted per SM cycle, in SM
    cycles per element (a rate of the SM's pipes, whatever the clock); None without a kernel that converts."""
    rates = [r for _, r in convert_rates(kernels, tiles_per_sm, clock_hz) if r > 0]
    return 1.0 / statistics.median(rates) if rates else None


# ---------------------------------------------------------------------------------------------
# The cost of an 8-bit MN-major operand under mma.sync (Triton on sm_90)

# What roofmodel calibrate times for kernel_costs.gather (and the gather check timed, 2026-11-26): the
# conversion-heavy fp8 tiles (CONVERT_TILES) with B N-major and with A M-major, against the same tiles with
# both K-major, on CONVERT_TILES_PER_SM tiles per SM. ldmatrix.trans is .b16 only, so mma.sync's warps read
# such an operand from shared memory one byte per thread (ld.shared.b8) and pack the bytes into registers.
GATHER_LAYOUTS = (("k", "n"), ("m", "k"))


def gather_rates(kernels: Sequence[KSweepKernel], tiles_per_sm: int, clock_hz: float) -> list[tuple[str, float]]:
    """Per 8-bit mma.sync kernel with an MN-major operand and its twin with both operands K-major, timed
    over K on ``tiles_per_sm`` tiles per SM: (label, SM cycles per gathered element) = (seconds per
    iteration - the twin's) x clock / (elements a tile-iteration gathers (prediction.gathered_elements:
    warps x (warp rows if A is M-major + warp columns if B is N-major) x BK) x tiles per SM)."""
    from roofmodel.model.kernel import FAMILIES, register_tile_for
    from roofmodel.model.prediction import gathered_elements

    twins = {(k.dtype, k.bm, k.bn, k.bk, k.warps): k for k in kernels if k.layout() == "kk"}
    out = []
    for kern in kernels:
        tile = register_tile_for("mma.sync", kern.bm, kern.bn, kern.warps)
        twin = twins.get((kern.dtype, kern.bm, kern.bn, kern.bk, kern.warps))
        if kern.family != "mma.sync" or kern.element_bytes != 1 or tile is None or twin is None or twin is kern:
            continue
        elements = gathered_elements(FAMILIES.index("mma.sync"), 1, kern.warps, kern.bm, kern.bn, kern.bk, *tile,
                                     kern.a_major == "m", kern.b_major == "n")  # fmt: skip
        if not elements:
            continue
        extra = per_iteration_seconds(kern.points, kern.bk) - per_iteration_seconds(twin.points, twin.bk)
        out.append((f"{kern.label()} {kern.layout()}", extra * clock_hz / (elements * tiles_per_sm)))
    return out


def gather_cycles_per_element(kernels: Sequence[KSweepKernel], tiles_per_sm: int, clock_hz: float) -> float | None:
    """kernel_costs.gather: the median over the pairs of gather_rates, in SM cycles per element (a cost of
    the SM's issue, whatever the clock); None without a pair."""
    rates = [r for _, r in gather_rates(kernels, tiles_per_sm, clock_hz)]
    return statistics.median(rates) if rates else None
