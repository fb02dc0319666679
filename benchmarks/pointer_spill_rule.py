"""How footprint.POINTER_SPILL_FACTOR and POINTER_SPILL_WAITS were fitted: over the read sweeps' Triton wgmma kernels
whose K-major element pointers take them past the per-thread limit by the register rule (footprint.kernel_footprint's
``pointer_excess``: the pointers that do not fit) and nothing else does (no accumulator spilled by the rule), with the
compiled loop's local bytes and waits counted in the SASS (loop_local.csv), the medians of

    loop local bytes / 8 / excess      (registers stored and reloaded an iteration, per pointer register that does not fit)
    loop waits / excess                (times a warp waits on its local reloads an iteration, per such register)
    compiled spills / excess           (shown, not used)

The read sweeps: the H100's 2026-11-23 (its held-out shapes left out) to fresh18 and the H200's to fresh44
(read_samples.read_h100, read_h200); the same compiler made both's counts, so they differ only in the kernels drawn.

With --collapsed, the same medians over the kernels past POINTER_COLLAPSE whose K-major element pointers spill with the
rest (``collapse_excess``: the rule's whole excess), on the read sweeps to the H200's fresh48 (COLLAPSED_ON), which bear
out the factors on that excess too; and how many of them compiled without spilling. With --collapsed-mn, the same over
the kernels past it whose operands loaded one element at a time are all M- or N-major (no K-major one) and whose other
registers fit the limit within POINTER_ALONE_TOLERANCE, which the rule charges so (pre-registered in 7ea165e, landed in
4b60f34: ``collapse_mn_major``), on the read sweeps to the H200's fresh69 (COLLAPSED_MN_ON), by element width too; and
the same over those whose other registers pass the limit too (their excess: the rule's spills, its accumulators'
fragments), which the rule leaves out.

With --barely, what POINTER_ALONE_TOLERANCE rests on, over the read sweeps to the H200's fresh50 (BARELY_ON): the
register rule's median and p90 |compiled - rule| over the wgmma kernels that do not spill (nor have pointers the rule
spills, nor are register gambles), and, for the wgmma kernels below the collapse point whose K-major pointers the rule
spills and whose other registers pass the limit too, by how much they pass it (within the tolerance or beyond), the
medians of their loop registers and waits over the pointer excess.

    python benchmarks/pointer_spill_rule.py [--collapsed | --collapsed-mn | --barely]
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.read_samples import DATA, read_h100, read_h200
from roofmodel.backends.broad import INPUT_BYTES, BroadRecord, Evaluator, read_broad_csv
from roofmodel.errors import ProblemError
from roofmodel.machine import load_machine
from roofmodel.model.footprint import (
    FAMILIES,
    POINTER_ALONE_TOLERANCE,
    past_collapse_point,
    past_limit_without_pointers,
)
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import operand_staging

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(44)}
LIMIT = load_machine("h200").limits.max_registers_per_thread.n  # the H100's alike
COLLAPSED_ON = {"h100": read_h100(18), "h200": read_h200(48)}
COLLAPSED_MN_ON = {"h100": read_h100(18), "h200": read_h200(69)}
BARELY_ON = {"h100": read_h100(18), "h200": read_h200(50)}


def triton_kernels(
    gpu: str, samples: tuple[str, ...], family: str
) -> Iterator[tuple[str, BroadRecord, dict[str, Any]]]:
    """Every sweep kernel of the read ``samples`` (the held-out shapes of 2026-11-23 left out) that Triton compiled to
    ``family`` and Triton's rule gives that family too: (sample, record, its footprint by the register rule, as
    `predict --kernel triton` states it)."""
    ev = Evaluator(load_machine(gpu), 1980.0)
    for d in samples:
        for r in read_broad_csv(DATA / d / "broad.csv"):
            if r.set != "sweep" or r.instruction != family or (d.endswith("2026-11-23") and r.split == "holdout"):
                continue
            try:
                cfg = triton_config(ev.machine, r.dtype, block_m=r.block_m, block_n=r.block_n, block_k=r.block_k,
                                    group_m=r.group_m, num_warps=r.num_warps, num_stages=r.num_stages)  # fmt: skip
            except ProblemError:
                continue
            if cfg.instruction == family:
                yield d, r, ev.footprint(r, compiled=False, family=family)


def counted_row(gpu: str, sample: str, r: BroadRecord, excess: float) -> dict[str, Any]:
    """A kernel's excess by the rule and its compiled counts (``loop`` and ``waits`` None where it did not spill)."""
    counted = r.loop_local_bytes is not None
    return dict(gpu=gpu, sample=sample, excess=excess, spilled=r.spilled_registers, dtype=r.dtype,
                loop=r.loop_local_bytes / 8 if counted else None, waits=r.loop_local_waits if counted else None)  # fmt: skip


def narrow_mn_major_only(r: BroadRecord) -> bool:
    """Whether the kernel has operands loaded one element at a time and all of them M- or N-major (operand_staging,
    Triton's)."""
    fi = FAMILIES.index("wgmma")
    staging = operand_staging(True, fi, INPUT_BYTES[r.dtype], r.m, r.n, r.k, r.a_major == "m", r.b_major == "n",
                              r.block_m, r.block_n)  # fmt: skip
    return bool(staging["narrow_rows"] > 0) and not bool(staging["narrow_k_major"])


def pointer_rows(gpu: str, samples: tuple[str, ...], collapsed: bool = False,
                 mn_major: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """One row per kernel the fit reads (counted_row): the kernels whose K-major pointers alone the rule spills, that
    spilled as compiled, and their pointer excess; with ``collapsed``, the kernels past the collapse point whose
    K-major element pointers spill with the rest (with ``mn_major``, whose M- or N-major ones do:
    ``collapse_mn_major``) and their whole excess, spilled or not."""
    out = []
    for d, r, fp in triton_kernels(gpu, samples, "wgmma"):
        if collapsed:
            excess = float(fp["collapse_excess"])
            if bool(fp["collapse_mn_major"]) != mn_major:
                continue
        else:
            excess = float(fp["pointer_excess"])
            if r.loop_local_bytes is None or float(fp["spilled"]) != float(fp["pointer_spilled"]):
                continue
        if excess > 0:
            out.append(counted_row(gpu, d, r, excess))
    return out


def collapsed_rest_past_rows(gpu: str, samples: tuple[str, ...]) -> list[dict[str, Any]]:
    """The kernels past the collapse point whose operands loaded one element at a time are all M- or N-major and whose
    other registers pass the limit beyond POINTER_ALONE_TOLERANCE, which the collapse rule leaves out: counted_row
    with the rule's spills (its accumulators' fragments) as the excess."""
    out = []
    for d, r, fp in triton_kernels(gpu, samples, "wgmma"):
        past = past_collapse_point(float(fp["needed"]), LIMIT) and not float(fp["collapse_excess"])
        if past and float(fp["spilled"]) > 0 and narrow_mn_major_only(r):
            out.append(counted_row(gpu, d, r, float(fp["spilled"])))
    return out


def fitted(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of loop bytes / 8, waits and compiled spills, each over the excess (of the kernels that spilled)."""
    spilled = [r for r in rows if r["loop"] is not None]
    return {k: statistics.median(r[k] / r["excess"] for r in spilled) for k in ("loop", "waits", "spilled")}


def fit_groups(rows: dict[str, list[dict[str, Any]]], key: str | None = None,
               label: str = "") -> list[tuple[str, list[dict[str, Any]]]]:  # fmt: skip
    """The groups a fit script prints: per GPU, then per value of the rows' ``key`` where given (named ``label`` and
    the value), then all together ("both")."""
    every = [r for v in rows.values() for r in v]
    by = (
        []
        if key is None
        else [(f"{label}{x}", [r for r in every if r[key] == x]) for x in sorted({r[key] for r in every})]
    )
    return [*rows.items(), *by, ("both", every)]


def print_fit(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Per GPU and both together: how many kernels, how many compiled without spilling, and the medians (fitted)."""
    for name, v in fit_groups(rows):
        f = fitted(v)
        kept = sum(r["loop"] is None for r in v)
        print(f"{name}: {len(v)} kernels, {kept} compiled without spilling; median loop registers / excess "
              f"{f['loop']:.3f}, waits / excess {f['waits']:.3f}, compiled spills / excess {f['spilled']:.3f}")  # fmt: skip


def rule_error(on: dict[str, tuple[str, ...]]) -> list[float]:
    """|compiled registers - the rule's| of every wgmma kernel of the samples that spilled nothing as compiled and that
    the rule has within the limit, spilling no pointers and calling no register gamble."""
    out = []
    for gpu, samples in on.items():
        for _, r, fp in triton_kernels(gpu, samples, "wgmma"):
            fits = float(fp["needed"]) <= LIMIT and not float(fp["pointer_excess"]) and not bool(fp["gamble"])
            if r.spilled_registers == 0 and fits:
                out.append(abs(r.registers_per_thread - float(fp["needed"])))
    return out


def barely_rows(on: dict[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    """The wgmma kernels below the collapse point whose K-major pointers the rule spills and whose other registers pass
    the limit too: counted_row with the pointer excess, and ``past``, by how many registers those others pass it."""
    out = []
    for gpu, samples in on.items():
        for d, r, fp in triton_kernels(gpu, samples, "wgmma"):
            excess = float(fp["pointer_excess"])
            past = float(past_limit_without_pointers(fp, LIMIT))
            if excess > 0 and not float(fp["collapse_excess"]) and past > 0:
                out.append({**counted_row(gpu, d, r, excess), "past": past})
    return out


def print_barely(on: dict[str, tuple[str, ...]]) -> None:
    """The rule's error, and the kernels just past the limit without their pointers against those further past."""
    err = sorted(rule_error(on))
    print(f"the register rule on {len(err):,} wgmma kernels that do not spill: median |compiled - rule| "
          f"{statistics.median(err):.0f}, p90 {err[9 * len(err) // 10]:.0f} (POINTER_ALONE_TOLERANCE "
          f"{POINTER_ALONE_TOLERANCE})")  # fmt: skip
    rows = barely_rows(on)
    for name, v in (("within", [r for r in rows if r["past"] <= POINTER_ALONE_TOLERANCE]),
                    ("beyond", [r for r in rows if r["past"] > POINTER_ALONE_TOLERANCE])):  # fmt: skip
        f = fitted(v)
        past = sorted({int(r["past"]) for r in v})
        print(f"past the limit without the pointers by {past} ({name} the tolerance): {len(v)} kernels; median loop "
              f"registers / pointer excess {f['loop']:.2f}, waits / pointer excess {f['waits']:.2f}")  # fmt: skip


def main() -> None:
    if "--barely" in sys.argv[1:]:
        print_barely(BARELY_ON)
        return
    mn_major = "--collapsed-mn" in sys.argv[1:]
    collapsed = mn_major or "--collapsed" in sys.argv[1:]
    on = COLLAPSED_MN_ON if mn_major else COLLAPSED_ON if collapsed else FITTED_ON
    print_fit({gpu: pointer_rows(gpu, samples, collapsed, mn_major) for gpu, samples in on.items()})
    if mn_major:
        print("the same by element width:")
        print_fit({width: [r for gpu, samples in on.items() for r in pointer_rows(gpu, samples, True, True)
                           if (r["dtype"] == "fp8") == (width == "fp8")] for width in ("fp8", "16-bit")})  # fmt: skip
        print("where the rest passes the limit too (left to the fragments' rule):")
        print_fit({gpu: collapsed_rest_past_rows(gpu, samples) for gpu, samples in on.items()})


if __name__ == "__main__":
    main()
