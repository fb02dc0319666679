"""benchmarks/judge_change.py's --split (a sample's kernels of one split judged alone) and --model predict (a change to
predict alone, judged on its own figures); the predictions faked, so the tests need no second tree."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO


def _judge_change():
    sys.path.insert(0, str(REPO))
    from benchmarks import judge_change

    return judge_change


def test_a_split_is_judged_alone(monkeypatch):
    """With split="holdout" only the held-out kernels count: the change below moves one training kernel (100% off
    after it) and one held-out kernel (10% -> 0%); judged on the held-out split, one kernel moves and its median
    |error| falls, whatever the training kernel does."""
    jc = _judge_change()
    records = list(jc.sweep_records("h100:h100-2026-11-23"))
    measured = [r.time_ms * 1e-3 for r in records]
    train = next(i for i, r in enumerate(records) if r.split == "train")
    held = next(i for i, r in enumerate(records) if r.split == "holdout")
    before = [(t * 1.1 if i == held else t, t, False, None) for i, t in enumerate(measured)]
    after = [(2 * t if i == train else t, t, False, None) for i, t in enumerate(measured)]
    answers = iter([before, after])
    monkeypatch.setattr(jc, "predictions", lambda tree, machine, sample, recs: next(answers))
    old, new, moved = jc.judge(REPO, REPO, "h100:h100-2026-11-23", records, "holdout")
    assert moved == 1
    assert old[2] == pytest.approx(10.0) and new[2] == pytest.approx(0.0)
    assert new[0] == 0.0 and new[1] == 0.0  # the training kernel's 100% is not among them
    assert old[6] == new[6] == 39  # the held-out split's shape-dtype groups (the whole sample has 79)


def test_an_empty_split_is_one_line(monkeypatch):
    """A fresh sample is all held-out shapes: its training split is empty, and the judge says so in one line."""
    jc = _judge_change()
    records = list(jc.sweep_records("h100:h100-2026-11-26/fresh2"))
    monkeypatch.setattr(jc, "predictions", lambda tree, machine, sample, recs: [(1.0, 1.0, False, None)] * len(recs))
    with pytest.raises(SystemExit, match="no kernels of split 'train'"):
        jc.judge(REPO, REPO, "h100:h100-2026-11-26/fresh2", records, "train")


def test_a_predict_change_is_judged_on_predict(monkeypatch):
    """With model="predict" the touched kernels are those whose predict time moved, and the figures are predict's:
    the change below leaves every time as compiled alone and takes one held-out kernel's predict time from 1.5 x its
    measured to 1.1 x (50% -> 10%); every other prediction is exact, so predict's median is 0 either way."""
    jc = _judge_change()
    records = list(jc.sweep_records("h100:h100-2026-11-23"))
    measured = [r.time_ms * 1e-3 for r in records]
    held = next(i for i, r in enumerate(records) if r.split == "holdout")
    before = [(t, t * 1.5 if i == held else t, False, None) for i, t in enumerate(measured)]
    after = [(t, t * 1.1 if i == held else t, False, None) for i, t in enumerate(measured)]
    answers = iter([before, after])
    monkeypatch.setattr(jc, "predictions", lambda tree, machine, sample, recs: next(answers))
    old, new, moved = jc.judge(REPO, REPO, "h100:h100-2026-11-23", records, "holdout", model="predict")
    assert moved == 1
    assert old[2] == pytest.approx(50.0) and new[2] == pytest.approx(10.0)
    assert old[0] == new[0] == 0.0
    assert new[7] == 39
    assert jc.predict_conditions(old, new) == [True] * 5
    # Condition 3 wants the moved kernels better: the change run backwards fails it (and only it).
    assert jc.predict_conditions(new, old) == [True, True, False, True, True]
