"""Reading machine files: built-in names and aliases, ``base:`` overlays merged key by key, the
line each quantity is written on (for traceable output), and validation errors as one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from roofmodel.errors import MachineFileError
from roofmodel.machine.schema import Machine


def _builtin_dir() -> Path:
    """The machine files: inside the installed package, or ``machines/`` of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "machines"
    if installed.is_dir():
        return installed
    return package.parent / "machines"


def _builtin_by_alias(key: str) -> Path | None:
    """The built-in file whose ``aliases`` list holds key (lower case), if any."""
    for path in sorted(_builtin_dir().glob("*.yaml")):
        data = _read_yaml(path)
        if key in (str(a).lower() for a in data.get("aliases", []) or []):
            return path
    return None


def builtin_machine_names() -> list[str]:
    """The built-in machines, by file stem (``a100``, ``h100``, ``t4``, ``v100``)."""
    return sorted(p.stem for p in _builtin_dir().glob("*.yaml"))


def _quantity_lines(node: Any, path: str, file: str, out: dict[str, tuple[str, int]]) -> None:
    """Walk a composed YAML node tree; record the line of every mapping that has a 'value' key."""
    if isinstance(node, yaml.MappingNode):
        keys = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
        if "value" in keys:
            out[path] = (file, node.start_mark.line + 1)
            return
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                _quantity_lines(v, f"{path}.{k.value}" if path else str(k.value), file, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _quantity_lines(v, f"{path}.{i}", file, out)


def _read_lines(path: Path) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return out  # _read_yaml has already reported any problem
    _quantity_lines(root, "", str(path), out)
    return out


def _read_yaml(path: Path) -> dict[str, Any]:
    if not path.exists():
        raise MachineFileError(f"{path}: no such file")
    if path.is_dir():
        raise MachineFileError(f"{path}: is a directory, not a machine file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MachineFileError(f"{path}: cannot read: {exc}") from None
    try:
        # The C loader where PyYAML has libyaml: same safe subset, a tenth of the time.
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise MachineFileError(f"{path}: malformed YAML{where}: {problem}") from None
    if not isinstance(data, dict):
        raise MachineFileError(f"{path}: must be a YAML mapping at the top level (got {type(data).__name__})")
    return data


def _is_quantity(node: Any) -> bool:
    return isinstance(node, Mapping) and "value" in node


def merge_overrides(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge override into base: mappings merge per key; quantities and lists are replaced."""
    out = dict(base)
    for key, value in override.items():
        old = out.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping) and not _is_quantity(value):
            out[key] = merge_overrides(old, value)
        else:
            out[key] = value
    return out


def _resolve(name_or_path: str) -> Path:
    key = name_or_path.strip().lower()
    looks_like_path = any(ch in name_or_path for ch in "/\\") or name_or_path.endswith((".yaml", ".yml"))
    if looks_like_path:
        return Path(name_or_path)
    by_stem = _builtin_dir() / f"{key}.yaml"
    if key and by_stem.is_file():
        return by_stem
    by_alias = _builtin_by_alias(key) if key else None
    if by_alias is not None:
        return by_alias
    if Path(name_or_path).exists():
        return Path(name_or_path)
    known = ", ".join(builtin_machine_names())
    raise MachineFileError(f"unknown machine {name_or_path!r} (built-in: {known}; or give a path to a YAML file)")


def _load_raw(path: Path, chain: tuple[Path, ...]) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    """The merged data of a file and its base chain, and where each quantity was written."""
    real = path.resolve()
    if real in chain:
        loop = " -> ".join(str(p.name) for p in (*chain, real))
        raise MachineFileError(f"{path}: base chain loops ({loop})")
    data = _read_yaml(path)
    lines = _read_lines(path)
    base = data.pop("base", None)
    if base is None:
        return data, lines
    if not isinstance(base, str):
        raise MachineFileError(f"{path}: base: must be a machine name or path (got {base!r})")
    try:
        base_path = _resolve(base) if not base.endswith((".yaml", ".yml")) else (path.parent / base)
    except MachineFileError as exc:
        raise MachineFileError(f"{path}: base: {exc}") from None
    if not base_path.is_file():
        what = "is a directory" if base_path.is_dir() else "no such file"
        raise MachineFileError(f"{path}: base: {base}: {what}")
    parent, parent_lines = _load_raw(base_path, (*chain, real))
    merged = merge_overrides(parent, data)
    if "aliases" not in data:
        merged["aliases"] = []
    return merged, {**parent_lines, **lines}


def _format_validation_error(path: Path, exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"] if not str(p).startswith(("function-", "Rated[")))
    msg = err["msg"].removeprefix("Value error, ")
    etype = err["type"]
    if etype == "missing":
        return f"{path}: {loc}: required field is missing"
    if etype == "extra_forbidden":
        return f"{path}: {loc}: unknown key"
    got = err.get("input")
    shown = f" (got {got!r})" if not isinstance(got, (dict, list)) and "(got" not in msg else ""
    more = f" [and {len(exc.errors()) - 1} more]" if len(exc.errors()) > 1 else ""
    return f"{path}: {loc}: {msg}{shown}{more}"


def load_machine(name_or_path: str | Path) -> Machine:
    """Load a built-in machine by name or alias (case-insensitive) or a YAML file by path.

    Raises MachineFileError with one line naming the file, the field and the rule.
    """
    path = _resolve(str(name_or_path))
    data, lines = _load_raw(path, ())
    try:
        machine = Machine.model_validate(data)
    except ValidationError as exc:
        raise MachineFileError(_format_validation_error(path, exc)) from None
    machine = machine.model_copy(update={"source_file": str(path)})
    machine._lines = lines
    return machine


def as_machine(machine: Machine | str | Path) -> Machine:
    """A ``Machine`` as given, or loaded from a built-in name, alias or file path (load_machine)."""
    return machine if isinstance(machine, Machine) else load_machine(machine)
