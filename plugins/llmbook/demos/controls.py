"""HTML for the widgets' controls, shared by every demo.

Conventions the scripts and the browser test rely on: an input carries `data-in="NAME"`, a displayed
result `data-out="NAME"`, a button `data-action="NAME"`; the widget root is `div.llmbook-widget`
holding a `data-role="grid"` JSON element: `{"tol": {out: tolerance}, "cases": [{"in": {...},
"out": {...}}]}`, the demo's computed values for a grid of inputs that the browser test drives the widget over.
A stage (`data-role="stage"`) is drawn here, in Python, in its first state; the script moves its
marks (`data-mark`) over the plot's map (`data-plot`) and paints with the `--llmbook-c-*` colours
the widget root carries. A word the script writes comes from the element it writes into, a
`data-text-NAME` attribute (`texts`) in the page's language, read by kit.js `text()`; the scripts
hold no words of their own.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from llmbook.core.i18n import Locale
from llmbook.demos.svg import Canvas, color_variables, json_script, num

__all__ = [
    "button",
    "grid_script",
    "number",
    "output",
    "select",
    "slider",
    "stage",
    "texts",
    "widget",
]


def _label(text: str, control: str) -> str:
    return (
        f'<label class="llmbook-widget__control"><span>{html.escape(text)}</span>{control}</label>'
    )


def slider(name: str, label: str, lo: float, hi: float, step: float, value: float) -> str:
    """A range input with its current value shown beside it (`data-show`)."""
    return _label(
        label,
        f'<input type="range" data-in="{name}" min="{num(lo, 6)}" max="{num(hi, 6)}" '
        f'step="{num(step, 6)}" value="{num(value, 6)}" aria-label="{html.escape(label)}">'
        f'<output data-show="{name}">{num(value, 6)}</output>',
    )


def number(
    name: str,
    label: str,
    value: float,
    step: float = 0.1,
    lo: float | None = None,
    hi: float | None = None,
) -> str:
    bounds = (f' min="{num(lo, 6)}"' if lo is not None else "") + (
        f' max="{num(hi, 6)}"' if hi is not None else ""
    )
    return _label(
        label,
        f'<input type="number" data-in="{name}" value="{num(value, 6)}" step="{num(step, 6)}"'
        f'{bounds} aria-label="{html.escape(label)}">',
    )


def select(
    name: str,
    label: str,
    options: list[tuple[str, str]],
    value: str,
    *,
    words: dict[str, str] | None = None,
) -> str:
    """A drop-down list; `words` (`texts`) for a script that relabels its options."""
    opts = "".join(
        f'<option value="{html.escape(v)}"{" selected" if v == value else ""}>{html.escape(t)}</option>'
        for v, t in options
    )
    return _label(
        label,
        f'<select data-in="{name}" aria-label="{html.escape(label)}"{texts(**(words or {}))}>'
        f"{opts}</select>",
    )


def button(action: str, label: str) -> str:
    return f'<button type="button" class="llmbook-widget__button" data-action="{action}">{html.escape(label)}</button>'


def output(name: str, label: str, unit: str = "") -> str:
    suffix = f'<span class="llmbook-widget__unit">{html.escape(unit)}</span>' if unit else ""
    return (
        f'<div class="llmbook-widget__result"><span>{html.escape(label)}</span>'
        f'<output data-out="{name}">…</output>{suffix}</div>'
    )


def grid_script(tol: dict[str, float], cases: list[dict]) -> str:
    return json_script({"tol": tol, "cases": cases}, "grid")


def stage(
    size: tuple[float, float],
    label: str,
    draw: Callable[[Canvas], None],
    *,
    origin: tuple[float, float] = (0.0, 0.0),
    wide: bool = False,
) -> str:
    """The widget's drawing in its first state (what a reader without JavaScript sees)."""
    css = "llmbook-widget__stage" + (" llmbook-widget__stage--wide" if wide else "")
    canvas = Canvas(*size, label, origin=origin, css_class=css, role="stage")
    draw(canvas)
    return str(canvas)


def texts(**words: str) -> str:
    """`data-text-NAME` attributes (an underscore in a name is written `-`): the words a widget's
    script writes into this element, `{field}`s filled in by kit.js `text(node, NAME, fields)`."""
    return "".join(
        f' data-text-{name.replace("_", "-")}="{html.escape(text)}"' for name, text in words.items()
    )


def widget(demo_id: str, locale: Locale, body: str, *, config: object = None) -> str:
    """The widget root in `locale`'s words (a demo's): controls and outputs, an optional config JSON for
    the script, the grid."""
    extra = json_script(config, "config") if config is not None else ""
    return (
        f'<div class="llmbook-widget" data-widget="{html.escape(demo_id)}" '
        f'style="{color_variables()}">'
        f'<p class="llmbook-widget__nojs">{html.escape(locale.ui("demo_nojs"))}</p>'
        f"{body}{extra}</div>"
    )
