"""Seed chapter 000 (and the authoring guide), in a temporary site with the project's mkdocs.yml, build --strict.

This runs the whole pipeline (directives, execution switched off by front matter, math, offline
check, assets), so it needs every stage of the plugin; it checks what the directives promise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from directive_helpers import ROOT, SEED_000
from sites import Built, build, project_config, write_config, write_pages

pytestmark = pytest.mark.slow

GUIDE = ROOT / "docs" / "guide" / "authoring.md"


NAV = [{"首页": "index.md"}, {"第 10 章": "chapters/seed.md"}, {"写作指南": "guide/authoring.md"}]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Built]:
    root = tmp_path_factory.mktemp("seedsite")
    docs, site = root / "docs", root / "site"
    seed = SEED_000.read_text(encoding="utf-8")
    pages = {
        "guide/authoring.md": GUIDE.read_text(encoding="utf-8"),
        "index.md": "# 首页\n\n见[第 10 章](chapters/seed.md)。\n",
        "chapters/seed.md": "---\nexecute: false\nnumbers: report\n---\n\n" + seed,
        # what the guide links to elsewhere in the book
        "guide/executable.md": "# 可执行代码与数字\n\n## 参考文献\n\n正文。\n",
        "glossary.md": "# 术语表\n\n正文。\n",
        "guide/en/languages.md": "# Languages\n\n## Quiz keywords\n\nText.\n",
    }
    write_pages(docs, pages)
    config = write_config(root, project_config(docs, NAV, site_dir=str(site)))
    return site, build(config, strict=True, cache=False, cwd=ROOT)


@pytest.fixture(scope="module")
def chapter(built) -> str:
    site, result = built
    assert result.returncode == 0, result.stderr[-4000:]
    return (site / "chapters" / "seed.html").read_text(encoding="utf-8")


def test_builds_strict_without_warnings(built):
    _, result = built
    assert result.returncode == 0, result.stderr[-4000:]
    assert not re.search(r"^WARNING\b", result.stderr, re.M), result.stderr


def test_no_directive_syntax_left_outside_code(chapter):
    article = chapter.split('<article class="md-content__inner md-typeset">', 1)[1].split(
        "</article>", 1
    )[0]
    outside = re.sub(r"<pre.*?</pre>|<code.*?</code>", "", article, flags=re.S)
    assert ":::" not in outside


def test_six_quizzes_with_hidden_search_excluded_keys(chapter):
    quizzes = re.findall(
        r'<div class="admonition question llmbook-quiz"[^>]*data-answer="([A-F])"', chapter
    )
    assert quizzes == ["B", "B", "B", "A", "B", "B"]
    keys = re.findall(r'<details class="llmbook-quiz__answer"([^>]*)>', chapter)
    assert keys == [" data-search-exclude"] * 6  # closed, and out of the search index
    assert chapter.count('class="llmbook-quiz__option"') == 24


def test_interview_answers_are_hidden(chapter):
    answers = re.findall(
        r'<details class="success llmbook-answer"([^>]*)><summary>查看答案</summary>', chapter
    )
    assert len(answers) == 8 and all("open" not in attrs for attrs in answers)


def test_two_checked_shape_flows_in_section_10_1(chapter):
    section = chapter.split(">10.1 KV Cache", 1)[1].split(">10.2 ", 1)[0]
    assert section.count('class="llmbook-shapeflow__line is-checked"') == 2
    assert "⊕ 沿第 3 维拼接：t−1 + 1 = t" in section
    assert (
        chapter.count('class="llmbook-shapeflow__line is-checked"') == 7
    )  # 10.1: 2, 10.2: 2, 10.6: 3


def test_six_demo_frames(chapter):
    demos = re.findall(r'<figure class="llmbook-demo" data-demo="([\w-]+)"', chapter)
    assert demos == ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]


def test_widget_assets_are_linked(chapter):
    for asset in ("quiz.js", "cards.js", "directives.css"):
        assert re.search(rf'(src|href)="[^"]*assets/llmbook/widgets/{asset}"', chapter), asset


def test_answer_keys_stay_out_of_the_search_index(built):
    site, result = built
    assert result.returncode == 0
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    chapter_docs = [doc for doc in docs if doc["location"].startswith("chapters/seed.html")]
    index = " ".join(doc["title"] + " " + doc["text"] for doc in chapter_docs).replace(
        "\u200b", ""
    )  # jieba's breaks
    assert "KV Cache 缓存历史的 Key/Value" not in index and "A 说反了" not in index
    assert "KV Cache 的核心作用是" in index  # the question itself is searchable


def test_the_authoring_guide_builds_with_links_to_the_site(built):
    site, result = built
    assert result.returncode == 0, result.stderr[-4000:]
    guide = (site / "guide" / "authoring.html").read_text(encoding="utf-8")
    assert guide.count('<div class="llmbook-showcase__result">') == 14
    assert (
        '<a class="llmbook-chip llmbook-chip--link" href="../index.html" title="首页">首页</a>'
        in guide
    )
    assert (
        '<a class="llmbook-chip llmbook-chip--link" href="authoring.html" title="写作指南">写作指南</a>'
        in guide
    )
    assert "<math" in guide and '<figure class="llmbook-demo" data-demo="rope">' in guide
