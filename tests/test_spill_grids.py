"""A wgmma kernel's spills move faster on a grid that fills fewer SMs (cta_model.grid_spill_rate,
prediction.grid_bound_spills): the rule by hand, its invariants, the spill grids it was measured on
(docs/measurements/h200-2026-11-29/spill_grids) and its scope."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofmodel import load_machine
from roofmodel.model.cta_model import grid_spill_rate
from roofmodel.model.kernel import FAMILIES
from roofmodel.model.prediction import grid_bound_spills, held_spill_rate, machine_rates
from tests.conftest import REPO

SPILL_GRIDS = REPO / "docs" / "measurements" / "h200-2026-11-29" / "spill_grids"


def test_grid_spill_rate_by_hand():
    # The H200's figures: 25.9 B/cycle/SM with all 132 SMs spilling, 33.4 with few.
    assert grid_spill_rate(25.9, 33.4, 132, 132) == pytest.approx(25.9)
    assert grid_spill_rate(25.9, 33.4, 1000, 132) == pytest.approx(25.9)  # more tiles than SMs: all of them spill
    assert grid_spill_rate(25.9, 33.4, 110, 132) == pytest.approx(25.9 * 132 / 110)  # 31.08: the chip's share
    assert grid_spill_rate(25.9, 33.4, 66, 132) == pytest.approx(33.4)  # 51.8 a share: one SM's rate binds
    assert grid_spill_rate(25.9, 33.4, 1, 132) == pytest.approx(33.4)
    # A file whose lone rate is below the full grid's never makes a smaller grid slower.
    assert grid_spill_rate(25.9, 20.0, 16, 132) == pytest.approx(25.9)


def test_grid_spill_rate_in_arrays_is_the_scalar_formula():
    np = pytest.importorskip("numpy")
    tiles = np.array([1, 16, 66, 102, 110, 132, 500])
    got = grid_spill_rate(25.9, 33.4, tiles, 132)
    assert list(got) == [grid_spill_rate(25.9, 33.4, int(t), 132) for t in tiles]


@given(st.floats(1.0, 100.0), st.floats(1.0, 200.0), st.integers(1, 2000), st.integers(1, 2000), st.integers(1, 200))
def test_a_larger_grid_never_spills_faster(all_sms, alone, tiles, more, sms):
    """Fewer tiles never slow the spills, the rate stays between the full grid's and the larger of the two, and more
    bandwidth alone never slows them."""
    small, large = grid_spill_rate(all_sms, alone, tiles, sms), grid_spill_rate(all_sms, alone, tiles + more, sms)
    assert small >= large - 1e-9
    assert all_sms - 1e-9 <= small <= max(all_sms, alone) + 1e-9
    assert grid_spill_rate(all_sms, alone * 1.5, tiles, sms) >= small - 1e-9


def test_only_wgmma_spills_are_grid_bound():
    """The spill grids' mma.sync pairs (two warps, one CTA an SM) and FMA pair kept their rates on every grid."""
    assert [f for f in FAMILIES if grid_bound_spills(FAMILIES.index(f))] == ["wgmma"]


def test_held_rate_on_the_built_in_files():
    h200, h100 = machine_rates(load_machine("h200"), "fp16"), machine_rates(load_machine("h100"), "fp16")
    wgmma, mma = FAMILIES.index("wgmma"), FAMILIES.index("mma.sync")
    assert held_spill_rate(h200, 132, 132, wgmma) == pytest.approx(25.9)
    assert held_spill_rate(h200, 32, 132, wgmma) == pytest.approx(33.4)
    assert held_spill_rate(h200, 32, 132, mma) == pytest.approx(25.9)
    assert held_spill_rate(h100, 32, 132, wgmma) == pytest.approx(33.4)
    assert held_spill_rate(h100, 132, 132, wgmma) == pytest.approx(24.1)
    # A file without the lone rate keeps the one rate on every grid.
    bare = load_machine("h200").model_dump(mode="json")
    del bare["kernel_costs"]["spill_bandwidth_alone"]
    rates = machine_rates(_machine(bare), "fp16")
    assert held_spill_rate(rates, 32, 132, wgmma) == pytest.approx(25.9)


def _machine(data: dict):
    from roofmodel.machine.schema import Machine

    return Machine.model_validate(data)


def test_the_files_take_the_spill_grids_figures():
    """machines/h200.yaml's spill_bandwidth and spill_bandwidth_alone are benchmarks/derive_spill_grids.py's medians
    over the committed run; the H100 borrows the lone rate and keeps its own full-grid one."""
    from tests.test_cta_model import _benchmark

    derive = _benchmark("derive_spill_grids")
    machine = load_machine("h200")
    path = SPILL_GRIDS / "broad.csv"
    full, _ = derive.grid_rates(path, machine, 132, 1.98e9)
    alone = [v for g in (66, 33, 16) for v in derive.grid_rates(path, machine, g, 1.98e9)[0].values()]
    assert len(full) == 5 and len(alone) == 15
    assert machine.kernel_costs.spill_bandwidth.value == pytest.approx(statistics.median(full.values()), abs=0.05)
    assert machine.kernel_costs.spill_bandwidth_alone.value == pytest.approx(statistics.median(alone), abs=0.05)
    assert load_machine("h100").kernel_costs.spill_bandwidth_alone.value == pytest.approx(statistics.median(alone),
                                                                                          abs=0.05)  # fmt: skip
    assert load_machine("h100").kernel_costs.spill_bandwidth.value == 24.1


def test_spill_grids_regression_guard():
    """Regression guard on the recorded spill grids (the data the figures came from, so a guard and no validation):
    the 20 spilling wgmma kernels at K = 8192 on the four grids were off by up to +33% (median |error| 26%; 12 of the
    15 on half the SMs or fewer 24-33% too slow) before the rule; now median 3%, none more than 2% too slow. The fp16 256x128x64 pair, whose spills move at
    20-22 B/cycle/SM on every grid, stays 21-29% too fast."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    ev = Evaluator(load_machine("h200"), 1980.0)
    records = [r for r in read_broad_csv(SPILL_GRIDS / "broad.csv")
               if r.k == 8192 and r.spilled_registers and r.instruction == "wgmma"]  # fmt: skip
    errors = [float(ev.seconds(r)["total"]) / (r.time_ms * 1e-3) - 1 for r in records]
    assert len(errors) == 20
    assert statistics.median(abs(e) for e in errors) < 0.05
    assert max(errors) < 0.05


def test_mma_sync_spills_do_not_see_the_grid():
    """The lone rate moves no mma.sync or FMA kernel: the spill grids' mma.sync and FMA kernels are predicted the same
    with and without spill_bandwidth_alone in the file."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    bare = load_machine("h200").model_dump(mode="json")
    del bare["kernel_costs"]["spill_bandwidth_alone"]
    with_it, without = Evaluator(load_machine("h200"), 1980.0), Evaluator(_machine(bare), 1980.0)
    records = [r for r in read_broad_csv(SPILL_GRIDS / "broad.csv") if r.instruction != "wgmma"]
    assert len(records) == 160
    assert all(float(with_it.seconds(r)["total"]) == float(without.seconds(r)["total"]) for r in records)
    wgmma = [r for r in read_broad_csv(SPILL_GRIDS / "broad.csv") if r.instruction == "wgmma" and r.spilled_registers]
    assert any(float(with_it.seconds(r)["total"]) < float(without.seconds(r)["total"]) for r in wgmma)


def test_the_full_grid_takes_the_full_grids_rate():
    """On the spill grids' full grid (132 tiles, one CTA an SM) the rule changes nothing: every kernel is predicted as
    with no spill_bandwidth_alone in the file; on the smaller grids the wgmma spilling kernels are predicted faster."""
    from roofmodel.backends.broad import Evaluator, read_broad_csv

    bare = load_machine("h200").model_dump(mode="json")
    del bare["kernel_costs"]["spill_bandwidth_alone"]
    with_it, without = Evaluator(load_machine("h200"), 1980.0), Evaluator(_machine(bare), 1980.0)
    records = read_broad_csv(SPILL_GRIDS / "broad.csv")
    full = [r for r in records if r.shape.endswith("g132")]
    assert len(full) == 90
    assert all(float(with_it.seconds(r)["total"]) == float(without.seconds(r)["total"]) for r in full)
    small = [r for r in records if not r.shape.endswith("g132") and r.instruction == "wgmma" and r.spilled_registers]
    assert len(small) == 75
    assert all(float(with_it.seconds(r)["total"]) < float(without.seconds(r)["total"]) for r in small)


def test_predict_states_the_grid_rate(cli):
    """predict's spills detail gives the rule with its figures filled in: 32 tiles of 256 x 256 on the H200."""
    r = cli("predict", "--machine", "h200", "--m", "128", "--n", "8192", "--k", "8192", "--tile", "256x256x32",
            "--warps", "8", "--stages", "2", "--kernel", "triton", "--b-major", "k", "--regs", "255", "--spilled",
            "172", "--clock", "1980")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "at 33.4 B/cycle/SM where the L2 holds them: max(25.9, min(33.4, 25.9 x 132 / 32 SMs the grid fills))" in (
        " ".join(r.output.split())
    )


@pytest.mark.parametrize(("refinement", "base"), [("spill_bandwidth_alone", "spill_bandwidth"),
                                                   ("copy_instruction_shared", "copy_instruction")])  # fmt: skip
def test_a_refinement_without_its_base_is_one_clear_line(cli, tmp_path, refinement, base):
    """A machine file that gives how a figure varies but not the figure is refused with one line naming both."""
    import yaml

    data = yaml.safe_load((REPO / "machines" / "h200.yaml").read_text())
    del data["kernel_costs"][base]
    path = tmp_path / "h200-bad.yaml"
    path.write_text(yaml.safe_dump(data))
    r = cli("analyze", "--machine", str(path), "--m", "4096")
    assert r.exit_code != 0
    assert f"{refinement} refines {base}: give {base} too" in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
