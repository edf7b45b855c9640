"""Zensical builds each language's edition of a two-language book, one language per build: the
Chinese one from mkdocs.yml into site/ (a translation `x.en.md` is never a page of its own, nor
run as one), the English one into site/en/ from mkdocs.en.yml written out whole
(`python -m llmbook zensical-config`: Zensical appends the lists of a config it INHERITs, where
MkDocs replaces them), each page read from its translation where there is one; a number the
translation gets wrong fails the build at the translation's line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from llmbook.adapters.zensical.config import appended_lists, flat_path, flatten
from llmbook.adapters.zensical.written import zensical_config
from llmbook.cli import main as llmbook_main
from llmbook.core.project import Project, read_mkdocs_yml
from llmbook.translate.__main__ import main as translate_main
from sites import ROOT, Built, build, project_config, write_config, write_pages

SOURCE = """\
# 小节

```python
x = 1 + 1
```

结果是 [[x = NUMBER]]。
"""

TRANSLATION = """\
# Section

```python
x = 1 + 1
```

The result is [[x = NUMBER]].
"""

UNTRANSLATED = "# 其他\n\n尚未翻译的正文。\n"


def _book(root: Path, *, source: str = "2", translation: str = "2") -> Path:
    """A two-language book on the project's mkdocs.yml (`languages: [zh, en]`, translations and
    numbers strict): a page with code and a bound number, its translation (marked current while
    it wrote the source's number, then given `translation`), a page without one; mkdocs.en.yml
    as the project's, INHERITing the book's mkdocs.yml."""
    write_pages(
        root / "docs",
        {
            "x.md": SOURCE.replace("NUMBER", source),
            "x.en.md": TRANSLATION.replace("NUMBER", source),
            "other.md": UNTRANSLATED,
        },
    )
    write_config(root, project_config(nav=[{"小节": "x.md"}, {"其他": "other.md"}]))
    english = {
        "INHERIT": "mkdocs.yml",
        "site_dir": "site/en",
        "theme": {"language": "en"},
        "nav": [{"Section": "x.md"}, {"Other": "other.md"}],
    }
    (root / "mkdocs.en.yml").write_text(yaml.safe_dump(english), encoding="utf-8")
    # Material's search reads its jieba dictionary from the working folder (the project's).
    if not (root / "locales").exists():
        (root / "locales").symlink_to(ROOT / "locales", target_is_directory=True)  # its words
    path = root / "docs" / "x.en.md"
    assert translate_main(["-f", str(root / "mkdocs.yml"), "mark", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f"[[x = {source}]]", f"[[x = {translation}]]"), encoding="utf-8")
    return root


def _line(root: Path, rel: str, text: str) -> int:
    """The file line of `text` in `docs/rel` (after the translation's front matter)."""
    lines = (root / "docs" / rel).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def _zensical(root: Path, config: str | None = None, cache: bool | Path = False) -> Built:
    """`zensical build --clean -f` the config `python -m llmbook zensical-config` writes for
    mkdocs.yml (translations left out), or for the English edition's mkdocs.en.yml (written out
    whole too)."""
    pytest.importorskip("zensical")
    name = config or "mkdocs.yml"
    assert llmbook_main(["zensical-config", str(root / name)]) == 0
    args = ["--clean", "-f", flat_path(name).name]
    site = root / "site" / "en" if config is not None else root / "site"
    return build(root / "mkdocs.yml", site=site, engine="zensical", cache=cache, args=args)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book built by Zensical: Chinese, then English (its pages' results from the Chinese
    build's execution cache)."""
    root = _book(tmp_path_factory.mktemp("zensical-languages"))
    _zensical(root, cache=root / "cache").ok()
    _zensical(root, "mkdocs.en.yml", cache=root / "cache").ok()
    return root


@pytest.mark.slow
def test_the_chinese_edition_has_no_translation_as_a_page(book: Path) -> None:
    site = book / "site"
    assert not (site / "x.en.html").exists()  # the written config's exclude_docs
    html = (site / "x.html").read_text(encoding="utf-8")
    assert '结果是 <span class="llmbook-num"' in html and "The result is" not in html
    assert '<a href="en/x.html" hreflang="en" lang="en">English</a>' in html
    assert '<span class="llmbook-languages__current" lang="zh">中文</span>' in html
    assert "llmbook-untranslated" not in (site / "other.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_english_edition_is_read_from_the_translations(book: Path) -> None:
    site = book / "site" / "en"
    assert sorted(p.name for p in site.glob("*.html")) == ["404.html", "other.html", "x.html"]
    html = (site / "x.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in html
    assert '<h1 id="section">Section' in html
    assert 'The result is <span class="llmbook-num" title="x = 2' in html
    assert "结果是" not in html and "小节" not in html  # neither the text nor the Chinese nav
    assert "digest" not in html  # the translation's front matter (its record) is not shown
    assert '<a href="../x.html" hreflang="zh" lang="zh">中文</a>' in html
    assert '<span class="llmbook-languages__current" lang="en">English</span>' in html
    other = (site / "other.html").read_text(encoding="utf-8")
    assert '<a href="../other.html" hreflang="zh" lang="zh">中文</a>' in other
    assert '<p class="llmbook-untranslated">This page has not been translated' in other
    assert "尚未翻译的正文" in other
    assert (site / "assets" / "llmbook" / "execute" / "execute.css").is_file()


@pytest.mark.slow
def test_an_english_config_that_appends_lists_is_refused_with_the_fix(tmp_path: Path) -> None:
    """`zensical build -f mkdocs.en.yml` would give the edition the book's nav and its own."""
    pytest.importorskip("zensical")
    root = _book(tmp_path)
    done = build(root / "mkdocs.yml", engine="zensical", cache=False, args=["-f", "mkdocs.en.yml"])
    assert done.returncode != 0
    assert (
        "mkdocs.en.yml: Zensical appends the lists of a config it INHERITs (nav) where MkDocs "
        "replaces them"
    ) in done.stderr
    assert "`python -m llmbook zensical-config mkdocs.en.yml`" in done.stderr


@pytest.mark.slow
def test_a_number_the_translation_changed_fails_the_english_build_at_its_line(
    tmp_path: Path,
) -> None:
    root = _book(tmp_path, translation="3")
    done = _zensical(root, "mkdocs.en.yml")
    assert done.returncode != 0
    line = _line(root, "x.en.md", "The result is")
    assert line > 7  # numbered in its file, front matter included
    # It corresponds (the same expression): what it writes is checked against the computed value.
    assert f"docs/x.en.md:{line}: written 3, computed 2" in done.stderr


@pytest.mark.slow
def test_a_drifted_number_fails_the_english_build_at_the_translations_line(
    tmp_path: Path,
) -> None:
    """The source and its translation both write 3 (the translation current); 1 + 1 is 2."""
    root = _book(tmp_path, source="3", translation="3")
    done = _zensical(root, "mkdocs.en.yml")
    assert done.returncode != 0
    line = _line(root, "x.en.md", "The result is")
    assert f"docs/x.en.md:{line}: written 3, computed 2" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("config", [None, "mkdocs.en.yml"], ids=["zh", "en"])
def test_a_translations_front_matter_that_is_not_yaml_fails_either_build_at_its_line(
    tmp_path: Path, config: str | None
) -> None:
    """Zensical never reads a translation: the English build, which runs it, and the Chinese
    one, which reads its record, stop at the YAML parser's line in its file."""
    root = _book(tmp_path)
    path = root / "docs" / "x.en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("---\n", "---\nx: [1\n", 1))
    done = _zensical(root, config)
    assert done.returncode != 0
    assert (
        "docs/x.en.md:3: the front matter is not valid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence at line 2) Fix: correct the YAML"
    ) in done.stderr, done.stderr[-3000:]


def test_the_pages_each_build_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chinese build runs no translation; the English one runs `x.en.md` in place of `x.md`
    (and `other.md` as it is)."""
    from llmbook.adapters.zensical import adapter as zensical_adapter
    from llmbook.site.site import Site

    root = _book(tmp_path)
    zensical_config(root / "mkdocs.yml")
    zensical_config(root / "mkdocs.en.yml")
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    monkeypatch.chdir(root)
    ran: dict[str, list[str]] = {}

    def start(site: Site, pages, index) -> None:  # noqa: ANN001
        ran[site.locale.code] = [src for src, _ in pages]

    monkeypatch.setattr(Site, "start", start)
    for name in (flat_path("mkdocs.yml").name, flat_path("mkdocs.en.yml").name):
        written = read_mkdocs_yml(root / name)  # what Zensical reads of it that matters here
        config = {"nav": [], "use_directory_urls": False, "markdown_extensions": []}
        config["exclude_docs"] = written.get("exclude_docs")
        # the config as Zensical's command line names it (`zensical build -f …`)
        monkeypatch.setattr(zensical_adapter.sys, "argv", ["zensical", "build", "-f", name])
        zensical_adapter._new_site(config, Project.from_config_file(root / name))
    assert ran == {
        "zh": ["docs/other.md", "docs/x.md"],
        "en": ["docs/other.md", "docs/x.en.md"],
    }


# -- mkdocs.en.yml written out whole ---------------------------------------------------------


def test_the_written_config_is_the_one_mkdocs_reads(tmp_path: Path) -> None:
    """The project's English config, written out: what MkDocs makes of mkdocs.en.yml, lists
    replaced (nav, plugins, theme.palette), without INHERIT."""
    for name in ("mkdocs.yml", "mkdocs.en.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    written = flatten(tmp_path / "mkdocs.en.yml")
    assert written == tmp_path / "mkdocs.en.zensical.yml"
    merged = read_mkdocs_yml(tmp_path / "mkdocs.en.yml")
    merged.pop("INHERIT")
    assert read_mkdocs_yml(written) == merged
    assert appended_lists(tmp_path / "mkdocs.en.yml") == ["theme.palette", "nav", "plugins"]
    assert appended_lists(written) == [] and appended_lists(tmp_path / "mkdocs.yml") == []


def test_the_written_config_keeps_tags_and_paths(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "mkdocs.yml").write_text(
        "site_name: base\n"
        "nav: [a.md, b.md]\n"
        "extra: {one: 1, list: [1, 2]}\n"
        "markdown_extensions:\n"
        "  - toc:\n"
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n"
        "plugins:\n"
        "  - llmbook:\n"
        "      execute_sandbox: !ENV [LLMBOOK_SANDBOX, auto]\n",
        encoding="utf-8",
    )
    config = tmp_path / "book.yml"
    config.write_text(
        "INHERIT: base/mkdocs.yml\nnav: [c.md]\nextra: {two: 2, list: [3]}\n", encoding="utf-8"
    )
    text = flatten(config).read_text(encoding="utf-8")
    data = yaml.load(text, Loader=_Tagged)
    assert "INHERIT" not in data
    assert data["nav"] == ["c.md"]
    assert data["extra"] == {"one": 1, "list": [3], "two": 2}
    assert "slugify: !!python/object/apply:pymdownx.slugs.slugify" in text
    assert "execute_sandbox: !ENV [LLMBOOK_SANDBOX, auto]" in text
    assert appended_lists(config) == ["nav", "extra.list"]


class _Tagged(yaml.SafeLoader):
    pass


_Tagged.add_multi_constructor("", lambda loader, suffix, node: suffix)


def test_the_command_says_what_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav: [a.md]\n", encoding="utf-8")
    (tmp_path / "mkdocs.en.yml").write_text("INHERIT: mkdocs.yml\nnav: [b.md]\n", encoding="utf-8")
    assert llmbook_main(["zensical-config", str(tmp_path / "mkdocs.en.yml")]) == 0
    out = capsys.readouterr().out
    assert f"zensical build --clean -f {tmp_path / 'mkdocs.en.zensical.yml'}" in out
    assert os.path.exists(tmp_path / "mkdocs.en.zensical.yml")
    assert llmbook_main(["zensical-config", str(tmp_path / "missing.yml")]) == 1
