"""The demos a book registers: the llmbook option `demos` names modules (`demos: [mybook_demos]`),
each imported when the build starts and stating, without importing anything heavy:

    DEMOS = {"rope": "mybook_demos.rope:RopeDemo"}  # each demo's ID and the class that draws it
    DEPENDS = ("mybook", "torch")  # what the demos compute with (their frames are keyed on it)
    ASSETS = "assets"  # a folder beside the module: its scripts and styles go into the site

So a page is validated (an unknown ID is an error at its line) without importing any demo, and a
demo's module (which imports torch, say) is imported only when a page renders it. A module that
cannot be imported or states no valid table is an author error at its line of mkdocs.yml.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.project import config_line
from llmbook.demos.base import Demo, DemoError, DemoNeeds

__all__ = ["DemoCatalog", "DemoEntry"]

_ID = re.compile(r"[A-Za-z0-9][\w.-]*")
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
_EXAMPLE = 'DEMOS = {"my-demo": "mybook.demos.my_demo:MyDemo"}'


@dataclass(frozen=True)
class DemoEntry:
    """One registered demo: its ID, its class (`module:Class`), the module that registered it and
    the packages it computes with."""

    id: str
    target: str
    provider: str
    depends: tuple[str, ...] = ()

    @property
    def packages(self) -> tuple[str, ...]:
        """The top-level packages of its code: its class's and its registering module's."""
        tops = (self.target.partition(":")[0].split(".")[0], self.provider.split(".")[0])
        return tuple(dict.fromkeys(tops))


@dataclass(frozen=True)
class DemoCatalog:
    """Every demo the book registers, by ID, and the asset folders its modules ship."""

    entries: Mapping[str, DemoEntry] = field(default_factory=dict)
    # (the site folder they go to, the folder they come from), one per registering module
    assets: tuple[tuple[str, Path], ...] = ()

    @classmethod
    def load(
        cls, modules: Sequence[str], *, root: str | Path, config_file: Path | None = None
    ) -> DemoCatalog:
        """The catalog of the modules the `demos` option names (mkdocs.yml in `root`, or
        `config_file`); AuthorError at the option's line for a module that is not usable."""
        root = Path(root)
        config = config_file if config_file is not None else root / "mkdocs.yml"
        entries: dict[str, DemoEntry] = {}
        assets: list[tuple[str, Path]] = []
        for name in modules:
            where = _Where(config, root, name)
            module = where.imported()
            for entry in where.entries(module):
                if entry.id in entries:
                    raise where.error(
                        f"the demo {entry.id!r} is registered by {entries[entry.id].provider} "
                        f"and again by {name}",
                        "give one of them another ID, or leave one module out of `demos`",
                    )
                entries[entry.id] = entry
            folder = where.assets(module)
            if folder is not None:
                assets.append((f"assets/{name}", folder))
        return cls(entries, tuple(assets))

    def known_ids(self) -> list[str]:
        return sorted(self.entries)

    def demo(self, demo_id: str, locale: Locale) -> Demo | None:
        """The demo `demo_id` in `locale`'s words, its module imported on first use; None if
        unknown.
        DemoNeeds when its module imports a package that is not installed; DemoError when its
        registration names no such class."""
        entry = self.entries.get(demo_id)
        return None if entry is None else _demo_class(entry)(locale)


def _demo_class(entry: DemoEntry) -> type[Demo]:
    module_name, _, attribute = entry.target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing == "llmbook":
            raise  # a broken plugin, not a book's missing dependency
        if missing and missing not in entry.packages:
            raise DemoNeeds(entry.id, missing) from None
        raise DemoError(
            f"{entry.provider} registers it as {entry.target}, whose module cannot be "
            f"imported ({error})",
            f"correct its entry in {entry.provider}.DEMOS",
        ) from None
    found = getattr(module, attribute, None)
    if not (isinstance(found, type) and issubclass(found, Demo) and found.ID == entry.id):
        raise DemoError(
            f"{entry.provider} registers it as {entry.target}, which is not a demo class "
            f"with ID = {entry.id!r}",
            f"make {attribute} a subclass of llmbook.demos.Demo with that ID, or correct its "
            f"entry in {entry.provider}.DEMOS",
        )
    return found


@dataclass(frozen=True)
class _Where:
    """One module the option names, and where mkdocs.yml names it (for its errors)."""

    config: Path
    root: Path
    name: str

    def error(self, problem: str, fix: str) -> AuthorError:
        path, line = config_line(
            self.config, r"^\s*demos\s*:", rf"(?<![\w.]){re.escape(self.name)}(?![\w.])"
        )
        src = Path(os.path.relpath(path.resolve(), self.root.resolve())).as_posix()
        return AuthorError(src, line, f"the llmbook option `demos`: {problem}", fix)

    def imported(self) -> object:
        try:
            return importlib.import_module(self.name)
        except ModuleNotFoundError as error:
            if error.name is not None and f"{self.name}.".startswith(f"{error.name}."):
                raise self.error(
                    f"no module {self.name!r} is installed",
                    "install the package that provides it beside llmbook (a book's own: "
                    "`pip install -e .` in its folder), or remove it from `demos`",
                ) from None
            raise self.error(
                f"importing {self.name!r} needs {error.name!r}, which is not installed",
                f"install {error.name} beside llmbook, or remove {self.name} from `demos`",
            ) from None
        except Exception as error:  # the module's own fault, as its author reads it
            raise self.error(
                f"importing {self.name!r} failed: {type(error).__name__}: {error}",
                f"correct the module {self.name}, or remove it from `demos`",
            ) from None

    def entries(self, module: object) -> list[DemoEntry]:
        table = getattr(module, "DEMOS", None)
        if (
            not isinstance(table, Mapping)
            or not table
            or not all(isinstance(k, str) and _ID.fullmatch(k) for k in table)
            or not all(isinstance(v, str) and _TARGET.fullmatch(v) for v in table.values())
        ):
            raise self.error(
                f"{self.name} states no DEMOS table of demo IDs and classes",
                f"give it one, e.g. {_EXAMPLE} (an ID is one word: letters, digits, - _ .)",
            )
        depends = getattr(module, "DEPENDS", ())
        if not isinstance(depends, (tuple, list)) or not all(isinstance(d, str) for d in depends):
            raise self.error(
                f"{self.name}.DEPENDS is {depends!r}, not a tuple of package names",
                'name the packages its demos compute with, e.g. DEPENDS = ("torch",)',
            )
        return [DemoEntry(i, t, self.name, tuple(depends)) for i, t in table.items()]

    def assets(self, module: object) -> Path | None:
        folder = getattr(module, "ASSETS", None)
        if folder is None:
            return None
        source = Path(getattr(module, "__file__", "") or ".")
        base = source.parent
        if not isinstance(folder, str) or not (base / folder).is_dir():
            raise self.error(
                f"{self.name}.ASSETS is {folder!r}, which is no folder beside {source}",
                "name the folder of its demos' scripts and styles, relative to the module, "
                'e.g. ASSETS = "assets", or leave ASSETS out',
            )
        return base / folder
