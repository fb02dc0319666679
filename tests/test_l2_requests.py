"""The L2's request bound: copies in runs shorter than a 128-byte line ask for more line requests per byte
(prediction.copy_requests_per_sector), and past memory.l2.requests_per_sector the tag stage sets the L2's rate
(prediction.l2_request_factor)."""

from __future__ import annotations

import csv
import math
import statistics
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofmodel.machine import load_machine
from roofmodel.model.prediction import copy_requests_per_sector, l2_request_factor, run_lines

REPO = Path(__file__).resolve().parents[1]
ROW_CHECKS = {gpu: REPO / f"docs/measurements/{gpu}-2026-11-27/row_check/row_check.csv" for gpu in ("h100", "h200")}
ROW_CHECK_4112 = REPO / "docs/measurements/h100-2026-11-27/row_check_4112/row_check.csv"
ELEMENT_BYTES = {"fp16": 2, "tf32": 4}


def test_requests_per_sector_by_hand():
    # fp16 128x128x32, both K-major: runs of 32 x 2 = 64 B, a request per two sectors -> 0.5.
    assert copy_requests_per_sector(2, 128, 128, 32, False, False) == 0.5
    # B N-major: its runs are 128 x 2 = 256 B, a request per 128-byte line (4 sectors): (128 x 0.5 + 128 x 0.25) / 256.
    assert copy_requests_per_sector(2, 128, 128, 32, False, True) == 0.375
    # fp8 64x32x128, B N-major: A's runs 128 B (0.25), B's 32 B (1 request a sector): (64 x 0.25 + 32 x 1) / 96 = 0.5.
    assert copy_requests_per_sector(1, 64, 32, 128, False, True) == 0.5
    # BK 64 fp16: every run a whole line.
    assert copy_requests_per_sector(2, 64, 256, 64, False, False) == 0.25


def test_the_tag_stage_binds_only_past_its_ratio():
    assert l2_request_factor(0.455, 2, 128, 128, 32, False, False) == pytest.approx(0.5 / 0.455)
    assert l2_request_factor(0.455, 2, 128, 128, 32, False, True) == 1.0  # 0.375 < 0.455
    assert l2_request_factor(None, 2, 128, 128, 32, False, False) == 1.0  # no figure, no bound
    assert load_machine("h100").memory.l2.requests_per_sector.value == 0.455


@given(
    e=st.sampled_from([1, 2, 4]),
    bm=st.sampled_from([16, 32, 64, 128, 256]),
    bn=st.sampled_from([16, 32, 64, 128, 256]),
    bk=st.sampled_from([16, 32, 64, 128]),
    a_m=st.booleans(),
    b_n=st.booleans(),
)
def test_longer_runs_never_ask_more_requests(e, bm, bn, bk, a_m, b_n):
    q = copy_requests_per_sector(e, bm, bn, bk, a_m, b_n)
    assert 0.25 <= q <= 32 / min(e * min(bm, bn, bk), 32)
    assert copy_requests_per_sector(e, bm, bn, 2 * bk, a_m, b_n) <= q  # a larger BK: runs as long or longer
    assert l2_request_factor(0.455, e, bm, bn, 2 * bk, a_m, b_n) <= l2_request_factor(0.455, e, bm, bn, bk, a_m, b_n)
    assert l2_request_factor(0.455, e, bm, bn, bk, a_m, b_n) >= 1.0


def test_predict_charges_the_requests_of_64_byte_runs():
    # 4096^3 fp16, 128x128x32 on 8 warps: with B K-major both operands run 64 B (0.5 requests a sector), and the
    # operand bytes take 0.5 / 0.455 of their time at the data rate; with B N-major (0.375) nothing changes. C
    # (4096^2 x 2 B) is charged as before.
    from roofmodel.model.prediction import predict
    from roofmodel.model.problem import Gemm, Tile

    h100 = load_machine("h100")
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    l2 = {}
    for b_major in ("k", "n"):
        p = predict(h100, g, Tile(bm=128, bn=128, bk=32), warps=8, b_major=b_major)
        l2[b_major] = next(t.seconds for t in p.terms if t.name == "L2")
    requested = 4096**3 / 128 * 2 * 32 * 2 / 32  # every tile's A and B panels: tiles x K/BK x (128 + 128) x 32 x 2 B
    c = 4096 * 4096 * 2
    assert l2["k"] / l2["n"] == pytest.approx((requested * 0.5 / 0.455 + c) / (requested + c), rel=1e-9)


@pytest.mark.parametrize("gpu", sorted(ROW_CHECKS))
def test_the_rule_against_nsight_computes_counts(gpu):
    """Regression guard on the recorded row checks (benchmarks/gpu_row_check.py): for each of the 48 kernels the
    rule's sectors per request are Nsight Compute's within 12% (the worst are fp16 wgmma 128x128x32 with one operand
    in 64-byte runs, where the rule says 2.67 and the counters 2.45 with A K-major and B N-major, 3.0 with A M-major
    and B K-major: the byte-weighted average does not follow which operand it is), the rule calls a kernel request-bound exactly where the L2's tag stage is busier
    than its data path (no kernel asks between 0.375 and 0.5: the counters bracket the limit), the tag stage's peak
    is half the data path's per sector the SMs read, and the machine file's ratio is the median of the counters'
    per sector of all the L2's traffic."""
    with ROW_CHECKS[gpu].open(newline="") as f:
        rows = list(csv.DictReader(f))
    limit = load_machine(gpu).memory.l2.requests_per_sector.value
    ratios = []
    for r in rows:
        q = copy_requests_per_sector(ELEMENT_BYTES[r["dtype"]], int(r["block_m"]), int(r["block_n"]),
                                     int(r["block_k"]), r["a_major"] == "m", r["b_major"] == "n")  # fmt: skip
        sectors_per_request = float(r["lts__t_sectors_srcunit_tex_op_read.sum"]) / float(
            r["lts__t_requests_srcunit_tex_op_read.sum"])  # fmt: skip
        assert 1 / q == pytest.approx(sectors_per_request, rel=0.12), r
        tag = float(r["lts__t_requests.avg.pct_of_peak_sustained_elapsed"])
        data = float(r["lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"])
        assert (q > limit) == (tag > data), r
        ratios.append((float(r["lts__t_requests.sum"]) / tag) / (float(r["lts__t_sectors.sum"]) / data))
        sm_read = float(r["lts__t_sectors_srcunit_tex_op_read.sum"])
        assert (float(r["lts__t_requests.sum"]) / tag) / (sm_read / data) == pytest.approx(0.5, abs=0.01)
    assert len(rows) == 48
    assert statistics.median(ratios) == pytest.approx(limit, abs=0.0005)


def test_runs_that_do_not_start_on_a_line_by_hand():
    # fp16 rows 4112 x 2 = 8224 bytes apart: starts on the multiples of gcd(8224, 128) = 32 within a line. A 64-byte
    # run at 0, 32, 64 or 96 touches 1, 1, 1, 2 lines (1.25); a 128-byte one 1, 2, 2, 2 (1.75).
    assert run_lines(64, 8224) == 1.25 and run_lines(128, 8224) == 1.75
    # tf32 rows 16,448 bytes apart (64 in a line): a 128-byte run at 0 or 64 touches 1 or 2; a 64-byte one always 1.
    assert run_lines(128, 16448) == 1.5 and run_lines(64, 16448) == 1.0
    # Aligned strides (or none given): a run that divides a line touches one; a 256-byte run two.
    assert run_lines(64) == run_lines(128, 8192) == 1.0 and run_lines(256) == 2.0
    # So 64-byte runs at K = 4112 ask 1.25 x 32 / 64 = 0.625 requests a sector, whole lines 1.75 x 32 / 128 = 0.4375;
    # an MN-major operand's longer runs are requested 128 bytes at a time, like whole lines.
    assert copy_requests_per_sector(2, 128, 128, 32, False, False, 4112, 4112) == 0.625
    assert copy_requests_per_sector(2, 128, 128, 64, True, True, 4112, 4112) == 0.4375
    assert l2_request_factor(0.455, 2, 128, 128, 32, False, False, 4112, 4112) == pytest.approx(0.625 / 0.455)
    assert copy_requests_per_sector(2, 128, 128, 32, False, False, 4096, 4096) == 0.5  # as without strides


def test_runs_that_do_not_start_on_a_line_against_nsight_compute():
    """Regression guard on the row check at 4112 (H100): for the 16-byte copies (fp16, and tf32 K-major; tf32's
    MN-major operands are copied 4 bytes at a time through the L1, which the rule does not describe) the rule's sectors
    per request are the counters' within 10% (1.60 for 64-byte runs against 1.59; 2.29 for whole lines against
    2.22-2.27), and outside the knee the rule calls a kernel bound exactly where the tag stage is the busier. Whole-line
    fp16 copies ask 0.4375 requests a sector, under the limit, where the counters find the tag stage and the data path
    equally busy (within 5% of each other): the knee, which the effective limit puts just above them."""
    with ROW_CHECK_4112.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 48
    checked = classified = 0
    for r in rows:
        e = ELEMENT_BYTES[r["dtype"]]
        a_m, b_n = r["a_major"] == "m", r["b_major"] == "n"
        if e == 4 and (a_m or b_n):
            continue
        q = copy_requests_per_sector(e, int(r["block_m"]), int(r["block_n"]), int(r["block_k"]), a_m, b_n, 4112, 4112)
        sectors_per_request = float(r["lts__t_sectors_srcunit_tex_op_read.sum"]) / float(
            r["lts__t_requests_srcunit_tex_op_read.sum"])  # fmt: skip
        assert 1 / q == pytest.approx(sectors_per_request, rel=0.10), r
        tag = float(r["lts__t_requests.avg.pct_of_peak_sustained_elapsed"])
        data = float(r["lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"])
        if abs(tag / data - 1) > 0.05:
            assert (q > 0.455) == (tag > data), r
            classified += 1
        checked += 1
    assert (checked, classified) == (30, 15)


def test_run_lines_is_the_count_over_every_offset():
    """Against an independent count: a run of R bytes starting at each multiple of gcd(stride, R, 128) within a line
    touches ceil((o + R) / 128) lines; their mean is run_lines, for numbers and for arrays alike."""
    import math

    import numpy as np

    for run in (16, 32, 48, 64, 96, 128, 192, 256, 512):
        for stride in (None, 128, 200, 4600, 7600, 8192, 8224, 16448, 10200, 3):
            g = math.gcd(math.gcd(128 if stride is None else stride, run), 128)
            counted = sum(math.ceil((o + run) / 128) for o in range(0, 128, g)) / (128 // g)
            assert run_lines(run, stride) == pytest.approx(counted)
            as_array = run_lines(np.array([run, run]), None if stride is None else np.array([stride, stride]))
            assert as_array[1] == pytest.approx(counted)


# DRAM's request bound (memory.dram.requests_per_sector, prediction.dram_request_seconds): the same requests, counted
# over the bytes DRAM serves, against the rate the path from DRAM serves them (benchmarks/gpu_dram_runs.py).
DRAM_RUNS = REPO / "docs/measurements/h200-2026-11-29/dram_runs"


def test_dram_requests_by_hand():
    from roofmodel.model.prediction import SECTOR_BYTES, dram_request_seconds, machine_rates

    h200 = load_machine("h200")
    r = machine_rates(h200, "fp16", bandwidth="measured", clock=1980)
    # 0.330 requests a sector of the measured 4,308.8 GB/s: 44.4 G requests a second.
    assert r.dram_requests_per_s == pytest.approx(0.330 * 4308.8e9 / 32)
    # the same rate where the bytes take the datasheet's 4.8 TB/s: the figure is read against the measured rate
    spec = machine_rates(h200, "fp16", bandwidth="spec", clock=1980)
    assert spec.dram_requests_per_s == r.dram_requests_per_s and spec.dram_bps == 4800e9
    assert "memory.dram.bandwidth.measured" in {i.field for i in spec.inputs}
    # A decode GEMM, 16 x 28672 x 8192 fp16, B K-major at BK 32: B's runs are 64 B (0.5 a sector), A's too; A's
    # bytes weigh 16 / (16 + 28672). 470 MB of B and 0.9 MB of C at 0.5 and 0.25 requests a sector.
    m, n, k = 16, 28672, 8192
    read, c = (m + n) * k * 2.0, m * n * 2.0
    s = dram_request_seconds(r.dram_requests_per_s, 2, m, n, 64, 128, 32, False, False, read, c)
    assert s == pytest.approx((read * 0.5 + c * 0.25) / SECTOR_BYTES / r.dram_requests_per_s)
    # its bytes would take read / 4,308.8 GB/s: the requests take 0.5 / 0.330 = 1.52 x that
    assert s / ((read + c) / r.dram_bps) == pytest.approx(0.5 / 0.330, rel=0.01)
    # BK 64 (128-byte runs, 0.25 a sector): under the limit, the bytes bind
    assert (
        dram_request_seconds(r.dram_requests_per_s, 2, m, n, 64, 128, 64, False, False, read, c)
        < (read + c) / r.dram_bps
    )
    # B N-major at BN 32 (64-byte runs) asks what K-major BK 32 asks (A's runs, 128 B at BK 64, weigh 16 / 28,688)
    n_major = dram_request_seconds(r.dram_requests_per_s, 2, m, n, 64, 32, 64, False, True, read, c)
    assert n_major == pytest.approx(s, rel=1e-3) and n_major < s
    # no figure (the H100's file, for now): no bound
    assert machine_rates(load_machine("h100"), "fp16").dram_requests_per_s is None
    assert dram_request_seconds(None, 2, m, n, 64, 128, 32, False, False, read, c) == 0.0


def test_dram_charges_no_requests_for_rows_off_a_line():
    # K = 8200 (B's rows 16,400 B apart, not on a line) at BK 64: its 128-byte runs touch two lines where the L2's rule
    # counts them (run_lines), but what that costs DRAM is not measured, so predict's DRAM term is its bytes' (and the
    # write-back's) as at K = 8192: the two terms scale with the bytes, and neither names the requests.
    from roofmodel.model.prediction import predict
    from roofmodel.model.problem import Gemm, Tile

    h200 = load_machine("h200")
    terms = {}
    for k in (8192, 8200):
        p = predict(h200, Gemm(m=16, n=28672, k=k, dtype="fp16"), Tile(bm=64, bn=128, bk=64), warps=4, stages=4,
                    b_major="k")  # fmt: skip
        terms[k] = next(t for t in p.terms if t.name == "DRAM")
        assert "memory.dram.requests_per_sector" not in terms[k].detail
    wb = h200.kernel_costs.flush_writeback.value * 1e-9  # both kernels bring in hundreds of MB: all of it
    assert (terms[8200].seconds - wb) / (terms[8192].seconds - wb) == pytest.approx(8200 / 8192, rel=2e-3)


def test_the_h200_figure_is_what_its_run_derives():
    import importlib.util

    spec = importlib.util.spec_from_file_location("derive", REPO / "benchmarks" / "derive_dram_requests.py")
    derive = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(derive)
    with (DRAM_RUNS / "runs.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    h200 = load_machine("h200")
    limit, est = derive.requests_per_sector(rows, h200)
    assert round(limit, 3) == h200.memory.dram.requests_per_sector.value and len(est) == 29
    # the rates are the times less the flush's write-back, the machine file's figure being its run's
    wb = derive.writeback_s(h200)
    assert (
        round(derive.flush_writeback_us(h200.memory.l2.capacity.bytes) * 1e3) == h200.kernel_costs.flush_writeback.value
    )
    assert wb > 0
    # the seven left out are those the model's bytes in flight already bound (measured at or above that rate)
    left_out = [
        r
        for r in derive.usable(rows)
        if int(r["run_bytes"]) < 128 and derive.gb_per_s(r, wb) >= derive.in_flight_gbs(r, h200)
    ]
    assert len(left_out) == 7
    # the bound says the medians of both sub-line run lengths within 6%, and leaves whole lines to the bytes
    bandwidth = h200.memory.dram.bandwidth.measured.value
    for run in (32, 64):
        measured = statistics.median(derive.gb_per_s(r, wb) for r in derive.usable(rows) if int(r["run_bytes"]) == run)
        assert limit * bandwidth * run / 32 == pytest.approx(measured, rel=0.06)
    assert limit < 0.25 * 1.5 and limit > 0.25  # lines (0.25 a sector) are never bound


def test_predict_charges_dram_requests_of_short_runs():
    # The decode GEMM above on the H200, 64x128 tiles on 4 warps, 4 stages: BK 32 with B K-major asks 64-byte runs
    # and its DRAM term is the requests' time; BK 64 (128-byte runs) is the bytes'. predict's note says which.
    from roofmodel.model.prediction import predict
    from roofmodel.model.problem import Gemm, Tile

    h200 = load_machine("h200")
    g = Gemm(m=16, n=28672, k=8192, dtype="fp16")
    dram, notes = {}, {}
    for bk in (32, 64):
        p = predict(h200, g, Tile(bm=64, bn=128, bk=bk), warps=4, stages=4, b_major="k")
        term = next(t for t in p.terms if t.name == "DRAM")
        dram[bk], notes[bk] = term.seconds, term.detail
    # both carry the flush's write-back (kernel_costs.flush_writeback) beside their bytes or requests
    wb = h200.kernel_costs.flush_writeback.value * 1e-9
    assert (dram[32] - wb) / (dram[64] - wb) == pytest.approx(0.5 / 0.330, rel=0.02)
    assert "memory.dram.requests_per_sector" in notes[32] and "requests_per_sector" not in notes[64]
    p = predict(h200, g, Tile(bm=64, bn=128, bk=32), warps=4, stages=4, b_major="k")
    assert "memory.dram.requests_per_sector" in {i.field for i in p.inputs}


def test_dram_requests_are_refused_beside_a_last_level_cache(tmp_path):
    # The MI300X's DRAM serves its Infinity Cache's lines, not the L2's runs: the figure is refused there (given with
    # a measured rate, which the file otherwise lacks).
    from roofmodel.errors import RoofmodelError

    text = (REPO / "machines" / "mi300x.yaml").read_text()
    anchor = "  dram:\n    capacity:"
    assert text.count(anchor) == 1
    block = (
        "  dram:\n    requests_per_sector: {value: 0.3, unit: requests/sector, kind: measured, source: x}\n"
        "    bandwidth:\n      measured: {value: 4.0, unit: TB/s, kind: measured, source: x}\n"
        "      spec: {value: 5.3, unit: TB/s, kind: spec, source: x}\n    capacity:"
    )
    body = text.replace(anchor, block)
    start = body.index("    capacity: {value: 192, unit: GiB")
    end = body.index("  llc:")
    body = body[:start] + body[start:end].split("    bandwidth:")[0] + body[end:]
    f = tmp_path / "mi300x-requests.yaml"
    f.write_text(body)
    with pytest.raises(RoofmodelError, match="not read where an llc serves"):
        load_machine(str(f))
    f.write_text(
        body.replace("    requests_per_sector: {value: 0.3, unit: requests/sector, kind: measured, source: x}\n", "")
    )
    assert load_machine(str(f)).memory.dram.bandwidth.measured.value == 4.0


def test_the_flush_write_back_is_dram_time_beside_the_bytes():
    # The H200's file charges a kernel's DRAM term the write-back of the dirty lines its timer's L2 flush leaves, by
    # the share its own lines evict: 8.544 us x (1 - exp(-bytes / 60 MiB)) (benchmarks/gpu_flush_check.py); the
    # H100's has no such figure yet.
    from roofmodel.model.prediction import flush_writeback_seconds, predict
    from roofmodel.model.problem import Gemm, Tile

    h200 = load_machine("h200")
    assert h200.kernel_costs.flush_writeback.value == 8544 and load_machine("h100").kernel_costs.flush_writeback is None
    l2 = 60 * 2**20
    assert flush_writeback_seconds(8.544e-6, 470e6, l2) == pytest.approx(8.544e-6, rel=1e-3)  # a decode's B: all
    assert flush_writeback_seconds(8.544e-6, 59e6, l2) == pytest.approx(8.544e-6 * (1 - math.exp(-59e6 / l2)))
    assert flush_writeback_seconds(8.544e-6, 1.5e6, l2) < 0.25e-6  # 512^3 fp16 brings in 1.5 MB: next to nothing
    assert flush_writeback_seconds(0.0, 470e6, l2) == 0.0
    bare = h200.model_copy(update={"kernel_costs": h200.kernel_costs.model_copy(update={"flush_writeback": None})})

    def dram_and_total(machine, g, tile, **kw):
        p = predict(machine, g, tile, **kw)
        return next(t for t in p.terms if t.name == "DRAM"), p

    # 4096^3 fp16 (its 178 MiB of DRAM reads and C evict nearly all): its DRAM term carries 8.5 us, its total none
    g, tile = Gemm(m=4096, n=4096, k=4096, dtype="fp16"), Tile(bm=128, bn=256, bk=64)
    (term, p), (term0, q) = (
        dram_and_total(h200, g, tile, warps=8, stages=3),
        dram_and_total(bare, g, tile, warps=8, stages=3),
    )
    assert "kernel_costs.flush_writeback" in term.detail and "kernel_costs.flush_writeback" in {
        i.field for i in p.inputs
    }
    # The SM binds: it hides all but what the 8-norm of the SM and memory times takes of it (0.6 of the 8.3 us).
    assert 8.0e-6 < term.seconds - term0.seconds < 8.544e-6 and 0 < p.seconds - q.seconds < 1e-6
    # 512^3: a small kernel pays a fraction of a microsecond, not the full 8.5
    g = Gemm(m=512, n=512, k=512, dtype="fp16")
    small = predict(h200, g, Tile(bm=64, bn=64, bk=64), warps=4, stages=3).seconds
    assert small - predict(bare, g, Tile(bm=64, bn=64, bk=64), warps=4, stages=3).seconds < 0.3e-6
    # an mma.sync kernel (SM and memory in a p = 4 norm) whose DRAM term is well under its SM time moves little
    g = Gemm(m=2048, n=2048, k=2048, dtype="fp16")
    kw = dict(warps=4, stages=3, instruction="mma.sync")
    t1, t0 = (
        predict(h200, g, Tile(bm=64, bn=64, bk=32), **kw).seconds,
        predict(bare, g, Tile(bm=64, bn=64, bk=32), **kw).seconds,
    )
    assert 0 <= t1 - t0 < 0.01 * t0


def test_the_write_back_ramp_against_the_flush_runs():
    # Measured, not the code's output: each kernel of gpu_flush_check's two runs of 14 MB or more (the zeroing flush's
    # time less the clean one's) against 8.544 us x (1 - exp(-bytes / 60 MiB)); below 14 MB all are under 2.5 us.
    from roofmodel.model.prediction import flush_writeback_seconds

    h200 = load_machine("h200")
    l2, full = h200.memory.l2.capacity.bytes, h200.kernel_costs.flush_writeback.value * 1e-9
    diffs = []
    for name in ("flush.csv", "flush_sizes.csv"):
        with (REPO / "docs/measurements/h200-2026-11-29/flush_check" / name).open(newline="") as f:
            rows = list(csv.DictReader(f))
        ms: dict = {}
        for r in rows:
            ms.setdefault((r["kernel"], int(r["bytes"])), {})[r["flush"]] = float(r["ms"]) * 1e-3
        for (kernel, b), v in ms.items():
            measured = v["zero"] - v["read"]
            if kernel == "empty":
                assert abs(measured) < 0.2e-6
            elif b < 14e6:
                # the second run's first configuration (K-major, 1.8 MB) read 11.8 us: its warm-up, not a write-back
                assert measured < 2.5e-6 or (kernel, b) == ("k-major 64 B runs", 1835008)
            else:
                diffs.append(measured - flush_writeback_seconds(full, b, l2))
    assert len(diffs) == 27
    # within 2 us (the worst 1.8, K-major at 29 MB) for all but the second run's two noisy 1.9 GB pairs (17 and 25 us,
    # the first run's 8.6 and 7.7), the median within 0.3 us
    assert sum(abs(d) > 2e-6 for d in diffs) == 2 and abs(statistics.median(diffs)) < 0.3e-6
