"""A tiny book's demos, for tests that need demos without torch or llmkit: the module `tinydemos`
registers one demo, `tiny` (its script in `tinydemos/js/`), which computes with `tinydep`, a
package of its own: its frame shows `tinydep.VALUE`. `write_tiny_demos` writes both into a folder
and makes them importable from there, as an installed book's package would be."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

__all__ = ["TINY", "forget_tiny_demos", "write_tiny_demos"]

TINY = {
    "tinydemos/__init__.py": """\
        DEMOS = {"tiny": "tinydemos.tiny:TinyDemo", "heavy": "tinydemos.heavy:HeavyDemo"}
        DEPENDS = ("tinydep",)
        ASSETS = "js"
        """,
    "tinydemos/tiny.py": """\
        import tinydep
        from llmbook.demos import Demo

        class TinyDemo(Demo):
            ID = "tiny"

            def figure_svg(self):
                return f"<svg>{self.t('t')} {tinydep.VALUE}</svg>"

            def widget_html(self):
                return "<div></div>"
        """,
    "tinydemos/heavy.py": "import no_such_package_here\n",
    "tinydemos/js/tiny.js": "// the widget\n",
    "tinydep/__init__.py": "VALUE = 1\n",
    # its words, as a book's own locale files hold them (the `locales` option)
    "locales/zh.yml": "demos:\n  tiny: {t: 小}\n",
    "locales/en.yml": "demos:\n  tiny: {t: tiny}\n",
}


def write_tiny_demos(
    folder: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str] | None = None
) -> Path:
    """`files` (TINY by default; path → source) written into `folder`, which goes first on
    sys.path; nothing of a previous version stays imported or compiled."""
    for name, text in (TINY if files is None else files).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # a file written twice is read anew
    forget_tiny_demos(monkeypatch)
    return folder


def forget_tiny_demos(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next import of the tiny modules reads their files again (a new build's process)."""
    importlib.invalidate_caches()
    for name in [m for m in sys.modules if m.split(".")[0] in ("tinydemos", "tinydep")]:
        monkeypatch.delitem(sys.modules, name)


def tiny_locale(code: str):
    """The book's locale `code` with the tiny demo's words (a book's own locale file's `demos`)."""
    from book_locales import EN, ZH, with_section

    words = {"zh": {"t": "小"}, "en": {"t": "tiny"}}[code]
    return with_section({"zh": ZH, "en": EN}[code], "demos", {"tiny": words})
