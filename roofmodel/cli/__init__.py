"""The ``roofmodel`` command (console script ``roofmodel.cli:main``).

- app.py: the application, and the one place that turns errors into one line and an exit code;
- options.py: every option, declared once (spelling, help, validation);
- output.py: files written all or none, figure formats, times and rates as text, progress bars;
- commands/: one module per command family, each command parsing, calling the library, rendering.
"""

from __future__ import annotations

import os

# The CLI owns its process: skip pydantic's plugin discovery (an entry-point scan through
# importlib.metadata, about 60 ms of every start). Set before anything, typer included, imports
# pydantic.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from roofmodel.cli.app import app, main
from roofmodel.cli.commands import analysis, kernels, machines, measured
from roofmodel.cli.commands.plots import plot_app

# The commands, in the order `roofmodel --help` lists them.
app.command()(analysis.analyze)
app.command()(machines.machines)
app.command("show-machine")(machines.show_machine)
app.command()(analysis.raster)
app.add_typer(plot_app, name="plot")
app.command()(measured.calibrate)
app.command()(measured.measure)
app.command()(measured.sweep)
app.command()(measured.validate)
app.command()(kernels.predict)
app.command()(kernels.rank)
app.command()(kernels.tune)
app.command()(kernels.explore)

__all__ = ["app", "main"]
