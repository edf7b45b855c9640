"""The launch links (site/launch.py) are for a browser: the print form of a page, which the PDF
and the EPUB are made of, leaves them out and keeps what was around them."""

from __future__ import annotations

from book_locales import EN
from llmbook.directives import shipped
from llmbook.editions.print_form import print_form
from llmbook.site.launch import launch_buttons

COLAB = "https://colab.research.google.com/github/me/book/blob/notebooks/{path}"


def test_print_leaves_the_launch_links_out() -> None:
    links = launch_buttons({"colab": COLAB, "binder": "https://b.org/{path}"}, "ch/x.ipynb", EN)
    assert "Open in Colab" in links and "Open in Binder" in links
    page = f"<h1>One</h1>\n{links}<p>Text.</p>"
    printed = print_form(page, locale=EN, directives=shipped()).html
    assert "Open in" not in printed and "colab" not in printed and "llmbook-launch" not in printed
    assert printed.split() == ["<h1>One</h1>", "<p>Text.</p>"]
