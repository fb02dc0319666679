"""What the class scripts (synchronous_wait_classes.py, issued_overlap_bands.py, l2_request_classes.py,
fenced_copy_classes.py) share: where the recorded samples are, the H100's read broad sweeps up to a fresh sample,
their command line and their median signed error."""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "docs" / "measurements"


def read_h100(last: int) -> tuple[str, ...]:
    """The H100's read broad sweeps, 2026-11-23 to fresh{last} (each script keeps the set its figures were
    printed on)."""
    return ("h100-2026-11-23", "h100-2026-11-24", *(f"h100-2026-11-26/fresh{i}" for i in range(2, 8)),
            *(f"h100-2026-11-27/fresh{i}" for i in range(8, last + 1)))  # fmt: skip


# The H200's samples committed unread that a later one was read before: fresh52 was read first, to judge 395a218, the
# only unread sample whose configurations held a kernel that change moved, and fresh53 to judge ef79ce4 (the sample with
# more of its kernels). Left out of the read lists until read. fresh51, the last, was read on 2026-12-01 (fourth
# session) to judge 2e86a60, with fresh67: it joins the lists from there (READ_LATE), so that a set pinned before, read
# to fresh55 or fresh61, is still the set its figures were printed on.
# fresh96, fresh98 and fresh99 (2026-12-02) were read after fresh97, fresh100, fresh101 and the element-class judge
# (the change those judged moved too few of their kernels), to judge the next; none is unread now.
UNREAD_H200: tuple[int, ...] = ()
READ_LATE = {51: 67}  # sample: the sample it was read with


def read_h200(last: int) -> tuple[str, ...]:
    """The H200's read broad sweeps, 2026-11-23 to fresh{last} (fresh3 onward; fresh2 has no H200 copy), less those
    still unread (UNREAD_H200) and those read later than fresh{last} (READ_LATE)."""
    return ("h200-2026-11-23", "h200-2026-11-24", *(f"h200-2026-11-26/fresh{i}" for i in range(3, 8)),
            *(f"h200-2026-11-27/fresh{i}" for i in range(8, min(last, 18) + 1)),
            *(f"h200-2026-11-29/fresh{i}" for i in range(19, min(last, 42) + 1)),
            *(f"h200-2026-11-30/fresh{i}" for i in range(43, min(last, 55) + 1)
              if i not in UNREAD_H200 and last >= READ_LATE.get(i, i)),
            *(f"h200-2026-12-01/fresh{i}" for i in range(56, min(last, 89) + 1) if i not in UNREAD_H200),
            *(f"h200-2026-12-02/fresh{i}" for i in range(90, last + 1) if i not in UNREAD_H200),
            # The element-class judge, 200 tf32 kernels of one class, read with fresh101.
            *(("h200-2026-12-02/element_class",) if last >= 101 else ()))  # fmt: skip


def read_sets_from_args(doc: str, h200: int, h100: int = 18) -> dict[str, tuple[str, ...]]:
    """--h100 N and --h200 N (defaults ``h100``, ``h200``: the sets a script's figures were printed on): each GPU's read
    broad sweeps to freshN, {"h100": read_h100(N), "h200": read_h200(N)}."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--h100", type=int, default=h100, help="the H100's read samples up to freshN")
    ap.add_argument("--h200", type=int, default=h200, help="the H200's read samples up to freshN")
    args = ap.parse_args()
    return {"h100": read_h100(args.h100), "h200": read_h200(args.h200)}


def sample_args(doc: str, samples: list[str]) -> argparse.Namespace:
    """SAMPLE ... (default ``samples``: directories under docs/measurements) and --machine (default h100)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("samples", nargs="*", default=samples)
    ap.add_argument("--machine", default="h100")
    return ap.parse_args()


def signed(v: list[float]) -> str:
    """The median of signed errors (predicted / measured - 1) as a percentage; "-" for none."""
    return f"{100 * statistics.median(v):+.1f}%" if v else "-"
