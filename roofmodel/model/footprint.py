"""What one CTA needs of an SM, and how many an SM holds: one rule, for a number or numpy arrays.

``analyze``, ``predict``, ``tune`` and ``explore`` all call these functions (issue 13: the rule
was written four times), so a configuration the search keeps is one the scalar model places.

Registers a compiled GEMM kernel needs per thread (before the compiler spills):

    needed = accumulators + operand fragments + staged copy + overhead

- accumulators: BM x BN x (registers per accumulator element) / (32 x warps);
- operand fragments, for instructions that read operands from registers (mma.sync, FMA): the
  CTA's BM x BK and BN x BK slices, (BM + BN) x BK x bytes / 4 / (32 x warps); wgmma reads its
  operands from shared memory and holds none;
- staged copy: where a stage is copied through registers to be laid out again (an operand stored
  against the layout the instruction reads, roofmodel.model.cta_model) or is not pipelined (an
  operand whose alignment is not known: prediction.unpipelined_operands), that part of the stage's
  bytes once more;
- element pointers: an operand whose alignment is not known is loaded one element at a time, and
  Triton keeps a 64-bit pointer per element across the loop: 2 registers per element of its
  BM x BK or BN x BK slice (where the alignment is known, one pointer serves 16 bytes). The
  training kernels' compiled counts choose 2 of 0-4 (median |error| 31 registers on 37 kernels that
  do not collapse, 30 on the held-out ones) as the pointer size says. They count up to the limit
  but make a kernel spill only past 2.3 x the limit, where ptxas gives up (pointer_registers), except
  that a wgmma kernel spills a K-major operand's pointers that do not fit, and so does an mma.sync or FMA
  kernel of 32-bit operands both K-major and so loaded, or an FMA one with both so loaded and one K-major
  (pointers_spill_at_the_limit), and an mma.sync kernel with a 16- or 8-bit one goes to 32 registers and the
  stack past 1.65 x (STACK_COLLAPSE: a compile study);
- overhead: addresses, masks, loop state, per instruction family.

The overheads are Triton's, fitted (the median of compiled - formula) on the training shapes of
the committed broad sweep (docs/measurements/h100-2026-11-23, kernels that do not spill);
tests/test_footprint.py holds the rule to the compiled counts of the H100's held-out kernels and of the
H200 sweep. Past the
architecture's per-thread limit a kernel spills: it is allocated the limit and the rest is local
memory, which the time model charges once per main-loop iteration (``loop_spilled``); it is never
refused for that. Where ptxas is known to spill more than the registers that do not fit (a wgmma kernel's K-major
element pointers below the collapse point, and past it its element pointers, K-major or, where the rest fits, M- or
N-major; a Triton mma.sync kernel whose accumulators pass the limit), the
rule spills a factor times them and charges the loop's waits on their reloads (factor_spills: the compiled loops'
medians; for the accumulators, a number of registers and of waits per mma.sync step along K: accumulator_spills). Given a Triton wgmma kernel's compiled counts, its spills are charged only where
what its loop holds by the rule does not fit the compiled allocation: ptxas spills first the values
the loop does not use (Nsight Compute's local-memory counters, docs/measurements/h100-2026-11-25/
spill_check).
"""

from __future__ import annotations

from typing import Any

from roofmodel.machine import Machine
from roofmodel.model.arrays import is_array as _is_array
from roofmodel.model.arrays import logical_not as _not
from roofmodel.model.arrays import maximum as _maximum
from roofmodel.model.arrays import minimum as _minimum
from roofmodel.model.arrays import next_pow2 as _next_pow2
from roofmodel.model.arrays import take as _take
from roofmodel.model.arrays import where as _where

# Registers per thread Triton 3.6 spends beyond accumulators, fragments and staging: the median of
# (compiled - formula) over the broad sweep's training-shape kernels that do not spill.
# The instruction families, in the order every per-family table and index uses.
FAMILIES: tuple[str, ...] = ("fma", "mma.sync", "wgmma", "tcgen05", "tcgen05.2sm", "mfma")
TRITON_REGISTER_OVERHEAD = {"wgmma": 48, "mma.sync": 31, "fma": 66}
# tcgen05 (Blackwell): no Triton kernel of it has been compiled here; wgmma's fitted overhead is assumed.
# mfma (AMD): no Triton kernel for AMD has been compiled here; mma.sync's (operands in registers) is assumed.
ASSUMED_REGISTER_OVERHEAD = {
    "tcgen05": TRITON_REGISTER_OVERHEAD["wgmma"],
    "tcgen05.2sm": TRITON_REGISTER_OVERHEAD["wgmma"],
    "mfma": TRITON_REGISTER_OVERHEAD["mma.sync"],
}
# Registers are allocated per warp in units of 256 (compute capability 5.0 and later): a thread's
# count rounds up to a multiple of 8 (CUDA Occupancy Calculator: allocation unit 256, per warp); AMD
# allocates a wavefront's VGPRs in blocks of 8 per lane too (ROCm MI300X workload optimization guide).
REGISTER_ALLOCATION_UNIT = 256
REGISTERS_PER_THREAD_GRANULE = 8
# An SM's register file is split over its four processing blocks (sub-partitions); a warp's
# registers come from the block it is scheduled on (cuda_occupancy.h, cudaOccMaxBlocksPerSMRegsLimit;
# every architecture from Volta on has four).
SUB_PARTITIONS = 4
# Shared memory the system reserves per block on compute capability 8.0 and later (1 KB;
# CUDA C++ Programming Guide, compute capabilities, shared memory).
SMEM_RESERVED_PER_BLOCK_SM80 = 1024
UNLIMITED = 10**9


def registers_needed(
    *,
    bm: Any,
    bn: Any,
    bk: Any,
    warps: Any,
    element_bytes: Any,
    accumulator_registers: float,
    operand_fragments: Any,
    staged: Any,
    overhead: Any,
    warp_size: int = 32,
) -> Any:
    """Registers per thread before spilling (see the module docstring):
    BM x BN x acc / T + fragments x (BM + BN) x BK x e / (4 T) + staged x (BM + BN) x BK x e / (4 T)
    + overhead, T = warp size (32; 64 on AMD) x warps. ``operand_fragments`` is 0/1; ``staged`` the
    share of the stage copied through registers (0..1)."""
    threads = warp_size * warps
    slice_regs = (bm + bn) * bk * element_bytes / (4.0 * threads)
    return (
        bm * bn * accumulator_registers / threads
        + slice_regs * (1 * operand_fragments)
        + slice_regs * (1 * staged)
        + overhead
    )


POINTER_REGISTERS = 2  # a 64-bit address
# Where the registers a thread needs, pointers included, pass this many times the per-thread limit, the
# pointers spill too. Chosen on the training kernels' compiled counts (docs/measurements/h100-2026-11-23,
# training shapes): the kernels that need up to 551 registers (2.2 x 255) compile with their pointers
# rematerialized (0-256 spills, the accumulators'), those that need 639 or more (2.5 x) spill 1,092 to 4,438.
POINTER_COLLAPSE = 2.3
# Past that point, where pointers of operands loaded one element at a time took it there, an mma.sync
# kernel is not given 255 registers: ptxas allocates 32 and puts the rest on the stack (every one of the
# training shapes' four such kernels: 32 registers, 1,092-4,438 spilled; reproduced on a CPU with Triton
# 3.6's compile for sm_90a: a 128x32x32 fp16 tile on 2 warps with both operands unaligned compiles to 32
# registers and a 2,176-byte stack frame with Triton 3.6's compile, 168 registers aligned; Triton 3.9's keeps 255). An aligned mma.sync kernel that passes
# the point on its own registers keeps 255. Either way the stack holds more than the registers that do not
# fit: the training shapes' nine such kernels spilled 1.8-2.6 x (needed - allocated), median 2.4 (four at
# 32 registers, five at 255). wgmma and FMA kernels past the point keep 255 and their own rules.
COLLAPSED_REGISTERS = 32
COLLAPSED_SPILL_FACTOR = 2.4
# A Triton kernel the rule sends to 32 registers and the stack (STACK_COLLAPSE, below) stores and reloads more than its
# stack holds, every iteration, and waits on those reloads as a counted loop does: over the read sweeps' 2,196 such
# kernels that compiled to 32 registers (H100 2026-11-23 to fresh18, H200 to fresh52 less the unread fresh51, the
# held-out shapes of 2026-11-23 left out; their loops' local bytes and waits counted in the SASS of the same kernels
# compiled again, loop_local.csv), the loop moves a median 2.89 x (needed - 32) registers an iteration and a warp
# waits on its local reloads 0.60 x (needed - 32) times (H100 and H200 alike: 2.894 and 0.597; by BK 32, 64, 128, 256:
# 2.29, 2.89, 2.94, 3.25 and 0.48, 0.58, 0.61, 0.68; ptxas's spill count, 2.09 x, is what the stack holds):
# benchmarks/stack_spill_rule.py. The rule had charged COLLAPSED_SPILL_FACTOR x (needed - 32) in the reload form of an
# uncounted mma.sync loop (cta_model.mma_sync_spill_reloads) and no wait, and `predict` had them at a median 1.14 of
# their measured time where both operands are loaded one element at a time and 0.56 where one is (as compiled, with
# the counts, 0.93 and 1.12). The rule keeps the stack's COLLAPSED_SPILL_FACTOR x (needed - 32) as the spilled count
# (the spill frames) and charges the loop STACK_LOOP_FACTOR x and STACK_WAITS x (needed - 32) as a counted one
# (loop_as_counted).
STACK_LOOP_FACTOR = 2.9
STACK_WAITS = 0.6
# Where the pointers are those of a 16- or 8-bit operand (loaded element-wise into registers, Triton's
# synchronous path), an mma.sync kernel collapses to 32 registers earlier: past STACK_COLLAPSE x the limit;
# a 32-bit one (copied by cp.async four bytes at a time) does not collapse, it spills at 255. Chosen on a
# compile study of shapes no measurement holds (benchmarks/compile_study.py, Triton 3.9's ptxas for sm_90a,
# docs/measurements/compile-study/triton-3.9/): of its 383 mma.sync kernels, 71 compiled to 32 registers and
# spilled; this way the rule says so for 79 (9 wrongly), against 52 (5 wrongly) at POINTER_COLLAPSE for every
# narrow operand. Compiled by Triton 3.6, the devices' toolchain, the rule is right for 374 of the 383.
STACK_COLLAPSE = 1.65
# And a wgmma kernel with a K-major operand loaded one element at a time spills the element pointers (all of
# its element-wise operands') that do not fit its registers well before POINTER_COLLAPSE (the same study: of its 338 wgmma kernels with a narrow
# operand, whether it spills is right for 299 against 264; an M- or N-major narrow operand's pointers are
# rematerialized about as often as not, and are left to the collapse point).
# Where it does spill them, ptxas spills more than the pointers that do not fit, and the loop waits on their
# reloads: over the read sweeps' wgmma kernels whose K-major pointers alone take them past the limit by the rule
# (1,309 kernels, H100 2026-11-23 to fresh18 and H200 to fresh44, the held-out shapes of 2026-11-23 left out; the
# loop's local bytes and waits counted in the SASS of the same kernels compiled again, loop_local.csv), the
# compiled loop stores and reloads a median 1.64 x as many registers per iteration as the pointers that do not fit
# (compiled spills 1.55 x; H100 1.66, H200 1.63), and a warp waits on its local reloads 0.30 x as many times an
# iteration (H100 0.295, H200 0.299): benchmarks/pointer_spill_rule.py. Where the rule charged the excess alone and
# no wait, `predict` had those kernels at a median 0.50 of their measured time (as compiled, with the counts,
# 1.02).
# Past POINTER_COLLAPSE, where a K-major operand's element pointers spill with everything else, the same factors on
# the rule's whole excess E (its accumulators' too): over the read sweeps' 626 such wgmma kernels (H100 2026-11-23 to
# fresh18, H200 to fresh48, the held-out shapes of 2026-11-23 left out; every one spilled as compiled, 255 registers),
# the compiled loop moves a median 1.76 x E an iteration (both GPUs) and a warp waits 0.30 x E times (H100 0.32, H200
# 0.30): benchmarks/pointer_spill_rule.py --collapsed. The rule had charged E once and no wait, and `predict` had them
# at a median 0.31 (H200) and 0.37 (H100) of their measured time (as compiled, with the counts, 0.96). So do the kernels
# past it whose operands loaded one element at a time are all M- or N-major, where the rest of their registers fits
# within POINTER_ALONE_TOLERANCE (pre-registered in 7ea165e, landed in 4b60f34): over the read sweeps' 79 (H100
# 2026-11-23 to fresh18, H200 to fresh69; every one spilled as compiled) the loop moves a median 1.85 x E and waits
# 0.40 x E (--collapsed-mn), and `predict`, charging E once and no wait, had them at 0.27 (H200) and 0.35 (H100). They
# are not one population: the 67 fp8 ones move 1.95 x and wait 0.44 x (the factors charge them short: 0.73 of their
# time after), the 12 fp16 and bf16 ones 1.37 x and 0.24 x (charged long: 1.32-1.59 after). Where the rest
# passes the limit too, 84 kernels move 1.42 x and wait 0.26 x, the 256x256 tiles on 8 warps 0.67 x and 0.01 x (their
# accumulators' fragments spill): the rule taking those too failed its judge (2722303, reverted).
POINTER_SPILL_FACTOR = 1.64
POINTER_SPILL_WAITS = 0.30
# The pointers are taken to spill alone (the factors on their excess) also where the registers such a kernel needs
# without them pass the limit by no more than this many: the register rule's median |compiled - rule| over the read
# sweeps' 21,340 wgmma kernels that do not spill (H100 2026-11-23 to fresh18, H200 to fresh50; p90 47), so that a
# smaller excess says nothing about whether ptxas spills the accumulators. Of the read sweeps' 276 wgmma kernels with
# K-major pointers spilled by the rule below POINTER_COLLAPSE and the rest past the limit too, the 88 past it by one
# register (fp16 and bf16 256x64x64 and 64x256x64 on 4 warps) move a median 1.76 x their pointer excess an iteration and
# wait 0.37 x it, as the kernels whose pointers alone spill do, and had been predicted at 0.40 of their time (the excess
# once, no wait); the 188 past it by 17 or more wait a median 0.09 x it (by how far past: 49, 0.06; 65, 0.11; 81, 0.05;
# 97, 0.21) and are predicted at 0.95-1.15 as they are, but for the one at 17 (fp8 256x128x256 on 8 warps), which
# moves and waits as the 88 do (1.66, 0.42): any tolerance from 17 to 48 would part the read kernels better, and 16
# was taken from the rule's error, not fitted to them (benchmarks/pointer_spill_rule.py --barely; pre-registered in
# 395a218).
POINTER_ALONE_TOLERANCE = 16
# A Triton mma.sync kernel whose accumulators alone, beside the overhead, pass the per-thread limit (BM x BN / threads
# + TRITON_REGISTER_OVERHEAD > 255: 128x128, 64x256 and 256x64 on two warps, twice those on four) and that the rule
# spills at 255 (not on the stack) spills far more than the registers the rule has past the limit (E), and its loop
# stores and reloads them and waits on them as a counted loop does, once per mma.sync step along K: over the read
# sweeps' 2,240 such kernels (H100 2026-11-23 to fresh18, H200 to fresh49, the held-out shapes of 2026-11-23 left
# out; every one spilled as compiled, all on two warps with 256 fp32 accumulators a thread), the compiled loop moves
# a median 101 registers an iteration per step along K (mma_sync_k_steps: s; H100 and H200 alike 101.2; by s = 2, 4,
# 8, 16: 85, 118, 124, 122) and a warp waits on its local reloads 6.5 times per step (by s: 7.5, 6.5, 6.1, 6.1):
# benchmarks/accumulator_spill_rule.py. Over E they are not steady (1.3-1.8 at s = 2, 3.5 at s = 8, 6.8 at s = 16,
# and 3.8-6.8 for fp8 with B K-major, whose E is smaller than with B N-major while its loop moves as much), and the
# rule that charged 2.18 x E and 0.15 x E (a0232fa, pre-registered in 36707e7) left `predict` at a median |log(predicted / measured)| of 0.23
# over them (fp8 with B K-major at 0.61 of measured); per step, 0.18 (pre-registered in fa0b077). The rule spills
# max(E, ACCUMULATOR_SPILL_PER_K_STEP x s), at least the registers that do not fit (never less on the read kernels),
# and charges the loop as a counted one (loop_as_counted): its frames reused in turn (prediction.cyclic_frames), no
# reload form. Where only the operand slices take a kernel past the limit its counts scatter (0.44 x the excess,
# p10-p90 a factor of 20) and the reload form stays.
ACCUMULATOR_SPILL_PER_K_STEP = 101
ACCUMULATOR_WAITS_PER_K_STEP = 6.5

# A register gamble: a kernel the rule puts past the per-thread limit only by the element pointers it expects
# ptxas to recompute, so it spills nothing by the rule; ptxas does not always (the study above: about as
# often as not for an M- or N-major operand; the mma.sync collapse). Of the measured sweeps' kernels the rule
# calls one, most spilled (tests/test_footprint.py counts them); predict, tune and rank say so beside it. The rankings
# by the rule alone (tune without --compile-top, rank, validate's first picks) put it after every configuration that
# is not one (pre-registered in 7e52c81, judged on fresh44 and the H100's held-out shapes: passed; tried first in
# 280cc9c, which fresh3 failed by 0.007 of its worst pick); tune --compile-top compiles in the order by time, since a
# compile resolves the gamble (docs/model.md).

REGISTER_GAMBLE = (
    "past the per-thread register limit by the rule only by the element pointers of operands loaded one element "
    "at a time, which ptxas may recompute and, in most of the measured kernels, did not (predict says more)"
)


def pointers_recomputed(fp: dict[str, Any]) -> dict[str, Any]:
    """A footprint (kernel_footprint's keys ``spilled``, ``pointer_spilled``) as it would be had ptxas recomputed the
    element pointers the rule spills (the bet on registers won, as a register gamble's time already is): spilled and
    loop_spilled less pointer_spilled, and no wait on them (tune --compile-top's order; ``loop_waits`` and
    ``loop_spilled``, where given, kept where no pointer spills: an mma.sync kernel's on its accumulators or on the
    stack). Numbers or numpy arrays."""
    won = fp["spilled"] - fp["pointer_spilled"]
    pointers = fp["pointer_spilled"] > 0
    waits = _where(pointers, 0 * won, fp.get("loop_waits", 0 * won))
    return {
        **fp,
        "spilled": won,
        "loop_spilled": _where(pointers, won, fp.get("loop_spilled", won)),
        "loop_waits": waits,
    }


def times_factor(excess: Any, factor: float) -> Any:
    """ceil(factor x excess) for a whole ``excess`` and a factor given to two places, in exact integer arithmetic
    (2.18 x 50 is 109.00000000000001 in floating point: 110 by a float ceiling). Numbers or numpy arrays."""
    return -(-(round(100 * factor) * excess) // 100)


def factor_spills(on: Any, spilled: Any, factor: float, waits: float) -> tuple[Any, Any, Any]:
    """Where ``on``, a rule that has ptxas spill more than the ``spilled`` registers past the limit and the loop wait
    on their reloads (POINTER_SPILL_FACTOR and WAITS): (the excess, ``spilled``
    where on else 0; the spilled registers, times_factor(excess, factor) where on else ``spilled``; the waits an
    iteration, waits x the excess, in exact hundredths of a whole excess: 0.30 x 736 is 220.8, where the float product
    reads 220.79999999999998 in the JSON). ``factor`` and ``waits`` are numbers given to two places (times_factor);
    ``on`` and ``spilled``, numbers or numpy arrays."""
    excess = _where(on, spilled, 0)
    return excess, _where(on, times_factor(excess, factor), spilled), round(100 * waits) * excess / 100


def mma_sync_k_steps(bk: Any, element_bytes: Any, native_8bit: Any = False) -> Any:
    """mma.sync instructions along K in one main-loop iteration of a Triton kernel: ceil(BK x e' / 32), one per 32
    bytes of K (m16n8k16 for 16-bit operands, m16n8k8 for tf32, m16n8k32 for int8), e' = e, but 2 for fp8: Triton on
    sm_90 converts fp8 to fp16 and issues m16n8k16 (cvt.rn.f16x2.e4m3x2 in the PTX of a 128x128x64 fp8 kernel on 2
    warps compiled with Triton 3.6). ``native_8bit``: an 8-bit operand mma.sync takes as it is (int8: no int8 kernel
    was measured)."""
    counted = _where(native_8bit, element_bytes, _maximum(element_bytes, 2))
    return -(-(bk * counted) // 32)


def accumulator_spills(on: Any, spilled: Any, k_steps: Any) -> tuple[Any, Any, Any]:
    """Where ``on`` (a Triton mma.sync kernel whose accumulators pass the limit), what its loop moves and waits on:
    (the excess, ``spilled`` where on else 0; the spilled registers, max(excess, ACCUMULATOR_SPILL_PER_K_STEP x
    ``k_steps``) where on, else ``spilled``; the waits an iteration, ACCUMULATOR_WAITS_PER_K_STEP x ``k_steps``
    where on, else 0). Numbers or numpy arrays."""
    excess = _where(on, spilled, 0)
    moved = _maximum(excess, ACCUMULATOR_SPILL_PER_K_STEP * k_steps)
    return excess, _where(on, moved, spilled), _where(on, ACCUMULATOR_WAITS_PER_K_STEP * k_steps, 0)


def past_limit_without_pointers(fp: dict[str, Any], limit: int) -> Any:
    """Registers by which a kernel's needs without its spilled K-major element pointers pass the per-thread ``limit``
    (kernel_footprint's ``needed`` and ``pointer_excess``): ceil(needed) - pointer_excess - limit, what
    POINTER_ALONE_TOLERANCE is held against where pointer_excess > 0 (0 or less: they fit). Numbers or arrays."""
    return -(-fp["needed"] // 1) - fp["pointer_excess"] - limit


def loop_as_counted(fp: dict[str, Any]) -> Any:
    """Whether a kernel's loop spills are charged as counted ones (no reload form, frames reused in turn): where the
    compiled loop's local bytes were counted (``loop_counted``), or where the rule charged a Triton mma.sync kernel's
    spilled accumulators as such a loop (``accumulator_excess`` > 0: accumulator_spills) or a kernel it sends to the stack
    (``stack_excess`` > 0: STACK_LOOP_FACTOR). Numbers or arrays."""
    return fp.get("loop_counted", False) | (fp.get("accumulator_excess", 0) > 0) | (fp.get("stack_excess", 0) > 0)


# A Triton mma.sync or FMA kernel of 32-bit operands (tf32, fp32: cp.async copies them four bytes at a time) with both
# operands K-major and loaded one element at a time (K not a multiple of 16 elements) spills the element pointers that
# do not fit its registers, as a wgmma kernel spills its K-major ones: over the read sweeps (H100 2026-11-23 to
# fresh18, H200 to fresh61 less fresh51; benchmarks/wide_pointer_rule.py) the kernels of that class the rule put past
# the limit only by their pointers, below POINTER_COLLAPSE, spilled as compiled in 287 of 297 (tf32 mma.sync 146 of
# 156, compiled spills a median 1.44 x the registers past the limit; fp32 FMA 141 of 141, 2.06 x), where `predict` had bet on
# ptxas recomputing them (a register gamble) and had the tf32 ones at 0.38 of their measured time. The rule spills the
# registers past the limit, pointers among them, once (no factor: the loop's charge is an mma.sync kernel's reload form
# or an FMA kernel's once an iteration; pre-registered in db69df7). The other layouts stay a gamble: with one operand
# so loaded and K-major, the other M- or N-major or aligned, 245 of 337 spilled (mma.sync A K-major, B N-major 95 of 133,
# compiled spills a median 0.95 x the excess), and a rule that spilled those too failed its judge on fresh63 (15171f7,
# reverted in d3ce308: tf32 A K-major, B N-major kernels put at 1.69-3.10 x their time); where every operand so loaded
# is M- or N-major, 86 of 192. An FMA kernel with both operands so loaded and one of them K-major spills them too
# (pre-registered in 76ea5e4, landed in 1bbe824): of those past the limit only by their pointers, A K-major and B
# N-major spilled in 75 of 103 (1.30 x the excess), A M-major and B K-major in 26 of 31; where the rest passed the
# limit too the rule had counted no pointer (fp32 128x128x32 on 4 warps: 3 spilled by the rule, 182-224 compiled).
# mma.sync's stay bets: with those FMA kernels out, the one-K-major bets are 144 of 203 spilled.


def pointers_spill_at_the_limit(family: Any, element_bytes: int, a_m_major: Any, b_n_major: Any, narrow_rows: Any,
                                bm: Any, bn: Any) -> Any:  # fmt: skip
    """Whether a Triton kernel's element pointers that pass the per-thread limit spill (below POINTER_COLLAPSE, where
    all do) rather than being recomputed: an mma.sync or FMA kernel of 32-bit operands, both K-major and both loaded
    one element at a time (``narrow_rows`` = BM + BN: K not a multiple of 16 elements), and an FMA one with both so
    loaded and one of them K-major (A K-major and B N-major with K and N not multiples of 16 elements, or A M-major
    and B K-major with M and K not). A wgmma kernel's K-major ones spill by their own rule (factor_spills). Numbers
    or numpy arrays."""
    mma_sync, fma = family == FAMILIES.index("mma.sync"), family == FAMILIES.index("fma")
    both_k_major = _not(a_m_major) & _not(b_n_major)
    one_k_major = _not(a_m_major) | _not(b_n_major)
    both_narrow = narrow_rows == bm + bn
    return (element_bytes == 4) & both_narrow & (((mma_sync | fma) & both_k_major) | (fma & one_k_major))


def past_collapse_point(needed: Any, limit: Any) -> Any:
    """Whether a kernel's registers by the rule, its element pointers included (kernel_footprint's ``needed``), pass
    POINTER_COLLAPSE x the per-thread ``limit``, where ptxas no longer rematerializes those pointers and spills them
    with the rest. Numbers or numpy arrays."""
    return needed > POINTER_COLLAPSE * limit


def pointer_registers(narrow_rows: Any, bk: Any, threads: Any) -> Any:
    """2 x narrow rows x BK / T: the 64-bit pointers Triton keeps per element of the operands loaded
    one element at a time (``narrow_rows``: BM for A, BN for B). They fill registers up to the limit
    but do not make a kernel spill, up to POINTER_COLLAPSE x the limit: ptxas recomputes an address
    rather than spill it (the alignment check of 2026-11-25: 128x256x64 fp16 on 8 warps with B loaded
    element-wise compiles to 255 registers and no spills, where counting the pointers as needed would
    spill 128); but see STACK_COLLAPSE and kernel_footprint for K-major operands under wgmma."""
    return POINTER_REGISTERS * narrow_rows * bk / threads


# Threads that share one register-level tile, per family (FAMILIES order): a thread, a warp, a
# warpgroup; for tcgen05 the warpgroup whose four warps read the accumulator's 128 tensor-memory
# lanes (a warp reaches only its own 32 lanes: PTX ISA, tcgen05.ld).
UNIT_THREADS = (1, 32, 128, 128, 128, 64)  # mfma: a 64-lane wavefront (CDNA runs MFMA in wave64)
# Whether the accumulator is held in registers (tcgen05 holds it in tensor memory).
ACCUMULATOR_IN_REGISTERS = (1, 1, 1, 0, 0, 1)
# The share of B's tile a CTA holds in shared memory: half for tcgen05's two-SM form (cta_group::2),
# where each CTA of the pair loads half of B's columns and the MMA reads both halves.
B_SHARE = (1.0, 1.0, 1.0, 1.0, 0.5, 1.0)
# Tensor memory per SM: 512 columns of 32-bit cells per lane, allocated per CTA in a power of two of at
# least 32 columns (PTX ISA, tcgen05.alloc).
TMEM_MIN_COLUMNS = 32
# What the model assumes a hand-written kernel spends on addresses and loop state (``analyze`` and
# ``predict --kernel stated``); Triton's own overheads are TRITON_REGISTER_OVERHEAD.
STATED_REGISTER_OVERHEAD = 16


def tile_registers(
    family: Any, rm: Any, rn: Any, element_bytes: int, accumulator_registers: float, k_step: Any
) -> tuple[Any, Any]:
    """(accumulator, operand) registers per thread that hold an rm x rn register-level tile and one
    instruction step of its operands, numbers or numpy arrays:

    FMA (a thread's tile, seed 000 §5.1.2): rm x rn x acc, and rm + rn operands of max(1, e / 4) registers;
    mma.sync (a warp's, seed 004): rm x rn x acc / 32, and (rm + rn) x k x e / 128 (one k step);
    wgmma (a warpgroup's): rm x rn x acc / 128; its operands stay in shared memory;
    tcgen05: none (the accumulator is in tensor memory, the operands in shared memory)."""
    acc = rm * rn * accumulator_registers * _take(ACCUMULATOR_IN_REGISTERS, family) / _take(UNIT_THREADS, family)
    per_thread = (rm + rn) * max(1, element_bytes // 4)
    # a warp's (wavefront's) one k-step of A and B fragments, 4 B a register, over its lanes
    per_warp = (rm + rn) * k_step * element_bytes / (4.0 * _take(UNIT_THREADS, family))
    fragments = _take(OPERAND_FRAGMENTS, family)
    operands = _where(family == 0, per_thread, _where(fragments == 1, per_warp, 0.0))
    return acc, operands


def allocated_and_spilled(needed: Any, limit: int) -> tuple[Any, Any]:
    """(registers allocated per thread, registers spilled per thread): min(ceil(needed), limit) and
    max(0, ceil(needed) - limit)."""
    whole = -(-needed // 1)
    return _minimum(whole, limit), _maximum(whole - limit, 0)


def smem_reserved_per_block(machine: Machine) -> int:
    cc = machine.nvidia_capability
    return SMEM_RESERVED_PER_BLOCK_SM80 if cc is not None and cc[0] >= 8 else 0


def tmem_columns(family: Any, bm: Any, bn: Any, accumulator_registers: float) -> Any:
    """Tensor-memory columns one CTA allocates for its BM x BN accumulator (0 where the family keeps
    it in registers): ceil(BM / 128) x BN x cells per element (128 lanes hold 128 rows; an fp16
    accumulator is taken to pack two to a 32-bit cell, as in registers), rounded up to a power of
    two of at least 32 (PTX ISA, tcgen05.alloc)."""
    need = -(-bm // 128) * bn * accumulator_registers
    alloc = _next_pow2(_maximum(need, TMEM_MIN_COLUMNS))
    return _where(_take(ACCUMULATOR_IN_REGISTERS, family) == 0, alloc, 0)


def cta_limits(
    machine: Machine, threads: Any, registers_per_thread: Any, smem_bytes: Any, tmem_cols: Any = 0
) -> dict[str, Any]:
    """CTAs per SM each limit allows (numbers or numpy arrays of integers):

    blocks          = the SM's block limit
    threads         = floor(threads per SM / threads per CTA)
    warps           = floor(warps per SM / warps per CTA)
    registers       = floor(SUB_PARTITIONS x floor(registers per SM / SUB_PARTITIONS / registers per
                      warp) / warps per CTA), registers per warp = ceil(W x regs / 8W) x 8W, W the warp size
    shared memory   = floor(smem per SM / (smem per CTA + reserved)), unlimited without smem
    tensor memory   = floor(columns per SM / columns per CTA) (tmem_columns), unlimited without
    """
    lim = machine.limits
    ws = machine.warp_size
    unit = REGISTERS_PER_THREAD_GRANULE * ws
    warps = -(-threads // ws)
    per_warp = -(-(registers_per_thread * ws) // unit) * unit
    per_partition = (lim.registers_per_sm.n // SUB_PARTITIONS) // _maximum(per_warp, 1)
    used = smem_bytes + smem_reserved_per_block(machine)
    by_smem = int(machine.memory.smem.capacity_per_sm.bytes) // _maximum(used, 1)
    blocks = lim.max_blocks_per_sm.n
    out = {
        "blocks": threads * 0 + blocks if _is_array(threads) else blocks,
        "threads": lim.max_threads_per_sm.n // threads,
        "warps": lim.max_warps_per_sm.n // warps,
        "registers": (SUB_PARTITIONS * per_partition) // warps,
        "shared memory": _where(smem_bytes > 0, by_smem, UNLIMITED),
    }
    tmem = machine.memory.tmem
    if tmem is not None:  # a machine with tensor memory: the columns the CTA's accumulator allocates
        out["tensor memory"] = _where(tmem_cols > 0, tmem.columns // _maximum(tmem_cols, 1), UNLIMITED)
    return out


def ctas_per_sm(machine: Machine, threads: Any, registers_per_thread: Any, smem_bytes: Any, tmem_cols: Any = 0) -> Any:
    """The least of cta_limits: how many CTAs one SM holds (0: the CTA does not fit)."""
    out = None
    for v in cta_limits(machine, threads, registers_per_thread, smem_bytes, tmem_cols).values():
        out = v if out is None else _minimum(out, v)
    return out


def registers_fit(machine: Machine, threads: Any, registers_per_thread: Any) -> Any:
    """Whether one CTA's registers fit an SM's register file as cta_limits allocates it (per warp,
    over the four sub-partitions), registers_per_thread rounded up to whole registers."""
    return cta_limits(machine, threads, -(-registers_per_thread // 1), 0)["registers"] >= 1


def fits_block(machine: Machine, threads: Any, smem_bytes: Any) -> Any:
    """Whether a CTA is launchable at all: 1..max threads per block and its shared memory within
    the per-block maximum (registers never refuse: past the limit the kernel spills)."""
    lim = machine.limits
    ok_threads = (threads >= machine.warp_size) & (threads <= lim.max_threads_per_block.n)
    ok_smem = smem_bytes <= machine.memory.smem.max_per_block.bytes
    return ok_threads & ok_smem


# Per instruction family, in FAMILIES order (fma, mma.sync, wgmma): whether the
# operands are read from registers, and the shared-memory buffers Triton 3.6 allocates per
# num_stages (the broad sweep's compiled sizes: num_stages - 1 tiles for the register-operand
# families, num_stages for wgmma, whose in-flight MMA reads one more).
OPERAND_FRAGMENTS = (1, 1, 0, 0, 0, 1)
# tcgen05: no Triton kernel compiled here; taken as wgmma's (num_stages buffers).
EXTRA_BUFFERS = (-1, -1, 0, 0, 0, -1)


def stage_buffers(family: Any, stages: Any) -> Any:
    """Shared-memory tiles a Triton kernel allocates: max(1, num_stages - 1), or num_stages (wgmma)."""
    return _maximum(stages + _take(EXTRA_BUFFERS, family), 1)


# Where a Triton wgmma kernel of 16-bit operands at BK 32 (two wgmma steps along K an iteration) has warpgroups that
# each hold two m64n256 fp32 accumulator fragments of 128 registers (a warpgroup tile of 128 x 256: BM x BN = 256 x 256
# on 8 warps, 128 x 256 on 4), both operands aligned, ptxas may not rotate the fragments that do not fit: one stays
# resident and the loop brings the other in for its wgmmas, the registers past the limit spilling too while both are in
# (spilled_at: 128 + 49 = 177, on 8 warps and on 4). Which of the two it does follows the operands' layouts and the
# stage count (benchmarks/fragment_spill_rule.py, the read sweeps: H100 2026-11-23 to fresh18, H200 to fresh59 less
# fresh51; their compile counts include 26 aligned kernels of the held-out shapes of 2026-11-23, 28 in all, whose
# reports are then not independent of it):
# - on 8 warps, one resident but with both operands K-major at SINGLE_FRAGMENT_ROTATES_AT stages: of 243 such aligned
#   kernels, 212 compiled to 158-174 spilled registers, their loops moving a median 162 an iteration (loop_local.csv),
#   28 to 256 (every one both K-major at 2 stages, 28 of the 29 such ones), 3 to 458-544;
# - on 4 warps, one resident only with B N-major, at up to SINGLE_FRAGMENT_STAGES_B_N stages where A is K-major and at
#   every stage count where A is M-major: of 214 such aligned kernels, 70 compiled to 170-180 (loops a median 172 an
#   iteration), 2 of the 72 the rule keeps resident rotated (256: both A K-major at 2 stages, decode shapes of M 13 and
#   33), and the 142 of every other layout and stage count rotated, 256-274.
# The rotation rule's 256 had `predict` at a median 1.65 x the measured time of the 8-warp ones and 1.6 x the 4-warp
# ones (as compiled, with the counts, 1.1), and the one-resident rule's 177 had the 8-warp both-K-major ones at 2 stages
# at 0.77. The 8-warp rule was judged on fresh56 and fresh57 (0f9b71f), its exception and the 4-warp rule on fresh60 and
# fresh61 (pre-registered in 5975902). With an operand loaded one element at a time none of the read ones kept one
# resident (8 warps: 20 rotated, 36 spilled 338-574 with their pointers; 4 warps: 26 rotated, 24 spilled 354-502): left
# to the rotation. At BK 64, in fp8 at BK 64 or in tf32 the same warpgroup tile rotates (256-280 compiled, as the rule
# says). No sweep ran 6 stages, which the search enumerates; Triton 3.6's compile for sm_90a of both tiles in the four
# layouts at 6 stages (4096^3, on a CPU) agrees with the rule in all eight (4 warps: 170 A M-major B N-major, 256 the
# rest; 8 warps: 158-174).
SINGLE_FRAGMENT_BK = 32
SINGLE_FRAGMENT_ROTATES_AT = 2  # stages where 8 warps with both operands K-major rotate
SINGLE_FRAGMENT_STAGES_B_N = 3  # the most stages at which 4 warps with A K-major and B N-major keep one resident


def accumulator_fragment_registers(rn: Any, accumulator_registers: float) -> Any:
    """Registers a thread holds of one m64n``rn`` wgmma accumulator fragment: 64 x rn x acc / 128 (a warpgroup's 128
    threads), 128 for m64n256 in fp32. Numbers or numpy arrays."""
    return 64 * rn * accumulator_registers / 128


def fragments_take_turns(
    family: Any,
    element_bytes: int,
    bk: Any,
    warps: Any,
    rm: Any,
    rn: Any,
    accumulator_registers: float,
    compiler: str,
    narrow_rows: Any = 0,
    a_m_major: Any = False,
    b_n_major: Any = True,
    stages: Any = 3,
) -> Any:
    """Whether the wgmma accumulator fragments past the limit take turns (spilled_at: twice the whole fragments
    that do not fit): everywhere but a Triton kernel of 16-bit operands, both aligned (``narrow_rows`` 0), at BK =
    SINGLE_FRAGMENT_BK whose warpgroups hold two m64n256 fp32 fragments of 128 registers (``rm`` x ``rn`` = 128 x 256),
    which keeps one resident on 8 warps, but with both operands K-major at SINGLE_FRAGMENT_ROTATES_AT stages, and on 4
    warps with B N-major (``b_n_major``), at up to SINGLE_FRAGMENT_STAGES_B_N stages where A is K-major and at any with
    A M-major (``a_m_major``). Numbers or numpy arrays."""
    if compiler != "triton" or element_bytes != 2 or accumulator_registers != 1.0 or rm is None or rn is None:
        return True
    tile = (family == FAMILIES.index("wgmma")) & (bk == SINGLE_FRAGMENT_BK) & (rm == 128) & (rn == 256)
    both_k_major = _not(a_m_major) & _not(b_n_major)
    eight = (warps == 8) & _not(both_k_major & (stages == SINGLE_FRAGMENT_ROTATES_AT))
    four = (warps == 4) & b_n_major & ((stages <= SINGLE_FRAGMENT_STAGES_B_N) | a_m_major)
    return _not(tile & (narrow_rows == 0) & (eight | four))


def spilled_at(
    live: Any,
    allocated: Any,
    stack: Any,
    family: Any,
    bm: Any,
    bn: Any,
    rn: Any,
    accumulator_registers: float,
    threads: Any,
    turns: Any = True,
) -> Any:
    """Registers per thread the rule spills when ``live`` registers meet ``allocated`` ones: the
    excess; on the stack (``stack``) COLLAPSED_SPILL_FACTOR x it; wgmma in whole accumulator
    fragments that take turns (below), but where ``turns`` is False (fragments_take_turns), the whole
    fragments that do not fit once and the excess beside them."""
    spilled = _maximum(-(-live // 1) - allocated, 0)
    spilled = _where(stack, -(-COLLAPSED_SPILL_FACTOR * _maximum(live - allocated, 0) // 1), spilled)
    if rn is None:
        return spilled
    # A wgmma instruction needs its whole accumulator fragment (64 x N / 128 per thread) at
    # once: Triton spills whole fragments (the broad sweep's training kernels: mean |error|
    # of the spill count 19.8 registers counting the excess alone, 14.9 in whole fragments).
    # And the fragments take turns: while one is out another comes in, so twice the fragments
    # that do not fit get a place in local memory, up to all of them (128x256x64 on four warps:
    # two fragments of 128, one does not fit, 256 spilled; the training kernels' wgmma spill
    # counts: mean |error| 92 -> 66 registers, the held-out ones 117 -> 73).
    block = _where(family == 2, accumulator_fragment_registers(rn, accumulator_registers), 1)
    whole = -(-spilled // block) * block
    # Where they do not take turns (``turns`` False), one stays resident and the loop brings the other in for its
    # wgmmas: the registers past the limit spill as well while both are in, the whole fragments out plus the excess.
    accumulators = bm * bn * accumulator_registers / threads
    rotated = _where(turns, _minimum(2 * whole, _maximum(accumulators, whole)), _minimum(whole + spilled, accumulators))
    return _where(family == 2, rotated, whole) + 0.0  # + 0.0: no -0.0 from the ceiling divisions


def kernel_footprint(
    machine: Machine,
    *,
    bm: Any,
    bn: Any,
    bk: Any,
    warps: Any,
    stages: Any,
    family: Any,
    element_bytes: int,
    accumulator_registers: float,
    staged: Any,
    register_overhead: Any = None,
    compiler: str = "triton",
    rm: Any = None,
    rn: Any = None,
    k_step: Any = None,
    registers: Any = None,
    spilled: Any = None,
    shared_bytes: Any = None,
    single_a: Any = False,
    single_b: Any = False,
    narrow_rows: Any = 0,
    narrow_k_major: Any = False,
    loop_local_bytes: Any = None,
    loop_local_waits: Any = None,
    native_8bit: Any = False,
    a_m_major: Any = False,
    b_n_major: Any = True,
) -> dict[str, Any]:
    """What one CTA of a kernel needs and how many an SM holds, numbers or numpy arrays (``rn``:
    the register-level tile's N, which sets wgmma's spill granularity):
    ``needed`` registers per thread (registers_needed; the compiled count plus its spills where
    ``registers`` is given), ``registers`` allocated, ``spilled``, ``gamble`` (register_gamble; False
    where the compiled counts are given), ``loop_spilled`` (those reloaded
    every main-loop iteration: all of them, but none of a Triton wgmma kernel's compiled spills where
    ``loop_needed``, what its loop holds by the rule, fits the compiled allocation; ``loop_needed`` is
    None for a stated kernel given its compiled counts; where ``loop_local_bytes`` is given, the bytes of local
    memory each thread loads and stores in one pass of the compiled main loop, read from its SASS
    (triton_compile.main_loop_local_bytes), it is those bytes / 8, a 4-byte store and reload each, and
    ``loop_counted`` is True), ``loop_waits`` (where the loop's local
    traffic is given, ``loop_local_waits``: the times per iteration a warp waits on its own local reloads,
    triton_compile.local_reload_waits, a Triton mma.sync kernel's too; without compiled counts, the register rule's
    (factor_spills); else 0), ``pointer_excess``, ``pointer_spilled``, ``collapse_excess`` and ``accumulator_excess``
    (the rules that spill a factor times the registers past the limit: 0 where none applies, and where compiled
    counts are given; ``collapse_mn_major``: collapse_excess is M- or N-major element pointers'), ``shared_bytes`` (the compiled
    size where given, else buffers x (BM + BN) x BK x bytes: Triton's stage_buffers, else the stages), ``threads``, ``ctas_per_sm``,
    and ``fits`` (launchable: fits_block, and at least one CTA per SM). ``family`` indexes
    FAMILIES. ``compiler``: ``triton`` (and ``cutlass``, assumed alike) takes
    registers_needed with Triton's overheads (``register_overhead`` overrides); ``stated`` (a
    hand-written kernel) the register-level tile's own registers (tile_registers: ``rm``, ``rn``,
    ``k_step``) plus STATED_REGISTER_OVERHEAD, as ``analyze`` counts them. ``native_8bit``: an 8-bit operand is one
    mma.sync takes as it is (int8), not converted to fp16 first (fp8: mma_sync_k_steps). ``a_m_major``, ``b_n_major``:
    the operands' layouts (torch.matmul's by default), which with the stage count decide whether a Triton wgmma kernel
    keeps an accumulator fragment resident (fragments_take_turns)."""
    limit = machine.limits.max_registers_per_thread.n
    threads = machine.warp_size * warps
    rule_registers = rule_spilled = None
    stack, pointer_excess, pointer_spilled, rule_waits = False, 0, 0, 0
    single_fragment: Any = False  # a wgmma kernel's fragments past the limit spilled once (fragments_take_turns)
    fragment_excess: Any = 0  # a wgmma kernel's registers past the limit where whole fragments spilled (spilled_at)
    pointers_at_limit: Any = False  # element pointers spilled where they pass the limit (pointers_spill_at_the_limit)
    accumulator_excess: Any = 0
    collapse_excess: Any = 0
    collapse_mn_major: Any = False  # collapse_excess charged to M- or N-major element pointers alone
    stack_excess: Any = 0
    counted: Any = False  # loop_spilled is the compiled loop's counted local bytes / 8
    loop_waits: Any = 0  # times per iteration a warp waits on its local reloads (counted in the SASS)
    if compiler == "stated" and registers is None:
        acc, operands = tile_registers(family, rm, rn, element_bytes, accumulator_registers, k_step)
        overhead = STATED_REGISTER_OVERHEAD if register_overhead is None else register_overhead
        needed = acc + operands + overhead
        rule_registers, rule_spilled = allocated_and_spilled(needed, limit)
    elif compiler != "stated":
        if register_overhead is None:
            overheads = {**TRITON_REGISTER_OVERHEAD, **ASSUMED_REGISTER_OVERHEAD}
            register_overhead = _take(tuple(overheads[f] for f in FAMILIES), family)
        needed = registers_needed(
            bm=bm, bn=bn, bk=bk, warps=warps, element_bytes=element_bytes,
            accumulator_registers=accumulator_registers * _take(ACCUMULATOR_IN_REGISTERS, family),
            operand_fragments=_take(OPERAND_FRAGMENTS, family),
            staged=staged, overhead=register_overhead, warp_size=machine.warp_size,
        )  # fmt: skip
        if rm is not None and rn is not None:
            # Where an FMA dot's accumulators alone (BM x BN / threads) leave no room under the limit
            # beside the overhead, ptxas spills the unrolled K step's operands as well: the training
            # kernels' compiled counts (128x128 on 2 warps, BK 16-64: 1,403 to 4,743 registers needed)
            # follow accumulators + 2 x (rm + rn) x BK + overhead within 12%, the rule above 3-5x short.
            acc_alone = bm * bn * accumulator_registers / threads
            collapse = (family == 0) & (acc_alone + register_overhead > limit)
            needed = _where(collapse, acc_alone + 2 * (rm + rn) * bk + register_overhead, needed)
        hard = needed
        needed = hard + pointer_registers(narrow_rows, bk, threads)
        # Past POINTER_COLLAPSE x the limit ptxas no longer rematerializes the pointers: the kernel spills
        # them with the rest.
        collapsed = past_collapse_point(needed, limit)
        # A Triton mma.sync or FMA kernel of 32-bit operands both K-major and so loaded (an FMA one: one K-major) spills
        # the pointers that do not fit.
        wide_k = pointers_spill_at_the_limit(family, element_bytes, a_m_major, b_n_major, narrow_rows, bm, bn) & (
            compiler == "triton"
        )
        live = _where(collapsed | wide_k, needed, hard)
        rule_registers = _minimum(-(-needed // 1), limit)
        # An mma.sync kernel goes to the stack where the pointers of a 16- or 8-bit operand take it past
        # STACK_COLLAPSE x the limit (32 registers), or where it passes POINTER_COLLAPSE otherwise (17 of the
        # sweeps' mma.sync kernels, aligned: 255 registers and the stack).
        mma_sync = family == FAMILIES.index("mma.sync")
        small_narrow = (narrow_rows > 0) & (element_bytes < 4)
        stack_narrow = mma_sync & small_narrow & (needed > STACK_COLLAPSE * limit)
        stack = stack_narrow | (mma_sync & collapsed)
        live = _where(stack_narrow, needed, live)
        rule_registers = _where(stack_narrow, COLLAPSED_REGISTERS, rule_registers)
        # A Triton kernel on the stack: its loop charged STACK_LOOP_FACTOR x and STACK_WAITS x (needed - 32).
        stack_excess = _where(
            stack_narrow & (compiler == "triton"), _maximum(-(-needed // 1) - COLLAPSED_REGISTERS, 0), 0
        )
        turns = fragments_take_turns(family, element_bytes, bk, warps, rm, rn, accumulator_registers, compiler,
                                     narrow_rows, a_m_major, b_n_major, stages)  # fmt: skip
        rule_spilled = spilled_at(live, rule_registers, stack, family, bm, bn, rn, accumulator_registers, threads,
                                  turns)  # fmt: skip
        single_fragment = _not(turns) & (rule_spilled > 0)
        pointers_at_limit = wide_k & _not(collapsed) & (-(-needed // 1) > _maximum(-(-hard // 1), limit))
        # The registers past the limit where a wgmma kernel's whole accumulator fragments spill in their place (in
        # turns, or one resident: more than them either way), for the JSON's spill_rule_excess.
        fragment_excess = _where((family == FAMILIES.index("wgmma")) & _not(stack) & (rule_spilled > 0),
                                 _maximum(-(-live // 1) - rule_registers, 0), 0)  # fmt: skip
        wgmma_k = (family == FAMILIES.index("wgmma")) & narrow_k_major & _not(collapsed)
        pointer_excess = _where(wgmma_k, _maximum(-(-needed // 1) - _maximum(-(-hard // 1), rule_registers), 0), 0)
        # Where the accumulators fit beside the overhead (the kernels the factors were fitted on), or pass the limit by no
        # more than the rule's own error (POINTER_ALONE_TOLERANCE), the pointers' spills and waits by
        # POINTER_SPILL_FACTOR and POINTER_SPILL_WAITS; where they spill too, the excess alone.
        alone = -(-hard // 1) <= rule_registers + POINTER_ALONE_TOLERANCE
        _, pointer_spilled, rule_waits = factor_spills(alone, pointer_excess, POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS)
        rule_spilled = rule_spilled + pointer_spilled
        # Past POINTER_COLLAPSE, where those pointers spill with the rest, the same factors on the whole excess; where
        # the operands loaded one element at a time are all M- or N-major, only where the rest fits as above (alone):
        # past it, their accumulators' fragments spill in the pointers' place.
        wgmma_triton = (family == FAMILIES.index("wgmma")) & (compiler == "triton")
        collapsed_narrow = wgmma_triton & (narrow_rows > 0) & collapsed
        collapse_mn_major = collapsed_narrow & _not(narrow_k_major) & alone
        collapse_excess, rule_spilled, waits = factor_spills(collapsed_narrow & (narrow_k_major | alone), rule_spilled,
                                                             POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS)  # fmt: skip
        rule_waits = rule_waits + waits
        # A Triton mma.sync kernel whose accumulators pass the limit beside the overhead, at 255 (not the stack): its
        # loop moves ACCUMULATOR_SPILL_PER_K_STEP and waits ACCUMULATOR_WAITS_PER_K_STEP per mma.sync step along K, as a
        # counted loop (accumulator_spills).
        acc_regs = bm * bn * accumulator_registers / threads
        accumulators_past = (mma_sync & _not(stack) & (-(-(acc_regs + register_overhead) // 1) > limit)
                             & (compiler == "triton"))  # fmt: skip
        accumulator_excess, rule_spilled, waits = accumulator_spills(accumulators_past, rule_spilled,
                                                                     mma_sync_k_steps(bk, element_bytes, native_8bit))  # fmt: skip
        rule_waits = rule_waits + waits + round(10 * STACK_WAITS) * stack_excess / 10  # exact tenths (6 x E / 10)
    loop_needed = needed if rule_registers is not None else None
    gamble: Any = False
    if registers is None:
        registers, spilled = rule_registers, rule_spilled
        loop_spilled = _where(stack_excess > 0, times_factor(stack_excess, STACK_LOOP_FACTOR), spilled)
        # A wgmma kernel's waits on its spilled K-major pointers (POINTER_SPILL_WAITS; past the collapse point, on
        # its whole excess, and on an M- or N-major operand's where the rest fits), an mma.sync kernel's on its spilled
        # accumulators (ACCUMULATOR_WAITS_PER_K_STEP).
        loop_waits = rule_waits
        # Past the limit by the rule, yet not spilled by it: the element pointers are what the rule expects
        # ptxas to recompute (register_gamble).
        gamble = (needed > limit) & (spilled == 0)  # ceil(needed) > limit, the limit being whole
    else:
        stack, pointer_excess, pointer_spilled = False, 0, 0  # the compiled counts say what ptxas did
        single_fragment = pointers_at_limit = False
        accumulator_excess = collapse_excess = stack_excess = fragment_excess = 0
        collapse_mn_major = False
        spilled = 0 if spilled is None else spilled
        loop_spilled = spilled
        if compiler == "triton":
            # ptxas spills first what the main loop does not touch (the epilogue's addresses and masks):
            # where all a wgmma kernel's loop holds by the rule (accumulators, overhead, element pointers)
            # fits its compiled allocation, none of its compiled spills is reloaded per iteration; where
            # it does not, all are (docs/measurements/h100-2026-11-25/spill_check: Nsight Compute's local
            # loads and stores per iteration are 0.8-3.5% of the compiled count for the four kernels whose
            # loop fits, 36-195% where it does not). mma.sync and FMA keep them all: the rule counts one
            # k step of their operand fragments, not the unrolled K step ptxas holds.
            fits_loop = (family == FAMILIES.index("wgmma")) & (-(-needed // 1) <= registers)
            loop_spilled = _where(fits_loop, 0, spilled)
        if loop_local_bytes is not None:
            # The compiled loop's own local loads and stores, counted in its SASS, in place of the rules, for every
            # family: a Triton mma.sync kernel's too, whose fitted reload form (cta_model.mma_sync_spill_reloads)
            # is left to a loop that was not counted. Its frames are then reused in turn (prediction.cyclic_frames).
            counted = True
            loop_spilled = loop_local_bytes / 8.0
            if loop_local_waits is not None:
                # Every counted loop's waits on its own reloads bound its iteration from below (spill_wait, measured on
                # wgmma and mma.sync tiles alike), a Triton mma.sync kernel's too.
                loop_waits = loop_local_waits
        needed = registers + spilled
    if shared_bytes is None:
        # Triton allocates stage_buffers tiles; CUTLASS's stage count and a stated kernel's are buffers.
        # An operand Triton does not pipeline (single_a, single_b: prediction.unpipelined_operands)
        # has one buffer.
        buffers = stage_buffers(family, stages) if compiler == "triton" else stages
        rows = bm * _where(single_a, 1, buffers) + bn * _take(B_SHARE, family) * _where(single_b, 1, buffers)
        shared_bytes = rows * bk * element_bytes
    tmem = tmem_columns(family, bm, bn, accumulator_registers)
    ctas = ctas_per_sm(machine, threads, _maximum(_minimum(registers, limit), 1), shared_bytes, tmem)
    fits = fits_block(machine, threads, shared_bytes) & (ctas >= 1)
    return {
        "needed": needed,
        "registers": registers,
        "spilled": spilled,
        "loop_spilled": loop_spilled,
        "loop_needed": loop_needed,
        "loop_counted": counted,
        "loop_waits": loop_waits,
        "shared_bytes": shared_bytes,
        "threads": threads,
        "ctas_per_sm": ctas,
        "tmem_columns": tmem,
        "stack": stack,  # the rule put the kernel on ptxas's stack (COLLAPSED_SPILL_FACTOR)
        "pointer_excess": pointer_excess,  # a wgmma kernel's K-major element pointers that do not fit, by the rule
        "pointer_spilled": pointer_spilled,  # of the rule's spills, those pointers' (POINTER_SPILL_FACTOR x the excess)
        # a wgmma kernel's registers past the limit where its element pointers take it past POINTER_COLLAPSE (a K-major
        # operand's; where every such operand is M- or N-major, only where the rest fits within POINTER_ALONE_TOLERANCE:
        # collapse_mn_major) (POINTER_SPILL_FACTOR x them spilled, POINTER_SPILL_WAITS x them waits; never recomputed)
        "collapse_excess": collapse_excess,
        "collapse_mn_major": collapse_mn_major,
        "gamble": gamble,  # register_gamble: past the limit by the rule, but not spilled by it
        # a Triton mma.sync kernel's registers past the limit where its accumulators pass it (accumulator_spills;
        # its loop charged as counted: loop_as_counted)
        "accumulator_excess": accumulator_excess,
        # a Triton kernel's registers past the 32 the rule leaves it on the stack (STACK_LOOP_FACTOR and STACK_WAITS x
        # them; its loop charged as counted: loop_as_counted)
        "stack_excess": stack_excess,
        # a Triton wgmma kernel whose accumulator fragments past the limit the rule spills once, not in turns
        # (fragments_take_turns)
        "single_fragment": single_fragment,
        # a wgmma kernel's registers past the limit by the rule where it spilled whole accumulator fragments for them
        # (spilled_at: in turns, or one resident where single_fragment)
        "fragment_excess": fragment_excess,
        # a Triton mma.sync or FMA kernel of 32-bit operands, both K-major and loaded one element at a time (an FMA one:
        # one K-major), whose element pointers the rule spills where they pass the limit (pointers_spill_at_the_limit),
        # not a register gamble
        "pointers_at_limit": pointers_at_limit,
        "fits": fits,
    }
