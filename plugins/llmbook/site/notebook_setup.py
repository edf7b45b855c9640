"""The first cell of a Markdown page's notebook (page_notebook.py): what the build does before
the page's first block, so that Jupyter, run from the notebook's folder, starts where the build
started. Each step is said in a comment in the page's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.execute.shell.figures import RC

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale

__all__ = ["setup_code"]

_FONT_RC = ("font.family", "font.sans-serif", "axes.unicode_minus")  # what text is drawn with


def setup_code(
    locale: Locale,
    *,
    name: str,
    preamble: str,
    seed: int,
    threads: int,
    torch: bool,
    figures: str = "",
) -> str:
    """The first cell: what the build does before a page's first block (worker.py's threads,
    run.py `_fresh_namespace`, page_process.py `set_threads`, and for a page that draws
    (`figures`: "cjk" with the CJK font, "plain" without) figures.py's fonts), each step said
    in the page's words."""
    ui = locale.ui
    lines = [
        f"# {ui('notebook_setup')}",
        f"# {ui('notebook_setup_threads')}",
        "import os",
        "",
        'os.environ.setdefault("OMP_NUM_THREADS", "1")',
        f"# {ui('notebook_setup_file', name=name)}",
        f"__file__ = os.path.abspath({name!r})",
    ]
    if preamble.strip():
        lines += ["", f"# {ui('notebook_setup_preamble')}", *preamble.rstrip("\n").split("\n")]
    imports = ["import random", "", "import numpy"] + (["import torch"] if torch else [])
    calls = [f"random.seed({seed})", f"numpy.random.seed({seed})"]
    if torch:
        calls += [f"torch.manual_seed({seed})", f"torch.set_num_threads({threads})"]
        calls += ["torch.use_deterministic_algorithms(True)"]
    if threads != 1:  # NumPy's BLAS too (page_process.py)
        imports += ["from threadpoolctl import threadpool_limits"]
        calls += [f"threadpool_limits({threads})"]
    seeds = f"# {ui('notebook_setup_seed', seed=seed, threads=threads)}"
    return "\n".join([*lines, "", seeds, *imports, "", *calls, *_font_code(locale, figures)])


def _font_code(locale: Locale, figures: str) -> list[str]:
    """The figures' fonts and text settings as the build draws them (figures.py `RC`), the CJK
    font registered from its package (`noto-cjk-sans-otc`) where the build had it."""
    if not figures:
        return []
    sans = RC["font.sans-serif"] if figures == "cjk" else RC["font.sans-serif"][1:]
    rc = {k: sans if k == "font.sans-serif" else RC[k] for k in _FONT_RC}
    lines = ["", f"# {locale.ui('notebook_setup_fonts')}", "import matplotlib"]
    if figures == "cjk":
        lines += ["import noto_cjk_sans_otc", "from matplotlib import font_manager", "",
                  "font_manager.fontManager.addfont(str(noto_cjk_sans_otc.FONT_PATH))"]  # fmt: skip
    return [*lines, f"matplotlib.rcParams.update({rc!r})"]
