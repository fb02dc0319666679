"""Where footprint.fragments_take_turns comes from: over the read broad sweeps, the Triton wgmma kernels of 16-bit
operands at BK 32 whose warpgroups hold two m64n256 fp32 accumulator fragments of 128 registers (256x256 on 8 warps
and 128x256 on 4), what ptxas spilled (column spilled_registers) and what their main loops move an iteration
(loop_local.csv's bytes / 8), per operand alignment, layout and stage count, each group beside what the rule says of
it (one resident or in turns); and how many of them lie in the held-out shapes of 2026-11-23 (whose reports are then
not independent of the rule).

    python benchmarks/fragment_spill_rule.py [--h100 18] [--h200 59]

The 8-warp rule was chosen on --h100 18 --h200 55 (fresh51 unread): 229 aligned 256x256x32 kernels on 8 warps, 201
spilled 158-174 (loops a median 162), 26 rotated both fragments (256), all both K-major at 2 stages, 2 spilled 544. Its
exception for those and the 4-warp rule on --h100 18 --h200 59 (pre-registered in 5975902).
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.read_samples import DATA, read_sets_from_args
from roofmodel.backends.broad import read_broad_csv
from roofmodel.model.footprint import FAMILIES, fragments_take_turns
from roofmodel.model.prediction import unpipelined_operands
from roofmodel.model.problem import INPUT_BYTES

TILES = ((256, 256, 8), (128, 256, 4))


def aligned(r: object) -> bool:
    """Neither operand loaded one element at a time (prediction.unpipelined_operands' narrow)."""
    (narrow_a, narrow_b), _ = unpipelined_operands(
        INPUT_BYTES[r.dtype], r.m, r.n, r.k, r.a_major == "m", r.b_major == "n"
    )
    return not (narrow_a or narrow_b)


def kernels(samples: dict[str, tuple[str, ...]]) -> list[tuple[str, str, object]]:
    """(GPU, sample, record) of every such kernel that ran."""
    out = []
    for gpu, dirs in samples.items():
        for d in dirs:
            for r in read_broad_csv(DATA / d / "broad.csv"):
                if (r.set == "sweep" and r.status == "ok" and r.instruction == "wgmma" and r.dtype in ("fp16", "bf16")
                        and r.block_k == 32 and (r.block_m, r.block_n, r.num_warps) in TILES):  # fmt: skip
                    out.append((gpu, d, r))
    return out


def rule_says(r: object) -> str:
    """What footprint.fragments_take_turns says of the kernel: "one resident" or "in turns"."""
    turns = fragments_take_turns(FAMILIES.index("wgmma"), INPUT_BYTES[r.dtype], r.block_k, r.num_warps, 128, 256, 1.0,
                                 "triton", int(not aligned(r)), r.a_major == "m", r.b_major == "n",
                                 r.num_stages)  # fmt: skip
    return "in turns" if turns else "one resident"


def spread(values: list[int]) -> str:
    return f"{min(values)}-{max(values)}" if min(values) != max(values) else f"{values[0]}"


def main() -> None:
    rows = kernels(read_sets_from_args(__doc__, h200=59))
    for bm, bn, warps in TILES:
        tile = [(g, d, r) for g, d, r in rows if (r.block_m, r.block_n, r.num_warps) == (bm, bn, warps)]
        for name, keep in (("aligned", True), ("an operand one element at a time", False)):
            v = [(g, d, r) for g, d, r in tile if aligned(r) == keep]
            if not v:
                continue
            held = sum(d.endswith("2026-11-23") and r.split == "holdout" for _, d, r in v)
            print(
                f"{bm}x{bn}x32 on {warps} warps, {name}: {len(v)} kernels ({held} of the held-out shapes of 2026-11-23)"
            )
            groups: dict[tuple[str, str, int], list[object]] = defaultdict(list)
            for _, _, r in v:
                groups[(r.a_major, r.b_major, r.num_stages)].append(r)
            for (am, bmaj, stages), g in sorted(groups.items()):
                spills = Counter("rotated (256-288)" if 256 <= r.spilled_registers <= 288
                                 else "one resident (150-200)" if 150 <= r.spilled_registers < 256
                                 else "more" for r in g)  # fmt: skip
                print(f"  A {am}, B {bmaj}, {stages} stages: {len(g)}; {dict(spills)}; the rule: {rule_says(g[0])}")
            one = [r for _, _, r in v if 150 <= r.spilled_registers < 256]
            if one:
                loops = [r.loop_local_bytes / 8 for r in one if r.loop_local_bytes is not None]
                print(f"  one resident: {len(one)}, spilled {spread([r.spilled_registers for r in one])}, loops a median "
                      f"{statistics.median(loops):.0f} ({spread([round(x) for x in loops])}) an iteration")  # fmt: skip
            rot = [r for _, _, r in v if 256 <= r.spilled_registers <= 288]
            print(
                f"  rotated: {len(rot)}; more: {len(v) - len(one) - len(rot)} "
                f"({spread([r.spilled_registers for _, _, r in v if r.spilled_registers > 288] or [0])})"
            )


if __name__ == "__main__":
    main()
