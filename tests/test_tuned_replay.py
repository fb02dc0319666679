"""benchmarks/tuned_replay.py on the recorded tuned-replay check (docs/measurements/h200-2026-11-29/tuned_replay: the 168
curated kernels of 2026-11-22 timed again on an H200, three runs of two passes): the clocks the shapes ran at, and the
knee the overlap norm was taken for, as regression guards labelled as such."""

from __future__ import annotations

import math
import statistics

import pytest

from benchmarks import tuned_replay
from roofmodel.model import cta_model


def test_the_shapes_ran_at_the_power_limits_clocks():
    """The medians of the clocks.csv samples within a quarter second of each shape's passes (README.md): every shape
    but 2048^3 ran well under 1980 MHz, the board at its 700 W limit."""
    clocks = tuned_replay.sampled_clocks()
    assert clocks == {"2048x2048x2048": 1965.0, "16384x512x4096": 1575.0, "2048x2048x16384": 1515.0,
                      "4096x4096x4096": 1515.0, "8192x8192x1024": 1470.0, "8192x8192x8192": 1365.0}  # fmt: skip


def _knee(clocks: dict[str, float] | None) -> tuple[float, float]:
    """Median signed error where the SM and memory times are within 15% of each other, and over all 168."""
    rows = tuned_replay.errors(clocks)
    assert len(rows) == 168
    return statistics.median(e for e, near in rows if near > 0.85), statistics.median(e for e, _ in rows)


def test_the_knee_at_the_clocks_the_kernels_ran_at(monkeypatch):
    """At the sampled clocks the well-tuned kernels are 6.1% too fast where the SM and memory times come within 15%
    with the larger alone (p = infinity, the model before 2026-11-29) and +0.3% with the model's p = 8
    (cta_model.OVERLAP_NORM); at 1980 MHz, where most of them did not run, the knee reads -16.1% before."""
    clocks = tuned_replay.sampled_clocks()
    assert cta_model.OVERLAP_NORM == 8.0
    knee, whole = _knee(clocks)
    assert knee == pytest.approx(0.003, abs=0.005) and whole == pytest.approx(0.008, abs=0.005)
    monkeypatch.setattr(cta_model, "OVERLAP_NORM", math.inf)
    knee, whole = _knee(clocks)
    assert knee == pytest.approx(-0.061, abs=0.005) and whole == pytest.approx(-0.049, abs=0.005)
    knee, _ = _knee(None)
    assert knee == pytest.approx(-0.161, abs=0.005)
