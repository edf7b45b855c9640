"""The guide lists every Zensical-internal behaviour the adapter relies on (docs/guide/en/zensical.md,
"What llmbook relies on inside Zensical"): the adapter imports nothing of Zensical's that the list
does not name, nothing else in llmbook imports Zensical, and each item names a test that exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml
from sites import ROOT, build

GUIDE = ROOT / "docs" / "guide" / "en" / "zensical.md"
PLUGIN = ROOT / "plugins" / "llmbook"
ADAPTER = PLUGIN / "adapters" / "zensical"
HEADING = "## What llmbook relies on inside Zensical"


def _section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    assert HEADING in text
    return text.split(HEADING, 1)[1].split("\n## ", 1)[0]


def _zensical_imports(path: Path) -> set[str]:
    """What `path` imports from Zensical, each as its dotted name (`zensical.main.cli`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "zensical"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "zensical":
                found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_the_adapter_imports_only_what_the_guide_lists() -> None:
    named = set(re.findall(r"`(zensical(?:\.\w+)+)`", _section()))
    imported = set().union(*(_zensical_imports(p) for p in ADAPTER.glob("*.py")))
    assert imported, "the adapter reads Zensical's page context"
    assert imported <= named, f"not in {GUIDE.name}: {sorted(imported - named)}"


def test_only_the_zensical_adapter_imports_zensical() -> None:
    others = {
        str(path.relative_to(PLUGIN)): _zensical_imports(path)
        for path in PLUGIN.rglob("*.py")
        if ADAPTER not in path.parents
    }
    assert {name: found for name, found in others.items() if found} == {}


def test_each_behaviour_names_the_test_that_catches_its_change() -> None:
    items = [item for item in _section().split("\n- **")[1:]]
    assert len(items) >= 10
    for item in items:
        tests = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", item)
        assert tests, f"no test named: {item[:80]}"
        for file, name in tests:
            tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
            defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
            assert name in defined, f"{file}::{name}"


@pytest.mark.slow
def test_a_page_with_front_matter_renders_as_it_ran(tmp_path: Path) -> None:
    """Zensical hands Python-Markdown the page without its front matter (read into `meta`)."""
    pytest.importorskip("zensical")
    docs = tmp_path / "docs"
    docs.mkdir()
    page = "---\ntags: [front]\n---\n# Small\n\n```python hidden\nx = 32\n```\n\nThere are [[x = 32]].\n"
    (docs / "index.md").write_text(page, encoding="utf-8")
    config = {"INHERIT": str(ROOT / "mkdocs.yml"), "nav": ["index.md"]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (tmp_path / "locales").symlink_to(ROOT / "locales", target_is_directory=True)
    built = build(tmp_path / "mkdocs.yml", engine="zensical", cache=False, args=["--clean"]).ok()
    html = built.page()
    body = html[html.index('<h1 id="small">') :]
    assert '<span class="llmbook-num" title="x = 32' in body
    assert "tags:" not in body and "[front]" not in body
