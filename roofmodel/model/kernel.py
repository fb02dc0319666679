"""A kernel configuration as the model sees it, and the presets that map a compiler's
configuration to one (issue 5).

A configuration is a CTA tile BM x BN x BK, warps, pipeline stages, an instruction family (fma,
mma.sync or wgmma), a cluster shape, a raster order, persistent or not, and the register-level
tile each thread (fma), warp (mma.sync) or warpgroup (wgmma) owns. The presets derive the
instruction family and the register-level tile by the rules the compilers use:

- Triton (``triton_config``): on compute capability 9.x a dot becomes wgmma (MMAv3) when
  num_warps % 4 == 0, BLOCK_M % 64 == 0, BLOCK_N % 8 == 0 and the operands are fp16, bf16, tf32,
  fp8 or int8 (``supportMMA(dot, 3)`` in Triton's TritonGPU utilities); otherwise, from 7.5 on,
  mma.sync (MMAv2: ``supportMMA(dot, 2)`` holds from compute capability 7.5, Turing's m16n8k8);
  fp32 without tf32 is an FMA loop. Warps are laid out as Triton's
  ``warpsPerTileV3`` (wgmma: warpgroups along M while BLOCK_M > 16 x warps along M, then along N)
  and ``warpsPerTileV2`` (mma.sync: double the dimension with more 16 x 8 instruction tiles per
  warp). The FMA layout is Triton's blocked layout of the dot (fma_layout.triton_fma_layout: 4 x 4
  elements a thread, lanes then warps along N first; checked against the compiled TTGIR).
- CUTLASS (``cutlass_config``): ``sm90`` is the TMA warp-specialized cooperative kernel (wgmma,
  persistent, one producer and two consumer warpgroups splitting BM, 384 threads, the CUTLASS
  sm90 swizzled tile order); ``sm80`` the multistage mma.sync kernel with an explicit warp tile
  (default BM/2 x BN/2, four warps) and the identity threadblock swizzle, whose blockIdx.x walks
  M first (column order over tiles); ``simt`` the same with FFMA and CUTLASS's 4 x 8 lane
  arrangement of a warp.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine
from roofmodel.model.fma_layout import triton_fma_layout
from roofmodel.model.footprint import FAMILIES
from roofmodel.model.multicast import check_pair_cluster
from roofmodel.model.problem import Tile
from roofmodel.model.tiling import WGMMA_ROWS

Family = Literal["fma", "mma.sync", "wgmma", "tcgen05", "tcgen05.2sm", "mfma"]
TCGEN05 = ("tcgen05", "tcgen05.2sm")
# tcgen05.mma's M per CTA: 64 or 128 (cta_group::1; 128 or 256 for the pair, half on each SM); N up to
# 256 in steps of 8 (M = 64) or 16 (PTX ISA, tcgen05.mma matrix shapes).
TCGEN05_MAX_ROWS = 128

WGMMA_DTYPES = ("fp16", "bf16", "tf32", "fp8", "int8")
SM90_PRODUCER_WARPS = 4  # CUTLASS's TMA producer warpgroup


class KernelConfig(BaseModel):
    """One kernel configuration (``roofmodel predict``/``tune``; JSON in ``tune --json``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bm: int = Field(ge=1)
    bn: int = Field(ge=1)
    bk: int = Field(ge=1)
    warps: int = Field(ge=1)
    stages: int = Field(ge=1)
    instruction: Family
    register_tile: tuple[int, int]
    cluster: tuple[int, int] = (1, 1)
    raster: str = "row"
    persistent: bool = False
    # Whose register and shared-memory rules apply (roofmodel.model.footprint): a Triton or CUTLASS kernel,
    # or one stated by its parts (a hand-written kernel: the register-level tile's own registers).
    compiler: Literal["triton", "cutlass", "stated"] = "stated"
    origin: str = "given"

    def label(self) -> str:
        cm, cn = self.cluster
        parts = [f"{self.bm}x{self.bn}x{self.bk}", f"w{self.warps}", f"s{self.stages}", self.instruction]
        parts.append(f"reg {self.register_tile[0]}x{self.register_tile[1]}")
        if cm * cn > 1:
            parts.append(f"cluster {cm}x{cn}")
        parts.append(self.raster)
        if self.persistent:
            parts.append("persistent")
        return " ".join(parts)


def _capability(machine: Machine) -> tuple[int, int]:
    return machine.nvidia_capability or (0, 0)  # another vendor's GPU meets no NVIDIA rule


def _major(machine: Machine) -> int:
    return _capability(machine)[0]


def triton_family(machine: Machine, dtype: str, block_m: int, block_n: int, num_warps: int) -> Family:
    """The instruction family Triton's AccelerateMatmul pass gives a tl.dot (see the module doc). On
    compute capability 10.x, tcgen05 (MMAv5) under the conditions of MMAv3 (assumed: no sm_100 kernel
    has been compiled here)."""
    have = {i.family for i in machine.pipe(dtype).instructions}
    # Triton's AMD backend (AccelerateAMDMatmul): MFMA for a dot whose tiles are whole 16 x 16
    # instruction tiles; assumed here, no AMD kernel has been compiled for this model.
    if machine.nvidia_capability is None and "mfma" in have and block_m % 16 == 0 and block_n % 16 == 0:
        return "mfma"
    if (
        _major(machine) >= 10
        and "tcgen05" in have
        and dtype in WGMMA_DTYPES
        and num_warps % 4 == 0
        and block_m % 64 == 0
        and block_n % 16 == 0
    ):
        return "tcgen05"
    if (
        _major(machine) >= 9
        and "wgmma" in have
        and dtype in WGMMA_DTYPES
        and num_warps % 4 == 0
        and block_m % 64 == 0
        and block_n % 8 == 0
    ):
        return "wgmma"
    if _capability(machine) >= (7, 5) and "mma.sync" in have:
        return "mma.sync"
    if "fma" in have:
        return "fma"
    raise ProblemError(
        f"{dtype}: Triton lowers tl.dot to FMA below compute capability 7.5, and {machine.name}'s file lists no FMA "
        f"instruction for {dtype} (it has: {', '.join(sorted(have))})"
    )


def triton_warps_v3(block_m: int, num_warps: int) -> tuple[int, int]:
    """Warps along (M, N) for wgmma, as Triton's warpsPerTileV3: start at (4, 1); double M while
    BLOCK_M > 16 x warps along M, else N, until the product reaches num_warps."""
    wm, wn = 4, 1
    while wm * wn < num_warps:
        if block_m > 16 * wm:
            wm *= 2
        else:
            wn *= 2
    return wm, wn


def triton_warps_v2(block_m: int, block_n: int, num_warps: int) -> tuple[int, int]:
    """Warps along (M, N) for mma.sync, as Triton's warpsPerTileV2 (16 x 8 instruction tiles)."""
    wm, wn = 1, 1
    while wm * wn < num_warps:
        if block_m // 16 // wm >= block_n // (8 * wn):
            if wm < block_m // 16:
                wm *= 2
            else:
                wn *= 2
        else:
            wn *= 2
    return wm, wn


def register_tile_for(family: str, bm: int, bn: int, warps: int, warp_size: int = 32) -> tuple[int, int] | None:
    """The register-level tile a Triton kernel of ``warps`` warps gives each thread, warp or
    warpgroup. Where there are more warps (threads) than instruction tiles, Triton replicates: the
    extra warps compute the same tile, so the register tile stays one instruction tile (16 x 8 for
    mma.sync, 64 x 8 for wgmma). FMA: the thread tile of Triton's layout (fma_layout.triton_fma_layout; 128x128 on
    4 warps gives each thread 32 x 4, not the squarest split). None where the layout cannot tile the CTA (wgmma
    with warps that do not form whole warpgroups, or BM not a multiple of 64)."""
    if family == "wgmma":
        if warps % 4 or bm % WGMMA_ROWS:
            return None
        wm, wn = triton_warps_v3(bm, warps)
        rm, rn = max(WGMMA_ROWS, bm // (wm // 4)), max(8, bn // wn)
        if rm % WGMMA_ROWS or bn % min(rn, bn) or rn % 8:
            return None
        return rm, rn
    if family == "mma.sync":
        wm, wn = triton_warps_v2(bm, bn, warps)
        return max(16, bm // wm), max(8, bn // wn)
    if family == "mfma":  # wavefronts over 16 x 16 instruction tiles, laid out as warpsPerTileV2 (assumed)
        wm, wn = triton_warps_v2(bm, bn // 2, warps)
        return max(16, bm // wm), max(16, bn // wn)
    if family in TCGEN05:
        return tcgen05_tile(family, bm, bn)
    if family == "fma":  # Triton's FMA layout (fma_layout): 64x64 on 4 warps gives each thread 8 x 4
        layout = triton_fma_layout(bm, bn, warps, warp_size)
        return int(layout.rm), int(layout.rn)
    raise ProblemError(f"unknown instruction family {family!r} (families: {', '.join(FAMILIES)})")


def tcgen05_tile(family: str, bm: int, bn: int, max_n: int = 256) -> tuple[int, int] | None:
    """The instruction tile of a tcgen05 kernel with a BM x BN tile per CTA: (min(BM, 128), min(BN,
    256)); for the pair (tcgen05.2sm) the pair's MMA, twice the CTA's rows. None where BM is not a
    multiple of 64 or BN of 16."""
    if bm % 64 or bn % 16:
        return None
    rows = min(bm, TCGEN05_MAX_ROWS)
    return (2 * rows if family == "tcgen05.2sm" else rows), min(bn, max_n)


def tcgen05_warps(family: str, bm: int, bn: int, tile: tuple[int, int]) -> int:
    """Warps of a tcgen05 kernel as the model states it: a warpgroup per instruction tile of the CTA,
    which reads that tile's accumulator from tensor memory (its four warps reach the 128 lanes)."""
    per_cta_rows = tile[0] // (2 if family == "tcgen05.2sm" else 1)
    return 4 * (bm // per_cta_rows) * (bn // tile[1])


# tl.dot's operands are at least 16 along each dimension: Triton's smallest BLOCK_M, BLOCK_N and BLOCK_K.
TRITON_MIN_BLOCK = 16


def triton_config(
    machine: Machine,
    dtype: str,
    *,
    block_m: int,
    block_n: int,
    block_k: int,
    group_m: int = 1,
    num_warps: int = 4,
    num_stages: int = 3,
) -> KernelConfig:
    """The model's description of a Triton matmul configuration (the 03-matrix-multiplication
    tutorial's kernel: GROUP_M ordering, non-persistent, no cluster)."""
    for name, v in (("BLOCK_M", block_m), ("BLOCK_N", block_n), ("BLOCK_K", block_k), ("GROUP_M", group_m),
                    ("num_warps", num_warps), ("num_stages", num_stages)):  # fmt: skip
        if v < 1:
            raise ProblemError(f"{name}: must be >= 1 (got {v})")
    if num_warps & (num_warps - 1):
        raise ProblemError(f"num_warps {num_warps}: Triton takes a power of two")
    for name, v in (("BLOCK_M", block_m), ("BLOCK_N", block_n), ("BLOCK_K", block_k)):
        if v & (v - 1) or v < TRITON_MIN_BLOCK:
            # tl.arange takes a power of two, and tl.dot operands at least 16 along each dimension
            raise ProblemError(f"{name} {v}: a Triton matmul block is a power of two of at least 16")
    family = triton_family(machine, dtype, block_m, block_n, num_warps)
    reg = register_tile_for(family, block_m, block_n, num_warps, machine.warp_size)
    if reg is None:
        raise ProblemError(
            f"Triton {block_m}x{block_n} with {num_warps} warps: the {family} warp layout does not tile the block"
        )
    return KernelConfig(
        bm=block_m, bn=block_n, bk=block_k, warps=num_warps, stages=num_stages, instruction=family,
        register_tile=reg, raster="row" if group_m == 1 else f"grouped:{group_m}", compiler="triton",
        origin=f"Triton BLOCK {block_m}x{block_n}x{block_k}, GROUP_M {group_m}, num_warps {num_warps}, "
               f"num_stages {num_stages}: {family} (Triton's rule), warp layout {reg[0]}x{reg[1]}",
    )  # fmt: skip


def cutlass_config(
    machine: Machine,
    dtype: str,
    *,
    kind: Literal["sm90", "sm80", "simt"],
    tile: tuple[int, int, int],
    stages: int,
    cluster: tuple[int, int] = (1, 1),
    warp_tile: tuple[int, int] | None = None,
    swizzle: int = 1,
) -> KernelConfig:
    """The model's description of a CUTLASS GEMM (see the module doc for each kind)."""
    bm, bn, bk = tile
    have = {i.family for i in machine.pipe(dtype).instructions}
    if kind == "sm90":
        if "wgmma" not in have:
            raise ProblemError(f"CUTLASS sm90 kernel: {machine.name} has no wgmma for {dtype}")
        if bm % (2 * WGMMA_ROWS):
            raise ProblemError(f"CUTLASS sm90 cooperative: BM must be a multiple of 128 (got {bm})")
        if warp_tile is not None:
            raise ProblemError("CUTLASS sm90 cooperative: its two consumer warpgroups split BM (a BM/2 x BN "
                               "register tile each); a warp tile is for the sm80 and SIMT kernels")  # fmt: skip
        return KernelConfig(
            bm=bm, bn=bn, bk=bk, warps=SM90_PRODUCER_WARPS + 8, stages=stages, instruction="wgmma",
            register_tile=(bm // 2, bn), cluster=cluster, raster=f"swizzle:{swizzle}", persistent=True, compiler="cutlass",
            origin=f"CUTLASS sm90 TMA warp-specialized cooperative {bm}x{bn}x{bk}, cluster {cluster[0]}x{cluster[1]}, "
                   f"{stages} stages: two consumer warpgroups of {bm // 2}x{bn} and a producer warpgroup",
        )  # fmt: skip
    if cluster != (1, 1):
        raise ProblemError(f"CUTLASS {kind}: clusters need the sm90 kernel")
    if swizzle != 1:
        raise ProblemError(f"CUTLASS {kind}: only the identity swizzle (1) is modeled (got {swizzle})")
    family: Family = "mma.sync" if kind == "sm80" else "fma"
    if family not in have:
        raise ProblemError(f"CUTLASS {kind} kernel: {machine.name} has no {family} for {dtype}")
    wt = warp_tile or (bm // 2, bn // 2)
    if bm % wt[0] or bn % wt[1]:
        raise ProblemError(f"CUTLASS {kind}: warp tile {wt[0]}x{wt[1]} does not divide {bm}x{bn}")
    warps = (bm // wt[0]) * (bn // wt[1])
    # CUTLASS SIMT warps arrange their 32 lanes 4 x 8 (MmaSimtPolicy<MatrixShape<4, 8>, ...>).
    reg = wt if family == "mma.sync" else (wt[0] // 4, wt[1] // 8)
    if min(reg) < 1:
        raise ProblemError(f"CUTLASS simt: warp tile {wt[0]}x{wt[1]} is smaller than the 4x8 lane grid")
    return KernelConfig(
        bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, instruction=family, register_tile=reg,
        raster="col", compiler="cutlass",
        origin=f"CUTLASS {kind} {bm}x{bn}x{bk}, warp tile {wt[0]}x{wt[1]}, {stages} stages: {family}, "
               f"identity swizzle (blockIdx.x along M)",
    )  # fmt: skip


def admitted_family(machine: Machine, dtype: str, bm: int, bn: int, warps: int | None) -> Family:
    """The fastest instruction family the machine has for ``dtype`` that a BM x BN tile (and the
    warps, where given) admits: wgmma for whole warpgroups over 64-row multiples, mma.sync for 16 x 8
    multiples, else FMA."""
    have = {i.family for i in machine.pipe(dtype).instructions}
    whole_warpgroups = warps is None or warps % 4 == 0
    if "tcgen05" in have and bm % 64 == 0 and bn % 16 == 0 and whole_warpgroups:
        return "tcgen05"
    if "wgmma" in have and bm % WGMMA_ROWS == 0 and bn % 8 == 0 and whole_warpgroups:
        return "wgmma"
    if "mma.sync" in have and bm % 16 == 0 and bn % 8 == 0:
        return "mma.sync"
    if "mfma" in have and bm % 16 == 0 and bn % 16 == 0:
        return "mfma"
    if "fma" in have:
        return "fma"
    raise ProblemError(
        f"{bm}x{bn}: no instruction of {dtype} on {machine.name} tiles it (have: {', '.join(sorted(have))})"
    )


def _warps_of(family: str, bm: int, bn: int, register_tile: tuple[int, int], warp_size: int = 32) -> int:
    """Warps that cover a BM x BN tile with one register-level tile each."""
    rm, rn = register_tile
    if family in TCGEN05:
        return tcgen05_warps(family, bm, bn, register_tile)
    units = (bm // rm) * (bn // rn)
    return {"wgmma": 4 * units, "mma.sync": units, "mfma": units}.get(family, max(1, units // warp_size))


def generic_config(
    machine: Machine,
    dtype: str,
    *,
    tile: Tile,
    warps: int | None = None,
    stages: int = 3,
    instruction: str | None = None,
    register_tile: tuple[int, int] | None = None,
    cluster: tuple[int, int] = (1, 1),
    raster: str = "row",
    persistent: bool = False,
) -> KernelConfig:
    """A kernel stated by its parts: the instruction given, else the fastest the tile admits
    (admitted_family); warps given, else the register tile's, else 4 (Triton's default); the
    register tile given (it must divide the tile and match the warps), else Triton's warp layout
    for those warps. Refused, with the reason: warps that do not form whole warpgroups under wgmma,
    and a register tile that does not cover the tile with the warps given."""
    if tile.bk is None:
        raise ProblemError(f"--tile: give BK too, e.g. {tile.bm}x{tile.bn}x64")
    bm, bn = tile.bm, tile.bn
    for name, v in (("--warps", warps), ("--stages", stages)):
        if v is not None and v < 1:
            raise ProblemError(f"{name}: must be >= 1 (got {v})")
    have = [i.family for i in machine.pipe(dtype).instructions]
    if instruction is None:
        family = admitted_family(machine, dtype, bm, bn, warps)
    elif instruction not in have:
        raise ProblemError(f"--instruction {instruction}: not available for {dtype} (have: {', '.join(have)})")
    else:
        family = instruction  # type: ignore[assignment]
    if family == "wgmma":
        if bm % WGMMA_ROWS:
            raise ProblemError(f"--tile {tile.label()}: wgmma covers 64 rows at a time; BM must be a multiple of 64")
        if warps is not None and warps % 4:
            raise ProblemError(f"--warps {warps}: wgmma runs on whole warpgroups (a multiple of 4 warps)")
    if family in TCGEN05:
        if bm % 64 or bn % 16:
            raise ProblemError(f"--tile {tile.label()}: tcgen05.mma takes M of 64 or 128 per CTA and N in steps "
                               "of 16: BM must be a multiple of 64, BN of 16")  # fmt: skip
        if warps is not None and warps % 4:
            raise ProblemError(f"--warps {warps}: a tcgen05 kernel reads its accumulator from tensor memory with "
                               "whole warpgroups (a multiple of 4 warps)")  # fmt: skip
        check_pair_cluster(family, *cluster)
    if register_tile is not None:
        rm, rn = register_tile
        span = 2 if family == "tcgen05.2sm" else 1  # the pair's instruction spans two CTAs' rows
        if rm < 1 or rn < 1 or (span * bm) % rm or bn % rn:
            raise ProblemError(f"--reg-tile {rm}x{rn}: does not divide the tile {bm}x{bn}")
        if family == "wgmma" and rm % WGMMA_ROWS:
            raise ProblemError(f"--reg-tile {rm}x{rn}: a wgmma warpgroup tile has a multiple of 64 rows")
        if family in TCGEN05 and (rm, rn) != tcgen05_tile(family, bm, bn, rn):
            raise ProblemError(f"--reg-tile {rm}x{rn}: the tcgen05 instruction tile of a {bm}x{bn} CTA tile is "
                               f"{'x'.join(map(str, tcgen05_tile(family, bm, bn) or ('-', '-')))}")  # fmt: skip
        need = _warps_of(family, bm, bn, register_tile, machine.warp_size)
        if warps is not None and warps != need:
            raise ProblemError(
                f"--warps {warps}: {family} register tiles of {rm}x{rn} cover {bm}x{bn} with {need} warps"
            )
        warps = need
        reg = register_tile
    else:
        warps = warps or 4
        if warps & (warps - 1):
            raise ProblemError(f"--warps {warps}: the warp layouts (Triton's) take a power of two; or give --reg-tile")
        found = register_tile_for(family, bm, bn, warps, machine.warp_size)
        if found is None:
            raise ProblemError(
                f"--tile {tile.label()} with {warps} warps: the {family} warp layout does not tile the block "
                "(give --warps or --reg-tile)"
            )
        reg = found
    max_n = machine.pipe(dtype).instruction(family).max_n
    if max_n is not None and reg[1] > max_n:
        raise ProblemError(f"--reg-tile {reg[0]}x{reg[1]}: {family} takes N up to {max_n} (the machine file's max_n)"
                           + ("" if register_tile else "; give --warps or --reg-tile"))  # fmt: skip
    return KernelConfig(
        bm=bm, bn=bn, bk=tile.bk, warps=warps, stages=stages, instruction=family, register_tile=reg,
        cluster=cluster, raster=raster, persistent=persistent,
        origin=f"stated: {family} ({'given' if instruction else 'the fastest the tile admits'}), {warps} warps, "
               f"register-level tile {reg[0]}x{reg[1]}",
    )  # fmt: skip


def triton_group_m(raster: str, option: str = "--raster") -> int:
    """Triton's GROUP_M for a tile order: row is 1, grouped:G is G; Triton's kernel has no other."""
    from roofmodel.model.rasterization import parse_order

    order = parse_order(raster)
    if order.kind not in ("row", "grouped"):
        raise ProblemError(f"{option} {raster}: Triton's kernel takes row or grouped:G (GROUP_M), not {raster!r}")
    return 1 if order.kind == "row" else order.size


def kernel_config(
    machine: Machine, dtype: str, kind: str, tile: Tile, *, raster: str, cluster: tuple[int, int], stages: int,
    warps: int | None, instruction: str | None, reg_tile: tuple[int, int] | None, persistent: bool,
) -> KernelConfig:  # fmt: skip
    """The kernel ``kind`` names (``triton``, ``cutlass``, else stated by its parts), built from the
    options through its preset; each kind refuses the options it does not take."""
    if kind == "triton":
        if cluster != (1, 1) or persistent or reg_tile or instruction:
            raise ProblemError("--kernel triton: the Triton tutorial kernel takes no --cluster, --persistent, "
                               "--reg-tile or --instruction (Triton's rules pick them)")  # fmt: skip
        return triton_config(machine, dtype, block_m=tile.bm, block_n=tile.bn, block_k=tile.bk,
                             group_m=triton_group_m(raster), num_warps=warps or 4, num_stages=stages)  # fmt: skip
    if kind == "cutlass":
        if warps or instruction:
            raise ProblemError("--kernel cutlass: CUTLASS's kernel sets the warps and instruction (--reg-tile: "
                               "the sm80/SIMT warp tile)")  # fmt: skip
        from roofmodel.model.rasterization import parse_order

        have = {i.family for i in machine.pipe(dtype).instructions}
        if machine.nvidia_capability is None:
            raise ProblemError(f"--kernel cutlass: CUTLASS is NVIDIA's; {machine.name} ({machine.target}) is not an "
                               "NVIDIA GPU (state the kernel by its parts)")  # fmt: skip
        if "tcgen05" in have:
            raise ProblemError("--kernel cutlass: CUTLASS's sm100 (tcgen05) kernels are not modeled; state the "
                               "kernel by its parts (--instruction tcgen05 or tcgen05.2sm, --tile, --warps)")  # fmt: skip
        variant = "sm90" if "wgmma" in have else "sm80" if "mma.sync" in have else "simt"
        order = parse_order(raster)
        try:
            return cutlass_config(machine, dtype, kind=variant, tile=(tile.bm, tile.bn, tile.bk), stages=stages,
                                  cluster=cluster, swizzle=order.size if order.kind == "swizzle" else 1,
                                  warp_tile=reg_tile)  # fmt: skip
        except ProblemError as exc:
            raise ProblemError(f"--kernel cutlass: {exc}") from None
    return generic_config(machine, dtype, tile=tile, warps=warps, stages=stages, instruction=instruction,
                          register_tile=reg_tile, cluster=cluster, raster=raster, persistent=persistent)  # fmt: skip
