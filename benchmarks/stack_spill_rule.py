"""How footprint.STACK_LOOP_FACTOR and STACK_WAITS were fitted: over the read sweeps' Triton mma.sync kernels that the
register rule sends to 32 registers and the stack (footprint.kernel_footprint's ``stack_excess`` > 0: the element
pointers of a 16- or 8-bit operand loaded one element at a time take it past STACK_COLLAPSE x the limit) and that
compiled to 32 registers, with the compiled loop's local bytes and waits counted in the SASS (loop_local.csv), the
medians of

    loop local bytes / 8 / excess      (registers stored and reloaded an iteration, per register past the 32)
    loop waits / excess                (times a warp waits on its local reloads an iteration, per such register)
    compiled spills / excess           (what the stack holds: shown, not used; the rule keeps COLLAPSED_SPILL_FACTOR)

excess = ceil(needed) - 32, per GPU, per BK and all together; and how many of the kernels the rule sends there
compiled to more registers (the collapse called wrongly: left out of the medians), and where they landed. The read
sweeps: the H100's 2026-11-23 (its held-out shapes left out) to fresh18 and the H200's to fresh52, less the unread
fresh51 (read_samples.read_h100, read_h200); the same compiler made both's counts.

    python benchmarks/stack_spill_rule.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.pointer_spill_rule import counted_row, fit_groups, fitted, triton_kernels
from benchmarks.read_samples import read_h100, read_h200
from roofmodel.model.footprint import COLLAPSED_REGISTERS

FITTED_ON = {"h100": read_h100(18), "h200": read_h200(52)}


def stack_rows(gpu: str, samples: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per kernel the rule sends to the stack (pointer_spill_rule.counted_row, over ``stack_excess``), with
    its BK and whether it compiled to the rule's 32 registers (``collapsed``)."""
    return [{**counted_row(gpu, d, r, float(fp["stack_excess"])), "bk": r.block_k, "registers": r.registers_per_thread,
             "collapsed": r.registers_per_thread == COLLAPSED_REGISTERS}
            for d, r, fp in triton_kernels(gpu, samples, "mma.sync") if float(fp["stack_excess"]) > 0]  # fmt: skip


def collapsed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows the medians are taken over: the kernels that compiled to the rule's 32 registers and spilled."""
    return [r for r in rows if r["collapsed"] and r["loop"] is not None]


def not_collapsed(rows: list[dict[str, Any]]) -> str:
    """Where the kernels the rule sends to the stack that did not compile to 32 registers landed: how many at 255, at
    fewer, and how many spilled nothing."""
    off = [r for r in rows if not r["collapsed"]]
    at_limit = sum(r["registers"] == 255 for r in off)
    low = min((r["registers"] for r in off if r["registers"] < 255), default=None)
    fewer = f"{len(off) - at_limit} at {low}-254" if low is not None else "none at fewer"
    return f"{at_limit} at 255 registers, {fewer}, {sum(r['spilled'] == 0 for r in off)} spilling nothing"


def print_fit(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Per GPU, per BK and all together: how many kernels collapsed as the rule says (and how many did not), and the
    medians over the excess of those that did."""
    for name, v in fit_groups(rows, "bk", "BK "):
        on = collapsed(v)
        f = fitted(on)
        print(f"{name}: {len(v)} kernels, {len(on)} at {COLLAPSED_REGISTERS} registers, {len(v) - len(on)} not "
              f"({not_collapsed(v)}); median loop registers / excess {f['loop']:.3f}, waits / excess {f['waits']:.3f}, "
              f"compiled spills / excess {f['spilled']:.3f}")  # fmt: skip


def main() -> None:
    print_fit({gpu: stack_rows(gpu, samples) for gpu, samples in FITTED_ON.items()})


if __name__ == "__main__":
    main()
