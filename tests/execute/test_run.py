"""The run stage: one namespace per page, seeds, tracebacks at Markdown lines, limits, figures."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch
from llmbook.core.errors import AuthorError


def test_blocks_share_a_namespace_and_print(run_md) -> None:
    plan = run_md(
        """\
        ```python hidden
        x = 20
        ```

        ```python
        y = x + 1
        print("y =", y)
        ```

        ```python
        print(y * 2)
        ```
        """
    )
    outputs = {plan.page.blocks[pos].line: b.output for pos, b in plan.result.blocks.items()}
    assert outputs == {1: "", 5: "y = 21\n", 10: "42\n"}


def test_every_page_starts_from_seed_zero(run_md) -> None:
    code = """\
        ```python
        import random, numpy, torch
        print(torch.rand(3).tolist(), random.random(), numpy.random.rand())
        ```
        """
    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    reference = f"{torch.rand(3).tolist()} {random.random()} {np.random.rand()}\n"
    torch.manual_seed(123)  # whatever state the process is in, the page starts from seed 0
    first = run_md(code).result.blocks[0].output
    second = run_md(code).result.blocks[0].output
    assert first == second == reference


def test_llmkit_is_importable_and_its_calculators_are_at_hand(run_md) -> None:
    plan = run_md(
        """\
        ```python
        import llmkit
        print(llmkit.kv_cache_bytes(32, 32, 128, 4096), kv_cache_bytes(1, 1, 1, 1))
        ```
        """
    )
    assert plan.result.blocks[0].output == f"{2 * 32 * 32 * 128 * 4096 * 2} 4\n"


def test_traceback_points_at_the_markdown_line(run_md) -> None:
    page = """\
        # A page

        ```python
        def inner(n):
            return 10 / n

        value = inner(5)
        other = inner(0)
        ```
        """
    with pytest.raises(AuthorError) as error:
        run_md(page, src="docs/chapters/x.md")
    text = str(error.value)
    # The line that raised: the innermost frame on the page.
    assert text.startswith(
        "docs/chapters/x.md:5: ZeroDivisionError: division by zero (python block at line 3)\n"
    )
    # The last frames: the page's own lines, never the executor's.
    assert 'File "docs/chapters/x.md", line 8, in <module>\n    other = inner(0)' in text
    assert 'File "docs/chapters/x.md", line 5, in inner\n    return 10 / n' in text
    assert "llmbook/execute" not in text
    assert error.value.line == 5


def test_syntax_error_line(run_md) -> None:
    with pytest.raises(AuthorError, match=r"^docs/page.md:4: SyntaxError: "):
        run_md("x\n\n```python\nx = (1,\n```\n")


def test_timeout_kills_the_block_and_names_it(run_md) -> None:
    page = """\
        ```python
        import time
        while True:
            time.sleep(0.01)
        ```
        """
    with pytest.raises(AuthorError) as error:
        run_md(page, execute_timeout=0.5)
    assert str(error.value) == (
        "docs/page.md:1: block timed out after 0.5 s "
        "Fix: make it faster, or raise `execute_timeout` (seconds) in mkdocs.yml"
    )


def test_author_code_cannot_swallow_the_timeout(run_md) -> None:
    page = """\
        ```python
        import time
        for _ in range(1000):
            try:
                time.sleep(0.01)
            except BaseException:
                pass
        ```
        """
    with pytest.raises(AuthorError, match="block timed out after 0.3 s"):
        run_md(page, execute_timeout=0.3)


FIGURE = """\
    ```python
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2], [0, 1, 4])
    ax.set_title("平方函数")
    ```

    ```python
    fig = plt.figure(figsize=(2, 2))
    fig.set_label("空白的图")
    ```
    """


def test_figures_are_deterministic_svg_with_alt_text(run_md) -> None:
    first = run_md(FIGURE).result.blocks
    second = run_md(FIGURE).result.blocks
    (one,), (two,) = first[0].figures, first[1].figures
    assert one.alt == "平方函数" and two.alt == "空白的图"
    assert one.svg == second[0].figures[0].svg and two.svg == second[1].figures[0].svg
    assert one.svg.startswith('<svg role="img" aria-label="平方函数"')
    assert "<title>平方函数</title>" in one.svg
    assert "<dc:date>" not in one.svg and "<?xml" not in one.svg
    # Glyphs are paths from Noto Sans CJK (matplotlib names glyph ids after the font).
    assert 'id="NotoSansCJKsc-Regular-' in one.svg


def test_figure_without_alt_text_is_an_error(run_md) -> None:
    page = """\
        ```python
        import matplotlib.pyplot as plt
        plt.plot([1, 2])
        ```
        """
    with pytest.raises(AuthorError) as error:
        run_md(page)
    assert str(error.value) == (
        "docs/page.md:1: a figure has no alt text (no label, no title): a figure of the python "
        'block at line 1 needs alt text Fix: give it a label, fig.set_label("…"), '
        'or a title, ax.set_title("…")'
    )
