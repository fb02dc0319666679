"""What the wgmma chain (benchmarks/gpu_wgmma_chain.py: a CTA's wgmma with both operands in shared memory, nothing
else in the loop) says, from its recorded rows: a finding, not a model constant (docs/validation.md says why).

- the rate at which wgmma reads its operands from shared memory, where those reads bind: operand bytes per SM cycle
  (operand_bytes: A once per column of warpgroups, B once per 64 rows of a warpgroup's tile, as
  prediction.kernel_seconds counts them), the median over the tiles whose reads at the shared memory's 128 B/cycle
  would take at least OPERAND_BOUND x their MMAs at the type's peak;
- the rate the tensor pipe reaches where the MMAs bind (the reads at most 1 / OPERAND_BOUND of them): FMA per SM
  cycle, per type and CTAs an SM, against the peak and against the machine file's measured (cuBLAS) rate.

    python benchmarks/derive_wgmma_chain.py [DIR ...]

DIR: a directory under docs/measurements holding wgmma_chain.jsonl (default: the H100's and the H200's of
2026-11-27); the machine file whose measured rates it is held to is the one its name begins with.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roofmodel.machine import load_machine
from roofmodel.model.kernel import FAMILIES, register_tile_for
from roofmodel.model.prediction import ROWS_PER_B_READ, smem_operand_bytes

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements"
ELEMENT_BYTES = {"fp16": 2, "tf32": 4, "fp8": 1}
# The peak FMA per SM cycle of each type's wgmma (H100 whitepaper: 989.4 dense fp16 TFLOPS = 132 x 2,048 x 2 x 1.83
# GHz; tf32 half of it, fp8 twice).
PEAK = {"fp16": 2048.0, "tf32": 1024.0, "fp8": 4096.0}
SMEM_BYTES_PER_CYCLE = 128.0
OPERAND_BOUND = 1.25


def read_rows(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / "wgmma_chain.jsonl").read_text().splitlines()]


def operand_bytes(bm: int, bn: int, bk: int, warps: int, element_bytes: int, a_from_registers: bool = False) -> float:
    """Bytes a CTA's wgmma read from shared memory an iteration, counted as the model counts them
    (prediction.smem_operand_bytes: A once per column of warpgroups, B once per 64 rows of a warpgroup's tile), the
    warpgroup tile (rm, rn) from kernel.register_tile_for; A read from registers adds nothing. 0 where wgmma cannot
    tile the CTA."""
    tile = register_tile_for("wgmma", bm, bn, warps)
    if tile is None:
        return 0.0
    rm, rn = tile
    rows = min(rm, ROWS_PER_B_READ[FAMILIES.index("wgmma")])
    return float(smem_operand_bytes(bm, bn, bk, element_bytes, rows, rn, 0.0 if a_from_registers else 1.0))


def _timed(rows: list[dict]) -> list[tuple[dict, float, float]]:
    """(row, operand bytes, MMA cycles at the peak) of each timed row whose A comes from shared memory."""
    out = []
    for r in rows:
        if r.get("error") or r.get("reg_a") or not r.get("sm_cycles_per_cta_iteration"):
            continue
        read = operand_bytes(r["bm"], r["bn"], r["bk"], r["warps"], ELEMENT_BYTES[r["dtype"]])
        out.append((r, read, r["bm"] * r["bn"] * r["bk"] / PEAK[r["dtype"]]))
    return out


def operand_rate(rows: list[dict]) -> tuple[float, int, float, float]:
    """(median operand bytes per SM cycle, tiles, least and most of cycles / (bytes / 128)) over the tiles whose
    operand reads bind."""
    bound = [(r, read) for r, read, mma in _timed(rows) if read / SMEM_BYTES_PER_CYCLE >= OPERAND_BOUND * mma]
    slow = [r["sm_cycles_per_cta_iteration"] / (read / SMEM_BYTES_PER_CYCLE) for r, read in bound]
    return (
        statistics.median(read / r["sm_cycles_per_cta_iteration"] for r, read in bound),
        len(bound),
        min(slow),
        max(slow),
    )


def tensor_rates(rows: list[dict]) -> dict[tuple[str, int], tuple[float, int]]:
    """Per (type, CTAs an SM): (median FMA per SM cycle, tiles) over the tiles whose MMAs bind."""
    got: dict[tuple[str, int], list[float]] = {}
    for r, read, mma in _timed(rows):
        if mma >= OPERAND_BOUND * read / SMEM_BYTES_PER_CYCLE:
            fma = r["bm"] * r["bn"] * r["bk"] / r["sm_cycles_per_cta_iteration"]
            got.setdefault((r["dtype"], r["ctas_per_sm"]), []).append(fma)
    return {k: (statistics.median(v), len(v)) for k, v in sorted(got.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=["h100-2026-11-27/wgmma_chain", "h200-2026-11-27/wgmma_chain"])
    args = ap.parse_args()
    for d in args.dirs:
        machine = load_machine(d.split("-")[0])
        rows = read_rows(DATA / d)
        rate, n, lo, hi = operand_rate(rows)
        print(f"{d}: {len(rows)} kernels; operand reads where they bind: {rate:.1f} B/cycle/SM over {n} tiles "
              f"({lo:.2f}-{hi:.2f} x their bytes at 128)")  # fmt: skip
        for (dtype, c), (fma, tiles) in tensor_rates(rows).items():
            clock = 1980e6
            cublas = machine.pipe(dtype).rate.measured
            file_rate = (
                cublas.value * 1e12 / 2 / (machine.sm_count.n * clock) if cublas and cublas.unit == "TFLOPS" else None
            )
            vs = f", {fma / file_rate:.2f} x the file's measured rate at 1980 MHz" if file_rate else ""
            print(f"  {dtype}, {c} CTA(s) an SM, MMAs bind: {fma:,.0f} FMA/cycle/SM over {tiles} tiles "
                  f"({fma / PEAK[dtype]:.2f} of the peak{vs})")  # fmt: skip


if __name__ == "__main__":
    main()
