"""Files written whole: a temporary file beside the target, renamed into place, so that a reader, or a run killed
part way, never sees half of one. The commands' files (cli.output.Outputs, all or none), figures
(render.plots.save_figure) and the sweep's CSVs (benchmarks/gpu_broad_sweep.py) are written so."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def staged_beside(path: Path, data: bytes) -> Path:
    """``data`` in a new temporary file in ``path``'s folder, with the mode a new file gets (0666 less the umask;
    mkstemp makes it 0600): the caller renames it onto ``path`` (os.replace, atomic within a folder) or removes it.
    On an OSError nothing is left behind."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, name = tempfile.mkstemp(dir=folder, prefix=".roofmodel-", suffix=path.suffix)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_atomically(path: Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole: staged_beside, then renamed into place; an OSError leaves
    ``path`` as it was and no temporary file."""
    tmp = staged_beside(path, data.encode() if isinstance(data, str) else data)
    try:
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
