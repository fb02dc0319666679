"""The "issued copies" bound (prediction.issued_stage_bytes, pre-registered in bdec836, landed in ddb7e45): every stage
copy a Triton kernel's CTAs issue, the masked ones past M, N or K included, at the L2 path's rate, a memory bound of
its own beside DRAM and the L2."""

from __future__ import annotations

import math

import pytest

from roofmodel import Gemm, Tile, load_machine
from roofmodel.model import cta_model
from roofmodel.model.kernel import cutlass_config, triton_config
from roofmodel.model.prediction import issued_stage_bytes, predict, predict_kernel
from tests.test_cta_model import _benchmark


def _decode():
    """A decode GEMM (28 x 16,384 x 9,216 fp16, both operands K-major) under Triton's 256x32x64 tile on 4 warps, 4
    stages, one tile row: 228 of each CTA's 256 rows of A are past M."""
    h200 = load_machine("h200")
    cfg = triton_config(h200, "fp16", block_m=256, block_n=32, block_k=64, group_m=1, num_warps=4, num_stages=4)
    return predict_kernel(h200, Gemm(m=28, n=16384, k=9216, dtype="fp16"), cfg, b_major="k")


def test_a_decode_kernel_is_bound_by_the_copies_it_issues_past_m():
    """By hand: 1 x 512 tiles x 144 iterations x (256 + 32) rows x 64 x 2 B = 2,717,908,992 B (2,592 MiB), of which
    the kernel requests 540 MiB (28 rows of A a tile, not 256); at the H200's memory.l2.gemm_bandwidth, 10,027 GB/s:
    0.2711 ms, more than DRAM's and the L2's q-norm (0.09 ms), so it is the memory time; it bound the kernel until
    cd008f3 charged both operands K-major (18 copies a thread x 10.6 cycles an iteration of each CTA), since when the
    SM's time passes it: 0.303 ms predicted at predict's default clock, against 0.33 ms measured (fresh8's decode28,
    GROUP_M 1)."""
    p = _decode()
    by = {t.name: t for t in p.terms}
    issued = 512 * 144 * (256 + 32) * 64 * 2
    assert issued == 2_717_908_992 == issued_stage_bytes(True, 28, 16384, 9216, 256, 32, 64, 2)
    assert by["issued copies"].seconds == pytest.approx(issued / 10_027e9, rel=1e-12)
    assert by["issued copies"].seconds == pytest.approx(0.2711e-3, rel=1e-3)
    assert p.memory_seconds == by["issued copies"].seconds > by["L2"].seconds > 0
    assert p.limiter == "shared memory" and p.seconds == pytest.approx(0.3027e-3, rel=1e-3)
    detail = by["issued copies"].detail
    assert "2,592 MiB of stage copies" in detail and "2,052 MiB of them past M, N or K" in detail
    assert "10,027 GB/s (memory.l2.gemm_bandwidth)" in detail


def test_where_nothing_is_masked_the_bound_is_zero_and_the_memory_time_the_q_norm():
    """At 4096^3 under 128x128x64 every copy is requested: the issued copies are the L2 term's operand bytes, which it
    charges with C at the same rate, so the bound cannot pass it and is 0; the memory time is DRAM's and the L2's
    q-norm, and the detail says why."""
    h100 = load_machine("h100")
    cfg = triton_config(h100, "fp16", block_m=128, block_n=128, block_k=64, group_m=8, num_warps=8, num_stages=3)
    p = predict_kernel(h100, Gemm(m=4096, n=4096, k=4096, dtype="fp16"), cfg)
    by = {t.name: t for t in p.terms}
    assert by["issued copies"].seconds == 0
    assert by["issued copies"].detail.startswith("none: 2,048 MiB of stage copies, none past M, N or K")
    assert issued_stage_bytes(True, 4096, 4096, 4096, 128, 128, 64, 2) == 32 * 32 * 64 * 256 * 64 * 2 == 2**31
    memory = cta_model.memory_seconds(by["DRAM"].seconds, by["L2"].seconds, by["LLC"].seconds)
    assert p.memory_seconds == pytest.approx(memory, rel=1e-15)


def test_the_copies_are_named_only_where_they_are_the_memory_time():
    """200 x 8,192 x 8,192 under 64x32x128 masks 56 of the second tile row's 64 rows: the issued copies (1,536 MiB, 224
    past M: 0.161 ms) pass the L2 term (0.138 ms) but not DRAM's and the L2's q-norm (0.178 ms), which is the memory
    time: the kernel is limited by the L2, the largest of the q-norm's terms, not by the copies."""
    h200 = load_machine("h200")
    cfg = triton_config(h200, "fp16", block_m=64, block_n=32, block_k=128, group_m=1, num_warps=4, num_stages=4)
    p = predict_kernel(h200, Gemm(m=200, n=8192, k=8192, dtype="fp16"), cfg, b_major="k")
    by = {t.name: t.seconds for t in p.terms}
    assert by["L2"] < by["issued copies"] < p.memory_seconds
    assert p.memory_seconds == pytest.approx(cta_model.memory_seconds(by["DRAM"], by["L2"]), rel=1e-15)
    assert p.limiter == "L2"
    # Where they are the memory time, the text says so before the q-norm it passes.
    from roofmodel.render.text import time_parts

    assert "memory 0.2711 ms: the issued copies (every stage copy at the L2 path's rate" in time_parts(_decode())


def test_cutlass_stated_and_unmeasured_machines_are_not_charged_and_say_why():
    """Only Triton's cp.async copies, at a measured memory.l2.gemm_bandwidth, were measured past the edges."""
    h200, g = load_machine("h200"), Gemm(m=28, n=16384, k=9216, dtype="fp16")
    a100, t4 = load_machine("a100"), load_machine("t4")
    cases = {
        "only Triton's copies past M, N or K were measured": predict_kernel(
            h200, g, cutlass_config(h200, "fp16", kind="sm90", tile=(128, 64, 64), stages=4)
        ),
        "a stated kernel's are left out": predict(h200, g, Tile(bm=128, bn=64, bk=64)),
        "no memory.l2.gemm_bandwidth": predict_kernel(
            a100,
            g,
            triton_config(a100, "fp16", block_m=128, block_n=64, block_k=32, group_m=8, num_warps=4, num_stages=3),
        ),
        "no cp.async, or AMD's": predict_kernel(
            t4, g, triton_config(t4, "fp16", block_m=128, block_n=64, block_k=32, group_m=8, num_warps=4, num_stages=2)
        ),
    }
    for words, p in cases.items():
        term = next(t for t in p.terms if t.name == "issued copies")
        assert term.seconds == 0 and words in term.detail, term.detail
    assert issued_stage_bytes(False, 28, 16384, 9216, 256, 32, 64, 2) == 0


def test_a_triton_kernel_takes_no_cluster():
    """A Triton kernel's cp.async copies cannot multicast: a cluster is refused, not charged as one."""
    from roofmodel import ProblemError
    from roofmodel.search.space import Space, evaluate

    h100, g = load_machine("h100"), Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    cfg = triton_config(h100, "fp16", block_m=128, block_n=128, block_k=64, group_m=8, num_warps=8, num_stages=3)
    with pytest.raises(ProblemError, match="a Triton kernel takes no cluster"):
        predict_kernel(h100, g, cfg.model_copy(update={"cluster": (2, 1)}))
    with pytest.raises(ProblemError, match="the triton space takes no cluster"):
        evaluate(h100, g, Space(name="triton", clusters=((2, 1),)))


def test_the_bound_is_a_memory_term_alone_not_in_the_q_norm():
    """memory = max((dram^q + l2^q)^(1/q), llc, copies): a copies term under the q-norm changes nothing, one over it
    is the memory time; the search's arrays give what the numbers give."""
    np = pytest.importorskip("numpy")
    q = cta_model.memory_seconds(1e-3, 2e-3)
    assert cta_model.memory_seconds(1e-3, 2e-3, 0.0, 2.1e-3) == q
    assert cta_model.memory_seconds(1e-3, 2e-3, 0.0, 3e-3) == 3e-3
    rng = np.random.default_rng(11)
    sm, dram, l2, copies = (rng.random(4000) for _ in range(4))
    got = cta_model.sm_and_memory_seconds(sm, dram, l2, 0.0, copies)
    assert np.array_equal(got, cta_model.overlap(sm, cta_model.memory_seconds(dram, l2, 0.0, copies)))
    assert all(got[i] == cta_model.sm_and_memory_seconds(*(float(x[i]) for x in (sm, dram, l2)), 0.0, float(copies[i]))
               for i in range(0, 4000, 9))  # fmt: skip


def test_the_search_charges_the_bound_as_predict_does():
    """tune's vectorized search gives every Triton decode kernel of 256 rows what predict gives it, term for term, bit
    for bit, and the issued copies bind more of those of 32 columns than any other term (144 of 348; more than half
    until cd008f3 charged both operands K-major)."""
    np = pytest.importorskip("numpy")
    from roofmodel.search.space import Space, evaluate

    machine = load_machine("h200")
    g = Gemm(m=28, n=16384, k=9216, dtype="fp16")
    ev = evaluate(machine, g, Space(name="triton"), b_major="k")
    tall = np.flatnonzero((ev.configs.bm == 256) & (ev.configs.bn == 32))
    assert tall.size >= 10
    limiters: dict[str, int] = {}
    for i in tall:
        p = predict_kernel(machine, g, ev.configs.config(i), b_major="k")
        assert p.seconds == ev.seconds[i]
        assert all(t.seconds == ev.terms[i][cta_model.TERMS.index(t.name)] for t in p.terms)
        limiters[p.limiter] = limiters.get(p.limiter, 0) + 1
    assert max(limiters, key=limiters.__getitem__) == "issued copies" and limiters["issued copies"] > tall.size / 3


def test_the_evidence_masked_copies_fill_at_the_rate_requested_ones_do():
    """benchmarks/issued_copies.py on the read sweeps the rule was chosen on: Triton's 16-bit wgmma decode kernels of
    256x32 tiles fill their stages at the rate the same tiles do at the other shapes when every copy is counted (H200
    30.8 against 31.8 bytes an SM cycle, H100 31.9 against 29.9) and at under a quarter of it counting only what they
    request (6.6, 6.7)."""
    study = _benchmark("issued_copies")
    quoted = {"h200": (30.8, 6.6, 31.8), "h100": (31.9, 6.7, 29.9)}
    for gpu, samples in study.FITTED_ON.items():
        rates = study.fill_rates(gpu, samples)
        decode, other = study.medians(rates[(256, 32, True)]), study.medians(rates[(256, 32, False)])
        assert (round(decode[0], 1), round(decode[1], 1), round(other[0], 1)) == quoted[gpu]
        assert math.isclose(decode[0], other[0], rel_tol=0.1) and decode[1] < 0.25 * decode[0]
