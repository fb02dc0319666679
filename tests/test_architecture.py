"""The house has no circle (issue 14): the import graph of roofmodel, function-level imports
included, has no cycle, and each layer imports only the layers below it.

Layers, lowest first: results/errors/units/stats/defaults/files -> machine -> model -> search -> api -> backends -> render -> cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "roofmodel"
LAYERS = [
    "results",
    "errors",
    "units",
    "stats",
    "defaults",
    "files",
    "machine",
    "model",
    "search",
    "api",
    "backends",
    "render",
    "cli",
]
# The base modules import nothing of roofmodel's; every other layer may import those below it, but backends, beside api
# rather than above it, not api.
BASE = ("results", "errors", "units", "stats", "defaults", "files")
ALLOWED = {
    layer: set() if layer in BASE else set(LAYERS[: LAYERS.index(layer)]) - ({"api"} if layer == "backends" else set())
    for layer in LAYERS
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("roofmodel"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("roofmodel")}
    return {m for m in found if m in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "package"


def test_no_import_cycle():
    graph = {m: {d for d in deps if d != "roofmodel"} for m, deps in _graph().items()}
    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> None:
        seen[node] = 1
        for dep in sorted(graph[node]):
            assert seen.get(dep) != 1, "import cycle: " + " -> ".join([*path[path.index(dep) :], dep])
            if dep not in seen:
                visit(dep, [*path, dep])
        seen[node] = 2

    for module in sorted(graph):
        if module not in seen:
            visit(module, [module])


def test_each_layer_imports_only_layers_below():
    wrong = []
    for module, deps in _graph().items():
        layer = _layer(module)
        if layer not in ALLOWED:
            continue
        for dep in deps:
            target = _layer(dep)
            if target != layer and target != "package" and target not in ALLOWED[layer]:
                wrong.append(f"{module} imports {dep}")
    assert not wrong, wrong


def test_every_module_sits_in_a_layer():
    assert {_layer(m) for m in _graph()} - {"package", "__main__"} <= set(LAYERS)
