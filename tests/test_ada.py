"""The built-in Ada (sm_89) machines, L40S and GeForce RTX 4090 (issue 15, step 3): their datasheet
and whitepaper figures typed in by hand with the document named, the accumulator-dependent tensor
rate of the GeForce part (and its absence on the L40S), the commands on both, and what the model
does without an L2 bandwidth (NVIDIA publishes none for Ada). Spec-only files: no such GPU is lent,
so nothing here is measured (notes: /work/notes/research-ada.md)."""

from __future__ import annotations

import json

import pytest

import roofmodel
from roofmodel import Gemm, ProblemError, Tile, load_machine

ADA = ("l40s", "rtx4090")


@pytest.fixture(scope="module")
def l40s():
    return load_machine("l40s")


@pytest.fixture(scope="module")
def rtx4090():
    return load_machine("rtx4090")


def _peak(machine, dtype: str, accumulator: str | None = None) -> float:
    """The pipe's peak in TFLOPS (TOPS for int8) as the library computes it, at the rated clock."""
    return roofmodel.analyze(machine, Gemm(8192, dtype=dtype, accumulator=accumulator)).pipe.peak_tflops


def _json(cli, *args: str) -> dict:
    r = cli(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ---------------------------------------------------------------------------------------------
# 1. Headline figures, typed in by hand


def test_identity_and_aliases(l40s, rtx4090):
    assert (l40s.name, l40s.architecture, l40s.compute_capability) == ("NVIDIA L40S", "Ada Lovelace", "8.9")
    assert (rtx4090.name, rtx4090.architecture, rtx4090.compute_capability) == (
        "NVIDIA GeForce RTX 4090",
        "Ada Lovelace",
        "8.9",
    )
    assert load_machine("nvidia-l40s").name == l40s.name
    assert load_machine("4090").name == load_machine("GeForce-RTX-4090").name == rtx4090.name
    # cc 8.9 has no thread block clusters (CUDA C++ Programming Guide §20.2 Table 26); no fitted costs
    assert l40s.cluster is None and rtx4090.cluster is None
    assert l40s.kernel_costs is None and rtx4090.kernel_costs is None


def test_sm_count_and_boost_clock(l40s, rtx4090):
    # L40S: deviceQuery "(142) Multiprocessors"; datasheet 18,176 CUDA cores / 128 per SM
    assert l40s.sm_count.n == 142 == 18176 // 128
    # RTX 4090: Ada whitepaper App. A Table 2 "SMs 128", "GPU Boost Clock (MHz) 2520"
    assert rtx4090.sm_count.n == 128
    assert l40s.clocks.boost.hz == rtx4090.clocks.boost.hz == 2520e6
    # NVIDIA GeForce RTX 4090 spec page "Base Clock 2.23 GHz"; the L40S datasheet prints no clock
    assert rtx4090.clocks.base.hz == pytest.approx(2230e6)
    assert l40s.clocks.base is None and "clocks.base" in l40s.unpublished


@pytest.mark.parametrize(
    ("dtype", "tflops"),
    # Ada whitepaper App. A Table 2 (v2.02), dense, FP32 accumulate where it names one: FP32 82.6,
    # TF32 82.6, FP16 165.2, BF16 165.2, FP8 330.3 (the v2.02 correction), INT8 660.6 TOPS; FP64 from
    # the CUDA C++ Programming Guide §20.7.1 (2 FP64 cores per SM): 128 x 2 x 2 x 2.52 GHz
    [("fp32", 82.6), ("tf32", 82.6), ("fp16", 165.2), ("bf16", 165.2), ("fp8", 330.3), ("int8", 660.6),
     ("fp64", 1.29)],
)  # fmt: skip
def test_rtx4090_peaks_against_the_whitepaper(rtx4090, dtype, tflops):
    assert _peak(rtx4090, dtype) == pytest.approx(tflops, rel=0.002)


@pytest.mark.parametrize(
    ("dtype", "tflops"),
    # NVIDIA L40S datasheet, dense: FP32 91.6, TF32 183, FP16/BF16 733 sparse / 2 (the printed dense
    # 362.05 is inconsistent with it), FP8 733, INT8 733 TOPS; FP64 from the Programming Guide §20.7.1
    [("fp32", 91.6), ("tf32", 183), ("fp16", 733 / 2), ("bf16", 733 / 2), ("fp8", 733), ("int8", 733),
     ("fp64", 1.43)],
)  # fmt: skip
def test_l40s_peaks_against_the_datasheet(l40s, dtype, tflops):
    assert _peak(l40s, dtype) == pytest.approx(tflops, rel=0.003)


@pytest.mark.parametrize(
    ("machine", "per_sm"),
    # FMA/clock/SM at 2.52 GHz (research notes' per-SM summary; peak / (SMs x 2 x clock))
    [("rtx4090", {"fp32": 128, "fp64": 2, "tf32": 128, "fp16": 256, "bf16": 256, "fp8": 512, "int8": 1024}),
     ("l40s", {"fp32": 128, "fp64": 2, "tf32": 256, "fp16": 512, "bf16": 512, "fp8": 1024, "int8": 1024})],
)  # fmt: skip
def test_the_peaks_are_whole_rates_per_sm_at_the_boost_clock(machine, per_sm):
    for dtype, fma in per_sm.items():
        pipe = roofmodel.analyze(machine, Gemm(8192, dtype=dtype)).pipe
        assert pipe.clock_mhz == 2520, dtype
        assert pipe.fma_per_cycle_per_sm == pytest.approx(fma, rel=0.002), dtype


def test_memory_against_the_documents(l40s, rtx4090):
    # Ada whitepaper App. A: "Memory Bandwidth 1008 GB/sec", 24 GB GDDR6X, "L2 Cache Size 73728 KB"
    assert rtx4090.memory.dram.bandwidth.spec.value == 1008 and rtx4090.memory.dram.bandwidth.measured is None
    assert rtx4090.memory.dram.capacity.bytes == 24 * 2**30
    assert rtx4090.memory.l2.capacity.bytes == 73728 * 1024 == 75497472  # deviceQuery's bytes
    # L40S datasheet: "Memory Bandwidth 864GB/s", "48GB GDDR6 with ECC"; deviceQuery L2 100663296 bytes
    assert l40s.memory.dram.bandwidth.spec.value == 864 and l40s.memory.dram.bandwidth.measured is None
    assert l40s.memory.dram.capacity.bytes == 48 * 2**30
    assert l40s.memory.l2.capacity.bytes == 100663296 == 96 * 2**20
    # 384-bit x 21 / 18 Gbps (whitepaper App. A; deviceQuery)
    assert 384 / 8 * 21 == rtx4090.memory.dram.bandwidth.spec.value
    assert 384 / 8 * 18 == l40s.memory.dram.bandwidth.spec.value


@pytest.mark.parametrize("name", ADA)
def test_sm_resources_and_limits_of_cc_8_9(name):
    # CUDA C++ Programming Guide §20.2 Table 27 (cc 8.9) and §20.7; Ada Tuning Guide §1.4.1.1
    m = load_machine(name)
    smem = m.memory.smem
    assert smem.capacity_per_sm.bytes == 100 * 1024 == 102400  # deviceQuery on an L40S: 102400 bytes
    assert smem.max_per_block.bytes == 99 * 1024
    assert smem.l1_smem_combined.bytes == 128 * 1024
    assert (smem.bandwidth.spec.value, smem.bandwidth.spec.unit) == (128, "B/cycle/SM")  # 32 banks x 4 B
    assert m.memory.rf.capacity_per_sm.bytes == 256 * 1024
    lim = m.limits
    assert lim.max_threads_per_sm.n == 1536
    assert lim.max_warps_per_sm.n == 48
    assert lim.max_blocks_per_sm.n == 24
    assert lim.max_threads_per_block.n == 1024
    assert lim.registers_per_sm.n == 65536
    assert lim.max_registers_per_thread.n == 255


@pytest.mark.parametrize("name", ADA)
def test_tensor_pipes_use_mma_sync_only(name):
    # PTX ISA / ptxas for sm_89: mma.sync m16n8k8 tf32, m16n8k16 fp16/bf16, m16n8k32 fp8/int8; no wgmma
    m = load_machine(name)
    shapes = {"tf32": "m16n8k8", "fp16": "m16n8k16", "bf16": "m16n8k16", "fp8": "m16n8k32", "int8": "m16n8k32"}
    for dtype, shape in shapes.items():
        pipe = m.pipe(dtype)
        assert pipe.engine == "tensor_core"
        assert [(i.family, i.shape, i.operands_from) for i in pipe.instructions] == [("mma.sync", shape, "rf")]
        assert pipe.rated_clock.hz == 2520e6
    assert [i.shape for i in m.pipe("fp32").instructions] == ["FFMA"]
    assert [i.shape for i in m.pipe("fp64").instructions] == ["DFMA"]
    assert m.pipe("fp64").engine == m.pipe("fp32").engine == "cuda_core"


def test_spec_only_and_sourced(cli):
    by = {row["name"]: row for row in _json(cli, "machines")["machines"]}
    for name in ADA:
        assert by[name]["measured_figures"] == 0 and by[name]["calibrated"] is None, name
        assert by[name]["architecture"] == "Ada Lovelace" and by[name]["compute_capability"] == "8.9"
    text = cli("machines").stdout
    for line in (x for x in text.splitlines() if x.startswith(ADA)):
        assert "spec only" in line
    for name in ADA:
        doc = _json(cli, "show-machine", name)["machine"]
        assert "bandwidth" not in doc["memory"]["l2"]  # NVIDIA publishes none: omitted, not guessed
        assert "memory.l2.bandwidth" in doc["unpublished"]


# ---------------------------------------------------------------------------------------------
# 2. The accumulator


def test_rtx4090_fp16_accumulator_doubles_fp16_and_fp8(rtx4090):
    # Ada whitepaper App. A: FP16 330.3 with FP16 accumulate vs 165.2 with FP32; FP8 660.6 vs 330.3
    for dtype, fp32_acc, fp16_acc in (("fp16", 165.2, 330.3), ("fp8", 330.3, 660.6)):
        default = _peak(rtx4090, dtype)
        assert default == pytest.approx(fp32_acc, rel=1e-3) == _peak(rtx4090, dtype, "fp32")
        assert _peak(rtx4090, dtype, "fp16") == pytest.approx(fp16_acc, rel=1e-3)
        assert _peak(rtx4090, dtype, "fp16") == pytest.approx(2 * default, rel=1e-3)
    # the rate names the field it came from
    pipe = roofmodel.analyze(rtx4090, Gemm(8192, dtype="fp8", accumulator="fp16")).pipe
    assert pipe.rate_input.field == "compute.fp8.rate_by_accumulator.fp16.spec"
    assert "8.7" in rtx4090.pipe("fp8").rate_by_accumulator["fp16"].spec.note  # needs PTX 8.7 / CUDA 12.8


def test_l40s_accumulator_does_not_change_the_peak(l40s):
    # L40S datasheet: one rate per type; full rate with an fp32 accumulator is inferred
    for dtype in ("fp16", "fp8"):
        assert l40s.pipe(dtype).rate_by_accumulator is None
        assert _peak(l40s, dtype, "fp16") == _peak(l40s, dtype) == _peak(l40s, dtype, "fp32")
    assert "compute.fp16.rate_by_accumulator" in l40s.unpublished
    assert "inferred" in l40s.pipe("fp16").rate.spec.note


def test_library_predict_is_faster_with_an_fp16_accumulator_on_rtx4090_only():
    tile = Tile.parse("128x128x32")
    for dtype in ("fp16", "fp8"):
        fp32 = roofmodel.predict("rtx4090", Gemm(4096, dtype=dtype), tile)
        fp16 = roofmodel.predict("rtx4090", Gemm(4096, dtype=dtype, accumulator="fp16"), tile)
        assert fp16.seconds < fp32.seconds and fp16.tflops > fp32.tflops, dtype
    # the L40S: the same rate either way, so a compute-bound kernel takes the same time
    fp32 = roofmodel.predict("l40s", Gemm(4096, dtype="fp16"), tile)
    fp16 = roofmodel.predict("l40s", Gemm(4096, dtype="fp16", accumulator="fp16"), tile)
    assert fp16.limiter == fp32.limiter == "compute"
    assert fp16.seconds == pytest.approx(fp32.seconds, rel=1e-9)
    assert (fp16.inputs[0].field, fp16.inputs[0].value) == ("compute.fp16.rate.spec", 733 / 2)


@pytest.mark.parametrize("dtype", ["fp16", "fp8"])
def test_cli_acc_fp16_doubles_the_rtx4090_peak(cli, dtype):
    base = ("analyze", "--machine", "rtx4090", "--m", "4096", "--dtype", dtype)
    default = _json(cli, *base)
    fp16 = _json(cli, *base, "--acc", "fp16")
    assert default["gemm"]["accumulator"] == "fp32" and fp16["gemm"]["accumulator"] == "fp16"
    assert fp16["pipe"]["peak_tflops"] == pytest.approx(2 * default["pipe"]["peak_tflops"], rel=1e-3)


@pytest.mark.parametrize("dtype", ["fp16", "fp8"])
def test_cli_acc_fp16_leaves_the_l40s_peak(cli, dtype):
    base = ("analyze", "--machine", "l40s", "--m", "4096", "--dtype", dtype)
    assert _json(cli, *base)["pipe"]["peak_tflops"] == _json(cli, *base, "--acc", "fp16")["pipe"]["peak_tflops"]


def test_cli_predict_is_faster_with_acc_fp16_on_rtx4090(cli):
    base = ("predict", "--machine", "rtx4090", "--m", "4096", "--tile", "128x128x32")
    fp32 = _json(cli, *base)
    fp16 = _json(cli, *base, "--acc", "fp16")
    assert _json(cli, *base, "--acc", "fp32")["seconds"] == fp32["seconds"]
    assert fp16["seconds"] < fp32["seconds"]
    # the compute term halves with the fp16 accumulator's doubled rate; the total also carries the
    # memory terms (cta_model.overlap), so it stays a little under the peak
    compute = {d: next(t["seconds"] for t in doc["terms"] if t["name"] == "compute") for d, doc in
               (("fp32", fp32), ("fp16", fp16))}  # fmt: skip
    assert compute["fp32"] == pytest.approx(2 * compute["fp16"], rel=2e-3)
    assert 0.9 * 165.2 < fp32["tflops"] <= 165.2 and 0.85 * 330.3 < fp16["tflops"] <= 330.3
    assert any(i["field"] == "compute.fp16.rate_by_accumulator.fp16.spec" for i in fp16["inputs"])


@pytest.mark.parametrize("command", ["analyze", "predict"])
def test_bf16_with_an_fp16_accumulator_is_refused(cli, command):
    # bf16 mma accumulates in fp32 only (PTX ISA mma; ptxas for sm_89)
    extra = ("--tile", "128x128x32") if command == "predict" else ()
    r = cli(command, "--machine", "rtx4090", "--m", "4096", "--dtype", "bf16", "--acc", "fp16", *extra)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--acc" in lines[0] and "bf16" in lines[0]
    assert "Traceback" not in r.output
    with pytest.raises(ProblemError):
        Gemm(4096, dtype="bf16", accumulator="fp16")


# ---------------------------------------------------------------------------------------------
# 3. The commands on both machines


@pytest.mark.parametrize("name", ADA)
def test_analyze_predict_and_tune_run_with_mma_sync(cli, name):
    common = ("--machine", name, "--m", "4096", "--dtype", "fp16")
    r = cli("analyze", *common)
    assert r.exit_code == 0, r.output
    assert "mma.sync" in r.stdout and "wgmma" not in r.stdout and "Verdict:" in r.stdout
    r = cli("predict", *common, "--kernel", "triton", "--tile", "128x128x32", "--warps", "4")
    assert r.exit_code == 0, r.output
    assert "mma.sync" in r.stdout and "predicted" in r.stdout
    r = cli("tune", *common, "--space", "triton")
    assert r.exit_code == 0, r.output
    rows = [x for x in r.stdout.splitlines() if x.lstrip()[:1].isdigit()]
    assert rows and all("mma.sync" in x and "wgmma" not in x for x in rows)
    top = _json(cli, "tune", *common, "--space", "triton")["top"]
    assert top and all(row["config"]["instruction"] == "mma.sync" for row in top)


def test_show_machine_prints_the_unpublished_l2_bandwidth(cli):
    r = cli("show-machine", "l40s")
    assert r.exit_code == 0, r.output
    assert "memory.l2.capacity" in r.stdout
    line = next(x for x in r.stdout.splitlines() if x.startswith("memory.l2.bandwidth"))
    assert "unpublished" in line and "publishes no L2 bandwidth" in line


# ---------------------------------------------------------------------------------------------
# 4. No L2 bandwidth


@pytest.mark.parametrize("name", ADA)
def test_analyze_assumes_the_l2_stage_bandwidth(cli, name):
    doc = _json(cli, "analyze", "--machine", name, "--m", "4096", "--dtype", "fp16")
    stages = {s["name"]: s for s in doc["stages"]}
    assert stages["L2->smem"]["bandwidth_assumed"] is True
    assert stages["DRAM->L2"]["bandwidth_assumed"] is False
    assert stages["smem->RF"]["bandwidth_assumed"] is False
    assert "assumed" in cli("analyze", "--machine", name, "--m", "4096", "--dtype", "fp16").stdout


@pytest.mark.parametrize("name", ADA)
def test_predict_leaves_the_l2_term_unbounded(cli, name):
    doc = _json(cli, "predict", "--machine", name, "--m", "4096", "--tile", "128x128x32", "--dtype", "fp16")
    l2 = next(t for t in doc["terms"] if t["name"] == "L2")
    assert l2["seconds"] == 0 and "not bounded" in l2["detail"]
    assert not any(i["field"].startswith("memory.l2") for i in doc["inputs"])
    text = cli("predict", "--machine", name, "--m", "4096", "--tile", "128x128x32", "--dtype", "fp16").stdout
    assert "not bounded" in text
