"""The share of a Triton FMA matmul's main loop that is FFMA: the fp32 kernels of the H100 broad sweep's training
shapes (their configurations only, no time), compiled on a CPU for sm_90 with the installed Triton, each main
loop's instructions counted by opcode (triton_compile.main_loop, loop_opcodes). Written for kernel_costs.fma_rate's
note (machines/h100.yaml): the loop's FFMA share would let it issue more FFMAs a cycle than it reaches, so issue
slots alone do not explain the rate.

    python benchmarks/fma_issue_share.py docs/measurements/h100-2026-11-23/broad.csv OUT.csv

Per kernel: its tile, warps, outputs a thread (BM x BN / threads), the loop's instructions, FFMA, LDS, and the share;
then the share's range per outputs a thread. Triton 3.6 (the sweeps') gives the committed counts.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.compile_study import job_of
from roofmodel.backends.triton_compile import compile_kernel, cuobjdump, loop_opcodes, main_loop, require_triton

COLUMNS = ("block_m", "block_n", "block_k", "num_warps", "num_stages", "a_major", "b_major", "spilled_registers",
           "outputs_per_thread", "loop_instructions", "ffma", "lds", "ffma_share")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("broad", type=Path, help="a broad sweep's broad.csv (its fp32 training-shape kernels are compiled)")
    ap.add_argument("out", type=Path, help="the CSV to write")
    args = ap.parse_args()
    require_triton()
    with args.broad.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == "sweep" and r["dtype"] == "fp32" and r["split"] == "train"
                and r["status"] == "ok"]  # fmt: skip
    by_outputs: dict[int, list[float]] = defaultdict(list)
    with args.out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            body = main_loop(cuobjdump(compile_kernel(job_of(r), 90).asm["cubin"], "-sass")) or []
            ops = loop_opcodes(body)
            outputs = int(r["block_m"]) * int(r["block_n"]) // (32 * int(r["num_warps"]))
            share = ops.get("FFMA", 0) / len(body) if body else 0.0
            by_outputs[outputs].append(share)
            w.writerow((r["block_m"], r["block_n"], r["block_k"], r["num_warps"], r["num_stages"], r["a_major"],
                        r["b_major"], r["spilled_registers"], outputs, len(body), ops.get("FFMA", 0), ops.get("LDS", 0),
                        f"{share:.3f}"))  # fmt: skip
    for outputs, shares in sorted(by_outputs.items()):
        print(
            f"{outputs:4d} outputs a thread: {len(shares):3d} kernels, FFMA share {min(shares):.2f}-{max(shares):.2f}"
        )


if __name__ == "__main__":
    main()
