"""Where a build's files are: the project root (the folder of mkdocs.yml), its docs and site folders.

The core takes this, never an engine's configuration object: each adapter says where its engine
keeps the folders (MkDocs' config, Zensical's), and tools without an engine (pytest,
`update_numbers`) read them from mkdocs.yml as both engines do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Project", "config_line", "read_mkdocs_yml"]


@dataclass(frozen=True)
class Project:
    root: Path  # the folder of mkdocs.yml; pages are named relative to it (`docs/x.md`)
    docs_dir: Path
    site_dir: Path
    # A translating build's language ("en"): its pages `x.en.md` are the pages `x.md` of the
    # book (translate/), named so by `uri`.
    translating: str = ""
    # The config the build reads (mkdocs.en.yml, say): where errors in its options are shown.
    config_file: Path | None = None

    @classmethod
    def at(
        cls,
        root: str | Path,
        docs_dir: str | Path = "docs",
        site_dir: str | Path = "site",
        *,
        config_file: str | Path | None = None,
    ) -> Project:
        """Folders given relative to `root` (or absolute), as mkdocs.yml writes them."""
        base = Path(root).resolve()
        config = Path(config_file).resolve() if config_file is not None else None
        return cls(base, (base / docs_dir).resolve(), (base / site_dir).resolve(), "", config)

    @classmethod
    def from_config_file(cls, config_file: str | Path) -> Project:
        """The folders mkdocs.yml names (`docs_dir`, `site_dir`; MkDocs' defaults otherwise)."""
        path = Path(config_file).resolve()
        data = read_mkdocs_yml(path)
        docs, site = data.get("docs_dir"), data.get("site_dir")
        return cls.at(
            path.parent,
            docs if isinstance(docs, str) else "docs",
            site if isinstance(site, str) else "site",
            config_file=path,
        )

    def uri(self, src: str) -> str:
        """A page named as errors name it (`docs/chapters/x.md`) → relative to the docs folder."""
        uri = (self.root / src).resolve().relative_to(self.docs_dir).as_posix()
        if self.translating:
            stem, _, ext = uri.rpartition(".")
            if stem.endswith("." + self.translating):
                return f"{stem[: -len(self.translating) - 1]}.{ext}"
        return uri


def read_mkdocs_yml(path: Path) -> dict[str, Any]:
    """mkdocs.yml as plain data ({} when missing), merged over the files it INHERITs as MkDocs
    merges them: `!ENV` resolved as MkDocs resolves it (so a CI can set an option, e.g.
    `execute_sandbox: !ENV [LLMBOOK_SANDBOX, auto]`); MkDocs' other tags (!relative,
    !!python/…) read as None."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml where installed
        pass

    Loader.add_constructor("!ENV", _environment_value)
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    seen: list[Path] = []
    merged: dict[str, Any] = {}
    while path.is_file() and path not in seen and len(seen) < 8:  # INHERIT: parent first
        seen.append(path)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
        data = data if isinstance(data, dict) else {}
        merged = _merged(data, merged)
        parent = data.get("INHERIT")
        if not isinstance(parent, str):
            break
        path = (path.parent / parent).resolve()
    return merged


def config_line(config_file: Path, *patterns: str) -> tuple[Path, int]:
    """Where a config writes an option, for its errors: in `config_file` or, when it does not
    write it, the first file it INHERITs that does, the first line matching `patterns[0]` (its
    key), then from there the first matching `patterns[1]` (a value under it), and so on; line 1
    of `config_file` when none writes it."""
    path, seen = config_file, []
    while path.is_file() and path not in seen and len(seen) < 8:
        seen.append(path)
        lines = path.read_text(encoding="utf-8").splitlines()
        first = next((n for n, text in enumerate(lines) if re.search(patterns[0], text)), None)
        if first is not None:
            return path, _deepest(lines, first, patterns[1:]) + 1
        parent = re.search(r"^INHERIT:\s*(\S+)", "\n".join(lines), re.M)
        if parent is None:
            break
        path = (path.parent / parent.group(1).strip("'\"")).resolve()
    return config_file, 1


def _deepest(lines: list[str], start: int, patterns: tuple[str, ...]) -> int:
    """The line of the last of `patterns` found in order from `start` (`start` if none is)."""
    found = start
    for pattern in patterns:
        line = next((n for n in range(found, len(lines)) if re.search(pattern, lines[n])), None)
        if line is None:
            break
        found = line
    return found


def _merged(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """`child` over `parent` as MkDocs merges an INHERITed config: mappings merged key by key,
    everything else (lists included) replaced."""
    result = dict(parent)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _merged(result[key], value)
        else:
            result[key] = value
    return result


def _environment_value(loader: Any, node: Any) -> Any:
    """`!ENV NAME` or `!ENV [NAME, OTHER, default]`: the first variable set, else the default (the
    last item, parsed as YAML as MkDocs' pyyaml_env_tag does; None when it is a variable too)."""
    import os

    import yaml

    if isinstance(node, yaml.ScalarNode):
        names, default = [loader.construct_scalar(node)], None
    else:
        items = [loader.construct_object(child) for child in node.value]
        names, default = items[:-1] or items, items[-1] if len(items) > 1 else None
    for name in names:
        if isinstance(name, str) and name in os.environ:
            return yaml.safe_load(os.environ[name])
    return default
