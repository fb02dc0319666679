"""A Triton mma.sync operand copied narrower than 16 bytes (prediction.narrowed_copies, mma_sync_fill_cycles): where
an operand's stage has fewer 16-byte pieces than the CTA has threads, Triton gives each thread one narrower copy, a
cp.async through L1, and each warp's copy takes kernel_costs.copy_instruction_shared on the shared-memory path, after
the warps' ldmatrix reads (pre-registered in 578500e, judged on fresh54 and fresh55: docs/validation.md). Hand-computed
examples, the rule's scope, and the recorded kernels it was chosen for, as a regression guard."""

from __future__ import annotations

import statistics

import pytest

from roofmodel import load_machine
from roofmodel.model.kernel import FAMILIES, triton_config
from roofmodel.model.prediction import mma_sync_fill_cycles, narrowed_copies, predict_kernel
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


def test_mma_sync_fill_cycles_by_hand():
    def fill(rows, threads=256, family=MMA_SYNC, narrow=(False, False), triton=True, cycles=8.3):
        fills = tuple(r * 32 * 2 for r in rows)  # BK 32, fp16
        return mma_sync_fill_cycles(triton, family, 2, rows, 32, threads, narrow, fills, 128.0, cycles, 32)

    # 32x32x32 on 8 warps: 512 copies are 16 warp-level cp.async, at 8.3 cycles 132.8 (their bytes: 32 cycles).
    assert fill((32, 32)) == pytest.approx(132.8)
    # 32x64x32 on 8 warps: A's 8 warp copies (66.4 cycles) and B's 4,096 bytes at 128 B/cycle (32).
    assert fill((32, 64)) == pytest.approx(98.4)
    # Nothing narrowed (4 warps), another family, another compiler, no figure in the file: nothing charged.
    assert fill((32, 32), threads=128) == 0.0
    assert fill((32, 32), family=WGMMA) == 0.0
    assert fill((32, 32), triton=False) == 0.0
    assert fill((32, 32), cycles=0.0) == 0.0
    # An operand copied one element at a time keeps its own charge (its fill bytes x 16 / e): not counted as narrowed.
    assert fill((32, 64), narrow=(True, False)) == 0.0


def test_mma_sync_fill_cycles_in_arrays_is_the_scalar_formula():
    np = pytest.importorskip("numpy")
    bm, bn, threads = np.array([32, 32, 64, 16]), np.array([32, 64, 64, 256]), np.array([256, 256, 64, 256])
    family = np.array([MMA_SYNC, MMA_SYNC, MMA_SYNC, WGMMA])
    fills = (bm * 32 * 2.0, bn * 32 * 2.0)
    got = mma_sync_fill_cycles(True, family, 2, (bm, bn), 32, threads, (False, False), fills, 128.0, 8.3, 32)
    want = [float(mma_sync_fill_cycles(True, int(f), 2, (int(a), int(b)), 32, int(t), (False, False),
                                       (a * 64.0, b * 64.0), 128.0, 8.3, 32))
            for a, b, t, f in zip(bm, bn, threads, family, strict=True)]  # fmt: skip
    assert list(got) == pytest.approx(want)


def _smem(warps: int, **kw):
    gemm = Gemm(m=3456, n=3456, k=3456, dtype="fp16")
    config = triton_config(H200, "fp16", block_m=32, block_n=32, block_k=32, group_m=8, num_warps=warps, num_stages=4)
    p = predict_kernel(H200, gemm, config, a_major="k", b_major="k", clock=1980.0, **kw)
    return next(t for t in p.terms if t.name == "shared memory")


def test_the_shared_memory_term_by_hand():
    # 3456^3 in 32x32 tiles on 132 SMs: 89 tiles an SM, 108 iterations each; 128 bytes a cycle at 1,980 MHz.
    busy = 89 * 108 / 1.98e9
    # Eight warps (warp tile 16x8): ldmatrix reads 8 x (1,024 + 512) = 12,288 bytes an iteration, 96 cycles; the
    # stage's 512 copies of 8 bytes, 16 warp copies at 8.3 cycles, 132.8 (their 4,096 bytes would take 32).
    eight = _smem(8)
    assert eight.seconds == pytest.approx(busy * (96 + 132.8), rel=1e-9)
    assert "256 copies of 8" in eight.detail and "kernel_costs.copy_instruction_shared" in eight.detail
    # Four warps (16x16): 8,192 bytes read and 4,096 copied 16 bytes a thread, by their bytes: 96 cycles, no note.
    four = _smem(4)
    assert four.seconds == pytest.approx(busy * 96, rel=1e-9)
    assert "through L1" not in four.detail


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
