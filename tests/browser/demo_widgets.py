"""Chapter 10's demo widgets as a test drives them: find one, set its inputs as a reader would,
read what it shows, and re-render all six as a fresh load shows them (test_demos.py)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page

__all__ = ["READY", "close", "rerender", "set_case", "set_input", "shown", "widget"]

READY = "document.querySelectorAll('figure.llmbook-demo .llmbook-widget[data-ready]').length === 6"

# Each widget replaced by its markup as built, then its script run again: kit.js starts it on the
# new markup as on a fresh load (Material's document$ replays the page to a new subscriber).
RERENDER = """() => Promise.all([...document.querySelectorAll("figure.llmbook-demo")].map(figure => {
  const widget = `figure.llmbook-demo[data-demo="${figure.dataset.demo}"] .llmbook-widget`;
  document.querySelector(widget).replaceWith(
    document.importNode(window.llmbookBuilt.querySelector(widget), true));
  const script = document.createElement("script");
  script.src = document.querySelector(`script[src$="/bookdemos/${figure.dataset.demo}.js"]`).src;
  const ran = new Promise((ok, fail) => { script.onload = ok; script.onerror = fail; });
  document.body.appendChild(script);
  return ran;
}))"""
# What a widget shows: each [data-in] as [tag, value] and, if asked, each [data-out]'s text (which
# lays the page out), listed per name.
READ = """(root, outputs) => {
  const all = (attr, read) => [...root.querySelectorAll(`[${attr}]`)].reduce((by, e) => {
    (by[e.getAttribute(attr)] ||= []).push(read(e));
    return by;
  }, {});
  return {in: all("data-in", e => [e.tagName, e.value]),
          out: outputs ? all("data-out", e => e.innerText) : null};
}"""


def rerender(page: Page, built_html: str) -> None:
    """Every widget of the page as a fresh load of `built_html` (the page's file) shows it."""
    if not page.evaluate("() => 'llmbookBuilt' in window"):
        parse = (
            "html => { window.llmbookBuilt = new DOMParser().parseFromString(html, 'text/html'); }"
        )
        page.evaluate(parse, built_html)
    page.evaluate(RERENDER)
    page.wait_for_function(READY)


def widget(page: Page, demo_id: str) -> Locator:
    return page.locator(f'figure.llmbook-demo[data-demo="{demo_id}"] .llmbook-widget')


def set_input(root: Locator, name: str, value: object) -> None:
    """Set one input as a reader would; an input already showing the value is left alone."""
    field = root.locator(f'[data-in="{name}"]')
    if field.input_value() == _text(value):
        return
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(_text(value))
    else:
        field.fill(_text(value))


def set_case(root: Locator, values: dict) -> dict:
    """set_input for each of `values` in order, the inputs read again after each change (one
    call, READ): returns what the widget shows afterwards."""
    handle = root.element_handle()  # reads through it skip the locator's lookup
    fields = handle.evaluate(READ, False)["in"]
    for name, value in values.items():
        (tag, current), *more = fields[name]
        assert not more, f"{len(more) + 1} inputs named {name}"
        if current == _text(value):
            continue
        field = root.locator(f'[data-in="{name}"]')
        (field.select_option if tag == "SELECT" else field.fill)(_text(value))
        fields = handle.evaluate(READ, False)["in"]
    return handle.evaluate(READ, True)


def _text(value: object) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def shown(root: Locator, name: str, state: dict | None = None) -> float | list[float]:
    """A displayed number (`2,147,483,648`, `-0.447`) or vector (`[0.365, 0.730]`), read from
    the page or from a `set_case` state."""
    if state is None:
        text = root.locator(f'[data-out="{name}"]').inner_text().strip()
    else:
        (text, *more) = state["out"][name]
        assert not more, f"{len(more) + 1} outputs named {name}"
        text = text.strip()
    if text.startswith("["):
        return [float(v) for v in json.loads(text)]
    assert re.fullmatch(r"-?[\d,]+(\.\d+)?", text), f"{name} shows {text!r}"
    return float(text.replace(",", ""))


def close(got: float | list[float], want: float | list[float], tol: float) -> bool:
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(abs(g - w) <= tol for g, w in zip(got, want, strict=True))
        )
    return abs(got - want) <= tol
