"""`python -m llmbook update-numbers`: drifted written values become the computed ones, with a diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llmbook.commands.update import main

PAGE = """\
---
title: t
---
```python hidden
x = 2**31 / 1e9
v = [0.36512, 0.7302]
```

A [[x = 2.2]], [[x = 2.1]], [[v = [0.365, 0.731]]] | [[x * 100 = 2.1e2]] | $[[x / 4 = 60%]]$.
Cited [[29.9 @ Shazeer 2019]], illustrative [[~0.7]]; broken [[v = [1.0]]].
"""


def test_rewrites_drifted_values_and_prints_the_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    assert main(["docs"]) == 1  # one value cannot be rewritten (vector length): exit 1
    out, err = capsys.readouterr()
    expected = (
        PAGE.replace("[[x = 2.2]]", "[[x = 2.1]]")
        .replace("[0.365, 0.731]", "[0.365, 0.730]")
        .replace("[[x / 4 = 60%]]", "[[x / 4 = 54%]]")
    )
    assert page.read_text(encoding="utf-8") == expected
    assert "-A [[x = 2.2]], [[x = 2.1]], [[v = [0.365, 0.731]]]" in out
    assert "+A [[x = 2.1]], [[x = 2.1]], [[v = [0.365, 0.730]]]" in out
    assert "update_numbers: 1 page(s) rewritten, 1 left to edit by hand" in out
    assert "docs/p.md:10: cannot rewrite [1.0] to [0.36512, 0.7302]; edit it by hand" in err


def test_keeps_the_files_line_ends_and_tabs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CRLF file with a tab before its number (read by the build with tabs expanded) gets only
    the number rewritten."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    text = "```python\r\nx = 2\r\n```\r\n\r\n-\tx is\t[[x = 3]], again [[x = 3]].\r\n"
    page.write_bytes(text.encode())
    assert main(["docs"]) == 0
    assert page.read_bytes().decode() == text.replace("= 3]]", "= 2]]")


def _notebook(layout: str) -> str:
    """A notebook whose Markdown cells write drifted numbers, and a code cell with an output:
    as Jupyter writes it (nbformat: keys sorted), or as `json.dumps` does in another tool."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 笔记本\n\n开头。", id="head"),
        nbformat.v4.new_code_cell("x = 2", id="code"),
        nbformat.v4.new_markdown_cell(
            "Two is [[x = 3]].\r\nAgain\t[[x = 3]], twice [[x * 2 = 4]].\n", id="prose"
        ),
        nbformat.v4.new_code_cell("print(x)", id="print"),
        nbformat.v4.new_markdown_cell("A vector [[[x, x] = [2.0]]].", id="vector"),
        nbformat.v4.new_raw_cell("<b>[[x = 3]]</b>", id="raw"),  # shown as HTML, checked too
    ]
    nb.cells[3].outputs = [nbformat.v4.new_output("stream", name="stdout", text="2\n")]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    if layout == "jupyter":
        return nbformat.writes(nb)
    data = nbformat.from_dict(json.loads(nbformat.writes(nb)))
    data.metadata = {"llmbook": {"execute": True}, **data.metadata}  # keys in their own order
    for cell in data.cells:  # a source may be one string too
        cell.source = "".join(cell.source)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("layout", ["jupyter", "json.dumps"])
def test_rewrites_a_notebooks_cells_and_nothing_else(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    layout: str,
) -> None:
    """The build's fix for a notebook's drift is this command: its Markdown cells' values are
    rewritten in place (their line ends and tabs kept), its outputs and JSON layout untouched."""
    import nbformat

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    page = tmp_path / "docs" / "nb.ipynb"
    page.parent.mkdir()
    text = _notebook(layout)
    page.write_bytes(text.encode())
    assert main(["docs"]) == 1  # the vector's length: edited by hand
    out, err = capsys.readouterr()
    new = page.read_bytes().decode()
    assert new == text.replace("[[x = 3]]", "[[x = 2]]")
    assert err == (
        "docs/nb.ipynb:cell 5, line 1: cannot rewrite [2.0] to [2, 2]; edit it by hand\n"
    )
    changed = [line for line in out.splitlines() if line.startswith(("-", "+"))]
    assert changed[:2] == ["--- a/docs/nb.ipynb", "+++ b/docs/nb.ipynb"]
    if layout == "jupyter":  # a line of JSON per line of the cell: only those that changed
        assert changed[2:] == [
            '-    "Two is [[x = 3]].\\r\\n",',
            '-    "Again\\t[[x = 3]], twice [[x * 2 = 4]].\\n"',
            '+    "Two is [[x = 2]].\\r\\n",',
            '+    "Again\\t[[x = 2]], twice [[x * 2 = 4]].\\n"',
            '-    "<b>[[x = 3]]</b>"',
            '+    "<b>[[x = 2]]</b>"',
        ]
    else:
        assert len(changed) == 6
    assert "update_numbers: 1 page(s) rewritten, 1 left to edit by hand" in out
    nbformat.validate(nbformat.reads(new, as_version=4))
    assert json.loads(new)["cells"][3]["outputs"] == json.loads(text)["cells"][3]["outputs"]
    assert main(["docs"]) == 1 and page.read_bytes().decode() == new  # nothing more to do
