"""benchmarks/tuned_replay.py on the recorded tuned-replay check (docs/measurements/h200-2026-11-29/tuned_replay: the 168
curated kernels of 2026-11-22 timed again on an H200, three runs of two passes): the clocks the kernels ran at, and
the knee the overlap norm was taken for, as regression guards labelled as such."""

from __future__ import annotations

import math
import statistics

import pytest

from benchmarks import tuned_replay
from roofmodel.model import cta_model


def test_the_kernels_ran_at_the_power_limits_clocks():
    """Each kernel's six timings carry the SM clock the harness sampled as they were taken (README.md): 885 of the 1,008
    under 1900 MHz, the median 1500, the board at its 700 W limit; and a timing's clock is its speed (2048^3 on
    128x128x64, 4 warps: 32.4 us at 1815 MHz in the first run's first pass, 39.3 us at 1500 in its second)."""
    timings = tuned_replay.recorded_clocks()
    assert len(timings) == 168 and all(len(t) == 6 for t in timings)
    clocks = sorted(mhz for t in timings for _, mhz in t)
    assert (statistics.median(clocks), clocks[0], clocks[-1], sum(c < 1900 for c in clocks)) == (1500, 1245, 1980, 885)
    (s1, c1), (s2, c2) = timings[0][:2]
    assert (c1, c2) == (1815, 1500) and s2 / s1 == pytest.approx(c1 / c2, rel=0.02)


def _knee(at_recorded_clocks: bool) -> tuple[float, float]:
    """Median signed error where the SM and memory times are within 15% of each other, and over all 168."""
    rows = tuned_replay.errors(at_recorded_clocks)
    assert len(rows) == 168
    return statistics.median(e for e, near in rows if near > 0.85), statistics.median(e for e, _ in rows)


def test_the_knee_at_the_clocks_the_kernels_ran_at(monkeypatch):
    """Held to the model at each timing's clock, the well-tuned kernels were 7.2% too fast where the SM and memory
    times come within 15% with the larger alone (p = infinity; 4.0% over all 168) and 1.5% with p = 8
    (cta_model.OVERLAP_NORM; 0.0% over all), with the model of ca90d65, which chose p = 8 on them. Since a round's
    CTAs pay its prologue and epilogue beside their main loops (cta_model.round_cycles, 2026-11-29), more of them sit
    at the knee and they read -4.6% with the larger alone (-3.2% over all) and +0.2% with p = 8 (+1.1% over all); at
    1980 MHz, where most of them did not run, the knee reads -12.2% with the larger alone."""
    assert cta_model.OVERLAP_NORM == 8.0
    knee, whole = _knee(True)
    assert knee == pytest.approx(0.002, abs=0.005) and whole == pytest.approx(0.011, abs=0.005)
    monkeypatch.setattr(cta_model, "OVERLAP_NORM", math.inf)
    knee, whole = _knee(True)
    assert knee == pytest.approx(-0.046, abs=0.005) and whole == pytest.approx(-0.032, abs=0.005)
    knee, _ = _knee(False)
    assert knee == pytest.approx(-0.122, abs=0.005)
