"""predict --compile and tune --compile-top: Triton's compile on the CPU gives the counts the register rule guesses.

The compiles run where the triton package is installed (CI installs it; no GPU needed) and are skipped
cleanly elsewhere; the ranking logic is also held with a stand-in compiler."""

from __future__ import annotations

import importlib.util
import json

import pytest

from roofmodel.errors import ProblemError
from roofmodel.machine import load_machine
from roofmodel.model.kernel import triton_config
from roofmodel.model.prediction import predict_kernel
from roofmodel.model.problem import Gemm
from roofmodel.results import CompiledCounts
from roofmodel.search.space import space_named, tune_report
from tests.test_bad_input import _assert_one_line_error

needs_triton = pytest.mark.skipif(importlib.util.find_spec("triton") is None, reason="needs the triton package")

H100 = load_machine("h100")
# The device's collapse (docs/measurements/compile-study/README.md): fp16 32x128x32 on 2 warps, 2 stages, both
# operands K-major at 7000x1800x2500, which the H100 ran at 32 registers and 650 spilled (Triton 3.6).
COLLAPSE = dict(m=7000, n=1800, k=2500, dtype="fp16", block_m=32, block_n=128, block_k=32, num_warps=2, num_stages=2,
                a_major="k", b_major="k")  # fmt: skip
# What each Triton compiles it to (its own ptxas and options): Triton 3.6 (ptxas 12.8), as the H100; Triton 3.9 (13.4).
BY_PTXAS = {"12.8": (32, 650), "13.4": (255, 56)}


@needs_triton
def test_compile_counts_of_the_device_collapse_and_its_aligned_twin():
    from roofmodel.backends.triton_compile import CompileJob, compile_counts

    c = compile_counts(CompileJob(**COLLAPSE), 90)
    assert c.instruction == "mma.sync" and c.target == "sm_90a" and c.shared_bytes > 0
    if c.ptxas in BY_PTXAS:
        assert (c.registers, c.spilled) == BY_PTXAS[c.ptxas]
    # Aligned (every size a multiple of 16): both operands copied 16 bytes at a time, far from the limit.
    aligned = compile_counts(CompileJob(**{**COLLAPSE, "m": 7008, "n": 1808, "k": 2512}), 90)
    assert aligned.spilled == 0 and aligned.registers < 255


@needs_triton
def test_predict_compile_takes_the_compiled_counts(cli):
    args = ["predict", "--machine", "h100", "--m", "7000", "--n", "1800", "--k", "2500", "--tile", "32x128x32",
            "--kernel", "triton", "--warps", "2", "--stages", "2", "--a-major", "k", "--b-major", "k"]  # fmt: skip
    res = cli(*args, "--compile", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    c = doc["compiled"]
    assert (doc["registers_per_thread"], doc["spilled_registers"], doc["shared_bytes"]) == (
        c["registers"], c["spilled"], c["shared_bytes"])  # fmt: skip
    assert doc["registers_origin"].startswith(f"compiled by Triton {c['triton']} with ptxas {c['ptxas']}")
    # The same counts given by hand predict the same time.
    hand = cli(*args, "--regs", str(c["registers"]), "--spilled", str(c["spilled"]), "--json")
    assert json.loads(hand.stdout)["spilled_registers"] == c["spilled"]
    text = cli(*args, "--compile")
    assert text.exit_code == 0 and f"(compiled by Triton {c['triton']}" in text.stdout


def _counts(registers: int, spilled: int, instruction: str = "mma.sync") -> CompiledCounts:
    return CompiledCounts(registers=registers, spilled=spilled, shared_bytes=20480, instruction=instruction,
                          target="sm_90a", triton="test", ptxas="test")  # fmt: skip


def test_predict_with_compiled_counts_is_predict_with_those_counts_given():
    g = Gemm(m=7000, n=1800, k=2500, dtype="fp16")
    cfg = triton_config(H100, "fp16", block_m=32, block_n=128, block_k=32, group_m=8, num_warps=2, num_stages=2)
    c = _counts(32, 650)
    by_compile = predict_kernel(H100, g, cfg, a_major="k", b_major="k", compiled=c)
    by_hand = predict_kernel(H100, g, cfg, a_major="k", b_major="k", regs=32, spilled=650, shared_bytes=20480)
    assert by_compile.seconds == by_hand.seconds and by_compile.compiled == c and by_hand.compiled is None
    # 650 spilled registers reloaded every iteration: far slower than the rule's 255 registers.
    assert by_compile.seconds > 5 * predict_kernel(H100, g, cfg, a_major="k", b_major="k").seconds
    with pytest.raises(ProblemError, match="not --regs too"):
        predict_kernel(H100, g, cfg, compiled=c, regs=32)
    # Where the compiler chose another MMA family than Triton's rule, the prediction takes the compiled one.
    wg = triton_config(H100, "fp16", block_m=128, block_n=128, block_k=32, num_warps=4, num_stages=3)
    assert wg.instruction == "wgmma"
    p = predict_kernel(H100, Gemm(m=4096, n=4096, k=4096, dtype="fp16"), wg, compiled=_counts(128, 0))
    assert p.instruction == "mma.sync"


def test_tune_compile_ranks_the_first_n_by_their_compiled_counts():
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    space = space_named("triton")
    plain = tune_report(H100, g, space, top=64)
    rule = {r.config: r for r in plain.top}
    calls = []

    def compiler(configs):
        # The rule's first collapses to the stack; Triton refuses the second; the rest compile as the rule says.
        calls.append(len(configs))
        out = []
        for c in configs:
            if c == plain.top[0].config:
                out.append(_counts(32, 2000, c.instruction))
            elif c == plain.top[1].config:
                out.append("Triton refused it")
            else:
                out.append(_counts(rule[c].registers_per_thread, rule[c].spilled_registers, c.instruction))
        return out

    rep = tune_report(H100, g, space, top=3, compile_top=4, compiler=compiler)
    assert calls == [8] and rep.compile_top == 4 and rep.compile_refused == ["Triton refused it"]
    # The first 4 are compiled; the 5th by the rule is no faster than the best compiled (the rule's 3rd): stop.
    assert plain.top[4].seconds >= plain.top[2].seconds and rep.compiled == 4
    assert [r.rule_rank for r in rep.top] == [3, 4, 1]  # the collapsed first falls behind the others
    assert rep.top[-1].spilled_registers == 2000 and rep.top[0].config == plain.top[2].config
    assert rep.winner.compiled == rep.top[0].compiled and rep.top[0].note.startswith("first; compiled")
    assert rep.top[0].seconds == pytest.approx(plain.top[2].seconds, rel=0.05)
    with pytest.raises(ProblemError, match="refused all"):
        tune_report(H100, g, space, top=3, compile_top=2, compiler=lambda cs: ["no"] * len(cs))


def test_tune_compile_goes_on_while_the_next_could_win():
    """Where every one of the first N collapses, the compile goes on down the rule's order, past N, until the
    next by the rule could not beat the best compiled (here the first that compiles as the rule says)."""
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    space = space_named("triton")
    plain = tune_report(H100, g, space, top=64)
    rule = {r.config: r for r in plain.top}
    collapsed = {r.config for r in plain.top[:11]}

    def compiler(configs):
        return [_counts(32, 2000, c.instruction) if c in collapsed
                else _counts(rule[c].registers_per_thread, rule[c].spilled_registers, c.instruction) for c in configs]  # fmt: skip

    rep = tune_report(H100, g, space, top=2, compile_top=4, compiler=compiler)
    assert rep.top[0].rule_rank == 12 and rep.top[0].config == plain.top[11].config
    assert 12 <= rep.compiled <= 32 and rep.compile_top == 4


def _predict_4096(machine: str, *more: str) -> list[str]:
    return ["predict", "--machine", machine, "--m", "4096", "--tile", "128x128x64", *more]


TRITON_COMPILE = ("--kernel", "triton", "--compile")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (_predict_4096("h100", "--compile"), ["--kernel triton"]),
        (_predict_4096("h100,h200", *TRITON_COMPILE), ["--compile", "one --machine"]),
        (_predict_4096("h100", *TRITON_COMPILE, "--regs", "128"), ["--compile", "not --regs"]),
        (_predict_4096("mi300x", *TRITON_COMPILE), ["not an NVIDIA GPU", "gfx942"]),
        (["tune", "--machine", "h100", "--m", "4096", "--compile-top", "-1"], ["--compile-top"]),
        (["tune", "--machine", "h100", "--m", "4096", "--space", "all", "--compile-top", "2"], ["--space triton"]),
    ],
)
def test_bad_compile_requests(cli, args, needles):
    _assert_one_line_error(cli(*args), *needles)


def test_compile_without_triton_is_one_line(cli, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "triton" else real(name, *a))
    for args in (_predict_4096("h100", *TRITON_COMPILE),
                 ["tune", "--machine", "h100", "--m", "4096", "--space", "triton", "--compile-top", "4"]):  # fmt: skip
        _assert_one_line_error(cli(*args), "pip install triton", "no GPU needed")


@needs_triton
def test_the_api_tune_compiles_the_first_n():
    import roofmodel
    from roofmodel.backends.triton_compile import compiler_for

    g = Gemm(m=7000, n=1800, k=2500, dtype="fp16")
    rep = roofmodel.tune("h100", g, "triton", top=2, compile_top=3, a_major="k", b_major="k",
                         compiler=compiler_for("h100", g, "k", "k"))  # fmt: skip
    assert rep.compiled == 3 and len(rep.top) == 2
    assert all(r.compiled is not None and r.rule_rank in (1, 2, 3) for r in rep.top)
    assert rep.top[0].seconds <= rep.top[1].seconds


def test_the_compiled_pick_figures_on_a_recorded_sample():
    """Recorded guard (docs/measurements/h100-2026-11-26/fresh4, read): with N = 1 the pick is predict's own; with
    the first 8 compiled (their recorded counts, which Triton 3.6 on a CPU reproduces), predict's worst pick there,
    the mma.sync collapse at 0.02, gives way to 0.67, as docs/validation.md's table says."""
    from pathlib import Path

    from roofmodel.backends.broad import compiled_pick_figures, evaluate, figures, read_broad_csv

    path = Path(__file__).resolve().parents[1] / "docs/measurements/h100-2026-11-26/fresh4/broad.csv"
    rows = evaluate(H100, read_broad_csv(path), 1980)
    one, eight = compiled_pick_figures(rows, 1, beyond=False), compiled_pick_figures(rows, 8)
    assert one["first_over_best_min"] == figures(rows, "predict")["first_over_best_min"]
    assert one["groups"] == eight["groups"] == 49
    assert round(one["first_over_best_min"], 2) == 0.02 and round(eight["first_over_best_min"], 2) == 0.67
    assert (one["under_0_9"], eight["under_0_9"]) == (11, 11)


def test_a_compile_that_does_not_fit_is_listed_as_refused_not_fatal():
    g = Gemm(m=4096, n=4096, k=4096, dtype="fp16")
    space = space_named("triton")
    plain = tune_report(H100, g, space, top=64)
    rule = {r.config: r for r in plain.top}

    def compiler(configs):  # the rule's first compiles to more shared memory than a block may have
        return [CompiledCounts(registers=128, spilled=0, shared_bytes=300_000, instruction=c.instruction,
                               target="sm_90a", triton="test", ptxas="test") if c == plain.top[0].config
                else _counts(rule[c].registers_per_thread, rule[c].spilled_registers, c.instruction) for c in configs]  # fmt: skip

    rep = tune_report(H100, g, space, top=2, compile_top=2, compiler=compiler)
    assert len(rep.compile_refused) == 1 and "300,000 B" in rep.compile_refused[0]
    assert rep.top[0].rule_rank == 2


def test_the_mma_family_a_ptx_names():
    from roofmodel.backends.triton_compile import mma_family, refusal_reason

    assert mma_family("tcgen05.mma.cta_group::1.kind::f16") == "tcgen05"
    assert mma_family("tcgen05.mma.cta_group::2.kind::f16") == "tcgen05.2sm"
    assert mma_family("wgmma.mma_async.sync.aligned") == "wgmma" and mma_family("mma.sync.aligned") == "mma.sync"
    assert mma_family("fma.rn.f32") == "fma"
    said = "PTXAS error\nptxas error   : Entry function uses too much shared data\nRepro command: ptxas ..."
    assert refusal_reason(said) == "ptxas error : Entry function uses too much shared data"


@needs_triton
def test_compile_for_blackwell_reads_tcgen05(cli):
    res = cli(*_predict_4096("b200", *TRITON_COMPILE, "--json"))
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["compiled"]["instruction"].startswith("tcgen05") and doc["compiled"]["target"] == "sm_100a"


def test_the_compiled_picks_by_hand():
    """compiled_pick_figures on one group of six kernels with known times (ms): predict ranks a < b < c < d < e < f;
    as compiled a (the rule's first) collapses, b is the fastest compiled of the first two, d the fastest of all.
    Measured, d is the best. With N = 2: a and b (best compiled 4.0), then c, whose predict time 3.0 could still
    win (best compiled now 3.0), then d's 3.5 could not: stop; the pick is c, at 2 / 3 of the best. With N = 1
    and no going on: a alone, 2 / 40. With N = 4: a to d compiled, the pick is d, the best."""
    from types import SimpleNamespace

    from roofmodel.backends.broad import compiled_pick_figures

    rec = SimpleNamespace(shape="s", dtype="fp16")
    rows = [SimpleNamespace(record=rec, predict=p, cta=c, measured=m) for p, c, m in (
        (1.0, 50.0, 40.0), (2.0, 4.0, 4.0), (3.0, 3.0, 3.0), (3.5, 2.0, 2.0), (5.0, 5.0, 5.0), (6.0, 6.0, 6.0))]  # fmt: skip
    assert compiled_pick_figures(rows, 2)["first_over_best_min"] == pytest.approx(2.0 / 3.0)
    assert compiled_pick_figures(rows, 1, beyond=False)["first_over_best_min"] == pytest.approx(2.0 / 40.0)
    four = compiled_pick_figures(rows, 4)
    assert four == {"groups": 1, "first_over_best_median": 1.0, "first_over_best_min": 1.0, "under_0_9": 0}
