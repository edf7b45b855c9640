"""`python -m llmbook.translate` (__main__.py): `mark` records the source a translation now
translates (refused while it does not correspond; other front matter and line endings kept),
`status` lists every translation as current, stale (with what changed), unmarked or missing."""

from __future__ import annotations

import os
import subprocess
import sys

from sites import QUIET

from .conftest import Book


def test_status_after_mark_is_current_and_names_untranslated_pages(book: Book) -> None:
    assert book.cli("status") == (
        0,
        "docs/index.en.md  missing\n"
        "docs/x.en.md      current\n"
        "1 current, 0 stale, 0 unmarked, 1 missing\n",
        "",
    )


def test_status_names_what_changed_in_a_stale_translations_source(book: Book) -> None:
    source = book.read("docs/x.md").replace("x = 1 + 1", "x = 1 + 1 + 0")
    book.write({"x.md": source + "\n## 3. 三倍 {#tripling}\n\n更多。\n"})
    assert book.cli("status")[1] == (
        "docs/index.en.md  missing\n"
        "docs/x.en.md      stale\n"
        '    code changed in "## 1. 简单 {#simple}" (docs/x.md:3)\n'
        '    section added: "## 3. 三倍 {#tripling}" (docs/x.md:16)\n'
        "0 current, 1 stale, 0 unmarked, 1 missing\n"
    )


def test_status_runs_as_a_module(book: Book) -> None:
    book.write({"x.en.md": book.read("docs/x.en.md").split("---\n", 2)[2]})
    done = subprocess.run(
        [sys.executable, "-m", "llmbook.translate", "status"],
        cwd=book.root,
        env={**os.environ, **QUIET},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1:] == [
        "docs/x.en.md      unmarked",
        "    the translation records no source (it was never marked)",
        "0 current, 0 stale, 1 unmarked, 1 missing",
    ]


def test_mark_refuses_a_translation_that_does_not_correspond(book: Book) -> None:
    book.write({"x.md": book.read("docs/x.md").replace("x = 1 + 1", "x = 1 + 1 + 0")})
    before = (book.root / "docs/x.en.md").read_bytes()
    assert book.cli("mark", "docs/x.en.md") == (
        1,
        "",
        "docs/x.en.md:15: this python block differs from its source's (docs/x.md:5): a "
        "translation runs its source's code, and only comments may be translated Fix: copy the "
        "block from docs/x.md:5 and translate only its comments\n"
        "docs/x.en.md: not marked: it does not correspond to docs/x.md yet\n",
    )
    assert (book.root / "docs/x.en.md").read_bytes() == before


def test_mark_brings_a_stale_translation_up_to_date(book: Book) -> None:
    book.write({"x.md": book.read("docs/x.md").replace("结果是", "结果等于")})
    assert book.cli("status")[1].splitlines()[1:3] == [
        "docs/x.en.md      stale",
        '    prose changed in "## 1. 简单 {#simple}" (docs/x.md:3)',
    ]
    status, out, _ = book.cli("mark", "docs/x.en.md")
    assert (status, out.split(" (")[0]) == (0, "docs/x.en.md: marked")
    assert book.read("docs/x.en.md").count("translation:") == 1  # the record replaced
    assert book.cli("status")[1].splitlines()[1] == "docs/x.en.md      current"
    status, out, _ = book.cli("mark", "docs/x.en.md")
    assert (status, out.split(" (")[0]) == (0, "docs/x.en.md: already current")


def test_mark_keeps_other_front_matter_and_crlf(book: Book) -> None:
    text = (
        "---\ntitle: Interest\nhide: [toc]\n---\n" + book.read("docs/x.en.md").split("---\n", 2)[2]
    )
    book.write({"x.en.md": text.replace("\n", "\r\n").encode()})
    book.mark()
    marked = (book.root / "docs/x.en.md").read_bytes().decode()
    lines = marked.split("\r\n")
    assert "\n" not in marked.replace("\r\n", "")
    assert lines[:5] == [
        "---",
        "title: Interest",
        "hide: [toc]",
        "translation:",
        '  source: "x.md"',
    ]
    assert lines[lines.index("---", 1) + 1] == "# Interest {#interest}"
    assert book.cli("status")[1].splitlines()[1] == "docs/x.en.md      current"


def test_front_matter_that_is_not_yaml_stops_mark_and_status_at_its_line(book: Book) -> None:
    book.write({"x.en.md": book.read("docs/x.en.md").replace("---\n", "---\ntitle: a: b\n", 1)})
    before = (book.root / "docs/x.en.md").read_bytes()
    error = (
        "docs/x.en.md:2: the front matter is not valid YAML: mapping values are not allowed in "
        "this context Fix: correct the YAML between the two `---` lines (one `key: value` per "
        "line, a list written `[a, b]`, a text with `: ` or `#` in quotes), or begin the page "
        "with a blank line if its first `---` is a horizontal rule\n"
    )
    assert book.cli("mark", "docs/x.en.md") == (
        1,
        "",
        error + "docs/x.en.md: not marked: it does not correspond to docs/x.md yet\n",
    )
    assert (book.root / "docs/x.en.md").read_bytes() == before
    assert book.cli("status") == (1, "docs/index.en.md  missing\n", error)


def test_mark_refuses_a_page_that_is_no_translation(book: Book) -> None:
    assert book.cli("mark", "docs/x.md") == (
        1,
        "",
        "docs/x.md is not a translation: name it after its source, x.<language>.md\n",
    )
