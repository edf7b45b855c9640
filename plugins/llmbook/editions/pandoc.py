"""Pandoc (the `pypandoc_binary` wheel's own executable): a page's print-form HTML to Typst.

HTML → pandoc's JSON → our filter → Typst. The filter turns each print box
(`<div class="llmbook-box" data-kind>`) into a call of the book template's `llmbook-box`, and each
figure's image into one that fits the page width. Each page's Typst is memoised in the store by
its HTML, pandoc's version and this module's recipe: an unchanged page is not converted again.
"""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

from llmbook.core.store import Store, key
from llmbook.core.store_namespaces import EDITIONS

__all__ = ["pandoc_version", "page_typst", "run_pandoc"]

_RECIPE = 6  # bump when the filter changes what it makes
# Symbols pandoc's Typst writer names as older Typst did (`dot.circle` is `dot.o` since 0.13).
_RENAMED = re.compile(r"\b(plus|minus|times|dot|div|slash|ast|eq)\.circle\b")


def _pandoc() -> str:
    import pypandoc

    return pypandoc.get_pandoc_path()


def pandoc_version() -> str:
    import pypandoc

    return pypandoc.get_pandoc_version()


def run_pandoc(args: list[str], data: str) -> str:
    done = subprocess.run(
        [_pandoc(), *args], input=data, capture_output=True, text=True, encoding="utf-8"
    )
    if done.returncode != 0:
        raise RuntimeError(f"pandoc {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _raw(text: str) -> dict[str, Any]:
    return {"t": "RawBlock", "c": ["typst", text]}


def _attrs(attr: list[Any]) -> tuple[list[str], dict[str, str]]:
    _, classes, pairs = attr
    return classes, {k.removeprefix("data-"): v for k, v in pairs}


def _call(name: str, value: str, body: list[Any]) -> list[dict[str, Any]]:
    """`body` inside a call of the template's `name`: `#name(value)[` … `]`."""
    return [_raw(f"#{name}({value})["), *body, _raw("]")]


def _expanded(element: dict[str, Any]) -> list[Any]:
    """What one pandoc element becomes: a print box or a numbered equation (a Div) inside its
    template call, a cross-reference (a Link of class `llmbook-xref`) followed by the page its
    target is on; anything else as it is."""
    kind, content = element.get("t"), element.get("c")
    if kind == "Div":
        classes, attrs = _attrs(content[0])
        if "llmbook-box" in classes:
            name = json.dumps(attrs.get("kind", "note"), ensure_ascii=False)
            return _call("llmbook-box", f"kind: {name}", content[1])
        if "llmbook-equation" in classes:
            number = json.dumps(attrs.get("number", ""), ensure_ascii=False)
            return _call("llmbook-equation", f"number: {number}", content[1])
    if kind == "Link":
        (_, classes, _), _, (target, _) = content
        if "llmbook-xref" in classes and target.startswith("#"):
            label = json.dumps(target[1:], ensure_ascii=False)
            return [element, {"t": "RawInline", "c": ["typst", f"#llmbook-page(label({label}))"]}]
    return [element]


def _template_calls(node: Any) -> Any:
    """The document (pandoc's JSON) with `_expanded` applied to every element, inner ones first."""
    if isinstance(node, dict):
        return {k: _template_calls(v) for k, v in node.items()}
    if not isinstance(node, list):
        return node
    out: list[Any] = []
    for item in node:
        item = _template_calls(item)
        out += _expanded(item) if isinstance(item, dict) and "t" in item else [item]
    return out


def page_typst(html: str, store: Store) -> str:
    """The Typst of one page's print-form HTML."""
    memo = store.memo(EDITIONS, key("typst", _RECIPE, pandoc_version(), html))
    made = memo.get()
    if made is not None:
        return made
    document = json.loads(run_pandoc(["-f", "html", "-t", "json"], html))
    document["blocks"] = _template_calls(document["blocks"])
    typst = run_pandoc(["-f", "json", "-t", "typst", "--wrap=none"], json.dumps(document))
    typst = _RENAMED.sub(r"\1.o", typst)
    memo.put(typst)
    return typst
