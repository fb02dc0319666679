"""Pointer-chase latencies (roofmodel.backends.microbench.pointer_chase_ns, as calibrate measures
them) at L2- and DRAM-sized working sets. Writes OUT/latency.json.

    PYTHONPATH=. python benchmarks/gpu_latency.py OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> None:
    import torch

    from roofmodel.backends.microbench import pointer_chase_ns

    doc = {"device": torch.cuda.get_device_name(0)}
    for mib in (1, 4, 16, 256, 1024):
        doc[f"{mib} MiB"] = pointer_chase_ns(mib)
        print(mib, "MiB", round(doc[f"{mib} MiB"]["value"], 1), "ns", flush=True)
    Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
    (Path(sys.argv[1]) / "latency.json").write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
