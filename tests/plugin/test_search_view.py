"""What Material's search reads of a page: its text; formulas as their text; no drawings or data."""

from llmbook.search_view import search_view


def test_formulas_keep_their_text_drawings_and_widget_data_go() -> None:
    html = (
        '<p>均方根 <span class="llmbook-math"><math><mi>K</mi><mo>=</mo><mn>2</mn></math></span>'
        '，图 <svg viewBox="0 0 1 1"><text>轴 4096</text></svg>。</p>'
        '<script type="application/json" data-llmbook-demo>{"grid": [1, 2, 3]}</script>'
        '<span class="llmbook-num" title="x = 2.1">2.1</span>'
    )
    view = search_view(html)
    assert '<span class="llmbook-math">K=2</span>' in view
    assert "<svg" not in view and "4096" not in view and "grid" not in view
    assert "均方根" in view and '<span class="llmbook-num" title="x = 2.1">2.1</span>' in view


def test_a_page_without_them_is_unchanged() -> None:
    html = "<h2 id='a'>标题</h2><p>正文 <code>x = 1</code></p>"
    assert search_view(html) == html
