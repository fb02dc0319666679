"""The docs cannot drift from the CLI: every example command in README.md and docs/*.md runs and exits 0
with options spelled as --help spells them, every link resolves, and the custom-machine example's every
override changes what analyze prints."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from pathlib import Path

import click
import pytest
import typer.main
import yaml

from roofmodel.cli import app
from tests.conftest import REPO, Cli


def _load_update_readme():
    spec = importlib.util.spec_from_file_location("update_readme", REPO / "docs" / "update_readme.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["update_readme"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


docs = _load_update_readme()

# The pages this suite holds to their links; other pages of docs/ are generated or owned elsewhere.
PAGES = ["README.md", *(f"docs/{p}.md" for p in ("commands", "library", "model", "machine-files", "validation", "seeds", "development"))]  # fmt: skip
EXAMPLE = REPO / "docs" / "examples" / "my-h100.yaml"
EXAMPLE_ARGS = ["analyze", "--m", "4096"]  # what docs/machine-files.md and the example's header run
CI_TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"


def _examples() -> list[tuple[str, object, object]]:
    """(where, block, command) for every console example of the README and docs/*.md."""
    found = []
    for path in docs.doc_files():
        for block in docs.blocks_of(path):
            for command in block.commands:
                found.append((f"{path.relative_to(REPO)}:{block.first_line}", block, command))
    return found


EXAMPLES = _examples()
_FIRST = {c.line: (w, b, c) for w, b, c in reversed(EXAMPLES)}  # a command shown twice runs once
CPU_EXAMPLES = [pytest.param(b, c, id=f"{w} {c.line}") for w, b, c in _FIRST.values() if not b.options.gpu]
ALL_EXAMPLES = [pytest.param(b, c, id=f"{w} {c.line}") for w, b, c in EXAMPLES]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """The working directory the examples run in, as docs/update_readme.py makes it."""
    return docs.fill_scratch(tmp_path_factory.mktemp("docs"))


def _command_and_rest(args: list[str]) -> tuple[click.Command, list[str]]:
    """The click command the arguments name (walking `plot roofline`), and the arguments after it."""
    command: click.Command = typer.main.get_command(app)
    rest = list(args)
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    return command, rest


def _visible_options(command: click.Command) -> set[str]:
    return {name for p in command.params if isinstance(p, click.Option) and not p.hidden for name in p.opts + p.secondary_opts}  # fmt: skip


def test_the_docs_have_examples_and_the_readme_shows_each_command_family():
    readme = {c.args[0] for w, _, c in EXAMPLES if w.startswith("README.md")}
    assert {"analyze", "predict", "plot", "machines", "calibrate", "validate"} <= readme
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("block, command", CPU_EXAMPLES)
def test_example_command_exits_0(block, command, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    result = Cli()(*command.args)
    assert result.exit_code == 0, f"`{command.line}` exited {result.exit_code}:\n{result.output}"


@pytest.mark.parametrize("block, command", ALL_EXAMPLES)
def test_example_command_spells_its_options_as_help_does(block, command):
    """Old spellings still run but are hidden from --help; the docs use the ones --help shows (a GPU
    command, which cannot run here, is checked this far)."""
    assert command.line.startswith("roofmodel ")
    cmd, rest = _command_and_rest(command.args)
    assert not isinstance(cmd, click.Group), f"`{command.line}`: names no command"
    spelled = {word.split("=", 1)[0] for word in rest if word.startswith("-")}
    assert spelled <= _visible_options(cmd), f"`{command.line}`: not in --help: {spelled - _visible_options(cmd)}"


def test_gpu_examples_take_their_output_from_committed_files():
    """The README's GPU examples show what a committed measurement holds; any page's output= exists."""
    for where, block, _ in EXAMPLES:
        if block.options.gpu and where.startswith("README.md"):
            assert block.options.output, f"{where}: a GPU example shows what a committed file holds"
        if block.options.output:
            assert (REPO / block.options.output).is_file(), f"{where}: {block.options.output} is not committed"


def test_every_roofmodel_prompt_is_inside_a_console_example():
    """A `$ roofmodel` line elsewhere would be neither refreshed nor tested."""
    for path in docs.doc_files():
        prompts = sum(line.startswith(docs.PROMPT) for line in path.read_text(encoding="utf-8").splitlines())
        assert prompts == sum(len(b.commands) for b in docs.blocks_of(path)), path


def test_markers_are_read_as_documented():
    opts = docs.parse_options(' gpu output=a/b.log from="## In short" head=3 tail=1 ')
    assert (opts.gpu, opts.output, opts.start, opts.head, opts.tail) == (True, "a/b.log", "## In short", 3, 1)
    for bad in ("head=0", "lines=3", "tail=2", "gpu=yes"):
        with pytest.raises(ValueError):
            docs.parse_options(bad)
    lines = [str(n) for n in range(10)]
    assert docs.trim(lines, docs.Options(head=3, tail=2)) == ["0", "1", "2", "...", "8", "9"]
    assert docs.trim(lines, docs.Options(head=8, tail=1)) == lines  # nothing to leave out
    assert docs.trim(lines, docs.Options(start="4", head=2)) == ["4", "5", "..."]


@pytest.mark.parametrize("page", ["README.md", "docs/library.md"])
def test_python_examples_run(page, tmp_path, monkeypatch):
    """The library's examples do what the page says they do (in a scratch folder: one writes a picture)."""
    blocks = re.findall(r"^```python\n(.*?)^```", (REPO / page).read_text(encoding="utf-8"), re.S | re.M)
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        exec(compile(code, page, "exec"), {"__name__": "__docs__"})


def test_the_readme_test_command_is_the_one_ci_runs():
    assert CI_TEST_COMMAND in (REPO / ".ci" / "run").read_text().splitlines()
    assert CI_TEST_COMMAND in (REPO / "README.md").read_text().splitlines()


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES)
def test_every_link_resolves_inside_the_repository(page):
    path = REPO / page
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{page}: points outside the repository"
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "#")):
            continue
        resolved = (path.parent / target.split("#", 1)[0]).resolve()
        assert resolved.exists() and REPO in resolved.parents, f"{page}: link {target} does not resolve"


def test_machine_files_page_shows_the_example_file_as_it_is():
    page = (REPO / "docs" / "machine-files.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8") in page
    assert f"$ roofmodel analyze --machine docs/examples/{EXAMPLE.name} --m 4096" in page


def _overrides(node: dict, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every override of a machine overlay: a quantity (a mapping with a value) or a plain value."""
    found = []
    for key, value in node.items():
        if isinstance(value, dict) and "value" not in value:
            found.extend(_overrides(value, (*path, key)))
        elif (*path, key) != ("base",):
            found.append((*path, key))
    return found


def _without(data: dict, path: tuple[str, ...]) -> dict:
    """A deep copy of ``data`` less one override, and any mapping that leaves empty."""
    head, *tail = path
    out = {k: v for k, v in data.items() if k != head}
    if tail:
        inner = _without(data[head], tuple(tail))
        if inner:
            out[head] = inner
    return out


def _analyze_text(folder: Path, data: dict, monkeypatch) -> str:
    """What `roofmodel analyze` prints for a machine file written as data, named as the example is and
    run from its folder (so that the file line reads the same)."""
    folder.mkdir()
    (folder / EXAMPLE.name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    monkeypatch.chdir(folder)
    result = Cli()(EXAMPLE_ARGS[0], "--machine", EXAMPLE.name, *EXAMPLE_ARGS[1:])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_custom_machine_example_has_overrides():
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert data["base"] == "h100"
    assert len(_overrides(data)) >= 3


@pytest.mark.parametrize("override", _overrides(yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))), ids=".".join)
def test_each_override_of_the_custom_machine_changes_what_analyze_prints(override, tmp_path, monkeypatch):
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    with_it = _analyze_text(tmp_path / "with", data, monkeypatch)
    without_it = _analyze_text(tmp_path / "without", _without(data, override), monkeypatch)
    assert with_it != without_it, f"{'.'.join(override)} does not change `roofmodel {shlex.join(EXAMPLE_ARGS)}`"
