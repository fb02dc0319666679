"""Hostile input (issues 7 and 14): a corpus of broken machine files, the command line's corpus
(tests/corpus/make_cli_corpus.py: every command, every option, every file the tool reads), and
fuzzed CLI arguments. Every case must end in one clear line on stderr, exit code 2, no traceback
and nothing written."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Cli
from tests.corpus.make_cli_corpus import cases

RUN = Cli()  # hypothesis tests cannot take function-scoped fixtures
CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
CORPUS = sorted((CORPUS_DIR / "machines").glob("*.yaml"))
CLI_CORPUS = cases()


def _one_line_error(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("roofmodel: error: ")
    return lines[0]


def test_the_corpus_is_there():
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
@pytest.mark.parametrize("command", ["show-machine", "analyze"])
def test_corpus_file(cli, path, command, tmp_path):
    expect = path.read_bytes().split(b"\n", 1)[0].decode().removeprefix("# expect: ")
    args = (
        ["show-machine", str(path)] if command == "show-machine" else ["analyze", "--machine", str(path), "--m", "64"]
    )
    line = _one_line_error(cli(*args))
    assert expect in line, line
    assert str(path) in line or "unknown machine" in line


# CLI fuzzing: option values drawn from hostile strings and numbers. Either a clean run or one line.
HOSTILE = st.one_of(
    st.sampled_from(["0", "-1", "1e9", "nan", "inf", "-inf", "", " ", "0x10", "1_000", "٣", "9" * 40, "1.5", "abc"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=12),
)
OPTIONS = ["--m", "--n", "--k", "--tile", "--reg-tile", "--dtype", "--levels", "--cluster", "--raster", "--stages",
           "--warps", "--regs", "--clock-mhz", "--bandwidth", "--instruction", "--reg-overhead", "--acc",
           "--clock", "--compute"]  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(OPTIONS), HOSTILE), min_size=1, max_size=3))
def test_fuzzed_analyze_arguments(pairs):
    args = ["analyze", "--machine", "h100", "--m", "256"]
    for opt, value in pairs:
        args += [opt, value]
    r = RUN(*args)
    if r.exit_code != 0:
        _one_line_error(r)
    else:
        assert "Verdict:" in r.stdout


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["roofline", "budget", "tiles", "raster"]), HOSTILE, HOSTILE)
def test_fuzzed_plots_never_leave_partial_files(kind, m, tile):
    import tempfile

    out_dir = Path(tempfile.mkdtemp(prefix="roofmodel-fuzz-"))
    args = ["plot", kind, "--machine", "t4", "--m", m, "-o", str(out_dir / "x.png")]
    if kind in ("budget", "raster"):
        args += ["--tile", tile]
    r = RUN(*args)
    if r.exit_code != 0:
        _one_line_error(r)
        assert list(out_dir.iterdir()) == []
    else:
        assert [p.name for p in out_dir.iterdir()] == ["x.png"]


# ---------------------------------------------------------------------------------------------
# The command line's corpus


def test_the_cli_corpus_covers_every_command_and_input_file():
    assert len(CLI_CORPUS) >= 500
    commands = {" ".join(a for a in c["args"][:2] if not a.startswith("-")).split(" ")[0] for c in CLI_CORPUS}
    assert {"analyze", "raster", "predict", "tune", "explore", "rank", "plot", "measure", "sweep", "calibrate",
            "validate", "show-machine", "machines"} <= commands  # fmt: skip
    inputs = {name.rsplit("/", 1)[-1] for c in CLI_CORPUS for name in c["files"]}
    assert {"gemm.csv", "provenance.json", "broad.csv", "c.yaml", "c.csv"} <= inputs
    assert any("{corpus}/machines/" in a for c in CLI_CORPUS for a in c["args"])


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", CLI_CORPUS, ids=[c["id"] for c in CLI_CORPUS])
def test_cli_corpus_case(case, tmp_path, monkeypatch):
    for name, text in case["files"].items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(text[4:]) if text.startswith("b64:") else text.encode())
    before = _files(tmp_path)
    monkeypatch.chdir(tmp_path)  # anything written by accident lands where it is seen

    def fill(a: str) -> str:
        return a.replace("{dir}", str(tmp_path)).replace("{corpus}", str(CORPUS_DIR))

    r = RUN(*[fill(a) for a in case["args"]])
    line = _one_line_error(r)
    assert fill(case["expect"]) in line, line
    assert r.stdout == ""
    assert _files(tmp_path) == before, "a failing command wrote a file"
