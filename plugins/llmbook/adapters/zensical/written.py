"""The config Zensical builds a book from, as `python -m llmbook zensical-config` writes it.

Zensical renders every `*.md` file it finds and runs no plugin that could choose its files, so
the written config does what the llmbook plugin does under MkDocs: its `exclude_docs` gets the
book's translations (`*.en.md`, `*.en.ipynb` for each language of `languages` but the book's
own; never pages of their own) and the notebooks (their pages are their twins, twins.py; the
build writes each executed notebook where MkDocs would), after the author's own lines; each nav
entry naming `x.ipynb` names its twin `x.md`; and a twin is written beside each notebook page.

    python -m llmbook zensical-config mkdocs.yml      # writes mkdocs.zensical.yml and the twins
    zensical build --clean -f mkdocs.zensical.yml
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from llmbook.adapters.zensical.config import flat_path, flatten, is_written, nav_items
from llmbook.adapters.zensical.twins import DocsFiles, docs_files, write_twins
from llmbook.core.errors import LLMBookError
from llmbook.core.project import Project, read_mkdocs_yml
from llmbook.translate.book import Translations
from llmbook.translate.layout import Languages

__all__ = ["build_files", "exclusions", "zensical_config"]

_STR = "tag:yaml.org,2002:str"


def exclusions(languages: list[str]) -> list[str]:
    """The `exclude_docs` lines a Zensical build of a book in `languages` needs."""
    lines = [f"*.{language}.{ext}" for language in languages[1:] for ext in ("md", "ipynb")]
    return [*lines, "*.ipynb"]


def zensical_config(config_file: str | Path, out: str | Path | None = None) -> tuple[Path, int]:
    """Write the config Zensical builds (`out`, default `flat_path`) and the twins; the config's
    path and how many twins there are."""
    path = Path(config_file).resolve()
    data = read_mkdocs_yml(path)
    if not data:
        raise OSError(f"{config_file}: no such config")
    languages = _languages(data)
    target = flatten(path, out, edit=lambda node: _edit(node, exclusions(languages)))
    docs_dir = (path.parent / str(data.get("docs_dir") or "docs")).resolve()
    layout = Languages(tuple(languages), languages[0]) if len(languages) > 1 else None
    twins = write_twins(docs_dir, lambda src: layout is not None and bool(layout.language_of(src)))
    return target if out is not None else flat_path(path), len(twins)


def _languages(data: dict) -> list[str]:
    for entry in data.get("plugins") or []:
        if isinstance(entry, dict) and isinstance(entry.get("llmbook"), dict):
            return [str(x) for x in entry["llmbook"].get("languages") or []]
    return []


def _edit(node: yaml.MappingNode, lines: list[str]) -> None:
    """`exclude_docs` with `lines` after the author's own; nav entries to `x.ipynb` → `x.md`."""
    at = {key.value: i for i, (key, _) in enumerate(node.value)}
    own: list[str] = []
    if "exclude_docs" in at:
        value = node.value[at["exclude_docs"]][1]
        own = str(value.value).splitlines() if isinstance(value, yaml.ScalarNode) else []
    text = "\n".join([*own, *(x for x in lines if x not in own)]) + "\n"
    excluded = yaml.ScalarNode(_STR, text, style="|")
    if "exclude_docs" in at:
        node.value[at["exclude_docs"]] = (node.value[at["exclude_docs"]][0], excluded)
    else:
        node.value.append((yaml.ScalarNode(_STR, "exclude_docs"), excluded))
    if "nav" in at:
        _twin_entries(node.value[at["nav"]][1])


def _twin_entries(node: yaml.Node) -> None:
    """Every page of the nav that is a notebook (`x.ipynb`, not a link) named by its twin."""
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _twin_entries(item)
    elif isinstance(node, yaml.MappingNode):
        for _, value in node.value:  # titles are keys: only the values name pages
            _twin_entries(value)
    elif isinstance(node, yaml.ScalarNode) and node.tag == _STR:
        value = str(node.value)
        if _is_notebook(value):
            node.value = value[: -len(".ipynb")] + ".md"


def build_files(
    project: Project,
    translations: Translations | None,
    config: Mapping[str, Any],
    config_file: Path,
) -> DocsFiles:
    """The docs folder's pages, twins and translations for a Zensical build of `config_file`
    (`config`: as Zensical read it). A book with notebooks or translations builds from the
    config zensical-config wrote, for its languages and nav as they are, its twins as written."""
    is_translation = translations.is_translation if translations is not None else _none
    files = docs_files(project.docs_dir, project.root, is_translation)
    notebooks = any(src.endswith(".ipynb") for src in files.pages)
    name = config_file.name
    if (notebooks or files.translations) and not is_written(config_file):
        would = ["the notebooks as no pages"] if notebooks else []
        would += ["the translations as pages of their own"] if files.translations else []
        raise LLMBookError(
            f"{name}: Zensical would build {' and '.join(would)} (it renders every Markdown "
            "file and only those). Fix: build from the config llmbook writes for Zensical: "
            f"`python -m llmbook zensical-config {name}`, then "
            f"`zensical build --clean -f {flat_path(name).name}`"
        )
    if is_written(config_file):
        languages = translations.languages.all if translations is not None else ()
        _check_current(config, list(languages), name)
    files.check(name)
    return files


def _check_current(config: Mapping[str, Any], languages: list[str], name: str) -> None:
    """The written config still leaves out every translation and names no notebook in its nav
    (the book's `languages` or nav may have changed since it was written)."""
    have = set(str(config.get("exclude_docs") or "").splitlines())
    lacks = [line for line in exclusions(languages) if line not in have]
    named = [url for url, _ in nav_items(config.get("nav") or []) if _is_notebook(url)]
    if lacks or named:
        what = [f"its exclude_docs lacks {', '.join(lacks)}"] if lacks else []
        what += [f"its nav names {', '.join(named)}"] if named else []
        source = name.replace(".zensical.", ".")
        raise LLMBookError(
            f"{name}: written for an earlier state of {source}: {'; '.join(what)}. Fix: write "
            f"it again: `python -m llmbook zensical-config {source}`"
        )


def _is_notebook(url: str) -> bool:
    return url.endswith(".ipynb") and "://" not in url


def _none(src: str) -> bool:
    return False
