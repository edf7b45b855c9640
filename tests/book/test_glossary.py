"""The glossary: docs/glossary.yml checked at the build's start (each error's exact text), `{term}`
roles linked to their entries, the glossary page listing where each term is used, unused terms
logged, and a warm build re-rendering exactly the pages whose shown definitions changed."""

from __future__ import annotations

import html
import logging
import textwrap
from pathlib import Path

import pytest
from llmbook.book.glossary import Glossary
from llmbook.core.errors import AuthorError
from llmbook.core.term_syntax import find_terms
from mkdocs.exceptions import Abort, PluginError
from sites import ROOT, build, write_config

GLOSSARY = """\
- term: GQA
  zh: 分组查询注意力
  definition: 查询头分组、每组共用一对 K/V 头的注意力。
  aliases: [Grouped-Query Attention]
- term: KV Cache
  zh: 键值缓存
  definition: 把已算过的 K/V 存下来，生成新 token 时不再重算。
- term: RoPE
  zh: 旋转位置编码
  definition: 按位置把 Q/K 旋转一个角度。
"""
PAGES = {
    "index.md": "# 首页\n\n{term}`GQA` 省下 {term}`KV Cache`，见 {term}`分组查询 <Grouped-Query Attention>`。\n",
    "two.md": "# 第二页\n\n```python\nx = '{term}`不是术语`'\n```\n\n{term}`kv cache` 与 {term}`8 组头 <GQA>`。\n",
    "glossary.md": "# 术语表\n\n:::glossary\n:::\n",
}
CONFIG = """\
site_name: t
use_directory_urls: false
theme: {name: mkdocs, language: zh}
nav: [{首页: index.md}, {第二页: two.md}, {术语表: glossary.md}]
plugins:
  - llmbook:
      offline_check: false
      numbers_strict: true
markdown_extensions: [llmbook.extension, pymdownx.superfences, attr_list]
"""


def write_book(root: Path, pages: dict[str, str], glossary: str = GLOSSARY) -> Path:
    for name, text in {**pages, "glossary.yml": glossary}.items():
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return root / "mkdocs.yml"


@pytest.fixture
def failure(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    """The errors a build of `pages` stops with, one per line."""

    def fail(pages: dict[str, str], glossary: str = GLOSSARY) -> list[str]:
        with pytest.raises(Abort):
            build(write_book(tmp_path, pages, glossary), in_process=True, cache=False)
        report = caplog.text.split(" failed:\n", 1)[1]
        return [line for line in report.splitlines() if line.startswith("docs/")]

    return fail


def load(tmp_path: Path, text: str) -> Glossary:
    path = tmp_path / "glossary.yml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Glossary.load(path, "docs/glossary.yml")


# -- the data file --------------------------------------------------------------------------------

EXAMPLE = '"- term: GQA" with "definition:" under it'
BAD_FILES = {
    "- term: GQA\n  zh: [unclosed\n": "docs/glossary.yml:3: glossary.yml is not valid YAML "
    f"(expected ',' or ']', but got '<stream end>') Fix: write {EXAMPLE}",
    "term: GQA\n": f"docs/glossary.yml:1: glossary.yml is a list of entries Fix: write each as "
    f"{EXAMPLE}",
    "- GQA\n": f"docs/glossary.yml:1: a glossary entry is a mapping Fix: write {EXAMPLE}",
    "- term: GQA\n  zh: 分组\n": "docs/glossary.yml:1: the entry GQA has no definition Fix: add "
    f'"definition:" to it ({EXAMPLE})',
    "- zh: 分组\n  definition: 一句\n": "docs/glossary.yml:1: a glossary entry has no term Fix: "
    f'add "term:" to it ({EXAMPLE})',
    "- term: GQA\n  zh: 分组\n  defintion: 一句\n": "docs/glossary.yml:3: a glossary entry has "
    "the unknown key 'defintion' Fix: use only term, definition, aliases, and a language's code "
    'for the term\'s name in that language ("fr: Attention à requêtes groupées")',
    "- term: GQA\n  definition: 一句\n  Zh: 分组\n": "docs/glossary.yml:3: a glossary entry has "
    "the unknown key 'Zh' Fix: use only term, definition, aliases, and a language's code for the "
    'term\'s name in that language ("fr: Attention à requêtes groupées")',
    "- term: GQA\n  zh: 分组\n  definition: |\n    两行\n    定义\n": "docs/glossary.yml:3: the "
    'definition of a glossary entry is one line of text Fix: write "definition: …" with the text '
    "on the same line",
    "- term: GQA\n  definition: 一句\n  pt-BR: [a, b]\n": "docs/glossary.yml:3: the pt-BR name "
    'of a glossary entry is one line of text Fix: write "pt-BR: …" with the text on the same line',
    "- term: GQA\n  zh: 分组\n  definition: 一句\n  aliases: MQA\n": "docs/glossary.yml:4: aliases "
    'of a glossary entry are a list Fix: write "aliases: [Grouped-Query Attention]"',
    "- term: GQA\n  zh: 分组\n  definition: 一句\n- term: MQA\n  zh: 多查询\n  definition: 一句\n"
    "  aliases: [gqa]\n": "docs/glossary.yml:4: the name 'gqa' is given twice (entry GQA on line "
    "1) Fix: keep one entry for a term, its other names as its aliases",
}


@pytest.mark.parametrize("text", list(BAD_FILES))
def test_a_malformed_glossary_names_its_line(tmp_path: Path, text: str) -> None:
    with pytest.raises(AuthorError) as raised:
        load(tmp_path, text)
    assert str(raised.value) == BAD_FILES[text]


def test_entries_and_their_names(tmp_path: Path) -> None:
    glossary = load(tmp_path, GLOSSARY)
    assert [e.term for e in glossary.entries] == ["GQA", "KV Cache", "RoPE"]
    assert glossary.entries[0].names == (("zh", "分组查询注意力"),)
    assert glossary.lookup("grouped-query attention").term == "GQA"
    assert glossary.lookup("kv-cache").slug == "term-kv-cache"
    assert glossary.nearest("GQB") == ["GQA"]
    assert load(tmp_path, "").entries == []


def test_a_malformed_glossary_stops_the_build(failure) -> None:
    """Its one error: the pages' terms are not reported as undefined besides."""
    assert failure(PAGES, "- x\n") == [
        f"docs/glossary.yml:1: a glossary entry is a mapping Fix: write {EXAMPLE}"
    ]


# -- the markup -----------------------------------------------------------------------------------


def test_the_role_and_its_shown_text() -> None:
    uses = find_terms("{term}`GQA` 与 {term}`分组查询 <GQA>`，{term}``RoPE``", 7)
    assert [(u.name, u.shown, u.line) for u in uses] == [
        ("GQA", "GQA", 7),
        ("GQA", "分组查询", 7),
        ("RoPE", "RoPE", 7),
    ]
    assert find_terms("写 `` {term}`GQA` `` 即可", 1) == []  # the markup shown as code


def test_an_undefined_term_names_the_nearest(failure) -> None:
    pages = {**PAGES, "two.md": "# 第二页\n\n一段。\n\n用 {term}`GQB` 省显存。\n"}
    assert failure(pages) == [
        "docs/two.md:5: the term 'GQB' is not in the glossary Fix: write one of the glossary's "
        'terms (GQA), or add an entry "- term: GQB" with its definition to docs/glossary.yml'
    ]


def test_a_term_without_a_glossary_page(failure) -> None:
    pages = {**PAGES, "glossary.md": "# 术语表\n"}
    assert failure(pages) == [
        "docs/index.md:3: the term 'GQA' links to the glossary page, and no page holds "
        ":::glossary Fix: add a page (e.g. docs/glossary.md) with a :::glossary block, and put it "
        "in the nav"
    ]


def test_one_glossary_page(failure) -> None:
    pages = {**PAGES, "more.md": "# 又一个术语表\n\n:::glossary\n:::\n"}
    assert failure(pages) == [
        "docs/more.md:3: a second :::glossary (the first is on docs/glossary.md) Fix: keep one "
        "glossary page: remove this block"
    ]


def test_the_glossary_block_has_no_body(tmp_path: Path) -> None:
    pages = {**PAGES, "glossary.md": "# 术语表\n\n:::glossary\n手写的词条\n:::\n"}
    with pytest.raises(Abort) as raised:
        build(write_book(tmp_path, pages), in_process=True, cache=False)
    assert isinstance(raised.value.__context__, PluginError)
    # checked before any page renders: one entry of the build's report
    assert str(raised.value.__context__) == (
        "1 page failed:\n"
        "docs/glossary.md:4: :::glossary takes no body (its list comes from docs/glossary.yml) "
        "Fix: move the text above the :::glossary block, or into docs/glossary.yml"
    )


# -- the built site -------------------------------------------------------------------------------


@pytest.fixture
def built(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> tuple[Path, str]:
    with caplog.at_level(logging.INFO):
        site = build(write_book(tmp_path, PAGES), in_process=True, cache=False).site
    return site, caplog.text


def test_a_term_is_a_link_with_its_definition(built: tuple[Path, str]) -> None:
    html = (built[0] / "index.html").read_text(encoding="utf-8")
    assert (
        '<a class="llmbook-term" href="glossary.html#term-gqa" title="分组查询注意力（GQA）：查询头'
        '分组、每组共用一对 K/V 头的注意力。" data-term="GQA" data-name="分组查询注意力（GQA）" '
        'data-definition="查询头分组、每组共用一对 K/V 头的注意力。">分组查询</a>'
    ) in html
    assert html.count('class="llmbook-term"') == 3  # the number inside a term is no claim
    two = (built[0] / "two.html").read_text(encoding="utf-8")
    assert ">kv cache</a> 与 <a" in two and ">8 组头</a>" in two and "`不是术语`" in two  # code


def test_the_glossary_page_lists_where_each_term_is_used(built: tuple[Path, str]) -> None:
    html = (built[0] / "glossary.html").read_text(encoding="utf-8")
    assert (
        '<dt id="term-kv-cache"><dfn class="llmbook-glossary__term">键值缓存</dfn> '
        '<span class="llmbook-glossary__other">KV Cache</span></dt>'
    ) in html
    used = html.split('id="term-kv-cache"')[1].split("</dd>")[0]
    assert '用到它的页面：<a href="index.html">首页</a>、<a href="two.html">第二页</a>' in used
    assert "（暂无页面用到）" in html.split('id="term-rope"')[1]


def test_an_english_book_names_its_terms_once(tmp_path: Path) -> None:
    """A book in one language, each entry only a term and a definition: the tooltip and the
    listing name the term, no other name beside it; the words around them are English."""
    glossary = "- term: GQA\n  definition: Query heads in groups.\n"
    pages = {
        "index.md": "# Home\n\n{term}`GQA` it is.\n",
        "glossary.md": "# Terms\n\n:::glossary\n:::\n",
    }
    config = write_book(tmp_path, pages, glossary)
    config.write_text(
        CONFIG.replace("language: zh", "language: en").replace(
            "nav: [{首页: index.md}, {第二页: two.md}, {术语表: glossary.md}]",
            "nav: [{Home: index.md}, {Terms: glossary.md}]",
        ),
        encoding="utf-8",
    )
    site = build(config, in_process=True, cache=False).site
    assert (
        '<a class="llmbook-term" href="glossary.html#term-gqa" title="GQA: Query heads in groups." '
        'data-term="GQA" data-name="GQA" data-definition="Query heads in groups.">GQA</a>'
    ) in (site / "index.html").read_text(encoding="utf-8")
    assert (
        '<dt id="term-gqa"><dfn class="llmbook-glossary__term">GQA</dfn></dt><dd><p '
        'class="llmbook-glossary__definition">Query heads in groups.</p><p '
        'class="llmbook-glossary__used">Used on: <a href="index.html">Home</a></p></dd>'
    ) in (site / "glossary.html").read_text(encoding="utf-8")


def test_unused_terms_are_logged(built: tuple[Path, str]) -> None:
    assert "glossary: 3 terms, 5 uses on 2 pages" in built[1]
    assert "glossary: used on no page: RoPE (docs/glossary.yml)" in built[1]


# -- cached builds --------------------------------------------------------------------------------


def test_a_changed_definition_renders_its_pages_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LLMBOOK_CACHE", raising=False)
    config = write_book(tmp_path, PAGES)

    def rendered() -> list[str]:
        done = build(config, in_process=True)
        return sorted(done.config.plugins["llmbook"].site.rendered)

    assert rendered() == ["docs/glossary.md", "docs/index.md", "docs/two.md"]
    assert rendered() == []
    glossary = tmp_path / "docs" / "glossary.yml"
    glossary.write_text(GLOSSARY.replace("按位置把", "按位置给"), encoding="utf-8")
    assert rendered() == ["docs/glossary.md"]  # RoPE: on the glossary page only
    glossary.write_text(GLOSSARY.replace("存下来", "留下来"), encoding="utf-8")
    assert rendered() == ["docs/glossary.md", "docs/index.md", "docs/two.md"]
    (tmp_path / "docs" / "two.md").write_text("# 第二页\n\n没有术语。\n", encoding="utf-8")
    assert rendered() == ["docs/glossary.md", "docs/two.md"]  # who uses KV Cache changed


# -- Zensical -------------------------------------------------------------------------------------


def test_zensical_links_terms_and_lists_the_glossary(tmp_path: Path) -> None:
    pytest.importorskip("zensical")
    write_book(tmp_path, PAGES)
    config = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "nav": [{"首页": "index.md"}, {"第二页": "two.md"}, {"术语表": "glossary.md"}],
    }
    done = build(write_config(tmp_path, config), engine="zensical", cache=False, args=["--clean"])
    assert done.returncode == 0, done.stderr[-3000:]
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert (
        '<a class="llmbook-term" href="glossary.html#term-gqa" title="分组查询注意力（GQA）：'
        in index
    )
    listing = (tmp_path / "site" / "glossary.html").read_text(encoding="utf-8")
    used = listing.split('id="term-kv-cache"')[1].split("</dd>")[0]
    assert '<a href="index.html">首页</a>、<a href="two.html">第二页</a>' in used


# -- the live preview -----------------------------------------------------------------------------


def test_the_preview_shows_an_undefined_term_in_its_box(tmp_path: Path) -> None:
    """Under `mkdocs serve` the page renders: the undefined term as written, the build's text
    in a box after its line, the defined terms linked."""
    pages = {**PAGES, "two.md": "# 第二页\n\n{term}`GQB` 与 {term}`GQA`。\n\n{term}`RoPE` 照常。\n"}
    config = write_book(tmp_path, pages)
    site = build(config, in_process=True, cache=False, command="serve").site
    two = html.unescape((site / "two.html").read_text(encoding="utf-8"))
    box = two.split("<pre>", 1)[1].split("</pre>", 1)[0]
    assert box == (
        "docs/two.md:3: the term 'GQB' is not in the glossary Fix: write one of the glossary's "
        'terms (GQA), or add an entry "- term: GQB" with its definition to docs/glossary.yml'
    )
    assert two.index("{term}<code>GQB</code> 与 <a") < two.index('class="llmbook-build-error"')
    assert two.count('class="llmbook-term"') == 2


def test_the_listing_follows_the_nav_of_the_config_the_build_was_given(tmp_path: Path) -> None:
    """`mkdocs build -f other.yml`: the pages that use a term are listed in other.yml's nav
    order (the nav is read once, from the engine's config, not from mkdocs.yml on disk)."""
    write_book(tmp_path, PAGES)
    other = CONFIG.replace(
        "nav: [{首页: index.md}, {第二页: two.md}, {术语表: glossary.md}]",
        "nav: [{第二页: two.md}, {首页: index.md}, {术语表: glossary.md}]",
    )
    (tmp_path / "other.yml").write_text(other, encoding="utf-8")
    site = build(tmp_path / "other.yml", site=tmp_path / "site", in_process=True, cache=False).site
    listing = (site / "glossary.html").read_text(encoding="utf-8")
    used = listing.split('id="term-kv-cache"')[1].split("</dd>")[0]
    assert '<a href="two.html">第二页</a>、<a href="index.html">首页</a>' in used
