"""gpu_broad_sweep.py survives a kernel that kills the CUDA context (fresh72's fp8 256x32x256 kernel, an illegal memory
access, 2026-12-01): the kernel is blamed and written to OUT_DIR/faulted.json, the script starts again without it, at
most MAX_RESTARTS times, and its ``fault`` status is left out wherever the rows are read, like any status but ``ok``.
All on a CPU: the GPU is a stand-in whose context dies under one kernel."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from benchmarks import gpu_broad_sweep as g


def _rows() -> list[dict[str, Any]]:
    seed, shapes = g.FRESH_SAMPLES["fresh72"]
    return g.plan(95, seed=seed, shapes=shapes)


def _faulting(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """fresh72's kernel that faulted on the H200."""
    (row,) = [
        r
        for r in rows
        if r["shape"] == "odd3400x6200x4900"
        and (r["dtype"], r["a_major"], r["b_major"], r["block_m"], r["block_n"], r["block_k"])
        == ("fp8", "m", "k", 256, 32, 256)
        and (r["group_m"], r["num_warps"], r["num_stages"]) == (1, 4, 3)
    ]
    return row


def test_each_kernel_of_a_sample_has_its_own_key():
    rows = _rows()
    assert len({g.fault_key(r) for r in rows}) == len(rows) == 950
    sweep = g.plan(95)
    default = g.kernel_sweep_plan() + sweep + g.mma_v2_plan(sweep, 60)
    assert len({g.fault_key(r) for r in default}) == len(default)
    for flag, (_, plan) in g.CHECKS.items():
        checks = plan()
        assert len({g.fault_key(r) for r in checks}) == len(checks), flag


def test_a_faulted_kernel_is_recorded_and_never_launched_again(tmp_path: Path):
    assert g.read_faulted(tmp_path) == {"restarts": 0, "faults": {}}
    rows = _rows()
    row = _faulting(rows)
    row["status"] = "fault: AcceleratorError: CUDA error: an illegal memory access was encountered"
    assert g.record_fault(tmp_path, row)
    faulted = g.read_faulted(tmp_path)
    assert faulted == {"restarts": 1, "faults": {g.fault_key(row): row["status"]}}
    # the restarted process draws the same rows, compiles them, then marks the one listed
    again = _rows()
    for r in again:
        r["status"] = "compiled"
    assert g.mark_faulted(again, faulted) == 1
    assert [r["status"].split(":")[0] for r in again].count("fault") == 1
    assert _faulting(again)["status"] == row["status"]
    assert sum(r["status"] == "compiled" for r in again) == 949


def test_the_restarts_are_capped(tmp_path: Path):
    rows = _rows()[:5]
    for i, r in enumerate(rows):
        r["status"] = f"fault: {i}"
        assert g.record_fault(tmp_path, r) == (i < g.MAX_RESTARTS)
    faulted = g.read_faulted(tmp_path)
    assert faulted["restarts"] == g.MAX_RESTARTS and len(faulted["faults"]) == 5
    # a context that died before any launch blames no kernel but still counts
    other = tmp_path / "other"
    other.mkdir()
    assert g.record_fault(other, None)
    assert g.read_faulted(other) == {"restarts": 1, "faults": {}}


class _Dead(RuntimeError):
    pass


class _Cuda:
    def __init__(self) -> None:
        self.dead = False

    def synchronize(self) -> None:
        if self.dead:
            raise _Dead("CUDA error: an illegal memory access was encountered")


class _Torch:
    """torch with a context that dies once a kernel faults; every later call raises."""

    def __init__(self) -> None:
        self.cuda = _Cuda()

    def ones(self, *_: Any, **__: Any) -> Any:
        self.cuda.synchronize()
        return self

    def add_(self, _: Any) -> Any:
        return self

    def item(self) -> float:
        return 2.0


class _Kernel:
    def __getitem__(self, grid: Any) -> Any:
        return lambda *a, **k: None


class _Tg:
    """triton_gemm: the kernel ``fatal`` kills the context, ``refused`` raises an ordinary error."""

    def __init__(self, torch: _Torch, fatal: dict[str, Any], refused: dict[str, Any]) -> None:
        self.torch, self.fatal, self.refused, self.launched = torch, fatal, refused, []
        self.TOLERANCE, self._matmul_kernel = dict.fromkeys(g.DTYPE_WEIGHTS, 1e-2), _Kernel()

    def output_for(self, a: Any, b: Any, dtype: str) -> Any:
        return None

    def launch(self, a: Any, b: Any, c: Any, kernel: Any = None, **cfg: Any) -> Any:
        self.launched.append(a)
        if a is self.refused:
            raise ValueError("out of resources")
        if a is self.fatal:
            self.torch.cuda.dead = True  # raised at the next synchronization, as on the device
        return None

    def compiled_facts(self, compiled: Any) -> dict[str, Any]:
        return {}

    def check(self, a: Any, b: Any, c: Any, ref: Any) -> float:
        self.torch.cuda.synchronize()
        return 0.0

    def kernel_arguments(self, *a: Any, **k: Any) -> Any:
        return (), {}, (1,)


class _Inputs:
    def __init__(self, torch: _Torch, tg: _Tg) -> None:
        self.torch, self.tg = torch, tg

    def get(self, r: dict[str, Any]) -> tuple[Any, Any, Any]:
        return r, None, 1.0  # the row stands for its inputs, so the stand-in knows which kernel it launches

    def drop(self) -> None:
        pass


class _Sampler:
    def clock_between(self, t0: float, t1: float) -> float:
        return 1980.0


def test_the_kernel_that_kills_the_context_is_the_one_blamed(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(g, "bench_ms", lambda fn: 1.0)
    rows = [r for r in _rows() if r["shape"] == "odd3400x6200x4900"]
    for r in rows:
        r["status"] = "compiled"
    fatal, refused = _faulting(rows), rows[3]
    torch = _Torch()
    tg = _Tg(torch, fatal, refused)
    with pytest.raises(g.ContextLost) as lost:
        g.time_rows(rows, _Inputs(torch, tg), _Sampler(), None, float("inf"), second=False, log=print)
    assert lost.value.row is fatal and fatal["status"].startswith("fault: _Dead: CUDA error: an illegal memory")
    before = rows[: rows.index(fatal)]
    assert tg.launched == [*before, fatal]
    assert refused in before and refused["status"].startswith("run_error: ValueError")
    assert all(r["status"] == "ok" for r in before if r is not refused)
    assert all(r["status"] == "compiled" for r in rows[rows.index(fatal) + 1 :])


def test_a_fault_status_is_left_out_like_any_but_ok(tmp_path: Path):
    """read_broad_csv and benchmarks/compile_study.py --loop-local take status ``ok`` alone; the log counts ``fault``."""
    from roofmodel.backends.broad import read_broad_csv

    rows = _rows()[:3]
    for r, status in zip(rows, ("ok", "fault: AcceleratorError: CUDA error", "compile_error: x"), strict=True):
        r.update(status=status, instruction="wgmma", registers_per_thread=255, spilled_registers=0, shared_bytes=1)
    rows[0].update(time_ms=1.0, time_ms_2=1.0, tflops=1.0, rel_error=0.001)
    g.write_rows(tmp_path / "broad.csv", rows)
    assert [r.shape for r in read_broad_csv(tmp_path / "broad.csv")] == [rows[0]["shape"]]
    with (tmp_path / "broad.csv").open(newline="") as f:
        assert [r["status"].split(":")[0] for r in csv.DictReader(f)] == ["ok", "fault", "compile_error"]
