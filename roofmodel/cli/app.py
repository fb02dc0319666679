"""The ``roofmodel`` application: the one place that prints errors and exits.

Every failure is one line on stderr, ``roofmodel: error: ...``, naming the option as the user typed
it (``--order`` where the user wrote the old spelling of ``--raster``), and exit code 2 for bad
input. Commands render their whole output before writing any of it, and files are written through
roofmodel.cli.output, which writes nothing unless every file can be written.
"""

from __future__ import annotations

import os
import re
import sys
from difflib import get_close_matches
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from roofmodel import __version__
from roofmodel.errors import RoofmodelError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug, not the user's input
# Usage errors: click's ClickException, which newer typer releases vendor; found through
# typer.BadParameter so that both kinds of typer install are handled.
_CLICK_EXCEPTION = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
_BAD_PARAMETER = typer.BadParameter

# Old spellings kept as hidden options: a library message that names the new spelling is rewritten
# to the one the user typed.
OLD_SPELLINGS = {"--order": "--raster", "--clock-mhz": "--clock", "--output": "--out"}

_argv: list[str] = []  # the command line being run, to name options as typed


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    sys.stderr.write(f"roofmodel: error: {' '.join(message.split())}\n")
    sys.exit(code)


def typed(*spellings: str) -> str:
    """Which of an option's spellings the command line used (the last one given), else the first."""
    found = [(i, s) for s in spellings for i, token in enumerate(_argv) if _spells(token, s)]
    return max(found)[1] if found else spellings[0]


def _spells(token: str, spelling: str) -> bool:
    if token == spelling:
        return True
    if spelling.startswith("--"):
        return token.startswith(spelling + "=")
    return len(spelling) == 2 and token.startswith(spelling) and not token.startswith("--")


def _as_typed(message: str) -> str:
    """The message with each new spelling replaced by the old one where only the old was typed."""
    for old, new in OLD_SPELLINGS.items():
        if typed(old, new) == old and any(_spells(t, old) for t in _argv):
            message = re.sub(rf"(?<![\w-]){re.escape(new)}(?![\w-])", old, message)
    return message


def _parameter_error(exc: Any) -> str:
    """A click parameter error as ``--option: message``, the option spelt as typed."""
    param = exc.param
    names = [*param.opts, *param.secondary_opts] if param is not None else []
    if param is None or not names:
        return exc.format_message()
    name = typed(*sorted(names, key=lambda s: (not s.startswith("--"), s)))
    kind = "option"
    if getattr(param, "param_type_name", "") == "argument":
        kind, name = "argument", (param.metavar or param.name or "argument").upper()
    if type(exc).__name__ == "MissingParameter":
        return f"missing {kind} {name}" + (f" ({param.help.rstrip('.')})" if getattr(param, "help", None) else "")
    return f"{name}: {exc.message}"


def _usage_error(exc: Any) -> str:
    """Unknown commands and options, with one suggestion drawn from the visible names only."""
    ctx = exc.ctx
    if type(exc).__name__ == "NoSuchOption" and ctx is not None:
        visible = [o for p in ctx.command.params if not getattr(p, "hidden", False) for o in p.opts]
        near = get_close_matches(exc.option_name, visible, n=1)
        return f"no such option {exc.option_name}" + (f"; did you mean {near[0]}?" if near else "")
    text = exc.format_message()
    m = re.match(r"No such command '([^']*)'", text)
    if m and ctx is not None:
        commands = [n for n, c in getattr(ctx.command, "commands", {}).items() if not c.hidden]
        near = get_close_matches(m.group(1), commands, n=1)
        return f"no such command {m.group(1)!r}" + (f"; did you mean {near[0]!r}?" if near else "")
    return text


class OneLineErrors(TyperGroup):
    """Turns click usage errors, roofmodel errors and bugs into one line and a non-zero exit."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        global _argv
        _argv = [str(a) for a in (sys.argv[1:] if args is None else args)]
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "roofmodel",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except _BAD_PARAMETER as exc:
            fail(_as_typed(_parameter_error(exc)))
        except _CLICK_EXCEPTION as exc:
            fail(_as_typed(_usage_error(exc)))
        except typer.Abort:
            fail("aborted", 130)
        except RoofmodelError as exc:
            fail(_as_typed(str(exc)))
        except Exception as exc:  # a bug: one line, unless asked for the traceback
            if os.environ.get("ROOFMODEL_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (a bug; ROOFMODEL_DEBUG=1 shows where)", EXIT_INTERNAL)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    suggest_commands=False,
    help="What it takes to make a compute-bound GPU kernel actually compute-bound.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"roofmodel {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """What it takes to make a compute-bound GPU kernel actually compute-bound."""


def main() -> None:
    """Console-script entry point."""
    app()
