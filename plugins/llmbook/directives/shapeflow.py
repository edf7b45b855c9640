"""`:::shapeflow` — lines of tensors and operators, drawn as shape chips and checked symbolically.

A line is `[caption：] operand (op operand)* (→ step)*`. Operands are `name [dims]`, `[dims]`, or a
name given earlier in the block (a tensor's name or a `（label）` after a result). Operators:
⊕ concatenates along the one axis that differs (sizes add: t−1 + 1 = t); × (or @) is a batched matmul
(inner dims agree, leading dims broadcast; H_kv against H_q is GQA grouping); ⊙ and + are element-wise.
After →: a shape states the result so far (it must equal the computed one); a bare word (SiLU,
softmax) is an element-wise function; words before a shape describe a change the build cannot check,
except a grouping, `每 N 个 … 共用 …` or `every N Q heads … share …`, whose N must be the ratio of
the head counts. A line without `[` is free text. The notes and badges are written in the page's
language, and grouping notes read in its forms (its locale); the author's words are shown as
written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from llmbook.core.errors import quoted as quote
from llmbook.core.i18n import Locale
from llmbook.directives.base import FORBIDDEN, Context, Directive, escape
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage, text_block
from llmbook.directives.shapes import (
    Dim,
    Grouping,
    ShapeError,
    broadcast,
    concat,
    matmul,
    parse_dim,
    parse_shape,
    ratio,
    show,
)

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = ["Shapeflow", "check_line"]

_TENSOR = re.compile(r"(?P<name>[^\s\[\]]*?)\s*\[(?P<dims>[^\[\]]*)\]")
_OP = re.compile(r"(?<!\S)(?P<op>[⊕×⊙@+])(?!\S)")
_LABEL = re.compile(r"^[（(](?P<label>[^（）()]+)[）)]$")
_CAPTION = re.compile(r"^(?P<caption>[^\[⊕×⊙→]*?)\s*[：:]\s*")
_OPS = {"⊕": "concat", "×": "matmul", "@": "matmul", "⊙": "elementwise", "+": "elementwise"}


@dataclass
class Flow:
    """A checked line: HTML pieces to show, notes on each check, and whether anything was checked;
    what the build writes is in `locale`'s words, grouping notes read in its forms."""

    locale: Locale
    pieces: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: bool = False

    def say(self, key: str, **fields: object) -> str:
        """The text `shapeflow_<key>` in the flow's language."""
        return self.locale.ui(f"shapeflow_{key}", **fields)


def _chip(name: str, dims: list[Dim] | None, label: str = "") -> str:
    name_html = f'<span class="llmbook-tensor__name">{escape(name)}</span>' if name else ""
    dims_html = (
        f'<span class="llmbook-tensor__dims">{escape(show(dims))}</span>'
        if dims is not None
        else ""
    )
    label_html = f'<span class="llmbook-tensor__label">{escape(label)}</span>' if label else ""
    return f'<span class="llmbook-tensor">{name_html}{dims_html}{label_html}</span>'


def _items(segment: str) -> list[tuple[str, str, str]]:
    """A segment's parts in order: ("tensor", name, dims) / ("op", sym, "") / ("text", words, "")."""
    spans = [
        (m.start(), m.end(), ("tensor", m.group("name"), m.group("dims")))
        for m in _TENSOR.finditer(segment)
    ]
    for m in _OP.finditer(segment):
        if not any(start <= m.start() < end for start, end, _ in spans):
            spans.append((m.start(), m.end(), ("op", m.group("op"), "")))
    items: list[tuple[str, str, str]] = []
    pos = 0
    for start, end, item in sorted(spans):
        if segment[pos:start].strip():
            items.append(("text", segment[pos:start].strip(), ""))
        items.append(item)
        pos = end
    if segment[pos:].strip():
        items.append(("text", segment[pos:].strip(), ""))
    return items


def check_line(line: str, names: dict[str, list[Dim]], locale: Locale) -> Flow:
    """Check one line (ShapeError when it does not add up); `names` carries tensors across lines;
    the notes in `locale`'s words."""
    flow = Flow(locale)
    if "[" not in line:
        flow.pieces.append(f'<span class="llmbook-shapeflow__text">{escape(line.strip())}</span>')
        return flow
    text = line.strip()
    caption = _CAPTION.match(text)
    if caption and caption.group("caption").strip():
        flow.pieces.append(
            f'<span class="llmbook-shapeflow__caption">{escape(caption.group("caption"))}</span>'
        )
        text = text[caption.end() :]
    current: list[Dim] | None = None
    for index, segment in enumerate(re.split(r"\s*(?:→|(?<!\S)->(?!\S))\s*", text)):
        if index:
            flow.pieces.append('<span class="llmbook-shapeflow__arrow">→</span>')
        current = _segment(_items(segment), current, names, flow)
    return flow


def _segment(
    items: list[tuple[str, str, str]],
    current: list[Dim] | None,
    names: dict[str, list[Dim]],
    flow: Flow,
) -> list[Dim] | None:
    label = ""
    if items and items[-1][0] == "text" and (m := _LABEL.match(items[-1][1])):
        label = m.group("label")
        items = items[:-1]
    if not items:
        raise ShapeError("an arrow leads nowhere: write a shape or a function name after →")
    first, rest = items[0], items[1:]
    if first[0] == "text" and first[1] not in names and not (rest and rest[0][0] == "op"):
        if current is not None and not rest:  # → SiLU →: element-wise, shape kept
            flow.pieces.append(f'<span class="llmbook-shapeflow__fn">{escape(first[1])}</span>')
            flow.notes.append(flow.say("fn", name=first[1]))
            return _named(current, label, names, flow)
        flow.pieces.append(f'<span class="llmbook-shapeflow__text">{escape(first[1])}</span>')
        if not rest or rest[0][0] != "tensor":
            raise ShapeError(
                f"{quote(repr(first[1]))} is not a tensor named earlier in this block and no shape follows it"
            )
        grouping = _grouping(first[1], flow.locale)
        if grouping and current is not None:
            _check_grouping(current, parse_shape(rest[0][2]), *grouping, flow)
        current, items = None, rest
    current = _expression(items, current, names, flow)
    return _named(current, label, names, flow)


def _named(shape: list[Dim], label: str, names: dict[str, list[Dim]], flow: Flow) -> list[Dim]:
    if label:
        names[label] = shape
        written = flow.say("label", label=label)
        flow.pieces.append(f'<span class="llmbook-shapeflow__label">{escape(written)}</span>')
    return shape


def _operand(item: tuple[str, str, str], names: dict[str, list[Dim]], flow: Flow) -> list[Dim]:
    kind, name, dims = item
    if kind == "tensor":
        shape = parse_shape(dims)
        if name:
            names[name] = shape
        flow.pieces.append(_chip(name, shape))
        return shape
    if kind == "text" and name in names:
        flow.pieces.append(_chip(name, None))
        return names[name]
    raise ShapeError(
        f"{quote(repr(name))} is not a shape: write name [dims] or a name given earlier in the block"
    )


def _expression(
    items: list[tuple[str, str, str]],
    current: list[Dim] | None,
    names: dict[str, list[Dim]],
    flow: Flow,
) -> list[Dim]:
    stated = _operand(items[0], names, flow)
    if current is not None:
        if stated != current:
            raise ShapeError(
                f"the line states {show(stated)} but the flow so far gives {show(current)}"
            )
        flow.notes.append(flow.say("result", shape=show(stated)))
        flow.checked = True
    shape = stated
    position = 1
    while position < len(items):
        op_item = items[position]
        if op_item[0] != "op" or position + 1 >= len(items):
            raise ShapeError(
                f"expected an operator (⊕ × ⊙ +) between shapes, found {quote(repr(op_item[1]))}"
            )
        symbol = op_item[1]
        flow.pieces.append(f'<span class="llmbook-shapeflow__op">{escape(symbol)}</span>')
        other = _operand(items[position + 1], names, flow)
        shape = _apply(symbol, shape, other, flow)
        flow.checked = True
        position += 2
    return shape


def _apply(symbol: str, left: list[Dim], right: list[Dim], flow: Flow) -> list[Dim]:
    kind = _OPS[symbol]
    if kind == "concat":
        shape, axis, sums = concat(left, right)
        flow.notes.append(flow.say("concat", axis=axis + 1, sums=sums))
        return shape
    join = flow.say("join")
    if kind == "matmul":
        shape, groupings = matmul(left, right)
        if groupings:
            flow.pieces.append(
                f'<span class="llmbook-shapeflow__gqa" title="{escape(flow.say("gqa_title"))}">'
                f"{escape(flow.say('gqa'))}</span>"
            )
        notes = [flow.say("inner", dim=left[-1].text), *_broadcasts(groupings, flow)]
        flow.notes.append(flow.say("matmul", op=symbol, notes=join.join(notes), shape=show(shape)))
        return shape
    shape, groupings = broadcast(left, right)
    notes = [flow.say("elementwise", op=symbol, shape=show(shape)), *_broadcasts(groupings, flow)]
    flow.notes.append(join.join(notes))
    return shape


def _broadcasts(groupings: list[Grouping], flow: Flow) -> list[str]:
    return [
        flow.say("broadcast", kv=g.kv.text, q=g.q.text, group=g.group.text if g.group else "?")
        for g in groupings
    ]


def _grouping(words: str, locale: Locale) -> tuple[str, str] | None:
    """A grouping note's N (a number word made a number) and how an error quotes the note, in
    any form `locale` reads (`every 4 Q heads … share`, `每 4 个 … 共用`)."""
    for pattern, quoted, numbers in locale.groupings:
        if found := pattern.search(words):
            n = found.group("n")
            return str(numbers.get(n.lower(), n)), quoted.format(n=n)
    return None


def _check_grouping(q: list[Dim], kv: list[Dim], n_text: str, quoted: str, flow: Flow) -> None:
    axes = [i for i, (x, y) in enumerate(zip(q, kv, strict=False)) if x != y]
    if len(q) != len(kv) or len(axes) != 1:
        raise ShapeError(
            f"grouping keeps every axis but the heads, yet {show(q)} and {show(kv)} differ elsewhere"
        )
    group, claimed = ratio(q[axes[0]], kv[axes[0]]), parse_dim(n_text)
    if (
        group is not None
        and group.value is not None
        and claimed.value is not None
        and group != claimed
    ):
        raise ShapeError(
            f"{quoted} claims groups of {n_text}, but {q[axes[0]].text} / {kv[axes[0]].text} = {group.text}"
        )
    flow.notes.append(
        flow.say(
            "grouping",
            q=q[axes[0]].text,
            kv=kv[axes[0]].text,
            group=group.text if group else n_text,
        )
    )
    flow.checked = True


class Shapeflow(Directive):
    NAME = "shapeflow"
    ARGUMENT = FORBIDDEN
    NESTED = ()
    CLASSES = ("llmbook-shapeflow__flow", "llmbook-tensor")

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Each tensor, operator and arrow apart by a space, as the site's chips are."""
        for flow in soup.select(".llmbook-shapeflow__flow, .llmbook-tensor"):
            for child in list(flow.children)[1:]:
                child.insert_before(" ")

    def flows(self, node: Block, ctx: Context) -> list[Flow]:
        names: dict[str, list[Dim]] = {}
        flows = []
        for number, line in node.text_lines():
            if not line.strip():
                continue
            try:
                flows.append(check_line(line, names, ctx.locale))
            except ShapeError as error:
                raise ctx.error(
                    number,
                    f"shapeflow line does not add up: {error}",
                    "correct the shapes: ⊕ adds sizes along the one axis that differs, × is a batched"
                    " matmul ([…, m, k] × [k, n]), → must lead to the shape computed so far",
                ) from None
        if not flows:
            raise ctx.error(
                node.line,
                "shapeflow block is empty",
                "write one line per flow, e.g. Q [B, H, S, d] × Kᵀ [B, H, d, S] → scores [B, H, S, S]",
            )
        return flows

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Its lines as written, in a text block (the build checked them; Jupyter draws no
        chips)."""
        return text_block([page.line(n) for n, line in node.text_lines() if line.strip()])

    def validate(self, node: Block, ctx: Context) -> None:
        self.flows(node, ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        rows = []
        for flow in self.flows(node, ctx):
            state = " is-checked" if flow.checked else ""
            notes = "".join(f"<li>{escape(note)}</li>" for note in flow.notes)
            badge = (
                f'<span class="llmbook-shapeflow__badge" title="{escape(ctx.ui("shapeflow_badge_title"))}">'
                f"{escape(ctx.ui('shapeflow_badge'))}</span>"
                if flow.checked
                else ""
            )
            rows.append(
                f'<div class="llmbook-shapeflow__line{state}"><div class="llmbook-shapeflow__flow">'
                f"{''.join(flow.pieces)}{badge}</div>"
                + (f'<ul class="llmbook-shapeflow__checks">{notes}</ul>' if notes else "")
                + "</div>"
            )
        return ctx.single(node, f'<div class="llmbook-shapeflow">{"".join(rows)}</div>')
