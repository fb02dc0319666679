"""Measured backends: time real kernels on a real GPU and hold the model to them.

Optional: ``pip install 'roofmodel[gpu]'`` (torch and triton). This package's own modules import
neither at module level; ``require_gpu`` says in one line what is missing. ``records`` is pure
(no torch) so that the comparison logic runs on recorded measurements in CPU-only CI.
"""

from __future__ import annotations

import importlib.util

from roofmodel.errors import BackendUnavailableError


def missing_packages() -> list[str]:
    """The GPU extra's packages that are not installed (found without importing them)."""
    return [name for name in ("torch", "triton") if importlib.util.find_spec(name) is None]


def require_gpu() -> None:
    """Raise BackendUnavailableError unless torch, triton and a CUDA GPU are all there."""
    missing = missing_packages()
    if missing:
        raise BackendUnavailableError(
            f"the measured backend needs {' and '.join(missing)}: pip install 'roofmodel[gpu]'"
        )
    import torch

    if not torch.cuda.is_available():
        raise BackendUnavailableError("the measured backend needs a CUDA GPU, and torch sees none")
