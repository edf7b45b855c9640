"""A page's front matter, split from its text as MkDocs splits it (`mkdocs.utils.meta`), where
MkDocs keeps the YAML as the page's text when it does not parse (a heading, on the page): here
that is an author error at the YAML parser's line in the file."""

from __future__ import annotations

import yaml
from mkdocs.utils.meta import YAML_RE, get_data

from llmbook.core.errors import AuthorError, quoted

__all__ = ["split_front_matter"]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # MkDocs' own choice

_FIX = (
    "correct the YAML between the two `---` lines (one `key: value` per line, a list "
    "written `[a, b]`, a text with `: ` or `#` in quotes), or begin the page with a blank line "
    "if its first `---` is a horizontal rule"
)


def split_front_matter(text: str, *, src: str) -> tuple[dict, str, int]:
    """(meta, body, first) exactly as MkDocs splits a page; `first` is the body's file line.
    AuthorError at its line when the front matter is not valid YAML."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    found = YAML_RE.match(text if text.endswith("\n") else text + "\n")  # a page of it alone
    if found is not None:
        _check_yaml(found.group(1), src)
    body, meta = get_data(text)
    return meta, body, text.count("\n") - body.count("\n") + 1


def _check_yaml(front: str, src: str) -> None:
    """The front matter (file line 2 on) parsed as MkDocs parses it; its error, located."""
    try:
        yaml.load(front, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = 2 + (mark.line if mark is not None else 0)
        problem = error.problem or error.context or "it cannot be parsed"
        if error.context and error.context_mark is not None and error.problem:
            problem += f" ({error.context} at line {2 + error.context_mark.line})"
        raise AuthorError(
            src, line, f"the front matter is not valid YAML: {quoted(problem)}", _FIX
        ) from None
    except yaml.YAMLError as error:
        raise AuthorError(
            src, 2, f"the front matter is not valid YAML: {quoted(str(error))}", _FIX
        ) from None
