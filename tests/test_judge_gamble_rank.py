"""benchmarks/judge_gamble_rank.py on its judge, fresh44 (docs/measurements/h200-2026-11-30/fresh44, read to judge
the rule pre-registered in 7e52c81: register gambles after every configuration that is not one in the rankings by
the rule alone): the figures docs/measurements/h200-2026-11-30/gamble_rank/judges.txt records, as a regression
guard labelled as such, and the conditions by hand."""

from __future__ import annotations

from benchmarks import judge_gamble_rank


def test_the_judge_on_fresh44_passes_as_recorded():
    done = judge_gamble_rank.picks("h200", "h200-2026-11-30/fresh44", None)
    by_time, last = done[False]["predict"], done[True]["predict"]
    assert (round(by_time["first_over_best_min"], 2), by_time["under_0_9"]) == (0.42, 5)
    assert (round(last["first_over_best_min"], 2), last["under_0_9"]) == (0.74, 4)
    assert done[False]["compiled"] == done[True]["compiled"]  # tune --compile-top compiles by time either way
    assert judge_gamble_rank.conditions(done[False], done[True]) == [True] * 4


def test_the_conditions_by_hand():
    def side(worst: float, median: float, under: int) -> dict:
        f = {"first_over_best_min": worst, "first_over_best_median": median, "under_0_9": under}
        return {"predict": f, "compiled": {"groups": 3, "under_0_9": 1}}

    before = side(0.5, 1.0, 4)
    assert judge_gamble_rank.conditions(before, side(0.5, 0.99, 4)) == [True] * 4
    assert judge_gamble_rank.conditions(before, side(0.49, 0.985, 5)) == [False, False, False, True]
    moved = side(0.6, 1.0, 3)
    moved["compiled"] = {"groups": 3, "under_0_9": 2}
    assert judge_gamble_rank.conditions(before, moved) == [True, True, True, False]
