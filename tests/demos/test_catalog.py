"""The demos a book registers (llmbook.demos.catalog): the modules the `demos` option names state
their demos' IDs and classes without importing them; a module that cannot serve is an author error
at its line of mkdocs.yml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from demo_helpers import BOOK, BOOK_ASSETS, BOOK_LOCALES, IDS, ROOT
from llmbook.core.errors import AuthorError
from llmbook.demos import Demo, DemoCatalog, DemoError, DemoNeeds
from tiny_demos import TINY, tiny_locale, write_tiny_demos

CONFIG = """\
site_name: t
plugins:
  - search
  - llmbook:
      demos:
        - {name}
"""


def _book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, modules: dict[str, str]) -> Path:
    """A book folder with mkdocs.yml naming `tinydemos`, written from `modules` (file name →
    source) and importable from there."""
    write_tiny_demos(tmp_path, monkeypatch, modules)
    (tmp_path / "mkdocs.yml").write_text(CONFIG.format(name="tinydemos"), encoding="utf-8")
    return tmp_path


def _load(root: Path, *modules: str) -> DemoCatalog:
    return DemoCatalog.load(list(modules) or ["tinydemos"], root=root)


def _error(root: Path, *modules: str) -> str:
    with pytest.raises(AuthorError) as caught:
        _load(root, *modules)
    return str(caught.value)


def test_the_option_registers_the_modules_demos(tmp_path, monkeypatch) -> None:
    catalog = _load(_book(tmp_path, monkeypatch, TINY))
    assert catalog.known_ids() == ["heavy", "tiny"]
    assert catalog.entries["tiny"].depends == ("tinydep",)
    assert catalog.entries["tiny"].packages == ("tinydemos",)
    assert catalog.assets == (("assets/tinydemos", tmp_path / "tinydemos" / "js"),)
    assert "tinydemos.tiny" not in sys.modules  # imported only when a page renders it
    demo = catalog.demo("tiny", tiny_locale("en"))
    assert isinstance(demo, Demo) and demo.figure_svg() == "<svg>tiny 1</svg>"
    assert catalog.demo("nothing", BOOK_LOCALES["zh"]) is None


def test_a_demo_whose_module_needs_a_missing_package(tmp_path, monkeypatch) -> None:
    catalog = _load(_book(tmp_path, monkeypatch, TINY))
    with pytest.raises(DemoNeeds) as caught:
        catalog.demo("heavy", BOOK_LOCALES["zh"])
    assert caught.value.package == "no_such_package_here"
    assert str(caught.value) == (
        "computes with no_such_package_here, which is not installed "
        "Fix: install no_such_package_here beside llmbook, or remove the demo"
    )


def test_a_registration_naming_no_such_class(tmp_path, monkeypatch) -> None:
    modules = {
        **TINY,
        "tinydemos/__init__.py": 'DEMOS = {"a": "tinydemos.tiny:Nope", "b": "tinydemos.gone:B"}\n',
    }
    catalog = _load(_book(tmp_path, monkeypatch, modules))
    with pytest.raises(DemoError) as caught:
        catalog.demo("a", BOOK_LOCALES["zh"])
    assert str(caught.value) == (
        "tinydemos registers it as tinydemos.tiny:Nope, which is not a demo class with ID = 'a' "
        "Fix: make Nope a subclass of llmbook.demos.Demo with that ID, or correct its entry in "
        "tinydemos.DEMOS"
    )
    with pytest.raises(DemoError, match=r"registers it as tinydemos.gone:B, whose module cannot"):
        catalog.demo("b", BOOK_LOCALES["zh"])


def test_a_module_that_is_not_installed_is_an_error_at_its_line(tmp_path, monkeypatch) -> None:
    root = _book(tmp_path, monkeypatch, TINY)
    (root / "mkdocs.yml").write_text(CONFIG.format(name="nodemoshere"), encoding="utf-8")
    assert _error(root, "nodemoshere") == (
        "mkdocs.yml:6: the llmbook option `demos`: no module 'nodemoshere' is installed "
        "Fix: install the package that provides it beside llmbook (a book's own: `pip install "
        "-e .` in its folder), or remove it from `demos`"
    )


def test_a_module_whose_import_fails_is_an_error(tmp_path, monkeypatch) -> None:
    root = _book(tmp_path, monkeypatch, {"tinydemos/__init__.py": "import not_there_either\n"})
    assert _error(root) == (
        "mkdocs.yml:6: the llmbook option `demos`: importing 'tinydemos' needs "
        "'not_there_either', which is not installed Fix: install not_there_either beside "
        "llmbook, or remove tinydemos from `demos`"
    )
    root = _book(tmp_path, monkeypatch, {"tinydemos/__init__.py": "1 / 0\n"})
    assert _error(root) == (
        "mkdocs.yml:6: the llmbook option `demos`: importing 'tinydemos' failed: "
        "ZeroDivisionError: division by zero Fix: correct the module tinydemos, or remove it "
        "from `demos`"
    )


@pytest.mark.parametrize(
    "table",
    ["", "DEMOS = {}", "DEMOS = ['x']", 'DEMOS = {"two words": "a.b:C"}', 'DEMOS = {"x": "a.b"}'],
)
def test_a_module_without_a_valid_table(tmp_path, monkeypatch, table) -> None:
    root = _book(tmp_path, monkeypatch, {"tinydemos/__init__.py": table + "\n"})
    assert _error(root) == (
        "mkdocs.yml:6: the llmbook option `demos`: tinydemos states no DEMOS table of demo IDs "
        'and classes Fix: give it one, e.g. DEMOS = {"my-demo": "mybook.demos.my_demo:MyDemo"} '
        "(an ID is one word: letters, digits, - _ .)"
    )


def test_wrong_depends_and_assets(tmp_path, monkeypatch) -> None:
    table = 'DEMOS = {"tiny": "tinydemos.tiny:TinyDemo"}\n'
    root = _book(tmp_path, monkeypatch, {"tinydemos/__init__.py": table + 'DEPENDS = "torch"\n'})
    assert _error(root) == (
        "mkdocs.yml:6: the llmbook option `demos`: tinydemos.DEPENDS is 'torch', not a tuple of "
        'package names Fix: name the packages its demos compute with, e.g. DEPENDS = ("torch",)'
    )
    root = _book(tmp_path, monkeypatch, {"tinydemos/__init__.py": table + 'ASSETS = "none"\n'})
    assert _error(root).startswith(
        "mkdocs.yml:6: the llmbook option `demos`: tinydemos.ASSETS is 'none', which is no "
        "folder beside "
    )


def test_one_id_registered_twice(tmp_path, monkeypatch) -> None:
    twin = {**TINY, "twindemos.py": 'DEMOS = {"tiny": "twindemos:X"}\n'}
    root = _book(tmp_path, monkeypatch, twin)
    monkeypatch.delitem(sys.modules, "twindemos", raising=False)
    (root / "mkdocs.yml").write_text(
        CONFIG.format(name="tinydemos") + "        - twindemos\n", encoding="utf-8"
    )
    assert _error(root, "tinydemos", "twindemos") == (
        "mkdocs.yml:7: the llmbook option `demos`: the demo 'tiny' is registered by tinydemos "
        "and again by twindemos Fix: give one of them another ID, or leave one module out of "
        "`demos`"
    )


def test_an_inherited_option_is_shown_where_it_is_written(tmp_path, monkeypatch) -> None:
    root = _book(tmp_path, monkeypatch, TINY)
    (root / "mkdocs.yml").write_text(CONFIG.format(name="gone"), encoding="utf-8")
    (root / "mkdocs.en.yml").write_text("INHERIT: mkdocs.yml\nsite_dir: site/en\n", "utf-8")
    with pytest.raises(AuthorError, match=r"^mkdocs.yml:6: .* no module 'gone'"):
        DemoCatalog.load(["gone"], root=root, config_file=root / "mkdocs.en.yml")


# -- this book's demos ---------------------------------------------------------------------------


def test_the_book_registers_its_six_demos_and_their_scripts() -> None:
    assert BOOK.known_ids() == sorted(IDS)
    assert BOOK.assets == (("assets/bookdemos", BOOK_ASSETS),)
    assert sorted(p.stem for p in BOOK_ASSETS.glob("*.js")) == sorted(IDS)
    assert {entry.depends for entry in BOOK.entries.values()} == {("llmkit", "torch")}


def test_each_registered_class_has_its_id() -> None:
    for demo_id in BOOK.known_ids():
        demo = BOOK.demo(demo_id, BOOK_LOCALES["zh"])
        assert demo is not None and type(demo).ID == demo_id


def test_registering_the_book_imports_no_demo_and_no_torch() -> None:
    probe = (
        "import sys\n"
        "from llmbook.demos import DemoCatalog\n"
        "DemoCatalog.load(['bookdemos'], root=sys.argv[1])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'llmkit', 'bookdemos')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "['bookdemos']"
