"""A config that INHERITs another, written out whole for Zensical.

MkDocs merges an INHERITed config mapping by mapping and replaces its lists; Zensical (0.0.x)
merges with deepmerge's `always_merger`, which appends them: a config that INHERITs mkdocs.yml
and gives its own `nav`, `plugins` or `theme.palette` (mkdocs.en.yml, the English edition) gets
both lists under Zensical. `flatten` merges as MkDocs does, on YAML's nodes (so `!ENV`,
`!!python/…` and every other tag stay as written), into one config without INHERIT, written
beside the original: its relative paths mean what they meant there.

    python -m llmbook zensical-config mkdocs.en.yml     # writes mkdocs.en.zensical.yml
    zensical build --clean -f mkdocs.en.zensical.yml
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

__all__ = ["WRITTEN", "appended_lists", "flat_path", "flatten", "is_written", "nav_items"]

WRITTEN = "# Written by `python -m llmbook zensical-config"  # how a written config starts

_INHERIT = "INHERIT"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


def flat_path(config_file: str | Path) -> Path:
    """Where `flatten` writes: `mkdocs.en.yml` → `mkdocs.en.zensical.yml`, beside it."""
    path = Path(config_file)
    return path.with_name(f"{path.stem}.zensical{path.suffix or '.yml'}")


def flatten(
    config_file: str | Path,
    out: str | Path | None = None,
    edit: Callable[[yaml.MappingNode], None] | None = None,
) -> Path:
    """`config_file` merged over the configs it INHERITs as MkDocs merges them, changed by
    `edit`, written to `out` (default: `flat_path`); the path written."""
    path = Path(config_file).resolve()
    target = Path(out) if out is not None else flat_path(path)
    node = _merged_node(path, [])
    if edit is not None:
        edit(node)
    text = yaml.serialize(node, Dumper=yaml.SafeDumper, allow_unicode=True)
    header = (
        f"{WRITTEN} {path.name}` from {path.name} and the\n"
        "# configs it INHERITs, merged as MkDocs merges them; for Zensical. Do not edit.\n"
    )
    target.write_text(header + text, encoding="utf-8")
    return target


def is_written(config_file: str | Path) -> bool:
    """Whether `config_file` is one `flatten` wrote (its first line says so)."""
    try:
        with open(config_file, encoding="utf-8") as file:
            return file.readline().startswith(WRITTEN)
    except OSError:
        return False


def appended_lists(config_file: str | Path) -> list[str]:
    """The lists (`nav`, `theme.palette`…) that `config_file` and a config it INHERITs both set:
    MkDocs keeps the child's, Zensical appends the two."""
    path = Path(config_file).resolve()
    child = _node(path)
    parent = _inherited(path, child)
    if parent is None:
        return []
    return _both_lists(_merged_node(parent, [path]), child, "")


def _node(path: Path) -> yaml.MappingNode:
    node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    if node is None:
        return yaml.MappingNode(_MAP, [])
    if not isinstance(node, yaml.MappingNode):
        raise ValueError(f"{path}: a config is a mapping")
    return node


def _inherited(path: Path, node: yaml.MappingNode) -> Path | None:
    for key, value in node.value:
        if key.value == _INHERIT and isinstance(value, yaml.ScalarNode):
            return (path.parent / value.value).resolve()
    return None


def _merged_node(path: Path, seen: list[Path]) -> yaml.MappingNode:
    """The config at `path` with its INHERIT chain merged in (parent first), INHERIT removed."""
    if path in seen:
        raise ValueError(f"{path}: INHERIT goes round in a circle")
    node = _node(path)
    parent = _inherited(path, node)
    own = [(k, v) for k, v in node.value if k.value != _INHERIT]
    if parent is None:
        return yaml.MappingNode(node.tag, own, flow_style=node.flow_style)
    return _merge(_merged_node(parent, [*seen, path]), yaml.MappingNode(node.tag, own))


def _merge(parent: yaml.MappingNode, child: yaml.MappingNode) -> yaml.MappingNode:
    """MkDocs' merge (mergedeep's REPLACE): mappings key by key, everything else replaced."""
    pairs = list(parent.value)
    for key, value in child.value:
        at = next((i for i, (k, _) in enumerate(pairs) if k.value == key.value), None)
        if at is None:
            pairs.append((key, value))
        elif _is_map(pairs[at][1]) and _is_map(value):
            pairs[at] = (pairs[at][0], _merge(pairs[at][1], value))
        else:
            pairs[at] = (pairs[at][0], value)
    return yaml.MappingNode(parent.tag, pairs, flow_style=parent.flow_style)


def _both_lists(parent: yaml.MappingNode, child: yaml.MappingNode, prefix: str) -> list[str]:
    found = []
    theirs = {k.value: v for k, v in parent.value}
    for key, value in child.value:
        other = theirs.get(key.value)
        name = f"{prefix}{key.value}"
        if _is_map(value) and other is not None and _is_map(other):
            found += _both_lists(other, value, name + ".")
        elif _is_seq(value) and other is not None and _is_seq(other):
            found.append(name)
    return found


def _is_map(node: yaml.Node) -> bool:
    return isinstance(node, yaml.MappingNode) and node.tag == _MAP


def _is_seq(node: yaml.Node) -> bool:
    return isinstance(node, yaml.SequenceNode) and node.tag == _SEQ


def nav_items(nav: list) -> list[tuple[str, str]]:
    """(url, title) of each page of Zensical's resolved nav (items with `url`, `title` and
    `children`; a nested list walked as its items), in order."""
    found: list[tuple[str, str]] = []
    for item in nav:
        if isinstance(item, dict):
            if item.get("url"):
                found.append((str(item["url"]), str(item.get("title") or "")))
            found += nav_items(item.get("children") or [])
        elif isinstance(item, list):
            found += nav_items(item)
    return found
