"""Speed figures for roofmodel, printed (never asserted: machines are shared and noisy).

Target (issue 2): `roofmodel analyze --machine h100 --m 4096` under 0.5 s wall, Python start-up
included, on the 2-core CI machine. Prints the median and best of repeated runs of the installed
console script beside a bare `python -c pass`, and the in-process time of one analyze() per
built-in machine and dtype.

Run: python benchmarks/bench_cli.py [--repeat N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time


def wall(cmd: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    exe = shutil.which("roofmodel")
    cli = [exe] if exe else [sys.executable, "-m", "roofmodel"]
    base = wall([sys.executable, "-c", "pass"], args.repeat)
    run = wall([*cli, "analyze", "--machine", "h100", "--m", "4096"], args.repeat)
    print(f"python -c pass:                              median {statistics.median(base) * 1e3:6.0f} ms")
    print(
        f"roofmodel analyze --machine h100 --m 4096:   median {statistics.median(run) * 1e3:6.0f} ms, "
        f"best {min(run) * 1e3:6.0f} ms  (target < 500 ms)"
    )

    from roofmodel import Gemm, analyze, load_machine
    from roofmodel.machine import builtin_machine_names

    for name in builtin_machine_names():
        machine = load_machine(name)
        for dtype in machine.compute:
            n = 20
            t0 = time.perf_counter()
            for _ in range(n):
                analyze(machine, Gemm(m=4096, n=4096, k=4096, dtype=dtype))
            per = (time.perf_counter() - t0) / n
            print(f"analyze() {name:<5} {dtype:<5} {per * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
