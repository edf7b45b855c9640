"""Notebooks are pages of the same engine: laid out as Markdown, run in a worker, bindings in their
Markdown cells checked, errors named by cell, outputs written back for the download."""

from __future__ import annotations

import json
import logging

import pytest
from llmbook.core.errors import AuthorError
from llmbook.execute.stages.notebook import executed_notebook, read_notebook


def notebook(*cells: tuple[str, str], tags: dict[int, list[str]] | None = None) -> str:
    data = {
        "cells": [
            {
                "cell_type": kind,
                "metadata": {"tags": (tags or {}).get(i, [])},
                "source": text.splitlines(True),
                **({"outputs": [], "execution_count": None} if kind == "code" else {}),
            }
            for i, (kind, text) in enumerate(cells)
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(data, ensure_ascii=False)


NB = notebook(
    ("markdown", "# 笔记本\n\n一个小实验。"),
    ("code", "import torch\nx = torch.ones(4)\nprint(x.sum().item())"),
    ("markdown", "四个一相加是 [[x.sum().item() = 4]]，均值 [[x.mean().item() = 1]]。"),
    ("raw", "shown as nbconvert's HTML shows a raw cell of no format"),
    ("code", "y = x * 2\nprint(y.tolist())"),
)


def test_cells_become_a_markdown_page_with_a_line_map() -> None:
    nb = read_notebook(NB, src="docs/nb.ipynb")
    lines = nb.markdown.split("\n")
    assert lines[:8] == [
        "# 笔记本",
        "",
        "一个小实验。",
        "",
        "```python",
        "import torch",
        "x = torch.ones(4)",
        "print(x.sum().item())",
    ]
    assert nb.where(1) == "cell 1, line 1" and nb.where(5) == "cell 2"
    assert nb.where(7) == "cell 2, line 2"
    assert '<div class="llmbook-raw" markdown="0">\nshown as nbconvert\'s HTML' in nb.markdown


def test_a_notebook_runs_and_checks_its_markdown_cells(run_md) -> None:
    plan = run_md(NB, src="docs/nb.ipynb")
    assert plan.count == 2 and plan.mismatches == []
    assert [b.output for b in plan.result.blocks.values()] == ["4.0\n", "[2.0, 2.0, 2.0, 2.0]\n"]


def test_a_drifted_number_in_a_notebook_names_its_cell(run_md) -> None:
    plan = run_md(NB.replace("= 4]]", "= 5]]"), src="docs/nb.ipynb")
    assert plan.mismatches == ["docs/nb.ipynb:cell 3, line 1: written 5, computed 4"]


def test_an_error_in_a_code_cell_names_the_cell_and_its_line(run_md) -> None:
    broken = NB.replace("y = x * 2", "y = x * 2\\nz = 1 / 0")
    with pytest.raises(AuthorError) as error:
        run_md(broken, src="docs/nb.ipynb")
    text = str(error.value)
    assert text.startswith(
        "docs/nb.ipynb:cell 5, line 2: ZeroDivisionError: division by zero "
        "(python block at cell 5)\n"
    )
    assert 'File "docs/nb.ipynb", cell 5, line 2, in <module>' in text


def test_cell_tags_choose_the_mode(run_md) -> None:
    nb = notebook(
        ("code", "secret = 3"), ("code", "raise SystemExit"), tags={0: ["hidden"], 1: ["norun"]}
    )
    assert read_notebook(nb, src="docs/t.ipynb").markdown.startswith(
        "```python hidden\nsecret = 3\n```"
    )
    assert run_md(nb, src="docs/t.ipynb").result.blocks == {
        0: run_md(nb, src="docs/t.ipynb").result.blocks[0]
    }


def test_bad_json_is_an_author_error(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md('{"cells": [\n  {"cell_type": }\n]}', src="docs/bad.ipynb")
    assert str(error.value) == (
        "docs/bad.ipynb:2: the notebook is not valid JSON: Expecting value "
        "Fix: fix the file, or re-save it from Jupyter"
    )


def test_the_executed_notebook_holds_outputs_and_figures() -> None:
    nb = read_notebook(NB, src="docs/nb.ipynb")
    out = json.loads(executed_notebook(nb, {1: ("4.0\n", [("<svg/>", "图")]), 4: ("[2.0]\n", [])}))
    code = [c for c in out["cells"] if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in code] == [1, 2]
    assert code[0]["outputs"] == [
        {"name": "stdout", "output_type": "stream", "text": ["4.0\n"]},
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {"image/svg+xml": ["<svg/>"], "text/plain": ["图"]},
        },
    ]
    assert [c["source"] for c in out["cells"]] == [c["source"] for c in json.loads(NB)["cells"]]


def test_the_executed_notebook_validates_against_the_schema() -> None:
    import nbformat

    nb = read_notebook(NB, src="docs/nb.ipynb")
    text = executed_notebook(nb, {1: ("4.0\n", [("<svg/>", "图")]), 4: ("[2.0]\n", [])})
    nbformat.validate(nbformat.reads(text, as_version=4))
    # Cells written without ids (4.5 needs them) get stable ones, the same every build.
    assert [c["id"] for c in json.loads(text)["cells"]] == [f"cell-{n}" for n in range(1, 6)]


def test_a_notebook_that_breaks_the_schema_names_the_cell_and_field(run_md) -> None:
    data = json.loads(NB)
    del data["cells"][1]["outputs"]
    with pytest.raises(AuthorError) as error:
        run_md(json.dumps(data), src="docs/bad.ipynb")
    assert str(error.value) == (
        "docs/bad.ipynb:1: the notebook does not follow the nbformat 4 schema: cell 2: "
        "'outputs' is a required property Fix: re-save it from Jupyter, or fix that field"
    )


def test_an_older_notebook_is_read_as_version_4() -> None:
    data = json.loads(NB)
    data["nbformat_minor"] = 2
    nb = read_notebook(json.dumps(data), src="docs/old.ipynb")
    assert nb.data["nbformat"] == 4 and "id" not in nb.data["cells"][0]


def test_the_kept_download_follows_its_outputs_and_a_torn_one_is_made_again(tmp_path) -> None:
    from llmbook.core.store import Store

    nb = read_notebook(NB, src="docs/nb.ipynb")
    outputs = {1: ("4.0\n", []), 4: ("[2.0]\n", [])}
    fresh = executed_notebook(nb, outputs)
    store = Store(tmp_path)
    assert executed_notebook(nb, outputs, store=store) == fresh
    assert executed_notebook(nb, outputs, store=store) == fresh
    assert store.counts == {"notebooks": [1, 1]}
    other = {1: ("5.0\n", []), 4: ("[2.0]\n", [])}  # the outputs are in the key
    assert executed_notebook(nb, other, store=store) == executed_notebook(nb, other)
    for entry in (tmp_path / "notebooks").iterdir():  # half-written: never served
        entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    assert executed_notebook(nb, outputs, store=store) == fresh


def test_a_kernelspec_without_its_name_is_repaired_with_one_log_line(caplog) -> None:
    data = json.loads(NB)
    data["metadata"] = {"kernelspec": {"language": "python"}, "language_info": {"version": "3"}}
    with caplog.at_level(logging.INFO):
        nb = read_notebook(json.dumps(data), src="docs/x.ipynb")
    assert [r.getMessage() for r in caplog.records] == [
        "llmbook: docs/x.ipynb: repaired the missing metadata.kernelspec.name (set to python3); "
        "the missing metadata.kernelspec.display_name (set to Python 3); "
        "the missing metadata.language_info.name (set to python) "
        "(re-save it from Jupyter to keep it)"
    ]
    assert nb.data["metadata"]["kernelspec"] == {
        "language": "python",
        "name": "python3",
        "display_name": "Python 3",
    }


def test_cell_ids_in_an_older_minor_version_are_repaired(caplog) -> None:
    data = json.loads(NB)
    data["nbformat_minor"] = 2
    data["cells"][1]["id"] = "own-id"
    with caplog.at_level(logging.INFO):
        nb = read_notebook(json.dumps(data), src="docs/x.ipynb")
    assert [r.getMessage() for r in caplog.records] == [
        "llmbook: docs/x.ipynb: repaired nbformat 4.2 with cell ids (now marked 4.5, the version that has "
        "them) (re-save it from Jupyter to keep it)"
    ]
    assert nb.data["nbformat_minor"] == 5
    assert [c["id"] for c in nb.data["cells"]] == ["cell-1", "own-id", "cell-3", "cell-4", "cell-5"]


def test_unknown_metadata_is_read_as_it_is(caplog) -> None:
    data = json.loads(NB)
    data["metadata"]["kernelspec"]["env"] = {"A": "1"}
    data["metadata"]["colab"] = {"provenance": []}
    data["cells"][1]["metadata"]["vscode"] = {"languageId": "python"}
    with caplog.at_level(logging.INFO):
        nb = read_notebook(json.dumps(data), src="docs/x.ipynb")
    assert caplog.records == [] and nb.data["metadata"]["colab"] == {"provenance": []}


def test_what_cannot_be_repaired_names_the_cell_and_field(run_md) -> None:
    data = json.loads(NB)
    data["metadata"]["kernelspec"] = {"display_name": "Python 3"}  # mended, but not the tags
    data["cells"][1]["metadata"]["tags"] = "hidden"
    with pytest.raises(AuthorError) as error:
        run_md(json.dumps(data), src="docs/bad.ipynb")
    assert str(error.value) == (
        "docs/bad.ipynb:1: the notebook does not follow the nbformat 4 schema: cell 2: "
        "metadata: tags: 'hidden' is not of type 'array' "
        "Fix: re-save it from Jupyter, or fix that field"
    )
