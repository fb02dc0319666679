"""Result objects of an analysis and their rendering as text (rich tables) and JSON.

The result objects keep the inputs each figure came from (machine-file field, value, unit,
kind, source), so the JSON output shows the derivation. JSON_SCHEMA_VERSION changes whenever a
field's meaning or name changes; docs/schema/analysis.schema.json is generated from these models.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from roofmodel.model.occupancy import Occupancy, Waves
from roofmodel.model.rasterization import RasterTraffic

JSON_SCHEMA_VERSION = 4


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Input(_Result):
    """A machine-file number as used: where it is in the file and where it comes from."""

    field: str
    value: float
    unit: str
    kind: Literal["spec", "measured"]
    source: str
    file: str | None = Field(default=None, description="the machine file the number is written in")
    line: int | None = Field(default=None, description="its line there (1-based)")


class PipeInfo(_Result):
    dtype: str
    engine: str
    instruction: str
    instruction_shape: str | None
    operands_from: str
    fma_per_cycle_per_sm: float
    peak_tflops: float
    clock_mhz: float
    clock_origin: str
    rate_input: Input


class MinimumTile(_Result):
    """The tile a stage needs: real square edge, smallest power-of-two square, and rectangles."""

    real_edge: float
    pow2_square: int
    pow2_rectangles: list[tuple[int, int]]


class CapacityCheck(_Result):
    resource: str
    need: float
    limit: float
    unit: str
    fits: bool
    limit_input: Input | None = None


class StageResult(_Result):
    name: str = Field(description="e.g. 'DRAM->L2'")
    source_level: str
    destination_level: str
    bandwidth_bytes_per_cycle_per_sm: float
    bandwidth_gb_per_s: float
    bandwidth_input: Input | None = Field(description="None where the machine file has no figure")
    bandwidth_assumed: bool
    demand_bytes_per_cycle_per_sm: float
    required_reuse: float = Field(description="global reuse factor: demand / bandwidth")
    local_required_reuse: float = Field(description="required reuse / required reuse of the next stage")
    minimum_tile: MinimumTile
    minimum_tile_edge: int = Field(description="smallest power-of-two square edge reaching the reuse")
    holder: str = Field(description="the tile that provides this stage's reuse")
    tile: tuple[int, int]
    achieved_reuse: float = Field(description="global reuse achieved: in-SM reuse x cross-SM factor")
    in_sm_reuse: float = Field(description="reuse from the tile held inside one SM")
    cross_sm_factor: float = Field(description="cluster multicast (into smem) or that x L2 sharing (into L2)")
    local_achieved_reuse: float
    slack: float = Field(description="achieved / required reuse (>= 1: the stage keeps up)")
    max_feasible_reuse: float
    capacity_checks: list[CapacityCheck]
    fits: bool
    missing_amplification: float = Field(description="required / achieved reuse, at least 1")
    remedy: str


class LatencyHiding(_Result):
    """Little's law for the shared-memory fill (seed 001): bytes in flight = rate x latency."""

    l2_hit_rate: float
    mean_latency_cycles: float
    latency_known: bool
    fill_bytes_per_cycle_per_sm: float
    bytes_in_flight_per_sm: float
    stage_bytes: int
    stages_needed: int
    stages_given: int


class CrossSm(_Result):
    """The cross-SM half of the budget: cluster multicast, rasterization, occupancy, waves."""

    cluster: tuple[int, int]
    multicast_factor: float
    raster_order: str
    l2_sharing_factor: float
    in_sm_reuse: float
    dram_reuse: float
    dram_read_bytes: float
    dram_write_bytes: float
    compulsory_read_bytes: float
    raster: RasterTraffic
    occupancy: Occupancy
    waves: Waves
    latency: LatencyHiding


class LevelRoof(_Result):
    level: str
    traffic_bytes: float
    traffic_basis: str
    intensity_flop_per_byte: float
    bandwidth_gb_per_s: float
    balance_flop_per_byte: float
    bound_tflops: float
    verdict: Literal["compute-bound", "memory-bound"]


class TileInfo(_Result):
    cta: tuple[int, int, int]
    cta_origin: str
    register_tile: tuple[int, int]
    register_tile_granularity: str
    register_tile_origin: str
    warps: int
    stages: int
    smem_bytes: int
    registers_per_thread: float
    register_overhead: int = Field(description="registers per thread counted besides the tiles")


class GemmInfo(_Result):
    m: int
    n: int
    k: int
    dtype: str
    accumulator: str
    input_bytes: int
    output_bytes: int
    flops: float
    compulsory_bytes: float
    intensity_flop_per_byte: float


class MachineInfo(_Result):
    name: str
    file: str | None
    architecture: str
    compute_capability: str
    sm_count: int


class AnalysisResult(_Result):
    """Everything ``roofmodel analyze`` reports, as data."""

    schema_version: int = JSON_SCHEMA_VERSION
    roofmodel_version: str
    machine: MachineInfo
    gemm: GemmInfo
    levels: list[str]
    bandwidth_preference: Literal["spec", "measured"]
    compute_preference: Literal["spec", "measured"]
    pipe: PipeInfo
    tiles: TileInfo
    stages: list[StageResult]
    cross_sm: CrossSm
    roofs: list[LevelRoof]
    peak_tflops: float
    classic_bound_tflops: float
    hierarchical_bound_tflops: float
    limiting: str
    verdict: str
    amplification_bound_tflops: float = Field(description="peak x min over stages of min(1, achieved / required reuse)")
    notes: list[str]

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2, sort_keys=False) + "\n"


class MachineSummary(_Result):
    name: str
    full_name: str
    aliases: list[str]
    architecture: str
    compute_capability: str
    sm_count: int
    dtypes: list[str]
    spec_figures: int
    measured_figures: int
    # The newest date (YYYY-MM-DD) in the sources of figures roofmodel measured itself (calibrate, the
    # sweeps); None where every measured figure is published elsewhere or there is none.
    calibrated: str | None


class MachinesDocument(_Result):
    """``roofmodel machines --json``."""

    schema_version: int = JSON_SCHEMA_VERSION
    machines: list[MachineSummary]


class RasterDocument(_Result):
    """``roofmodel raster --json``: the chosen order with its first waves, and every order compared."""

    schema_version: int = JSON_SCHEMA_VERSION
    machine: MachineInfo
    gemm: GemmInfo
    tile: tuple[int, int, int]
    cluster: tuple[int, int]
    occupancy: Occupancy
    chosen: RasterTraffic
    orders: list[RasterTraffic]


def _schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://roofmodel.invalid/schema/{name}-v{JSON_SCHEMA_VERSION}.json"
    return schema


def analysis_json_schema() -> dict[str, Any]:
    """The JSON Schema of ``roofmodel analyze --json`` (docs/schema/analysis.schema.json)."""
    return _schema(AnalysisResult, "analysis")


def all_json_schemas() -> dict[str, dict[str, Any]]:
    """Every --json document's schema, by file stem under docs/schema/."""
    from roofmodel.backends.records import MeasureDocument
    from roofmodel.backends.validation import Validation
    from roofmodel.machine import MachineDocument
    from roofmodel.model.prediction import Prediction
    from roofmodel.search.space import ExploreReport, TuneReport

    return {
        "analysis": analysis_json_schema(),
        "machines": _schema(MachinesDocument, "machines"),
        "machine": _schema(MachineDocument, "machine"),
        "raster": _schema(RasterDocument, "raster"),
        "validation": _schema(Validation, "validation"),
        "prediction": _schema(Prediction, "prediction"),
        "measurement": _schema(MeasureDocument, "measurement"),
        "tune": _schema(TuneReport, "tune"),
        "explore": _schema(ExploreReport, "explore"),
    }


# ---------------------------------------------------------------------------------------------
# Text rendering


def _num(x: float, digits: int = 3) -> str:
    """Compact number: 3 significant digits, thousands separators for large values."""
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def _bytes(x: float) -> str:
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if x >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x:.0f} B"


def render_analysis(result: AnalysisResult, width: int = 120) -> str:
    """The report a kernel engineer reads in ten seconds, as plain text with rich tables."""
    import io

    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(width=width, force_terminal=False, color_system=None, file=out, highlight=False)
    r = result
    g = r.gemm
    p = r.pipe
    console.print(
        f"[b]{r.machine.name}[/b]  ({r.machine.architecture}, sm_{r.machine.compute_capability.replace('.', '')}, "
        f"{r.machine.sm_count} SMs)  file: {r.machine.file}"
    )
    console.print(
        f"GEMM {g.m} x {g.n} x {g.k} {g.dtype}: {_num(g.flops / 1e9)} GFLOP, compulsory traffic "
        f"{_bytes(g.compulsory_bytes)}, intensity {_num(g.intensity_flop_per_byte)} FLOP/B"
    )
    console.print(
        f"Pipe: {p.dtype} on {p.engine.replace('_', ' ')}s via {p.instruction}"
        f"{' ' + p.instruction_shape if p.instruction_shape else ''} (operands from {p.operands_from}); "
        f"{_num(p.fma_per_cycle_per_sm)} FMA/cycle/SM = {_num(p.peak_tflops)} TFLOPS at {p.clock_mhz:.0f} MHz "
        f"({p.clock_origin})"
    )
    t = r.tiles
    console.print(
        f"Tiles: CTA {t.cta[0]}x{t.cta[1]}x{t.cta[2]} ({t.cta_origin}); {t.register_tile_granularity} tile "
        f"{t.register_tile[0]}x{t.register_tile[1]} ({t.register_tile_origin}); {t.warps} warps, "
        f"{t.stages} stages, {_bytes(t.smem_bytes)} smem, {_num(t.registers_per_thread)} regs/thread"
    )
    console.print(
        f"Levels: {' -> '.join(r.levels)} -> core; bandwidth: {r.bandwidth_preference}, compute: {r.compute_preference}"
    )

    budget = Table(
        title=f"Amplification budget: the pipe needs {_num(r.stages[0].demand_bytes_per_cycle_per_sm)} B/cycle/SM of operands",
        title_justify="left",
    )
    for col in (
        "stage",
        "B/cycle/SM",
        "need reuse",
        "local",
        "min tile",
        "held by",
        "tile",
        "reuse",
        "slack",
        "fits",
        "missing",
    ):
        budget.add_column(col, justify="left" if col in ("stage", "held by") else "right")
    for s in r.stages:
        budget.add_row(
            s.name,
            _num(s.bandwidth_bytes_per_cycle_per_sm) + ("*" if s.bandwidth_assumed else ""),
            _num(s.required_reuse),
            _num(s.local_required_reuse),
            f"{_num(s.minimum_tile.real_edge)}->{s.minimum_tile_edge}",
            s.holder,
            f"{s.tile[0]}x{s.tile[1]}",
            _num(s.achieved_reuse),
            _num(s.slack),
            "yes" if s.fits else "NO",
            "-" if s.missing_amplification <= 1.0 else f"x{_num(s.missing_amplification)}",
        )
    console.print(budget)
    if any(s.bandwidth_assumed for s in r.stages):
        console.print("  * assumed: the machine file gives no figure (see notes)")
    for s in r.stages:
        rects = [f"{a}x{b}" for a, b in s.minimum_tile.pow2_rectangles if a * b < s.minimum_tile_edge**2]
        if rects:
            console.print(f"  {s.name}: smaller rectangular tiles reach the reuse too: {', '.join(rects)}")
    for s in r.stages:
        if not s.fits and s.missing_amplification > 1.0:
            bad = next(c for c in s.capacity_checks if not c.fits)
            console.print(
                f"  {s.name}: the {s.minimum_tile_edge}-edge tile does not fit: {bad.resource} needs "
                f"{_num(bad.need)} {bad.unit}, limit {_num(bad.limit)}; best feasible reuse {_num(s.max_feasible_reuse)}"
            )
        if s.missing_amplification > 1.0:
            console.print(f"  {s.name}: x{_num(s.missing_amplification)} missing -> {s.remedy}")

    _render_cross_sm(console, r)

    roofs = Table(title="Roofline per level", title_justify="left")
    for col in (
        "level",
        "traffic",
        "intensity FLOP/B",
        "bandwidth GB/s",
        "balance FLOP/B",
        "bound TFLOPS",
        "verdict",
    ):
        roofs.add_column(col, justify="left" if col in ("level", "verdict") else "right")
    for lv in r.roofs:
        roofs.add_row(
            lv.level,
            _bytes(lv.traffic_bytes),
            _num(lv.intensity_flop_per_byte),
            _num(lv.bandwidth_gb_per_s),
            _num(lv.balance_flop_per_byte),
            _num(lv.bound_tflops),
            lv.verdict,
        )
    console.print(roofs)
    console.print(
        f"Bounds: peak {_num(r.peak_tflops)}, classic roofline {_num(r.classic_bound_tflops)}, hierarchical "
        f"{_num(r.hierarchical_bound_tflops)}, amplification budget {_num(r.amplification_bound_tflops)} TFLOPS"
    )
    console.print(f"[b]Verdict:[/b] {r.verdict}")
    for note in r.notes:
        console.print(f"note: {note}")
    return out.getvalue()


def _render_cross_sm(console: Any, r: AnalysisResult) -> None:
    from rich.table import Table

    x = r.cross_sm
    occ, wv, lat = x.occupancy, x.waves, x.latency
    console.print(
        f"Across SMs: cluster {x.cluster[0]}x{x.cluster[1]} (multicast x{_num(x.multicast_factor)}), raster "
        f"{x.raster_order} (L2 sharing x{_num(x.l2_sharing_factor)}); {occ.ctas_per_sm} CTA/SM "
        f"({occ.warps_per_sm} warps, occupancy {occ.occupancy:.0%}, limited by {occ.limiter}); {wv.tiles} tiles in "
        f"{wv.waves} waves of {wv.concurrent} (last wave {wv.last_wave_efficiency:.0%} full, {wv.efficiency:.1%} overall)"
    )
    split = Table(title="In-SM and cross-SM reuse", title_justify="left")
    for col in ("stage", "need", "in-SM (tile)", "cross-SM", "achieved", "missing"):
        split.add_column(col, justify="left" if col == "stage" else "right")
    for s in r.stages:
        split.add_row(
            s.name,
            _num(s.required_reuse),
            _num(s.in_sm_reuse),
            f"x{_num(s.cross_sm_factor)}",
            _num(s.achieved_reuse),
            "-" if s.missing_amplification <= 1.0 else f"x{_num(s.missing_amplification)}",
        )
    console.print(split)
    console.print(
        f"DRAM traffic: reads {_bytes(x.dram_read_bytes)} (compulsory {_bytes(x.compulsory_read_bytes)}, "
        f"x{_num(x.dram_read_bytes / x.compulsory_read_bytes)}), writes {_bytes(x.dram_write_bytes)}; "
        f"L2 hit rate {lat.l2_hit_rate:.0%}"
    )
    if lat.latency_known:
        console.print(
            f"Latency: {_num(lat.fill_bytes_per_cycle_per_sm)} B/cycle/SM into smem x {_num(lat.mean_latency_cycles)} "
            f"cycles = {_bytes(lat.bytes_in_flight_per_sm)} in flight per SM; stages of {_bytes(lat.stage_bytes)}: "
            f"{lat.stages_needed} needed, {lat.stages_given} given"
        )
