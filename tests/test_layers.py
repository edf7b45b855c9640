"""The import contracts, read from the source with `ast` (imports inside functions count): llmbook's
modules import only from their own layer or those below, and neither llmbook nor llmkit has a
circle. The layers are the table below; a new module must be placed in it. `nox -s lint` runs
this file on its own (no llmbook or llmkit import: stdlib and pytest only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from layers import find_cycles, import_graph

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "plugins" / "llmbook"
LLMKIT = ROOT / "llmkit"

# Bottom to top. A module of a layer may import modules of its own layer and of the layers above
# it in this list (further down the stack), never one listed after its own.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "leaves",
        [
            "llmbook",
            "llmbook.store",
            "llmbook.store_namespaces",
            "llmbook.store_builds",
            "llmbook.errors",
            "llmbook.i18n",
            "llmbook.crash",
            "llmbook.nav",
            "llmbook.lexer",
            "llmbook.stash",
            "llmbook.edits",
            "llmbook.bindings",
            "llmbook.latex",
            "llmbook.page_ref",
            "llmbook.page_context",
            "llmbook.project",
            "llmbook.assets",
            "llmbook.cjk",
            "llmbook.search_view",
            "llmbook.search_cache",
            "llmbook.render_deps",
            "llmbook.book",
        ],
    ),
    (
        "text",
        [
            "llmbook.formulas",
            "llmbook.jupyter_anchors",
            "llmbook.site_index",
            "llmbook.fragments",
            "llmbook.book.syntax",
            "llmbook.book.term_syntax",
            "llmbook.book.cite_syntax",
        ],
    ),
    ("demos", ["llmbook.demos", "llmbook.demos.*"]),
    ("directives", ["llmbook.directives", "llmbook.directives.*"]),
    ("execute", ["llmbook.execute", "llmbook.execute.*"]),
    ("book", ["llmbook.book.*"]),
    # Translations checked against their sources: pages' models, results; no engine.
    ("translate", ["llmbook.translate", "llmbook.translate.*"]),
    # The editions read the built site's HTML: they know no engine and no stage of the build.
    ("editions", ["llmbook.editions", "llmbook.editions.*"]),
    (
        "site",
        [
            "llmbook.site",
            "llmbook.outputs",
            "llmbook.preview",
            "llmbook.render_cache",
            "llmbook.core_extension",
            "llmbook.annotations",
        ],
    ),
    (
        "adapters",
        [
            "llmbook.config",
            "llmbook.converted",
            "llmbook.highlighting",
            "llmbook.missing_files",
            "llmbook.offline",
            "llmbook.remote_images",
            "llmbook.plugin",
            "llmbook.zensical_config",
            "llmbook.zensical_adapter",
            "llmbook.extension",
            "llmbook.pytest_plugin",
            "llmbook.execute.update",
            # `llmbook new` and the command line: on top of everything they may call.
            "llmbook.scaffold",
            "llmbook.cli",
            "llmbook.translate.__main__",
            "llmbook.__main__",
        ],
    ),
]


def layer_of(module: str) -> int:
    """The index of the module's layer; an exact name wins over a `pkg.*` pattern."""
    for exact in (True, False):
        for number, (_, patterns) in enumerate(LAYERS):
            for pattern in patterns:
                if exact and pattern == module:
                    return number
                if not exact and pattern.endswith(".*") and module.startswith(pattern[:-1]):
                    return number
    raise LookupError(f"{module} is in no layer of tests/test_layers.py: place it there")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(PLUGIN, "llmbook")


def test_llmbook_has_no_import_circle(graph) -> None:
    assert find_cycles(graph) == []


def test_every_module_has_a_layer(graph) -> None:
    for module in graph:
        layer_of(module)


def test_nothing_imports_upward(graph) -> None:
    assert upward_imports(graph) == []


def test_an_upward_import_is_named() -> None:
    graph = {"llmbook.store": {"llmbook.site"}, "llmbook.site": {"llmbook.store"}}
    assert upward_imports(graph) == ["llmbook.store (leaves) imports llmbook.site (site)"]
    assert find_cycles(graph) == [["llmbook.site", "llmbook.store", "llmbook.site"]]


def test_a_module_outside_the_table_is_named() -> None:
    with pytest.raises(LookupError, match="llmbook.newthing is in no layer"):
        layer_of("llmbook.newthing")


def test_the_update_tool_sits_above_the_executor() -> None:
    assert layer_of("llmbook.execute.update") > layer_of("llmbook.execute.executor")


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_llmkit_has_no_import_circle() -> None:
    assert find_cycles(import_graph(LLMKIT, "llmkit")) == []


def test_graph_reads_module_level_and_function_imports(tmp_path):
    pkg = _package(
        tmp_path / "pkg",
        {
            "__init__.py": "from .a import f\n",
            "a.py": "from . import b\nimport os\n",
            "b.py": "def g():\n    from .sub.c import h\n    return h\n",
            "sub/__init__.py": "",
            "sub/c.py": "from ..a import f\nimport pkg.b\n",
        },
    )
    assert import_graph(pkg, "pkg") == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.sub.c"},
        "pkg.sub": set(),
        "pkg.sub.c": {"pkg.a", "pkg.b"},
    }


def test_a_circle_closed_inside_a_function_is_found(tmp_path):
    pkg = _package(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "a.py": "from .b import g\n",
            "b.py": "def g():\n    from .a import f\n",
            "c.py": "from .a import f\n",
        },
    )
    assert find_cycles(import_graph(pkg, "pkg")) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_every_circle_is_reported_once():
    graph = {"x": {"y"}, "y": {"x", "z"}, "z": {"z"}, "w": {"x"}}
    assert find_cycles(graph) == [["x", "y", "x"], ["z", "z"]]


# The one key recipe and the one file hasher live in store.py; the documented shard formula
# (execute/shard.py) is the only other place a hash is computed.
HASHERS = {"llmbook.store", "llmbook.execute.shard"}


def modules_that_hash(package_dir: Path, package: str) -> list[str]:
    """The modules of a package that import hashlib (`import hashlib`, `from hashlib import …`)."""
    return sorted(
        m for m, names in _imported_names(package_dir, package).items() if "hashlib" in names
    )


def _imported_names(package_dir: Path, package: str) -> dict[str, set[str]]:
    """{module: top-level names of what it imports}, read with ast."""
    import ast

    graph = {}
    for path in Path(package_dir).rglob("*.py"):
        parts = list(path.relative_to(package_dir).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        graph[".".join([package, *parts])] = names
    return graph


def test_only_the_store_hashes() -> None:
    assert set(modules_that_hash(PLUGIN, "llmbook")) <= HASHERS


def test_a_module_that_hashes_is_named(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg", {"a.py": "from hashlib import sha256\n", "b.py": "x = 1\n"})
    assert modules_that_hash(root, "pkg") == ["pkg.a"]


def _full_imports(package_dir: Path) -> set[str]:
    """The absolute module names a package's files import (`import a.b`, `from a.b import c`)."""
    import ast

    found = set()
    for path in Path(package_dir).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
    return found


def test_the_books_demos_draw_with_the_plugins_demo_kit_only() -> None:
    # bookdemos (the book's, registered by mkdocs.yml's `demos`) sits on top of the plugin.
    plugin = {m for m in _full_imports(ROOT / "bookdemos") if m.split(".")[0] == "llmbook"}
    assert plugin and all(m == "llmbook.demos" or m.startswith("llmbook.demos.") for m in plugin)
    assert find_cycles(import_graph(ROOT / "bookdemos", "bookdemos")) == []


def test_the_plugin_imports_no_package_of_the_book() -> None:
    tops = {m.split(".")[0] for m in _full_imports(PLUGIN)}
    assert not tops & {"llmkit", "bookdemos"}
