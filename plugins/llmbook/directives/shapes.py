"""Symbolic tensor dimensions for `:::shapeflow`: `t−1`, `d_head`, `H_q/g`, `2d`, `8` …

A dimension is a polynomial (Laurent monomials, rational coefficients) over named sizes, so
`t−1 + 1` equals `t` exactly and `H_q/H_kv` is a ratio of two symbols. `−` and `-` are the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from llmbook.core.errors import quoted

__all__ = [
    "Dim",
    "Grouping",
    "ShapeError",
    "broadcast",
    "concat",
    "matmul",
    "parse_dim",
    "parse_shape",
]


class ShapeError(ValueError):
    """A shape that does not parse or does not add up (the directive adds file and line)."""


Monomial = tuple[tuple[str, int], ...]  # sorted (symbol, exponent) pairs; () is the constant


@dataclass(frozen=True)
class Dim:
    text: str  # as written (or computed, for results)
    terms: tuple[tuple[Monomial, Fraction], ...]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dim) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(self.terms)

    @property
    def value(self) -> Fraction | None:
        """The number, when the dimension is a plain number."""
        if not self.terms:
            return Fraction(0)
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def symbol(self) -> str | None:
        """The name, when the dimension is one bare symbol (`H_kv`)."""
        if len(self.terms) == 1 and self.terms[0][1] == 1 and len(self.terms[0][0]) == 1:
            name, power = self.terms[0][0][0]
            return name if power == 1 else None
        return None


@dataclass(frozen=True)
class Grouping:
    """GQA where leading dims broadcast: `kv` K/V heads serve `q` query heads, `group` (q / kv;
    None when that is no single term) each."""

    q: Dim
    kv: Dim
    group: Dim | None


def _make(poly: dict[Monomial, Fraction], text: str | None = None) -> Dim:
    terms = tuple(sorted((m, c) for m, c in poly.items() if c != 0))
    return Dim(text if text is not None else _format(terms), terms)


def _format(terms: tuple[tuple[Monomial, Fraction], ...]) -> str:
    """Readable text of a computed size: `t`, `t − 1`, `H_q/H_kv`, `2d`, `8/3·d`."""
    if not terms:
        return "0"
    pieces = []
    for mono, coef in sorted(terms, key=lambda t: (t[0] == (), t[0])):
        up = "·".join(n if p == 1 else f"{n}^{p}" for n, p in mono if p > 0)
        down = "·".join(n if p == -1 else f"{n}^{-p}" for n, p in mono if p < 0)
        names = (up or ("1" if down else "")) + (f"/{down}" if down else "")
        size = abs(coef)
        if not names:
            body = str(size)
        elif size == 1:
            body = names
        else:
            body = f"{size}{names}" if size.denominator == 1 else f"{size}·{names}"
        pieces.append(("−" if coef < 0 else "+", body))
    first_sign, first = pieces[0]
    out = ("−" if first_sign == "−" else "") + first
    return out + "".join(f" {sign} {body}" for sign, body in pieces[1:])


def add(a: Dim, b: Dim) -> Dim:
    poly = dict(a.terms)
    for mono, coef in b.terms:
        poly[mono] = poly.get(mono, Fraction(0)) + coef
    return _make(poly)


def _mul(a: dict[Monomial, Fraction], b: dict[Monomial, Fraction]) -> dict[Monomial, Fraction]:
    out: dict[Monomial, Fraction] = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            powers = dict(ma)
            for name, power in mb:
                powers[name] = powers.get(name, 0) + power
            mono = tuple(sorted((n, p) for n, p in powers.items() if p))
            out[mono] = out.get(mono, Fraction(0)) + ca * cb
    return out


def ratio(a: Dim, b: Dim) -> Dim | None:
    """a / b when b is a single term (a number or a monomial), else None."""
    if len(b.terms) != 1 or b.terms[0][1] == 0:
        return None
    mono, coef = b.terms[0]
    inverse = {tuple((n, -p) for n, p in mono): 1 / coef}
    return _make(_mul(dict(a.terms), inverse))


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[^\W\d][\w′']*)|(?P<op>[-+*/()]))")


def parse_dim(text: str) -> Dim:
    """`t−1`, `2d`, `d_model/h`, `(S+1)*2` … → Dim; ShapeError when it is not such an expression."""
    source = text.strip()
    normal = source.replace("−", "-").replace("–", "-").replace("×", "*").replace("·", "*")
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(normal):
        match = _TOKEN.match(normal, pos)
        if match is None or match.end() == pos:
            if normal[pos:].strip() == "":
                break
            raise ShapeError(
                f"dimension {quoted(repr(source))} is not a size expression (names, numbers, + − × /)"
            )
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    if not tokens:
        raise ShapeError("empty dimension")
    parser = _Parser(tokens, source)
    poly = parser.sum()
    if parser.pos != len(tokens):
        raise ShapeError(
            f"dimension {quoted(repr(source))} is not a size expression (names, numbers, + − × /)"
        )
    return _make(poly, source)


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], source: str) -> None:
        self.tokens, self.source, self.pos = tokens, source, 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def sum(self) -> dict[Monomial, Fraction]:
        sign = 1
        if self.peek() == ("op", "-"):
            self.pos, sign = self.pos + 1, -1
        poly = {m: c * sign for m, c in self.product().items()}
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.tokens[self.pos][1]
            self.pos += 1
            for mono, coef in self.product().items():
                poly[mono] = poly.get(mono, Fraction(0)) + (coef if op == "+" else -coef)
        return poly

    def product(self) -> dict[Monomial, Fraction]:
        poly = self.factor()
        while True:
            kind, value = self.peek()
            if (kind, value) == ("op", "*"):
                self.pos += 1
                poly = _mul(poly, self.factor())
            elif (kind, value) == ("op", "/"):
                self.pos += 1
                divisor = _make(self.factor())
                inverse = ratio(_make({(): Fraction(1)}), divisor)
                if inverse is None:
                    raise ShapeError(f"dimension {quoted(repr(self.source))} divides by a sum")
                poly = _mul(poly, dict(inverse.terms))
            elif kind in ("num", "name") or (kind, value) == ("op", "("):
                poly = _mul(poly, self.factor())  # implicit product: `2d`, `8/3 d`
            else:
                return poly

    def factor(self) -> dict[Monomial, Fraction]:
        kind, value = self.peek()
        self.pos += 1
        if kind == "num":
            return {(): Fraction(value)}
        if kind == "name":
            return {((value, 1),): Fraction(1)}
        if (kind, value) == ("op", "("):
            poly = self.sum()
            if self.peek() != ("op", ")"):
                raise ShapeError(f"dimension {quoted(repr(self.source))} has an unclosed '('")
            self.pos += 1
            return poly
        raise ShapeError(
            f"dimension {quoted(repr(self.source))} is not a size expression (names, numbers, + − × /)"
        )


def parse_shape(text: str) -> list[Dim]:
    """`B, H_kv, t−1, d_head` (the inside of the brackets) → dims."""
    if not text.strip():
        return []
    return [parse_dim(part) for part in re.split(r"[,，]", text)]


def show(dims: list[Dim]) -> str:
    return "[" + ", ".join(d.text for d in dims) + "]"


def concat(a: list[Dim], b: list[Dim]) -> tuple[list[Dim], int, str]:
    """⊕: the axis where a and b differ, sizes added. Returns (shape, axis, 'x + y = z')."""
    if len(a) != len(b):
        raise ShapeError(f"⊕ joins tensors of equal rank, got {show(a)} and {show(b)}")
    axes = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(axes) != 1:
        where = "no axis" if not axes else "axes " + ", ".join(str(i + 1) for i in axes)
        raise ShapeError(
            f"⊕ concatenates along exactly one axis, but {show(a)} and {show(b)} differ in {where}"
        )
    axis = axes[0]
    total = add(a[axis], b[axis])
    out = list(a)
    out[axis] = total
    return out, axis, f"{a[axis].text} + {b[axis].text} = {total.text}"


def _is_q(dim: Dim) -> bool:
    return bool(dim.symbol and re.fullmatch(r"(?i)[hn]_?\{?q\}?(_?heads)?", dim.symbol))


def _is_kv(dim: Dim) -> bool:
    return bool(dim.symbol and re.fullmatch(r"(?i)[hn]_?\{?kv\}?(_?heads)?", dim.symbol))


def broadcast(
    a: list[Dim],
    b: list[Dim],
    *,
    heads_axis: int | None = None,
    whole: tuple[list[Dim], list[Dim]] | None = None,
) -> tuple[list[Dim], list[Grouping]]:
    """Leading dims broadcast: equal, or one is 1, or (at the heads axis) Q heads over KV heads
    (GQA, each such axis a Grouping)."""
    groupings: list[Grouping] = []
    out: list[Dim] = []
    width = max(len(a), len(b))
    for back in range(width, 0, -1):
        x = a[-back] if back <= len(a) else None
        y = b[-back] if back <= len(b) else None
        if x is None or y is None or x == y:
            out.append(x if x is not None else y)  # type: ignore[arg-type]
        elif y.value == 1:
            out.append(x)
        elif x.value == 1:
            out.append(y)
        elif heads_axis == -back and _gqa(x, y):
            out.append(x)
            groupings.append(Grouping(q=x, kv=y, group=ratio(x, y)))
        else:
            left, right = whole or (a, b)
            raise ShapeError(
                f"cannot broadcast {x.text} against {y.text} in {show(left)} and {show(right)}"
            )
    return out, groupings


def _gqa(q: Dim, kv: Dim) -> bool:
    if _is_q(q) and _is_kv(kv):
        return True
    qv, kvv = q.value, kv.value
    return bool(
        qv and kvv and qv.denominator == kvv.denominator == 1 and qv > kvv and qv % kvv == 0
    )


def matmul(a: list[Dim], b: list[Dim]) -> tuple[list[Dim], list[Grouping]]:
    """×: [..., m, k] × [..., k, n] → [..., m, n]; a 2-D right side is a weight shared by all rows.
    Returns the shape and the GQA groupings of its leading dims (the inner dims agree: a[-1])."""
    if len(a) < 2 or len(b) < 2:
        raise ShapeError(f"× multiplies matrices (2 dims or more), got {show(a)} and {show(b)}")
    if a[-1] != b[-2]:
        raise ShapeError(
            f"× needs the inner dims to agree, but {show(a)} ends in {a[-1].text} and {show(b)} has {b[-2].text} second to last"
        )
    batch, groupings = broadcast(a[:-2], b[:-2], heads_axis=-1, whole=(a, b))
    return [*batch, a[-2], b[-1]], groupings
