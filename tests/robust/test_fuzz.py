"""The fuzzer in the suite: mutated copies of the book's files (pages, a notebook, front matter,
`references.bib`, `glossary.yml`, llmbook's options) each end in a site or an error naming the
file, never a traceback or a hang. CI runs a bounded, reproducible set of examples
(LLMBOOK_FUZZ_EXAMPLES, default 12); `nox -s fuzz` runs a long campaign (benchmarks/fuzz.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fuzz import TARGETS, FuzzProject
from .mutations import (
    mutated_bib,
    mutated_glossary,
    mutated_notebook,
    mutated_options,
    mutated_page,
)

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("LLMBOOK_FUZZ_EXAMPLES", "12"))


@st.composite
def mutation(draw: st.DrawFn, project: FuzzProject) -> tuple[str, str | dict]:
    """(a file of the project, its mutated content)."""
    kind, path = draw(st.sampled_from(TARGETS))
    if kind == "options":
        return path, draw(mutated_options(project.options()))
    text = project.text(path)
    strategy = {
        "page": mutated_page,
        "notebook": mutated_notebook,
        "bib": mutated_bib,
        "glossary": mutated_glossary,
    }[kind]
    return path, draw(strategy(text))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> FuzzProject:
    return FuzzProject.make(tmp_path_factory.mktemp("fuzz"))


def test_any_input_ends_in_a_site_or_an_error_naming_the_file(project: FuzzProject) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,  # CI: the same examples every run
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def check(data: st.DataObject) -> None:
        path, content = data.draw(mutation(project))
        outcome = project.build_with(path, content)
        assert not outcome.is_bug, f"{path}: {outcome.kind}: {outcome.message}"

    check()


def test_the_harness_tells_a_bug_from_an_author_error(project: FuzzProject, monkeypatch) -> None:
    """The classifier itself: a planted exception is a traceback, a bad number an author error."""
    text = project.text("docs/small.md")
    outcome = project.build_with("docs/small.md", text.replace("= 1]]", "= 7]]"))
    assert (outcome.kind, "docs/small.md:" in outcome.message) == ("author error", True)
    import llmbook.site.site

    def planted(*args: object, **kwargs: object) -> None:
        raise KeyError("planted")

    monkeypatch.setattr(llmbook.site.site.Site, "check_book", planted)
    assert project.build_with("docs/small.md", text).kind == "traceback: KeyError"


def test_the_project_is_left_as_it_was(project: FuzzProject) -> None:
    for path, data in project.originals.items():
        if path != "mkdocs.yml":
            assert (Path(project.root) / path).read_bytes() == data
