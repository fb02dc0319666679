"""What the commands write: files (all or none), figure formats, times and rates as text, progress.

``Outputs`` gathers every file a command will write, checks that each can be written, and only
then writes them, each through a temporary file in its own folder renamed into place: a command
that fails writes nothing, and none leaves half a file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from roofmodel.errors import ProblemError
from roofmodel.files import staged_beside

FIGURE_FORMATS = ("png", "svg", "pdf")


def figure_format(path: str, option: str, fmt: str | None = None, with_format: bool = True) -> str:
    """The format of a figure written to ``path`` (given with ``option``): the file's suffix, or
    ``--format`` where the file has none (``with_format``: the command has a --format option); a
    suffix that contradicts ``--format`` is an error."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if fmt is not None:
        if suffix and suffix != fmt:
            raise ProblemError(f"--format {fmt} with {option} {path}: the file's suffix says {suffix}; "
                               "drop --format or name the file ." + fmt)  # fmt: skip
        return fmt
    if not suffix:
        return "png"
    if suffix not in FIGURE_FORMATS:
        raise ProblemError(f"{option} {path}: cannot tell the format from the suffix .{suffix} (accepted: .png, .svg, "
                           f".pdf{', or --format' if with_format else ''})")  # fmt: skip
    return suffix


class Outputs:
    """Files to write together: ``add`` checks where each goes, ``write`` writes all or none."""

    def __init__(self) -> None:
        self._planned: list[tuple[str, Path]] = []
        self._data: dict[Path, bytes] = {}
        self._checks: dict[Path, Callable[[Path], object]] = {}

    def add(self, option: str, path: str) -> Path:
        """Plan a file given with ``option``; refused where its folder is missing or it is a folder."""
        p = Path(path)
        if not path.strip():
            raise ProblemError(f"{option}: give a file name (got {path!r})")
        folder = p.parent if str(p.parent) else Path(".")
        if p.is_dir():
            raise ProblemError(f"{option} {path}: is a directory; give a file name")
        if not folder.is_dir():
            raise ProblemError(f"{option} {path}: directory {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ProblemError(f"{option} {path}: directory {folder} is not writable")
        if any(q.resolve() == p.resolve() for _, q in self._planned):
            raise ProblemError(f"{option} {path}: the same file is given twice")
        self._planned.append((option, p))
        return p

    def put(self, path: Path, data: bytes | str, check: Callable[[Path], object] | None = None) -> None:
        """The content of a planned file; ``check`` (raising RoofmodelError) reads it back from its
        temporary file before anything is renamed into place."""
        self._data[path] = data.encode() if isinstance(data, str) else data
        if check is not None:
            self._checks[path] = check

    def write(self) -> None:
        """Write every planned file: each to a temporary file beside it, then all renamed."""
        temps: list[tuple[str, Path, Path]] = []
        try:
            for option, path in self._planned:
                temps.append((option, staged_beside(path, self._data[path]), path))
            for _, tmp, path in temps:
                if path in self._checks:
                    self._checks[path](tmp)
            for option, tmp, path in temps:
                try:
                    os.replace(tmp, path)
                except OSError as exc:
                    raise ProblemError(f"{option} {path}: cannot write: {exc.strerror}") from None
        except OSError as exc:
            raise ProblemError(f"{temps[-1][0] if temps else 'output'}: cannot write: {exc.strerror}") from None
        finally:
            for _, tmp, _ in temps:
                tmp.unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# Times and rates as text


# ---------------------------------------------------------------------------------------------
# Progress of long work, on stderr

Report = Callable[[int, int, str], None]  # (done, total, what is being measured now)


@contextmanager
def progress(title: str, quiet: bool = False) -> Iterator[Report]:
    """A progress bar on stderr (what is measured now, how many done, time left), shown only
    where stderr is a terminal and not ``quiet``; yields the function that moves it."""
    if quiet or not sys.stderr.isatty():
        yield lambda done, total, what: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(f"{title}: " + "{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("left"), TimeRemainingColumn())  # fmt: skip
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("starting", total=None)

        def report(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=what)

        yield report
