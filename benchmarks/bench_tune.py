"""Speed of the configuration search (issue 5's targets: >= 2,000,000 configurations per second of
vectorized evaluation; ``roofmodel tune`` for one problem in under a second).

Prints, for each machine and space:
- enumerate: building and filtering the space (configurations considered per second);
- bound pass: every feasible configuration's lower bound (configurations per second);
- exact pass: every feasible configuration's exact time with the raster traffic already in the table
  (configurations per second), and separately the time to fill that table (raster-model keys);
- tune: the whole ranking as `roofmodel tune` runs it (bound-ordered, lazy raster model), wall time.
Medians of REPEAT runs in one process; compare ratios within a run, the machines are shared.

Run: python benchmarks/bench_tune.py
"""

from __future__ import annotations

import statistics
import time

from roofmodel import Gemm, load_machine
from roofmodel.model.prediction import machine_rates
from roofmodel.search.space import Space, TrafficTable, enumerate_space, term_seconds, tune

REPEAT = 5
CASES = [("h100", Gemm(m=8192, n=8192, k=1024, dtype="fp16"), "all"),
         ("h100", Gemm(m=4096, n=4096, k=4096, dtype="fp16"), "triton"),
         ("h100", Gemm(m=4096, n=4096, k=4096, dtype="fp32"), "triton"),  # FMA: fma_layout's wavefronts
         ("a100", Gemm(m=8192, n=8192, k=8192, dtype="fp16"), "all")]  # fmt: skip


def _median(fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    for name, g, space_name in CASES:
        machine, space = load_machine(name), Space(name=space_name)
        rates = machine_rates(machine, g.dtype)
        configs, considered = enumerate_space(machine, g, space)
        t_enum = _median(lambda: enumerate_space(machine, g, space))  # noqa: B023
        t_bound = _median(lambda: term_seconds(machine, g, rates, configs, None))  # noqa: B023
        table = TrafficTable(machine, g)
        t = time.perf_counter()
        traffic = table.lookup(configs)
        t_table = time.perf_counter() - t
        t_exact = _median(lambda: term_seconds(machine, g, rates, configs, table.lookup(configs)))  # noqa: B023
        t_formula = _median(lambda: term_seconds(machine, g, rates, configs, traffic))  # noqa: B023
        t_tune = _median(lambda: tune(machine, g, space, top=10))  # noqa: B023
        n = len(configs)
        print(f"{name} {g.m}x{g.n}x{g.k} {g.dtype}, space {space_name}: {considered:,} considered, {n:,} fit")
        print(f"  enumerate        {t_enum * 1e3:8.1f} ms  {considered / t_enum:12,.0f} configurations/s")
        print(f"  bound pass       {t_bound * 1e3:8.1f} ms  {n / t_bound:12,.0f} configurations/s")
        print(
            f"  exact, formula   {t_formula * 1e3:8.1f} ms  {n / t_formula:12,.0f} configurations/s (traffic in hand)"
        )
        print(f"  exact, + lookup  {t_exact * 1e3:8.1f} ms  {n / t_exact:12,.0f} configurations/s (table filled)")
        print(f"  raster table     {t_table * 1e3:8.1f} ms  for {len(table.cache):,} keys, once per problem")
        print(f"  tune --top 10    {t_tune * 1e3:8.1f} ms  end to end in process")


if __name__ == "__main__":
    main()
