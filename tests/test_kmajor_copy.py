"""Both operands K-major in a Triton wgmma loop of 16-bit operands (prediction.kmajor_copy_cycles): the compiled loop
forms each copy's address with more integer work, and kernel_costs.kmajor_copy (10.6 SM cycles per 16-byte copy a
thread issues an iteration, the layout-pair check's median: docs/measurements/h200-2026-11-30/layout_pairs) adds to
the SM's pipes of a round and to one CTA's chain."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofmodel import Gemm, load_machine
from roofmodel.model import prediction
from roofmodel.model.cta_model import kernel_terms
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import FAMILIES, kmajor_copy_cycles, machine_rates, predict_kernel
from tests.test_cta_model import BASE

WGMMA, MMA_SYNC = FAMILIES.index("wgmma"), FAMILIES.index("mma.sync")
NONE_NARROW = (False, False)


def test_the_charge_by_hand():
    """128x128x64 fp16 on 4 warps: (128 + 128) x 64 x 2 B / 16 B / 128 threads = 16 copies a thread, x 10.6 = 169.6
    cycles an iteration; on 8 warps 8 copies, 84.8; 64x256x32 bf16 on 4 warps: 320 x 32 x 2 / 16 / 128 = 10, 106."""
    assert kmajor_copy_cycles(True, WGMMA, 2, False, False, NONE_NARROW, 128, 128, 64, 4, 32, 10.6) == pytest.approx(
        169.6
    )
    assert kmajor_copy_cycles(True, WGMMA, 2, False, False, NONE_NARROW, 128, 128, 64, 8, 32, 10.6) == pytest.approx(
        84.8
    )
    assert kmajor_copy_cycles(True, WGMMA, 2, False, False, NONE_NARROW, 64, 256, 32, 4, 32, 10.6) == pytest.approx(
        106.0
    )


@pytest.mark.parametrize(
    "triton, family, element_bytes, a_m, b_n, narrow",
    [
        (True, WGMMA, 2, False, True, NONE_NARROW),  # B N-major: the twin the check measured against
        (True, WGMMA, 2, True, False, NONE_NARROW),  # A M-major
        (True, WGMMA, 1, False, False, NONE_NARROW),  # fp8: IADD3, not slower
        (True, WGMMA, 4, False, False, NONE_NARROW),  # tf32: timed as slow, but charging it failed two judges
        (True, MMA_SYNC, 2, False, False, NONE_NARROW),  # another loop
        (False, WGMMA, 2, False, False, NONE_NARROW),  # another compiler
        (True, WGMMA, 2, False, False, (False, True)),  # B copied one element at a time: charged as such
        (True, WGMMA, 2, False, False, (True, False)),  # A so
    ],
)
def test_nothing_where_the_check_did_not_measure_it(triton, family, element_bytes, a_m, b_n, narrow):
    assert kmajor_copy_cycles(triton, family, element_bytes, a_m, b_n, narrow, 128, 128, 64, 4, 32, 10.6) == 0.0


def test_the_machine_files_give_it_to_fp16_and_bf16_alone():
    """machine_rates passes kernel_costs.kmajor_copy (10.6 cycles in both Hopper files) only for the types the check
    timed; at 1,980 MHz 10.6 cycles are 5.354 ns."""
    for name in ("h100", "h200"):
        machine = load_machine(name)
        for dtype, cycles in (("fp16", 10.6), ("bf16", 10.6), ("tf32", 0.0), ("fp8", 0.0), ("fp32", 0.0)):
            rates = machine_rates(machine, dtype, clock=1980.0)
            assert rates.costs.kmajor_copy_s * rates.clock_hz == pytest.approx(cycles), (name, dtype)


def test_the_pipes_and_the_chain_take_it_by_hand():
    """test_cta_model's lone tile (10 iterations of 512 MMA cycles, a 600-cycle prologue, a 2,048-cycle epilogue, 1 us
    launch, at 1 GHz) with 100 cycles of it: one CTA's chain 612 an iteration, 600 + 6,120 + 2,048 = 8,768 cycles,
    9.768 us; two CTAs an SM share the pipes, 2 x (512 + 100) = 1,224 an iteration: 600 + 12,240 + 2,048 = 14,888,
    15.888 us (13.888 without); the overhead term names it, 10 iterations x 100 cycles a CTA."""
    one = kernel_terms(**{**BASE, "kmajor_copy_cycles": 100.0})
    assert one["total"] == pytest.approx(9.768e-6) and one["overhead"] == pytest.approx(1e-6)
    two = kernel_terms(**{**BASE, "m": 256, "ctas_per_sm": 2, "kmajor_copy_cycles": 100.0})
    assert two["total"] == pytest.approx(15.888e-6) and two["overhead"] == pytest.approx(2e-6)
    assert kernel_terms(**{**BASE, "m": 256, "ctas_per_sm": 2})["total"] == pytest.approx(13.888e-6)


def test_one_ctas_chain_and_the_last_round_take_it_by_hand():
    """Where one CTA's chain binds (8 warps, a 300-cycle wait: a warpgroup's 256 MMA cycles and its wait, 556, against
    the pipes' 512): with 100 cycles the chain is 656 an iteration, the pipes 612, so 600 + 6,560 + 2,048 = 9,208
    cycles, 10.208 us (9.768 if only the pipes took it). Three tiles on one SM, two CTAs at once: a round of two, 600 +
    10 x 1,224 + 2,048 = 14,888 cycles, then the last of one, 600 + 10 x 612 + 2,048 = 8,768: 24.656 us; the overhead
    term 30 CTA iterations x 100 cycles, 3 us."""
    from roofmodel.model.cta_model import CtaCosts

    costs = CtaCosts(launch_s=1e-6, wait_s=300e-9)
    chain = kernel_terms(**{**BASE, "warps": 8, "costs": costs, "kmajor_copy_cycles": 100.0})
    assert chain["total"] == pytest.approx(10.208e-6)
    three = kernel_terms(**{**BASE, "m": 384, "ctas_per_sm": 2, "kmajor_copy_cycles": 100.0})
    assert three["total"] == pytest.approx(24.656e-6) and three["overhead"] == pytest.approx(3e-6)


@given(st.floats(0.0, 2000.0), st.floats(0.0, 2000.0), st.integers(1, 4))
def test_more_integer_work_never_predicts_a_faster_kernel(low, high, ctas):
    low, high = sorted((low, high))
    kw = {**BASE, "m": 128 * ctas, "ctas_per_sm": ctas}
    assert (
        kernel_terms(**{**kw, "kmajor_copy_cycles": low})["total"]
        <= kernel_terms(**{**kw, "kmajor_copy_cycles": high})["total"]
    )


def _predict(dtype: str, b_major: str, bk: int = 64, machine=None):
    machine = machine or load_machine("h200")
    cfg = triton_config(machine, dtype, block_m=128, block_n=128, block_k=bk, num_warps=4, num_stages=3)
    return predict_kernel(machine, Gemm(m=4096, n=4096, k=4096, dtype=dtype), cfg, a_major="k", b_major=b_major)


def test_predict_charges_it_and_says_so(monkeypatch):
    """predict at 4096^3 fp16, 128x128x64 on 4 warps, both operands K-major: the overhead line gives the 16 copies a
    thread, the 10.6 cycles a copy and the 170 cycles an iteration, and the JSON's inputs name the figure; the charge is
    what makes it slower than the same kernel with the rule's function patched to 0; with B N-major, for fp8 and for
    tf32 (which it says is untimed) no charge."""
    charged = _predict("fp16", "k")
    detail = next(t.detail for t in charged.terms if t.name == "overhead")
    assert "16 copies a thread x 10.6 cycles = 170 cycles more a CTA's iteration" in detail
    assert "kernel_costs.kmajor_copy" in {i.field for i in charged.inputs}
    monkeypatch.setattr(prediction, "kmajor_copy_cycles", lambda *a, **k: 0.0)
    assert _predict("fp16", "k").seconds < charged.seconds
    monkeypatch.undo()
    for dtype, b_major, bk in (("fp16", "n", 64), ("fp8", "k", 128), ("tf32", "k", 32)):
        detail = next(t.detail for t in _predict(dtype, b_major, bk).terms if t.name == "overhead")
        assert "kernel_costs.kmajor_copy:" not in detail, (dtype, b_major)
    tf32 = next(t.detail for t in _predict("tf32", "k", 32).terms if t.name == "overhead")
    assert "not charged: with both operands K-major, tf32's" in tf32


def test_a_file_without_the_figure_charges_nothing_and_says_so():
    """The H200's file without kernel_costs.kmajor_copy (as a user's file may be): the same kernel as the H200's with
    the function patched to 0, and the overhead line says what is not charged and why."""
    h200 = load_machine("h200")
    bare = h200.model_copy(update={"kernel_costs": h200.kernel_costs.model_copy(update={"kmajor_copy": None})})
    p = _predict("fp16", "k", machine=bare)
    detail = next(t.detail for t in p.terms if t.name == "overhead")
    assert "the machine file has no kernel_costs.kmajor_copy" in detail
    assert "kernel_costs.kmajor_copy" not in {i.field for i in p.inputs}
    assert p.seconds < _predict("fp16", "k").seconds
