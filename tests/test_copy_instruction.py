"""kernel_costs.copy_instruction: the SM's time per warp-level cp.async where an operand is copied one element at a
time (cta_model.copy_instruction_cycles), against a hand-computed example, the narrow check it was derived from
(docs/measurements/h200-2026-11-29/narrow) and the rule's scope."""

from __future__ import annotations

import statistics

import pytest

from roofmodel import load_machine
from roofmodel.model.cta_model import CtaCosts, copy_instruction_cycles, kernel_terms, shared_copy_cycles
from tests.conftest import REPO
from tests.test_cta_model import BASE

NARROW = REPO / "docs" / "measurements" / "h200-2026-11-29" / "narrow"


def test_copy_instruction_cycles_by_hand():
    # 5,120 copies of 4 bytes or 16 (4,096 of them elements) are 160 warp-level cp.async: at 9.4 cycles, 1,504.
    assert copy_instruction_cycles(5120, 4096, 32, 9.4) == pytest.approx(1504.0)
    # Every copy 16 bytes: nothing charged; no figure in the file: nothing either.
    assert copy_instruction_cycles(2048, 0, 32, 9.4) == 0.0
    assert copy_instruction_cycles(5120, 4096, 32, 0.0) == 0.0


def test_copy_instruction_cycles_in_arrays_is_the_scalar_formula():
    np = pytest.importorskip("numpy")
    copies, elements = np.array([5120.0, 2048.0, 3072.0]), np.array([4096, 0, 2048])
    got = copy_instruction_cycles(copies, elements, 32, 9.4)
    assert list(got) == [
        copy_instruction_cycles(float(c), int(e), 32, 9.4) for c, e in zip(copies, elements, strict=True)
    ]


def test_the_copies_bind_a_lone_cta_by_hand():
    # The lone 128 x 128 x 64 wgmma tile of test_cta_model.BASE (mma 512 cycles an iteration at 1 GHz; prologue 600,
    # epilogue 2,048): a stage of 8,192 element copies and 1,024 16-byte ones is 288 warp copies, at 9.4 cycles
    # 2,707.2 cycles an iteration, above the MMA's 512: 600 + 10 x 2,707.2 + 2,048 cycles, + 1 us launch.
    costs = CtaCosts(launch_s=1e-6, copy_instruction_s=9.4e-9)
    t = kernel_terms(**{**BASE, "costs": costs, "stage_copies_per_iter": 9216.0, "element_copies_per_iter": 8192})
    assert t["total"] == pytest.approx(1e-6 + (600 + 10 * 2707.2 + 2048) * 1e-9)
    assert t["overhead"] == pytest.approx(10 * 2707.2e-9)
    # Two resident CTAs share the path: each round of two iterations takes 2 x 2,707.2 of it, beside the round's
    # prologue and epilogue (the two start and end together).
    two = kernel_terms(**{**BASE, "costs": costs, "stage_copies_per_iter": 9216.0, "element_copies_per_iter": 8192,
                          "m": 256, "ctas_per_sm": 2})  # fmt: skip
    assert two["total"] == pytest.approx(1e-6 + (600 + 2048 + 10 * max(2 * 2707.2, 2707.2)) * 1e-9)
    # The same copies, all 16 bytes (no element copies): the MMA binds as before.
    aligned = kernel_terms(**{**BASE, "costs": costs, "stage_copies_per_iter": 9216.0})
    assert aligned["total"] == pytest.approx(1e-6 + (600 + 10 * 512 + 2048) * 1e-9)


def _same_figure_as_the_h200s(name: str) -> None:
    """The H100's kernel_costs.``name`` is the H200's figure, in the same unit, and says where it was measured."""
    h100, h200 = (getattr(load_machine(m).kernel_costs, name) for m in ("h100", "h200"))
    assert (
        (h100.value, h100.unit, h100.kind) == (h200.value, h200.unit, h200.kind) == (h200.value, "cycles", "measured")
    )
    assert h100.source.startswith("measured on an H200 (whose SMs the H100's are")


def test_the_h200_figure_is_what_the_narrow_check_derives():
    """machines/h200.yaml's kernel_costs.copy_instruction is benchmarks/derive_copy_instruction.py's median over the
    committed narrow check's 17 cases (8.2-11.9 cycles each); the H100 takes the same figure in SM cycles (its SMs are
    the H200's; no H100 was lent for the check: pre-registered in 3846035, judged on the H100's held-out shapes)."""
    from tests.test_cta_model import _benchmark

    cases = _benchmark("derive_copy_instruction").cases(NARROW / "broad.csv")
    per = [float(c["per_copy"]) for c in cases]
    assert len(cases) == 17 and 8 < min(per) and max(per) < 12.5
    assert load_machine("h200").kernel_costs.copy_instruction.value == pytest.approx(statistics.median(per), abs=0.05)
    _same_figure_as_the_h200s("copy_instruction")


def test_narrow_check_regression_guard():
    """Regression guard on the recorded narrow check (the data the figure was derived from, so a guard and no
    validation): its 23 tf32 wgmma kernels with an operand copied one element at a time and no spills, at the
    longest K, were off by up to 47% (median |error| 22%, all but two too fast) before the copies were charged; now
    by up to 16% (median 6%)."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(load_machine("h200"), 1980.0)
    records = [r for r in read_broad_csv(NARROW / "broad.csv") if r.k >= 4096 and "aligned" not in r.shape
               and "-a_m-" not in r.shape and not r.spilled_registers]  # fmt: skip
    errors = [float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3) - 1 for r in records]
    assert len(errors) == 23
    assert statistics.median(abs(e) for e in errors) < 0.08 and max(abs(e) for e in errors) < 0.17


@pytest.mark.parametrize(
    ("dtype", "instruction", "charged"),
    [("tf32", "wgmma", True), ("tf32", "mma.sync", False), ("fp16", "wgmma", False), ("fp32", "fma", False)],
)
def test_only_a_wgmma_kernels_4_byte_element_copies_are_charged(dtype, instruction, charged):
    """At K = 4100 both K-major operands are copied one element at a time (stride not a multiple of 16): a tf32 wgmma
    kernel's copies are charged (the narrow check measured wgmma); mma.sync's (not measured; charging them made the
    read sweeps' 323 such kernels worse), 16-bit ones (loaded synchronously, another path) and FMA's are not."""
    from roofmodel import Gemm
    from roofmodel.model.kernel import register_tile_for, triton_config
    from roofmodel.model.prediction import predict_kernel

    h200 = load_machine("h200")
    without = h200.model_copy(update={"kernel_costs": h200.kernel_costs.model_copy(update={"copy_instruction": None})})
    cfg = triton_config(h200, dtype, block_m=128, block_n=64, block_k=32, num_warps=4, num_stages=3)
    if cfg.instruction != instruction:  # Triton's DISABLE_MMA_V3 (the sweeps' forced mma.sync)
        cfg = cfg.model_copy(
            update={"instruction": instruction, "register_tile": register_tile_for(instruction, 128, 64, 4)}
        )
    gemm = Gemm(m=4096, n=4096, k=4100, dtype=dtype)
    got = predict_kernel(h200, gemm, cfg, b_major="k")
    base = predict_kernel(without, gemm, cfg, b_major="k")
    assert (got.seconds > base.seconds * 1.05) is charged and (got.seconds == base.seconds) is not charged
    note = {t.name: t.detail for t in got.terms}["overhead"]
    assert ("kernel_costs.copy_instruction" in note) is charged


def test_element_copies_by_hand():
    """prediction.element_copies, the one rule the model and predict's note share: a 128x64x32 tf32 wgmma stage at
    K = 4100 (K-major strides not a multiple of 16) copies A's 128 x 32 elements one at a time where A is K-major, and
    B's 64 x 32 too where B is K-major as well; N = 4096 keeps an N-major B 16-byte. mma.sync, FMA and fp16 (whose
    narrow operand is loaded synchronously) count none."""
    from roofmodel.model.prediction import FAMILIES, copy_plan, element_copies

    wgmma, mma_sync, fma = (FAMILIES.index(f) for f in ("wgmma", "mma.sync", "fma"))

    def copies(family, e, b_n_major):
        plan = copy_plan(True, family, e, 4096, 4096, 4100, False, b_n_major, 128, 64)
        return element_copies(plan, family, e, 128, 64, 32)

    assert copies(wgmma, 4, True) == 128 * 32
    assert copies(wgmma, 4, False) == (128 + 64) * 32
    assert copies(mma_sync, 4, False) == 0 and copies(fma, 4, False) == 0 and copies(wgmma, 2, False) == 0


def test_copies_all_of_elements_by_hand():
    """prediction.copies_all_of_elements, the class kernel_costs.copy_instruction_shared_elements takes: a Triton tf32
    wgmma stage at K = 4100 whose A and B are both K-major (both copied one element at a time) in a kernel that spills
    nothing; not with a register spilled, B N-major at N = 4100 (copied one element at a time but stored against its
    layout), mma.sync, fp16 (loaded synchronously) or K = 4096 (16-byte copies). Arrays give the scalar answers."""
    from roofmodel.model.prediction import FAMILIES, copies_all_of_elements, copy_plan

    wgmma, mma_sync = FAMILIES.index("wgmma"), FAMILIES.index("mma.sync")

    def rule(family=wgmma, e=4, k=4100, b_n_major=False, spilled=0):
        plan = copy_plan(True, family, e, 4100, 4100, k, False, b_n_major, 128, 64)
        return bool(copies_all_of_elements(plan, family, e, False, b_n_major, spilled))

    assert rule() and not rule(spilled=1) and not rule(b_n_major=True)
    assert not rule(family=mma_sync) and not rule(e=2) and not rule(k=4096)
    np = pytest.importorskip("numpy")
    families, spilled = np.array([wgmma, wgmma, mma_sync]), np.array([0, 3, 0])
    plan = copy_plan(True, families, 4, 4100, 4100, 4100, False, False, 128, 64)
    got = copies_all_of_elements(plan, families, 4, False, False, spilled)
    assert list(got) == [rule(family=int(f), spilled=int(s)) for f, s in zip(families, spilled, strict=True)]


def test_the_shared_pipe_by_hand():
    """kernel_costs.copy_instruction_shared: where CTAs share an SM, the SM takes each of their copies at its own rate
    (8.3 cycles on the H200) while one CTA's chain keeps copy_instruction (9.4). The two resident CTAs of
    test_the_copies_bind_a_lone_cta_by_hand: 288 warp copies an iteration each, a round of two iterations 2 x 288 x
    8.3 = 4,780.8 cycles, above one CTA's chain (2,707.2 an iteration): 600 + 2,048 + 10 x 4,780.8, the round's
    prologue and epilogue beside its iterations."""
    shared = CtaCosts(launch_s=1e-6, copy_instruction_s=9.4e-9, copy_instruction_shared_s=8.3e-9)
    two = {**BASE, "stage_copies_per_iter": 9216.0, "element_copies_per_iter": 8192, "m": 256, "ctas_per_sm": 2}
    terms = kernel_terms(**{**two, "costs": shared})
    assert terms["total"] == pytest.approx(1e-6 + (600 + 2048 + 10 * 4780.8) * 1e-9)
    # The overhead term, each part as if it were alone, is the SM's time at the shared rate, which binds here.
    assert terms["overhead"] == pytest.approx(10 * 4780.8e-9)
    # Alone, the CTA's chain at 9.4 binds as before: the shared rate changes nothing.
    one = {**BASE, "stage_copies_per_iter": 9216.0, "element_copies_per_iter": 8192}
    alone = CtaCosts(launch_s=1e-6, copy_instruction_s=9.4e-9)
    assert kernel_terms(**{**one, "costs": shared})["total"] == kernel_terms(**{**one, "costs": alone})["total"]
    # A file without the shared rate shares the pipe at copy_instruction (2 x 10 x 2,707.2 cycles, beside the edges).
    assert kernel_terms(**{**two, "costs": alone})["total"] == pytest.approx(
        1e-6 + (600 + 2048 + 2 * 10 * 2707.2) * 1e-9
    )


def test_copies_all_of_elements_share_the_pipe_at_their_own_rate_by_hand():
    """kernel_costs.copy_instruction_shared_elements: where every copy of the stage is an element copy, the resident
    CTAs' copies take the path at 6.8 cycles each (the occupancy check's eight such cases), a mix keeps
    copy_instruction_shared. Two resident CTAs of test_cta_model.BASE given a stage of 8,192 element copies (synthetic
    counts, all copies of elements): 256 warp copies an iteration each, a round of two 2 x 256 x 6.8 = 3,481.6 cycles, above one
    CTA's chain (256 x 9.4 = 2,406.4) and the MMAs (2 x 512): 600 + 2,048 + 10 x 3,481.6, + 1 us launch. The mix of
    test_the_shared_pipe_by_hand (288 warp copies, 256 of elements) stays at 8.3: 2 x 288 x 8.3 = 4,780.8 a round."""
    costs = CtaCosts(launch_s=1e-6, copy_instruction_s=9.4e-9, copy_instruction_shared_s=8.3e-9,
                     copy_instruction_shared_elements_s=6.8e-9)  # fmt: skip
    two = {**BASE, "stage_copies_per_iter": 8192.0, "element_copies_per_iter": 8192, "m": 256, "ctas_per_sm": 2,
           "element_copies_only": True}  # fmt: skip
    terms = kernel_terms(**{**two, "costs": costs})
    assert terms["total"] == pytest.approx(1e-6 + (600 + 2048 + 10 * 3481.6) * 1e-9)
    assert terms["overhead"] == pytest.approx(10 * 3481.6e-9)
    # Not so marked (prediction.copies_all_of_elements: an operand stored against its layout, or spills): 8.3.
    unmarked = kernel_terms(**{**two, "element_copies_only": False, "costs": costs})
    assert unmarked["total"] == pytest.approx(1e-6 + (600 + 2048 + 10 * 2 * 256 * 8.3) * 1e-9)
    mixed = kernel_terms(**{**two, "stage_copies_per_iter": 9216.0, "element_copies_only": False, "costs": costs})
    assert mixed["total"] == pytest.approx(1e-6 + (600 + 2048 + 10 * 4780.8) * 1e-9)
    # Alone, one CTA's chain at copy_instruction binds as before: the rate of copies all of elements changes nothing.
    one = {**BASE, "stage_copies_per_iter": 8192.0, "element_copies_per_iter": 8192, "costs": costs,
           "element_copies_only": True}  # fmt: skip
    plain = CtaCosts(launch_s=1e-6, copy_instruction_s=9.4e-9, copy_instruction_shared_s=8.3e-9)
    assert kernel_terms(**one)["total"] == kernel_terms(**{**one, "costs": plain})["total"]
    # The rate by itself, at 1 GHz: a file without the figure takes the mix's; without copy_instruction, nothing.
    assert shared_copy_cycles(costs, 1e9, 1) == pytest.approx(6.8) and shared_copy_cycles(
        costs, 1e9, 0
    ) == pytest.approx(8.3)
    assert shared_copy_cycles(plain, 1e9, 1) == pytest.approx(8.3)
    assert shared_copy_cycles(CtaCosts(copy_instruction_shared_elements_s=6.8e-9), 1e9, 1) == 0.0


def test_shared_copy_cycles_in_arrays_is_the_scalar_formula():
    np = pytest.importorskip("numpy")
    costs = CtaCosts(copy_instruction_s=9.4e-9, copy_instruction_shared_s=8.3e-9,
                     copy_instruction_shared_elements_s=6.8e-9)  # fmt: skip
    flags = np.array([1, 0, 1])
    assert list(shared_copy_cycles(costs, 1e9, flags)) == [shared_copy_cycles(costs, 1e9, int(f)) for f in flags]


def test_the_shared_copy_instruction_is_the_occupancy_checks_median():
    """machines/h200.yaml's kernel_costs.copy_instruction_shared and copy_instruction_shared_elements are
    benchmarks/derive_copy_instruction.py --occupancy's medians over the 28 wgmma cases where two or more CTAs share an
    SM, split by whether every copy of the stage is an element copy: 20 mixed (7.8-10.0 cycles each), 8 all of elements
    (6.6-7.3); the H100 takes both in SM cycles, like copy_instruction."""
    from tests.test_cta_model import _benchmark

    derive = _benchmark("derive_copy_instruction")
    got = derive.shared_cases()
    assert len(got) == 28 and all(int(c["resident"]) >= 2 for c in got)
    costs = load_machine("h200").kernel_costs
    elements = [float(c["per_copy"]) for c in derive.element_cases(got)]
    mixed = [float(c["per_copy"]) for c in derive.mixed_cases(got)]
    assert len(elements) == 8 and min(elements) > 6.5 and max(elements) < 7.3
    assert len(mixed) == 20 and min(mixed) > 7.7 and max(mixed) < 10.1
    assert costs.copy_instruction_shared.value == pytest.approx(statistics.median(mixed), abs=0.05)
    assert costs.copy_instruction_shared_elements.value == pytest.approx(statistics.median(elements), abs=0.05)
    _same_figure_as_the_h200s("copy_instruction_shared")
    _same_figure_as_the_h200s("copy_instruction_shared_elements")


def test_occupancy_check_regression_guard():
    """Regression guard on the recorded occupancy check (the data the figures came from: a guard, no validation): its
    28 pipe-bound wgmma kernels at K = 4096 (an operand copied one element at a time, no spills, no transposed
    operand, two or more CTAs an SM) were +8.8% median signed (-9% to +39%) with the pipe shared at 9.4, -2.0% (-16% to
    +28%; median |error| 7.6%) with one shared rate over all 28, the eight whose every copy is an element copy +19.3%
    (+12% to +28%); with their own rate (kernel_costs.copy_instruction_shared_elements) those eight are -1.6% (-7.5% to
    +11.5%), and with the other twenty's (copy_instruction_shared, 8.4) those twenty -1.8% (-15% to +4%): all 28
    -1.7% (-15% to +11.5%; 3.7%)."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(load_machine("h200"), 1980.0)
    errors, both = [], []
    for r in read_broad_csv(REPO / "docs" / "measurements" / "h200-2026-11-29" / "occupancy" / "broad.csv"):
        if r.set != "narrow_occupancy" or r.k < 4096 or r.instruction != "wgmma" or r.spilled_registers:
            continue
        case = r.shape.split("-")[1]
        terms, fp = ev._terms(r, True, None)
        if case in ("a_narrow_m", "b_narrow_n", "both_narrow_k") and min(int(r.shape[-1]), fp["ctas_per_sm"]) >= 2:
            errors.append(float(terms["total"]) / (r.time_ms * 1e-3) - 1)
            if case == "both_narrow_k":
                both.append(errors[-1])
    assert len(errors) == 28 and len(both) == 8
    assert -0.04 < statistics.median(errors) < 0.0 and max(errors) < 0.13 and min(errors) > -0.17
    assert -0.03 < statistics.median(both) < 0.0 and max(both) < 0.13 and min(both) > -0.08


@pytest.mark.parametrize(("m", "b_major", "said", "extra"), [
    (4100, "n", "3 CTAs an SM here, the shared rate", ()), (600, "n", "one CTA an SM here, its chain's rate", ()),
    (4100, "k", "3 CTAs an SM here, the shared rate", ()),
    (4100, "k", "the shared rate", ("--regs", "128", "--spilled", "1")),
])  # fmt: skip
def test_predict_says_which_copy_rate_applies(cli, m, b_major, said, extra):
    """predict's overhead note names both rates and which one this kernel takes: tf32 64x64x32 at K = 1500 (A
    K-major, copied one element at a time, and B N-major, so too at N = 4100 and 600, stored against its layout) holds
    3 CTAs an SM at 4100^2, one at 600^2 (36 tiles); its copies share the path at copy_instruction_shared (8.4).
    With B K-major every copy is an element copy in its own layout: copy_instruction_shared_elements (6.8), unless
    the kernel spills (here one register, as compiled): copy_instruction_shared again."""
    r = cli("predict", "--machine", "h200", "--m", str(m), "--k", "1500", "--tile", "64x64x32", "--warps", "4",
            "--stages", "3", "--dtype", "tf32", "--kernel", "triton", "--clock", "1980", "--b-major", b_major,
            *extra)  # fmt: skip
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    shared = ("6.8 cycles a copy over the CTAs it holds at once (kernel_costs.copy_instruction_shared_elements;"
              if b_major == "k" and not extra
              else "8.4 cycles a copy over the CTAs it holds at once (kernel_costs.copy_instruction_shared;")  # fmt: skip
    assert "9.4 cycles (kernel_costs.copy_instruction)" in text and shared in text
    assert said in text


@pytest.mark.parametrize("dtype", ["tf32", "fp32", "fp16", "bf16", "fp8"])
def test_the_element_copy_rate_is_an_input_of_tf32_alone(dtype):
    """kernel_costs.copy_instruction_shared_elements is taken only by a Triton tf32 wgmma stage all of element copies
    (prediction.copies_all_of_elements): predict lists it among a kernel's inputs for tf32 alone, as it does
    kernel_costs.convert for fp8 and kernel_costs.fma_lone_issue for fp32; the times do not depend on it elsewhere."""
    from roofmodel import Gemm
    from roofmodel.model.kernel import triton_config
    from roofmodel.model.prediction import predict_kernel

    machine = load_machine("h200")
    gemm = Gemm(m=4096, n=4096, k=1500, dtype=dtype)
    bk = {"fp8": 128, "tf32": 32, "fp32": 32}.get(dtype, 64)
    cfg = triton_config(machine, dtype, block_m=128, block_n=128, block_k=bk, group_m=8, num_warps=4, num_stages=3)
    fields = {i.field for i in predict_kernel(machine, gemm, cfg, a_major="k", b_major="k").inputs}
    assert ("kernel_costs.copy_instruction_shared_elements" in fields) == (dtype == "tf32")
    assert "kernel_costs.copy_instruction_shared" in fields
