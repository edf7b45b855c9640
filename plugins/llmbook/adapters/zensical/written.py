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

from pathlib import Path

import yaml

from llmbook.adapters.zensical.config import flat_path, flatten
from llmbook.adapters.zensical.twins import write_twins
from llmbook.core.project import read_mkdocs_yml
from llmbook.translate.layout import Languages

__all__ = ["exclusions", "zensical_config"]

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
        if value.endswith(".ipynb") and "://" not in value:
            node.value = value[: -len(".ipynb")] + ".md"
