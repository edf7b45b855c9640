"""Import structure of a package, read with `ast`: which of its modules each module imports, at
module level and inside functions alike (an import deferred into a function still closes a circle),
and the circles in that graph."""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["import_graph", "find_cycles"]


def _module_name(path: Path, package_dir: Path, package_name: str) -> str:
    """llmkit/gguf.py -> llmkit.gguf; llmkit/__init__.py -> llmkit."""
    parts = list(path.relative_to(package_dir).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package_name, *parts])


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """Absolute names an import statement of `module` may refer to: the module itself and, for
    `from X import a`, X.a (which is a module when `a` is a submodule)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # relative: level 1 is the module's own package
        base = module.split(".")
        base = base[: len(base) - node.level + (1 if is_package else 0)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    submodules = [f"{target}.{alias.name}" for alias in node.names]
    # `from . import sub` names submodules only; the package itself is merely initialised first
    return submodules if node.module is None else [target, *submodules]


def import_graph(package_dir: Path | str, package_name: str) -> dict[str, set[str]]:
    """{module: the package's modules it imports}, for every .py file under package_dir. A name
    imported from a module counts as that module; `from pkg import sub` counts as pkg.sub."""
    package_dir = Path(package_dir)
    files = {_module_name(p, package_dir, package_name): p for p in package_dir.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(tree):  # every statement, including those inside functions
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = _imported(node, module, is_package)
                targets.update(name for name in names if name in files and name != module)
        graph[module] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of the graph, one per strongly connected group of modules (Tarjan), each
    listed from its smallest name and closed: ["a", "b", "a"]. A module importing itself counts."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [[*group, group[0]] for group in sorted(groups)]
