"""Shared test helpers: the CLI runner, machine-file mutation, and the GPU skip marker."""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from roofmodel.cli import app
from roofmodel.machine import Machine, load_machine

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"


def has_gpu() -> bool:
    """True where torch sees a CUDA device. Imported lazily: the core tests never need torch."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if any("gpu" in item.keywords for item in items) and not has_gpu():
        skip = pytest.mark.skip(reason="needs an NVIDIA GPU and roofmodel[gpu]")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


class Cli:
    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str) -> Any:
        return self.runner.invoke(app, list(args))


@pytest.fixture
def cli() -> Cli:
    return Cli()


def machine_dict(name: str) -> dict[str, Any]:
    """A built-in machine as the plain data a YAML file would hold."""
    return copy.deepcopy(load_machine(name).model_dump(mode="json", exclude_none=True, exclude={"source_file"}))


def machine_from(data: dict[str, Any]) -> Machine:
    return Machine.model_validate(data)


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def copy_builtin(tmp_path: Path, name: str) -> Path:
    src = REPO / "machines" / f"{name}.yaml"
    dst = tmp_path / f"{name}.yaml"
    shutil.copy(src, dst)
    return dst


# Hypothesis: a derandomized profile for CI (same examples every run), a long one for local soak.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("mid", max_examples=400, deadline=None)
settings.register_profile("soak", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def mappings_with(node: Any, keys: set[str]):
    """Every mapping in a nested JSON-like tree that has all of ``keys`` (not looking inside it)."""
    if isinstance(node, dict):
        if keys <= node.keys():
            yield node
            return
        for value in node.values():
            yield from mappings_with(value, keys)
    elif isinstance(node, list):
        for value in node:
            yield from mappings_with(value, keys)


def kernel_terms_by_hand(**over: Any) -> dict[str, Any]:
    """cta_model.kernel_terms of a tile simple enough to work by hand: 64 x 64 x 64 on 4 warps, 8 iterations (K =
    512), one CTA an SM on 132 SMs at 1 GHz, nothing spilled, no latency, no DRAM or L2 time, no fixed costs; each
    test overrides what its example needs (the grid through m, the family through warpgroup and the rates)."""
    from roofmodel.model.cta_model import CtaCosts, kernel_terms

    args: dict[str, Any] = dict(
        sms=132, clock_hz=1e9, m=132 * 64, n=64, k=8 * 64, bm=64, bn=64, bk=64, warps=4, stages=3, ctas_per_sm=1,
        fma_per_cycle_per_sm=1024.0, instruction_rows=64, warpgroup=True, smem_operand_bytes_per_iter=0.0,
        smem_fill_bytes_per_iter=0.0, smem_bytes_per_cycle=128.0, spilled_registers=0, spill_bytes_per_cycle=25.0,
        load_latency_cycles=0.0, synchronous_loads=False, c_bytes_per_tile=0.0,
        dram_write_bytes_per_cycle_per_sm=1e9, stage_bytes=1.0, dram_bytes=0.0, dram_bps=1e30, dram_latency_s=None,
        l2_seconds=0.0, costs=CtaCosts(),
    )  # fmt: skip
    args.update(over)
    return kernel_terms(**args)
