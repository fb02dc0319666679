"""Every option of the roofmodel command, declared once: spelling, help and validation.

A command takes an option by annotating a parameter with one of the ``...Opt`` types below and
giving it the default from roofmodel.defaults, so that every command spells, explains, defaults
and checks ``--dtype`` (and the rest) the same way.

The parsers run while the command line is read, before any work: each returns the value in its
canonical spelling (the library parses it again, cheaply) or raises ValueError with what would be
accepted; click then names the option as the user typed it (roofmodel.cli.app). Checks that need
the machine (does the tile fit, has it clusters) stay with the library.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from roofmodel import defaults

T = TypeVar("T")
DEFAULT_CLUSTER = f"{defaults.CLUSTER[0]}x{defaults.CLUSTER[1]}"

# ---------------------------------------------------------------------------------------------
# Parsers: str -> canonical value, or ValueError naming what is accepted


def _shown(text: str) -> str:
    return text.strip() or repr(text)


def _whole(text: str, least: int, rule: str) -> int:
    s = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", s) or int(s) < least:
        raise ValueError(f"must be a whole number {rule} (got {_shown(text)})")
    return int(s)


MAX_DIMENSION = 2**31 - 1  # what a kernel indexes with 32-bit integers; beyond, the model's arithmetic overflows


def size(text: str) -> int:
    """A GEMM dimension: a whole number > 0 (and < 2**31)."""
    n = _whole(text, 1, "> 0")
    if n > MAX_DIMENSION:
        raise ValueError(f"must be a whole number > 0 and < 2**31 (got {len(str(n))} digits)")
    return n


def count(text: str) -> int:
    """A count (stages, warps, waves, ...): a whole number >= 1."""
    return _whole(text, 1, ">= 1")


def at_least(least: int) -> Callable[[str], int]:
    """A parser of whole numbers >= ``least``."""

    def parse(text: str) -> int:
        return _whole(text, least, f">= {least}")

    return parse


def machine(text: str) -> str:
    """A built-in machine or a file (roofmodel.machine.load_machine checks it), or several comma-separated
    (``h100,h200``) where a command puts them side by side."""
    names = [x.strip() for x in text.split(",")]
    if not all(names):
        raise ValueError(f"name at least one machine, each a built-in one (roofmodel machines lists them) or a "
                         f"machine file, several as NAME,NAME (got {text!r})")  # fmt: skip
    return ",".join(names)


def instruction(text: str) -> str:
    """An instruction family the model knows (whether the machine has it, the library says)."""
    from roofmodel.model.footprint import FAMILIES

    return choice(*FAMILIES)(text)


def dtype(text: str) -> str:
    from roofmodel.model.problem import DTYPES

    name = text.strip().lower()
    if name == "fp4":
        raise ValueError(
            "fp4: GEMMs of sub-byte elements are not modelled (show-machine gives the fp4 peak of a "
            "machine file that has one)"
        )
    if name not in DTYPES:
        raise ValueError(f"unknown dtype {text!r} (choose from {', '.join(DTYPES)})")
    return name


def _library(parse: Callable[[str], object], text: str) -> object:
    """A library parser's result, its error message without the option name it puts first."""
    from roofmodel.errors import RoofmodelError

    try:
        return parse(text)
    except RoofmodelError as exc:
        raise ValueError(re.sub(r"^--[\w-]+:\s*", "", str(exc))) from None


def tile(text: str) -> str:
    """BMxBN or BMxBNxBK."""
    from roofmodel.model.problem import Tile

    return _library(Tile.parse, text).label()  # type: ignore[attr-defined]


def pair(text: str) -> str:
    """RMxRN (a register tile)."""
    from roofmodel.model.problem import Tile

    t = _library(Tile.parse, text)
    if t.bk is not None:  # type: ignore[attr-defined]
        raise ValueError(f"expected RMxRN (got {text!r})")
    return t.label()  # type: ignore[attr-defined]


def as_pair(text: str | None) -> tuple[int, int] | None:
    """A canonical 'AxB' (as ``pair`` and ``cluster`` return it) as (A, B)."""
    if text is None:
        return None
    a, b = (int(x) for x in text.split("x"))
    return a, b


def cluster(text: str) -> str:
    """CMxCN, each >= 1."""
    from roofmodel.model.multicast import parse_cluster

    cm, cn = _library(parse_cluster, text)  # type: ignore[misc]
    return f"{cm}x{cn}"


def raster(text: str) -> str:
    """A tile order (rasterization.ORDER_HELP)."""
    from roofmodel.model.rasterization import parse_order

    return _library(parse_order, text).label  # type: ignore[attr-defined]


CLOCK_WORDS = ("sustained", "rated", "boost")
MAX_CLOCK_MHZ = 10_000


def clock(text: str) -> str:
    """sustained, rated, boost, or a number of MHz in (0, 10,000]."""
    word = text.strip().lower()
    if word in CLOCK_WORDS:
        return word
    try:
        mhz = float(word)
    except ValueError:
        raise ValueError(f"expected sustained, rated, boost or a number of MHz (got {text!r})") from None
    if not (math.isfinite(mhz) and 0 < mhz <= MAX_CLOCK_MHZ):
        raise ValueError(f"a number of MHz, 0 < MHz <= {MAX_CLOCK_MHZ:,} (got {_shown(text)})")
    return f"{mhz:g}"


def either(words: tuple[str, ...] | list[str]) -> str:
    """'a, b or c'."""
    return f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else words[0]


def choice(*accepted: str) -> Callable[[str], str]:
    """A parser of one of ``accepted`` (case-insensitive)."""

    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in accepted:
            raise ValueError(f"{either(accepted)} (got {text!r})")
        return word

    return parse


source = choice("spec", "measured")
a_major = choice("k", "m")
b_major = choice("k", "n")
kernel_kind = choice("triton", "cutlass", "stated")
accumulator = choice("fp64", "fp32", "int32", "fp16")


def figure_format(text: str) -> str:
    from roofmodel.cli.output import FIGURE_FORMATS

    word = text.strip().lower().lstrip(".")
    if word not in FIGURE_FORMATS:
        raise ValueError(f"cannot tell the format {text!r}: png, svg or pdf")
    return word


def space(text: str) -> str:
    from roofmodel.search.space import space_named

    return _library(space_named, text.strip()).name  # type: ignore[attr-defined]


def vary(text: str) -> str:
    from roofmodel.search.space import parse_vary

    name, lo, hi = _library(parse_vary, text)  # type: ignore[misc]
    return f"{name}={lo:g}:{hi:g}"


def seconds(text: str) -> float:
    """A time budget in seconds: a finite number > 0."""
    try:
        s = float(text)
    except ValueError:
        s = math.nan
    if not (math.isfinite(s) and s > 0):
        raise ValueError(f"a number of seconds > 0 (got {_shown(text)})")
    return s


# ---------------------------------------------------------------------------------------------
# The options. Defaults are given where a command takes the option, from roofmodel.defaults.


METAVARS = {
    "--machine": "MACHINE", "--dtype": "DTYPE", "--acc": "DTYPE", "--tile": "BMxBN[xBK]", "--reg-tile": "RMxRN",
    "--raster": "ORDER", "--order": "ORDER", "--cluster": "CMxCN", "--clock": "CLOCK", "--clock-mhz": "CLOCK",
    "--bandwidth": "spec|measured", "--compute": "spec|measured", "--instruction": "FAMILY",
    "--a-major": "k|m", "--b-major": "n|k", "--space": "all|triton", "--format": "png|svg|pdf",
    "--kernel": "KIND", "--vary": "NAME=LOW:HIGH", "--budget-s": "SECONDS",
}  # fmt: skip


def option(*names: str, parser: Callable[[str], object], **kw: object) -> typer.models.OptionInfo:
    """An option read by ``parser``, which also sees defaults (as text, as the command line gives them);
    its metavar from METAVARS (else N)."""

    def read(value: object) -> object:
        return parser(value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value))

    read.parser = parser  # type: ignore[attr-defined]  # what tests/test_cli.py compares across commands
    kw.setdefault("metavar", METAVARS.get(names[-1], "N"))
    return typer.Option(*names, parser=read, **kw)  # type: ignore[arg-type]


MACHINE_HELP = "A built-in machine (roofmodel machines lists them) or a machine YAML file."
MachineOpt = Annotated[str, option("--machine", parser=machine, help=MACHINE_HELP)]
MachinesOpt = Annotated[
    str,
    option("--machine", parser=machine,
           help=MACHINE_HELP + " Several, comma-separated (h100,h200), print side by side: one column a machine."),
]  # fmt: skip
MOpt = Annotated[int, option("--m", parser=size, help="Rows of A and C.")]
NOpt = Annotated[int | None, option("--n", parser=size, help="Columns of B and C (default: M).")]
KOpt = Annotated[int | None, option("--k", parser=size, help="The inner dimension (default: M).")]
DTYPE_HELP = "Element type: fp64, fp32, tf32, fp16, bf16, fp8 or int8."
DtypeOpt = Annotated[str, option("--dtype", parser=dtype, help=DTYPE_HELP)]
TILE_HELP = "CTA tile BMxBN or BMxBNxBK (default: the model picks)."
TileOpt = Annotated[str | None, option("--tile", parser=tile, help=TILE_HELP)]
KernelTileOpt = Annotated[str, option("--tile", parser=tile, metavar="BMxBNxBK", help="CTA tile BMxBNxBK.")]
RegTileOpt = Annotated[
    str | None,
    option(
        "--reg-tile",
        parser=pair,
        help="Register-level tile RMxRN: per thread (FFMA), per warp (mma.sync), 64xN (wgmma).",
    ),
]
WarpsOpt = Annotated[int | None, option("--warps", parser=count, help="Warps per CTA (default: the kernel's rule).")]
StagesOpt = Annotated[int, option("--stages", parser=count, help="Shared-memory pipeline stages.")]
RASTER_HELP = (
    "Tile order: row, col, grouped:G, swizzle:S[:m] or superm:S (grouped:G is Triton's GROUP_M); "
    "ORDER+remap on a machine of private L2 slices (the MI300X's XCDs)."
)
RasterOpt = Annotated[str, option("--raster", parser=raster, help=RASTER_HELP)]
OldOrderOpt = Annotated[str | None, option("--order", parser=raster, hidden=True, help="Old spelling of --raster.")]
ClusterOpt = Annotated[
    str, option("--cluster", parser=cluster, help="Thread block cluster CMxCN (Hopper, Blackwell), e.g. 2x1.")
]
WavesOpt = Annotated[int, option("--waves", parser=count, help="How many waves to draw.")]
RegsOpt = Annotated[int | None, option("--regs", parser=count, help="Registers per thread as compiled.")]
CLOCK_HELP = (
    "SM clock: sustained, rated, boost, or MHz (default: sustained where the machine file measured it, "
    "else the clock the datasheet rates the pipe at)."
)
ClockOpt = Annotated[str | None, option("--clock", parser=clock, help=CLOCK_HELP)]
OldClockOpt = Annotated[str | None, option("--clock-mhz", parser=clock, hidden=True, help="Old spelling of --clock.")]
BandwidthOpt = Annotated[
    str, option("--bandwidth", parser=source, help="Memory bandwidths: measured (where the file has them) or spec.")
]
ComputeOpt = Annotated[
    str, option("--compute", parser=source, help="Compute rate: spec or measured (where the file has it).")
]
InstructionOpt = Annotated[
    str | None,
    option(
        "--instruction",
        parser=instruction,
        help="fma, mma.sync, wgmma, tcgen05, tcgen05.2sm or mfma, as the machine file lists them for the dtype "
        "(default: the first it lists).",
    ),
]
AMajorOpt = Annotated[
    str, option("--a-major", parser=a_major, help="A's contiguous dimension: k (row-major, torch's default) or m.")
]
BMajorOpt = Annotated[
    str,
    option("--b-major", parser=b_major, help="B's contiguous dimension: n (torch.matmul of contiguous tensors) or k."),
]
SpaceOpt = Annotated[str, option("--space", parser=space, help="all, or triton (what a Triton matmul can express).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON (docs/formats.md).")]
OUT_HELP = "File to write (required); the format follows its suffix (.png, .svg or .pdf) unless --format says."
OutOpt = Annotated[str | None, typer.Option("-o", "--out", metavar="FILE", help=OUT_HELP)]
OldOutOpt = Annotated[
    str | None, typer.Option("--output", metavar="FILE", hidden=True, help="Old spelling of -o/--out.")
]
FormatOpt = Annotated[
    str | None, option("--format", parser=figure_format, help="png, svg or pdf (default: from the file's suffix).")
]
# rank: the problem is optional (each row may give its own)
RowMOpt = Annotated[int | None, option("--m", parser=size, help="Rows of A and C (default: each row's own m).")]
RowDtypeOpt = Annotated[str | None, option("--dtype", parser=dtype, help=DTYPE_HELP + " (default: each row's own).")]
RowAMajorOpt = Annotated[
    str | None,
    option("--a-major", parser=a_major, help="A's contiguous dimension, k or m (default: the row's, else k)."),
]
RowBMajorOpt = Annotated[
    str | None,
    option("--b-major", parser=b_major, help="B's contiguous dimension, n or k (default: the row's, else n)."),
]


LevelsOpt = Annotated[
    str | None,
    typer.Option(
        "--levels", metavar="LEVELS", help="Memory levels to model, e.g. dram,smem,rf (seed 000's simple model)."
    ),
]
RegOverheadOpt = Annotated[
    int | None,
    option("--reg-overhead", parser=at_least(0),
           help="Registers per thread besides the tiles: addresses, counters (default: the model's 16)."),
]  # fmt: skip
AccOpt = Annotated[
    str | None,
    option(
        "--acc",
        parser=accumulator,
        help="Accumulator type (fp16 and fp8 GEMMs: fp32, the default, or fp16); sets "
        "the accumulator registers and, where the machine file's rate depends on it, "
        "the rate.",
    ),
]
KernelOpt = Annotated[
    str,
    option(
        "--kernel",
        parser=kernel_kind,
        help="stated (the instruction the tile admits, or --instruction), triton (Triton's instruction and "
        "warp-layout rules; --raster row or grouped:G is GROUP_M), or cutlass (the CUTLASS sm90 "
        "warp-specialized kernel, else sm80 multistage, else SIMT).",
    ),
]
SpilledOpt = Annotated[
    int | None, option("--spilled", parser=at_least(0), help="Registers per thread spilled as compiled (with --regs).")
]
CompileOpt = Annotated[
    bool,
    typer.Option(
        "--compile",
        help="Compile the Triton kernel for the machine's architecture on this CPU (needs the triton package, no "
        "GPU) and predict with the registers, spills and shared memory ptxas gives it, not the register rule's.",
    ),
]
CompileTopOpt = Annotated[
    int,
    option(
        "--compile-top",
        parser=at_least(0),
        help="Compile the first N configurations by the register rule (each timed as if its bet on registers were "
        "won: register gambles among the rest, spilled element pointers recomputed) for the machine's architecture "
        "on this CPU (needs the triton package, no GPU), then the next ones while they could still win (up to 8 N), "
        "and rank them by what ptxas gives each; 0: none.",
    ),
]
PersistentOpt = Annotated[
    bool, typer.Option("--persistent", help="A persistent kernel: each SM pays the prologue and epilogue once.")
]
TopOpt = Annotated[int, option("--top", parser=count, help="How many configurations to list.")]
RowTopOpt = Annotated[int | None, option("--top", parser=count, help="List only the first N of each problem.")]
VaryOpt = Annotated[
    list[str], option("--vary", parser=vary, help="NAME=LOW:HIGH, repeatable (e.g. smem_bandwidth=64:512).")
]
StepsOpt = Annotated[int, option("--steps", parser=at_least(2), help="Values per parameter, geometric.")]
ConfigsOpt = Annotated[
    str, typer.Option("--configs", metavar="FILE", help="CSV or YAML of Triton configurations (docs/formats.md).")
]
# the measured backends
BaseMachineOpt = Annotated[str, option("--machine", parser=machine, help=MACHINE_HELP + " The overlay starts from it.")]
OldGroupMOpt = Annotated[
    int | None, option("--group-m", parser=count, hidden=True, help="Old spelling of --raster grouped:G.")
]
NcuOpt = Annotated[bool, typer.Option("--ncu", help="Count DRAM bytes with Nsight Compute.")]
OutDirOpt = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--out",
        metavar="DIR",
        help="Directory for gemm.csv and provenance.json (required; resumed where it holds them).",
    ),
]
QuickOpt = Annotated[bool, typer.Option("--quick", help="3 shapes x 3 tiles instead of the full grid.")]
BudgetOpt = Annotated[
    float | None, option("--budget-s", parser=seconds, help="Stop timing after this many seconds (default: none).")
]
ResultsArg = Annotated[
    str, typer.Argument(help="A sweep directory (gemm.csv or broad.csv, and provenance.json) or its CSV.")
]
RecordedMachineOpt = Annotated[
    str, option("--machine", parser=machine, help=MACHINE_HELP + " Default: h100, the machine of the recorded sweeps.")
]
ReportOpt = Annotated[str | None, typer.Option("--report", metavar="FILE", help="Write the Markdown report here.")]
PngOpt = Annotated[
    str | None,
    typer.Option(
        "--png", metavar="FILE", help="Write the DRAM predicted-vs-counted scatter here (.png, .svg or .pdf)."
    ),
]
PngTflopsOpt = Annotated[
    str | None,
    typer.Option(
        "--png-tflops", metavar="FILE", help="Write the TFLOPS predicted-vs-measured scatter here (.png, .svg or .pdf)."
    ),
]
MachineArg = Annotated[str, typer.Argument(parser=machine, metavar="NAME", help=MACHINE_HELP)]


def merged(param: str, value: T, old_value: T | None, old: str, new: str) -> T:
    """The value of option ``param`` (spelt ``new``) that also has an old spelling ``old``: the old
    one's value where only the old spelling was given; both given is an error."""
    import click

    if old_value is None:
        return value
    source = click.get_current_context().get_parameter_source(param)
    if source == click.core.ParameterSource.COMMANDLINE:
        from roofmodel.errors import ProblemError

        raise ProblemError(f"{old}: the old spelling of {new}; give one of them")
    return old_value


def out_path(out: str | None, old_out: str | None, what: str) -> tuple[str, str]:
    """(path, spelling as typed) of -o/--out (old spelling --output), which the command requires;
    ``what`` says what the file is, for the error where it is missing."""
    from roofmodel.cli.app import typed
    from roofmodel.errors import ProblemError

    path = merged("out", out, old_out, "--output", "--out")
    if path is None:
        raise ProblemError(f"missing option -o/--out ({what})")
    return path, typed("-o", "--out", "--output")
