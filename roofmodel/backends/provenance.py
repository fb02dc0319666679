"""Where and when a measurement was made: device, clocks during the run, driver and versions."""

from __future__ import annotations

import datetime
import json
import statistics
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from roofmodel.backends.records import Provenance
from roofmodel.errors import ProblemError


def _smi(query: str) -> list[str]:
    try:
        out = subprocess.run(
            ["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    return [x.strip() for x in out.splitlines()[0].split(",")] if out.strip() else []


class ClockSampler:
    """Samples the SM clock with nvidia-smi every ``period`` seconds while a block of work runs."""

    def __init__(self, period: float = 0.2) -> None:
        self.period = period
        self.samples: list[float] = []
        self._stop = threading.Event()

    def _run(self) -> None:
        while not self._stop.is_set():
            got = _smi("clocks.sm")
            if got and got[0].replace(".", "").isdigit():
                self.samples.append(float(got[0]))
            self._stop.wait(self.period)

    @contextmanager
    def running(self) -> Iterator[ClockSampler]:
        t = threading.Thread(target=self._run, daemon=True)
        t.start()
        try:
            yield self
        finally:
            self._stop.set()
            t.join()


def collect(clocks: list[float] | None = None) -> Provenance:
    import torch
    import triton

    props = torch.cuda.get_device_properties(0)
    driver = (_smi("driver_version") or ["unknown"])[0]
    return Provenance(
        device=props.name,
        sm_count=props.multi_processor_count,
        l2_bytes=int(getattr(props, "L2_cache_size", 0)),
        driver=driver,
        cuda=str(torch.version.cuda),
        torch=torch.__version__,
        triton=triton.__version__,
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        sm_clock_mhz_median=statistics.median(clocks) if clocks else None,
        sm_clock_mhz_max=max(clocks) if clocks else None,
    )


def read_provenance(path: Path, need: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The provenance.json beside a sweep's CSV as a mapping (None where there is none), with the
    keys ``need``; a file that is not one is one error naming it."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise ProblemError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ProblemError(f"{path}: not a provenance file: malformed JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ProblemError(f"{path}: not a provenance file: expected a JSON object (got {type(data).__name__})")
    missing = [k for k in need if not isinstance(data.get(k), str | int | float)]
    if missing:
        raise ProblemError(f"{path}: not a provenance file: missing {', '.join(missing)} (it needs {', '.join(need)})")
    return data
