"""A Triton mma.sync or wgmma operand copied narrower than 16 bytes (prediction.narrowed_copies, narrowed_fill_cycles):
where an operand's stage has fewer 16-byte pieces than the CTA has threads, Triton gives each thread one narrower copy,
a cp.async through L1, and each warp's copy takes kernel_costs.copy_instruction_shared on the shared-memory path,
beside the operand reads (mma.sync: pre-registered in 578500e, judged on fresh54 and fresh55; wgmma: pre-registered in
5f38b6b: docs/validation.md). Hand-computed examples, the rule's scope, and the recorded kernels it was chosen for, as
a regression guard."""

from __future__ import annotations

import statistics

import pytest

from roofmodel import load_machine
from roofmodel.model.kernel import FAMILIES, triton_config
from roofmodel.model.prediction import narrowed_copies, narrowed_fill_cycles, predict_kernel
from roofmodel.model.problem import Gemm

MMA_SYNC, WGMMA = FAMILIES.index("mma.sync"), FAMILIES.index("wgmma")
H200 = load_machine("h200")


def test_narrowed_copies_by_hand():
    # 32 x 32 fp16 is 2,048 bytes, 128 pieces of 16: on 256 threads, 256 copies of 8 bytes; on 128, none narrowed.
    assert narrowed_copies(32, 32, 2, 256) == 256
    assert narrowed_copies(32, 32, 2, 128) == 0
    # 16 x 32 fp16 on 256 threads: 256 copies of 4 bytes; tf32 32 x 16 on 256: 256 copies of 8 bytes.
    assert narrowed_copies(16, 32, 2, 256) == 256
    assert narrowed_copies(32, 16, 4, 256) == 256
    # fp8 16 x 64 on 256 threads: 1,024 bytes, 256 copies of 4.
    assert narrowed_copies(16, 64, 1, 256) == 256
    # Under 4 bytes a thread there is no cp.async (Triton loads with LDG and STS): not counted. 16-bit 16 x 16 on 256
    # threads (2 bytes a thread), fp8 16 x 32 (2), fp8 16 x 16 on 512 threads (one byte, half the threads idle).
    assert narrowed_copies(16, 16, 2, 256) == 0
    assert narrowed_copies(16, 32, 1, 256) == 0
    assert narrowed_copies(16, 16, 1, 512) == 0
    # A large stage is copied 16 bytes a thread or more: nothing narrowed.
    assert narrowed_copies(128, 64, 2, 256) == 0


def test_narrowed_fill_cycles_by_hand():
    def fill(rows, threads=256, family=MMA_SYNC, narrow=(False, False), triton=True, cycles=8.3, layout=(1.0, 1.0)):
        fills = tuple(r * 32 * 2 for r in rows)  # BK 32, fp16
        return narrowed_fill_cycles(triton, family, 2, rows, 32, threads, narrow, fills, 128.0, cycles, 32, layout)

    # 32x32x32 on 8 warps: 512 copies are 16 warp-level cp.async, at 8.3 cycles 132.8 (their bytes: 32 cycles).
    assert fill((32, 32)) == pytest.approx(132.8)
    # 32x64x32 on 8 warps: A's 8 warp copies (66.4 cycles) and B's 4,096 bytes at 128 B/cycle (32).
    assert fill((32, 64)) == pytest.approx(98.4)
    # wgmma 64x32x32 on 8 warps: B's 2,048 bytes as 256 copies of 8, 8 warp copies (66.4 cycles), and A's 4,096
    # bytes copied 16 a thread at 128 B/cycle (32): 98.4, where the bytes alone say 48.
    assert fill((64, 32), family=WGMMA) == pytest.approx(98.4)
    # Under wgmma an operand taken against its layout (an MN-major 8- or 32-bit one: layout factor other than 1) keeps
    # its own charge; under mma.sync the layout factor does not enter (an fp8 MN-major operand: charged both ways).
    assert fill((64, 32), family=WGMMA, layout=(1.0, 4.0)) == 0.0
    assert fill((32, 64), layout=(2.0, 1.0)) == pytest.approx(98.4)
    # Nothing narrowed (4 warps), another family (FMA, tcgen05), another compiler, no figure in the file: nothing.
    assert fill((32, 32), threads=128) == 0.0
    assert fill((32, 32), family=FAMILIES.index("fma")) == 0.0
    assert fill((64, 32), family=FAMILIES.index("tcgen05")) == 0.0
    assert fill((32, 32), triton=False) == 0.0
    assert fill((32, 32), cycles=0.0) == 0.0
    # An operand copied one element at a time keeps its own charge (its fill bytes x 16 / e): not counted as narrowed.
    assert fill((32, 64), narrow=(True, False)) == 0.0


def test_narrowed_fill_cycles_in_arrays_is_the_scalar_formula():
    np = pytest.importorskip("numpy")
    bm, bn = np.array([32, 32, 64, 16, 64, 64]), np.array([32, 64, 64, 256, 32, 32])
    threads = np.array([256, 256, 64, 256, 256, 256])
    family = np.array([MMA_SYNC, MMA_SYNC, MMA_SYNC, WGMMA, WGMMA, WGMMA])
    fb = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 4.0])  # the last one's B taken against its layout
    fills = (bm * 32 * 2.0, bn * 32 * 2.0)
    got = narrowed_fill_cycles(True, family, 2, (bm, bn), 32, threads, (False, False), fills, 128.0, 8.3, 32, (1.0, fb))
    want = [float(narrowed_fill_cycles(True, int(f), 2, (int(a), int(b)), 32, int(t), (False, False),
                                       (a * 64.0, b * 64.0), 128.0, 8.3, 32, (1.0, float(x))))
            for a, b, t, f, x in zip(bm, bn, threads, family, fb, strict=True)]  # fmt: skip
    assert list(got) == pytest.approx(want) and want[4] == pytest.approx(98.4) and want[5] == 0.0


def _smem(warps: int, **kw):
    gemm = Gemm(m=3456, n=3456, k=3456, dtype="fp16")
    config = triton_config(H200, "fp16", block_m=32, block_n=32, block_k=32, group_m=8, num_warps=warps, num_stages=4)
    p = predict_kernel(H200, gemm, config, a_major="k", b_major="k", clock=1980.0, **kw)
    return next(t for t in p.terms if t.name == "shared memory")


def test_the_shared_memory_term_by_hand():
    # 3456^3 in 32x32 tiles on 132 SMs: 89 tiles an SM, 108 iterations each; 128 bytes a cycle at 1,980 MHz.
    busy = 89 * 108 / 1.98e9
    # Eight warps (warp tile 16x8): ldmatrix reads 8 x (1,024 + 512) = 12,288 bytes an iteration, 96 cycles; the
    # stage's 512 copies of 8 bytes, 16 warp copies at 8.4 cycles, 134.4 (their 4,096 bytes would take 32).
    eight = _smem(8)
    assert eight.seconds == pytest.approx(busy * (96 + 134.4), rel=1e-9)
    assert "256 copies of 8" in eight.detail and "kernel_costs.copy_instruction_shared" in eight.detail
    # Four warps (16x16): 8,192 bytes read and 4,096 copied 16 bytes a thread, by their bytes: 96 cycles, no note.
    four = _smem(4)
    assert four.seconds == pytest.approx(busy * 96, rel=1e-9)
    assert "through L1" not in four.detail


def test_a_wgmma_shared_memory_term_by_hand():
    # fp16 64x32x32 on 8 warps, two warpgroups of m64n16: their wgmmas read 64 x 32 x 32 x (1/64 + 1/16) x 2 B =
    # 10,240 bytes an iteration, 80 cycles at 128 B/cycle; B's 2,048 bytes a stage go as 256 copies of 8 bytes, 8 warp
    # copies at 8.4 cycles, 67.2, and A's 4,096 bytes at the rate, 32: 179.2 cycles an iteration, where the fills'
    # bytes alone would make it 128. 3456^3 in 64x32 tiles: 5,832 tiles, 45 an SM, 108 iterations each.
    gemm = Gemm(m=3456, n=3456, k=3456, dtype="fp16")
    config = triton_config(H200, "fp16", block_m=64, block_n=32, block_k=32, group_m=8, num_warps=8, num_stages=4)
    p = predict_kernel(H200, gemm, config, a_major="k", b_major="n", clock=1980.0)
    term = next(t for t in p.terms if t.name == "shared memory")
    assert p.instruction == "wgmma" and "B's 2,048 bytes as 256 copies of 8" in term.detail
    assert term.seconds == pytest.approx(45 * 108 / 1.98e9 * (80 + 67.2 + 32), rel=1e-9)
    # B taken against its layout keeps its own charge: tf32 with B N-major, copied one element at a time (4-byte
    # cp.async, layout factor 4) is not narrowed, so its shared-memory term does not see the per-copy figure; with B
    # K-major its 2,048 bytes (32 x 16 x 4) are 256 copies of 8, whose term does.
    from tests.conftest import machine_dict, machine_from

    data = machine_dict("h200")
    data["kernel_costs"]["copy_instruction_shared"]["value"] = 100.0
    slow = machine_from(data)
    tf32 = Gemm(m=3456, n=3456, k=3456, dtype="tf32")
    cfg = triton_config(H200, "tf32", block_m=128, block_n=32, block_k=16, group_m=8, num_warps=8, num_stages=4)
    for b_major, said in (("n", False), ("k", True)):
        q, r = (predict_kernel(m, tf32, cfg, a_major="k", b_major=b_major, clock=1980.0) for m in (H200, slow))
        smem_q, smem_r = (next(t for t in x.terms if t.name == "shared memory") for x in (q, r))
        assert ("copies of 8" in smem_q.detail) == said and (smem_r.seconds > smem_q.seconds) == said


def test_stated_counts_keep_the_charge():
    # The charge is the copies', not the register rule's: the compiled counts leave it as it is.
    assert _smem(8, regs=36, spilled=0).seconds == _smem(8).seconds


def test_the_read_kernels_it_was_chosen_for_a_regression_guard():
    """Recorded measurements (the read H200 sweeps, 2026-11-23 to fresh55): the Triton 16-bit mma.sync kernels of
    32x32x32 on 8 warps without spills, as compiled 0.66 of their time before the rule (`predict` 0.62, the preview
    of 578500e), and their median within 10% of it after."""
    from benchmarks.read_samples import DATA, read_h200
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(H200, 1980.0)
    ratios = []
    for d in read_h200(55):
        for r in read_broad_csv(DATA / d / "broad.csv"):
            if (r.set == "sweep" and r.instruction == "mma.sync" and r.dtype in ("fp16", "bf16") and r.num_warps == 8
                    and (r.block_m, r.block_n, r.block_k) == (32, 32, 32) and not r.spilled_registers):  # fmt: skip
                ratios.append(float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3))
    assert len(ratios) > 100
    assert 0.9 <= statistics.median(ratios) <= 1.1
