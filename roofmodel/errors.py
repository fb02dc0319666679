"""The library's errors. Each message is one line that names the offending item and the rule.

The library raises; only the CLI catches, prints ``roofmodel: error: ...`` and exits non-zero.
"""


class RoofmodelError(Exception):
    """Base of every error roofmodel raises on purpose."""


class MachineFileError(RoofmodelError, ValueError):
    """A machine file (or a built-in name) that cannot be found, parsed or validated."""


class ProblemError(RoofmodelError, ValueError):
    """A GEMM, tile or analysis option that is impossible (zero size, tile too big, ...)."""


class BackendUnavailableError(RoofmodelError, RuntimeError):
    """An optional backend asked for where its packages or its GPU are missing."""
