"""Text rendering of results (rich tables). Nothing below the CLI imports this module: the
computations own their result types, and this layer only draws them."""

from __future__ import annotations

from typing import Any

from roofmodel.api import SideBySide
from roofmodel.model.analysis import AnalysisResult

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


def render_side_by_side(doc: SideBySide, width: int = 120) -> str:
    """One column a machine: the same GEMM's peak, balance point, reuse and minimum tile per stage,
    limiting stage and bound (analyze), and the best Triton kernel with its predicted time (tune)."""
    import io

    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(width=width, force_terminal=False, color_system=None, file=out, highlight=False)
    g = doc.gemm
    cols = doc.columns
    table = Table(title=f"{g.m}x{g.n}x{g.k} {g.dtype} GEMM ({g.accumulator} accumulate), one column a machine")
    table.add_column("")
    for c in cols:
        table.add_column(c.machine, justify="right")
    table.add_row("machine", *[c.name for c in cols])
    table.add_row("figures", *[f"calibrated {c.calibrated}" if c.calibrated else "spec / published" for c in cols])
    table.add_row("peak (TFLOPS)", *[_num(c.peak_tflops) for c in cols])
    table.add_row("DRAM (GB/s)", *[_num(c.dram_gb_per_s) for c in cols])
    table.add_row("DRAM balance (FLOP/B)", *[_num(c.dram_balance_flop_per_byte) for c in cols])
    stages = list(dict.fromkeys(name for c in cols for name in c.required_reuse))
    for name in stages:
        table.add_row(
            f"{name}: reuse / min tile",
            *[
                f"{_num(c.required_reuse[name])} / {c.minimum_tile_edge[name]}" if name in c.required_reuse else "-"
                for c in cols
            ],
        )
    table.add_row("limiting stage", *[c.limiting for c in cols])
    table.add_row("hierarchical bound (TFLOPS)", *[_num(c.hierarchical_bound_tflops) for c in cols])
    table.add_row("best Triton kernel", *[c.best_config.replace(" reg ", "\nreg ") for c in cols])
    table.add_row("  its limiter", *[c.best_limiter for c in cols])
    table.add_row("  predicted", *[f"{c.best_seconds * 1e3:.4g} ms, {_num(c.best_tflops)} TFLOPS" for c in cols])
    console.print(table)
    return out.getvalue()
