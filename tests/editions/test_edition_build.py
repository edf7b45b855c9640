"""An edition comes from the site's build: a drifted number stops the build before any edition
is written, naming its line; a second build converts no page again (the store's memo) and runs
no page code."""

from __future__ import annotations

import logging

import pytest
from mkdocs.exceptions import Abort

PAGE = """\
# 第 1 章 · 小书

## 1.1 一节

```python
x = 6 * 7
```

答案是 [[x = {written}]]。

$$
E = mc^2
$$
"""
CONFIG = {
    "site_name": "小书",
    "use_directory_urls": False,
    "plugins": [{"llmbook": {"editions": ["pdf"], "offline_check": False}}],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


@pytest.fixture(autouse=True)
def _no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LLMBOOK_EDITIONS", "LLMBOOK_EDITIONS_DIR"):
        monkeypatch.delenv(name, raising=False)


def test_a_drift_stops_the_build_before_the_pdf(make_site, tmp_path, caplog) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        make_site({"index.md": PAGE.format(written=41)}, CONFIG, in_process=True)
    assert "docs/index.md:9: " in caplog.text and "written 41, computed 42" in caplog.text
    assert not (tmp_path / "dist" / "llmbook.pdf").exists()


def test_a_second_build_converts_and_runs_nothing_again(make_site, tmp_path, caplog) -> None:
    with caplog.at_level(logging.INFO):
        make_site({"index.md": PAGE.format(written=42)}, CONFIG, in_process=True, cache=True).ok()
    first = (tmp_path / "dist" / "llmbook.pdf").read_bytes()
    assert first.startswith(b"%PDF") and (tmp_path / "site" / "llmbook.pdf").exists()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        make_site({"index.md": PAGE.format(written=42)}, CONFIG, in_process=True, cache=True).ok()
    said = "\n".join(record.getMessage() for record in caplog.records)
    assert "editions 2/2" in said and "(0 pages run)" in said  # the page's Typst, the PDF
    assert (tmp_path / "dist" / "llmbook.pdf").read_bytes() == first  # the same bytes again
