"""The built-in AMD Instinct MI300X (CDNA 3, gfx942; issue 15, step 4): its white-paper and ROCm figures
typed in by hand with the document named, the levels the file brings (the Infinity Cache as a last-level
cache, eight private L2s), round-robin dispatch to the XCDs and the '+remap' order worked by hand on a
small grid, the 64-lane wavefront in occupancy, and the commands on it. A spec-only file: no MI300X is
lent, so nothing here is measured (notes: /work/notes/research-mi300x.md).

Documents: WP = AMD, "Introducing AMD CDNA 3 Architecture" white paper (2025 revision), Table 1 (p. 7,
per-CU rates and MI300X peaks) and Table 2 (pp. 24-25, the product table); RD-SPECS = ROCm docs,
"Accelerator and GPU hardware specifications" (docs/reference/gpu-arch-specs.rst, MI300X row); RD-WLO =
ROCm docs, "MI300X workload optimization"; RPC = ROCm Compute Profiler, pipeline descriptions.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import roofmodel
from roofmodel import Gemm, load_machine
from roofmodel.model import footprint
from roofmodel.model.hierarchy import machine_levels
from roofmodel.model.occupancy import occupancy
from roofmodel.model.rasterization import (
    machine_traffic,
    order_traffic,
    parse_order,
    partitioned_order_traffic,
    raster_traffic,
    tile_order,
)
from roofmodel.search.space import Space, enumerate_space
from roofmodel.units import rate_fma_per_cycle_per_sm

CUS = 304
CLOCK_HZ = 2100e6
CU_CYCLES_PER_S = CUS * CLOCK_HZ  # 638.4e9
MIB = 2**20


@pytest.fixture(scope="module")
def mi300x():
    return load_machine("mi300x")


def _pipe(dtype: str, **options):
    return roofmodel.analyze("mi300x", Gemm(8192, dtype=dtype), **options).pipe


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


def test_identity_and_aliases(mi300x):
    assert (mi300x.name, mi300x.architecture, mi300x.compute_capability) == ("AMD Instinct MI300X", "CDNA 3", "gfx942")
    assert load_machine("mi300x-oam").name == load_machine("mi300").name == mi300x.name
    assert mi300x.kernel_costs is None  # no MI300X has been timed
    for name in ("memory.llc clock", "memory.dram.latency", "kernel_costs"):
        assert name in mi300x.unpublished, name


def test_compute_units_and_clock(mi300x):
    # WP Table 2: 304 compute units (8 XCDs x 38 active); "Max engine clock (peak) 2,100 MHz";
    # RD-SPECS: "304 (38 per XCD)"
    assert mi300x.sm_count.n == CUS and mi300x.sm_count.unit == "CUs"
    assert mi300x.clocks.boost.hz == CLOCK_HZ


@pytest.mark.parametrize(
    ("dtype", "tflops", "flop_per_clk_per_cu"),
    # WP Table 1 (p. 7) and Table 2 (pp. 24-25), dense matrix peaks; FLOP/clk/CU = peak / (304 x 2.1 GHz).
    # tf32: Table 2 and endnote MI300-11 give 653.7 (1,024 FLOP/clk/CU); Table 1's 490.3 is the MI300A's
    # 228 CUs x 1,024 x 2.1 GHz, an error in that table.
    [
        ("fp16", 1307.4, 2048),
        ("bf16", 1307.4, 2048),
        ("fp8", 2614.9, 4096),
        ("int8", 2614.9, 4096),
        ("tf32", 653.7, 1024),
        ("fp32", 163.4, 256),
        ("fp64", 163.4, 256),
    ],
)
def test_matrix_peaks_against_the_white_paper(dtype, tflops, flop_per_clk_per_cu):
    pipe = _pipe(dtype)
    assert pipe.instruction == "mfma" and pipe.clock_mhz == 2100
    assert pipe.peak_tflops == pytest.approx(tflops, rel=1e-9)
    assert round(CUS * flop_per_clk_per_cu * 2.1e9 / 1e12, 1) == tflops  # the WP's arithmetic, to its 0.1
    assert pipe.fma_per_cycle_per_sm == pytest.approx(flop_per_clk_per_cu / 2, rel=5e-4)
    assert pipe.peak_tflops != pytest.approx(490.3, rel=1e-3)  # never Table 1's MI300A tf32 figure


@pytest.mark.parametrize(
    ("dtype", "tflops", "shape"),
    # WP Table 1 and Table 2: peak FP32 vector 163.4 TFLOPS (256 FLOP/clk/CU, packed FP32: two FMAs a lane),
    # peak FP64 vector 81.7 TFLOPS (128 FLOP/clk/CU)
    [("fp32", 163.4, "V_PK_FMA_F32"), ("fp64", 81.7, "V_FMA_F64")],
)
def test_vector_peaks_against_the_white_paper(mi300x, dtype, tflops, shape):
    pipe = _pipe(dtype, instruction="fma")
    assert pipe.instruction == "fma"
    assert pipe.peak_tflops == pytest.approx(tflops, rel=1e-9)
    per_cu = {"fp32": 256, "fp64": 128}[dtype]  # WP Table 1, FLOP/clk/CU
    assert round(CUS * per_cu * 2.1e9 / 1e12, 1) == tflops
    assert pipe.fma_per_cycle_per_sm == pytest.approx(per_cu / 2, rel=5e-4)
    vector = next(i for i in mi300x.pipe(dtype).instructions if i.family == "fma")
    assert (vector.shape, vector.engine) == (shape, "simd")


def test_per_cu_fp16_rate_through_the_library(mi300x):
    # WP Table 1: matrix FP16 2,048 FLOP/clk/CU = 1,024 FMA/clk/CU; 1,307.4e12 / (2 x 304 x 2.1e9) = 1,023.97
    q = mi300x.pipe("fp16").rate.spec
    assert (q.value, q.unit) == (1307.4, "TFLOPS")
    fma = rate_fma_per_cycle_per_sm(q.value, q.unit, CUS, mi300x.pipe("fp16").rated_clock.hz)
    assert fma == pytest.approx(1024, rel=1e-4)
    assert 2 * fma == pytest.approx(2048, rel=1e-4)
    # v_mfma_f32_16x16x16_f16: 16 cycles a SIMD, 4 SIMDs (AMD Matrix Instruction Calculator, cdna3)
    assert 2 * 16 * 16 * 16 / 16 * 4 == 2048
    ins = mi300x.pipe("fp16").instructions
    assert [(i.family, i.shape, i.operands_from, i.tile_granularity) for i in ins] == [
        ("mfma", "m16n16k16", "rf", "wavefront")
    ]


def test_memory_against_the_documents(mi300x):
    mem = mi300x.memory
    # WP Table 2 and p. 11: 192 GB HBM3 (8 stacks of 24 GB), read as GiB as the H100 file reads its 80 GB;
    # 5.3 TB/s (endnote MI300-13: 8,192 bits x 5.2 Gbps / 8)
    assert mem.dram.capacity.bytes == 192 * 2**30
    assert (mem.dram.bandwidth.spec.value, mem.dram.bandwidth.spec.unit) == (5.3, "TB/s")
    assert mem.dram.bandwidth.measured is None
    # WP p. 11 and Table 2: 256 MB Infinity Cache (128 channels of 2 MB); p. 11 / Figure 6: 17.2 TB/s
    assert mem.llc.capacity.bytes == 256 * MIB
    assert (mem.llc.bandwidth.spec.value, mem.llc.bandwidth.spec.unit) == (17.2, "TB/s")
    assert 128 * 64 * CLOCK_HZ / 1e12 == pytest.approx(17.2, abs=0.01)  # 128 channels x 64 B a clock
    # WP p. 5, p. 10, Table 2; RD-SPECS "32 (4 per XCD)": a 4 MB L2 per XCD, eight of them, private
    assert mem.l2.capacity.bytes == 32 * MIB
    assert mem.l2.private_partitions.n == mi300x.l2_partitions == 8
    assert mem.l2.partition_dispatch == "round_robin"
    assert mem.l2.capacity.bytes / mi300x.l2_partitions == 4 * MIB
    assert (mem.l2.bandwidth.spec.value, mem.l2.bandwidth.spec.unit) == (34.4, "TB/s")  # WP p. 10
    # WP p. 9 "LDS ... remain at 64KB"; RPC: 32 banks x 4 B = 128 B/clock per CU
    assert mem.smem.capacity_per_sm.bytes == 64 * 1024
    assert mem.smem.max_per_block.bytes == 64 * 1024  # RD-WLO occupancy: floor(65536 / LDS per workgroup)
    assert (mem.smem.bandwidth.spec.value, mem.smem.bandwidth.spec.unit) == (128, "B/cycle/SM")
    # RD-SPECS: VGPR file 512 KiB per CU = 4 SIMDs x 512 registers x 64 lanes x 4 B
    assert mem.rf.capacity_per_sm.bytes == 512 * 1024 == 4 * 512 * 64 * 4


def test_limits_against_the_rocm_documents(mi300x):
    lim = mi300x.limits
    # RD-WLO: at most 8 waves a SIMD, 32 a CU; RD-SPECS: wavefront size 64
    assert lim.max_warps_per_sm.n == 32 and mi300x.warp_size == lim.warp_size.n == 64
    assert lim.max_threads_per_sm.n == 32 * 64 == 2048
    assert lim.registers_per_sm.n == 512 * 1024 // 4 == 131072
    assert lim.max_registers_per_thread.n == 512  # 256 ArchVGPRs + 256 AccVGPRs (RPC)
    assert lim.max_threads_per_block.n == 1024


def test_machines_says_spec_only(cli):
    by = {row["name"]: row for row in _json(cli, "machines")["machines"]}
    row = by["mi300x"]
    assert row["calibrated"] is None and row["measured_figures"] == 0
    assert (row["architecture"], row["compute_capability"], row["sm_count"]) == ("CDNA 3", "gfx942", CUS)
    assert set(row["dtypes"]) == {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"}
    line = next(x for x in cli("machines").stdout.splitlines() if x.startswith("mi300x"))
    assert "spec only" in line


def test_analyze_header_names_the_target_and_the_cus(cli):
    r = cli("analyze", "--machine", "mi300x", "--m", "8192")
    assert r.exit_code == 0, r.output
    header = r.stdout.splitlines()[0]
    assert "AMD Instinct MI300X" in header and "gfx942" in header and "304 CUs" in header


# ---------------------------------------------------------------------------------------------
# 2. The levels come from the file


def test_levels_from_the_file(mi300x):
    assert machine_levels(mi300x) == ("dram", "llc", "l2", "smem", "rf")
    assert machine_levels(load_machine("h100")) == ("dram", "l2", "smem", "rf")


def test_analyze_stages_on_mi300x_and_h100(cli):
    doc = _json(cli, "analyze", "--machine", "mi300x", "--m", "8192")
    assert doc["levels"] == ["dram", "llc", "l2", "smem", "rf"]
    stages = {s["name"]: s for s in doc["stages"]}
    assert list(stages) == ["DRAM->LLC", "LLC->L2", "L2->smem", "smem->RF", "RF->core"]
    # The pipe eats 1,307.4 TFLOPS x 2 B a FLOP (2 operands of 2 B an FMA of 2 FLOP) = 2,614.8 TB/s;
    # required reuse = that / each level's bandwidth: HBM 5.3, LLC 17.2, L2 34.4 TB/s, LDS 128 B x 304 x 2.1 GHz
    demand = 2 * 1307.4e12
    for name, bandwidth in (("DRAM->LLC", 5.3e12), ("LLC->L2", 17.2e12), ("L2->smem", 34.4e12),
                            ("smem->RF", 128 * CU_CYCLES_PER_S)):  # fmt: skip
        assert stages[name]["required_reuse"] == pytest.approx(demand / bandwidth, rel=1e-6), name
        assert stages[name]["bandwidth_bytes_per_cycle_per_sm"] == pytest.approx(bandwidth / CU_CYCLES_PER_S, rel=1e-9)
    assert stages["DRAM->LLC"]["required_reuse"] == pytest.approx(493.36, abs=0.01)
    assert stages["LLC->L2"]["required_reuse"] == pytest.approx(152.02, abs=0.01)
    h100 = _json(cli, "analyze", "--machine", "h100", "--m", "8192")
    names = [s["name"] for s in h100["stages"]]
    assert not any("LLC" in n for n in names) and names[0] == "DRAM->L2"
    assert h100["cross_sm"]["llc_read_bytes"] is None and h100["cross_sm"]["l2_partitions"] == 1


def test_roofline_has_an_llc_level(cli):
    doc = _json(cli, "analyze", "--machine", "mi300x", "--m", "8192")
    roofs = {r["level"]: r for r in doc["roofs"]}
    assert list(roofs) == ["DRAM", "LLC", "L2", "smem", "RF"]
    assert roofs["LLC"]["bandwidth_gb_per_s"] == pytest.approx(17200)
    # the LLC's traffic is what the L2s read from it plus C
    x = doc["cross_sm"]
    assert roofs["LLC"]["traffic_bytes"] == pytest.approx(x["llc_read_bytes"] + x["dram_write_bytes"])
    assert [r["level"] for r in _json(cli, "analyze", "--machine", "h100", "--m", "8192")["roofs"]] == [
        "DRAM",
        "L2",
        "smem",
    ]


# ---------------------------------------------------------------------------------------------
# 3. Round-robin dispatch and +remap, worked by hand
#
# A 4x4 grid of 16x16 tiles (M = N = 64), K = 8, 2-byte inputs: every A or B panel is 16 x 8 x 2 = 256 B.
# Two private L2 slices; 4 tiles at once on the chip, 2 a slice.

PANEL = 16 * 8 * 2
SMALL = dict(m=64, n=64, k=8, bm=16, bn=16, input_bytes=2, output_bytes=2)
BIG_L2 = float(MIB)  # both slices' two waves (2 x 3 panels = 1,536 B) fit in half of it
TINY_L2 = 1000.0  # 500 B a slice: no panel survives from one wave to the next


def _split(order: str, l2: float):
    return partitioned_order_traffic(parse_order(order), partitions=2, concurrent=4, l2_bytes=l2, **SMALL)


def test_row_order_round_robin_by_hand():
    # Round-robin: slice 0 runs ids 0, 2, 4, ...: (0,0) (0,2) | (1,0) (1,2) | (2,0) (2,2) | (3,0) (3,2);
    # slice 1 the odd columns. Each wave of a slice: 2 tiles x 2 panels = 4 requested, 1 A + 2 B = 3 distinct;
    # successive waves share both B panels: 3 + 1 + 1 + 1 = 6 panels read a slice, 12 in all.
    t = _split("row", BIG_L2)
    assert t.requested_bytes == 2 * 4 * 4 * PANEL == 8192
    assert t.wave_distinct_bytes == 2 * 4 * 3 * PANEL
    assert t.dram_read_bytes == 12 * PANEL == 3072
    first = t.first_waves[0]  # slice 0's first wave
    assert (first.tile_rows, first.tile_cols) == ([0, 0], [0, 2])
    assert (first.unique_a_panels, first.unique_b_panels) == (1, 2)
    assert "round-robin" in t.cache_assumption
    # Nothing kept between waves: every wave reads its 3 distinct panels, 24 in all
    assert _split("row", TINY_L2).dram_read_bytes == 24 * PANEL


def test_row_order_remapped_by_hand():
    # +remap: slice 0 runs the first half of the order, rows 0-1: (0,0) (0,1) | (0,2) (0,3) | (1,0) (1,1) |
    # (1,2) (1,3). Waves keep A across a row (1 panel twice a slice), never B: 3 + 2 + 3 + 2 = 10 a slice, 20.
    # For the row order, round-robin (12) is the better of the two: its slices keep B columns.
    t = _split("row+remap", BIG_L2)
    assert t.order == "row+remap"
    assert t.requested_bytes == 8192
    assert t.dram_read_bytes == 20 * PANEL == 5120
    first = t.first_waves[0]
    assert (first.tile_rows, first.tile_cols) == ([0, 0], [0, 1])
    assert "contiguous share" in t.cache_assumption
    assert _split("row+remap", TINY_L2).dram_read_bytes == 24 * PANEL


def test_grouped_order_round_robin_against_remap_by_hand():
    # grouped:2 over 4 columns: ids 0-7 are (0,0) (1,0) (0,1) (1,1) (0,2) (1,2) (0,3) (1,3), ids 8-15 the same
    # on rows 2-3. Round-robin splits every pair of rows: slice 0 gets rows 0 and 2 across the columns,
    # which is the row order remapped: 10 panels a slice, 20. +remap keeps a group on one slice: waves
    # (0,0) (1,0) | (0,1) (1,1) | ... read 2 A + 1 B, then only the new B: 3 + 1 + 1 + 1 = 6 a slice, 12.
    rr, remap = _split("grouped:2", BIG_L2), _split("grouped:2+remap", BIG_L2)
    assert rr.dram_read_bytes == 20 * PANEL
    assert remap.dram_read_bytes == 12 * PANEL
    assert (remap.first_waves[0].tile_rows, remap.first_waves[0].tile_cols) == ([0, 1], [0, 0])
    assert rr.requested_bytes == remap.requested_bytes == 8192


@pytest.mark.parametrize("order", ["row", "row+remap", "col", "grouped:2", "grouped:2+remap", "swizzle:2+remap"])
def test_slices_request_what_the_whole_chip_requests(order):
    # Splitting the L2 changes what is read from above, never what the CTAs ask for: every tile still
    # reads its A and B panel, 16 tiles x 2 x 256 B.
    whole = order_traffic(parse_order(order), concurrent=4, l2_bytes=BIG_L2, **SMALL)
    split = _split(order, BIG_L2)
    assert split.requested_bytes == whole.requested_bytes == 16 * 2 * PANEL
    assert split.dram_write_bytes == whole.dram_write_bytes == 64 * 64 * 2
    assert split.concurrent == 4 and split.l2_capacity_bytes == BIG_L2
    # one L2 of the whole capacity (unpartitioned row order: a row a wave, B kept) reads 5 + 1 + 1 + 1
    if order == "row":
        assert whole.dram_read_bytes == 8 * PANEL


def test_machine_traffic_splits_the_mi300x_l2_in_eight(mi300x):
    # machine_traffic on the MI300X: the L2 half is the 8-slice model, each slice 4 MiB; the LLC half the
    # unpartitioned order over the whole chip at 256 MiB
    grid = dict(m=256, n=64, k=8, bm=16, bn=16, input_bytes=2, output_bytes=2)
    l2, llc = machine_traffic(mi300x, parse_order("row"), concurrent=16, **grid)
    assert (
        l2.model_dump()
        == partitioned_order_traffic(
            parse_order("row"), partitions=8, concurrent=16, l2_bytes=32 * MIB, **grid
        ).model_dump()
    )
    assert "8 private L2 slices of 4 MiB" in l2.cache_assumption
    assert llc.l2_capacity_bytes == 256 * MIB
    assert llc.requested_bytes == l2.requested_bytes
    l2h, llch = machine_traffic(load_machine("h100"), parse_order("row"), concurrent=16, **grid)
    assert llch is None and l2h.l2_capacity_bytes == load_machine("h100").memory.l2.capacity.bytes


def test_llc_traffic_of_a_remapped_order_follows_the_chips_schedule(mi300x):
    # A 16x4 grid of 16x16 tiles (M = 256, N = 64, K = 8: 256 B a panel), row+remap, 16 tiles at once on
    # the 8 XCDs (2 each). Each slice's share is 8 tiles, two rows: XCD p runs rows 2p and 2p + 1.
    # Workgroup i runs on XCD i mod 8, tile (i mod 8) x 8 + i // 8, so the chip's waves are
    #   wave 0: rows 0, 2, ..., 14, columns 0-1: 8 A + 2 B = 10 panels
    #   wave 1: the same rows, columns 2-3: 2 new B (the 8 A stay)         ->  2
    #   wave 2: rows 1, 3, ..., 15, columns 0-1: nothing of wave 1        -> 10
    #   wave 3: the same rows, columns 2-3                                 ->  2
    # = 24 panels = 6,144 B from DRAM. The model counts the unremapped row order, four rows a wave
    # (4 A + 4 B, then 4 new A): 8 + 4 + 4 + 4 = 20 panels = 5,120 B.
    grid = dict(m=256, n=64, k=8, bm=16, bn=16, input_bytes=2, output_bytes=2)
    order = parse_order("row+remap")
    _, llc = machine_traffic(mi300x, order, concurrent=16, **grid)
    rows, cols = tile_order(order, 16, 4, vectorized=True)
    i = np.arange(64)
    chip = (i % 8) * 8 + i // 8  # the tile each workgroup runs under the remap
    schedule = raster_traffic(rows[chip], cols[chip], concurrent=16, l2_bytes=256 * MIB, **grid)
    assert schedule.dram_read_bytes == 24 * 256  # the hand count above, through the model's own cache rule
    assert llc.dram_read_bytes == 24 * 256  # fails: 20 x 256 = 5,120


def test_remap_raises_the_l2_hit_rate_at_8192(cli):
    # docs/model.md: at 8192^3 fp16 with 64x64 tiles, grouped:8 leaves 48% of L2 requests hitting on the
    # MI300X (neighbouring tiles dealt to eight different L2s); +remap gives it back (82%)
    common = ("analyze", "--machine", "mi300x", "--m", "8192")
    plain = _json(cli, *common, "--raster", "grouped:8")["cross_sm"]
    remap = _json(cli, *common, "--raster", "grouped:8+remap")["cross_sm"]
    assert (plain["raster_order"], remap["raster_order"]) == ("grouped:8", "grouped:8+remap")
    hit, hit_remap = plain["latency"]["l2_hit_rate"], remap["latency"]["l2_hit_rate"]
    assert hit_remap > hit
    assert hit == pytest.approx(0.48, abs=0.01) and hit_remap == pytest.approx(0.82, abs=0.01)
    # the hit rate is 1 - what the L2s read from the LLC / what the CTAs request
    for x in (plain, remap):
        assert x["latency"]["l2_hit_rate"] == pytest.approx(1 - x["llc_read_bytes"] / x["raster"]["requested_bytes"])
        assert x["l2_partitions"] == 8


def test_remap_on_a_single_l2_is_refused(cli):
    line = _refused(cli, "analyze", "--machine", "h100", "--m", "8192", "--raster", "grouped:8+remap")
    assert "grouped:8+remap" in line and "one L2 that every SM shares" in line


def test_parse_order_reads_the_remap_suffix():
    o = parse_order("row+remap")
    assert (o.kind, o.remap, o.label) == ("row", True, "row+remap")
    assert parse_order("Grouped:8+REMAP").label == "grouped:8+remap"
    assert parse_order("swizzle:4:m+remap").label == "swizzle:4:m+remap"
    assert parse_order("grouped:8").remap is False


# ---------------------------------------------------------------------------------------------
# 4. A wavefront of 64 lanes


def test_cta_limits_count_wavefronts_by_hand(mi300x):
    # 256 threads = 4 wavefronts of 64; 128 registers a lane: a wavefront holds 128 x 64 = 8,192 registers;
    # a SIMD has 131,072 / 4 = 32,768 -> 4 wavefronts a SIMD, 16 a CU -> 4 CTAs of 4.
    # Wave slots: 32 // 4 = 8 CTAs; threads: 2,048 // 256 = 8; no LDS: unlimited.
    lim = footprint.cta_limits(mi300x, 256, 128, 0)
    assert 128 * 64 == 8192 and 131072 // 4 // 8192 == 4
    assert lim["registers"] == 4
    assert lim["warps"] == 32 // 4 == 8
    assert lim["threads"] == 2048 // 256 == 8
    assert lim["blocks"] == 32
    assert lim["shared memory"] == footprint.UNLIMITED
    assert "tensor memory" not in lim
    assert footprint.ctas_per_sm(mi300x, 256, 128, 0) == 4
    # the same CTA on a 32-lane machine is 8 warps of 128 x 32 = 4,096 registers: 16,384 / 4,096 = 4 a
    # sub-partition, 16 an SM -> 2 CTAs of 8 warps
    assert footprint.cta_limits(load_machine("h100"), 256, 128, 0)["registers"] == 2


def test_register_allocation_rounds_to_eight_a_lane(mi300x):
    # 129 registers a lane round up to 136: 136 x 64 = 8,704 a wavefront; 32,768 // 8,704 = 3 a SIMD ->
    # 12 a CU -> 3 CTAs of 4 wavefronts. 512 registers (256 arch + 256 acc) leave one wavefront a SIMD.
    assert footprint.cta_limits(mi300x, 256, 129, 0)["registers"] == 3
    assert footprint.cta_limits(mi300x, 64, 512, 0)["registers"] == 4
    assert footprint.cta_limits(mi300x, 256, 512, 0)["registers"] == 1


def test_occupancy_reports_wavefronts(mi300x):
    occ = occupancy(mi300x, 256, 128, 0)
    assert occ.ctas_per_sm == 4
    assert occ.warps_per_sm == 16  # wavefronts: 4 CTAs x 4
    assert occ.occupancy == pytest.approx(16 / 32)
    assert occ.limiter == "registers"


def test_a_cta_smaller_than_a_wavefront_is_not_launchable(mi300x):
    assert not footprint.fits_block(mi300x, 32, 0)
    assert footprint.fits_block(mi300x, 64, 0)
    assert footprint.fits_block(load_machine("h100"), 32, 0)


# ---------------------------------------------------------------------------------------------
# 5. predict and tune on the MI300X

PREDICT = ("predict", "--machine", "mi300x", "--m", "8192", "--tile", "256x256x32", "--warps", "8", "--stages", "2")


def test_predict_uses_mfma_and_charges_the_llc(cli):
    doc = _json(cli, *PREDICT)
    assert doc["instruction"] == "mfma"
    assert doc["kernel"].startswith("256x256x32 w8 s2 mfma") and doc["kernel"].endswith("grouped:8")
    terms = {t["name"]: t for t in doc["terms"]}
    # 256x256 tiles: a 32x32 grid of 1,024 tiles; 1 CTA a CU; grouped:8 (8 rows x 32 columns a group).
    # Each panel is 256 x 8,192 x 2 B = 4 MiB, the size of one XCD's L2, so no slice keeps a panel from
    # one wave to the next. Round-robin gives slice p row p of each group: 4 rows x 32 columns = 128 tiles,
    # in waves of 38: (row r0 all 32 columns + r1 cols 0-5), (r1 6-31 + r2 0-11), (r2 12-31 + r3 0-17):
    # 2 A + 32 B = 34 panels each, then r3 18-31: 1 A + 14 B = 15. 117 panels x 4 MiB = 468 MiB a slice,
    # 3,744 MiB for the eight; with C (8,192^2 x 2 B = 128 MiB) 3,872 MiB through the Infinity Cache.
    llc_read = 8 * (3 * 34 + 15) * 4 * MIB
    c_bytes = 8192 * 8192 * 2
    assert llc_read == 3744 * MIB
    assert terms["LLC"]["seconds"] == pytest.approx((llc_read + c_bytes) / 17.2e12, rel=1e-9)
    assert "last-level cache" in terms["LLC"]["detail"] and "3,744 MiB" in terms["LLC"]["detail"]
    assert "17,200 GB/s" in terms["LLC"]["detail"]
    # The Infinity Cache over the whole chip, 304 tiles a wave (48 MiB x 4 > 256 MiB: no wave is kept):
    # ids 0-303 rows 0-15: 16 A + 32 B; 304-607: 16 A + 32 B; 608-911: 16 A + 32 B; 912-1023 rows 24-31
    # columns 18-31: 8 A + 14 B. 166 panels = 664 MiB from HBM, plus C: 792 MiB at 5.3 TB/s.
    dram = (3 * 48 + 22) * 4 * MIB + c_bytes
    assert dram == 792 * MIB
    assert terms["DRAM"]["seconds"] == pytest.approx(dram / 5.3e12, rel=1e-9)
    # every tile requests its two 4 MiB panels: 1,024 x 8 MiB + C = 8,320 MiB at 34.4 TB/s
    assert terms["L2"]["seconds"] == pytest.approx((1024 * 8 * MIB + c_bytes) / 34.4e12, rel=1e-9)
    # compute: 4 rounds (1,024 tiles / 304) x 256 iterations x 256 x 256 x 32 / 1,024 FMA a cycle
    fma = 1307.4e12 / 2 / CU_CYCLES_PER_S
    assert terms["compute"]["seconds"] == pytest.approx(4 * 256 * 256 * 256 * 32 / fma / CLOCK_HZ, rel=1e-9)
    assert doc["wave_efficiency"] == pytest.approx(1024 / (4 * 304))


def test_predict_the_kernel_fits_one_cta_a_cu(cli):
    doc = _json(cli, *PREDICT)
    # a wavefront's 64x128 tile: 64 x 128 / 64 = 128 accumulators + (64 + 128) x 16 x 2 B / (4 x 64) = 24
    # operand registers + 16 overhead = 168; 168 x 64 = 10,752 a wavefront -> 3 a SIMD, 12 a CU; the CTA's 8
    # wavefronts: 1 CTA. LDS: 2 stages x (256 + 256) x 32 x 2 B = 64 KiB, all of it: 1 CTA.
    assert doc["register_tile"] == [64, 128] and doc["warps"] == 8
    assert doc["registers_per_thread"] == 168
    assert doc["shared_bytes"] == 65536
    assert doc["ctas_per_sm"] == 1
    assert doc["occupancy_limiter"] == "registers, shared memory"


def test_h100_has_no_llc_term(cli):
    doc = _json(cli, "predict", "--machine", "h100", "--m", "8192", "--tile", "128x256x64")
    llc = next(t for t in doc["terms"] if t["name"] == "LLC")
    assert llc["seconds"] == 0.0
    assert "no last-level cache" in llc["detail"]


def test_tune_tries_remapped_orders(cli, mi300x):
    doc = _json(cli, "tune", "--machine", "mi300x", "--m", "8192", "--top", "5")
    assert doc["space"] == "all"
    top = doc["top"]
    assert len(top) == 5
    assert all(t["config"]["instruction"] == "mfma" for t in top)
    assert top[0]["tflops"] <= 1307.4 * (1 + 1e-9)
    # What tune considered is the space with every order also remapped: twice the space of the eight
    # plain orders (which of them the top five happen to use is the time model's business)
    _, considered = enumerate_space(mi300x, Gemm(8192), Space())
    plain = Space().order_values()
    _, considered_plain = enumerate_space(mi300x, Gemm(8192), Space(orders=plain))
    assert doc["considered"] == considered == 2 * considered_plain


@pytest.mark.parametrize("name", ["all", "triton"])
def test_the_search_space_doubles_its_orders_on_private_l2s(mi300x, name):
    configs, _ = enumerate_space(mi300x, Gemm(8192), Space(name=name))
    base = Space(name=name).order_values()
    assert configs.orders == (*base, *(f"{o}+remap" for o in base))
    used = {configs.orders[int(i)] for i in np.unique(configs.order)}
    assert any(o.endswith("+remap") for o in used)
    h100, _ = enumerate_space(load_machine("h100"), Gemm(8192), Space(name=name))
    assert not any(o.endswith("+remap") for o in h100.orders)


def test_enumerate_space_names_the_instructions_it_has(mi300x):
    from roofmodel.errors import ProblemError

    with pytest.raises(ProblemError) as err:
        enumerate_space(mi300x, Gemm(1024), Space(), instruction="wgmma")
    assert "(have: mfma)" in str(err.value)


# ---------------------------------------------------------------------------------------------
# 6. Side by side, and a picture


def test_side_by_side_with_h100_and_b200(cli):
    r = cli("analyze", "--machine", "h100,b200,mi300x", "--m", "8192")
    assert r.exit_code == 0, r.output
    head = next(x for x in r.stdout.splitlines() if "h100" in x and "b200" in x)
    assert "mi300x" in head
    assert any("AMD Instinct MI300X" in x for x in r.stdout.splitlines())
    for stage in ("DRAM->LLC", "LLC->L2"):
        row = next(x for x in r.stdout.splitlines() if x.lstrip("│ ").startswith(stage))
        cells = [c.strip() for c in row.split("│") if c.strip()]
        assert cells[1:3] == ["-", "-"] and cells[3] != "-", row  # only the MI300X has the stage
    doc = _json(cli, "analyze", "--machine", "h100,b200,mi300x", "--m", "8192")
    cols = {c["machine"]: c for c in doc["columns"]}
    assert list(cols) == ["h100", "b200", "mi300x"]
    mi = cols["mi300x"]
    assert mi["calibrated"] is None and mi["peak_tflops"] == pytest.approx(1307.4)
    assert mi["dram_gb_per_s"] == pytest.approx(5300)
    assert mi["required_reuse"]["LLC->L2"] == pytest.approx(2 * 1307.4 / 17.2, rel=1e-6)
    assert "mfma" in mi["best_config"]


def test_plot_roofline_writes_a_png(cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.png"
    r = cli("plot", "roofline", "--machine", "mi300x", "--m", "8192", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 10_000


def test_compulsory_traffic_is_the_same_through_the_llc(cli):
    # Whatever the caches do, DRAM reads at least A and B once: (2 x 8,192^2) x 2 B = 256 MiB
    x = _json(cli, "analyze", "--machine", "mi300x", "--m", "8192")["cross_sm"]
    assert x["compulsory_read_bytes"] == 256 * MIB
    assert x["dram_read_bytes"] >= x["compulsory_read_bytes"]
    assert x["llc_read_bytes"] >= x["dram_read_bytes"]
    assert math.isclose(x["dram_write_bytes"], 128 * MIB)
