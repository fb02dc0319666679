"""The built-in B200 (Blackwell, cc 10.0; issue 15, step 2): its datasheet, tuning-guide and PTX
figures typed in by hand with the document named, Blackwell's tensor memory and the two tcgen05
families (one CTA; cta_group::2, a pair of CTAs on two SMs) worked by hand, the refusals, and the
commands on it. A spec-only file: no B200 is lent, so nothing here is measured
(notes: /work/notes/research-b200.md)."""

from __future__ import annotations

import json

import pytest

import roofmodel
from roofmodel import Gemm, load_machine
from roofmodel.model import footprint, tiling
from roofmodel.model.footprint import FAMILIES
from roofmodel.units import rate_fma_per_cycle_per_sm

TCGEN05 = FAMILIES.index("tcgen05")
PAIR = FAMILIES.index("tcgen05.2sm")
SMS = 148
TENSOR_CLOCK_HZ = 1856e6  # derived in the file: 4,096 fp16 FMA/cycle/SM x 148 x 2 = 2.25 PFLOPS


@pytest.fixture(scope="module")
def b200():
    return load_machine("b200")


def _pipe(dtype: str, accumulator: str | None = None):
    return roofmodel.analyze("b200", Gemm(8192, dtype=dtype, accumulator=accumulator)).pipe


def _json(cli, *args: str) -> dict:
    r = cli(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _refused(cli, *args: str) -> str:
    """The one line a refused command prints (exit 2, no traceback)."""
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------
# 1. Headline figures, typed in by hand


def test_identity_and_aliases(b200):
    assert (b200.name, b200.architecture, b200.compute_capability) == ("NVIDIA B200 (HGX, 180GB)", "Blackwell", "10.0")
    assert load_machine("hgx-b200").name == load_machine("b200-sxm").name == b200.name
    assert b200.kernel_costs is None  # no B200 has been timed


@pytest.mark.parametrize(
    ("dtype", "with_sparsity"),
    # NVIDIA Blackwell datasheet (Oct 2025), "Individual Blackwell GPU Specifications", HGX B200
    # column, "with sparsity"; dense is one half (the datasheet's footnote): FP16/BF16 4.5 PFLOPS,
    # TF32 2.2, FP8/FP6 9, INT8 9 POPS
    [("fp16", 4500), ("bf16", 4500), ("tf32", 2200), ("fp8", 9000), ("int8", 9000)],
)
def test_tensor_peaks_are_half_the_datasheets_sparse_figures(dtype, with_sparsity):
    pipe = _pipe(dtype)
    assert pipe.peak_tflops == pytest.approx(with_sparsity / 2, rel=1e-6)
    assert pipe.clock_mhz == 1856 and pipe.instruction == "tcgen05"


@pytest.mark.parametrize(
    ("dtype", "fma"),
    # whole rates per SM at the derived 1.856 GHz: 2.25 PFLOPS / (148 x 2 x 1.856 GHz) = 4,095.6 ~ 4,096
    # (CUTLASS blackwell_functionality.md: kind::f16 "2x Hopper", Hopper 2,048); tf32 1.1 PFLOPS is
    # NVIDIA's rounding of 1.125: 2,002, not 2,048
    [("fp16", 4096), ("bf16", 4096), ("fp8", 8192), ("int8", 8192), ("tf32", 2002.27)],
)
def test_per_sm_tensor_rates_at_the_derived_clock(dtype, fma):
    assert _pipe(dtype).fma_per_cycle_per_sm == pytest.approx(fma, rel=1e-3)


def test_fp4_peak_is_carried_but_not_analyzed(b200):
    # Blackwell datasheet, HGX B200: FP4 Tensor Core 18 PFLOPS sparse, 9 dense (totals row: NVFP4
    # 144 | 72 PFLOPS for 8 GPUs); 9 PFLOPS / (148 x 2 x 1.856 GHz) = 16,382 ~ 16,384 FMA/cycle/SM
    pipe = b200.pipe("fp4")
    q = pipe.rate.spec
    assert (q.value, q.unit) == (9000, "TFLOPS")
    fma = rate_fma_per_cycle_per_sm(q.value, q.unit, SMS, pipe.rated_clock.hz)
    assert fma == pytest.approx(16384, rel=1e-3)
    assert [(i.family, i.shape) for i in pipe.instructions] == [("tcgen05", "m128nNk64")]


@pytest.mark.parametrize(
    ("dtype", "tflops", "fma", "mhz"),
    # Blackwell datasheet, HGX B200: FP32 75 TFLOPS; "FP64 / FP64 Tensor Core" 37 TFLOPS; CUDA C++
    # Programming Guide cc 10.0: 128 FP32 and 64 FP64 cores per SM; the clocks they imply (the file's
    # derived rated_clock): 75e12 / (148 x 128 x 2) = 1.980 GHz, 37e12 / (148 x 64 x 2) = 1.953 GHz
    [("fp32", 75, 128, 1980), ("fp64", 37, 64, 1953)],
)
def test_cuda_core_peaks_at_their_derived_clocks(dtype, tflops, fma, mhz):
    pipe = _pipe(dtype)
    assert pipe.instruction == "fma" and pipe.clock_mhz == mhz
    assert pipe.fma_per_cycle_per_sm == fma
    assert pipe.peak_tflops == pytest.approx(tflops, rel=1e-3)
    assert pipe.peak_tflops == pytest.approx(SMS * fma * 2 * mhz * 1e6 / 1e12, rel=1e-12)


def test_memory_against_the_documents(b200):
    mem = b200.memory
    # Blackwell datasheet, HGX B200: "180 GB HBM3E | 7.7 TB/s" (the file reads 180 as GiB, as the
    # H100 file reads its "80 GB")
    assert mem.dram.capacity.bytes == 180 * 2**30
    assert (mem.dram.bandwidth.spec.value, mem.dram.bandwidth.spec.unit) == (7.7, "TB/s")
    assert mem.dram.bandwidth.measured is None
    # Blackwell Tuning Guide 1.4.2.2: "The NVIDIA GB200 GPU increases the L2 cache capacity to 126 MB"
    assert mem.l2.capacity.bytes == 126 * 2**20
    assert mem.l2.bandwidth is None  # unpublished: omitted, not guessed
    # Tuning Guide 1.4.1.1 / Programming Guide cc 10.0: 228 KB shared memory per SM, 227 KB a block,
    # 256 KB unified L1/shared, 32 banks x 4 B a cycle
    assert mem.smem.capacity_per_sm.bytes == 228 * 1024 == 233472
    assert mem.smem.max_per_block.bytes == 227 * 1024 == 232448
    assert mem.smem.l1_smem_combined.bytes == 256 * 1024
    assert (mem.smem.bandwidth.spec.value, mem.smem.bandwidth.spec.unit) == (128, "B/cycle/SM")
    assert mem.rf.capacity_per_sm.bytes == 65536 * 4


def test_tensor_memory_is_128_lanes_by_512_columns(b200):
    # PTX ISA, tcgen05, Tensor Memory: "512 columns and 128 rows per CTA, with each cell being 32-bits"
    tmem = b200.memory.tmem
    assert tmem.lanes.n == 128
    assert tmem.columns == 512
    assert tmem.capacity_per_sm.bytes == 128 * 512 * 4 == 256 * 1024


def test_limits_and_clusters_against_the_tuning_guide(b200):
    lim = b200.limits
    # Blackwell Tuning Guide 1.4.1.1: 64 warps and 32 blocks per SM for cc 10.0; Programming Guide
    # technical specifications: 2,048 threads per SM, 1,024 per block, 64 K registers, 255 a thread
    assert lim.max_warps_per_sm.n == 64 and lim.max_blocks_per_sm.n == 32
    assert lim.max_threads_per_sm.n == 2048 and lim.max_threads_per_block.n == 1024
    assert lim.registers_per_sm.n == 65536 and lim.max_registers_per_thread.n == 255
    # Tuning Guide 1.4.1.2: portable cluster size 8; "B200 GPU allows for a nonportable cluster size of 16"
    assert b200.cluster.max_size.n == 8 and b200.cluster.max_size_nonportable.n == 16
    assert b200.cluster.tma_multicast is True


def test_sm_count_and_clock_are_third_party(b200):
    # NVIDIA publishes neither: 148 SMs (Chips and Cheese, 74 a die; a cudaGetDeviceProperties dump),
    # 1,965 MHz (a third-party device query)
    assert b200.sm_count.n == SMS
    assert "third party" in b200.sm_count.source
    assert b200.clocks.boost.hz == 1965e6 and "third party" in b200.clocks.boost.source
    for name in ("sm_count", "clocks.boost", "memory.l2.bandwidth", "memory.dram.latency"):
        assert name in b200.unpublished, name


def test_tensor_pipes_use_the_two_tcgen05_families(b200):
    # PTX ISA, tcgen05.mma matrix shapes: K = 256 bits (16 for 16-bit, 8 for tf32, 32 for 8-bit);
    # cta_group::1 M 128, cta_group::2 M 256; N up to 256; operands from shared memory, D in TMEM
    k = {"tf32": 8, "fp16": 16, "bf16": 16, "fp8": 32, "int8": 32}
    for dtype, kk in k.items():
        ins = b200.pipe(dtype).instructions
        assert [(i.family, i.shape, i.operands_from, i.accumulator_in, i.max_n) for i in ins] == [
            ("tcgen05", f"m128nNk{kk}", "smem", "tmem", 256),
            ("tcgen05.2sm", f"m256nNk{kk}", "smem", "tmem", 256),
        ], dtype
        assert [i.tile_granularity for i in ins] == ["cta", "cta pair"]
        assert b200.pipe(dtype).rated_clock.hz == TENSOR_CLOCK_HZ


def test_machines_says_spec_only(cli):
    by = {row["name"]: row for row in _json(cli, "machines")["machines"]}
    row = by["b200"]
    assert row["calibrated"] is None and row["measured_figures"] == 0
    assert (row["architecture"], row["compute_capability"], row["sm_count"]) == ("Blackwell", "10.0", SMS)
    assert "fp4" in row["dtypes"]
    line = next(x for x in cli("machines").stdout.splitlines() if x.startswith("b200"))
    assert "spec only" in line


def test_show_machine_prints_the_unpublished_lines(cli):
    r = cli("show-machine", "b200")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    for name in ("sm_count", "clocks.boost", "memory.l2.bandwidth"):
        hits = [x for x in lines if x.startswith(name) and "unpublished" in x]
        assert len(hits) == 1, name
    assert "third parties" in next(x for x in lines if x.startswith("sm_count") and "unpublished" in x)
    assert any(x.startswith("memory.tmem.capacity_per_sm") and "256 KiB" in x for x in lines)


# ---------------------------------------------------------------------------------------------
# 2. Tensor memory, worked by hand


@pytest.mark.parametrize(
    ("bm", "bn", "acc", "columns"),
    # ceil(BM / 128) x BN x cells per element, rounded up to a power of two >= 32 (PTX ISA, tcgen05.alloc)
    [
        (128, 256, 1.0, 256),  # 1 x 256: two such CTAs fill an SM's 512
        (256, 256, 1.0, 512),  # 2 x 256: one CTA
        (128, 128, 1.0, 128),
        (64, 16, 1.0, 32),  # 16 columns rounds up to the minimum allocation
        (128, 256, 0.5, 128),  # an fp16 accumulator, two to a 32-bit cell
        (64, 96, 1.0, 128),  # 96 rounds up to the next power of two
    ],
)
def test_tmem_columns_by_hand(bm, bn, acc, columns):
    assert footprint.tmem_columns(TCGEN05, bm, bn, acc) == columns
    assert footprint.tmem_columns(PAIR, bm, bn, acc) == columns  # per CTA of the pair: its own BM rows
    assert footprint.tmem_columns(FAMILIES.index("wgmma"), bm, bn, acc) == 0  # accumulator in registers


def test_tmem_limits_ctas_per_sm(b200):
    # 512 columns per SM: a 256-column CTA leaves room for one more, a 512-column CTA for none
    assert footprint.cta_limits(b200, 128, 16, 0, 256)["tensor memory"] == 2
    assert footprint.cta_limits(b200, 128, 16, 0, 512)["tensor memory"] == 1
    assert footprint.cta_limits(b200, 128, 16, 0, 0)["tensor memory"] == footprint.UNLIMITED
    # a 128x256 fp32-accumulator CTA whose shared memory would allow 4 (49,152 + 1,024 B reserved:
    # 233,472 // 50,176 = 4) is held to 2 by tensor memory
    fp = footprint.kernel_footprint(
        b200, bm=128, bn=256, bk=32, warps=4, stages=2, family=TCGEN05, element_bytes=2,
        accumulator_registers=1.0, staged=0, compiler="stated", rm=128, rn=256, k_step=16,
    )  # fmt: skip
    assert fp["shared_bytes"] == (128 + 256) * 32 * 2 * 2 == 49152
    assert fp["tmem_columns"] == 256 and fp["ctas_per_sm"] == 2


def test_a_tile_past_tensor_memory_is_refused(cli):
    # 256x512 fp32 accumulator: ceil(256/128) x 512 = 1,024 columns > 512. With 2 stages its shared
    # memory fits ((256 + 512) x 64 x 2 B x 2 = 196,608 <= 232,448), so tensor memory is what refuses.
    line = _refused(
        cli, "analyze", "--machine", "b200", "--m", "8192", "--tile", "256x512x64", "--instruction", "tcgen05",
        "--stages", "2",
    )  # fmt: skip
    assert "tensor memory" in line and "1,024 columns" in line and "limit 512 columns" in line


def test_the_default_stages_refuse_the_same_tile_on_shared_memory_first(cli):
    # With analyze's default 3 stages the tile breaks shared memory too, (256 + 512) x 64 x 2 B x 3 =
    # 294,912 B > 232,448, and the refusal names the first limit broken: shared memory.
    line = _refused(
        cli, "analyze", "--machine", "b200", "--m", "8192", "--tile", "256x512x64", "--instruction", "tcgen05"
    )
    assert "shared memory" in line and "294,912 B" in line and "232,448 B" in line


def test_tcgen05_registers_hold_no_accumulator(cli):
    # a wgmma-era 128x256 fp32 accumulator would be 128 x 256 / 128 threads = 256 registers a thread;
    # under tcgen05 it is in tensor memory and the thread holds only the stated overhead (16)
    doc = _json(cli, "analyze", "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--instruction", "tcgen05")
    tiles = doc["tiles"]
    assert tiles["register_tile_granularity"] == "cta"
    assert tiles["registers_per_thread"] == tiles["register_overhead"] == 16
    cost = tiling.register_tile_cost("cta", 128, 256, 2, 1.0, 16)
    assert cost.per_thread == 0 and cost.threads == 128
    assert tiling.register_tile_cost("warpgroup", 128, 256, 2, 1.0, 16).accumulators == 256


# ---------------------------------------------------------------------------------------------
# 3. The two-CTA tile, worked by hand


def test_required_smem_reuse_is_128(cli):
    # fp16: 4,096 FMA x 2 operands x 2 B = 16,384 B/cycle/SM against 128 B/cycle/SM: reuse 128
    # (the H100's wgmma needs 2,048 x 2 x 2 / 128 = 64)
    doc = _json(cli, "analyze", "--machine", "b200", "--m", "8192")
    smem = next(s for s in doc["stages"] if s["name"] == "smem->core")
    assert smem["bandwidth_bytes_per_cycle_per_sm"] == 128
    assert smem["demand_bytes_per_cycle_per_sm"] == pytest.approx(4096 * 2 * 2, rel=1e-3)
    assert smem["required_reuse"] == pytest.approx(128, rel=1e-3)


def test_the_instruction_tiles_reach_the_reuse():
    # tcgen05 128x256: 2 x 128 x 256 / (128 + 256) = 170.7 >= 128
    assert (
        tiling.register_tile_reuse("cta", 128, 256)
        == pytest.approx(2 * 128 * 256 / 384)
        == pytest.approx(170.67, abs=0.01)
    )
    # a wgmma-like 64xN tile never does: 2 x 64 x N / (64 + N) < 128 for every N; at N = 256, 102.4
    assert tiling.register_tile_reuse("warpgroup", 64, 256) == pytest.approx(102.4)
    assert all(tiling.tile_reuse(64, n) < 128 for n in tiling.POW2_EDGES)
    # a one-CTA tcgen05 tile of 256 rows still reads B once per 128 rows: no more than 128x256
    assert tiling.register_tile_reuse("cta", 256, 256) == pytest.approx(170.67, abs=0.01)
    # the pair's 256x256: per SM its 128 rows of A and half of B's columns: 2 x 128 x 256 / (128 + 128) = 256
    assert tiling.register_tile_reuse("cta pair", 256, 256) == 256 == 2 * 128 * 256 / (128 + 256 / 2)


@pytest.mark.parametrize(
    ("instruction", "smem"),
    # (BM + BN x B share) x BK x 2 B x 4 stages: the pair holds half of B's columns a CTA
    [(("tcgen05.2sm", "--cluster", "2x1"), (128 + 256 // 2) * 64 * 2 * 4), (("tcgen05",), (128 + 256) * 64 * 2 * 4)],
)
def test_shared_memory_per_cta(cli, instruction, smem):
    assert smem in (131072, 196608)
    common = (
        "--machine",
        "b200",
        "--m",
        "8192",
        "--tile",
        "128x256x64",
        "--stages",
        "4",
        "--instruction",
        *instruction,
    )
    assert _json(cli, "analyze", *common)["tiles"]["smem_bytes"] == smem
    assert _json(cli, "predict", *common)["shared_bytes"] == smem


def test_the_pair_is_faster_than_one_sm(cli):
    common = ("predict", "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--stages", "4")
    pair = _json(cli, *common, "--instruction", "tcgen05.2sm", "--cluster", "2x1")
    one = _json(cli, *common, "--instruction", "tcgen05")
    assert pair["seconds"] < one["seconds"]
    assert (pair["register_tile"], one["register_tile"]) == ([256, 256], [128, 256])
    # One SM, per iteration (BK = 64): operand reads (128 x 64 + 256 x 64) x 2 B = 49,152 (rows capped
    # at 128) plus the stage fill (128 + 256) x 64 x 2 B = 49,152: 98,304 B / 128 B/cycle = 768 cycles,
    # against the MMA's 128 x 256 x 64 / 4,096 = 512 cycles: shared memory bounds it, 1.5x the compute.
    one_terms = {t["name"]: t["seconds"] for t in one["terms"]}
    assert one["limiter"] == "shared memory"
    assert one_terms["shared memory"] / one_terms["compute"] == pytest.approx(768 / 512, rel=1e-3)
    # The pair, per SM: operand reads (128 x 64 + 128 x 64) x 2 B = 32,768 plus the fill
    # (128 + 128) x 64 x 2 B = 32,768: 65,536 / 128 = 512 cycles, the MMA's 512: no longer the bound.
    pair_terms = {t["name"]: t["seconds"] for t in pair["terms"]}
    assert pair_terms["shared memory"] / pair_terms["compute"] == pytest.approx(512 / 512, rel=1e-3)
    assert pair["limiter"] == "compute"
    # 14 tiles an SM x 128 iterations x 512 cycles at 1.856 GHz (4,095.6 FMA/cycle)
    assert pair_terms["compute"] == pytest.approx(14 * 128 * 512 / 1.856e9, rel=1e-3)
    assert one_terms["shared memory"] == pytest.approx(14 * 128 * 768 / 1.856e9, rel=1e-3)


def test_predict_names_tensor_memory_as_the_occupancy_limiter(cli):
    # 128x256x32, 2 stages: shared memory 49,152 + 1,024 B -> 233,472 // 50,176 = 4 CTAs; tensor
    # memory 512 // 256 columns = 2 CTAs; threads 2,048 // 128 = 16: 2 CTAs, held by tensor memory
    doc = _json(
        cli, "predict", "--machine", "b200", "--m", "8192", "--tile", "128x256x32", "--stages", "2",
        "--instruction", "tcgen05",
    )  # fmt: skip
    assert doc["ctas_per_sm"] == 2
    assert doc["occupancy_limiter"] == "tensor memory"


def test_analyze_runs_the_ctas_tensor_memory_allows_at_once(cli):
    doc = _json(
        cli, "analyze", "--machine", "b200", "--m", "8192", "--tile", "128x256x32", "--stages", "2",
        "--instruction", "tcgen05",
    )  # fmt: skip
    assert doc["cross_sm"]["raster"]["concurrent"] == SMS * 2


# ---------------------------------------------------------------------------------------------
# 4. Refusals: one line, exit 2


@pytest.mark.parametrize("command", ["analyze", "predict"])
def test_the_pair_without_a_cluster_is_refused(cli, command):
    line = _refused(
        cli, command, "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--instruction", "tcgen05.2sm"
    )
    assert "even" in line and "tcgen05.2sm" in line


@pytest.mark.parametrize("command", ["analyze", "predict"])
def test_the_pair_with_an_odd_cluster_is_refused(cli, command):
    line = _refused(
        cli, command, "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--instruction", "tcgen05.2sm",
        "--cluster", "3x1",
    )  # fmt: skip
    assert "even" in line and "3x1" in line


def test_a_tile_tcgen05_cannot_cover_is_refused(cli):
    # tcgen05.mma takes M of 64 or 128 a CTA: BM = 96 is not a multiple of 64
    line = _refused(
        cli, "predict", "--machine", "b200", "--m", "8192", "--tile", "96x128x64", "--instruction", "tcgen05"
    )
    assert "multiple of 64" in line and "96x128x64" in line
    line = _refused(
        cli, "analyze", "--machine", "b200", "--m", "8192", "--tile", "96x128x64", "--instruction", "tcgen05"
    )
    assert "96x128" in line


def test_cutlass_is_not_modeled_on_b200(cli):
    line = _refused(cli, "predict", "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--kernel", "cutlass")
    assert "not modeled" in line and "tcgen05" in line


@pytest.mark.parametrize("command", ["analyze", "predict"])
def test_sub_byte_gemms_are_refused(cli, command):
    extra = ("--tile", "128x256x64") if command == "predict" else ()
    line = _refused(cli, command, "--machine", "b200", "--m", "8192", "--dtype", "fp4", *extra)
    assert "fp4" in line and "sub-byte" in line


def test_warps_that_are_not_whole_warpgroups_are_refused(cli):
    line = _refused(
        cli, "predict", "--machine", "b200", "--m", "8192", "--tile", "128x256x64", "--instruction", "tcgen05",
        "--warps", "6",
    )  # fmt: skip
    assert "--warps 6" in line and "warpgroup" in line
    line = _refused(cli, "analyze", "--machine", "b200", "--m", "8192", "--instruction", "tcgen05", "--warps", "6")
    assert "--warps 6" in line


# ---------------------------------------------------------------------------------------------
# 5. The commands on the B200


def test_tune_picks_a_tcgen05_kernel(cli):
    doc = _json(cli, "tune", "--machine", "b200", "--m", "8192", "--top", "3")
    top = doc["top"]
    assert len(top) == 3
    first = top[0]["config"]
    assert first["instruction"] in ("tcgen05", "tcgen05.2sm")
    if first["instruction"] == "tcgen05.2sm":
        assert first["cluster"][0] % 2 == 0
    assert top[0]["tflops"] <= 2250 * (1 + 1e-9)


def test_side_by_side_has_no_l2_bandwidth_figure_for_the_b200(cli):
    r = cli("analyze", "--machine", "h100,b200", "--m", "8192")
    assert r.exit_code == 0, r.output
    row = next(x for x in r.stdout.splitlines() if "L2->smem" in x)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells[0].startswith("L2->smem")
    assert cells[-1] == "no bandwidth figure" and "no bandwidth figure" not in cells[1]
    doc = _json(cli, "analyze", "--machine", "h100,b200", "--m", "8192")
    b200 = next(c for c in doc["columns"] if c["machine"] == "b200")
    assert b200["stages_without_bandwidth"] == ["L2->smem"] and b200["calibrated"] is None
    assert b200["required_reuse"]["smem->core"] == pytest.approx(128, rel=1e-3)
