"""A page's front matter is split as MkDocs splits it; where MkDocs would keep YAML that does not
parse as the page's text (a heading on the page), the page stops at the parser's line."""

from __future__ import annotations

import pytest
from llmbook.core.errors import AuthorError
from llmbook.execute.stages.front_matter import split_front_matter
from llmbook.execute.stages.load import load_page

FIX = (
    " Fix: correct the YAML between the two `---` lines (one `key: value` per line, a list "
    "written `[a, b]`, a text with `: ` or `#` in quotes), or begin the page with a blank line "
    "if its first `---` is a horizontal rule"
)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "---\nchapter: [1\n---\n# x\n",
            "docs/x.md:3: the front matter is not valid YAML: did not find expected ',' or ']' "
            "(while parsing a flow sequence at line 2)",
        ),
        (
            "---\r\ntitle: t\r\nsummary: a: b\r\n---\r\n",
            "docs/x.md:3: the front matter is not valid YAML: mapping values are not allowed "
            "in this context",
        ),
        (
            "---\ntitle: t\nx: !!python/name:os.system\n---\n",
            "docs/x.md:3: the front matter is not valid YAML: could not determine a constructor "
            "for the tag 'tag:yaml.org,2002:python/name:os.system'",
        ),
        (  # a page of front matter alone, no line end after it
            "---\nchapter: [1\n---",
            "docs/x.md:3: the front matter is not valid YAML: did not find expected ',' or ']' "
            "(while parsing a flow sequence at line 2)",
        ),
    ],
    ids=["flow-list", "crlf-colon", "python-tag", "alone"],
)
def test_front_matter_that_is_not_yaml_stops_the_page(text: str, error: str) -> None:
    with pytest.raises(AuthorError) as raised:
        split_front_matter(text, src="docs/x.md")
    assert str(raised.value) == error + FIX
    with pytest.raises(AuthorError) as loaded:
        load_page("docs/x.md", text.encode())
    assert str(loaded.value) == error + FIX


def test_valid_front_matter_is_split_as_mkdocs_splits_it() -> None:
    assert split_front_matter("---\nx: 1\n---\n\n# a\n", src="docs/x.md") == (
        {"x": 1},
        "# a\n",
        5,
    )
    # YAML that is not a mapping is no front matter to MkDocs: the page's own text
    text = "---\n- a\n---\n"
    assert split_front_matter(text, src="docs/x.md") == ({}, text, 1)
    assert split_front_matter("# a\n---\n", src="docs/x.md") == ({}, "# a\n---\n", 1)
