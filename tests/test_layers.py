"""The import contracts, read from the source with `ast` (imports inside functions count): llmbook's
modules import only from their own layer or those below, and neither llmbook nor llmkit has a
circle. A layer is a folder of `plugins/llmbook/` (FOLDERS, bottom to top): a module's layer is the
folder it lies in, so a new module is placed by where it is written. `nox -s lint` runs this file
on its own (no llmbook or llmkit import: stdlib and pytest only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from layers import find_cycles, import_graph

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "plugins" / "llmbook"
LLMKIT = ROOT / "llmkit"

# Bottom to top. A module of a folder may import modules of its own folder and of the folders
# before it in this list (further down the stack), never one listed after its own.
FOLDERS: list[str] = [
    "core",  # the leaves (store, errors, lexer, edits, stash, words) and the text syntaxes
    "demos",
    "directives",
    "execute",  # stages/, numbers/ (the checked numbers), shell/, sandbox/, cluster/
    "book",  # the apparatus: numbered parts, references, citations, glossary, index
    # Translations checked against their sources: pages' models, results; no engine.
    "translate",
    # The editions read the built site's HTML: they know no engine and no stage of the build.
    "editions",
    "site",  # the build of a site, engine-agnostic, and the checks of a built site
    "adapters",  # mkdocs/, zensical/ and the options they share
    "commands",  # `llmbook new`, `llmbook update-numbers`
]
# The modules directly in plugins/llmbook/ are the entries users name (`llmbook.extension`, the
# entry points, `python -m`): the top, above every folder; `llmbook` itself is the bottom. So is
# every package's `__main__` (`python -m llmbook.translate`): a command, on top.
ENTRIES = "entries"
LAYERS: list[str] = ["llmbook", *FOLDERS, ENTRIES]
# At most this many modules lie directly in plugins/llmbook/ (issue 44): the rest is in a layer.
MOST_AT_TOP = 10


def layer_name(module: str) -> str:
    """The module's layer: `llmbook`, a folder of FOLDERS, or the entries on top."""
    parts = module.split(".")
    if parts[0] != "llmbook":
        raise LookupError(f"{module} is not a module of llmbook")
    if len(parts) == 1:
        return "llmbook"
    if parts[-1] == "__main__" or (len(parts) == 2 and not (PLUGIN / parts[1]).is_dir()):
        return ENTRIES
    if parts[1] not in FOLDERS:
        raise LookupError(
            f"{module} is in no layer: add its folder to FOLDERS (tests/test_layers.py)"
        )
    return parts[1]


def layer_of(module: str) -> int:
    """The index of the module's layer: its folder's place in FOLDERS."""
    return LAYERS.index(layer_name(module))


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} ({layer_name(module)}) imports {target} ({layer_name(target)})"
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
    graph = {
        "llmbook.core.store": {"llmbook.site.site"},
        "llmbook.site.site": {"llmbook.core.store"},
    }
    assert upward_imports(graph) == ["llmbook.core.store (core) imports llmbook.site.site (site)"]
    assert find_cycles(graph) == [["llmbook.core.store", "llmbook.site.site", "llmbook.core.store"]]


def test_a_module_outside_the_folders_is_named() -> None:
    with pytest.raises(LookupError, match="llmbook.newthing.x is in no layer"):
        layer_of("llmbook.newthing.x")


def test_every_folder_is_a_layer() -> None:
    folders = {p.parent.name for p in PLUGIN.glob("*/__init__.py")}
    assert folders == set(FOLDERS)


def test_the_entries_sit_above_every_folder() -> None:
    assert layer_of("llmbook.extension") > layer_of("llmbook.adapters.mkdocs.plugin")
    assert layer_of("llmbook.translate.__main__") > layer_of("llmbook.adapters.config")
    assert layer_of("llmbook") < layer_of("llmbook.core.store")


def test_few_modules_lie_at_the_top() -> None:
    top = sorted(p.stem for p in PLUGIN.glob("*.py"))
    assert len(top) <= MOST_AT_TOP, top


def test_the_update_tool_sits_above_the_executor() -> None:
    assert layer_of("llmbook.commands.update") > layer_of("llmbook.execute.stages.executor")


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
# (execute/cluster/shard.py) is the only other place a hash is computed.
HASHERS = {"llmbook.core.store", "llmbook.execute.cluster.shard"}


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
