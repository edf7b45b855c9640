"""`:::related` and the SiteIndex: items the site teaches become relative links, the rest chips."""

from __future__ import annotations

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.core.page_ref import PageRef
from llmbook.core.site_index import SiteIndex
from llmbook.directives import parse_directives

SOURCES = {
    "chapters/attention.html": "# 自注意力\n\n## Self-Attention 的计算\n\n```python\n# LayerNorm in a comment is no heading\n```\n",
    "chapters/norm.html": "---\ntitle: 归一化\n---\n\n## 10.4 LayerNorm：经典归一化 ★\n",
}


@pytest.fixture
def site(mdx_configs, tmp_path):
    """An index of SOURCES as page files, with the project's toc slugify."""
    pages = []
    for number, (url, text) in enumerate(SOURCES.items()):
        path = tmp_path / f"page{number}.md"
        path.write_text(text, encoding="utf-8")
        pages.append((url, str(path), ""))
    return SiteIndex(pages, mdx_configs=mdx_configs)


def test_lookup_finds_titles_headings_and_their_parts(site):
    assert site.lookup("自注意力").url == "chapters/attention.html"
    assert (
        site.lookup("self-attention 的计算").url == "chapters/attention.html#self-attention-的计算"
    )
    assert site.lookup("归一化").url == "chapters/norm.html"
    target = site.lookup("LayerNorm")
    assert (
        target.url == "chapters/norm.html#104-layernorm经典归一化-"
        and target.title == "10.4 LayerNorm：经典归一化 ★"
    )
    assert site.lookup("经典归一化") == target
    assert site.lookup("FFN") is None


def test_items_become_links_relative_to_the_page_or_chips(render, site):
    page = PageRef("docs/chapters/ch10.md", "chapters/ch10.html", "chapters/ch10.md")
    out = render(
        ":::related\n依赖 | 自注意力, LayerNorm，FFN\n用于 | LLaMA\n:::\n", site=site, page=page
    )
    assert out == (
        '<div class="llmbook-related">'
        '<div class="llmbook-related__row"><span class="llmbook-related__label">依赖</span><span class="llmbook-related__items">'
        '<a class="llmbook-chip llmbook-chip--link" href="attention.html" title="自注意力">自注意力</a>'
        '<a class="llmbook-chip llmbook-chip--link" href="norm.html#104-layernorm经典归一化-" title="10.4 LayerNorm：经典归一化 ★">LayerNorm</a>'
        '<span class="llmbook-chip">FFN</span></span></div>'
        '<div class="llmbook-related__row"><span class="llmbook-related__label">用于</span><span class="llmbook-related__items">'
        '<span class="llmbook-chip">LLaMA</span></span></div></div>'
    )


def test_without_a_site_every_item_is_a_chip(render):
    assert render(":::related\n依赖 | A <b>, B\n:::\n").count('<span class="llmbook-chip">') == 2
    assert "A &lt;b&gt;" in render(":::related\n依赖 | A <b>, B\n:::\n")


def test_site_index_from_mkdocs_files(tmp_path):
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import get_files

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# 首页\n", encoding="utf-8")
    (tmp_path / "docs" / "rope.md").write_text(
        "# 位置编码\n\n## RoPE：旋转位置编码\n", encoding="utf-8"
    )
    config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
    config.load_dict(
        {
            "site_name": "t",
            "docs_dir": str(tmp_path / "docs"),
            "use_directory_urls": False,
            "nav": [{"首页": "index.md"}, {"旋转": "rope.md"}],
            "markdown_extensions": ["toc"],
        }
    )
    assert config.validate() == ([], [])
    site = SiteIndex.from_files(get_files(config), config)
    assert site.lookup("旋转").url == "rope.html"  # the nav title wins over the H1
    assert site.lookup("RoPE").url == "rope.html#rope"  # toc default slugify (ASCII)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("依赖 Self-Attention", "d.md:2: related line '依赖 Self-Attention' has no '|'"),
        ("| A, B", "d.md:2: related line '| A, B' needs a label before '|' and items after it"),
    ],
)
def test_related_errors(line, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(f":::related\n{line}\n:::\n", src="d.md", locale=ZH)
    assert (
        str(caught.value)
        == expected + ' Fix: write "label | item, item", e.g. "依赖 | Self-Attention, LayerNorm"'
    )


def test_outlines_are_kept_in_the_store_and_follow_the_page_text(tmp_path):
    from llmbook.core.store import Store

    page = tmp_path / "rope.md"
    page.write_text("# 位置编码\n\n## RoPE\n", encoding="utf-8")

    def index(store: Store) -> SiteIndex:
        return SiteIndex([("rope.html", str(page), "")], ["toc"], {}, store=store)

    first = Store(tmp_path / "cache")
    assert index(first).lookup("RoPE").url == "rope.html#rope"
    warm = Store(tmp_path / "cache")
    assert index(warm).lookup("RoPE").url == "rope.html#rope"
    assert (first.counts, warm.counts) == ({"outlines": [0, 1]}, {"outlines": [1, 0]})
    page.write_text("# 位置编码\n\n## ALiBi\n", encoding="utf-8")  # the text is in the key
    edited = Store(tmp_path / "cache")
    again = index(edited)
    assert again.lookup("RoPE") is None and again.lookup("ALiBi") is not None
    assert edited.counts == {"outlines": [0, 1]}


def test_a_page_view_records_its_lookups_and_leaves_the_index_alone(site):
    lookups: list[list[str]] = []
    view = site.recording(lookups)
    assert view.lookup("LayerNorm") == site.lookup("LayerNorm")
    assert view.lookup("FFN") is None
    assert lookups == [
        [
            "LayerNorm",
            "10.4 LayerNorm：经典归一化 ★",
            "chapters/norm.html#104-layernorm经典归一化-",
        ],
        ["FFN", "", ""],
    ]
