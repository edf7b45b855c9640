"""llmkit's modules import each other without a circle, counting imports inside functions."""

from pathlib import Path

# tests/ is on sys.path: pytest puts the folder of the rootdir conftest.py there
from layers import find_cycles, import_graph

import llmkit

LLMKIT = Path(llmkit.__file__).parent


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_llmkit_has_no_import_circle():
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
