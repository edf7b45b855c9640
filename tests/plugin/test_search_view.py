"""What Material's search reads of a page: its text; formulas as their text; no drawings or data."""

from llmbook.core.search_view import search_view


def test_formulas_keep_their_text_drawings_and_widget_data_go() -> None:
    html = (
        '<p>均方根 <span class="llmbook-math"><math><mi>K</mi><mo>=</mo><mn>2</mn></math></span>'
        '，图 <svg viewBox="0 0 1 1"><text>轴 4096</text></svg>。</p>'
        '<script type="application/json" data-llmbook-demo>{"grid": [1, 2, 3]}</script>'
        '<span class="llmbook-num" title="x = 2.1">2.1</span>'
    )
    assert search_view(html) == "<p>均方根 K=2，图 。</p>2.1"


def test_a_page_without_them_is_unchanged() -> None:
    html = "<h2 id='a'>标题</h2><p>正文 <code>x = 1</code></p>"
    assert search_view(html) == html


def test_without_spans_the_search_plugin_reads_the_same_sections() -> None:
    """Spans (highlighted code, checked numbers, formulas) carry no structure Material's search
    keeps: the sections it parses are the same, from a fraction of the tags."""
    from material.plugins.search.plugin import Parser

    html = (
        '<h1 id="t">第 <span class="llmbook-num" title="x">10</span> 章</h1>'
        '<p>均方根 <span class="llmbook-num" title="a = 2.1">2.1</span> GB，'
        '<span class="llmbook-source">（论文）</span></p>'
        '<div class="highlight"><pre><span></span><code><span class="n">x</span> '
        '<span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>'
        '<h2 id="s">小节 <span class="llmbook-math">d=1</span>'
        '<a class="headerlink" href="#s">¶</a></h2>'
        '<ul><li><span class="n">一</span> 项</li></ul>'
        "<details data-search-exclude><summary>答案</summary><p><span>B</span></p></details>"
    )

    def sections(text: str) -> list[tuple[str, str, str]]:
        parser = Parser()
        parser.feed(text)
        parser.close()
        return [(str(s.id), "".join(s.title), "".join(s.text)) for s in parser.data]

    assert "<span" not in search_view(html)
    assert sections(search_view(html)) == sections(html)


def test_the_record_of_what_computed_the_page_is_not_searched() -> None:
    """The provenance panel (site/provenance.py): versions and times, different each build."""
    html = (
        '<p>正文</p><details class="info llmbook-provenance">\n<summary>本页由什么计算</summary>\n'
        "<ul>\n<li>随机种子：0</li>\n</ul>\n</details>\n"
    )
    assert search_view(html) == "<p>正文</p>\n"
