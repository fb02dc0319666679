"""What the GPU says of itself (torch.cuda device properties and nvidia-smi), for a machine file's
figures to be checked against: SM count, L2 size, shared memory, registers, memory size, memory clock
and bus width. Writes OUT/device_properties.json.

    python benchmarks/gpu_device_properties.py OUT
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def main() -> None:
    import torch

    p = torch.cuda.get_device_properties(0)
    names = ("name", "major", "minor", "multi_processor_count", "total_memory", "L2_cache_size",
             "max_threads_per_multi_processor", "regs_per_multiprocessor", "shared_memory_per_block_optin",
             "shared_memory_per_multiprocessor", "warp_size", "memory_clock_rate", "memory_bus_width", "clock_rate")  # fmt: skip
    props = {n: getattr(p, n) for n in names if hasattr(p, n)}
    query = "name,clocks.max.sm,clocks.max.memory,memory.total,power.limit,driver_version"
    smi = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"], capture_output=True,
                         text=True, check=False).stdout.strip()  # fmt: skip
    doc = {"torch": props, "nvidia_smi": dict(zip(query.split(","), [x.strip() for x in smi.split(",")], strict=False))}
    Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
    (Path(sys.argv[1]) / "device_properties.json").write_text(json.dumps(doc, indent=1, default=str))
    print(json.dumps(doc, indent=1, default=str))


if __name__ == "__main__":
    main()
