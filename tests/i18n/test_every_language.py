"""The proof that llmbook holds no language of its own: one small book built in each shipped
language, written the way an author of that language writes (its quiz keywords, its reference
forms, boxes without titles, a figure, a table, an equation, a citation, a glossary term, a
notebook), then its edition in another language with the page left untranslated. No site shows
an interface word of any other locale outside code, and a stale reference in the book's own
forms fails at its line."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from llmbook.core.i18n import load_locale, shipped_languages

# How an author of each language writes: (section 1.2, figure, table, equation, chapter 1, the
# quiz's answer and explanation words, "see", the same section written with a stale number).
FORMS = {
    "en": ("Section 1.2", "Figure 1-1", "Table 1-1", "Equation (1.1)", "Chapter 1",
           "Answer", "Explanation", "See", "Section 1.1"),
    "zh": ("1.2 节", "图 1-1", "表 1-1", "式 (1.1)", "第 1 章", "答案", "解析", "见", "1.1 节"),
    "fr": ("Section 1.2", "Figure 1-1", "Tableau 1-1", "Équation (1.1)", "Chapitre 1",
           "Réponse ", "Explication", "Voir", "Section 1.1"),
    "de": ("Abschnitt 1.2", "Abbildung 1-1", "Tabelle 1-1", "Gleichung (1.1)", "Kapitel 1",
           "Antwort", "Erklärung", "Siehe", "Abschnitt 1.1"),
    "es": ("Sección 1.2", "Figura 1-1", "Tabla 1-1", "Ecuación (1.1)", "Capítulo 1",
           "Respuesta", "Explicación", "Véase", "Sección 1.1"),
    "ja": ("1.2節", "図1-1", "表1-1", "式(1.1)", "第1章", "答え", "解説", "参照：", "1.1節"),
}  # fmt: skip
# The other language of each book's second edition.
OTHER = {"en": "fr", "fr": "de", "de": "es", "es": "ja", "ja": "zh", "zh": "en"}

PAGE = """\
---
chapter: 1
---

# {title}

## 1.1 {first} {{#first}}

{see} [{section}](#second), [{figure}](#fig-a), [{table}](#tbl-a), [{equation}](#eq-a) [@knuth1984].
{term} {{term}}`GQA`: [[6 * 7 = 42]].

![a](a.png)

/// figure-caption | #fig-a
{caption}
///

| x | y |
|---|---|
| a | b |

/// table-caption | #tbl-a
{caption}
///

$$
x = y
$$ {{#eq-a}}

## 1.2 {second} {{#second}}

:::quiz
{question}
A. x
B. y
{answer}: B
{explanation}: {caption}
:::

:::warning
{caption}
:::

:::hint
{caption}
:::
"""
ABOUT = "# {title}\n\n{see} [{chapter}](index.md).\n"
BIB = "@book{knuth1984,\n  author = {Donald Knuth},\n  title = {The TeXbook},\n  year = {1984}\n}\n"
GLOSSARY = "- term: GQA\n  definition: Grouped-query attention.\n"
CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": "# Notebook"},
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
     "source": "print(6 * 7)"},
]  # fmt: skip
NOTEBOOK = json.dumps({"cells": CELLS, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})


def _pages(code: str, *, stale: bool = False) -> dict[str, str | bytes]:
    section, figure, table, equation, chapter, answer, explanation, see, old = FORMS[code]
    words = {
        "title": "Test", "first": "One", "second": "Two", "caption": "Text.",
        "question": "Which?", "term": "GQA", "see": see, "section": old if stale else section,
        "figure": figure, "table": table, "equation": equation, "answer": answer.rstrip(),
        "explanation": explanation, "chapter": chapter,
    }  # fmt: skip
    if code == "fr":
        words["answer"] = "Réponse "  # French sets a space before the colon
    return {
        "index.md": PAGE.format(**words),
        "about.md": ABOUT.format(**words),
        "nb.ipynb": NOTEBOOK,
        "glossary.md": "# Glossary\n\n:::glossary\n:::\n",
        "glossary.yml": GLOSSARY,
        "references.bib": BIB,
        "a.png": b"\x89PNG\r\n\x1a\n",
    }


def _config(code: str, languages: list[str] | None = None, **options: object) -> dict:
    plugin = {"offline_check": False, **options}
    if languages:
        plugin["languages"] = languages
    return {
        "site_name": "t",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs", "language": code},
        "plugins": [{"llmbook": plugin}],
        "markdown_extensions": [
            "llmbook.extension",
            "pymdownx.superfences",
            {"pymdownx.blocks.caption": {"auto": False}},
            "attr_list",
        ],
    }


def _foreign_words(code: str) -> dict[str, str]:
    """Each other locale's interface words that this one never writes: {word: where from}."""
    own = load_locale(code).data["ui"]
    own_texts = " ".join(map(str, own.values()))
    found = {}
    for other in shipped_languages():
        if other == code:
            continue
        for key, text in load_locale(other).data["ui"].items():
            for piece in re.split(r"\{[^}]*\}|<[^>]*>", str(text)):
                piece = piece.strip(" :：,，.。;；()（）·")
                long_enough = len(piece) >= (3 if re.search(r"[^\x00-\u024f]", piece) else 6)
                if long_enough and piece not in own_texts and piece != str(own.get(key)):
                    found[piece] = f"{other}.ui.{key}"
    return found


def _visible(html: str) -> str:
    """What a reader sees of a page outside code and the language switcher."""
    html = re.sub(r"(?s)<(pre|code|script|style)\b.*?</\1>", " ", html)
    html = re.sub(r'(?s)<nav class="llmbook-languages".*?</nav>', " ", html)
    html = re.sub(r"(?s)<head>.*?</head>", " ", html)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _assert_only_its_words(site, code: str) -> None:
    foreign = _foreign_words(code)
    for page in ("index.html", "about.html", "nb.html", "glossary.html"):
        text = _visible((site / page).read_text(encoding="utf-8"))
        leaked = {w: where for w, where in foreign.items() if w in text}
        assert not leaked, f"{code} {page}: {leaked}"


def test_every_shipped_language_has_a_row() -> None:
    assert sorted(FORMS) == shipped_languages()


@pytest.mark.slow
@pytest.mark.parametrize("code", sorted(FORMS))
def test_a_book_in_each_language(make_site, code: str) -> None:
    locale = load_locale(code)
    built = make_site(_pages(code), _config(code), cache=False, strict=True).ok()
    page = built.page("index.html")
    # its references checked and titled, its parts numbered in its own forms
    for kind, number in (("figure", "1-1"), ("table", "1-1")):
        assert f'<span class="caption-prefix">{locale.part_text(kind, number)}</span>' in page
    # the quiz in its keywords, the boxes with its default titles
    assert f'<p class="admonition-title">{locale.ui("quiz")}</p>' in page
    assert f"<summary>{locale.ui('quiz_answer_summary')}</summary>" in page
    assert f'<p class="admonition-title">{locale.ui("box_warning")}</p>' in page
    assert f"<summary>{locale.ui('box_hint')}</summary>" in page
    assert locale.ui("footer_checked", count=1) in unescape(page)
    assert "knuth1984" in page and 'href="glossary.html#term-gqa"' in page
    assert locale.ui("output") in built.page("nb.html")
    _assert_only_its_words(built.site, code)
    # the second edition, in another language: the page shown untranslated, said in its words
    other = OTHER[code]
    pages = {f"about.{other}.md": _pages(other)["about.md"]}
    edition = make_site(pages, _config(other, [code, other]), site="site-other", cache=False)
    edition.ok()
    theirs = load_locale(other)
    note = theirs.ui(
        "untranslated", language=theirs.language_name(other), source=theirs.language_name(code)
    )
    assert note in unescape(edition.page("index.html"))
    assert f'<p class="admonition-title">{theirs.ui("quiz")}</p>' in edition.page("index.html")
    _assert_only_its_words(edition.site, other)


@pytest.mark.parametrize("code", sorted(FORMS))
def test_a_stale_reference_fails_at_its_line_in_each_language(make_site, code: str) -> None:
    locale = load_locale(code)
    pages = _pages(code, stale=True)
    built = make_site(pages, _config(code), cache=False, strict=True)
    assert built.returncode == 1
    written, now = FORMS[code][8], locale.part_text("section", "1.2")
    line = (
        pages["index.md"]
        .splitlines()
        .index(next(t for t in pages["index.md"].splitlines() if written in t))
    )
    expected = (
        f"docs/index.md:{line + 1}: written {written}, the target is now {now} (Two): "
        f"[{written}](#second) Fix: write {now}, or link the section you mean"
    )
    assert expected in built.stderr
