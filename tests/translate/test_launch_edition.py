"""A translated edition's launch links open its own notebook: the page `docs/x.md` built from
`docs/x.en.md` into site/en/ has its notebook at `en/x.ipynb` in the published site, and its
button speaks the edition's language."""

from __future__ import annotations

import re

COLAB = "https://colab.research.google.com/github/me/book/blob/notebooks/{path}"


def launch_links(html: str) -> list[tuple[str, str]]:
    return re.findall(r'class="md-button llmbook-launch__button" href="([^"]+)"[^>]*>([^<]+)', html)


def test_each_edition_opens_its_own_notebook(book) -> None:
    book.write_config(launch={"colab": COLAB})
    book.build("zh").ok()
    english = book.build("en").ok()
    base = "https://colab.research.google.com/github/me/book/blob/notebooks/"
    assert launch_links((book.root / "site" / "x.html").read_text(encoding="utf-8")) == [
        (base + "x.ipynb", "在 Colab 中打开")
    ]
    assert launch_links(english.page("x.html")) == [(base + "en/x.ipynb", "Open in Colab")]
    assert "llmbook-launch" not in english.page("index.html")  # no code
