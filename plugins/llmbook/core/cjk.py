"""What a book in Chinese, Japanese or Korean needs beyond the plugin, asked for where it is set.

The plugin's `cjk` extra (`pip install "llmbook[cjk]"`) brings Noto Sans CJK, the font its
figures draw their CJK text with (execute/shell/fonts.py), and jieba, with which Material's search
plugin cuts Chinese text into words when it builds the index (search_cache.py keeps that work
between builds). A book one of whose languages (the `language` option or `theme.language`, and
`languages`) is Chinese, Japanese or Korean needs the font; one with Chinese pages and Material's
search needs jieba. Japanese search does not: Material's `lang: ja` cuts Japanese text in the
reader's browser with lunr's TinySegmenter, so the index of a Japanese book is left to it
(`jieba_for_search`), jieba being a Chinese segmenter. Either missing is an author error at the
line of mkdocs.yml that sets the language, saying what to install; nothing else imports them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

from llmbook.core.errors import AuthorError
from llmbook.core.project import config_line

__all__ = ["INSTALL", "cjk_languages", "jieba_for_search", "require_font", "require_jieba"]

INSTALL = 'pip install "llmbook[cjk]"'
_CJK = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


def _base(language: str) -> str:
    """`zh-TW`, `zh_CN` → `zh`."""
    return re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]


def cjk_languages(languages: Iterable[str]) -> list[str]:
    """The CJK languages among `languages`, as their base codes, in order."""
    return list(dict.fromkeys(b for b in map(_base, languages) if b in _CJK))


def jieba_for_search(languages: Iterable[str]) -> bool | None:
    """Whether Material's search should cut the book's pages with jieba: True for a book with
    Chinese pages, False for a Japanese one without (TinySegmenter, in the browser, cuts it),
    None (as installed) for any other."""
    bases = {_base(language) for language in languages}
    if "zh" in bases:
        return True
    return False if "ja" in bases else None


def require_font(languages: Iterable[str], *, config_file: Path, root: Path) -> None:
    """AuthorError when the book is written in a CJK language and the CJK font is missing."""
    found = cjk_languages(languages)
    if found and find_spec("noto_cjk_sans_otc") is None:
        raise _missing(
            found[0],
            f"this book is written in {_CJK[found[0]]}, and its figures need the CJK font "
            "(Noto Sans CJK, the package noto-cjk-sans-otc), which is not installed",
            config_file,
            root,
        )


def require_jieba(languages: Iterable[str], *, config_file: Path, root: Path) -> None:
    """AuthorError when Material's search must cut Chinese pages and jieba is missing."""
    if jieba_for_search(languages) and find_spec("jieba") is None:
        raise _missing(
            "zh",
            "the search index of this book's Chinese pages is cut into words by jieba, which "
            "is not installed",
            config_file,
            root,
        )


def _missing(language: str, problem: str, config_file: Path, root: Path) -> AuthorError:
    """The error at the line of the config (or a file it INHERITs) that names `language`."""
    pattern = rf"^\s*(language|languages|lang)\s*:.*(?<![\w-]){language}(?![\w])"
    path, line = config_line(config_file, pattern)
    src = Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()
    return AuthorError(src, line, problem, f"install llmbook with its CJK extra: {INSTALL}")
