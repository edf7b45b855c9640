"""Figures draw with the font the project installs, not the machine's; a glyph no figure font has
fails the block that drew it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import noto_cjk_sans_otc
import pytest
from llmbook.core.errors import AuthorError


def test_the_cjk_font_is_the_installed_package_and_no_system_copy() -> None:
    # In a fresh interpreter: registering changes matplotlib's font list for the whole process.
    script = textwrap.dedent(
        """
        from matplotlib import font_manager
        from llmbook.execute.shell.fonts import register_fonts
        path = register_fonts()
        names = {"Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK JP"}
        files = {e.fname for e in font_manager.fontManager.ttflist if e.name in names}
        print(path)
        print(sorted(files))
        print(font_manager.findfont("Noto Sans CJK SC", fallback_to_default=False))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    path = str(noto_cjk_sans_otc.FONT_PATH)
    assert out[:3] == [path, repr([path]), path]


def test_without_the_cjk_extra_figures_draw_with_dejavu_sans() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["noto_cjk_sans_otc"] = None  # llmbook installed without its `cjk` extra
        import matplotlib.pyplot as plt
        from matplotlib import font_manager
        from llmbook.execute.shell.figures import figure_context
        from llmbook.execute.shell.fonts import register_fonts
        print(repr(register_fonts()))
        with figure_context():
            fig, ax = plt.subplots()
            print(font_manager.findfont(ax.set_title("x").get_fontproperties()))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    assert lines[0] == "''" and lines[1].endswith("DejaVuSans.ttf")
    assert "findfont" not in out.stderr  # no family named that is not there


def test_a_glyph_no_figure_font_has_fails_the_block_at_its_line(run_md) -> None:
    page = """\
        # 图

        ```python
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.set_title("笑脸 \\U0001F600")
        ```
        """
    with pytest.raises(AuthorError) as error:
        run_md(page)
    assert str(error.value) == (
        "docs/page.md:3: a figure of the python block at line 3: Glyph 128512 "
        "(\\N{GRINNING FACE}) missing from font(s) Noto Sans CJK SC Fix: use "
        "characters the figure fonts have (Noto Sans CJK SC: Chinese, Latin, Greek, common "
        "symbols; DejaVu Sans), or write the symbol as mathtext, e.g. $\\alpha$"
    )


def test_a_block_that_draws_itself_fails_at_the_drawing_line(run_md) -> None:
    page = """\
        ```python
        import io
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.set_title("\\U0001F600")
        fig.savefig(io.BytesIO(), format="svg")
        ```
        """
    with pytest.raises(AuthorError) as error:
        run_md(page)
    assert str(error.value).startswith(
        "docs/page.md:6: UserWarning: Glyph 128512 (\\N{GRINNING FACE}) missing from font(s) "
    )
