"""What a CTA needs of an SM (roofmodel/model/footprint.py): the rule by hand, scalar against vectorized,
and the register rule against the register counts Triton reported for the committed kernels (the
H100 broad sweep: the overheads were fitted on its training shapes; the figures here are on the
held-out shapes, and on the H200 sweep, which nothing was fitted on)."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from roofmodel import Gemm, load_machine
from roofmodel.model.footprint import (
    POINTER_COLLAPSE,
    TRITON_REGISTER_OVERHEAD,
    accumulator_spills,
    allocated_and_spilled,
    cta_limits,
    ctas_per_sm,
    factor_spills,
    kernel_footprint,
    loop_as_counted,
    mma_sync_k_steps,
    registers_needed,
    times_factor,
)
from roofmodel.model.kernel import FAMILIES, register_tile_for
from roofmodel.model.prediction import operand_staging, spill_frame_registers, triton_copies, unpipelined_operands
from roofmodel.model.problem import INPUT_BYTES
from tests.conftest import REPO


def test_registers_by_hand():
    # 128x256 tile, 4 warps of wgmma: 128 x 256 / 128 = 256 accumulators + 48 overhead = 304 needed;
    # 255 allocated, 49 spilled.
    need = registers_needed(bm=128, bn=256, bk=64, warps=4, element_bytes=2, accumulator_registers=1.0,
                            operand_fragments=0, staged=0, overhead=48)  # fmt: skip
    assert need == 304 and allocated_and_spilled(need, 255) == (255, 49)
    # mma.sync reads its operands from registers: + (128 + 256) x 64 x 2 / 4 / 128 = 96 fragment registers.
    frag = registers_needed(bm=128, bn=256, bk=64, warps=4, element_bytes=2, accumulator_registers=1.0,
                            operand_fragments=1, staged=0, overhead=31)  # fmt: skip
    assert frag == 256 + 96 + 31


def test_triton_allocates_a_stage_fewer_for_register_operand_families():
    from roofmodel.model.footprint import stage_buffers

    # the broad sweep's compiled sizes: num_stages 3 -> 2 tiles for mma.sync and FMA, 3 for wgmma; never 0
    assert [stage_buffers(FAMILIES.index(f), 3) for f in ("fma", "mma.sync", "wgmma")] == [2, 2, 3]
    assert stage_buffers(FAMILIES.index("mma.sync"), 1) == 1
    h100 = load_machine("h100")
    # a stated kernel's stages are its buffers: (128 + 128) x 64 x 2 B x 3
    stated = kernel_footprint(h100, bm=128, bn=128, bk=64, warps=4, stages=3, family=1, element_bytes=2,
                              accumulator_registers=1.0, staged=False, compiler="stated", rm=64, rn=64, k_step=16)  # fmt: skip
    assert stated["shared_bytes"] == 3 * 256 * 64 * 2


def test_wgmma_spills_whole_accumulator_fragments_in_turns():
    h100 = load_machine("h100")
    fp = kernel_footprint(h100, bm=128, bn=256, bk=64, warps=4, stages=3, family=FAMILIES.index("wgmma"),
                          element_bytes=2, accumulator_registers=1.0, staged=False, rm=128, rn=256)  # fmt: skip
    # 49 over the limit: one m64n256 fragment (64 x 256 / 128 = 128 registers) does not fit, and the two
    # fragments take turns in local memory: 256 spilled, as Triton's compiled count says (recorded sweeps).
    assert fp["registers"] == 255 and fp["spilled"] == 256
    # 256x128 on four warps: four m64n128 fragments of 64; one does not fit, two take turns: 128.
    fp = kernel_footprint(h100, bm=256, bn=128, bk=32, warps=4, stages=3, family=FAMILIES.index("wgmma"),
                          element_bytes=2, accumulator_registers=1.0, staged=False, rm=256, rn=128)  # fmt: skip
    assert fp["spilled"] == 128


def test_triton_16bit_128x256_warpgroup_tiles_keep_one_accumulator_fragment_resident_by_layout_and_stages():
    """footprint.fragments_take_turns: Triton's compile of 16-bit tiles at BK 32 whose warpgroups hold two m64n256 fp32
    fragments, both operands aligned, spills 158-180 (one fragment resident), not the 256 of two fragments in turns: on
    8 warps (256x256) but with both operands K-major at 2 stages, on 4 warps (128x256) with B N-major at 2-3 stages or A
    M-major (benchmarks/fragment_spill_rule.py)."""
    h200 = load_machine("h200")
    wgmma = FAMILIES.index("wgmma")

    def fp(bm=256, bn=256, bk=32, warps=8, element_bytes=2, compiler="triton", rm=128, rn=256, acc=1.0, narrow_rows=0,
           stages=3, a="k", b="n"):  # fmt: skip
        return kernel_footprint(h200, bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, family=wgmma,
                                element_bytes=element_bytes, accumulator_registers=acc, staged=False,
                                compiler=compiler, rm=rm, rn=rn, narrow_rows=narrow_rows, a_m_major=a == "m",
                                b_n_major=b == "n")  # fmt: skip

    # needs 256 accumulators + 48 = 304, 49 past the limit: one m64n256 fragment of 64 x 256 / 128 = 128 stays, the
    # other is brought in for its wgmmas and the 49 spill beside it while both are in: 128 + 49 = 177.
    one = fp()
    assert one["needed"] == 304 and one["registers"] == 255 and one["spilled"] == 177 and bool(one["single_fragment"])
    # Which layouts and stage counts keep one resident (True) or rotate both (256), as compiled.
    resident = {
        8: {("k", "k"): (False, True, True, True), ("k", "n"): (True,) * 4, ("m", "k"): (True,) * 4,
            ("m", "n"): (True,) * 4},
        4: {("k", "k"): (False,) * 4, ("k", "n"): (True, True, False, False), ("m", "k"): (False,) * 4,
            ("m", "n"): (True,) * 4},
    }  # fmt: skip
    for warps, layouts in resident.items():
        for (a, b), by_stages in layouts.items():
            for stages, keeps in zip((2, 3, 4, 5), by_stages, strict=True):
                got = fp(bm=64 * warps // 2, warps=warps, stages=stages, a=a, b=b)
                assert (got["spilled"], bool(got["single_fragment"])) == ((177, True) if keeps else (256, False)), (
                    warps, a, b, stages)  # fmt: skip
    # The rest rotate both fragments, 256, as compiled: BK 64 (8 and 4 warps), tf32 and fp8 at BK 32 and fp8 at 64, tf32
    # at 16, and a CUTLASS kernel (Triton's compile is the evidence).
    for other in (fp(bk=64), fp(bm=128, warps=4, bk=64), fp(element_bytes=4), fp(element_bytes=1),
                  fp(bk=64, element_bytes=1), fp(bk=16, element_bytes=4), fp(compiler="cutlass")):  # fmt: skip
        assert other["spilled"] == 256 and not bool(other["single_fragment"])
    # Not the tile: four fragments a warpgroup (512x256 on 8 warps: all 512 spill) and fp16 accumulators' fragments of
    # 128 at N = 512 (256 past, in turns) are left to the rotation, as is an operand loaded one element at a time (its
    # pointers besides), on 8 warps and on 4.
    assert not bool(fp(bm=512, rm=256)["single_fragment"])
    half = fp(bn=512, rn=512, acc=0.5)
    assert half["spilled"] == 256 and not bool(half["single_fragment"])
    assert not bool(fp(narrow_rows=256)["single_fragment"])
    assert not bool(fp(bm=128, warps=4, narrow_rows=128, a="m")["single_fragment"])
    # The same rule for arrays (the search), layouts and stages included.
    arr = kernel_footprint(h200, bm=np.array([256, 256, 128, 128, 256]), bn=256, bk=np.array([32, 64, 32, 32, 32]),
                           warps=np.array([8, 8, 4, 4, 8]), stages=np.array([3, 3, 3, 4, 2]), family=wgmma,
                           element_bytes=2, accumulator_registers=1.0, staged=False, rm=128, rn=256,
                           a_m_major=np.array([False] * 5), b_n_major=np.array([True, True, True, True, False]))  # fmt: skip
    assert arr["spilled"].tolist() == [177, 256, 177, 256, 256]
    assert arr["single_fragment"].tolist() == [True, False, True, False, False]
    # Given the compiled counts, none is the rule's.
    compiled = kernel_footprint(h200, bm=256, bn=256, bk=32, warps=8, stages=3, family=wgmma, element_bytes=2,
                                accumulator_registers=1.0, staged=False, rm=128, rn=256, registers=255, spilled=160)  # fmt: skip
    assert compiled["spilled"] == 160 and not compiled["single_fragment"]


def test_the_compiled_counts_the_resident_fragment_rule_quotes_a_regression_guard():
    """Recorded compiler counts (no times read): footprint.fragments_take_turns's 8-warp rule as chosen (H100 to
    fresh18, H200 to fresh55 less fresh51): 229 aligned 16-bit 256x256x32 kernels, 201 spilling 158-174 with loops a
    median 162 an iteration, 26 rotating (256), every one both K-major at 2 stages; and the whole rule as it is (H200 to
    fresh59): 243 and 214 aligned kernels on 8 and 4 warps, the rule right of 240 (3 spilled more) and of 212, the
    4-warp resident ones 170-180 with loops a median 172; none of those with an operand loaded one element at a time
    keeping one resident (benchmarks/fragment_spill_rule.py)."""
    from benchmarks.fragment_spill_rule import aligned, kernels, rule_says
    from benchmarks.read_samples import read_h100, read_h200

    rows = [r for _, _, r in kernels({"h100": read_h100(18), "h200": read_h200(55)}) if r.num_warps == 8]
    ok = [r for r in rows if aligned(r)]
    one = [r for r in ok if 150 <= r.spilled_registers < 256]
    both = [r for r in ok if r.spilled_registers == 256]
    assert (len(ok), len(one), len(both)) == (229, 201, 26)
    assert min(r.spilled_registers for r in one) == 158 and max(r.spilled_registers for r in one) == 174
    assert statistics.median(r.loop_local_bytes / 8 for r in one) == 162
    assert all((r.a_major, r.b_major, r.num_stages) == ("k", "k", 2) for r in both)
    assert not any(150 <= r.spilled_registers < 256 for r in rows if not aligned(r))

    rows = [r for _, _, r in kernels({"h100": read_h100(18), "h200": read_h200(59)})]
    for warps, n, right, more in ((8, 243, 240, 3), (4, 214, 212, 0)):
        ok = [r for r in rows if r.num_warps == warps and aligned(r)]
        said = [(rule_says(r), "one resident" if 150 <= r.spilled_registers < 256 else
                 "in turns" if 256 <= r.spilled_registers <= 288 else "more") for r in ok]  # fmt: skip
        assert (len(ok), sum(a == b for a, b in said), sum(b == "more" for _, b in said)) == (n, right, more)
    four = [r for r in rows if r.num_warps == 4 and aligned(r) and 150 <= r.spilled_registers < 256]
    assert (min(r.spilled_registers for r in four), max(r.spilled_registers for r in four)) == (170, 180)
    assert statistics.median(r.loop_local_bytes / 8 for r in four) == 172
    assert not any(150 <= r.spilled_registers < 256 for r in rows if not aligned(r))


def test_32bit_k_major_element_pointers_spill_under_mma_sync_and_fma():
    """footprint.pointers_spill_at_the_limit: a Triton mma.sync or FMA kernel of 32-bit operands, both K-major and both
    loaded one element at a time, spills the element pointers past the limit (no register gamble), and so does an FMA
    one with both so loaded and one K-major (since 1bbe824); other layouts, 16-bit ones and wgmma's keep their rules."""
    h200 = load_machine("h200")

    def fp(
        family="mma.sync", e=4, bm=64, bn=128, bk=32, warps=2, a="k", b="k", m=6900, n=6200, k=3000, compiler="triton"
    ):
        f = FAMILIES.index(family)
        staging = operand_staging(triton_copies(h200, "triton"), f, e, m, n, k, a == "m", b == "n", bm, bn)
        return kernel_footprint(h200, bm=bm, bn=bn, bk=bk, warps=warps, stages=3, family=f, element_bytes=e,
                                accumulator_registers=1.0, rm=64 if family == "mma.sync" else 16,
                                rn=64 if family == "mma.sync" else 4, compiler=compiler, **staging)  # fmt: skip

    # tf32 64x128x32 on 2 warps, both operands loaded one element at a time (K = 3000, 8 mod 16), K-major, by hand:
    # accumulators 64 x 128 / 64 threads = 128, fragments (64 + 128) x 32 x 4 B / 4 / 64 = 96, Triton's mma.sync
    # overhead 31 (a 32-bit operand so loaded is still pipelined: nothing staged) = 255, and the element pointers
    # 2 x (64 + 128) x 32 / 64 = 192: 447, 255 allocated, the 192 past the limit spilled once.
    k_major = fp()
    assert (k_major["needed"], k_major["registers"], k_major["spilled"]) == (447, 255, 192)
    assert bool(k_major["pointers_at_limit"]) and not bool(k_major["gamble"])
    # Both M- or N-major (M = 6900, N = 6200, 4 and 8 mod 16): the same pointers, recomputed by the bet: a gamble.
    mn = fp(a="m", b="n")
    assert mn["needed"] == 447 and mn["spilled"] == 0 and bool(mn["gamble"]) and not bool(mn["pointers_at_limit"])
    # One K-major operand so loaded is not (A M-major, B K-major; A K-major, B N-major): still a gamble.
    assert fp(a="m", b="k")["spilled"] == 0 and bool(fp(a="m", b="k")["gamble"])
    assert fp(a="k", b="n")["spilled"] == 0 and bool(fp(a="k", b="n")["gamble"])
    # Both K-major with K a multiple of 16 (aligned): no pointers.
    assert fp(k=3008)["needed"] == 255 and fp(k=3008)["spilled"] == 0 and not bool(fp(k=3008)["gamble"])
    # fp16: left to its rules (a 16-bit operand's pointers past STACK_COLLAPSE x the limit: the stack; below, a gamble)
    f16 = fp(e=2)
    assert not bool(f16["pointers_at_limit"]) and bool(f16["stack"])
    assert fp(e=2, bn=64)["spilled"] == 0 and bool(fp(e=2, bn=64)["gamble"])
    # an FMA kernel of fp32 operands, the same way
    fma = fp(family="fma", bm=64, bn=64, bk=32, warps=2)
    assert bool(fma["pointers_at_limit"]) and fma["spilled"] == -(-fma["needed"] // 1) - 255 > 0
    # and, for FMA only, with one operand K-major (A K-major, B N-major; A M-major, B K-major), both so loaded; both
    # M- or N-major, or one operand aligned (N = 6208: B N-major copied 16 bytes at a time), stay a gamble
    # By hand, fp32 64x64x32 on 2 warps: accumulators 64 x 64 / 64 threads = 64, the operands' slice (64 + 64) x 32 x
    # 4 B / 4 / 64 = 64, Triton's FMA overhead 66: 194; pointers 2 x (64 + 64) x 32 / 64 = 128: 322, 67 past the limit.
    assert (fma["needed"], fma["spilled"]) == (322, 67)
    for a, b in (("k", "n"), ("m", "k")):
        one = fp(family="fma", bm=64, bn=64, bk=32, warps=2, a=a, b=b)
        assert (one["needed"], one["spilled"]) == (322, 67)
        assert bool(one["pointers_at_limit"]) and not bool(one["gamble"])
    assert bool(fp(family="fma", bm=64, bn=64, bk=32, warps=2, a="m", b="n")["gamble"])
    assert bool(fp(family="fma", bm=64, bn=64, bk=32, warps=2, a="k", b="n", n=6208)["gamble"])
    assert not bool(
        fp(family="fma", bm=64, bn=64, bk=32, warps=2, a="k", b="n", compiler="cutlass")["pointers_at_limit"]
    )
    # Triton's compile is the evidence: a CUTLASS kernel is left to the gamble (its copies know the alignment anyway)
    assert not bool(fp(compiler="cutlass")["pointers_at_limit"])
    # the same rule for arrays (the search)
    arr = kernel_footprint(h200, bm=64, bn=128, bk=32, warps=2, stages=3, family=FAMILIES.index("mma.sync"),
                           element_bytes=4, accumulator_registers=1.0, rm=64, rn=64,
                           **operand_staging(triton_copies(h200, "triton"), FAMILIES.index("mma.sync"), 4, 6900, 6200,
                                             3000, np.array([False, True]), np.array([False, True]), 64, 128))  # fmt: skip
    assert arr["spilled"].tolist() == [192, 0] and arr["gamble"].tolist() == [False, True]


def test_the_compiled_counts_the_wide_pointer_rule_quotes_a_regression_guard():
    """Recorded compiler counts (no times read; the read sweeps the rule was chosen on, H100 to fresh18 and H200 to
    fresh61 less fresh51): the Triton mma.sync and FMA kernels of 32-bit operands past the limit only by their element
    pointers, 826; of those with both operands so loaded and K-major (footprint.pointers_spill_at_the_limit's class)
    287 of 297 spilled as compiled, with any K-major one 532 of 634, of the rest 86 of 192
    (benchmarks/wide_pointer_rule.py); the FMA ones with both so loaded and one K-major (the class 1bbe824 added),
    101 of 134 (A K-major and B N-major 75 of 103, A M-major and B K-major 26 of 31)."""
    from benchmarks.read_samples import read_h100, read_h200
    from benchmarks.wide_pointer_rule import k_major, narrow_layout, pointer_gambles

    rows = pointer_gambles({"h100": read_h100(18), "h200": read_h200(61)})
    kmaj = [r for _, _, r, _ in rows if k_major(narrow_layout(r))]
    rest = [r for _, _, r, _ in rows if not k_major(narrow_layout(r))]
    assert (len(rows), len(kmaj), sum(r.spilled_registers > 0 for r in kmaj)) == (826, 634, 532)
    assert (len(rest), sum(r.spilled_registers > 0 for r in rest)) == (192, 86)
    both = [r for _, _, r, _ in rows if narrow_layout(r) == "A K, B K"]
    assert (len(both), sum(r.spilled_registers > 0 for r in both)) == (297, 287)
    for layout, n, spilled in (("A K, B N", 103, 75), ("A M, B K", 31, 26)):
        one = [r for _, _, r, _ in rows if r.instruction == "fma" and narrow_layout(r) == layout]
        assert (len(one), sum(r.spilled_registers > 0 for r in one)) == (n, spilled)
    # predict's note quotes these counts (prediction.wide_pointer_note)
    from roofmodel.model.prediction import wide_pointer_note

    assert "297 past the limit" in wide_pointer_note(True) and "287 spilled" in wide_pointer_note(True)
    assert "134 past the limit" in wide_pointer_note(False) and "101 spilled" in wide_pointer_note(False)


def test_occupancy_splits_the_register_file_over_four_sub_partitions():
    h100 = load_machine("h100")
    # 192 registers x 32 = 6,144 per warp: 16,384 / 6,144 = 2 warps per sub-partition, 8 per SM; a
    # 2-warp CTA fits 4 times (the whole-SM rule would say 65,536 / 12,288 = 5).
    assert cta_limits(h100, 64, 192, 0)["registers"] == 4
    assert ctas_per_sm(h100, 64, 192, 0) == 4


def test_scalar_and_vectorized_agree():
    h100 = load_machine("h100")
    rng = np.random.default_rng(3)
    n = 300
    cols = dict(bm=rng.choice([16, 64, 128, 256], n), bn=rng.choice([32, 64, 128, 256], n),
                bk=rng.choice([32, 64, 128], n), warps=rng.choice([2, 4, 8], n), stages=rng.choice([2, 3, 4, 5], n),
                family=rng.choice([0, 1, 2], n), staged=rng.random(n) < 0.2,
                rn=rng.choice([16, 64, 128, 256], n))  # fmt: skip
    vec = kernel_footprint(h100, element_bytes=2, accumulator_registers=1.0, **cols)
    for i in range(0, n, 7):
        one = kernel_footprint(h100, element_bytes=2, accumulator_registers=1.0,
                               **{k: v[i].item() for k, v in cols.items()})  # fmt: skip
        for key in ("registers", "spilled", "shared_bytes", "ctas_per_sm", "fits"):
            assert vec[key][i] == one[key], (key, i)


def _rule_against_compiled(path):
    from roofmodel.backends.broad import read_broad_csv

    h100 = load_machine("h100")
    out = []
    for r in read_broad_csv(path):
        if r.set != "sweep":
            continue
        fam = r.instruction or "fma"
        e = INPUT_BYTES[r.dtype]
        rm, rn = register_tile_for(fam, r.block_m, r.block_n, r.num_warps)
        fi = FAMILIES.index(fam)
        staging = operand_staging(True, fi, e, r.m, r.n, r.k, r.a_major == "m", r.b_major == "n", r.block_m,
                                  r.block_n)  # fmt: skip
        fp = kernel_footprint(h100, bm=r.block_m, bn=r.block_n, bk=r.block_k, warps=r.num_warps,
                              stages=r.num_stages, family=fi, element_bytes=e,
                              accumulator_registers=1.0, rm=rm, rn=rn, **staging)  # fmt: skip
        out.append((r, fp))
    return out


@pytest.mark.parametrize("gpu", ["h100", "h200"])
def test_the_register_rule_against_what_triton_compiled(gpu):
    """Recorded-measurement guard. On the H100's held-out kernels and on the H200's (the same compiler):
    median |error| 16 registers (wgmma), 8 (mma.sync), 26 (FMA) on kernels that do not spill; 72% / 71%
    of the kernels that spill are predicted to, 1.0% / 0.95% of those that do not (79% / 76% and 2.4% /
    2.2% while the pointers of operands loaded one element at a time could make a kernel spill)."""
    rows = _rule_against_compiled(REPO / "docs" / "measurements" / f"{gpu}-2026-11-23" / "broad.csv")
    if gpu == "h100":
        rows = [(r, fp) for r, fp in rows if r.split == "holdout"]
    for fam in ("wgmma", "mma.sync", "fma"):
        fit = [abs(fp["needed"] - r.registers_per_thread) for r, fp in rows
               if (r.instruction or "fma") == fam and r.spilled_registers == 0]  # fmt: skip
        assert statistics.median(fit) < {"wgmma": 20, "mma.sync": 12, "fma": 30}[fam], fam
    spills = [(r.spilled_registers > 0, fp["spilled"] > 0) for r, fp in rows]
    caught = sum(1 for real, said in spills if real and said) / sum(1 for real, _ in spills if real)
    false = sum(1 for real, said in spills if said and not real) / sum(1 for real, _ in spills if not real)
    assert caught > 0.70 and false < 0.02
    assert set(TRITON_REGISTER_OVERHEAD) == {"wgmma", "mma.sync", "fma"}


def test_operands_triton_cannot_copy_16_bytes_at_a_time():
    # fp16, 3000 x 5000 x 2000, A K-major (stride 2000 = 16 x 125), B N-major (stride 5000, not a
    # multiple of 16): B is known aligned to one element, 2-byte loads, not pipelined.
    (na, nb), (ua, ub) = unpipelined_operands(2, 3000, 5000, 2000, False, True)
    assert (na, nb, ua, ub) == (False, True, False, True)
    # tf32: one element is 4 bytes, cp.async's smallest copy: narrow, still pipelined.
    assert unpipelined_operands(4, 3000, 5000, 2000, False, True) == ((False, True), (False, False))
    # an M-major A of 8 rows (decode): stride 8.
    assert unpipelined_operands(1, 8, 8192, 8192, True, False)[1] == (True, False)
    # B's single buffer: 128x64x64 wgmma with 4 stages = (4 x 128 + 1 x 64) x 64 x 2 B.
    fp = kernel_footprint(load_machine("h100"), bm=128, bn=64, bk=64, warps=4, stages=4, family=2, element_bytes=2,
                          accumulator_registers=1.0, rm=64, rn=64,
                          **operand_staging(True, 2, 2, 3000, 5000, 2000, False, True, 128, 64))  # fmt: skip
    assert fp["shared_bytes"] == (4 * 128 + 64) * 64 * 2
    # Where Triton's copy rules do not apply (CUTLASS, a stated kernel, AMD, sm_75): none of this.
    assert operand_staging(False, 2, 2, 3000, 5000, 2000, False, True, 128, 64)["single_b"] is False


@pytest.mark.parametrize("sweep", ["h100-2026-11-23", "h100-2026-11-24"])
def test_unpipelined_operands_against_what_triton_compiled(sweep):
    """Recorded-measurement guard: the tensor-core kernels of the broad sweeps with a 16- or 8-bit
    operand whose stride is not a multiple of 16 (the odd shapes, decode with an M-major A): Triton's
    compiled shared memory is the rule's (one buffer for such an operand) in 91% of 76 and 89% of 166,
    where a buffer per stage for both operands gives 12% and 14%."""
    rows = [(r, fp) for r, fp in _rule_against_compiled(REPO / "docs" / "measurements" / sweep / "broad.csv")
            if r.instruction in ("wgmma", "mma.sync") and any(
                unpipelined_operands(INPUT_BYTES[r.dtype], r.m, r.n, r.k, r.a_major == "m", r.b_major == "n")[1])]  # fmt: skip
    assert len(rows) >= 76
    right = sum(fp["shared_bytes"] == r.shared_bytes for r, fp in rows) / len(rows)
    assert right > 0.85


@pytest.mark.parametrize("sweep", ["h100-2026-11-23", "h100-2026-11-24"])
def test_an_8bit_operand_wgmma_cannot_read_has_one_buffer(sweep):
    """Recorded-measurement guard: fp8 kernels with an MN-major operand (aligned shapes). Under wgmma,
    Triton does not pipeline that operand (one buffer; 122 of 126 kernels of the two sweeps); under
    mma.sync it gives it every stage's buffer (135 of 135). The rule's shared memory is the compiled one."""
    rows = [(r, fp) for r, fp in _rule_against_compiled(REPO / "docs" / "measurements" / sweep / "broad.csv")
            if r.dtype == "fp8" and r.instruction in ("wgmma", "mma.sync") and (r.a_major == "m" or r.b_major == "n")
            and not any(unpipelined_operands(1, r.m, r.n, r.k, r.a_major == "m", r.b_major == "n")[1])]  # fmt: skip
    for family, least in (("wgmma", 0.95), ("mma.sync", 1.0)):
        own = [(r, fp) for r, fp in rows if r.instruction == family]
        assert len(own) > 30
        assert sum(fp["shared_bytes"] == r.shared_bytes for r, fp in own) / len(own) >= least, family


def test_pointers_fill_registers_and_spill_only_past_the_collapse():
    from roofmodel.model.footprint import POINTER_COLLAPSE

    h100 = load_machine("h100")

    def fp(m, n, k, dtype_bytes, family, bm, bn, bk, warps, a_m, b_n):
        rm, rn = register_tile_for(FAMILIES[family], bm, bn, warps)
        staging = operand_staging(True, family, dtype_bytes, m, n, k, a_m, b_n, bm, bn)
        return kernel_footprint(h100, bm=bm, bn=bn, bk=bk, warps=warps, stages=3, family=family,
                                element_bytes=dtype_bytes, accumulator_registers=1.0, rm=rm, rn=rn, **staging)  # fmt: skip

    # fp16 128x256x64 on 8 warps, B N-major with N = 4104: 256 x 64 / 256 = 64 elements a thread loaded one
    # at a time, 128 pointer registers: 336 needed, 255 allocated, no spills (Triton: 255, none).
    wide = fp(4096, 4104, 4096, 2, 2, 128, 256, 64, 8, False, True)
    assert wide["needed"] == 336 and wide["registers"] == 255 and wide["spilled"] == 0
    # bf16 128x64x128 mma.sync on 2 warps, B N-major with N = 5000: 671 needed, past 2.3 x 255: the
    # pointers spill with the rest, and ptxas gives the kernel 32 registers and the stack, 2.4 x (671 -
    # 32) = 1,533.6 spilled (Triton: 32 registers and 1,686 spilled).
    collapse = fp(3000, 5000, 2000, 2, 1, 128, 64, 128, 2, False, True)
    assert collapse["needed"] == 671 > POINTER_COLLAPSE * 255
    assert collapse["registers"] == 32 and collapse["spilled"] == math.ceil(2.4 * (671 - 32))
    # Aligned, past the point on its own registers: 255 kept, 2.4 x (607 - 255) = 844.8 on the stack
    # (fp16 256x64x128 on 2 warps, 4096^3: Triton 255 registers and 762 spilled).
    own = fp(4096, 4096, 4096, 2, 1, 256, 64, 128, 2, False, True)
    assert own["needed"] == 607 and own["registers"] == 255 and own["spilled"] == math.ceil(2.4 * (607 - 255))
    # A wgmma kernel past the point keeps its 255 registers and spills the excess.
    w = fp(4096, 4104, 4096, 2, 2, 128, 256, 128, 4, False, True)
    assert w["needed"] > POINTER_COLLAPSE * 255 and w["registers"] == 255 and w["spilled"] >= w["needed"] - 255


def test_the_collapse_to_32_registers_against_the_compiled_kernels():
    """Recorded-measurement guard (docs/measurements/h100-2026-11-2{3,4}, every sweep mma.sync kernel):
    ptxas compiled 43 of the 145 with an operand loaded one element at a time to 32 registers with
    spills. The rule (needed > STACK_COLLAPSE x 255 with a 16- or 8-bit operand element-wise, chosen on
    the compile study, which holds none of these shapes) says 32 for 41 of them and for 7 of the other
    102; the training shapes' four are all caught. At POINTER_COLLAPSE for every element-wise operand
    (the rule before, chosen on the training shapes) it said 32 for 32 and for 7. Aligned kernels that
    pass that point on their own registers (13; 17 while a gathered fp8 operand's stage counted both operands, before
    2e86a60) compiled to 255 and spilled: the rule keeps them at 255."""
    from roofmodel.backends.broad import read_broad_csv

    h100 = load_machine("h100")
    said = {True: [0, 0], False: [0, 0]}  # compiled 32 -> [rule 32, rule not], operands element-wise
    aligned_past, train = [], []
    for day in ("h100-2026-11-23", "h100-2026-11-24"):
        for r in read_broad_csv(REPO / "docs" / "measurements" / day / "broad.csv"):
            if r.set != "sweep" or r.instruction != "mma.sync":
                continue
            e = {"fp16": 2, "bf16": 2, "tf32": 4, "fp32": 4, "fp8": 1}[r.dtype]
            staging = operand_staging(
                True, 1, e, r.m, r.n, r.k, r.a_major == "m", r.b_major == "n", r.block_m, r.block_n
            )
            rm, rn = register_tile_for("mma.sync", r.block_m, r.block_n, r.num_warps)
            fp = kernel_footprint(h100, bm=r.block_m, bn=r.block_n, bk=r.block_k, warps=r.num_warps,
                                  stages=r.num_stages, family=1, element_bytes=e, accumulator_registers=1.0, rm=rm,
                                  rn=rn, **staging)  # fmt: skip
            compiled32 = r.registers_per_thread == 32 and r.spilled_registers > 0
            if not staging["narrow_rows"]:
                if fp["needed"] > POINTER_COLLAPSE * 255:
                    aligned_past.append((r.registers_per_thread, fp["registers"]))
                continue
            said[compiled32][0 if fp["registers"] == 32 else 1] += 1
            if r.split == "train" and compiled32:
                train.append(fp["registers"] == 32)
    assert said == {True: [41, 2], False: [7, 95]}
    assert train == [True] * 4
    assert len(aligned_past) == 13 and set(aligned_past) == {(255, 255)}


def test_triton_copy_rules_by_hand():
    from roofmodel.model.prediction import copy_plan, triton_copies

    # Triton's rules need cp.async: NVIDIA sm_80 and later, a Triton kernel.
    assert triton_copies(load_machine("h100"), "triton") and triton_copies(load_machine("a100"), "triton")
    assert not triton_copies(load_machine("t4"), "triton") and not triton_copies(load_machine("mi300x"), "triton")
    assert not triton_copies(load_machine("h100"), "cutlass") and not triton_copies(load_machine("h100"), "stated")
    # fp8 under wgmma, A M-major (aligned shape): A is laid out again through registers, one buffer:
    # 128x128x128 with 3 stages = (1 x 128 + 3 x 128) x 128 x 1 B = 65,536 B, not 3 x 256 x 128 = 98,304;
    # under mma.sync every stage keeps its buffer.
    wg = copy_plan(True, FAMILIES.index("wgmma"), 1, 4096, 4096, 4096, True, False, 128, 128)
    assert bool(wg.relaid) and wg.single == (True, False) and bool(wg.synchronous)
    fp = kernel_footprint(load_machine("h100"), bm=128, bn=128, bk=128, warps=4, stages=3, family=2, element_bytes=1,
                          accumulator_registers=1.0, rm=128, rn=128,
                          **operand_staging(True, 2, 1, 4096, 4096, 4096, True, False, 128, 128))  # fmt: skip
    assert fp["shared_bytes"] == (1 * 128 + 3 * 128) * 128
    sync = copy_plan(True, FAMILIES.index("mma.sync"), 1, 4096, 4096, 4096, True, False, 128, 128)
    assert sync.single == (False, False)
    # tf32 B N-major with N = 4104: narrow (one 4-byte copy per element), still pipelined.
    tf = copy_plan(True, FAMILIES.index("wgmma"), 4, 4096, 4104, 4096, False, True, 128, 128)
    assert tf.narrow == (False, True) and tf.unaligned == (False, False) and not bool(tf.synchronous)


def test_relaid_store_bank_conflicts_by_hand():
    """An 8-bit MN-major operand under wgmma is stored from registers one byte per thread into a
    K-major tile: the threads of a warp along M or N (16 bytes each) write rows 16 apart, which start
    in the same bank, so a store takes that many wavefronts: min(32, rows / 16), at least 1 (a row under 16 bytes
    still takes one)."""
    from roofmodel.model.prediction import copy_plan, relaid_store_factor

    # B N-major, BN = 128: 8 threads along N, 8 wavefronts of 128 B for 32 B stored: 32x a 16-byte copy.
    assert relaid_store_factor(1, 128) == 32.0
    # BN = 256: 16 threads, 64x; BN = 64: 4 threads, 16x; BN = 32: 2 threads, 8x, less than a one-element
    # cp.async request's 16 / e (no floor since b7bf90c: these are stores, their cost their wavefronts).
    assert relaid_store_factor(1, 256) == 64.0
    assert relaid_store_factor(1, 64) == 16.0
    assert relaid_store_factor(1, 32) == 8.0
    assert relaid_store_factor(1, 16) == relaid_store_factor(1, 8) == 4.0  # one thread along the row: one wavefront
    # Capped at a warp: 32 threads along a 1024-row operand, 128x.
    assert relaid_store_factor(1, 1024) == 128.0
    wgmma, sync = FAMILIES.index("wgmma"), FAMILIES.index("mma.sync")
    # Under wgmma the factor follows the tile: A M-major with BM = 256 (16 threads), B K-major untouched.
    plan = copy_plan(True, wgmma, 1, 4096, 4096, 4096, True, False, 256, 64)
    assert (float(plan.fa), float(plan.fb)) == (64.0, 1.0)
    # Under mma.sync every stage is copied in its own layout (no store through registers), 8 bytes a copy.
    assert (float(copy_plan(True, sync, 1, 4096, 4096, 4096, True, False, 256, 64).fa)) == 2.0
    # tf32 and fp16 keep their factors (tf32: 4-byte copies, 16 / 4; fp16: transposed by the hardware).
    assert float(copy_plan(True, wgmma, 4, 4096, 4096, 4096, False, True, 128, 256).fb) == 4.0
    assert float(copy_plan(True, wgmma, 2, 4096, 4096, 4096, True, True, 256, 256).fa) == 1.0
    # Outside Triton's rules nothing is relaid, so nothing changes: the request rule stands.
    assert float(copy_plan(False, wgmma, 1, 4096, 4096, 4096, True, False, 256, 64).fa) == 16.0


def _fp8_n_over_k_shared_memory(block_n: int, num_warps: int) -> float:
    """The H100's shared-memory term of a 4096^3 fp8 Triton wgmma kernel, BLOCK 128 x block_n x 128, 3 stages, with B
    N-major over the same kernel with B K-major."""
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel

    h100 = load_machine("h100")
    cfg = triton_config(h100, "fp8", block_m=128, block_n=block_n, block_k=128, num_warps=num_warps, num_stages=3)

    def smem(b_major: str) -> float:
        p = predict_kernel(h100, Gemm(m=4096, n=4096, k=4096, dtype="fp8"), cfg, b_major=b_major)
        return next(t.seconds for t in p.terms if t.name == "shared memory")

    return smem("n") / smem("k")


def test_relaid_store_factor_in_the_time_by_hand():
    """The layout check's 4096^3 fp8 kernel, 128x128x128, 8 warps, 3 stages, under wgmma: per iteration
    it reads 128 x 128 x 128 x (1/64 + 1/128) = 49,152 B of operands (64-row wgmma tiles, 128 wide)
    and fills (128 + 128) x 128 = 32,768 B with both operands K-major; with B N-major, B's 16,384 B
    fill at 32x (8 wavefronts per 32 B stored) makes 16,384 + 524,288: shared-memory time x 7.2
    (589,824 / 81,920), where the request rule alone (16x) said x 4.0."""
    assert _fp8_n_over_k_shared_memory(128, 8) == pytest.approx(589_824 / 81_920)


def test_a_32_row_relaid_operand_by_hand():
    """fp8 4096^3, 128x32x128 on 4 warps, 3 stages, under wgmma (the read sweeps' BN = 32 kernels, 19.8% too slow
    with the old floor of 16): B N-major, 32 rows, t = 2 threads along N: B's 32 x 128 = 4,096 B fill at 8x, 32,768,
    where the floor said 65,536. A's fill is 128 x 128 = 16,384 B; the wgmma tile is 64 x 32 (B read once per 64
    rows, A once per 32 columns), so the reads are 128 x 32 x 128 x (1/64 + 1/32) = 24,576 B: shared memory 73,728
    B against the K-major kernel's 45,056, where the floor said 106,496."""
    assert _fp8_n_over_k_shared_memory(32, 4) == pytest.approx(73_728 / 45_056)


def test_mma_sync_mn_major_operands_by_hand():
    """mma.sync copies an MN-major 8- or 32-bit operand in its own layout, pipelined (8-byte copies
    for 8-bit: 2x the requests; 16-byte for 32-bit), and reads it one element per thread per
    ld.shared, 32 x e bytes a wavefront: 4 / e times the wavefronts of ldmatrix (the compiled PTX of
    docs/measurements/h100-2026-11-25/layout_mma_sync)."""
    from roofmodel.model.prediction import copy_plan, layout_factors, operand_read_factors, synchronous_copy

    sync, wgmma = FAMILIES.index("mma.sync"), FAMILIES.index("wgmma")
    assert layout_factors(sync, 1, True, False) == (2.0, 1.0)
    assert layout_factors(sync, 4, True, True) == (1.0, 1.0)
    assert layout_factors(sync, 2, True, True) == (1.0, 1.0)
    assert operand_read_factors(sync, 1, False, True) == (1.0, 4.0)
    assert operand_read_factors(sync, 4, True, True) == (1.0, 1.0)
    assert operand_read_factors(wgmma, 1, True, True) == (1.0, 1.0)  # wgmma's operands are stored K-major first
    assert not bool(synchronous_copy(sync, 1, 2.0, 1.0)) and bool(synchronous_copy(wgmma, 1, 16.0, 1.0))
    plan = copy_plan(True, sync, 1, 4096, 4096, 4096, False, True, 128, 128)
    assert not bool(plan.relaid) and not bool(plan.synchronous) and bool(plan.gathered)
    assert plan.single == (False, False)
    # The register rule holds the gathered operand's slice of a stage in registers, as a relaid one's: B's 128 rows of
    # the 128 + 128 (A goes by cp.async to shared memory); both gathered, the whole stage; neither, none.
    assert operand_staging(True, sync, 1, 4096, 4096, 4096, False, True, 128, 128)["staged"] == 0.5
    assert operand_staging(True, sync, 1, 4096, 4096, 4096, False, True, 64, 256)["staged"] == 256 / 320
    assert operand_staging(True, sync, 1, 4096, 4096, 4096, True, True, 64, 256)["staged"] == 1.0
    assert operand_staging(True, wgmma, 1, 4096, 4096, 4096, True, False, 64, 256)["staged"] == 64 / 320
    assert operand_staging(True, sync, 1, 4096, 4096, 4096, False, False, 128, 128)["staged"] == 0.0


def test_mma_sync_mn_major_time_by_hand():
    """The 128x128x128 fp8 mma.sync kernel of the check (8 warps of 64x32): per iteration A's reads
    128 x 128 x 128 / 32 = 65,536 B, B's / 64 = 32,768, fills (128 + 128) x 128 = 32,768: 131,072 B
    K-major. B N-major: its reads at 4x (131,072) and its fill at 2x (32,768): 65,536 + 131,072 +
    16,384 + 32,768 = 245,760 B, x 1.875; B's reads are the warps' own, in series with their MMAs, so
    they are the transposes term's and the shared-memory term keeps the rest (114,688 B, x 0.875)."""
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel

    h100 = load_machine("h100")
    cfg = triton_config(h100, "fp8", block_m=128, block_n=128, block_k=128, num_warps=8, num_stages=3)
    cfg = cfg.model_copy(update={"instruction": "mma.sync", "register_tile": (64, 32)})

    def terms(b_major: str) -> dict[str, float]:
        p = predict_kernel(h100, Gemm(m=4096, n=4096, k=4096, dtype="fp8"), cfg, b_major=b_major)
        return {t.name: t.seconds for t in p.terms}

    n, k = terms("n"), terms("k")
    assert n["shared memory"] / k["shared memory"] == pytest.approx(114_688 / 131_072)
    assert n["transposes"] / k["shared memory"] == pytest.approx(131_072 / 131_072)
    assert k["transposes"] == 0.0


def test_the_l2_term_at_the_gemm_bandwidth_by_hand():
    """With memory.l2.gemm_bandwidth the per-CTA model charges every requested byte at that one rate:
    4096^3 fp16 with 64x32 tiles requests 8,192 tiles x (64 + 32) x 4,096 x 2 B of panels, and C's
    4,096^2 x 2 B, at 8,980 GB/s: 0.7211 ms. The measured kernels of that tile ran 0.70-0.72 ms."""
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel

    h100 = load_machine("h100")
    cfg = triton_config(h100, "fp16", block_m=64, block_n=32, block_k=64, num_warps=4, num_stages=3)
    p = predict_kernel(h100, Gemm(m=4096, n=4096, k=4096, dtype="fp16"), cfg, b_major="k")
    l2 = next(t.seconds for t in p.terms if t.name == "L2")
    assert l2 == pytest.approx((8192 * 96 * 4096 * 2 + 4096 * 4096 * 2) / 8980e9)
    # Without the figure the L2 probes' rates stand: distinct bytes at memory.l2.bandwidth, a wave's
    # repeated ones at the same-address rate, which is faster.
    from tests.conftest import machine_from

    data = h100.model_dump(mode="json", exclude_none=True, exclude={"source_file"})
    data["memory"]["l2"].pop("gemm_bandwidth")
    old = predict_kernel(machine_from(data), Gemm(m=4096, n=4096, k=4096, dtype="fp16"), cfg, b_major="k")
    assert next(t.seconds for t in old.terms if t.name == "L2") < l2
    # The inputs name what the time used: the GEMM rate, or without it the same-address rate.
    fields = {i.field for i in p.inputs}
    assert "memory.l2.gemm_bandwidth.measured" in fields and not any("shared_read" in f for f in fields)
    assert "memory.l2.shared_read_bandwidth.measured" in {i.field for i in old.inputs}


def test_fp8_conversions_for_mma_sync_by_hand():
    """Triton on sm_90 converts fp8 fragments to fp16 in front of mma.sync (192 cvt.rn.f16x2.e4m3x2 a
    thread per iteration at 128x128x128 on 8 warps: 8 x (64 + 32) x 128 = 98,304 elements = 256 threads
    x 192 x 2). At 32x64x128 on 4 warps of 32x16: 4 x (32 + 16) x 128 = 24,576 elements an iteration;
    on 4096^3, 63 tiles x 32 iterations per SM, several CTAs an SM with both operands K-major: the pipe they share,
    24,576 x kernel_costs.convert_shared (0.0105 cycles an element) + 4 warps x kernel_costs.convert_warp (14 cycles)
    = 314.0 cycles an iteration, 1,830 MHz: 0.3460 ms, the conversions term (at kernel_costs.convert alone, 0.01964
    cycles an element, it was 0.5317 ms; one CTA alone keeps that rate). None for wgmma, for 16-bit types, or where
    the file has no figure (the L40S's mma.sync takes fp8 itself)."""
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import converted_elements, predict_kernel

    sync, wgmma = FAMILIES.index("mma.sync"), FAMILIES.index("wgmma")
    assert converted_elements(sync, 1, 8, 128, 128, 128, 64, 32) == 98_304 == 256 * 192 * 2
    assert converted_elements(sync, 1, 4, 32, 64, 128, 32, 16) == 24_576
    assert converted_elements(wgmma, 1, 8, 128, 128, 128, 64, 128) == 0
    assert converted_elements(sync, 2, 4, 32, 64, 128, 32, 16) == 0
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp8")
    h100 = load_machine("h100")
    p = predict_kernel(h100, g, triton_config(h100, "fp8", block_m=32, block_n=64, block_k=128, num_warps=4,
                                              num_stages=3), b_major="k")  # fmt: skip
    assert p.instruction == "mma.sync" and p.register_tile == (32, 16)
    conv = next(t.seconds for t in p.terms if t.name == "conversions")
    assert conv == pytest.approx(63 * 32 * (24_576 * 0.0105 + 4 * 14) / 1.83e9)
    assert conv == pytest.approx(0.3460e-3, rel=1e-4)
    l40s = load_machine("l40s")
    q = predict_kernel(l40s, g, triton_config(l40s, "fp8", block_m=32, block_n=64, block_k=128, num_warps=4,
                                              num_stages=3), b_major="k")  # fmt: skip
    assert next(t.seconds for t in q.terms if t.name == "conversions") == 0.0
    # int8's mma.sync takes its operands as they are: nothing converted, and the figure is not an input.
    i8 = predict_kernel(h100, Gemm(m=4096, n=4096, k=4096, dtype="int8"),
                        triton_config(h100, "int8", block_m=32, block_n=64, block_k=128, num_warps=4, num_stages=3),
                        b_major="k")  # fmt: skip
    assert i8.instruction == "mma.sync"
    assert next(t.seconds for t in i8.terms if t.name == "conversions") == 0.0
    assert "kernel_costs.convert" in {i.field for i in p.inputs} - {i.field for i in i8.inputs}


def _compiled(m, n, k, dtype, bm, bn, bk, warps, family, regs, spilled, a_m=False, b_n=False, compiler="triton"):
    h100, e = load_machine("h100"), INPUT_BYTES[dtype]
    fi = FAMILIES.index(family)
    rm, rn = register_tile_for(family, bm, bn, warps)
    staging = operand_staging(True, fi, e, m, n, k, a_m, b_n, bm, bn)
    return kernel_footprint(h100, bm=bm, bn=bn, bk=bk, warps=warps, stages=3, family=fi, element_bytes=e,
                            accumulator_registers=1.0, rm=rm, rn=rn, k_step=16, registers=regs, spilled=spilled,
                            compiler=compiler, **staging)  # fmt: skip


def test_a_triton_wgmma_kernels_spills_cost_nothing_where_its_loop_fits_by_hand():
    # bf16 256x128x32 on 8 warps, 5000x3000x4000 with both operands K-major (4000 x 2 B strides: aligned),
    # compiled to 255 registers and 16 spilled (the H100 sweep's held-out kernel, the fastest of its shape):
    # the loop holds 256 x 128 / 256 = 128 accumulators + 48 overhead = 176 <= 255, so none of the 16 is
    # reloaded per iteration; they are reported as spilled.
    fp = _compiled(5000, 3000, 4000, "bf16", 256, 128, 32, 8, "wgmma", 255, 16)
    assert fp["loop_needed"] == 176 and fp["spilled"] == 16 and fp["loop_spilled"] == 0
    # fp16 128x256x32 on 4 warps: the loop holds 256 + 48 = 304 > 255: every compiled spill is the loop's,
    # the 300 as much as the 256 a whole-fragment rule would give.
    fp = _compiled(4096, 4096, 4096, "fp16", 128, 256, 32, 4, "wgmma", 255, 300)
    assert fp["loop_needed"] == 304 and fp["loop_spilled"] == 300
    # Element pointers are the loop's: fp16 128x128x32 on 4 warps, 7000x1800x2500 with K = 2500 (not a multiple
    # of 16: both operands loaded one element at a time): 128 accumulators + 48 + 2 x (128 + 128) x 32 / 128
    # = 128 pointer registers + 32 staged = 336 > 255: all 168 in the loop.
    fp = _compiled(7000, 1800, 2500, "fp16", 128, 128, 32, 4, "wgmma", 255, 168)
    assert fp["loop_needed"] == 336 and fp["loop_spilled"] == 168
    # A smaller allocation than the limit: the same 256x128x32 bf16 tile compiled to 168 registers with 16
    # spilled holds 176 > 168 in its loop: all 16 charged.
    assert _compiled(5000, 3000, 4000, "bf16", 256, 128, 32, 8, "wgmma", 168, 16)["loop_spilled"] == 16
    # mma.sync and FMA keep every compiled spill in the loop (the rule counts one k step of their fragments,
    # not the unrolled K step ptxas holds), and so do stated and CUTLASS kernels (nothing measured on them).
    assert _compiled(4096, 4096, 4096, "fp16", 128, 64, 64, 2, "mma.sync", 255, 26)["loop_spilled"] == 26
    assert _compiled(4096, 4096, 4096, "fp32", 128, 64, 32, 2, "fma", 255, 100)["loop_spilled"] == 100
    for compiler in ("stated", "cutlass"):
        fp = _compiled(5000, 3000, 4000, "bf16", 256, 128, 32, 8, "wgmma", 255, 16, compiler=compiler)
        assert fp["loop_spilled"] == 16


def test_compiled_counts_of_a_stated_kernel_need_no_register_tile():
    # A stated kernel given its compiled counts takes them as they are (no rule, no register tile needed).
    fp = kernel_footprint(load_machine("h100"), bm=128, bn=128, bk=64, warps=4, stages=3, family=2, element_bytes=2,
                          accumulator_registers=1.0, staged=False, compiler="stated", registers=128, spilled=0)  # fmt: skip
    assert fp["needed"] == 128 and fp["loop_spilled"] == 0 and fp["loop_needed"] is None


def test_the_rule_against_the_local_memory_counters():
    """Recorded-measurement guard (docs/measurements/h100-2026-11-25/spill_check, Nsight Compute on an H100,
    labelled as such): where the rule says a kernel's compiled spills stay out of its loop, its local-memory
    loads and stores per main-loop iteration were 0.8-3.5% of what reloading every spilled register once
    would move (4 wgmma kernels); where it says they are the loop's, 36-195% (12 kernels)."""
    import csv

    path = REPO / "docs" / "measurements" / "h100-2026-11-25" / "spill_check" / "spill_check.csv"
    outside, inside = [], []
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        m, n, k, bm, bn, bk, w = (int(r[c]) for c in ("m", "n", "k", "block_m", "block_n", "block_k", "num_warps"))
        spilled = int(r["spilled_registers"])
        fp = _compiled(m, n, k, r["dtype"], bm, bn, bk, w, r["instruction"], int(r["registers_per_thread"]), spilled,
                       r["a_major"] == "m", r["b_major"] == "n")  # fmt: skip
        sectors = sum(float(r[f"ncu:l1tex__t_sectors_pipe_lsu_mem_local_op_{op}.sum"]) for op in ("ld", "st"))
        iterations = math.ceil(m / bm) * math.ceil(n / bn) * math.ceil(k / bk)
        share = sectors * 32 / iterations / (2 * spilled * 4 * 32 * w)  # of every spilled register once
        (outside if fp["loop_spilled"] == 0 else inside).append(share)
        assert fp["loop_spilled"] in (0, spilled)
    assert len(outside) == 4 and max(outside) < 0.05
    assert len(inside) == 12 and min(inside) > 0.3


def test_the_spill_pairs_spill_inside_the_loop():
    """The spill bandwidth comes from pairs of kernels whose spills are all reloaded per iteration
    (docs/measurements/h100-2026-11-25/calibrate-spill-pairs.txt; the local-memory counters say so for two
    of them): the rule puts each pair's compiled count in the loop, so the rate they give is the one the
    loop's spills are charged at."""
    from roofmodel.model.kernel_costs import SPILL_PAIR_TILES

    compiled = {(256, 128, 32): 128, (128, 256, 32): 172, (128, 256, 64): 256, (256, 128, 64): 128}
    for dtype, bm, bn, bk, _ in SPILL_PAIR_TILES:
        fp = _compiled(4096, 4096, 4096, dtype, bm, bn, bk, 4, "wgmma", 255, compiled[bm, bn, bk])
        assert fp["loop_spilled"] == compiled[bm, bn, bk]


def test_spills_outside_the_loop_against_the_recorded_times():
    """Recorded-measurement guard (docs/measurements/h100-2026-11-23, held-out shapes, labelled as such):
    the five spilling wgmma kernels whose loops fit their allocation were predicted a median 2.9x their
    measured time with every spill charged; 0.80x with none (1.01x since a Triton wgmma loop that waits for each wgmma
    holds the CTA's MMAs, prediction.waits_each_wgmma: one of the five, tf32 256x128 on 8 warps with B K-major,
    moved 0.83 -> 1.01; the median had been 0.88). Six since 2e86a60: the fp8 128x256x64 kernel on 8 warps with A
    M-major (relaid through registers: its slice alone of a stage, 8 registers, where both operands' 24 were counted)
    holds 248 by the rule, within its 255, where it held 264; its compiled loop moves no local bytes (loop_local.csv),
    and as compiled it is at 0.77 of its time."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(load_machine("h100"), 1980.0)
    ratios = []
    for r in read_broad_csv(REPO / "docs" / "measurements" / "h100-2026-11-23" / "broad.csv"):
        if r.set != "sweep" or r.split != "holdout" or r.instruction != "wgmma" or not r.spilled_registers:
            continue
        fp = _compiled(r.m, r.n, r.k, r.dtype, r.block_m, r.block_n, r.block_k, r.num_warps, "wgmma",
                       r.registers_per_thread, r.spilled_registers, r.a_major == "m", r.b_major == "n")  # fmt: skip
        if fp["loop_spilled"] == 0:
            ratios.append(float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3))
    assert len(ratios) == 6, "the recorded kernels or the rule changed: revisit this guard's figures"
    assert 0.7 < statistics.median(ratios) < 1.1


def test_pointer_spills_of_a_wgmma_kernel_by_hand():
    # fp16 128x128x32 on 4 warps, 7000x1800x2500, both operands K-major with K = 2500 (element-wise): the
    # loop needs 128 accumulators + 48 + 32 staged = 208 of its own and 128 pointer registers, 336; the
    # pointers that do not fit, 336 - 255 = 81, spill 1.64 x over: ceil(132.84) = 133 (Triton compiled 255 registers
    # and 168 spilled), and a warp waits on their reloads 0.30 x 81 = 24.3 times an iteration.
    fp = _compiled(7000, 1800, 2500, "fp16", 128, 128, 32, 4, "wgmma", None, None)
    assert fp["needed"] == 336 and fp["registers"] == 255 and fp["pointer_excess"] == 81
    assert fp["spilled"] == fp["pointer_spilled"] == fp["loop_spilled"] == 133
    assert fp["loop_waits"] == pytest.approx(24.3)
    # Where the accumulators do not fit either (256x128 on 4 warps: 256 of them + 48 + 48 staged = 352, and 192
    # pointer registers), the pointers that do not fit spill once, with no wait charged for them: needed 544, excess
    # 544 - 352 = 192 beside the accumulators' spills (352 - 255 = 97 over: two wgmma fragments of 64 x 128 / 128 = 64,
    # taking turns: 2 x 128 = 256).
    both = _compiled(7000, 1800, 2500, "fp16", 256, 128, 32, 4, "wgmma", None, None)
    assert both["needed"] == 544 and both["pointer_excess"] == 192 and both["pointer_spilled"] == 192
    assert both["spilled"] == 256 + 192 and both["loop_waits"] == 0
    # The same tile with A M-major and B N-major (M = 7000 and N = 1800: not multiples of 16, element-wise):
    # M- or N-major pointers are rematerialized about as often as not and left to the collapse point.
    mn = _compiled(7000, 1800, 2500, "fp16", 128, 128, 32, 4, "wgmma", None, None, a_m=True, b_n=True)
    assert mn["needed"] > 255 and mn["spilled"] == 0
    # An mma.sync kernel with a 16-bit operand element-wise goes to the stack past 1.65 x 255 = 420.75:
    # fp16 64x128x32 on 2 warps, K = 2500: 447 needed, 32 registers, 2.4 x (447 - 32) = 996 spilled
    # (a compile of it, shapes aside, gives 32 registers: the compile study's 1952x4232x4440 bf16 twin).
    st = _compiled(7000, 1800, 2500, "fp16", 64, 128, 32, 2, "mma.sync", None, None, b_n=False)
    assert st["needed"] == 447 and st["registers"] == 32 and st["spilled"] == math.ceil(2.4 * (447 - 32))
    # ... and a tf32 one keeps 255 registers past 2.3 x 255, on the stack: 32x256x64 on 2 warps, K = 2500.
    tf = _compiled(7000, 1800, 2500, "tf32", 32, 256, 64, 2, "mma.sync", None, None)
    assert tf["needed"] == 1023 and tf["registers"] == 255 and tf["spilled"] == math.ceil(2.4 * (1023 - 255))


def test_a_kernel_on_the_stack_is_charged_its_loop_as_counted_by_hand():
    # fp16 64x128x32 on 2 warps (mma.sync), 7000x1800x2500 with A K-major and B K-major (K = 2500: both loaded one
    # element at a time): 447 needed, past 1.65 x 255, so 32 registers and ceil(2.4 x (447 - 32)) = 996 on the stack.
    # Its loop stores and reloads 2.9 x the 415 registers past the 32, ceil(1203.5) = 1204, every iteration, and a warp
    # waits on those reloads 0.6 x 415 = 249 times an iteration, charged as a counted loop (the read sweeps' 2,196 such
    # kernels at 32 registers: 2.894 and 0.597 x the excess, benchmarks/stack_spill_rule.py).
    st = _compiled(7000, 1800, 2500, "fp16", 64, 128, 32, 2, "mma.sync", None, None)
    assert st["registers"] == 32 and st["spilled"] == 996 and st["stack_excess"] == 415
    assert st["loop_spilled"] == math.ceil(2.9 * 415) == 1204 and st["loop_waits"] == pytest.approx(249.0)
    assert loop_as_counted(st) and st["pointer_spilled"] == 0 and st["accumulator_excess"] == 0
    # The spill frames take the stack's registers, not the loop's traffic (prediction.spill_frame_registers).
    assert spill_frame_registers(st) == 996
    # A tf32 kernel past 2.3 x 255 keeps 255 registers on the stack (no element-wise 16- or 8-bit operand): the
    # excess once, in the reload form, as before; so does an aligned 16-bit one past it on its own registers.
    tf = _compiled(7000, 1800, 2500, "tf32", 32, 256, 64, 2, "mma.sync", None, None)
    own = _compiled(4096, 4096, 4096, "fp16", 256, 64, 128, 2, "mma.sync", None, None)
    for fp in (tf, own):
        assert fp["registers"] == 255 and fp["stack"] and fp["stack_excess"] == 0
        assert fp["loop_spilled"] == fp["spilled"] and fp["loop_waits"] == 0 and not loop_as_counted(fp)
    # As compiled the counts say what ptxas did; another compiler's kernel (CUTLASS, assumed alike) keeps the stack in
    # the reload form (the factors are Triton's loops').
    stated = _compiled(7000, 1800, 2500, "fp16", 64, 128, 32, 2, "mma.sync", 32, 1100)
    assert stated["stack_excess"] == 0 and stated["loop_spilled"] == 1100 and stated["loop_waits"] == 0
    assert not loop_as_counted(stated)
    cutlass = _compiled(7000, 1800, 2500, "fp16", 64, 128, 32, 2, "mma.sync", None, None, compiler="cutlass")
    assert cutlass["registers"] == 32 and cutlass["stack_excess"] == 0 and cutlass["loop_spilled"] == 996
    assert cutlass["loop_waits"] == 0 and not loop_as_counted(cutlass)


def test_the_spills_term_of_a_kernel_on_the_stack_by_hand():
    # The kernel above on the H200 (B K-major): its spills term is 2 x 1,204 registers x 4 B x 64 threads a CTA
    # iteration, once each (no reload form), 13 tiles an SM (1,650 tiles over 132 SMs) x ceil(2500 / 32) = 79
    # iterations, at the rate its frames reach (401 MiB of them, past the L2: DRAM's share, the note's figure), at the
    # rated 1,830 MHz; the note says how the loop was charged.
    import re

    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel

    h200 = load_machine("h200")
    cfg = triton_config(h200, "fp16", block_m=64, block_n=128, block_k=32, num_warps=2)
    p = predict_kernel(h200, Gemm(m=7000, n=1800, k=2500, dtype="fp16"), cfg, b_major="k")
    spills = next(t for t in p.terms if t.name == "spills")
    rate = float(re.search(r"so spills move at [^=]*= ([0-9.]+) B/cycle/SM", spills.detail).group(1))
    assert (p.spilled_registers, p.loop_spilled_registers, p.clock_mhz) == (996, 1204, 1830.0)
    by_hand = 2 * 1204 * 4 * 64 * 13 * 79 / (rate * 1830e6)
    assert spills.seconds == pytest.approx(by_hand, rel=3e-3)  # the note's rate to a tenth of a B/cycle
    assert "2.9 x the 415 registers past the 32 it keeps, ceil = 1,204" in spills.detail
    assert "0.6 x 415 = 249.0 times an iteration" in spills.detail and "mma_sync_spill_reloads" not in spills.detail


def test_the_stack_spill_constants_are_the_medians_their_script_reproduces():
    """Recorded guard: footprint.STACK_LOOP_FACTOR and STACK_WAITS are the medians over the excess past 32 registers
    that benchmarks/stack_spill_rule.py computes over the read sweeps' Triton mma.sync kernels the rule sends to the
    stack and that compiled to 32 registers (2,194 of 2,528: 634 of the H100's 721, 1,560 of the H200's 1,807; 2,196 of
    2,539 when they were fitted, with the same medians, before 2e86a60 counted a gathered fp8 operand's slice of a stage
    alone), to two places and one."""
    from benchmarks.pointer_spill_rule import fitted
    from benchmarks.stack_spill_rule import FITTED_ON, collapsed, stack_rows
    from roofmodel.model.footprint import STACK_LOOP_FACTOR, STACK_WAITS

    rows = {gpu: stack_rows(gpu, samples) for gpu, samples in FITTED_ON.items()}
    on = {gpu: collapsed(v) for gpu, v in rows.items()}
    assert (len(rows["h100"]), len(rows["h200"]), len(on["h100"]), len(on["h200"])) == (721, 1807, 634, 1560)
    f = fitted(on["h100"] + on["h200"])
    assert round(f["loop"], 1) == STACK_LOOP_FACTOR and round(f["waits"], 1) == STACK_WAITS
    assert f["loop"] == pytest.approx(2.894, abs=5e-4) and f["waits"] == pytest.approx(0.597, abs=5e-4)


def test_spilled_accumulators_of_an_mma_sync_kernel_by_hand():
    # fp16 128x128x64 on 2 warps (mma.sync), 4096^3, aligned: 128 x 128 / 64 = 256 accumulators a thread, with the
    # overhead 256 + 31 = 287 > 255 on their own; the operand fragments add (128 + 128) x 64 x 2 / (4 x 64) = 128: 415
    # needed, 160 past the limit. Its loop stores and reloads its spilled accumulators at each mma.sync step along K,
    # ceil(64 x 2 / 32) = 4 an iteration: max(160, 101 x 4) = 404, and a warp waits on the reloads 6.5 x 4 = 26 times
    # an iteration; the loop is charged as a counted one (no reload form). The medians over every s serve: this tile's
    # own (the read sweeps' 73 such H200 kernels: 340 compiled, 338 moved by the loop) are 0.84 x the charge, as the
    # medians at s = 2 and 4 are 0.84 and 1.16 x it.
    fp = _compiled(4096, 4096, 4096, "fp16", 128, 128, 64, 2, "mma.sync", None, None)
    assert fp["needed"] == 415 and fp["registers"] == 255 and fp["accumulator_excess"] == 160
    assert fp["spilled"] == fp["loop_spilled"] == 101 * 4 == 404
    assert fp["loop_waits"] == pytest.approx(26.0) and loop_as_counted(fp)
    # The steps count 32 bytes of K each: tf32 128x128x32 takes m16n8k8 four times (32 x 4 / 32), 256 + 128 + 31 - 255
    # = 160 past the limit as fp16's; fp8 is converted to fp16 first (Triton on sm_90: m16n8k16), so its 128x128x128
    # takes 128 x 2 / 32 = 8 steps: 808 moved and 52 waits, though the rule has only 256 + 128 + 31 - 255 = 160 past.
    tf = _compiled(4096, 4096, 4096, "tf32", 128, 128, 32, 2, "mma.sync", None, None)
    assert (tf["accumulator_excess"], tf["spilled"], tf["loop_waits"]) == (160, 404, pytest.approx(26.0))
    f8 = _compiled(4096, 4096, 4096, "fp8", 128, 128, 128, 2, "mma.sync", None, None)
    assert (f8["accumulator_excess"], f8["spilled"], f8["loop_waits"]) == (160, 808, pytest.approx(52.0))
    # Where the operand slices alone take it past the limit (32x256x128 on 2 warps: 128 accumulators + 31 fit; the
    # fragments' (32 + 256) x 128 x 2 / 256 = 288 take it to 447), the excess and the reload form, as before.
    thin = _compiled(4096, 4096, 4096, "fp16", 32, 256, 128, 2, "mma.sync", None, None)
    assert thin["needed"] == 447 and thin["accumulator_excess"] == 0 and thin["spilled"] == 447 - 255
    assert thin["loop_waits"] == 0 and not loop_as_counted(thin)
    # As compiled the counts say what ptxas did; another compiler's kernel (CUTLASS, assumed alike) keeps the excess;
    # a wgmma kernel's accumulators take their own rule (spilled_at's whole fragments).
    assert _compiled(4096, 4096, 4096, "fp16", 128, 128, 64, 2, "mma.sync", 255, 340)["accumulator_excess"] == 0
    cutlass = _compiled(4096, 4096, 4096, "fp16", 128, 128, 64, 2, "mma.sync", None, None, compiler="cutlass")
    assert cutlass["accumulator_excess"] == 0 and cutlass["spilled"] == 160
    assert _compiled(4096, 4096, 4096, "fp16", 128, 256, 32, 4, "wgmma", None, None)["accumulator_excess"] == 0


def test_a_factor_times_a_whole_excess_rounds_up_exactly():
    # 2.18 x 50 is 109.00000000000001 in floating point, which a float ceiling takes to 110; 1.64 x 25 = 41.
    assert times_factor(50, 2.18) == 109 and times_factor(51, 2.18) == 112 and times_factor(25, 1.64) == 41
    assert list(times_factor(np.array([50.0, 160.0, 0.0]), 2.18)) == [109, 349, 0]
    assert factor_spills(True, 160, 2.18, 0.15) == (160, 349, pytest.approx(24.0))
    assert factor_spills(False, 160, 2.18, 0.15) == (0, 160, 0)  # off: the spills as they were, no excess, no wait


def test_accumulator_spills_per_step_along_k_and_never_below_the_excess():
    assert mma_sync_k_steps(64, 2) == 4 and mma_sync_k_steps(16, 4) == 2 and mma_sync_k_steps(64, 1) == 4
    assert mma_sync_k_steps(8, 2) == 1  # a part of a step is a whole instruction
    assert mma_sync_k_steps(64, 1, native_8bit=True) == 2  # int8: m16n8k32 as it is, not converted as fp8 is
    assert list(mma_sync_k_steps(np.array([32, 64, 128]), 2)) == [2, 4, 8]
    assert accumulator_spills(True, 160, 4) == (160, 404, pytest.approx(26.0))
    assert accumulator_spills(True, 300, 2) == (300, 300, pytest.approx(13.0))  # at least the registers past the limit
    assert accumulator_spills(False, 160, 4) == (0, 160, 0)  # off: the spills as they were, no excess, no wait


def test_predict_json_names_the_spill_rule_and_its_waits(cli):
    import json

    args = ["predict", "--machine", "h200", "--m", "4096", "--kernel", "triton", "--json"]
    acc = json.loads(cli(*args, "--tile", "128x128x64", "--warps", "2").stdout)
    assert acc["spill_rule"] == "mma.sync accumulators" and acc["spill_rule_excess"] == 160
    assert acc["spilled_registers"] == 404 and acc["loop_waits"] == pytest.approx(26.0)
    # int8's mma.sync takes K 32 at a time as it is: ceil(64 x 1 / 32) = 2 steps, 101 x 2 = 202 and 6.5 x 2 = 13 waits
    # (fp8, converted to fp16 first, would take 4).
    i8 = json.loads(cli(*args, "--dtype", "int8", "--tile", "128x128x64", "--warps", "2").stdout)
    assert i8["spill_rule"] == "mma.sync accumulators" and i8["spilled_registers"] == 202
    assert i8["loop_waits"] == pytest.approx(13.0)
    k = ["--m", "7000", "--n", "1800", "--k", "2500", "--b-major", "k", "--tile"]
    past = json.loads(cli(*args, *k, "128x256x64", "--warps", "4").stdout)
    assert past["spill_rule"] == "k-major pointers past the collapse point" and past["spill_rule_excess"] == 640
    assert past["spilled_registers"] == 1050 and past["loop_waits"] == pytest.approx(192.0)
    ptr = json.loads(cli(*args, *k, "128x128x32", "--warps", "4").stdout)
    assert (
        ptr["spill_rule"] == "k-major pointers" and ptr["spill_rule_excess"] == 81 and ptr["spilled_registers"] == 133
    )
    # On the stack (test_a_kernel_on_the_stack_is_charged_its_loop_as_counted_by_hand): 996 spilled, the loop's 1,204
    # and 249 waits.
    # Past the collapse point with both operands M- or N-major and loaded one element at a time (M, N not multiples of
    # 16 elements), the rest fitting (since 4b60f34): 721 registers past the limit, 736 in whole fragments; ceil(1.64 x
    # 736) = 1,208 spilled, 0.30 x 736 = 220.8 waits. A 256x256x64 tile on 8 warps, whose accumulators pass the limit
    # on their own, keeps the fragments' rule and no wait.
    mn = ["--dtype", "fp8", "--m", "4300", "--n", "3300", "--k", "2700", "--a-major", "m", "--b-major", "n", "--stages",
          "3", "--tile"]  # fmt: skip
    alone = json.loads(cli(*args, *mn, "128x64x256", "--warps", "4").stdout)
    assert alone["spill_rule"] == "m- or n-major pointers past the collapse point"
    assert alone["spill_rule_excess"] == 736 and alone["spilled_registers"] == 1208
    # Exactly 220.8 in the JSON, not the float product's 220.79999999999998 (factor_spills' exact hundredths).
    assert alone["loop_waits"] == 220.8
    assert '"loop_waits": 220.8,' in cli(*args, *mn, "128x64x256", "--warps", "4").stdout
    rest = json.loads(cli(*args, *mn, "256x256x64", "--warps", "8").stdout)
    assert rest["spill_rule"] == "wgmma fragments in turns" and rest["loop_waits"] == 0
    st = json.loads(cli(*args, *k, "64x128x32", "--warps", "2").stdout)
    assert st["spill_rule"] == "mma.sync stack" and st["spill_rule_excess"] == 415 and st["registers_per_thread"] == 32
    assert st["spilled_registers"] == 996 and st["loop_spilled_registers"] == 1204
    assert st["loop_waits"] == pytest.approx(249.0)
    none = json.loads(cli(*args, "--tile", "128x128x64", "--warps", "4").stdout)
    assert none["spill_rule"] is None and none["spill_rule_excess"] is None and none["loop_waits"] == 0
    # wgmma's whole accumulator fragments for the 49 registers past the limit (256 + 48 = 304): both m64n256 fragments
    # of 128 in turns (256), or one resident and the other with the 49 beside it (128 + 49 = 177: Triton's 16-bit
    # 128x256x32 on 4 warps with B N-major at 3 stages, footprint.fragments_take_turns).
    turns = json.loads(cli(*args, "--tile", "128x256x64", "--warps", "4").stdout)
    assert (turns["spill_rule"], turns["spill_rule_excess"], turns["spilled_registers"]) == (
        "wgmma fragments in turns", 49, 256)  # fmt: skip
    # With K-major pointers beside them that do not spill alone (the rest past the limit too), the pointers spill
    # once, with no factor: 256 + 192 = 448, the fragments' rule named, its 97 past the limit.
    both = json.loads(cli(*args, *k, "128x256x32", "--warps", "4").stdout)
    assert (both["spill_rule"], both["spill_rule_excess"], both["spilled_registers"]) == (
        "wgmma fragments in turns", 97, 448)  # fmt: skip
    one = json.loads(cli(*args, "--tile", "128x256x32", "--warps", "4", "--stages", "3").stdout)
    assert (one["spill_rule"], one["spill_rule_excess"], one["spilled_registers"]) == (
        "wgmma fragment resident",
        49,
        177,
    )


def test_the_accumulator_spill_constants_are_the_medians_their_script_reproduces():
    """Recorded guard: footprint.ACCUMULATOR_SPILL_PER_K_STEP and ACCUMULATOR_WAITS_PER_K_STEP are the medians per
    mma.sync step along K that benchmarks/accumulator_spill_rule.py computes over the read sweeps' Triton mma.sync
    kernels whose accumulators pass the limit beside the overhead (2,310: 623 of the H100's, 1,687 of the H200's;
    every one spilled as compiled; 2,240 when they were fitted, with the same medians, before 2e86a60 sent fewer fp8
    kernels to the stack), the loop's registers to a whole one and its waits to two places."""
    from benchmarks.accumulator_spill_rule import FITTED_ON, accumulator_rows, per_step
    from roofmodel.model.footprint import ACCUMULATOR_SPILL_PER_K_STEP, ACCUMULATOR_WAITS_PER_K_STEP

    rows = {gpu: accumulator_rows(gpu, samples) for gpu, samples in FITTED_ON.items()}
    assert (len(rows["h100"]), len(rows["h200"])) == (623, 1687)
    assert not any(r["loop"] is None for v in rows.values() for r in v)
    f = per_step(rows["h100"] + rows["h200"])
    assert round(f["loop"]) == ACCUMULATOR_SPILL_PER_K_STEP and round(f["waits"], 2) == ACCUMULATOR_WAITS_PER_K_STEP
    # the read kernels never needed the floor: 101 x s is above the registers past the limit in every one but the 24
    # tf32 ones at BK 16 (s = 2) whose both-K-major element pointers the rule spills at the limit besides
    # (footprint.pointers_spill_at_the_limit: 224-272 past it)
    floor = [r for v in rows.values() for r in v if ACCUMULATOR_SPILL_PER_K_STEP * r["steps"] <= r["excess"]]
    assert len(floor) == 24 and all(r["steps"] == 2 and 224 <= r["excess"] <= 272 for r in floor)


def test_a_wgmma_kernel_past_the_collapse_point_by_hand():
    # fp16 128x256x64 on 4 warps, 7000x1800x2500 with both operands K-major (K = 2500: element-wise): 128 x 256 / 128
    # = 256 accumulators + (128 + 256) x 64 x 2 / (4 x 128) = 96 staged + 48 overhead = 400, and 2 x 384 rows x 64 /
    # 128 = 384 pointer registers: 784 > 2.3 x 255 = 586.5, so the pointers spill with the rest: 784 - 255 = 529 past
    # the limit, in whole wgmma fragments of 64 x 256 / 128 = 128, 640. ptxas spills 1.64 x that, ceil(1049.6) =
    # 1050, and a warp waits on their reloads 0.30 x 640 = 192 times an iteration (the read sweeps' twelve such H200
    # kernels: 836 compiled, 966 moved by the loop, 228 waits); no pointer of it counts as recomputable.
    fp = _compiled(7000, 1800, 2500, "fp16", 128, 256, 64, 4, "wgmma", None, None)
    assert fp["needed"] == 784 and fp["registers"] == 255 and fp["collapse_excess"] == 640
    assert fp["spilled"] == fp["loop_spilled"] == math.ceil(1.64 * 640) == 1050 and fp["pointer_spilled"] == 0
    assert fp["loop_waits"] == pytest.approx(192)
    # Aligned (K = 2560), the same tile copies its stages without registers and holds no pointer: 256 + 48 = 304
    # needed, 49 past, one fragment of 128 taking turns with another: 256, and no wait.
    aligned = _compiled(7000, 1800, 2560, "fp16", 128, 256, 64, 4, "wgmma", None, None)
    assert aligned["needed"] == 304 and aligned["collapse_excess"] == 0 and aligned["spilled"] == 256
    assert aligned["loop_waits"] == 0


def test_pointers_spill_alone_where_the_rest_passes_the_limit_within_the_rules_error_by_hand():
    # fp16 256x64x64 on 4 warps, 7000x1800x2500 with both operands K-major (K = 2500: element-wise): 256 x 64 / 128 =
    # 128 accumulators + (256 + 64) x 64 x 2 / (4 x 128) = 80 staged + 48 overhead = 256, one past the limit, within
    # POINTER_ALONE_TOLERANCE (16); 2 x 320 rows x 64 / 128 = 320 pointer registers: 576 needed, under 2.3 x 255. The
    # pointers spill as where the rest fits: ceil(1.64 x 320) = 525, and a warp waits 0.30 x 320 = 96 times an
    # iteration, beside the whole wgmma fragment the one register past takes (64: 589 in all). The read sweeps' 88 such
    # kernels move 1.76 x and wait 0.37 x their pointer excess.
    fp = _compiled(7000, 1800, 2500, "fp16", 256, 64, 64, 4, "wgmma", None, None)
    assert fp["needed"] == 576 and fp["pointer_excess"] == 320 and fp["collapse_excess"] == 0
    assert fp["pointer_spilled"] == math.ceil(1.64 * 320) == 525 and fp["spilled"] == fp["loop_spilled"] == 589
    assert fp["loop_waits"] == pytest.approx(96.0)
    # Further past: fp16 128x256x32 on 4 warps: 256 + (128 + 256) x 32 x 2 / 512 = 48 staged + 48 = 352, 97 past: the
    # pointers' 2 x 384 x 32 / 128 = 192 spilled once and no wait, beside the accumulators' whole fragments (448 in all).
    far = _compiled(7000, 1800, 2500, "fp16", 128, 256, 32, 4, "wgmma", None, None)
    assert far["needed"] == 544 and far["pointer_excess"] == far["pointer_spilled"] == 192 and far["spilled"] == 448
    assert far["loop_waits"] == 0


def test_the_pointer_alone_tolerance_is_the_rules_median_error():
    """Recorded guard: benchmarks/pointer_spill_rule.py --barely. footprint.POINTER_ALONE_TOLERANCE is the register
    rule's median |compiled - rule| over the read sweeps' wgmma kernels that do not spill (21,468, to the H200's
    fresh50; 21,340 before 2e86a60, the same median); the 88 kernels whose registers without their K-major pointers pass the limit within it (by one) move
    and wait as the pointer factors say (1.76 and 0.37 against 1.64 and 0.30), the 188 further past wait far less."""
    import statistics

    from benchmarks.pointer_spill_rule import BARELY_ON, barely_rows, fitted, rule_error
    from roofmodel.model.footprint import POINTER_ALONE_TOLERANCE

    err = rule_error(BARELY_ON)
    assert len(err) == 21468 and statistics.median(err) == POINTER_ALONE_TOLERANCE
    rows = barely_rows(BARELY_ON)
    within = [r for r in rows if r["past"] <= POINTER_ALONE_TOLERANCE]
    beyond = [r for r in rows if r["past"] > POINTER_ALONE_TOLERANCE]
    assert (len(within), len(beyond)) == (88, 188) and {r["past"] for r in within} == {1}
    f, g = fitted(within), fitted(beyond)
    assert (round(f["loop"], 2), round(f["waits"], 2)) == (1.76, 0.37) and round(g["waits"], 2) == 0.09


def test_the_pointer_spill_factors_hold_past_the_collapse_point():
    """Recorded guard: benchmarks/pointer_spill_rule.py --collapsed, over the read sweeps' wgmma kernels past
    POINTER_COLLAPSE with K-major element pointers (626: 187 of the H100's, 439 of the H200's; every one spilled as
    compiled), finds the loop's registers and waits per register past the limit near the factors fitted below it:
    1.76 and 0.31, against POINTER_SPILL_FACTOR 1.64 and POINTER_SPILL_WAITS 0.30."""
    from benchmarks.pointer_spill_rule import COLLAPSED_ON, fitted, pointer_rows
    from roofmodel.model.footprint import POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS

    rows = {gpu: pointer_rows(gpu, samples, collapsed=True) for gpu, samples in COLLAPSED_ON.items()}
    assert (len(rows["h100"]), len(rows["h200"])) == (187, 439)
    assert not any(r["loop"] is None for v in rows.values() for r in v)
    f = fitted(rows["h100"] + rows["h200"])
    assert round(f["loop"], 2) == 1.76 and round(f["waits"], 2) == 0.31
    assert abs(f["loop"] / POINTER_SPILL_FACTOR - 1) < 0.1 and abs(f["waits"] - POINTER_SPILL_WAITS) < 0.02


def test_the_pointer_spill_factors_hold_past_the_collapse_point_for_m_or_n_major_operands(cli):
    """Recorded guard: benchmarks/pointer_spill_rule.py --collapsed-mn, over the read sweeps' wgmma kernels past
    POINTER_COLLAPSE whose operands loaded one element at a time are all M- or N-major and whose other registers fit
    within POINTER_ALONE_TOLERANCE (79: 23 of the H100's to fresh18, 56 of the H200's to fresh69; every one spilled as
    compiled), which the rule charges POINTER_SPILL_FACTOR (1.64) and POINTER_SPILL_WAITS (0.30) since 4b60f34
    (pre-registered in 7ea165e; before, the excess once and no wait): their loops move 1.85 and wait 0.40 per register
    past the limit, not one population: the 67 fp8 ones 1.95 and 0.44 (charged short), the 12 fp16 and bf16 ones 1.37
    and 0.24 (charged long). Where the rest passes the limit too (84 kernels, which the rule leaves to the fragments'),
    1.42 and 0.26."""
    from benchmarks.pointer_spill_rule import COLLAPSED_MN_ON, collapsed_rest_past_rows, fitted, pointer_rows
    from roofmodel.model.footprint import POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS

    rows = {gpu: pointer_rows(gpu, samples, collapsed=True, mn_major=True) for gpu, samples in COLLAPSED_MN_ON.items()}
    assert (len(rows["h100"]), len(rows["h200"])) == (23, 56)
    every = rows["h100"] + rows["h200"]
    assert not any(r["loop"] is None for r in every)
    f = fitted(every)
    assert round(f["loop"], 2) == 1.85 and round(f["waits"], 2) == 0.40
    narrow = [r for r in every if r["dtype"] == "fp8"]
    wide = [r for r in every if r["dtype"] != "fp8"]
    assert (len(narrow), len(wide)) == (67, 12)
    f8, f16 = fitted(narrow), fitted(wide)
    assert (round(f8["loop"], 2), round(f8["waits"], 2)) == (1.95, 0.44)
    assert (round(f16["loop"], 2), round(f16["waits"], 2)) == (1.37, 0.24)
    assert f8["loop"] > POINTER_SPILL_FACTOR > f16["loop"] and f8["waits"] > POINTER_SPILL_WAITS > f16["waits"]
    past = [r for gpu, samples in COLLAPSED_MN_ON.items() for r in collapsed_rest_past_rows(gpu, samples)]
    assert len(past) == 84 and not any(r["loop"] is None for r in past)
    g = fitted(past)
    assert (round(g["loop"], 2), round(g["waits"], 2)) == (1.42, 0.26)
    # predict's note quotes these figures: they are the ones recomputed here, not a copy that could drift.
    note = cli("predict", "--machine", "h200", "--kernel", "triton", "--dtype", "fp8", "--m", "4300", "--n", "3300",
               "--k", "2700", "--a-major", "m", "--b-major", "n", "--stages", "3", "--tile", "128x64x256",
               "--warps", "4").stdout  # fmt: skip
    quoted = (f"the read sweeps' {len(every)} such kernels move {f['loop']:.2f} and wait {f['waits']:.2f} (the "
              f"{len(narrow)} fp8 ones {f8['loop']:.2f} and {f8['waits']:.2f}, the {len(wide)} fp16 and bf16 ones "
              f"{f16['loop']:.2f} and {f16['waits']:.2f})")  # fmt: skip
    assert quoted in " ".join(note.split())


def test_the_register_rule_against_the_compile_study():
    """Recorded guard (docs/measurements/compile-study: configurations drawn at random over shapes no
    measurement holds, benchmarks/compile_study.py). The spill and collapse points were chosen on Triton 3.9's
    compile of them (triton-3.9/): whether a wgmma kernel spills, right for 440 of 480 (403 before, which
    rematerialized every element pointer up to the collapse point; 438 before 2e86a60 counted a relaid fp8 operand's
    slice of a stage alone); whether an mma.sync kernel goes to 32 registers, right for 373 of 383 (354 before).
    Compiled by Triton 3.6, the devices' toolchain: 436 and 374."""
    import csv

    def rows(name):
        with (REPO / "docs" / "measurements" / "compile-study" / name).open(newline="") as f:
            return [r for r in csv.DictReader(f)]

    def rule(r):
        m, n, k, bm, bn, bk, w = (int(r[c]) for c in ("m", "n", "k", "block_m", "block_n", "block_k", "num_warps"))
        return _compiled(m, n, k, r["dtype"], bm, bn, bk, w, r["instruction"], None, None, r["a_major"] == "m",
                         r["b_major"] == "n")  # fmt: skip

    for toolchain, spills_right, collapse_right in (("triton-3.9/", 440, 373), ("", 436, 374)):
        wg = [(rule(r), r) for r in rows(toolchain + "wgmma_space.csv") if r["instruction"] == "wgmma"]
        assert len(wg) == 480
        assert sum((fp["spilled"] > 0) == (int(r["spilled"]) > 0) for fp, r in wg) == spills_right
        ms = [(rule(r), r) for r in rows(toolchain + "mma_sync_space.csv") if r["instruction"] == "mma.sync"]
        said = sum((fp["registers"] == 32) == (r["registers"] == "32" and int(r["spilled"]) > 0) for fp, r in ms)
        assert len(ms) == 383 and said == collapse_right


def test_the_compile_study_below_the_collapse_point():
    """Recorded guard (docs/measurements/compile-study/mma_sync_near_collapse.csv, Triton 3.6's ptxas for sm_90a on
    a CPU; Triton 3.9's, triton-3.9/, sent the same kernels to 32 registers):
    every kernel was drawn where the rule says an mma.sync kernel with a 16- or 8-bit element-wise operand needs
    between 1 and STACK_COLLAPSE (1.65) x the limit, so the rule keeps each at 255 registers; ptxas sent 13 of the
    150 to 32 registers and the stack, none below 1.4 x and 12 past 1.5 x: the figures predict quotes. Two were drawn
    there by the rule before 2e86a60, which held both operands' stage in registers for a gathered fp8 operand: fp8
    16x256x64 on 2 warps with A M-major, 199 needed now (0.78 x), compiled to 248 and 255 registers with no spill."""
    import csv

    from roofmodel.model.footprint import STACK_COLLAPSE

    path = REPO / "docs" / "measurements" / "compile-study" / "mma_sync_near_collapse.csv"
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    over, collapsed, below = [], [], []
    for r in rows:
        m, n, k, bm, bn, bk, w = (int(r[c]) for c in ("m", "n", "k", "block_m", "block_n", "block_k", "num_warps"))
        fp = _compiled(m, n, k, r["dtype"], bm, bn, bk, w, "mma.sync", None, None, r["a_major"] == "m",
                       r["b_major"] == "n")  # fmt: skip
        x = float(fp["needed"]) / 255
        over.append(x)
        if x < 1.0:
            below.append((r["dtype"], r["a_major"], int(r["block_m"]), int(r["block_n"]), int(r["spilled"])))
            continue
        assert int(fp["registers"]) == 255 and 1.0 < x <= STACK_COLLAPSE
        if r["registers"] == "32":
            collapsed.append(x)
    assert below == [("fp8", "m", 16, 256, 0)] * 2
    assert len(rows) == 150 and len(collapsed) == 13
    assert min(collapsed) >= 1.4 and sum(x > 1.5 for x in collapsed) == 12


def test_a_register_gamble_by_hand():
    # fp16 128x256x64 on 8 warps, B N-major with N = 4104 (above): 336 needed, 208 of them without B's 128
    # element pointers (128 accumulators, 48 overhead, 32 for B's stage copied through registers), so past 255
    # only by the pointers, none spilled by the rule: a gamble. The same tile aligned (N = 4096): 176 needed, no
    # gamble; given its compiled counts, never (they say what ptxas did).
    h100 = load_machine("h100")

    def fp(n, **compiled):
        rm, rn = register_tile_for("wgmma", 128, 256, 8)
        staging = operand_staging(True, 2, 2, 4096, n, 4096, False, True, 128, 256)
        return kernel_footprint(h100, bm=128, bn=256, bk=64, warps=8, stages=3, family=2, element_bytes=2,
                                accumulator_registers=1.0, rm=rm, rn=rn, **staging, **compiled)  # fmt: skip

    assert fp(4104)["needed"] == 336 and fp(4104)["spilled"] == 0 and bool(fp(4104)["gamble"])
    assert fp(4096)["needed"] == 176 and not bool(fp(4096)["gamble"])
    assert not bool(fp(4104, registers=255, spilled=0)["gamble"])
    # Past the limit by its accumulators (256x256 on 4 warps, aligned), a kernel spills by the rule: no gamble.
    rm, rn = register_tile_for("wgmma", 256, 256, 4)
    big = kernel_footprint(h100, bm=256, bn=256, bk=64, warps=4, stages=3, family=2, element_bytes=2,
                           accumulator_registers=1.0, rm=rm, rn=rn,
                           **operand_staging(True, 2, 2, 4096, 4096, 4096, False, True, 256, 256))  # fmt: skip
    assert big["spilled"] > 0 and not bool(big["gamble"])


def test_register_gambles_against_what_triton_compiled():
    """Recorded guard (the H100's three broad samples read before fresh3, every sweep kernel; fresh3, read
    since, adds 33 gambles of which 24 spilled): the kernels the register rule calls a gamble as a user states
    them, and how many spilled as compiled: the figures predict's note quotes (prediction.GAMBLE_NOTE)."""
    from collections import Counter

    from roofmodel.backends.broad import Evaluator, read_broad_csv
    from roofmodel.model.prediction import GAMBLE_NOTE

    ev = Evaluator(load_machine("h100"), 1980)
    spilled, total = Counter(), Counter()
    for day in ("h100-2026-11-23", "h100-2026-11-24", "h100-2026-11-26/fresh2"):
        for r in read_broad_csv(REPO / "docs" / "measurements" / day / "broad.csv"):
            if r.set != "sweep":
                continue
            seconds, gamble = ev.predict(r)
            if seconds is not None and gamble:
                total[r.instruction] += 1
                spilled[r.instruction] += r.spilled_registers > 0
    # (102 and 67 until the 32-bit both-K-major ones stopped being gambles: footprint.pointers_spill_at_the_limit; 89
    # and 54 until a gathered or relaid fp8 operand's stage counted its own slice alone, 2e86a60: five fp8 kernels
    # with an N- or M-major operand loaded one element at a time now fit by the rule, and all five spilled, 2-176; 84
    # and 49 until an FMA kernel's with one operand K-major and both so loaded spilled at the limit too, 76ea5e4: four
    # left, three of which spilled)
    assert sum(total.values()) == 80 and sum(spilled.values()) == 46
    assert "of the 80 kernels" in GAMBLE_NOTE and "46 spilled" in GAMBLE_NOTE
    for family, name in (("mma.sync", "mma.sync"), ("wgmma", "wgmma"), ("fma", "FMA")):
        assert f"{name} {spilled[family]} of {total[family]}" in GAMBLE_NOTE


def test_the_pointer_spill_constants_are_the_medians_their_script_reproduces():
    """Recorded guard: footprint.POINTER_SPILL_FACTOR and POINTER_SPILL_WAITS are the medians that
    benchmarks/pointer_spill_rule.py computes over the read sweeps' wgmma kernels whose K-major element pointers alone
    pass the limit by the rule (1,309: 380 of the H100's, 929 of the H200's), to two places."""
    from benchmarks.pointer_spill_rule import FITTED_ON, fitted, pointer_rows
    from roofmodel.model.footprint import POINTER_SPILL_FACTOR, POINTER_SPILL_WAITS

    rows = {gpu: pointer_rows(gpu, samples) for gpu, samples in FITTED_ON.items()}
    assert (len(rows["h100"]), len(rows["h200"])) == (380, 929)
    f = fitted(rows["h100"] + rows["h200"])
    assert round(f["loop"], 2) == POINTER_SPILL_FACTOR and round(f["waits"], 2) == POINTER_SPILL_WAITS
    assert 1.4 < f["spilled"] < f["loop"]  # ptxas spills more than the excess, not more than the loop moves


def test_the_collapse_point_by_hand():
    """footprint.past_collapse_point: POINTER_COLLAPSE (2.3) x the H100's 255 registers is 586.5, so a kernel needing
    586 registers by the rule keeps rematerializing its element pointers and one needing 587 spills them with the rest;
    the same for numpy arrays."""
    import numpy as np

    from roofmodel.model.footprint import past_collapse_point

    assert POINTER_COLLAPSE == 2.3
    assert not past_collapse_point(586, 255) and past_collapse_point(587, 255)
    assert past_collapse_point(np.array([586.0, 586.5, 587.0]), 255).tolist() == [False, False, True]
