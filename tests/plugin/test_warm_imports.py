"""A warm build does only what its caches cannot answer: with every page unchanged it imports
neither the page code's libraries (torch, numpy, matplotlib, llmkit) nor nbformat and its schema
validator, and writes the same site. Those imports were a second of fixed cost per build. No
build imports Dask unless `execute_cluster` is set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cached_builds import ROOT, cached_build
from sites import masked_provenance, write_config

pytestmark = pytest.mark.slow

HEAVY = ("dask", "distributed", "jsonschema", "llmkit", "matplotlib", "nbformat", "numpy", "torch")

# Build in this process, then say which of HEAVY it imported.
_BUILD = f"""
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
print("IMPORTED", sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r})))
"""

PAGE = """# 页面

```python
import torch
x = torch.arange(4.0)
```

和是 [[x.sum().item() = 6.0]]。
"""


def _notebook() -> str:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# 笔记本\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "source": ["import numpy as np\n", "print(np.float64(2.5) * 2)\n"],
            "outputs": [],
            "execution_count": None,
        },
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _build(root: Path, site: str) -> list[str]:
    done = cached_build(_BUILD, root, site)
    line = next(x for x in done.stdout.splitlines() if x.startswith("IMPORTED"))
    return json.loads(line.removeprefix("IMPORTED ").replace("'", '"'))


def test_a_warm_build_imports_no_page_library_and_writes_the_same_site(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(PAGE, encoding="utf-8")
    (docs / "nb.ipynb").write_text(_notebook(), encoding="utf-8")
    config = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "docs_dir": str(docs),
        "nav": [{"页面": "index.md"}, {"笔记本": "nb.ipynb"}],
    }
    write_config(tmp_path, config)

    cold = _build(tmp_path, "site1")
    assert "nbformat" in cold  # the cold build reads the notebook with it
    assert not {"dask", "distributed"} & set(cold)  # only with `execute_cluster`
    assert _build(tmp_path, "site2") == []

    files = sorted(p.relative_to(tmp_path / "site1") for p in (tmp_path / "site1").rglob("*"))
    assert files == sorted(
        p.relative_to(tmp_path / "site2") for p in (tmp_path / "site2").rglob("*")
    )
    # the sitemap's dates differ, and the record of what computed each page (the warm build's
    # results came from the cache): everything else is the same bytes
    first, second = (
        masked_provenance({
            f.as_posix(): (tmp_path / site / f).read_bytes()
            for f in files
            if (tmp_path / site / f).is_file() and f.suffix != ".xml"
        })
        for site in ("site1", "site2")
    )  # fmt: skip
    assert [f for f in first if first[f] != second[f]] == []
    executed = json.loads((tmp_path / "site2" / "nb.ipynb").read_text(encoding="utf-8"))
    assert executed["cells"][1]["outputs"][0]["text"] == ["5.0\n"]
