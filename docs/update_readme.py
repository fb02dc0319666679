"""Fill the README's and the docs pages' console examples with what the installed CLI prints.

A console example is a fenced block opened by three backticks and ``console``. Each of its lines
that starts ``$ roofmodel `` is a command; the lines after it, up to the next command, are its
output, which this script replaces with what the command prints now. An HTML comment on the line
just above the fence tunes the block::

    <!-- console: head=20 -->                  keep each output's first 20 lines, then a '...' line
    <!-- console: head=20 tail=3 -->           ... and its last 3 lines after the '...'
    <!-- console: from="## In short" head=6 -->  start at the first line containing the text
    <!-- console: gpu output=docs/measurements/h200-2026-11-23/calibrate.log head=12 -->
                                              needs a GPU: never run here; the output is the
                                              committed file that run printed (or, without
                                              output=, whatever the block holds)

Commands run in a scratch directory that holds docs/examples and docs/measurements (links to the
repository's) and an empty docs/img, so an example may read those and write anywhere without
touching the repository; paths in the output are shown relative to it. tests/test_docs.py runs
every command the same way and checks that it exits 0.

Run: python docs/update_readme.py [FILE.md ...]   (default: README.md and docs/*.md)
     python docs/update_readme.py --check          (exit 1 where an example is out of date)
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
INPUTS = ("docs/examples", "docs/measurements")  # what examples may read, linked into the scratch directory
SCRATCH_DIRS = ("docs/img",)  # what examples may write into, empty in the scratch directory
WIDTH = "120"  # the terminal width rich lays tables out for
PROMPT = "$ roofmodel "
FENCE = "```"
MARKER = re.compile(r"^<!--\s*console:(?P<body>.*?)-->\s*$")


@dataclass
class Options:
    """What a block's marker says: keep ``head`` lines from the first containing ``start`` (and the
    last ``tail``); ``gpu`` blocks are never run, and take their output from the committed file ``output``
    if given."""

    head: int | None = None
    tail: int = 0
    start: str | None = None
    gpu: bool = False
    output: str | None = None


@dataclass
class Command:
    line: str  # the command line as written, without the '$ '
    output: list[str] = field(default_factory=list)

    @property
    def args(self) -> list[str]:
        """The arguments after ``roofmodel``."""
        return shlex.split(self.line)[1:]


@dataclass
class Block:
    path: Path
    first_line: int  # 1-based line of the opening fence
    options: Options
    commands: list[Command]


def parse_options(body: str) -> Options:
    """``head=N``, ``tail=N``, ``from=TEXT`` (quoted where it has spaces), ``gpu``, ``output=PATH``."""
    opts = Options()
    for word in shlex.split(body):
        key, _, value = word.partition("=")
        if key == "head" and value.isdigit() and int(value) > 0:
            opts.head = int(value)
        elif key == "tail" and value.isdigit():
            opts.tail = int(value)
        elif key == "from" and value:
            opts.start = value
        elif key == "gpu" and not value:
            opts.gpu = True
        elif key == "output" and value:
            opts.output = value
        else:
            raise ValueError(
                f"console marker: unknown or malformed {word!r} (head=N, tail=N, from=TEXT, gpu, output=PATH)"
            )
    if opts.tail and opts.head is None:
        raise ValueError("console marker: tail=N needs head=N")
    return opts


def parse_blocks(path: Path, lines: list[str]) -> Iterator[tuple[int, int, Block]]:
    """Every console block of a Markdown file: (index of its opening fence, index of its closing fence, block)."""
    i = 0
    while i < len(lines):
        if lines[i].strip() != FENCE + "console":
            i += 1
            continue
        marker = MARKER.match(lines[i - 1].strip()) if i > 0 else None
        options = parse_options(marker["body"]) if marker else Options()
        end = i + 1
        while end < len(lines) and lines[end].strip() != FENCE:
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{i + 1}: console block never closed")
        commands: list[Command] = []
        for line in lines[i + 1 : end]:
            if line.startswith(PROMPT):
                commands.append(Command(line[2:]))
            elif commands:
                commands[-1].output.append(line)
        yield i, end, Block(path, i + 1, options, commands)
        i = end + 1


def blocks_of(path: Path) -> list[Block]:
    return [block for _, _, block in parse_blocks(path, path.read_text(encoding="utf-8").splitlines())]


def doc_files() -> list[Path]:
    """README.md and every page of docs/."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def fill_scratch(root: Path) -> Path:
    """Make ``root`` a working directory for the examples: their inputs linked, their output folders empty."""
    for rel in INPUTS:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(REPO / rel, target_is_directory=True)
    for rel in SCRATCH_DIRS:
        (root / rel).mkdir(parents=True, exist_ok=True)
    return root


@contextmanager
def scratch_directory() -> Iterator[Path]:
    """A temporary working directory for the examples (fill_scratch), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="roofmodel-docs-") as tmp:
        yield fill_scratch(Path(tmp))


def trim(output: list[str], options: Options) -> list[str]:
    """The part of an output a block shows: from the first line containing ``from``, ``head`` lines, a
    '...' line and the last ``tail`` lines (all of it where that is no shorter)."""
    if options.start is not None:
        starts = [n for n, line in enumerate(output) if options.start in line]
        if not starts:
            raise ValueError(f"from={options.start!r}: no line of the output contains it")
        output = output[starts[0] :]
    if options.head is not None and len(output) > options.head + options.tail + 1:
        output = [*output[: options.head], "...", *output[len(output) - options.tail :]]
    return output


def relative_paths(text: str, *roots: Path) -> str:
    """Paths under the repository or the scratch directory, as a reader of the docs would type them."""
    for root in roots:
        text = text.replace(f"{root}{os.sep}", "").replace(str(root), ".")
    return text


def roofmodel_executable() -> str:
    """The installed console script: beside this Python (a venv), else on the PATH."""
    beside = Path(sys.executable).parent / "roofmodel"
    found = str(beside) if beside.exists() else shutil.which("roofmodel")
    if found is None:
        raise SystemExit("update_readme: the roofmodel command is not installed (pip install .)")
    return found


def run(command: Command, cwd: Path) -> list[str]:
    """What the installed CLI prints for a command, run in ``cwd``; a failure stops everything."""
    env = {**os.environ, "COLUMNS": WIDTH, "TERM": "dumb", "NO_COLOR": "1"}
    done = subprocess.run(
        [roofmodel_executable(), *command.args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"update_readme: `{command.line}` exited {done.returncode}:\n{done.stderr}")
    text = relative_paths(done.stdout, REPO, cwd.resolve(), cwd)
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


def new_output(command: Command, options: Options, cwd: Path) -> list[str]:
    if options.gpu:
        if options.output is None:
            return command.output
        return trim((REPO / options.output).read_text(encoding="utf-8").rstrip("\n").splitlines(), options)
    return trim(run(command, cwd), options)


def updated(path: Path, cwd: Path) -> str:
    """The file's text with every console block's outputs refreshed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    done = 0
    for start, end, block in parse_blocks(path, lines):
        out.extend(lines[done : start + 1])
        for command in block.commands:
            out.append(f"$ {command.line}")
            out.extend(new_output(command, block.options, cwd))
        out.append(lines[end])
        done = end + 1
    out.extend(lines[done:])
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    files = [Path(a).resolve() for a in argv if a != "--check"] or doc_files()
    stale = []
    with scratch_directory() as cwd:
        for path in files:
            text = updated(path, cwd)
            if text == path.read_text(encoding="utf-8"):
                continue
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'out of date' if check else 'updated'}: {path.relative_to(REPO)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
