"""On a GPU with Nsight Compute: what an operand's tile rows of less than a 128-byte line cost the copies that fill
the stages (issue 13: on the read H100 broad sweeps, kernels whose operands are copied in 64-byte rows run 9-19%
slower than the model says, median, where rows of 128 bytes or more are within 3%).

For 4096^3 Triton matmuls (roofmodel.backends.triton_gemm) in fp16 at BLOCK_K 32 (a K-major operand's rows are 64
bytes) and 64 (128 bytes), and tf32 at 16 and 32 (the same bytes), in the four operand layouts, at three tiles (wgmma
128x128 on 8 warps and 64x64 on 4; mma.sync, forced with DISABLE_MMA_V3=1, 128x64 on 4), one launch each under ncu
with the clocks left alone: the duration and the L1TEX counters of the cp.async copies (LDGSTS) that this Nsight
Compute offers (every ``l1tex__*ldgsts*`` metric it lists, summed: they count the copies that allocate in L1, the
4-byte ones, not the 16-byte ones that bypass it) and of the L2 (requests and sectors read, and each of its stages'
throughput as a share of its peak). Writes OUT.csv
with, per kernel, the stage bytes each CTA copies per main-loop iteration and the counters per iteration, and prints
the L2 requests and sectors the SMs read per 128 bytes copied.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_row_check.py [--size S] OUT.csv
(--size: M = N = K = S instead of 4096; 4112 puts every fp16 row's start 32 bytes further into a 128-byte line than
the last one's, so that some runs cross lines, which 4096 never does.)
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.gpu_ncu_check import CHILD, profile

M = N = K = 4096
FIXED = ("gpu__time_duration.sum", "sm__cycles_elapsed.avg", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
         "lts__throughput.avg.pct_of_peak_sustained_elapsed")  # fmt: skip
# The L2's side (kept where this ncu lists the metric): requests and sectors the SMs read, and each L2 stage's
# throughput as a share of its peak (lts__throughput is the largest of them).
L2 = ("lts__t_requests_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_requests.sum",
      "lts__t_sectors.sum", "lts__t_tag_requests.sum", "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
      "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed", "lts__d_sectors.avg.pct_of_peak_sustained_elapsed",
      "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed",
      "lts__t_requests.avg.pct_of_peak_sustained_elapsed", "lts__cycles_active.avg")  # fmt: skip
# (instruction, block_m, block_n, warps)
TILES = (("wgmma", 128, 128, 8), ("wgmma", 64, 64, 4), ("mma.sync", 128, 64, 4))
BLOCK_K = {"fp16": (32, 64), "tf32": (16, 32)}
LAYOUTS = (("k", "k"), ("k", "n"), ("m", "n"), ("m", "k"))
ELEMENT_BYTES = {"fp16": 2, "tf32": 4}


def listed_metrics() -> tuple[str, ...]:
    """FIXED, the L2 metrics this ncu lists for the device, and every L1TEX metric of the cp.async copies, as a sum."""
    out = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    listed = {ln.split()[0] for ln in out.splitlines() if ln.strip()}
    ldgsts = sorted(n for n in listed if "ldgsts" in n and n.startswith("l1tex__") and "average" not in n
                    and "rate" not in n)  # fmt: skip
    return FIXED + tuple(m for m in L2 if m.split(".")[0] in listed) + tuple(f"{n}.sum" for n in ldgsts)


def main() -> None:
    global M, N, K
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--size" and args[1].isdigit():
        M = N = K = int(args[1])
        args = args[2:]
    if len(args) != 1:
        raise SystemExit("usage: python benchmarks/gpu_row_check.py [--size S] OUT.csv")
    metrics = listed_metrics()
    print("metrics:", ", ".join(metrics), flush=True)
    rows = []
    for forced in (False, True):
        cases = [dict(m=M, n=N, k=K, dtype=d, block_m=bm, block_n=bn, block_k=bk, num_warps=w, a_major=a, b_major=b,
                      instruction=t)
                 for t, bm, bn, w in TILES if (t == "mma.sync") == forced
                 for d, bks in BLOCK_K.items() for bk in bks for a, b in LAYOUTS]  # fmt: skip
        for c, launch in zip(cases, profile(cases, forced, metrics, CHILD), strict=True):
            counters = {k.rsplit(" (", 1)[0]: float(v.replace(",", "")) for k, v in launch.items() if v != "n/a"}
            iterations = -(-M // c["block_m"]) * -(-N // c["block_n"]) * -(-K // c["block_k"])
            e = ELEMENT_BYTES[c["dtype"]]
            stage = (c["block_m"] + c["block_n"]) * c["block_k"] * e
            per_iteration = {f"{k} per iteration": round(v / iterations, 2) for k, v in counters.items()
                             if ("ldgsts" in k or k.startswith("lts__t_")) and k.endswith(".sum")}  # fmt: skip
            rows.append({**c, "stage_bytes": stage, "row_bytes_a": (c["block_k"] if c["a_major"] == "k" else
                         c["block_m"]) * e, "row_bytes_b": (c["block_k"] if c["b_major"] == "k" else c["block_n"]) * e,
                         **counters, **per_iteration})  # fmt: skip
            l2 = {k: v for k, v in per_iteration.items() if k.startswith("lts__t_") and "srcunit_tex" in k}
            print(f"{c['instruction']} {c['dtype']} {c['block_m']}x{c['block_n']}x{c['block_k']} w{c['num_warps']} "
                  f"A {c['a_major']} B {c['b_major']}: {counters['gpu__time_duration.sum']:,.0f} ns; stage {stage} B; "
                  + "; ".join(f"{k.split('__')[1].split('.')[0]} {v:,.1f} ({v * 128 / stage:.2f} per 128 B)"
                              for k, v in l2.items()),
                  flush=True)  # fmt: skip
    with open(args[0], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(dict.fromkeys(k for r in rows for k in r)))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
