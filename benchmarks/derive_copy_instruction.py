"""kernel_costs.copy_instruction from the narrow check (benchmarks/gpu_broad_sweep.py --narrow): SM cycles per
warp-level cp.async of a stage, where an operand is copied one element at a time.

Per tile and case with an operand copied one element at a time (a 32-bit operand whose leading stride is not a
multiple of 16 elements: one 4-byte cp.async per element), no spills and no operand transposed in registers (an
aligned MN-major tf32 operand, whose transposes bind instead: the ``b_narrow_k`` case, A M-major), one CTA per SM:
the time per K iteration (the slope from the shortest to the longest K, at the run's median SM clock) over the
stage's warp-level copies ((BM x [A one element at a time ? BK : BK x 4 / 16] + the same for B) / 32). The figure is
the median; the script prints each case and the median counting the element copies alone, for comparison.

    python benchmarks/derive_copy_instruction.py [docs/measurements/h200-2026-11-29/narrow/broad.csv]

kernel_costs.copy_instruction_shared and copy_instruction_shared_elements from the occupancy check
(benchmarks/gpu_broad_sweep.py --occupancy): the same cases of its wgmma kernels on 2 and 4 tiles per SM, the SM's
cycles per K iteration of the whole kernel over the warp-level copies of all its tiles (tiles per SM x the stage's
copies), among those where two or more CTAs share an SM (the machine's occupancy for the compiled registers and shared
memory, roofmodel's Evaluator); the figures are the medians of the cases with one operand's copies 16 bytes (a mix)
and of those whose every copy is an element copy.

    python benchmarks/derive_copy_instruction.py --occupancy [docs/measurements/h200-2026-11-29/occupancy/broad.csv]
"""

from __future__ import annotations

import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements" / "h200-2026-11-29"
DEFAULT = DATA / "narrow" / "broad.csv"
OCCUPANCY = DATA / "occupancy" / "broad.csv"
WARP = 32


def narrow(major: str, mn: int, k: int, operand_major_mn: str) -> bool:
    """Whether an operand is copied one element at a time: its leading stride (MN where it is MN-major, else K) is
    not a multiple of 16 elements (prediction.unpipelined_operands)."""
    return (mn if major == operand_major_mn else k) % 16 != 0


def cases(path: Path, kind: str = "narrow_check", mma_sync: bool = False) -> list[dict[str, float | str]]:
    """Each narrow-check (tile, case) that counts: its cycles per iteration, its warp-level copies (all, and the
    element copies alone) and their ratios; with ``kind`` ``narrow_occupancy`` the occupancy check's, per tile of the
    SM (``per_sm`` tiles each, ``resident`` of them at once). ``mma_sync``: the kernels compiled with mma.sync forced
    instead of wgmma."""
    with path.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == kind and r["status"] == "ok"
                and (r["force_mma_v2"] == "1") == mma_sync]  # fmt: skip
    groups: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        groups[r["shape"]].append(r)
    resident = _resident_ctas(path) if kind == "narrow_occupancy" else {}
    out = []
    for shape, rs in sorted(groups.items()):
        rs.sort(key=lambda r: int(r["k"]))
        first, last = rs[0], rs[-1]
        bm, bn, bk = int(first["block_m"]), int(first["block_n"]), int(first["block_k"])
        m, n, k = int(last["m"]), int(last["n"]), int(last["k"])
        na, nb = narrow(first["a_major"], m, k, "m"), narrow(first["b_major"], n, k, "n")
        transposed = (first["a_major"] == "m" and not na) or (first["b_major"] == "n" and not nb)
        if not (na or nb) or transposed or any(int(r["spilled_registers"]) for r in rs):
            continue
        clock_hz = statistics.median(float(r["sm_clock_mhz"]) for r in rs) * 1e6
        iterations = (int(last["k"]) - int(first["k"])) / bk
        cycles = (float(last["time_ms"]) - float(first["time_ms"])) * 1e-3 / iterations * clock_hz
        per_sm = int(shape.rsplit("-x", 1)[1]) if kind == "narrow_occupancy" else 1
        element = (bm * na + bn * nb) * bk / WARP * per_sm
        aligned = (bm * (not na) + bn * (not nb)) * bk * 4 / 16 / WARP * per_sm
        out.append({"shape": shape, "cycles": cycles, "copies": element + aligned, "element_copies": element,
                    "per_copy": cycles / (element + aligned), "per_element_copy": cycles / element,
                    "per_sm": per_sm, "resident": min(per_sm, resident.get((shape, mma_sync), 1))})  # fmt: skip
    return out


def _resident_ctas(path: Path) -> dict[tuple[str, bool], int]:
    """CTAs per SM each occupancy-check kernel's compiled registers and shared memory allow (the H200's file: the
    machine the check ran on), by shape and whether mma.sync was forced."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from roofmodel.backends.broad import Evaluator, read_broad_csv
    from roofmodel.machine import load_machine

    ev = Evaluator(load_machine("h200"), 1980.0)
    return {(r.shape, r.force_mma_v2 == 1): int(ev._terms(r, True, None)[1]["ctas_per_sm"])
            for r in read_broad_csv(path) if r.set == "narrow_occupancy"}  # fmt: skip


def shared_cases(path: Path = OCCUPANCY) -> list[dict[str, float | str]]:
    """The occupancy check's wgmma cases where two or more CTAs share an SM: kernel_costs.copy_instruction_shared's."""
    return [c for c in cases(path, "narrow_occupancy") if int(c["resident"]) >= 2]


def element_cases(got: list[dict[str, float | str]]) -> list[dict[str, float | str]]:
    """The cases whose every copy is an element copy (both operands copied one element at a time):
    kernel_costs.copy_instruction_shared_elements's."""
    return [c for c in got if c["copies"] == c["element_copies"]]


def mixed_cases(got: list[dict[str, float | str]]) -> list[dict[str, float | str]]:
    """The cases with one operand's copies 16 bytes: kernel_costs.copy_instruction_shared's."""
    return [c for c in got if c["copies"] != c["element_copies"]]


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--occupancy"]
    if "--occupancy" in sys.argv[1:]:
        got = shared_cases(Path(args[0]) if args else OCCUPANCY)
        for c in got:
            print(f"{c['shape']:40s} {c['resident']} CTAs an SM: {c['per_copy']:5.1f} SM cycles per warp copy")
        for name, part in (("copy_instruction_shared", mixed_cases(got)),
                           ("copy_instruction_shared_elements", element_cases(got))):  # fmt: skip
            per = [float(c["per_copy"]) for c in part]
            print(f"{len(part)} cases: kernel_costs.{name} = {statistics.median(per):.1f} SM cycles per warp-level "
                  f"cp.async (range {min(per):.1f}-{max(per):.1f})")  # fmt: skip
        return
    path = Path(args[0]) if args else DEFAULT
    got = cases(path)
    for c in got:
        print(f"{c['shape']:36s} {c['cycles']:7.0f} cycles/iteration  {c['copies']:4.0f} warp copies "
              f"({c['element_copies']:.0f} of elements): {c['per_copy']:5.1f} per copy, "
              f"{c['per_element_copy']:5.1f} per element copy")  # fmt: skip
    per = [float(c["per_copy"]) for c in got]
    alone = [float(c["per_element_copy"]) for c in got]
    print(f"{len(got)} cases: kernel_costs.copy_instruction = {statistics.median(per):.1f} cycles per warp-level "
          f"cp.async (range {min(per):.1f}-{max(per):.1f}); element copies alone {statistics.median(alone):.1f} "
          f"({min(alone):.1f}-{max(alone):.1f})")  # fmt: skip


if __name__ == "__main__":
    main()
