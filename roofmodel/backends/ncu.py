"""Hardware counters through Nsight Compute: DRAM bytes read and written and the L2 hit rate of
each GEMM launch, with the clocks left as the card has them (``--clock-control none``) and the
caches flushed before each profiled kernel (ncu's default ``--cache-control all``), so every
kernel starts cold, as the raster model assumes."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct")

_CHILD = """
import json, sys, torch
from roofmodel.backends.triton_gemm import launch, random_inputs
for cfg in json.load(open(sys.argv[1])):
    cfg = dict(cfg)
    m, n, k = cfg.pop('m'), cfg.pop('n'), cfg.pop('k')
    a, b = random_inputs(m, n, k, cfg['dtype'], 'cuda', 7)
    c = torch.empty((m, n), device='cuda', dtype=a.dtype)
    launch(a, b, c, **cfg)
    torch.cuda.synchronize()
    del a, b, c
"""


def available() -> bool:
    return shutil.which("ncu") is not None


def count_gemms(configs: list[dict[str, Any]], timeout: float = 900) -> list[dict[str, float]]:
    """One ncu process launches every configuration once; returns their counters in order."""
    with tempfile.TemporaryDirectory() as tmp:
        cfg_file = Path(tmp) / "configs.json"
        cfg_file.write_text(json.dumps(configs))
        cmd = [
            "ncu", "--clock-control", "none", "--metrics", ",".join(METRICS), "--csv",
            "-k", "regex:_matmul_kernel", sys.executable, "-c", _CHILD, str(cfg_file),
        ]  # fmt: skip
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True).stdout
    rows = parse_csv(out)
    if len(rows) != len(configs):
        raise RuntimeError(f"ncu profiled {len(rows)} kernels for {len(configs)} configurations")
    return rows


def count_gemm(config: dict[str, Any], timeout: float = 300) -> dict[str, float]:
    return count_gemms([config], timeout)[0]


def parse_csv(text: str) -> list[dict[str, float]]:
    """ncu --csv output -> one {metric: value} per profiled kernel, in launch order; bytes are
    scaled to bytes from whatever unit ncu chose."""
    lines = [line for line in text.splitlines() if line.startswith('"')]
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9, "%": 1}
    by_id: dict[str, dict[str, float]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        name = row.get("Metric Name")
        if name in METRICS:
            raw = row["Metric Value"].replace(",", "")
            by_id.setdefault(row["ID"], {})[name] = float(raw) * scale.get(row.get("Metric Unit", ""), 1)
    return [by_id[i] for i in sorted(by_id, key=int)]
