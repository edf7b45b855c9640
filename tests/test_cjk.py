"""A book in Chinese, Japanese or Korean needs the plugin's `cjk` extra (llmbook/core/cjk.py): without
it the build stops at the line of mkdocs.yml that sets the language, saying what to install; a
Japanese book's search is left to Material's TinySegmenter (no jieba), a Chinese one's is cut by
jieba."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import llmbook.core.cjk
import pytest
from llmbook.core.cjk import cjk_languages, jieba_for_search, require_font, require_jieba
from llmbook.core.errors import AuthorError
from llmbook.core.search_cache import segment_with_jieba
from mkdocs.exceptions import Abort
from sites import build, write_config, write_pages

CONFIG = """\
site_name: t
theme:
  name: material
  language: {language}
plugins:
  - search
  - llmbook:
      offline_check: false
"""
FIX = 'Fix: install llmbook with its CJK extra: pip install "llmbook[cjk]"'


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch):
    """Make the named packages look uninstalled to cjk.py (as in a plain `pip install llmbook`)."""

    def hide(*names: str) -> None:
        found = importlib.util.find_spec
        monkeypatch.setattr(
            llmbook.core.cjk, "find_spec", lambda name: None if name in names else found(name)
        )

    return hide


def _config(tmp_path: Path, language: str) -> Path:
    return write_config(tmp_path, CONFIG.format(language=language))


def test_the_cjk_languages_and_who_cuts_their_search() -> None:
    assert cjk_languages(["zh-TW", "en", "ja_JP", "ko", "zh"]) == ["zh", "ja", "ko"]
    assert cjk_languages(["en", "fr", ""]) == []
    assert jieba_for_search(["en", "zh"]) is True
    assert jieba_for_search(["ja"]) is False and jieba_for_search(["ja", "zh"]) is True
    assert jieba_for_search(["en", "ko"]) is None


@pytest.mark.parametrize("language", ["zh", "ja", "ko"])
def test_a_cjk_book_without_the_font_is_an_error_at_its_language(tmp_path, without, language):
    without("noto_cjk_sans_otc")
    config = _config(tmp_path, language)
    with pytest.raises(AuthorError) as caught:
        require_font(["", language], config_file=config, root=tmp_path)
    name = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[language]
    assert str(caught.value) == (
        f"mkdocs.yml:4: this book is written in {name}, and its figures need the CJK font (Noto "
        f"Sans CJK, the package noto-cjk-sans-otc), which is not installed {FIX}"
    )


def test_a_book_in_other_languages_needs_neither(tmp_path, without) -> None:
    without("noto_cjk_sans_otc", "jieba")
    config = _config(tmp_path, "en")
    require_font(["en", "fr"], config_file=config, root=tmp_path)
    require_jieba(["en", "fr"], config_file=config, root=tmp_path)
    require_jieba(["ja"], config_file=config, root=tmp_path)  # TinySegmenter, in the browser


@pytest.mark.parametrize("missing", ["jieba", "noto_cjk_sans_otc"])
def test_a_chinese_site_without_the_extra_stops_its_build_at_mkdocs_yml(
    tmp_path, without, caplog, missing
):
    without(missing)
    write_pages(tmp_path / "docs", {"index.md": "# 首页\n\n正文。\n"})
    with pytest.raises(Abort, match="Aborted with a BuildError"):  # MkDocs' PluginError: no trace
        build(_config(tmp_path, "zh"), in_process=True)
    problem = {
        "jieba": "the search index of this book's Chinese pages is cut into words by jieba",
        "noto_cjk_sans_otc": "this book is written in Chinese, and its figures need the CJK font "
        "(Noto Sans CJK, the package noto-cjk-sans-otc)",
    }[missing]
    assert f"mkdocs.yml:4: {problem}, which is not installed {FIX}" in caplog.messages


def test_a_japanese_books_search_is_left_to_the_browser(tmp_path) -> None:
    from material.plugins.search import plugin as search

    installed = search.jieba
    assert installed is not None  # the project installs the extra
    try:
        write_pages(tmp_path / "docs", {"index.md": "# ホーム\n\n日本語の本文。\n"})
        build(_config(tmp_path, "ja"), in_process=True)
        assert search.jieba is None  # Material's search no longer cuts Han text
        assert '"lang":["ja"]' in (tmp_path / "site" / "search" / "search_index.json").read_text(
            encoding="utf-8"
        )
        build(_config(tmp_path, "zh"), in_process=True)
        assert search.jieba is sys.modules["jieba"]  # a Chinese book's build: jieba again
    finally:
        search.jieba = installed


def test_segmenting_follows_the_book() -> None:
    class Other:  # a search plugin without a `jieba` of its own: left alone
        pass

    segment_with_jieba(Other(), False)
