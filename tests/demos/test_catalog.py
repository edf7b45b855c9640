"""The demo catalog is read from the demo modules' source: every module's `ID` is known without
importing it, and each is the ID its class registers when imported."""

from __future__ import annotations

import importlib

from llmbook.demos.catalog import MODULES, declared_ids


def test_ids_are_read_from_class_bodies_only() -> None:
    source = (
        'ID = "module-level"\n'
        "class Demo:\n"
        '    ID = ""\n'
        "class Swiglu(Demo):\n"
        '    ID = "swiglu"\n'
        "    def f(self):\n"
        '        ID = "inside-a-method"\n'
        "class Other:\n"
        "    ID = 3\n"
    )
    assert declared_ids(source) == ["", "swiglu"]


def test_the_catalog_holds_every_demo_module() -> None:
    assert sorted(MODULES) == [
        "kv-cache",
        "mha-gqa",
        "norm-compare",
        "pre-post-norm",
        "rope",
        "swiglu",
    ]


def test_each_module_registers_the_id_the_catalog_read() -> None:
    from llmbook.demos.base import _REGISTRY

    for demo_id, module in MODULES.items():
        importlib.import_module(module)
        assert _REGISTRY[demo_id].__module__ == module
