"""Text rendering of results (rich tables). Nothing below the CLI imports this module: the
computations own their result types, and this layer only draws them."""

from __future__ import annotations

from typing import Any

from roofmodel.api import SideBySide
from roofmodel.model.analysis import AnalysisResult
from roofmodel.model.footprint import REGISTER_GAMBLE

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
        f"[b]{r.machine.name}[/b]  ({r.machine.architecture}, {r.machine.target}, "
        f"{r.machine.sm_count} {r.machine.sm_unit})  file: {r.machine.file}"
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
            _num(lv.bandwidth_gb_per_s) + ("*" if lv.bandwidth_assumed else ""),
            _num(lv.balance_flop_per_byte),
            _num(lv.bound_tflops),
            lv.verdict,
        )
    console.print(roofs)
    if any(lv.bandwidth_assumed for lv in r.roofs):
        console.print("  * assumed: the machine file gives no figure (see notes)")
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
        + (f"the L2s read {_bytes(x.llc_read_bytes)} from the last-level cache; " if x.llc_read_bytes else "")
        + f"L2 hit rate {lat.l2_hit_rate:.0%}"
        + (
            f" ({x.l2_partitions} private L2s, "
            + (
                "each running a contiguous share of the order)"
                if x.raster_order.endswith("+remap")
                else "tiles dealt round-robin)"
            )
            if x.l2_partitions > 1
            else ""
        )
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
    stages = list(dict.fromkeys(name for c in cols for name in [*c.required_reuse, *c.stages_without_bandwidth]))
    for name in stages:
        table.add_row(
            f"{name}: reuse / min tile",
            *[
                f"{_num(c.required_reuse[name])} / {c.minimum_tile_edge[name]}"
                if name in c.required_reuse
                else "no bandwidth figure"
                if name in c.stages_without_bandwidth
                else "-"
                for c in cols
            ],
        )
    table.add_row("limiting stage", *[c.limiting for c in cols])
    table.add_row("hierarchical bound (TFLOPS)", *[_num(c.hierarchical_bound_tflops) for c in cols])
    if any(c.kernel_config for c in cols):
        table.add_row("the kernel stated", *[(c.kernel_config or "-").replace(" reg ", "\nreg ") for c in cols])
        table.add_row("  its limiter", *[c.kernel_limiter or "-" for c in cols])
        table.add_row(
            "  predicted",
            *[f"{format_seconds(c.kernel_seconds)}, {_num(c.kernel_tflops or 0)} TFLOPS" if c.kernel_seconds else "-"
              for c in cols],
        )  # fmt: skip
    table.add_row(f"best kernel ({doc.space} space)", *[c.best_config.replace(" reg ", "\nreg ") for c in cols])
    table.add_row("  its limiter", *[c.best_limiter for c in cols])
    table.add_row("  predicted", *[f"{format_seconds(c.best_seconds)}, {_num(c.best_tflops)} TFLOPS" for c in cols])
    console.print(table)
    return out.getvalue()


def time_unit(seconds: float) -> tuple[str, float]:
    """(unit, scale) to print a kernel time with: ms from 10 µs up (the usual case), else µs."""
    return ("ms", 1e3) if seconds >= 1e-5 else ("µs", 1e6)


def format_seconds(seconds: float) -> str:
    """A kernel time with at least four significant digits: '0.2151 ms', '7.081 µs'."""
    unit, scale = time_unit(seconds)
    return f"{seconds * scale:.4f} {unit}" if unit == "ms" else f"{seconds * scale:.4g} {unit}"


def format_rate(flops_per_second: float) -> str:
    """A FLOP rate: '612.3 TFLOPS' from 0.1 TFLOPS up, else GFLOPS/MFLOPS/... with four significant digits."""
    if flops_per_second >= 1e11:
        return f"{flops_per_second / 1e12:,.1f} TFLOPS"
    for unit, scale in (("GFLOPS", 1e9), ("MFLOPS", 1e6), ("kFLOPS", 1e3)):
        if flops_per_second >= scale:
            return f"{flops_per_second / scale:.4g} {unit}"
    return f"{flops_per_second:.4g} FLOPS"


def render_machines(rows: list[dict[str, Any]]) -> str:
    """One line a machine, the columns as wide as their longest entry."""
    table = [["name", "machine", "arch", "cc", "SMs", "figures", "dtypes / aliases"]]
    for r in rows:
        if r["calibrated"]:
            figures = f"calibrated {r['calibrated']}: {r['measured_figures']} measured, {r['spec_figures']} spec"
        elif r["measured_figures"]:
            figures = f"{r['measured_figures']} measured (published), {r['spec_figures']} spec"
        else:
            figures = f"spec only: {r['spec_figures']} figures"
        table.append([r["name"], r["full_name"], r["architecture"], r["compute_capability"], str(r["sm_count"]),
                      figures, f"{','.join(r['dtypes'])} / {','.join(r['aliases'])}"])  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
    lines = []
    for row in table:
        cells = [c.rjust(w) if i == 4 else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=False))]
        lines.append("  ".join([*cells, row[-1]]))
    return "\n".join(lines) + "\n"


def render_machine(mach: Any) -> str:
    from roofmodel.machine.summary import quantities_of

    data = mach.model_dump(mode="json", exclude_none=True)
    lines = [
        f"{mach.name} ({mach.architecture}, compute capability {mach.compute_capability})",
        f"file: {mach.source_file}",
    ]
    for pipe_name, pipe in mach.compute.items():
        fams = ", ".join(
            f"{i.family}{' ' + i.shape if i.shape else ''} (operands from {i.operands_from})" for i in pipe.instructions
        )
        lines.append(f"compute.{pipe_name}: {pipe.engine}; {fams}")
    if mach.cluster is not None:
        lines.append(f"cluster.tma_multicast: {mach.cluster.tma_multicast}")
    width = max(len(p) for p, _ in quantities_of(data))
    for path, q in quantities_of(data):
        lines.append(f"{path:<{width}}  {q['value']:>10g} {q['unit']:<13} {q['kind']:<8}  {q['source']}")
    for path, why in mach.unpublished.items():
        lines.append(f"{path:<{width}}  {'unpublished':>24} {'':<8}  {why}")
    return "\n".join(lines) + "\n"


def time_parts(p: Any) -> str:
    """How a prediction's total is formed: the launch plus the p-norm of the busiest SM's time and the memory time
    (cta_model.ISSUED_OVERLAP_NORM for an mma.sync kernel, OVERLAP_NORM for the rest; the larger of the two where p
    is infinity), and how the memory time combines its terms."""
    norm = (
        "the larger of DRAM and L2"
        if p.memory_norm is None
        else f"(DRAM^q + L2^q)^(1/q), q = {p.memory_norm:g}: DRAM's bytes are written into the L2 as they are read"
    )
    llc = ", at least the LLC's" if any(t.name == "LLC" and t.seconds > 0 for t in p.terms) else ""
    if any(t.name == "issued copies" and t.seconds >= p.memory_seconds > 0 for t in p.terms):
        norm = f"the issued copies (every stage copy at the L2 path's rate, the masked ones too), more than {norm}"
    how = "the larger of" if p.overlap_norm is None else f"(sm^p + memory^p)^(1/p), p = {p.overlap_norm:g}, of"
    return (f"({how} busiest SM {format_seconds(p.sm_seconds)}, memory {format_seconds(p.memory_seconds)}: "
            f"{norm}{llc})")  # fmt: skip


def render_prediction(machine: str, g: Any, p: Any) -> str:
    spill = f", {p.spilled_registers} spilled" if p.spilled_registers else ""
    unit, scale = time_unit(p.seconds)
    lines = [
        f"{machine}: {g.m}x{g.n}x{g.k} {g.dtype}, A {p.a_major}-major, B {p.b_major}-major; kernel {p.kernel}",
        f"  ({p.kernel_origin})",
        f"{p.registers_per_thread} registers per thread{spill} ({p.registers_origin}), {p.shared_bytes:,} B shared "
        f"memory, {p.ctas_per_sm} CTA/SM (limited by {p.occupancy_limiter})",
        f"clock {p.clock_mhz:.0f} MHz: {p.clock_origin}",
        f"predicted {format_seconds(p.seconds)} = {format_rate(p.tflops * 1e12)}, limited by {p.limiter} "
        f"{time_parts(p)}",
        "what the time is made of, each as if it were alone, largest first:",
    ]
    for term in p.terms:
        lines.append(f"  {term.name:<17} {_time_cell(term.seconds, scale)} {unit}  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in p.inputs))
    return "\n".join(lines) + "\n"


def render_tune(rep: Any) -> str:
    unit, scale = time_unit(rep.top[0].seconds)
    lines = [
        f"{rep.machine}: {rep.gemm} (A {rep.a_major}-major, B {rep.b_major}-major), space {rep.space}: "
        f"{rep.considered:,} configurations, {rep.feasible:,} fit; "
        f"{rep.evaluated_exactly:,} evaluated exactly ({rep.raster_keys} raster-model keys), the rest bounded out",
        f"clock {rep.clock_mhz:.0f} MHz: {rep.clock_origin}",
    ]
    if rep.compiled:
        c = rep.top[0].compiled
        lines.append(f"compiled the first {rep.compiled} by the register rule, each timed as if its bet on registers were won "
                     f"(the first {rep.compile_top}, then on while the next one's time by the rule could beat the best "
                     f"compiled; a tile's raster copies share its compile) with Triton {c.triton} (ptxas {c.ptxas}, "
                     f"{c.target}) and ranked them by what ptxas gave each"
                     + (f"; Triton refused {len(rep.compile_refused)}: {rep.compile_refused[0]}"
                        if rep.compile_refused else ""))  # fmt: skip
    lines.append(f"{'#':>3}  {'configuration':<58} {unit:>9} {'TFLOPS':>8}  {'limited by':<14} against the first")
    for r in rep.top:
        lines.append(f"{r.rank:>3}  {r.config.label():<58} {_time_cell(r.seconds, scale)} {_tflops_cell(r.tflops)}  "
                     f"{r.limiter:<14} {r.note}")  # fmt: skip
    lines.append(f"why: {rep.why}")
    lines.extend(f"caveat: {c}" for c in rep.caveats)
    lines.append(f"the first: {format_seconds(rep.winner.seconds)}, the launch and {time_parts(rep.winner)[1:-1]}")
    lines.append("what the first's time is made of, each as if it were alone, largest first:")
    for term in rep.winner.terms:
        lines.append(f"  {term.name:<17} {_time_cell(term.seconds, scale)} {unit}  {term.detail}")
    lines.append("inputs: " + "; ".join(f"{i.field} = {i.value:g} {i.unit} ({i.kind})" for i in rep.inputs))
    return "\n".join(lines) + "\n"


def render_explore(rep: Any) -> str:
    lines = [
        f"{rep.machine}: {rep.gemm}, space {rep.space}; kernel held fixed ({rep.kernel_origin}): {rep.kernel.label()}"
    ]
    for name in dict.fromkeys(p.parameter for p in rep.points):
        pts = [p for p in rep.points if p.parameter == name]
        lines.append(f"{name} ({pts[0].unit}):")
        lines.append(
            f"  {'value':>10}  {'best configuration':<58} {'TFLOPS':>8}  {'limited by':<14} {'fixed kernel':>12}"
        )
        for p in pts:
            kt = (f"{_tflops_cell(p.kernel_tflops)} ({p.kernel_limiter})" if p.kernel_tflops is not None
                  else "does not fit")  # fmt: skip
            lines.append(f"  {p.value:10,.4g}  {p.best:<58} {_tflops_cell(p.best_tflops)}  {p.best_limiter:<14} {kt}")
    lines.append("sensitivity of the fixed kernel's time at the base machine (d ln time / d ln parameter, +10%):")
    for sv in rep.sensitivity:
        lines.append(f"  {sv.parameter:<26} {sv.elasticity:+.3f}  (base {sv.base_value:,.4g} {sv.unit})")
    lines.append(f"most sensitive to: {rep.most_sensitive}")
    return "\n".join(lines) + "\n"


def render_ranking(r: Any, top: int | None) -> str:
    unit, scale = time_unit(min((x.seconds for x in r.ranked), default=1.0))
    order = "fastest first" + (", register gambles last" if any(x.register_gamble for x in r.ranked) else "")
    lines = [f"{r.machine}: {r.configs} configurations from {r.source}, {r.problems} problem(s), {order}"]
    head = f"{'#':>4} {'row':>5}  {'configuration':<44} {unit:>9} {'TFLOPS':>8}  {'limited by':<17} {'regs':>9}"
    prev = None
    for x in r.ranked:
        if top is not None and x.rank > top:
            continue
        if x.gemm != prev:
            lines += [x.gemm, head + ("  measured TFLOPS, error" if x.measured_seconds else "")]
            prev = x.gemm
        regs = f"{x.registers_per_thread}" + (f"+{x.spilled_registers}" if x.spilled_registers else "")
        regs += "*" if x.loop_spilled_registers < x.spilled_registers else ""
        regs += "?" if x.register_gamble else ""
        meas = (
            f"  {_tflops_cell(x.measured_tflops)} {x.error_pct:+6.1f}%"
            if x.measured_tflops and x.error_pct is not None
            else ""
        )
        lines.append(f"{x.rank:>4} {x.row:>5}  {x.config:<44} {_time_cell(x.seconds, scale)} {_tflops_cell(x.tflops)}  "
                     f"{x.limiter:<17} {regs:>9}{meas}")  # fmt: skip
    if any(x.loop_spilled_registers < x.spilled_registers for x in r.ranked if top is None or x.rank <= top):
        lines.append("regs N+S: registers and spilled registers per thread as compiled; *: none of them reloaded "
                     "in the main loop (what the loop holds fits the allocation), so not charged")  # fmt: skip
    if any(x.register_gamble for x in r.ranked if top is None or x.rank <= top):
        lines.append(f"?: a register gamble, ranked after every configuration that is not one: {REGISTER_GAMBLE}")
    if r.spearman is not None:
        lines.append(f"Spearman (predicted vs measured time) {r.spearman:.2f}; the measured fastest is ranked "
                     f"{r.best_measured_rank}; the first runs at {r.first_over_best:.0%} of the fastest's speed")  # fmt: skip
    return "\n".join(lines) + "\n"


def render_raster(result: Any, table: list[Any], waves_shown: int, caveat: str = "") -> str:
    """`roofmodel raster`'s text: the first waves, the tile grid, every order's traffic and ``caveat``
    (rasterization.drifting_rows_caveat) where there is one."""
    x = result.cross_sm
    r = x.raster
    unit = "cluster" if x.cluster != (1, 1) else "CTA"
    lines = [
        f"{result.machine.name}: {result.gemm.m}x{result.gemm.n}x{result.gemm.k} {result.gemm.dtype}, tile "
        f"{result.tiles.cta[0]}x{result.tiles.cta[1]}, cluster {x.cluster[0]}x{x.cluster[1]}: "
        f"{r.tiles_m} x {r.tiles_n} {unit} tiles, {r.concurrent} at a time "
        f"({x.occupancy.ctas_per_sm} CTA/SM), {r.waves} waves",
        f"order {r.order}; cache model: {r.cache_assumption}",
        "",
    ]
    for wv in r.first_waves[:waves_shown]:
        lines.append(
            f"wave {wv.wave}: {wv.tiles} tiles, {wv.unique_a_panels} distinct A panels + {wv.unique_b_panels} "
            f"distinct B panels; sharing x{wv.sharing_factor:.2f}; footprint {wv.footprint_bytes / 2**20:.1f} MiB; "
            + (
                f"reads from the LLC {wv.dram_read_bytes / 2**20:.1f} MiB (L2 slice 0)"
                if x.llc_read_bytes is not None
                else f"DRAM reads {wv.dram_read_bytes / 2**20:.1f} MiB"
            )
        )
    if r.tiles_m <= 64 and r.tiles_n <= 96 and r.first_waves:
        grid = [["." for _ in range(r.tiles_n)] for _ in range(r.tiles_m)]
        for wv in r.first_waves[:waves_shown]:
            for row, col in zip(wv.tile_rows, wv.tile_cols, strict=True):
                grid[row][col] = str(wv.wave % 10)
        lines.append("tile grid (rows = M tiles, columns = N tiles; digit = wave, '.' = later):")
        lines += ["  " + "".join(row) for row in grid]
    lines.append("")
    head = f"{'order':<14}{'DRAM reads':>12}{'x compulsory':>14}{'writes':>10}{'L2 sharing':>12}{'per wave':>10}"
    lines.append(head)
    for t in table:
        mark = " <-" if t.order == r.order else ""
        lines.append(
            f"{t.order:<14}{t.dram_read_bytes / 2**20:>9.0f} MiB{t.dram_read_bytes / t.compulsory_read_bytes:>14.2f}"
            f"{t.dram_write_bytes / 2**20:>6.0f} MiB{t.sharing_factor:>12.2f}{t.mean_wave_sharing_factor:>10.2f}{mark}"
        )
    lines.append(f"compulsory reads {r.compulsory_read_bytes / 2**20:.0f} MiB ({r.compulsory_read_bytes:.0f} B)")
    if caveat:
        lines.append("measured, not modelled: " + caveat)
    return "\n".join(lines) + "\n"


def render_overlay(overlay: dict[str, Any], device: str, base: str) -> str:
    import yaml

    header = f"# Written by roofmodel calibrate: measured ceilings of {device} over {base}.\n"
    return header + yaml.safe_dump(overlay, sort_keys=False, width=200)


def render_measurement(record: Any, pred: dict[str, float], prov: Any) -> str:

    r = record
    lines = [
        f"{prov.device}: {r.m}x{r.n}x{r.k} {r.dtype}, tile {r.block_m}x{r.block_n}x{r.block_k}, GROUP_M {r.group_m}, "
        f"{r.num_warps} warps, {r.num_stages} stages ({r.registers_per_thread} regs, {r.shared_bytes} B smem)",
        f"measured {format_seconds(r.time_ms * 1e-3)} = {format_rate(r.tflops * 1e12)} (relative error "
        f"{r.rel_error:.2g}); SM clock median {prov.sm_clock_mhz_median or float('nan'):.0f} MHz",
        f"model: {pred['ctas_per_sm']} CTA/SM, {pred['waves']} waves; DRAM reads predicted "
        f"{pred['dram_read_bytes'] / 2**20:.1f} MiB, writes {pred['dram_write_bytes'] / 2**20:.1f} MiB",
    ]
    if r.dram_read_bytes is not None:
        lines.append(
            f"counted (ncu): DRAM reads {r.dram_read_bytes / 2**20:.1f} MiB, writes "
            f"{(r.dram_write_bytes or 0) / 2**20:.1f} MiB, L2 hit rate {r.l2_hit_rate_pct:.1f}%"
        )
    return "\n".join(lines) + "\n"


def _time_cell(seconds: float, scale: float) -> str:
    """A time in a column of width 9: four decimals of ms, three of µs."""
    return f"{seconds * scale:9.4f}" if scale == 1e3 else f"{seconds * scale:9.3f}"


def _tflops_cell(tflops: float) -> str:
    """TFLOPS in a column of width 8: one decimal, or two significant digits below 0.1."""
    return f"{tflops:8.1f}" if tflops >= 0.1 or tflops == 0 else f"{tflops:8.2g}"
