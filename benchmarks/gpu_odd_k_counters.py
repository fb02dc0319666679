"""On a GPU with Nsight Compute: why an fp8 wgmma kernel with both operands K-major is slow where its rows start 16 bytes
off a 32-byte sector (issue 13, validation.md's lead "fp8 with both operands K-major and K an odd multiple of 16": on
the read sweeps such kernels run 24-34% slower than the model, those with K a multiple of 32 at the same shapes within
3%, whatever BK).

The same compiled kernel (Triton specializes an integer argument on divisibility by 16 only: K = 2000, 2016, 2032 and
2048 share one binary) on M = N = 4096 at four K whose rows start at 16 mod 32 (2000, 2032), 32 or 96 mod 128 (2016)
and 0 mod 128 (2048) bytes; and at K = 2048 with both operands' first element 16 bytes into their buffers (every row
at 16 mod 32: the offset without the odd stride). Three fp8 tiles with both operands K-major, one with B N-major (B is
laid out again through registers: only A is copied from such rows). Each timed (triton.testing.do_bench, median) in
two passes, then one launch of each under ncu with the clocks left alone: the counters of gpu_layout_counters.METRICS
(L2 sectors and requests, the copies' L1 requests and sectors, shared-memory wavefronts and bank conflicts of the
copies, the tensor pipe, DRAM bytes) in OUT/counters.csv (gpu_layout_counters.write_counters: each row numbered as
``launch`` 1 since the committed run), the warp stalls in OUT/stalls.csv, the times in
OUT/times.csv.

Run (GPU): PYTHONPATH=. python benchmarks/gpu_odd_k_counters.py OUT
The table (CPU): python benchmarks/gpu_odd_k_counters.py --table docs/measurements/h200-2026-12-01/odd_k
    per case, its time (the two passes' median, ms) and its sectors from the L2 to the SMs, L2 requests and L2 sectors,
    each over the same tile's at K = 2048 (rows on lines): split_sector_factor's evidence.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.check_runs import write_csv
from benchmarks.gpu_layout_counters import METRICS, write_counters_and_stalls

M = N = 4096
KS = (2048, 2016, 2032, 2000)
TILES = ((128, 128, 128, 8, 3), (128, 64, 64, 4, 4), (64, 128, 256, 4, 3))

# Builds each case's operands (a view 16 bytes into a larger buffer where ``offset``), launches it ``launches`` times,
# and, with ``time``, prints its do_bench median in two passes.
CHILD = """
import json, sys, torch, triton
from roofmodel.backends import triton_gemm as tg
def operands(c):
    a, b = tg.random_inputs(c['m'], c['n'], c['k'], c['dtype'], 'cuda', 7, c['a_major'], c['b_major'])
    if not c.get('offset'):
        return a, b
    def shifted(x):
        flat = torch.empty(x.numel() + 16, device=x.device, dtype=x.dtype)
        y = flat[16:].as_strided(x.shape, x.stride())
        y.copy_(x)
        return y
    return shifted(a), shifted(b)
timing = len(sys.argv) > 2
for c in json.load(open(sys.argv[1])):
    a, b = operands(c)
    out = tg.output_for(a, b, c['dtype'])
    cfg = dict(block_m=c['block_m'], block_n=c['block_n'], block_k=c['block_k'], group_m=c['group_m'],
               num_warps=c['num_warps'], num_stages=c['num_stages'])
    run = lambda: tg.launch(a, b, out, c['dtype'], **cfg)
    if timing:
        run()
        err = tg.check(a, b, out)
        ms = [triton.testing.do_bench(run, warmup=25, rep=200, return_mode='median') for _ in range(2)]
        print('TIME', json.dumps({**c, 'time_ms': ms[0], 'time_ms_2': ms[1], 'rel_error': err}), flush=True)
    else:
        for _ in range(c.get('launches', 1)):
            run()
    torch.cuda.synchronize()
"""


def cases() -> list[dict[str, Any]]:
    """The check's kernels: every tile at every K (both K-major), then 2048 with the 16-byte offset, then the first
    tile with B N-major at 2048 and 2032."""
    base = dict(m=M, n=N, dtype="fp8", group_m=8, a_major="k")
    out = []
    for bm, bn, bk, w, s in TILES:
        tile = dict(base, block_m=bm, block_n=bn, block_k=bk, num_warps=w, num_stages=s)
        out += [dict(tile, k=k, b_major="k", offset=0) for k in KS]
        out.append(dict(tile, k=2048, b_major="k", offset=16))
    bm, bn, bk, w, s = TILES[0]
    out += [dict(base, block_m=bm, block_n=bn, block_k=bk, num_warps=w, num_stages=s, k=k, b_major="n", offset=0)
            for k in (2048, 2032)]  # fmt: skip
    return out


def timed(plan: list[dict[str, Any]], path: Path) -> None:
    """Each case's two do_bench medians (ms) and its error against float64, into the CSV ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    plan_file = path.with_suffix(".json")
    plan_file.write_text(json.dumps(plan))
    out = subprocess.run([sys.executable, "-c", CHILD, str(plan_file), "time"], capture_output=True, text=True,
                         timeout=400)  # fmt: skip
    print(out.stdout[-4000:], out.stderr[-4000:], flush=True)
    rows = [json.loads(line[5:]) for line in out.stdout.splitlines() if line.startswith("TIME ")]
    write_csv(path, rows)


def ratio_table(directory: Path) -> list[str]:
    """The table's lines: per case, time and the L2 counters over its tile's at K = 2048 without the offset."""
    import csv

    def number(x: str) -> float:
        return float(x.replace(",", ""))

    with (directory / "times.csv").open() as f:
        times = {_case(r): (number(r["time_ms"]) + number(r["time_ms_2"])) / 2 for r in csv.DictReader(f)}
    with (directory / "counters.csv").open() as f:
        counters = {_case(r): r for r in csv.DictReader(f)}
    names = ("l1tex__m_xbar2l1tex_read_sectors.sum (sector)", "lts__t_requests_srcunit_tex_op_read.sum (request)",
             "lts__t_sectors_srcunit_tex_op_read.sum (sector)")  # fmt: skip
    lines = ["tile        B  K     offset  time ms  x time  x sectors to SMs  x L2 requests  x L2 sectors"]
    for case, r in counters.items():
        base = counters[(*case[:4], 2048, 0)]
        t0 = times[(*case[:4], 2048, 0)]
        cells = [number(r[n]) / number(base[n]) for n in names]
        lines.append(f"{case[0]:<11} {case[1]}  {case[4]:<5} {case[5]:<7} {times[case]:.4f}   {times[case] / t0:5.2f}"
                     f"   {cells[0]:5.2f}             {cells[1]:5.2f}          {cells[2]:5.2f}")  # fmt: skip
    return lines


def _case(r: dict[str, str]) -> tuple[Any, ...]:
    tile = f"{r['block_m']}x{r['block_n']}x{r['block_k']}"
    return (tile, r["b_major"], r["num_warps"], r["num_stages"], int(r["k"]), int(r["offset"]))


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        print("\n".join(ratio_table(Path(sys.argv[2]))))
        return
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    plan = cases()
    timed(plan, out / "times.csv")
    write_counters_and_stalls(out, plan, METRICS, child=CHILD)


if __name__ == "__main__":
    main()
