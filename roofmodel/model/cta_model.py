"""The per-CTA time model (issue 13): what one output tile costs an SM, how the CTAs an SM holds
overlap, and how the chip-wide DRAM and L2 bounds and a launch cost close it.

One formula, written for numbers or numpy arrays alike, so the scalar ``predict`` and the vectorized
search cannot drift apart. Times are in SM cycles until the end (``clock_hz`` converts).

Per main-loop iteration (one BK step) of one CTA:

- ``mma`` = BM' x BN' x BK / R: the instruction's FMAs at its rate R (FMA/cycle/SM), with BM padded
  to the instruction's rows (64 for wgmma) and BN to 8; a CTA alone drives only the SM
  sub-partitions its warps sit on: mma.sync and FMA warps run on their own quarter of the SM, so
  fewer than 4 warps leave tensor cores idle (a wgmma warpgroup spans all four);
- ``smem`` = (operand reads + stage fills) / shared-memory bytes per cycle (a Triton FMA kernel's reads:
  128 bytes a wavefront their bank conflicts take, fma_layout.fma_read_wavefronts); the fill of an operand
  stored against the layout the instruction needs (a 32- or 8-bit operand that is MN-major under
  wgmma) costs 16 / element bytes times more requests, and
  an 8-bit one that wgmma's warps store from registers more again for its bank conflicts
  (prediction.relaid_store_factor); under mma.sync such an operand keeps its layout (8-byte copies
  for 8-bit) and its reads cost 4 / element bytes times the wavefronts (prediction.operand_read_factors);
- ``spill`` = 2 x spilled registers x 4 B x threads / spill bytes per cycle: each spilled register the
  loop uses (footprint.kernel_footprint's ``loop_spilled``: none of a Triton wgmma kernel's compiled spills
  where its loop fits the allocation; where the compiled loop's local loads and stores were counted in its
  SASS, those bytes / 8, whatever the family, and where the register rule charges a loop as such a counted one
  (footprint.loop_as_counted: a Triton mma.sync kernel's spilled accumulators, or its loop on the stack), the rule's; past
  COLD_SPILLED_REGISTERS, 0) is stored and reloaded once per iteration, another uncounted mma.sync kernel's
  mma_sync_spill_reloads times (charged_spills), at the measured spill
  bandwidth (``kernel_costs.spill_bandwidth``: 24.1 B/cycle/SM on the H100, a fifth of the
  shared-memory path's 128, from pairs of wgmma kernels with and without spills,
  roofmodel.model.kernel_costs);
  serial with the rest of the CTA's iteration (a spilled accumulator must be back in its register
  before the MMAs that add to it), and on the SM's shared-memory path with the operand reads; where the
  compiled loop's waits on its local reloads were counted, or the register rule charges them
  (footprint.factor_spills) (``spill_wait_cycles``: waits x
  ``kernel_costs.spill_wait``, a round trip each, 250 ns on the H100 from the spill ladder), one CTA's
  iteration takes the larger of the two, since a warp that waits on each reload in turn cannot draw the
  bandwidth (the resident CTAs overlap each other's waits);
- ``transpose`` = transposed elements x the measured cost per element, plus the bytes of an operand
  that mma.sync's warps read one element per thread (gathered) over the shared-memory bytes per
  cycle: both in series with the CTA's MMAs. The elements: an MN-major 32-bit operand
  (tf32 A M-major or B N-major), which wgmma cannot read from shared memory (its transpose flags are
  for 16-bit types), is laid out K-major as it is copied; charged serial with the rest of one CTA's
  iteration, and on the SM's shared-memory path (added to one CTA's iteration and to the shared-memory
  time of the resident CTAs' joint one), at the cost the layout check measured on 128x128x64 so. Triton
  3.6's compiled loop copies such an operand with one asynchronous 4-byte cp.async an element
  (LDGSTS.E) into the K-major layout and transposes nothing in registers; the transpose check
  (docs/measurements/h200-2026-11-29/transpose) finds the charge right for BN >= 128 and the copies of a
  BN = 32 tile nearly free where one CTA holds the SM (hidden under its loads in flight), which the
  model does not yet say (its README: what a rule needs);
- ``convert`` = fp8 elements the warps convert to fp16 before their mma.sync (Triton on sm_90:
  cvt.rn.f16x2.e4m3x2, then m16n8k16.f16) x the measured cost per element (kernel_costs.convert): a
  pipe of its own beside the MMAs, not in series with them (fp8 at the BK of fp16 runs faster than
  fp16 on every tile of the issue check, docs/measurements/h100-2026-11-25/mma_issue, where
  conversions in series would make it slower); the resident CTAs share it, and where both operands are
  K-major their pipe takes elements x kernel_costs.convert_shared + warps x kernel_costs.convert_warp (the
  convert check, docs/measurements/h200-2026-12-02/convert_check: where the SM's pipes bind, an iteration's
  conversions cost a part per element and a part per warp that does not grow with BK, which one per-element
  figure taken at BK 64 and 128 put 22-44% too slow at BK 128-256; SM cycles per element, and per warp a
  CTA-iteration, a fitted intercept); one CTA's own chain and a round of one CTA keep convert, and an operand
  gathered byte by byte keeps it on both (its gather pairs were timed against convert's rate);
- ``latency`` = L / (stages - 1): a stage is requested stages - 1 iterations ahead, so Little's
  law bounds one CTA's iteration by the time L a stage's load takes: the loaded latency, plus the
  time the stage's bytes take to stream in at its SM's share of the L2's rate (stage_stream_cycles:
  the bytes the L2 serves a CTA per stage x active SMs / the chip's L2 bytes per cycle,
  memory.l2.gemm_bandwidth or else memory.l2.bandwidth, at most the SM's shared-memory bytes per cycle;
  only where the file gives the latencies); where Triton does not
  pipeline a load (``synchronous_loads``: an 8-bit operand stored against wgmma's layout, copied
  through registers; a 16- or 8-bit operand whose leading stride is not a multiple of 16
  elements, loaded one element at a time: prediction.unpipelined_operands), nothing is in flight
  across iterations: the load is issued, waited on and stored before the MMAs, and the whole L
  adds to the iteration (``exposed``) instead of bounding it: the unloaded latency (at the L2 hit rate of the operands
  loaded one element at a time: prediction.synchronous_hit_bytes), raised toward the
  loaded one by the share of the SM's traffic in flight beside it, the stage's pipelined bytes and the other
  resident CTAs' stages (prediction.beside_share, synchronous_wait_cycles; none where both operands are loaded
  one element at a time and the CTA has the SM to itself);
- an ``iteration`` cost: a fixed part (barrier, wait) and a part per copy each thread issues for
  the next stage (address arithmetic, masks), both measured; a copy is 16 bytes, or one element
  where the operand's alignment is not known (``stage_copies_per_iter``).

A CTA alone runs an iteration in transpose + exposed + max(spill, waits) + max(mma / share, smem, latency,
convert / share, mma / (share x s) + iteration) with mma.sync or FMA, whose warps issue the instructions and do the iteration's work in
turn, s = max(1, warps / 4) of them on each sub-partition covering each other; with wgmma, which
runs asynchronously while its warps do that work, in transpose + exposed + max(spill, waits) + max(mma, smem,
latency, iteration, mma / s + wait), s warpgroups each waiting on its own previous group;
the SM's pipes are shared, so c resident CTAs need c x max(mma, smem + transpose + spill, convert) per
joint iteration under wgmma, and c x the 4-norm of max(mma, convert) and smem + transpose + spill where the warps
issue both (mma.sync and FMA: ISSUED_PIPE_NORM, below). Where the warps store a copy into shared memory and fence it before wgmma reads it (an operand
relaid through registers: prediction.fenced_copies), a CTA's fence waits behind the stores the other resident CTAs
queued first: each of them adds its smem + transpose to the CTA's iteration (fenced_queue_cycles). A Triton wgmma
loop of 16-bit operands with both operands K-major adds kernel_costs.kmajor_copy per copy each thread issues to both:
its pipes and its chain (``kmajor_copy_cycles``; the compiled loop forms those copies' addresses with more integer
work).
A tile costs a prologue (one load time L to fill the first stage) and an epilogue (a fixed cost plus
C's bytes at the SM's share of DRAM write bandwidth), which the other resident CTAs do not hide: they start and
end together, so a round of c CTAs takes prologue + epilogue + K/BK x max(c x pipes, alone + (c - 1) x queued)
(round_cycles; the other CTAs hid them until 2026-11-29), its chain at least lone_conflict_cycles where a Triton FMA
loop's warps are each alone and read B K-major. The busiest SM runs ceil(tiles / SMs) tiles in rounds of c;
a persistent kernel pays the prologue and epilogue once.
Chip-wide: DRAM bytes over the bandwidth the grid can draw (the lesser of the ceiling and the bytes
the active CTAs keep in flight over the DRAM latency), or, where longer, the time the path from DRAM takes to serve
their line requests (prediction.dram_request_seconds: copies in runs shorter than a line), plus the write-back of
the dirty lines the timer's L2 flush leaves that the kernel's own lines evict (prediction.flush_writeback_seconds),
and the L2 term computed by the caller.
The chip's memory time is the q-norm of DRAM and the L2, (dram^q + l2^q)^(1/q), q = MEMORY_NORM, and at least
a last-level cache's term where the machine has one (its bytes are what the L2 reads from it, at its bandwidth;
it carries DRAM's bytes again and no measurement fitted q with it, so it stays a bound alone), and at least the
time of every stage copy the SMs issue at the L2 path's rate (the caller's issued copies: a Triton kernel's masked
copies of the rows past M or N, which read nothing, take the path as requested ones do; a bound alone too). Every
byte DRAM serves is written into the L2 as well as read from it, so where both are busy the L2's fills and
the requests it serves contend for its slices: the time is more than the larger of the two and less than
their sum (q = 1). The kernel takes a launch cost plus the p-norm of the SM time and that memory time,
(sm^p + memory^p)^(1/p), p = OVERLAP_NORM (ISSUED_OVERLAP_NORM where the MMA warps issue the copies, below);
p -> infinity is the larger alone, perfect overlap.
benchmarks/fit_cta_costs.py fits p and q with the loaded-latency factor on the H100 broad sweep's training
shapes, under the regression guards of the 168 well-tuned kernels and their bf16 grid. With the L2 charged at
the rate GEMMs reach (memory.l2.gemm_bandwidth, 2026-11-25) the fit takes p = infinity: the training median
would take p = 4, but p = 4 puts the well-tuned kernels 16% off (p90 23%), past the guard. With q (2026-11-26:
the training shapes' memory-bound kernels were 5% too fast where DRAM's time was under 0.3 x the L2's and 24%
too fast where it was over 0.7 x, median) the fit takes q = 2.5: training median |log error| 0.1343 -> 0.1294
(docs/measurements/h100-2026-11-23/fit.txt); q = 2 would take about 0.124 but puts the bf16 guard 9.0% off (its
limit 8%).
An mma.sync kernel takes p = ISSUED_OVERLAP_NORM = 4 (2026-11-27; prediction.ISSUES_OWN_COPIES), an empirical
rule fenced by the guard: the guard's 168 well-tuned kernels are wgmma kernels and needed p = infinity (p = 4 for
every kernel puts them 16.6% off; wgmma's p is 8 since 2026-11-29, below), while the random mma.sync kernels fit p = 4. On the read broad sweeps (H100,
2026-11-23 to fresh9) the kernels whose largest term is the L2 or DRAM were 9.6% too fast under mma.sync (median
signed, n = 1,831; wgmma 4.6%), the more so the nearer the SM time came to the memory time (6.7% where it was
0.5-0.7 x the total, 14.2% at 0.9-1.0); with p = 4, 2.5% (benchmarks/issued_overlap_bands.py). A reason one may
give, not shown: the warps that issue mma.sync also issue the next stages' copies, where a wgmma kernel's warps
sit free while a group runs; but selected by memory time >= SM time, the wgmma kernels near the knee are as
fast as the mma.sync ones, so the exemption of wgmma rested on the guard. FMA kernels fit no better with it, and
other machines (all mma.sync: A100, V100, T4) take it unmeasured, like every other fitted constant. The last
stage of the fit chooses it on the training shapes, the other constants fixed (median |log error| 0.1194 at
infinity, 0.1121 at 4).
Every other kernel (wgmma, FMA) takes p = OVERLAP_NORM = 8 (2026-11-29), where the fit had taken infinity. On the
read broad sweeps (H200 to fresh36, H100 to fresh18, the 2026-11-23 held-out shapes left out) a wgmma kernel whose SM
time and memory time come within 15% of each other ran 10-14% slower than the larger of the two, on both GPUs
(within 5%: memory the larger, H200 -14.2% signed, n = 290, H100 -14.3%, n = 139; the SM time the larger, H200
-12.6%, n = 236; 5-15% apart, about 9%), 2-5% at 0.7-0.9 and none below: at the knee,
where both are busy, neither hides the other's stalls. The guard's 168 well-tuned kernels of 2026-11-22 had kept it
at infinity: they are predicted 5-10% slow near the knee at the overlay's one clock (1,320 MHz; at 1,980 MHz, the
clock their run's sampler recorded, the fp16 median goes 5.4% -> 7.0% with p = 8): they do not show the knee. Timed
again on an H200 by the sweeps' harness (docs/measurements/h200-2026-11-29/tuned_replay, benchmarks/tuned_replay.py),
the same 168 configurations ran at the board's power limit (1,245-1,980 MHz, median 1,500), and held to the model at
the clock recorded with each timing they too were 7.2% too fast where the two times come within 15% (-1.5% with
p = 8, +1.2% with p = 6; all 168: -4.0% -> 0.0% signed at 8), with the model of ca90d65; since a round's CTAs pay its
prologue and epilogue (round_cycles, 2026-11-29) they read -4.6% with the larger alone and +0.2% with p = 8 (all 168:
-3.2% -> +1.1%): p was chosen on a model that hid those edges, and part of the knee may have been them. Their 2026-11-22 timings took 200 ms of back-to-back
runs a kernel (do_bench rep=200), the sweeps' and the replay's 12 ms: why the two disagree is not known. On the read
sweeps p = 8 and p = 6 do alike (first picks under 0.97 of the best: H200 581 -> 550 and 552 groups, H100 324 ->
311 at 8). Judged on fresh37 before it was read: passed (482 kernels moved, 8.1% -> 7.7%; all 950 8.7% -> 8.6%,
p90 26.6% -> 26.8%). A p of 8 adds 9% where the two times are equal, 4.6% where one is 0.9 of the other, 0.7% at
0.7. FMA kernels take it unmeasured (few of them come near their memory time: 24 above 0.7 on the H200's fresh19-36;
their direction agrees). tests/test_backends.py says how its guards were re-set.
Where the warps issue their own MMAs (mma.sync, FMA), the SM's pipes take the 4-norm of the two, ISSUED_PIPE_NORM
(2026-11-29, pre-registered in 2d2ab1d): (mmas^4 + shared^4)^(1/4), mmas = max(mma, conversions) + gathers and shared =
smem + transpose + spill, then the larger of that and the copy instructions' share (shared_issue), where wgmma takes
max(mmas, shared, shared_issue). The same warps issue the MMAs, the ldmatrix or LDS reads and the conversions from
their sub-partitions' issue slots, so the pipes do not run side by side each at its own rate. The norm adds 19% where
the two are equal, 9% where one is 0.8 of the other, 1.5% at 0.5. The lone CTA's chain (alone, work) still takes
the larger of its terms; a round takes max(c x pipes, alone + ...), so the norm binds at any c, one CTA included,
wherever c x pipes passes that chain. On the read broad sweeps (H200 to fresh38, H100 to fresh18) such kernels whose
largest SM term is the MMAs or shared memory ran slower than the model, the more so the nearer the second came to it
(second within 0.8-1.0 of the first: mma.sync shared-memory bound -8% to -12% signed, FMA -10% to -22%); with the
norm, H200 9.00% / 26.45% -> 8.82% / 25.93% (median / p90 of all), H100 8.88% / 28.52% -> 8.75% / 28.13%, fp32 8.4%
-> 7.1% and 8.0% -> 6.9%. p was swept with the norm for every family, wgmma too (H200 medians 8.89%, 8.75%, 8.85% at
p = 3, 4, 6), not again for the rule taken. wgmma keeps the larger: its tensor cores read their operands
asynchronously, and with the norm its kernels went 0.25 points better on the read H200 sweeps but the 2026-11-22
guard's 168 well-tuned wgmma kernels, predicted slow already, 11.3% -> 16.4% (at 1,320 MHz) and the read sweeps' large
fp16 128x128 tiles +2..+9% -> +7..+11%. Judged on fresh39: passed (362 kernels moved, 8.5% -> 8.2%). The pipe check
(docs/measurements/h200-2026-11-29/pipe, benchmarks/pipe_check.py; R tiles an SM on a grid of 132 x R, of which
min(R, the CTAs it holds) run at once) bears it out for FMA, where at R = 2 and 4 the larger alone took 0.88-1.01 of
the measured iteration and the norm takes 0.97-1.08 (the tiles whose shared-memory time is 1.1 x their MMAs':
0.88-0.97 -> 1.00-1.08); not for mma.sync, whose tiles at R = 4 were 3-25% too slow already and are 4-27% too slow
with it (at R = 1 and 2 the norm binds on one row of fourteen, 32x256x64 at R = 2).
A Triton FMA loop whose B is K-major (fma_layout: its LDS.128 read B along K, the lanes of a phase in the same
banks) takes the 2.5-norm instead, CONFLICTING_PIPE_NORM (pre-registered in 2722b80): on the read sweeps (H200 to
fresh42, H100 to fresh18) such kernels without spills ran 13-31% slower than the 4-norm says where their FFMAs came to
half their shared-memory time or more (H200: measured over the larger term 1.23-1.27 at 0.5-0.6, 1.5-1.6 at 1.0-1.1,
n = 400), where those with B N-major sat on it (1.06 at 0.7, 1.14 at 0.9, 1.42 at 1.3). Why the conflicting reads
overlap the FFMAs less is not measured. The K-major pipe check (docs/measurements/h200-2026-11-30/pipe_kmajor,
benchmarks/pipe_kmajor_check.py: fp32 FMA tiles with B K-major against B N-major on 1, 2 and 4 tiles an SM) fits its
K-major rows best at p = 2 (median |log(model / measured)| 0.018, 0.102 at 4), but its pre-registered control failed
(one N-major row at 1.17 of the measured with the 4-norm, outside 0.92-1.10), so p was fitted instead on the H100
sweep's 54 training kernels the rule touches (median |log error| 0.043 at 4, 0.037 at 2, 0.036 at 2.5). Judged on
fresh43 before it was read (32 kernels moved, 4.1% -> 2.7%) and on the H100 sweep's held-out shapes (40 moved, 2.5%
-> 2.1%): passed.
Where every warp of a round of such a loop is alone on its sub-partition, the round's chain takes at least the
1.5-norm of one warp's chain and the round's shared-memory time (lone_conflict_cycles, LONE_CONFLICT_NORM from the
K-major pipe check; pre-registered in 073899b, judged on fresh102-104: passed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from roofmodel.model.arrays import ceil_div as _ceil_div
from roofmodel.model.arrays import is_array as _is_array
from roofmodel.model.arrays import maximum as _max
from roofmodel.model.arrays import minimum as _min
from roofmodel.model.arrays import sqrt as _sqrt
from roofmodel.model.arrays import where as _where

# How the SM time and the chip-wide memory time combine: their p-norm (see the module docstring). The fit on the
# H100 broad sweep's training shapes took infinity (the larger alone); 8 since 2026-11-29, from the read broad sweeps'
# wgmma kernels near the knee and the tuned replay at the clocks it ran at (the module docstring).
OVERLAP_NORM = 8.0
# How the SM time and the memory time of an mma.sync kernel combine (prediction.ISSUES_OWN_COPIES), their p-norm
# (see the module docstring); every other family keeps OVERLAP_NORM. Chosen on the H100 broad sweep's training
# shapes, after every other fitted constant (benchmarks/fit_cta_costs.py).
ISSUED_OVERLAP_NORM = 4.0
# How the MMAs and the shared-memory path of the CTAs an SM holds combine in their joint iteration where the warps
# issue both (mma.sync, FMA): their p-norm (see the module docstring); wgmma's take the larger. Chosen on the read
# broad sweeps (2026-11-29, pre-registered in 2d2ab1d).
ISSUED_PIPE_NORM = 4.0
# The same for a Triton FMA loop whose B is K-major (prediction: fma_layout's conflicting reads along K): fitted on the
# H100 broad sweep's training shapes (pre-registered in 2722b80; see the module docstring).
CONFLICTING_PIPE_NORM = 2.5
# How a lone warp's chain and the SM's shared-memory path combine in such a loop where every warp of the round is alone
# on its sub-partition (lone_conflict_cycles): their p-norm, derived from the K-major pipe check (the p of its
# candidates with the least median |log(model / measured)| over its rows with B K-major; benchmarks/pipe_kmajor_check.py,
# docs/measurements/h200-2026-11-30/pipe_kmajor), not fitted on a sweep.
LONE_CONFLICT_NORM = 1.5
# How the chip's memory terms combine into its memory time: DRAM, the L2 and a last-level cache, their
# q-norm (see the module docstring). Fitted with OVERLAP_NORM and the loaded-latency factor.
MEMORY_NORM = 2.5
# Spilled registers per thread that cost nothing per iteration (values the loop does not use, which
# the compiler would spill first). Chosen on the H100 broad sweep's training shapes together with the
# spill bandwidth the recorded spill pairs give for it (benchmarks/fit_cta_costs.py), among the counts
# that keep the alignment check's guard (tests/test_cta_model.py): 0 of 0, 8, ..., 64 (median
# |log(predicted / measured)| 0.1497 at 0 with 24.1 B/cycle/SM; 0.1510 at 8 with 22.8, within the fit's
# 1% tie and with the better p90, but it puts the alignment check's unaligned kernels 21% off against
# 13%). Kept as a named figure so that the fit can try it; at 0 every spilled register is charged.
COLD_SPILLED_REGISTERS = 0
# A Triton mma.sync kernel's spills are not each stored and reloaded once per iteration: Nsight Compute's
# local-memory bytes per iteration, over 38 of the H100 broad sweep's training-shape kernels
# (docs/measurements/h100-2026-11-25/spill_check), are 0-0.33 x once for a handful (2-12 spilled), 0.46-0.95 x
# for tens (34-102), 0.57-1.19 x at 130-310 and 1.25-1.54 x at 600-1,700 (in instructions the largest are
# 0.95-1.16 x: the reloads are wider than the stores), where the rate the warps reach also falls to 10-20
# B/cycle/SM (they stall on the reloads). What a spilled register costs per iteration is therefore charged
# SPILL_RELOAD_SLOPE x log2(spilled / SPILL_RELOAD_KNEE) times, between 0 and SPILL_RELOAD_CAP: the counters'
# form, its constants chosen on the training shapes' times over a grid (benchmarks/fit_cta_costs.py: median
# |log error| 0.1481 -> 0.1452; six points came within the fit's 1% tie; the refit with the gathers of
# 2026-11-26 moved them on such a tie, by the least p90, to 0.2, 8, 1.5, whose training median is the worse,
# 0.1408 against 0.1404, so a tie now keeps the model's own values: fit_cta_costs.choose); the
# least-squares fit to the counters' bytes alone is smaller (about 0.225, 12, 1.5): the time fit also carries
# the rate the heaviest lose. It costs the kernels with 9-30 spilled (held out: median |error| 16% -> 24%):
# fewer bytes, not less stall. With the memory norm (MEMORY_NORM, 2026-11-26) the training times alone would
# take 0.35 x log2(spilled / 32), which charges the kernels with 34-58 spilled 0.03-0.3 reloads where the
# counters count 0.5-0.9: the fit now takes only forms the counters allow (fit_cta_costs.agrees_with_counters).
# wgmma kernels' accumulator spills are reloaded once each (0.96-1.02 x; tf32 at BK 16 0.67 x; with element
# pointers 1.3-1.5 x), and FMA kernels are left at once (their counters scatter from 0.1 to 1.9 x). Other
# compilers' kernels are left at once: nothing was measured of them. The count charged enters kernel_terms,
# where COLD_SPILLED_REGISTERS (0) would be taken from it.
SPILL_RELOAD_SLOPE = 0.25
SPILL_RELOAD_KNEE = 8
SPILL_RELOAD_CAP = 2.0


def mma_sync_spill_reloads(spilled: Any) -> Any:
    """clip(SPILL_RELOAD_SLOPE x log2(spilled / SPILL_RELOAD_KNEE), 0, SPILL_RELOAD_CAP): the times an
    mma.sync kernel's spilled register costs a store and reload per iteration (see above); numbers or
    numpy arrays."""
    import numpy as np

    s = np.maximum(np.asarray(spilled, dtype=float), 1.0)
    out = np.clip(SPILL_RELOAD_SLOPE * np.log2(s / SPILL_RELOAD_KNEE), 0.0, SPILL_RELOAD_CAP)
    return out if _is_array(spilled) else float(out)


def charged_spills(spilled: Any, mma_sync: Any) -> Any:
    """Spilled registers x the times each is reloaded per iteration: mma_sync_spill_reloads where
    ``mma_sync`` (a bool or a numpy mask), once elsewhere; for arrays only the mma.sync kernels that
    spill are computed (the search's speed)."""
    import numpy as np

    if not _is_array(spilled, mma_sync):
        return spilled * mma_sync_spill_reloads(spilled) if mma_sync else spilled
    s, m = np.broadcast_arrays(np.asarray(spilled, dtype=float), np.asarray(mma_sync))
    out = np.where(m, 0.0, s)  # at or below the knee an mma.sync kernel's spills cost nothing per iteration
    on = np.flatnonzero(m & (s > SPILL_RELOAD_KNEE))
    if on.size:
        flat, sf = out.reshape(-1), s.reshape(-1)
        flat[on] = sf[on] * mma_sync_spill_reloads(sf[on])
    return out


def resident_frame_bytes(spilled: Any, threads_per_cta: Any, resident_ctas: Any) -> Any:
    """Bytes of local memory the chip's resident CTAs keep spilled registers in: spilled registers per
    thread x 4 B x threads per CTA x CTAs resident at once (min(tiles, CTAs per SM x SMs)). Numbers or
    numpy arrays."""
    return spilled * 4.0 * threads_per_cta * resident_ctas


def cache_miss_share(frame_bytes: Any, capacity_bytes: float) -> Any:
    """Share of the local loads and stores a cache of C bytes misses when the resident frames total F bytes:
    1 - C / F beyond its capacity, 0 within it (every spilled register is reused each iteration, uniformly
    over the frames: a hit rate of C / F). Numbers or numpy arrays."""
    return _max(0.0, 1.0 - capacity_bytes / _max(frame_bytes, 1.0))


def reuse_miss_share(frame_bytes: Any, hold_bytes: float, capacity_bytes: float) -> Any:
    """Share of the reloads and stores a cache misses when the chip's SMs reuse frames of F bytes in turn, each line
    once a pass with every other line between (a spilling loop's accumulators, stored and reloaded once an
    iteration): clip((F - H) / (C - H), 0, 1), none up to H (``hold_bytes``: the L2's measured reuse_capacity), all
    of them from the capacity C on, linear between. Measured (benchmarks/gpu_spill_frames.py, docs/measurements/
    h100-2026-11-27/spill_frames: 132 or 528 programs each reloading and storing its own share of F; no more than
    5% missed up to 27.8 and 37.1 MiB, 95% or more from 47.4 and 57.8 MiB, on an L2 of 50 MiB; H is the mean start
    of the ramps through the two patterns' half-miss points, benchmarks/derive_spill_frames.py), where uniform reuse
    (cache_miss_share) says a sixth of the reloads miss at 60 MiB: under such a cycle the lines evicted are the
    ones reused next. Numbers or numpy arrays."""
    return _min(1.0, _max(0.0, (frame_bytes - hold_bytes) / (capacity_bytes - hold_bytes)))


def l2_frame_miss_share(frame_bytes: Any, l2_capacity_bytes: float, l2_hold_bytes: float | None, cyclic: Any) -> Any:
    """The L2's miss share of spill frames: reuse_miss_share where the frames are reused in turn (``cyclic``: a
    bool or a numpy mask) and the file measures the L2's reuse capacity (``l2_hold_bytes``), else
    cache_miss_share. Numbers or numpy arrays."""
    uniform = cache_miss_share(frame_bytes, l2_capacity_bytes)
    if l2_hold_bytes is None or not (cyclic.any() if _is_array(cyclic) else cyclic):
        return uniform
    return _where(cyclic, reuse_miss_share(frame_bytes, l2_hold_bytes, l2_capacity_bytes), uniform)


def level_miss_shares(frame_bytes: Any, l2_capacity_bytes: float, capacities: tuple[float, ...],
                      l2_miss: Any = None) -> list[Any]:  # fmt: skip
    """The share of spill traffic that reaches each level beyond the L2 (their capacities in order, DRAM's
    infinite): the L2's miss share (``l2_miss``, l2_frame_miss_share's; cache_miss_share where not given), then at
    each cache the lesser of what reached it and what it misses itself (a cache smaller than the one before it holds
    nothing more). Numbers or numpy arrays."""
    shares = []
    miss = cache_miss_share(frame_bytes, l2_capacity_bytes) if l2_miss is None else l2_miss
    for capacity in capacities:
        shares.append(miss)
        miss = _min(miss, cache_miss_share(frame_bytes, capacity)) if math.isfinite(capacity) else 0.0
    return shares


def spill_home(
    frame_bytes: Any,
    spill_bytes_per_cycle: float,
    beyond: tuple[tuple[float, float, float | None], ...],
    l2_capacity_bytes: float,
    l2_latency: float | None,
    l2_miss: Any = None,
    waits_l2_miss: Any = None,
) -> tuple[Any, Any]:
    """Where spilled registers live, and what that costs: (bytes per cycle per SM the spills move at, the factor
    on a reload's round trip). ``spill_bytes_per_cycle`` is the measured rate of spills the L2 holds; the share
    that misses it also crosses each level ``beyond`` it, given as (capacity bytes, that level's bytes per cycle
    per SM, its latency or None) out to DRAM (capacity infinite), each reached by level_miss_shares' share
    miss_i (the L2's ``l2_miss`` where given: l2_frame_miss_share): the rate is 1 / max(1 / spill rate, miss_i /
    rate_i) over the levels. A reload's round trip, measured
    where the spills fit the L2, is scaled by the mean latency over the L2's: (hit x L2 + sum of (miss_i -
    miss_{i+1}) x latency_i) / L2, with 1 where a latency is unknown (the wait stays as measured); the reloads a warp
    waits on miss the L2 by ``waits_l2_miss`` where given (prediction.cyclic_waits), else as the bytes do. Numbers or
    numpy arrays; latencies in any one unit."""
    capacities = tuple(c for c, _, _ in beyond)
    shares = level_miss_shares(frame_bytes, l2_capacity_bytes, capacities, l2_miss)
    waited = shares if waits_l2_miss is None else level_miss_shares(frame_bytes, l2_capacity_bytes, capacities,
                                                                    waits_l2_miss)  # fmt: skip
    seconds_per_byte = 1.0 / spill_bytes_per_cycle
    mean_latency = (1.0 - (waited[0] if waited else 0.0)) * (l2_latency or 0.0)
    known = l2_latency is not None
    for i, (_, rate, latency) in enumerate(beyond):
        seconds_per_byte = _max(seconds_per_byte, shares[i] / rate)
        deeper = waited[i + 1] if i + 1 < len(waited) else 0.0
        known = known and latency is not None
        mean_latency = mean_latency + (waited[i] - deeper) * (latency or 0.0)
    factor = mean_latency / l2_latency if known and l2_latency else 1.0
    return 1.0 / seconds_per_byte, factor


def grid_spill_rate(all_sms: Any, alone: Any, tiles: Any, sms: int) -> Any:
    """Bytes per cycle per SM a grid's spills move at where the L2 holds them: each SM's share of what the chip
    reaches with every SM spilling, R_all x SMs / active SMs (active = min(tiles, SMs)), up to what one SM reaches
    where few spill, R_alone, and never below R_all: max(R_all, min(R_alone, R_all x SMs / active)). Both rates are
    measured (kernel_costs.spill_bandwidth and spill_bandwidth_alone): on the H200 25.9 on 132 tiles and 33.4-33.7 on
    66, 33 and 16, so that the two meet at 102 SMs, where no grid was timed. Numbers or numpy arrays."""
    return _max(all_sms, _min(alone, all_sms * sms / _min(tiles, sms)))


def l2_stage_bytes(requested: Any, tiles: Any, k_iterations: Any) -> Any:
    """Bytes the L2 serves one CTA per stage: the kernel's requested bytes / (tiles x K/BK iterations);
    numbers or numpy arrays."""
    return requested / (tiles * k_iterations)


def stage_stream_cycles(
    l2_stage_bytes: Any, tiles: Any, sms: int, l2_bytes_per_cycle: float, port_bytes_per_cycle: float
) -> Any:
    """SM cycles a stage's bytes take to stream in after its latency: the bytes the L2 serves a CTA for one
    stage / min(the L2's rate for the chip / active SMs, the SM's port), active SMs = min(tiles, SMs), rates
    in bytes per SM cycle (the port: what the SM's shared memory takes in a cycle). The share assumes every
    active SM loading at once, the L2 at its rate (an overcharge where they do not: few stages in flight);
    each of an SM's resident CTAs is charged the SM's whole share, as if they took turns (charged a share
    per CTA, the training fit is worse: 0.159 against 0.135). Numbers or numpy arrays."""
    return l2_stage_bytes / _min(l2_bytes_per_cycle / _min(tiles, sms), port_bytes_per_cycle)


def overlap(*seconds: Any) -> Any:
    """(sum of t^p)^(1/p), p = OVERLAP_NORM, for numbers or numpy arrays: how the SM time and the
    memory time (memory_seconds) combine."""
    return p_norm(OVERLAP_NORM, *seconds)


def memory_seconds(dram: Any, l2: Any, llc: Any = 0.0, copies: Any = 0.0) -> Any:
    """The chip's memory time: max((dram^q + l2^q)^(1/q), llc, copies), q = MEMORY_NORM, for numbers or numpy
    arrays. DRAM's bytes are written into the L2 as they are read from it, so the two contend; a last-level
    cache (memory.llc) carries the same bytes again and is fitted on no measurement, so it stays a bound alone;
    ``copies``, every stage copy the SMs issue at the L2 path's rate (prediction.issued_stage_bytes: Triton's masked
    copies too, which read no DRAM byte), is a bound alone as well."""
    return overlap_max(p_norm(MEMORY_NORM, dram, l2), llc, copies)


def overlap_max(*seconds: Any) -> Any:
    """The largest of the terms (p_norm at p = infinity), for numbers or numpy arrays."""
    return p_norm(math.inf, *seconds)


def overlap_norm(issued: bool) -> float:
    """The p with which a kernel's SM time and memory time combine: ISSUED_OVERLAP_NORM where ``issued`` (an
    mma.sync kernel: prediction.ISSUES_OWN_COPIES), else OVERLAP_NORM."""
    return ISSUED_OVERLAP_NORM if issued else OVERLAP_NORM


def issued_overlap(issued: Any, sm: Any, memory: Any) -> Any:
    """The p-norm of the SM time and the memory time, p = overlap_norm(issued); numbers or numpy arrays (each
    element takes its own norm only: the search's speed)."""
    if not _is_array(issued, sm, memory):
        return p_norm(overlap_norm(bool(issued)), sm, memory)
    import numpy as np

    iss, s, mem = np.broadcast_arrays(np.asarray(issued) != 0, np.asarray(sm, dtype=float),
                                      np.asarray(memory, dtype=float))  # fmt: skip
    out = np.empty(s.shape, dtype=float)
    out[iss] = p_norm(overlap_norm(True), s[iss], mem[iss])
    out[~iss] = p_norm(overlap_norm(False), s[~iss], mem[~iss])
    return out


def sm_and_memory_seconds(
    sm: Any, dram: Any, l2: Any, llc: Any = 0.0, copies: Any = 0.0, *, issued: Any = False
) -> Any:
    """issued_overlap(issued, sm, memory_seconds(dram, l2, llc, copies)) for numbers or numpy arrays. Where
    OVERLAP_NORM is infinity (the larger alone) the search's arrays compute the memory time only where it can pass the
    SM time (the q-norm of two terms is at most 2^(1/q) x the larger) or the kernel is
    ``issued`` (a finite norm adds whatever the memory time is): elsewhere the answer is the SM time, exactly as
    the full formula gives it (the same operations, element by element, as predict's numbers)."""
    import numpy as np

    if OVERLAP_NORM != math.inf or not _is_array(sm, dram, l2, llc, copies, issued) or MEMORY_NORM == math.inf:
        return issued_overlap(issued, sm, memory_seconds(dram, l2, llc, copies))
    sm_a, d, l2a, c, cp, iss = np.broadcast_arrays(
        *(np.asarray(t, dtype=float) for t in (sm, dram, l2, llc, copies, issued))
    )
    bound = np.maximum(np.maximum(d, l2a) * 2.0 ** (1.0 / MEMORY_NORM), np.maximum(c, cp))
    out = np.array(sm_a, dtype=float, order="C")
    # NaN compares false: such elements take the full formula, as predict does.
    on = ~(bound < sm_a) | (iss != 0.0)
    if on.any():
        out[on] = issued_overlap(iss[on], sm_a[on], memory_seconds(d[on], l2a[on], c[on], cp[on]))
    return out


def p_norm(p: float, *seconds: Any) -> Any:
    """(sum of t^p)^(1/p) for numbers or numpy arrays (scaled by the largest, so it neither overflows nor
    loses the small terms); p = infinity is the largest alone."""
    import numpy as np  # one arithmetic for numbers and arrays: the search agrees with predict bit for bit

    # A term that is the number 0 adds nothing (0 ** p is 0, and adding 0.0 is exact): left out, for the search's speed.
    kept = [t for t in seconds if _is_array(t) or t != 0] or [0.0]
    terms = [np.atleast_1d(np.asarray(t, dtype=float)) for t in kept]  # never 0-d: numpy's scalar pow differs
    top = np.maximum.reduce(np.broadcast_arrays(*terms))
    if p == math.inf:  # the largest alone (what the formula gives, without its powers: the search's speed)
        out = np.where(top > 0, top, 0.0)
    else:
        safe = np.where((top > 0) & np.isfinite(top), top, 1.0)
        out = safe * root_of_powers(p, [t / safe for t in terms]) * (top > 0)
        out = np.where(np.isinf(top), np.inf, out)  # an infinite term is an infinite norm, not inf / inf
    out = np.where(np.isnan(top), np.nan, out)  # NaN stays NaN (never 0)
    return out if _is_array(*seconds) else float(out[0])


def root_of_powers(p: float, scaled: list[Any]) -> Any:
    """(sum of t^p)^(1/p) of terms already scaled by the largest (numbers or numpy arrays): p_norm's root, and
    norm_factor's. p = 4 without pow (the search's speed): x^4 as (x^2)^2, the root as two square roots."""
    if p == 4.0:
        return _sqrt(_sqrt(sum((t * t) * (t * t) for t in scaled)))
    if not _is_array(*scaled):
        # numpy's pow for numbers too: where numpy has its own SIMD pow (x86 with AVX-512F), Python's float pow
        # differs from it in the last bit for about 5% of arguments, which would part predict from the search.
        import numpy as np

        ones = [np.atleast_1d(np.asarray(t, dtype=float)) for t in scaled]
        return float((sum(t**p for t in ones) ** (1.0 / p))[0])
    return sum(t**p for t in scaled) ** (1.0 / p)


def norm_factor(p: float, ratio: Any) -> Any:
    """(1 + ratio^p)^(1/p): the p-norm of two terms over the larger, ``ratio`` the smaller over the larger (0 to 1),
    for a number or a numpy array (root_of_powers of 1 and the ratio), so that the larger x this is p_norm(p, larger,
    smaller) without p_norm's conversions (the search's speed)."""
    return root_of_powers(p, [1.0, ratio])


@dataclass(frozen=True)
class CtaCosts:
    """Fixed costs of a kernel, from the machine file (``kernel_costs``), in seconds: per launch,
    per main-loop iteration, per 16-byte copy a thread issues in an iteration, per epilogue, and per
    iteration of an asynchronous MMA. Zero where the file gives none."""

    launch_s: float = 0.0
    iteration_s: float = 0.0
    copy_issue_s: float = 0.0
    epilogue_s: float = 0.0
    wait_s: float = 0.0  # per iteration of an asynchronous MMA (wgmma): the wait on the previous group
    transpose_s: float = 0.0  # per 32-bit element an SM's warps transpose for wgmma (MN-major tf32)
    convert_s: float = 0.0  # per fp8 element an SM's warps convert to fp16 for mma.sync (Triton on sm_90)
    # The SM's pipe where its resident CTAs convert: per element, and per warp an iteration (0: convert_s alone).
    convert_shared_s: float = 0.0
    convert_warp_s: float = 0.0
    gather_s: float = 0.0  # per element of an 8-bit MN-major operand mma.sync's warps read byte by byte
    spill_wait_s: float = 0.0  # per time a warp waits on its own local reloads in an iteration (the round trip)
    flush_writeback_s: float = 0.0  # DRAM's write-back of all the dirty lines the timer's L2 flush leaves
    copy_instruction_s: float = 0.0  # per warp-level cp.async, on the SM's load-store path, where copies bind it
    # The SM's time per such copy over its resident CTAs' copies (0: copy_instruction_s): the shared pipe's rate.
    copy_instruction_shared_s: float = 0.0
    # The same where both operands are K-major and copied one element at a time, no register spilled
    # (prediction.copies_all_of_elements; 0: copy_instruction_shared_s).
    copy_instruction_shared_elements_s: float = 0.0
    # Per FFMA a warp alone on its sub-partition issues where its A fragment does not fit (prediction.lone_fma_cycles).
    fma_lone_issue_s: float = 0.0
    # Per copy a thread issues an iteration, what both operands K-major add to a Triton wgmma CTA's iteration of 16-bit
    # operands (prediction.kmajor_copy_cycles).
    kmajor_copy_s: float = 0.0


# The issue slots of an SM (sub-partitions, each with its own scheduler): Hopper's and every NVIDIA SM since Volta.
SUB_PARTITIONS = 4

TERMS = (
    "compute", "shared memory", "spills", "transposes", "conversions", "latency", "overhead", "prologue/epilogue",
    "DRAM", "LLC", "L2", "issued copies", "launch",
)  # fmt: skip


def resident_ctas(ctas_per_sm: Any, tiles: Any, sms: int) -> Any:
    """CTAs an SM runs at once: min(the CTAs its resources hold, ceil(tiles / SMs)). Numbers or numpy arrays."""
    return _min(ctas_per_sm, _ceil_div(tiles, sms))


def rounds_per_sm(ctas_per_sm: Any, tiles: Any, sms: int) -> Any:
    """Rounds the busiest SM runs: ceil(ceil(tiles / SMs) / resident), resident = resident_ctas. Numbers or numpy
    arrays."""
    return _ceil_div(_ceil_div(tiles, sms), resident_ctas(ctas_per_sm, tiles, sms))


def round_cycles(cc: Any, k_it: Any, pipes: Any, alone: Any, edges: Any, queued: Any = 0.0,
                 lone: LoneConflict | None = None) -> Any:  # fmt: skip
    """SM cycles of a round of ``cc`` resident CTAs: edges + K/BK x max(cc x pipes, max(alone + (cc - 1) x queued,
    lone_conflict_cycles)).
    ``queued``: what each other resident CTA adds to one CTA's iteration (fenced_queue_cycles); a last round of
    fewer CTAs waits behind fewer. ``lone``: where a Triton FMA loop's reads conflict, one CTA's chain takes at
    least lone_conflict_cycles of the round.

    The round's CTAs start together and end together (the first round's are launched at once; they share the pipes
    or run the same chain side by side, so they finish together, and the next round's take their places at once),
    so no one of them hides another's prologue or epilogue: the round pays its ``edges`` once, beside its main loops,
    whichever of the pipes and one CTA's chain binds them. Until 2026-11-29 the model let the other resident CTAs'
    main loops hide them, max(cc x K/BK x pipes, edges + K/BK x alone); the round-cost check
    (docs/measurements/h200-2026-11-29/round_cost, benchmarks/round_cost.py) found about 1 us a round left out where
    two CTAs share an SM and none where one holds it."""
    if _is_array(queued) or queued:
        alone = alone + (cc - 1) * queued
    if lone is not None:
        alone = _max(alone, lone_conflict_cycles(cc, lone))
    return edges + k_it * _max(cc * pipes, alone)


@dataclass(frozen=True)
class LoneConflict:
    """What lone_conflict_cycles needs of a kernel (numbers or numpy arrays): ``conflicting``, where a Triton FMA loop
    reads B K-major (prediction: fma_layout's conflicting reads); ``chain``, SM cycles of one warp's chain an iteration
    without its wait on the shared-memory path (its gathers, its FFMAs by a stream's share plus the iteration's work or
    the lone-warp floor, the exposed loads and transposes; not its spills, which the check's rules left out: a spilling
    lone kernel whose spills bind is not moved); ``smem``, one CTA's shared-memory cycles an iteration (its operand
    reads and fills, not its transposes or spills); ``warps``, a CTA's."""

    conflicting: Any
    chain: Any
    smem: Any
    warps: Any


def lone_conflict_cycles(cc: Any, lone: LoneConflict) -> Any:
    """SM cycles one CTA's chain takes an iteration of a round of ``cc`` CTAs where its B reads conflict and every warp
    of the round is alone on its sub-partition (cc x warps <= 4): the LONE_CONFLICT_NORM-norm of the warp's chain and
    the round's shared-memory time, cc x smem; 0 elsewhere (the round keeps max(cc x pipes, chain)).

    A warp alone on its sub-partition issues its FFMAs and waits on its own LDS.128 of B along K, whose lanes fall in
    the same banks and are served in turn; no other warp issues meanwhile, so the wait on the SM's shared-memory path
    (its own reads and the other resident CTAs') does not hide under FFMAs as the larger of the two would say. The
    K-major pipe check (docs/measurements/h200-2026-11-30/pipe_kmajor) timed it: its B K-major rows with one warp a
    sub-partition ran 16-50% slower than the model said (the model 14-33% too fast) where the same tiles with B N-major
    ran within 10%; at p = 1.5 the check's K-major rows' median |log(model / measured)| is 0.041 (0.070 without the
    term; 0.059 at p = 1.25, 0.045 at 1.75, 0.065 at 2, 0.070 at 2.5, where the term never binds on its rows:
    pipe_kmajor_check.lone_conflict_spread). Where two warps or more share a sub-partition the other warp issues under
    the wait and the pipes' CONFLICTING_PIPE_NORM holds."""
    if not (lone.conflicting.any() if _is_array(lone.conflicting) else lone.conflicting):
        return 0.0
    shared = cc * lone.smem
    larger = _max(lone.chain, shared)
    both = larger * norm_factor(LONE_CONFLICT_NORM, _min(lone.chain, shared) / _where(larger > 0, larger, 1.0))
    return _where(lone.conflicting, _where(cc * lone.warps <= SUB_PARTITIONS, both, 0.0), 0.0)


def last_round_tiles(tiles: Any, ctas_per_sm: Any, sms: int) -> Any:
    """Tiles the chip runs in its last round: tiles - (rounds - 1) x resident x SMs, rounds = ceil(ceil(tiles / SMs)
    / resident) and resident = resident_ctas; all the tiles where there is one round. They spread over
    min(that, SMs) SMs, as the first round's over min(tiles, SMs). Numbers or numpy arrays."""
    return tiles - (rounds_per_sm(ctas_per_sm, tiles, sms) - 1) * resident_ctas(ctas_per_sm, tiles, sms) * sms


def _plain_rounds(c: Any, last: Any, rounds: Any, k_it: Any, pipes: Any, alone: Any, edges: Any, queued: Any,
                  last_pipes: Any, last_alone: Any, lone: LoneConflict | None = None) -> Any:  # fmt: skip
    """SM cycles of the launch-per-tile kernel: rounds of c resident CTAs (round_cycles), the last round of
    ``last`` CTAs at its own ``last_pipes`` and ``last_alone`` (its spills' rate)."""
    full = round_cycles(c, k_it, pipes, alone, edges, queued, lone)
    return (rounds - 1) * full + round_cycles(last, k_it, last_pipes, last_alone, edges, queued, lone)


def fenced_queue_cycles(fenced: Any, smem_cycles: Any) -> Any:
    """SM cycles each other resident CTA adds to one CTA's iteration where its warps store a copy into shared
    memory and fence it before wgmma reads it (``fenced``): the other CTA's whole shared-memory time (``smem_cycles``:
    its stores, its wgmma's operand reads and its transposes), 0 elsewhere.

    Such a loop (an operand Triton does not pipeline under wgmma: relaid through registers, or loaded one element
    at a time) ends its stores with MEMBAR.ALL.CTA and FENCE.VIEW.ASYNC.S before its wgmma and waits for its wgmma
    to finish every iteration (compiled SASS, Triton 3.6 for sm_90a, the compiler of the measured kernels; its
    loops of cp.async copies alone have neither fence, nor has an mma.sync loop; Triton 3.9's cp.async loops do
    fence). The reading, from the times (no counter checked it): as if the membar returned once the warp's stores
    are done and the SM's shared-memory path served the resident CTAs' work in the order it was issued, so that a
    CTA waits behind what the others queued before its own; a round of c CTAs takes its chain plus (c - 1) x the
    others' shared-memory time an iteration, where the pipes alone would say c x smem. Not fitted, but the quantity
    (all of the others' shared-memory time, not their stores alone) and the class charged (prediction.fenced_copies)
    were chosen on read data: on the read H100 sweeps the relaid fp8 wgmma kernels whose shared memory binds were
    15-20% too fast at 2 to 10 CTAs an SM and within 4% alone; their stores alone would leave them 4-12% too fast
    at 2 CTAs and more. Those whose wait binds it overcharges: +11.9% -> +27.2% at 2 CTAs an SM (n = 18), +3.0% ->
    +25.7% at 3-4 (n = 5), where the others' work seems to hide under the wait (benchmarks/fenced_copy_classes.py
    prints both)."""
    if not (fenced.any() if _is_array(fenced) else fenced):  # none fenced (the search's 16- and 32-bit arrays)
        return 0.0
    return _where(fenced, smem_cycles, 0.0)


def shared_copy_instruction_s(costs: CtaCosts) -> float:
    """Seconds the SM's load-store path takes per warp-level cp.async of the CTAs it holds at once (the pipes' term,
    shared by the resident CTAs): kernel_costs.copy_instruction_shared where the file has it, else copy_instruction
    (one CTA's own time per copy, which its chain keeps either way). Measured by the occupancy check
    (benchmarks/gpu_broad_sweep.py --occupancy, docs/measurements/h200-2026-11-29/occupancy;
    benchmarks/derive_copy_instruction.py --occupancy): the narrow check's wgmma tiles on 2 and 4 tiles per SM, where
    2 or 3 CTAs share an SM, take 7.8-10.0 SM cycles per warp copy of all of them where one operand's copies are 16
    bytes (median 8.4 over 20 cases) where one CTA alone takes 9.4 (the narrow check; the tile that keeps one CTA an
    SM here, 128x128x64 on eight warps, 9.5-10.8 in the same run): the CTAs' copies overlap a little on the path.
    Where every copy is an element copy (both operands K-major, K not a multiple of 16) 6.6-7.3, which
    shared_copy_cycles takes from kernel_costs.copy_instruction_shared_elements where the kernel spills nothing; this
    rate stands for the rest, all-element stages with an MN-major operand or spills included. Nothing where the file has no
    copy_instruction (the shared rate says how the CTAs share that pipe, not that there is one)."""
    if not costs.copy_instruction_s:
        return 0.0
    return costs.copy_instruction_shared_s or costs.copy_instruction_s


def shared_copy_cycles(costs: CtaCosts, clock_hz: float, all_elements: Any) -> Any:
    """SM cycles the SM's load-store path takes per warp-level cp.async of the CTAs it holds at once:
    kernel_costs.copy_instruction_shared_elements where ``all_elements`` (prediction.copies_all_of_elements: both
    operands K-major and copied one element at a time, no register spilled), shared_copy_instruction_s elsewhere (a
    mix of element and 16-byte copies, and the stages that rule leaves out), x ``clock_hz``. The occupancy check's 28 cases split so: the eight where every copy is an element copy
    (both operands K-major, K not a multiple of 16) take 6.6-7.3 cycles a copy (median 6.8), the twenty where one
    operand's copies are 16 bytes 7.8-10.0 (median 8.4, kernel_costs.copy_instruction_shared); the rate over all 28
    (8.3), which both kinds took until 2026-12-02, charged the first a fifth too much. Where the file has no figure for
    copies all of elements, the shared rate. Numbers or numpy arrays."""
    mixed = shared_copy_instruction_s(costs) * clock_hz
    if not costs.copy_instruction_s or not costs.copy_instruction_shared_elements_s:
        return mixed
    return _where(all_elements, costs.copy_instruction_shared_elements_s * clock_hz, mixed)


def copy_instruction_cycles(copies: Any, element_copies: Any, warp_size: int, cycles_per_copy: Any) -> Any:
    """SM cycles a CTA's stage takes on the SM's load-store path as warp-level cp.async instructions: copies /
    warp size x ``cycles_per_copy`` (kernel_costs.copy_instruction), counted only where ``element_copies`` > 0 (an
    operand copied one element at a time: one 4-byte cp.async per element per thread), 0 elsewhere.

    Measured by the narrow check (benchmarks/gpu_broad_sweep.py --narrow, docs/measurements/h200-2026-11-29/narrow;
    benchmarks/derive_copy_instruction.py): a tf32 wgmma tile on one CTA per SM with an operand copied one element
    at a time takes, per iteration, 8.2-11.9 SM cycles per warp-level cp.async of its stage, aligned copies counted
    (median 9.4 over 17 cases on six tiles), where the element copies alone spread 8.6-15.3. Where every copy is 16
    bytes it is not charged: a 16-byte copy is a quarter of the instructions for the same bytes and other terms bind
    (charged everywhere at 9.4 cycles, the read H200 sweeps' median went from 10.6% to 11.5% and their p90 from 33%
    to 44%), so what a 16-byte copy costs the path is not known here. The check measured wgmma tiles only: mma.sync's
    and FMA's element copies are not charged (charged at 9.4 cycles, the read H200 sweeps' 323 mma.sync tf32 kernels
    with such an operand went from 16.2% to 25.0% median |error|, a review found). The figure is each case's whole
    iteration over its copies, where the copies bind: on the two latency-bound tiles (128x128x16, 64x64x32) the
    narrow iteration is barely slower than its aligned control, so those cases (11.7-11.9) measure the other bound;
    where an operand is also transposed in registers the copies add to the transposes (1-5.7 cycles a copy over the
    transposed control), which the max() of the pipes does not charge. Numbers or numpy arrays."""
    none_charged = not cycles_per_copy.any() if _is_array(cycles_per_copy) else not cycles_per_copy
    if none_charged or not (element_copies.any() if _is_array(element_copies) else element_copies):
        return 0.0
    return _where(element_copies > 0, copies / warp_size * cycles_per_copy, 0.0)


def kernel_terms(
    *,
    sms: int,
    clock_hz: float,
    m: Any,
    n: Any,
    k: Any,
    bm: Any,
    bn: Any,
    bk: Any,
    warps: Any,
    stages: Any,
    ctas_per_sm: Any,
    fma_per_cycle_per_sm: Any,
    instruction_rows: Any,
    warpgroup: Any,
    smem_operand_bytes_per_iter: Any,
    smem_fill_bytes_per_iter: Any,
    smem_bytes_per_cycle: float,
    spilled_registers: Any,
    spill_bytes_per_cycle: Any,
    transposed_elements_per_iter: Any = 0,
    gathered_bytes_per_iter: Any = 0,
    converted_elements_per_iter: Any = 0,
    gathered_elements_per_iter: Any = 0,
    load_latency_cycles: Any,
    synchronous_loads: Any,
    c_bytes_per_tile: Any,
    dram_write_bytes_per_cycle_per_sm: float,
    stage_bytes: Any,
    dram_bytes: Any,
    dram_bps: float,
    dram_latency_s: float | None,
    l2_seconds: Any,
    costs: CtaCosts,
    persistent: Any = False,
    warp_size: int = 32,
    llc_seconds: Any = 0.0,
    issued_copy_seconds: Any = 0.0,
    stage_copies_per_iter: Any = None,
    l2_bytes_per_cycle: float | None = None,
    l2_requested_bytes: Any = None,
    spill_wait_cycles: Any = 0.0,
    exposed_latency_cycles: Any = None,
    issues_copies: Any = False,
    fenced_copies: Any = False,
    dram_request_seconds: Any = 0.0,
    flush_writeback_seconds: Any = 0.0,
    element_copies_per_iter: Any = 0,
    last_spill_bytes_per_cycle: Any = None,
    lone_warp_cycles: Any = 0.0,
    waits_each_wgmma: Any = False,
    conflicting_reads: Any = False,
    fill_copy_cycles: Any = 0.0,
    kmajor_copy_cycles: Any = 0.0,
    element_copies_only: Any = False,
) -> dict[str, Any]:
    """Seconds of each named term and ``total``; see the module docstring for the formula.

    ``warpgroup``: True where one CTA's instruction spans all four SM sub-partitions (wgmma).
    ``smem_fill_bytes_per_iter`` already carries any layout factor. ``stage_bytes``: (BM + BN) x
    BK x element bytes. ``l2_seconds``: the chip-wide L2 term (rasterization.py's traffic). ``issued_copy_seconds``:
    every stage copy the SMs issue at the L2 path's rate (prediction.issued_stage_bytes), a memory bound alone
    (memory_seconds).
    ``l2_bytes_per_cycle``: the L2's rate for the whole chip, bytes per SM cycle, which the active SMs share
    as their stages stream in (none: a stage arrives whole one latency after it is issued);
    ``l2_requested_bytes``: what the kernel requests of the L2 (the L2 term's bytes, C aside), of which a
    CTA's stage is served l2_stage_bytes (less than ``stage_bytes`` where a cluster multicasts;
    ``stage_bytes`` if not given). ``spill_wait_cycles``: the SM cycles a warp of one CTA spends per iteration
    waiting on its own local reloads, one after another (0 where not counted). ``exposed_latency_cycles``: what
    a synchronous load waits before its stage's bytes stream in (None: ``load_latency_cycles``). ``issues_copies``:
    where the SM and memory times combine by ISSUED_OVERLAP_NORM (mma.sync: prediction.ISSUES_OWN_COPIES).
    ``fenced_copies``: where the warps store a synchronous copy and fence it before wgmma (fenced_queue_cycles).
    ``dram_request_seconds``: the time the path from DRAM takes to serve the kernel's line requests
    (prediction.dram_request_seconds; 0 where not counted): the DRAM term is the longer of it and the bytes' time.
    ``flush_writeback_seconds``: DRAM's time writing back the dirty lines the timer's L2 flush left that the kernel's
    own lines evict (prediction.flush_writeback_seconds; 0 where not counted), added to the DRAM term.
    ``element_copies_per_iter``: the copies of a CTA's stage that move one element each (a 32-bit operand Triton
    copies 4 bytes at a time, pipelined, under wgmma: what the narrow check measured); where there are any, the SM takes every warp-level copy of the stage
    (``stage_copies_per_iter`` / warp size) at kernel_costs.copy_instruction, a pipe the resident CTAs share
    (copy_instruction_cycles).
    ``last_spill_bytes_per_cycle``: the rate the spills of the last round move at (the chip's last round holds
    last_round_tiles: fewer SMs spilling, fewer frames; prediction.spill_rates of those), where it is not
    ``spill_bytes_per_cycle`` (None: the same). The last round's reload waits keep the full round's round trip
    (``spill_wait_cycles``): where its fewer frames fit the L2 and a full round's do not, the wait is overcharged
    (applied, the read H200 sweeps' 971 such kernels went 10.8% / +1.4% -> 10.0% / -5.7%; applied again with the
    model of 04fe70b, the read H200 sweeps to fresh35's 1,077 moved went 11.5% / -3.5% -> 12.7% / -10.1%: not taken).
    ``lone_warp_cycles``: SM cycles one warp of a stream takes over its iteration where it issues alone and stalls
    (prediction.lone_fma_cycles: a Triton FMA loop of four warps or fewer whose A fragment does not fit; 0 elsewhere),
    a floor under the stream's own chain (its MMAs and serial work), in every round: a round of c CTAs takes max(c x
    pipes, alone), so that the resident CTAs' warps hide it only where their FFMAs at the pipe's rate take longer.
    Charging it only where every warp is alone on its sub-partition (CTAs x warps <= 4), as the check alone would
    say, was tried on the read H200 sweeps (to fresh36): the 1,232 kernels it moved went 16.1% -> 18.2% (at three CTAs
    an SM without spills 8.5% -> 19.3%): where warps share some sub-partitions and not others the stall still shows.
    A CTA's spills add to it, as to the chain it floors: taking the floor over the spills and the chain together
    instead moved half as many read kernels (598 against 1,206, H200 to fresh35) and left those
    whose spills are 20-50% of the SM time 23-35% too fast (-13% to -23% with the sum); the sum overshoots where the
    spills are 80% or more (+13% -> +21% signed, n = 120, one CTA an SM).
    ``fill_copy_cycles``: SM cycles the shared-memory path takes to fill a CTA's stage counted by its copies
    (prediction.narrowed_fill_cycles: a Triton mma.sync or wgmma operand copied narrower than 16 bytes, each warp's
    copy at kernel_costs.copy_instruction_shared); the fills take the larger of it and their bytes at the rate, after
    the operand reads (0: their bytes).
    ``conflicting_reads``: a Triton FMA loop whose B is K-major, whose pipes take CONFLICTING_PIPE_NORM (the module
    docstring) and whose rounds of lone warps take lone_conflict_cycles.
    ``waits_each_wgmma``: where a wgmma loop waits for each wgmma before issuing the next (prediction.waits_each_wgmma,
    Triton's loops so compiled): a warpgroup's chain an iteration is the CTA's MMAs and then its wait, where a loop
    that keeps a group in flight takes its own share of the MMAs and its wait (the other warpgroups' MMAs under it);
    the compute term names that chain (max(MMAs, (MMAs + wait) / c) an iteration of c CTAs).
    The wgmma-wait check (docs/measurements/h200-2026-11-29/wgmma_wait, one tile an SM) found the chain with the group
    in flight 0.68-0.88 of such loops' measured iteration (the eleven this moves); with this 0.81-1.04 (0.89-1.04 but
    the two 128x256x32 kernels at three stages, 0.81 and 0.84, whose latency binds too), their twins with a group in
    flight as they were.
    ``element_copies_only``: where every copy of the stage is an element copy, both operands K-major, and no register
    spills (prediction.copies_all_of_elements): the resident CTAs' copies take the SM's path at
    kernel_costs.copy_instruction_shared_elements (shared_copy_cycles), the others' at copy_instruction_shared.
    ``converted_elements_per_iter``: fp8 elements a CTA's warps convert for mma.sync an iteration (prediction.
    converted_elements), at costs.convert_s in one CTA's chain and where a round holds one CTA or the CTA gathers an
    operand (``gathered_elements_per_iter`` > 0), and at costs.convert_shared_s each plus costs.convert_warp_s per warp
    on the pipe of a round of more than one CTA (SM cycles an iteration; the attribution's "conversions" likewise).
    ``kmajor_copy_cycles``: SM cycles a CTA's iteration takes more because both operands are K-major in a Triton wgmma
    loop of 16-bit operands (prediction.kmajor_copy_cycles: kernel_costs.kmajor_copy per copy a thread issues; 0
    elsewhere): added to the SM's pipes of a round (c CTAs take c x (pipes + it)) and to one CTA's chain, in the full
    rounds and the last; the overhead term names it. The layout-pair check (docs/measurements/h200-2026-11-30/
    layout_pairs) found it added per CTA on two and four tiles an SM alike, whatever bound the loop.
    """
    k_it = _ceil_div(k, bk)
    tiles = _ceil_div(m, bm) * _ceil_div(n, bn)
    bm_pad = _max(bm, instruction_rows)
    bn_pad = _ceil_div(bn, 8) * 8
    mma = bm_pad * bn_pad * bk / fma_per_cycle_per_sm
    share = _where(warpgroup, 1.0, _min(warps, SUB_PARTITIONS) / SUB_PARTITIONS)
    smem = smem_operand_bytes_per_iter / smem_bytes_per_cycle + _max(
        smem_fill_bytes_per_iter / smem_bytes_per_cycle, fill_copy_cycles
    )
    hot = _max(spilled_registers - COLD_SPILLED_REGISTERS, 0)
    spill = 2.0 * hot * 4.0 * warp_size * warps / spill_bytes_per_cycle
    waited = load_latency_cycles if exposed_latency_cycles is None else exposed_latency_cycles
    if l2_bytes_per_cycle:
        served = stage_bytes if l2_requested_bytes is None else l2_stage_bytes(l2_requested_bytes, tiles, k_it)
        stream = stage_stream_cycles(served, tiles, sms, l2_bytes_per_cycle, smem_bytes_per_cycle)
        load_latency_cycles = load_latency_cycles + stream
        waited = waited + stream
    latency = _where(synchronous_loads, waited, load_latency_cycles / _max(stages - 1, 1))
    copies = stage_bytes / 16.0 if stage_copies_per_iter is None else stage_copies_per_iter
    copies_per_thread = copies / (warp_size * warps)
    iteration = (costs.iteration_s + costs.copy_issue_s * copies_per_thread) * clock_hz
    issue = copy_instruction_cycles(copies, element_copies_per_iter, warp_size, costs.copy_instruction_s * clock_hz)
    # What the SM's path takes of each resident CTA's copies: less than one CTA's own chain where CTAs share it
    # (the occupancy check: shared_copy_instruction_s).
    shared_issue = copy_instruction_cycles(
        copies, element_copies_per_iter, warp_size,
        shared_copy_cycles(costs, clock_hz, element_copies_only),
    )  # fmt: skip
    # Transposed in registers by the CTA's warps between the load and the store to shared memory:
    # nothing else of this CTA's iteration runs meanwhile, while other resident CTAs' MMAs go on (the
    # transposes share the SM's shared-memory path with the operand reads and fills).
    transpose = transposed_elements_per_iter * costs.transpose_s * clock_hz
    # Shared-memory reads the MMA warps issue themselves, one element per thread, and wait on before
    # their MMAs (an MN-major 8- or 32-bit operand under mma.sync): in series with this CTA's MMAs, and
    # on the SM's shared-memory path like the rest (prediction.operand_read_factors).
    transpose = transpose + gathered_bytes_per_iter / smem_bytes_per_cycle
    # fp8 fragments converted to fp16 for mma.sync: work the warps issue, a pipe beside the MMAs shared by the
    # resident CTAs. The bytes of an 8-bit MN-major operand the warps load and pack one at a time before their
    # MMAs can read them are in series with both: the gather check (eight conversion-heavy tiles per SM) found them
    # adding to the conversions' time, the issue-occupancy check to the MMAs' where those bind (its fp8 tiles with B
    # N-major against the same tiles K-major, docs/measurements/h200-2026-11-29/issue_occupancy).
    conversions = converted_elements_per_iter * costs.convert_s * clock_hz
    # The resident CTAs' pipe where both operands are K-major: per element and per warp (convert_shared, convert_warp).
    shared_conversions = (
        conversions
        if not (costs.convert_shared_s and costs.convert_s)
        else _where(
            (converted_elements_per_iter > 0) & (gathered_elements_per_iter == 0),
            converted_elements_per_iter * costs.convert_shared_s * clock_hz + warps * costs.convert_warp_s * clock_hz,
            conversions,
        )
    )
    gathers = gathered_elements_per_iter * costs.gather_s * clock_hz
    convert = conversions + gathers

    conflicting = conflicting_reads.any() if _is_array(conflicting_reads) else conflicting_reads

    def pipes_at(spill_cycles: Any, ctas: Any) -> Any:
        """The SM's pipes an iteration of a round of ``ctas`` CTAs with the spills taking ``spill_cycles`` (a full
        round's or the last's): the MMAs and the shared-memory path side by side under wgmma, by their ISSUED_PIPE_NORM
        where the warps issue both (by CONFLICTING_PIPE_NORM where ``conflicting_reads``); the conversions on the pipe
        the CTAs share where more than one holds the SM, one CTA's own where it is alone."""
        converts = _where(ctas > 1, shared_conversions, conversions)
        mmas, shared = _max(mma, converts) + gathers, smem + transpose + spill_cycles
        larger = _max(mmas, shared)
        ratio = _min(mmas, shared) / _where(larger > 0, larger, 1.0)
        factor = norm_factor(ISSUED_PIPE_NORM, ratio)
        if conflicting:
            factor = _where(conflicting_reads, norm_factor(CONFLICTING_PIPE_NORM, ratio), factor)
        return _max(_where(warpgroup, larger, larger * factor), shared_issue) + kmajor_copy_cycles

    # A CTA of w warps runs s = max(1, w / 4) instruction streams on each sub-partition's issue slot
    # (warps of mma.sync or FMA) or warpgroups (wgmma): each stream does its share of the MMAs and
    # then its serial work, while the other streams keep the pipe busy. mma.sync and FMA warps issue
    # their instructions and the iteration's work (barrier, addresses, copies) in turn; wgmma runs
    # asynchronously, so that work hides under the group in flight and the stream's serial part is
    # the wait on its previous group. Where the loop waits for each wgmma before issuing the next (waits_each_wgmma),
    # a stream's wait returns only once the tensor cores have done the other streams' wgmma queued before its own: its
    # iteration holds the CTA's MMAs and then its wait, the overlap of one stream's wait with another's MMAs lost.
    streams = _max(warps // SUB_PARTITIONS, 1)
    wait = costs.wait_s * clock_hz
    # A load that is not pipelined is issued, waited on and stored before the iteration's MMAs can
    # read it (one buffer): its latency adds to the iteration instead of hiding under it.
    exposed = _where(synchronous_loads, latency, 0.0)
    hidden = latency - exposed
    # A stream's own chain where its warps issue everything (mma.sync, FMA): its gathers, then its share of the MMAs
    # and the iteration's work, or the lone-warp floor.
    stream_chain = gathers / share + _max(mma / (share * streams) + iteration, lone_warp_cycles)
    work = _where(
        warpgroup,
        _max(mma / share, smem, hidden, iteration, _where(waits_each_wgmma, mma, mma / streams) + wait, issue),
        _max(gathers / share + _max(mma / share, conversions / share), smem, hidden, issue, stream_chain),
    )
    lone = LoneConflict(conflicting_reads, transpose + exposed + stream_chain, smem, warps) if conflicting else None

    def alone_at(spill_cycles: Any) -> Any:
        """One CTA's chain an iteration with the spills taking ``spill_cycles`` (a full round's or the last's)."""
        return transpose + exposed + _max(spill_cycles, spill_wait_cycles) + work + kmajor_copy_cycles

    alone = alone_at(spill)
    prologue = load_latency_cycles
    epilogue = costs.epilogue_s * clock_hz + c_bytes_per_tile / dram_write_bytes_per_cycle_per_sm
    edges = _where(persistent, 0.0, prologue + epilogue)

    per_sm = _ceil_div(tiles, sms)
    c = resident_ctas(ctas_per_sm, tiles, sms)
    rounds = rounds_per_sm(ctas_per_sm, tiles, sms)
    last = per_sm - (rounds - 1) * c

    queued = fenced_queue_cycles(fenced_copies, smem + transpose)
    # The last round's spills move at its own rate (fewer SMs and frames than a full round's); all else as the rest.
    last_spill = (
        spill
        if last_spill_bytes_per_cycle is None
        else 2.0 * hot * 4.0 * warp_size * warps / last_spill_bytes_per_cycle
    )
    pipes = pipes_at(spill, c)
    last_pipes, last_alone = pipes_at(last_spill, last), alone_at(last_spill)
    sm_cycles = _plain_rounds(c, last, rounds, k_it, pipes, alone, edges, queued, last_pipes, last_alone, lone)
    # A persistent kernel pays its prologue and epilogue once per SM (its rounds were computed without them): never
    # more than the launch-per-tile kernel, whose every round pays them (round_cycles).
    once = prologue + epilogue
    sm_cycles = _where(persistent, sm_cycles + once, sm_cycles)

    active = _min(tiles, sms * ctas_per_sm)
    dram_reach = dram_bps
    if dram_latency_s:
        dram_reach = _min(dram_bps, active * _max(stages - 1, 1) * stage_bytes / dram_latency_s)
    # Reads in runs shorter than a line: the requests' rate may bind before the bytes' (dram_request_seconds); and
    # DRAM writes back what the timer's L2 flush left dirty and the kernel's lines evict (flush_writeback_seconds).
    dram = _max(dram_bytes / dram_reach, dram_request_seconds) + flush_writeback_seconds
    sm_s = sm_cycles / clock_hz
    total = costs.launch_s + sm_and_memory_seconds(
        sm_s, dram, l2_seconds, llc_seconds, issued_copy_seconds, issued=issues_copies
    )

    # Attribution: what the SM time is made of, each part as if it were alone (seconds).
    busy = per_sm * k_it / clock_hz
    return {
        "total": total,
        "sm": sm_s,
        # The lone warps' floor where it passes their FFMAs: a round of c CTAs takes it once (busy x floor / c).
        # A wgmma loop that waits for each wgmma: a warpgroup's chain is the CTA's MMAs and its wait, c CTAs a round.
        "compute": busy
        * _where(
            waits_each_wgmma,
            _max(mma, (mma + wait) / c),
            _where(c > 1, _max(mma, lone_warp_cycles / c), _max(mma / share, lone_warp_cycles)),
        ),
        "shared memory": busy * smem,
        # The waits on one CTA's own reloads, where they exceed the bytes' time, overlap the other resident CTAs'; the
        # last round's CTAs at their own rate.
        "spills": busy * _max(spill, spill_wait_cycles / c)
        + last * k_it / clock_hz * (_max(last_spill, spill_wait_cycles / c) - _max(spill, spill_wait_cycles / c)),
        "transposes": busy * transpose,
        # The resident CTAs' pipe where they share the SM (shared_conversions), one CTA's own conversions where alone.
        "conversions": busy * _where(c > 1, shared_conversions + gathers, convert / share),
        "latency": busy * latency / c,
        # The per-iteration costs of each CTA, or the SM's time taking the copies where they bind it: its own rate
        # over the CTAs it holds at once, one CTA's chain where it holds one (shared_copy_instruction_s); then what
        # both operands K-major add to each CTA's iteration, as if alone: c x it a round where the pipes bind, once a
        # round where one CTA's chain does.
        "overhead": busy * (_max(iteration / c, shared_issue, issue / c) + kmajor_copy_cycles),
        "prologue/epilogue": _where(persistent, 1, rounds) * (prologue + epilogue) / clock_hz,
        # Not one of TERMS: what one CTA's chain takes where its warps are each alone and its reads conflict
        # (lone_conflict_cycles), over the busiest SM's full rounds and its last; 0 elsewhere (predict's note).
        "lone reads": (
            0.0
            if lone is None
            else k_it * ((rounds - 1) * lone_conflict_cycles(c, lone) + lone_conflict_cycles(last, lone)) / clock_hz
        ),
        "DRAM": dram,
        "LLC": llc_seconds,
        "L2": l2_seconds,
        "issued copies": issued_copy_seconds,
        "launch": costs.launch_s,
    }
