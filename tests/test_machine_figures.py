"""The built-in machine files, read a second time against their primary sources (issue 12).

Each test names the document its figure comes from and quotes the figure. The peak-rate test
multiplies a file's per-SM rate out (SMs x FMA/clk/SM x 2 FLOP x clock) and compares the product
with the TFLOPS the datasheet or whitepaper prints, so a wrong per-SM rate, SM count or clock
shows up as a wrong chip-wide peak.
"""

from __future__ import annotations

import pytest

from roofmodel import MachineFileError, load_machine

# ---------------------------------------------------------------------------------------------
# T4: shared memory bandwidth and clocks


def test_t4_shared_memory_is_64_bytes_per_clock_per_sm():
    # Jia et al. 2019, "Dissecting the NVidia Turing T4 GPU via Microbenchmarking" (arXiv:1903.07486):
    # theoretical shared memory bandwidth 4,070 GB/s = 40 SMs x 64 B/clk x 1.59 GHz.
    t4 = load_machine("t4")
    spec = t4.memory.smem.bandwidth.pick("spec")
    assert (spec.kind, spec.value, spec.unit) == ("spec", 64, "B/cycle/SM")
    gb_per_s = spec.value * t4.sm_count.n * t4.clocks.boost.hz / 1e9
    assert gb_per_s == pytest.approx(4070, abs=1)


def test_t4_measured_shared_memory_is_90_percent_of_the_64_byte_peak():
    # Jia et al. 2019 measured 3,662 GB/s (quoted by seed 004): 90% of 4,070 GB/s. Against the
    # 128 B/clk/SM this file used to carry it would be 45%, no plausible microbenchmark result.
    t4 = load_machine("t4")
    measured = t4.memory.smem.bandwidth.pick("measured")
    assert (measured.kind, measured.value, measured.unit) == ("measured", 3662, "GB/s")
    peak_gb_per_s = t4.memory.smem.bandwidth.pick("spec").value * t4.sm_count.n * t4.clocks.boost.hz / 1e9
    assert measured.value / peak_gb_per_s == pytest.approx(0.90, abs=0.005)


def test_t4_base_and_boost_clocks():
    # NVIDIA Tesla T4 product brief: GPU base clock 585 MHz, boost clock 1590 MHz. No published
    # measurement gives the clock the 70 W board sustains under tensor load, so there is no
    # clocks.sustained in the built-in file (`roofmodel calibrate` measures one).
    clocks = load_machine("t4").clocks
    assert (clocks.base.kind, clocks.base.value, clocks.base.unit) == ("spec", 585, "MHz")
    assert (clocks.boost.value, clocks.boost.unit) == (1590, "MHz")
    assert clocks.sustained is None


def test_t4_fp64_is_two_dfma_per_clock_per_sm():
    # CUDA C++ Programming Guide, throughput of native arithmetic instructions: 64-bit
    # floating-point multiply-add, 2 results per clock per SM on compute capability 7.5
    # (Turing whitepaper: two FP64 units per SM). Turing has no FP64 tensor cores.
    fp64 = load_machine("t4").pipe("fp64")
    assert fp64.engine == "cuda_core"
    assert (fp64.rate.pick("spec").value, fp64.rate.pick("spec").unit) == (2, "FMA/cycle/SM")


# ---------------------------------------------------------------------------------------------
# Aliases: product (SKU) names only


@pytest.mark.parametrize("die", ["ga100", "gh100", "tu104", "gv100"])
def test_die_names_are_not_aliases(die):
    # A die (GA100, GH100, TU104, GV100) ships in several products with different SM counts, clocks and
    # memory (TU104 is also the RTX 2080's die); only a product name picks one machine file.
    with pytest.raises(MachineFileError, match=f"unknown machine '{die}'"):
        load_machine(die)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("a100-sxm4", "NVIDIA A100 SXM4 80GB"),
        ("a100-80gb", "NVIDIA A100 SXM4 80GB"),
        ("tesla-t4", "NVIDIA T4"),
        ("v100-sxm2", "NVIDIA V100 SXM2 32GB"),
    ],
)
def test_product_aliases_still_resolve(alias, name):
    assert load_machine(alias).name == name


# ---------------------------------------------------------------------------------------------
# Chip-wide peaks: SMs x FMA/clk/SM x 2 x clock against the printed figure

PEAKS = [
    # NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 1 (A100 SXM4, dense)
    ("a100", "fp32", "19.5"),
    ("a100", "fp64", "9.7"),
    ("a100", "tf32", "156"),
    ("a100", "fp16", "312"),
    ("a100", "bf16", "312"),
    ("a100", "int8", "624"),
    # NVIDIA Tesla V100 GPU Architecture whitepaper, Table 1 (Tesla V100 for NVLink, i.e. SXM2)
    ("v100", "fp32", "15.7"),
    ("v100", "fp64", "7.8"),
    ("v100", "fp16", "125"),
    # NVIDIA T4 datasheet: 8.1 TFLOPS FP32, 65 TFLOPS mixed precision, 130 TOPS INT8
    ("t4", "fp32", "8.1"),
    ("t4", "fp16", "65"),
    ("t4", "int8", "130"),
    # NVIDIA H100 Tensor Core GPU Architecture whitepaper, Table 3 (H100 SXM5, dense)
    ("h100", "fp32", "66.9"),
    ("h100", "fp64", "33.5"),
    ("h100", "tf32", "494.7"),
    ("h100", "fp16", "989.4"),
    ("h100", "bf16", "989.4"),
    ("h100", "fp8", "1978.9"),
    ("h100", "int8", "1978.9"),
]


@pytest.mark.parametrize(("machine", "dtype", "printed"), PEAKS)
def test_per_sm_rate_times_sms_and_clock_gives_the_printed_peak(machine, dtype, printed):
    """TFLOPS = SMs x FMA/clk/SM x 2 x clock, the clock being the pipe's rated clock (H100 tensor
    peaks are quoted at 1.83 GHz) or else the boost clock. Within 0.5%, or within the document's
    own rounding where that is coarser: the T4's "8.1 TFLOPS" is 40 x 64 x 2 x 1.59 GHz = 8.141."""
    m = load_machine(machine)
    pipe = m.pipe(dtype)
    rate = pipe.rate.pick("spec")
    assert (rate.kind, rate.unit) == ("spec", "FMA/cycle/SM")
    clock_hz = (pipe.rated_clock or m.clocks.boost).hz
    tflops = m.sm_count.n * rate.value * 2 * clock_hz / 1e12

    decimals = len(printed.partition(".")[2])
    tolerance = max(0.005 * float(printed), 0.5 * 10**-decimals)
    assert tflops == pytest.approx(float(printed), abs=tolerance)


# --- The built-in H100's measured figures (issue 12): the project's own measurements, each cited. ---


def test_h100_measured_memory_figures_are_the_calibration_not_seed_001():
    """docs/measurements/h100-2026-11-22/h100-measured.yaml (roofmodel calibrate) and l2_sharing.json;
    seed 001's 1992 GB/s, 3.6 TB/s and '~19 TB/s' stay in tests/seeds/seed_001_h100.yaml."""
    h = load_machine("h100")
    assert h.memory.dram.bandwidth.measured.value == 3067 and "calibrate" in h.memory.dram.bandwidth.measured.source
    assert h.memory.l2.bandwidth.measured.value == 7010
    assert h.memory.l2.shared_read_bandwidth.measured.value == 14922
    assert h.memory.smem.bandwidth.measured is None  # the seed's 19 TB/s is the A100's aggregate
    assert h.memory.smem.bandwidth.spec.value == 128 and h.memory.smem.bandwidth.spec.unit == "B/cycle/SM"


def test_h100_l2_gemm_bandwidth_from_the_layout_checks():
    """memory.l2.gemm_bandwidth: requested bytes over time of the eight fp16 kernels of the small-tile
    layout checks (4096^3, 64x32 and 32x64 tiles: 8,192 tiles x 96 x 4,096 x 2 B, and C's 33.5 MB), the
    median, recomputed from the committed measurements; the H200's scales it by the two GPUs' calibrate runs."""
    import json
    import statistics

    from tests.conftest import REPO

    root = REPO / "docs" / "measurements" / "h100-2026-11-25"
    times = [k["time_ms"] * 1e-3 for f in ("layout_wgmma_64x32", "layout_mma_sync/32x64")
             for k in json.loads((root / f / "layout_check.json").read_text())["kernels"] if k["dtype"] == "fp16"]  # fmt: skip
    assert len(times) == 8
    requested = 8192 * (64 + 32) * 4096 * 2 + 4096 * 4096 * 2
    figure = load_machine("h100").memory.l2.gemm_bandwidth.measured
    assert requested / statistics.median(times) / 1e9 == pytest.approx(figure.value, abs=5)

    # The H200's: the H100's x the two GPUs' ratio on the calibrate path's runs of the same eight kernels (their
    # sixteen times each, median), docs/measurements/h200-2026-11-27/l2_gemm.
    def calibrate_times(path):
        runs = json.loads(path.read_text())["runs"]
        return [float(t) for r in runs for t in r["how"].split("ms: ")[1].rstrip(")").split(",")]

    h100_runs = calibrate_times(root / "l2_gemm.json")
    h200_runs = calibrate_times(REPO / "docs" / "measurements" / "h200-2026-11-27" / "l2_gemm" / "l2_gemm.json")
    assert len(h100_runs) == len(h200_runs) == 16
    ratio = statistics.median(h100_runs) / statistics.median(h200_runs)
    h200 = load_machine("h200").memory.l2.gemm_bandwidth.measured
    assert h200.value == pytest.approx(figure.value * ratio, abs=1) and "NVIDIA H200, 2026-11-27" in h200.source


def test_h100_latencies_are_stored_in_the_ns_they_were_measured_in():
    """Seed 001's pointer chase quotes ns (14.4 / 131.3 / 288.1); cycles follow at the clock in use."""
    h = load_machine("h100")
    got = [(q.value, q.unit) for q in (h.memory.smem.latency, h.memory.l2.latency, h.memory.dram.latency)]
    assert got == [(14.4, "ns"), (131.3, "ns"), (288.1, "ns")]


def test_h100_mma_sync_has_its_own_measured_rate():
    """Measured on the device (docs/measurements/h100-2026-11-23/broad.csv): Triton kernels compiled to
    mma.sync reach 426 TFLOPS fp16, wgmma 751; NVIDIA publishes no mma.sync rate for Hopper."""
    h = load_machine("h100")
    for dtype, value in (("fp16", 426), ("bf16", 426), ("tf32", 189), ("fp8", 425)):
        pipe = h.pipe(dtype)
        rate, _, field = pipe.rate_of(pipe.instruction("mma.sync"))
        assert rate.spec is None and rate.measured.value == value and field.startswith("instructions.")
        wgmma, _, _ = pipe.rate_of(pipe.instruction("wgmma"))
        assert wgmma.measured.value > 1.5 * value


@pytest.mark.parametrize(("name", "tflops"), [("a100", 19.5), ("h100", 66.9)])
def test_fp64_tensor_pipes(name, tflops):
    """A100 whitepaper Table 1 (19.5 TFLOPS FP64 Tensor Core); H100 whitepaper Table 3 (66.9)."""
    from roofmodel import Gemm, analyze

    r = analyze(load_machine(name), Gemm(m=4096, n=4096, k=4096, dtype="fp64"))
    assert r.pipe.engine == "tensor_core" and r.pipe.instruction == "mma.sync"
    assert r.peak_tflops == pytest.approx(tflops, rel=0.005)
    dfma = analyze(load_machine(name), Gemm(m=4096, n=4096, k=4096, dtype="fp64"), instruction="fma")
    assert dfma.peak_tflops == pytest.approx(tflops / 2, rel=0.005)


def test_the_main_job_bounds_an_h100_fp16_gemm_where_cublas_runs_it():
    """Issue 12: analyze --machine h100 --m 8192 --dtype fp16 said memory-bound at 304 TFLOPS; cuBLAS
    runs it at 767 (docs/measurements/h100-2026-11-23/micro.json). The bound must be at or above."""
    from roofmodel import Gemm, analyze

    r = analyze(load_machine("h100"), Gemm(m=8192, n=8192, k=8192, dtype="fp16"))
    assert r.hierarchical_bound_tflops >= 767
    assert r.verdict.startswith("compute-bound")
