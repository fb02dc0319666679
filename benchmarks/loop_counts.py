"""On the CPU: the main loop of every wgmma kernel of a broad sweep as the installed Triton compiles it for sm_90a
(roofmodel.backends.triton_compile, no GPU): the instructions a warp issues an iteration and some of their opcodes, one
CSV row per kernel (its configuration, as broad.csv keys it). The IMAD-chain check (docs/measurements/h200-2026-11-30/
imad_chain) found a Triton wgmma loop's own instructions binding its eight-warp tiles: these are the counts a term for
them would read.

    python benchmarks/loop_counts.py docs/measurements/h200-2026-11-23/broad.csv OUT.csv
"""

from __future__ import annotations

import csv
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv

KEY = ("m", "n", "k", "dtype", "block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m", "a_major",
       "b_major")  # fmt: skip
OPCODES = ("HGMMA", "QGMMA", "LDGSTS", "IMAD", "IADD3", "SEL", "ISETP", "LDL", "STL")


def count(row: dict[str, str]) -> dict[str, Any]:
    """One kernel's main loop: its instructions and OPCODES' counts (loop_instructions 0 where none was found)."""
    import triton

    from roofmodel.backends.triton_compile import CompileJob, compiled_main_loop, loop_opcodes

    ints = [int(row[k]) for k in ("m", "n", "k")]
    job = CompileJob(*ints, row["dtype"], *(int(row[k]) for k in ("block_m", "block_n", "block_k", "num_warps",
                     "num_stages")), row["a_major"], row["b_major"], int(row["group_m"]))  # fmt: skip
    body = compiled_main_loop(job, 90)
    ops = loop_opcodes(body)
    return {**{k: row[k] for k in KEY}, "loop_instructions": len(body), **{o.lower(): ops.get(o, 0) for o in OPCODES},
            "triton": triton.__version__}  # fmt: skip


def main() -> None:
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    with source.open() as f:
        rows = [r for r in csv.DictReader(f) if r["instruction"] == "wgmma" and r["status"] == "ok"]
    with ProcessPoolExecutor(2) as pool:
        counted = list(pool.map(count, rows))
    write_csv(out, counted)
    print(f"{len(counted)} wgmma kernels of {source} counted into {out}")


if __name__ == "__main__":
    main()
