"""Validate stage: does a computed value round to the number the author wrote?

Precision is the written one: `2.1` is compared half-up at one decimal, `2.3e-10` at two significant
digits, `75%` is 0.75 at whole percents, `2,147,483,648` an integer with thousands separators, and a
vector `[0.365, 0.730]` element by element after a length check. A magnitude letter scales a
number and keeps its precision in written units: `524k` is 524 thousands (k or K = 10³, M = 10⁶,
B = 10⁹, T = 10¹²), so 523,600 rounds to it and 523,400 does not.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from llmbook.core.errors import quoted

__all__ = ["Scalar", "Written", "check", "computed_text", "parse_written", "rewrite", "to_plain"]

_SCALAR = re.compile(
    r"^(?P<sign>[-+\u2212]?)"
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:(?P<e>[eE])(?P<exp>[-+]?\d+))?"
    r"(?:(?P<pct>%)|(?P<mag>[kKMBT]))?$"
)
MAGNITUDES = {"k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


@dataclass(frozen=True)
class Scalar:
    """One written number: its value and how precisely it was written."""

    text: str
    value: Decimal  # as written, before `%` is applied (75% -> 75)
    kind: str  # "fixed" (decimals places), "percent" (decimals of the percentage), "sci" (digits)
    places: int
    grouped: bool = False
    exp_letter: str = "e"
    exp_plus: bool = False
    magnitude: str = ""  # "k", "K", "M", "B" or "T": the value is in those units

    def round(self, x: float | int) -> Decimal:
        """`x` rounded half-up to this number's written precision (in written units)."""
        d = Decimal(x) if isinstance(x, int) else Decimal(repr(float(x)))
        if self.kind == "percent":
            d *= 100
        if self.magnitude:
            d /= MAGNITUDES[self.magnitude]
        if self.kind == "sci":
            if d == 0:
                return Decimal(0)
            exp = d.adjusted()
            mant = d.scaleb(-exp).quantize(Decimal(1).scaleb(1 - self.places), ROUND_HALF_UP)
            if abs(mant) >= 10:  # 9.96 at two digits -> 10.0: renormalise
                exp, mant = exp + 1, (mant / 10).quantize(Decimal(1).scaleb(1 - self.places))
            return mant.scaleb(exp)
        return d.quantize(Decimal(1).scaleb(-self.places), ROUND_HALF_UP)

    def format(self, d: Decimal) -> str:
        """A rounded value in the written style."""
        if self.kind == "percent":
            return f"{d:f}%"
        if self.kind == "sci":
            exp = d.adjusted() if d else 0
            mant = d.scaleb(-exp).quantize(Decimal(1).scaleb(1 - self.places)) if d else Decimal(0)
            sign = "+" if self.exp_plus and exp >= 0 else ""
            return f"{mant:f}{self.exp_letter}{sign}{exp}"
        return (f"{d:,f}" if self.grouped else f"{d:f}") + self.magnitude


@dataclass(frozen=True)
class Written:
    """A written value: a scalar, or a vector when `vector` is set."""

    text: str
    items: tuple[Scalar, ...]
    vector: bool


def _parse_scalar(text: str) -> Scalar:
    match = _SCALAR.match(text.strip())
    if (
        not match
        or (match.group("pct") and match.group("e"))
        or (match.group("e") and "," in match.group("num"))
        or (match.group("e") and match.group("mag"))
    ):
        raise ValueError(text)
    sign = "-" if match.group("sign") in ("-", "\u2212") else ""
    num = match.group("num")
    digits = num.replace(",", "")
    value = Decimal(sign + digits)
    if match.group("e"):
        sig = len(digits.replace(".", "").lstrip("0")) or 1
        return Scalar(
            text.strip(),
            value.scaleb(int(match.group("exp"))),
            "sci",
            sig,
            exp_letter=match.group("e"),
            exp_plus=match.group("exp").startswith("+"),
        )
    places = len(digits.split(".")[1]) if "." in digits else 0
    kind = "percent" if match.group("pct") else "fixed"
    magnitude = match.group("mag") or ""
    return Scalar(text.strip(), value, kind, places, grouped="," in num, magnitude=magnitude)


def parse_written(text: str) -> Written:
    """Parse a written value; ValueError when it is not a number or a vector of numbers."""
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        parts = [p for p in stripped[1:-1].split(",")]
        if not stripped[1:-1].strip():
            raise ValueError(text)
        return Written(stripped, tuple(_parse_scalar(p) for p in parts), True)
    return Written(stripped, (_parse_scalar(stripped),), False)


def to_plain(value: object) -> object:
    """Numbers, tensors, arrays, lists of them -> int / float / nested lists; TypeError otherwise."""
    if isinstance(value, bool):
        raise TypeError("a bool")
    if type(value) in (int, float):
        return value
    if isinstance(value, (int, float)):  # numpy's float64: plain, so kept plans need no numpy
        return int(value) if isinstance(value, int) else float(value)
    if isinstance(value, (Decimal, Fraction)):
        return float(value)
    if hasattr(value, "tolist"):  # torch tensors, numpy arrays and scalars
        return to_plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    raise TypeError(f"a {type(value).__name__}")


def computed_text(value: object) -> str:
    """How a computed value appears in messages: 8 significant digits, integers in full."""
    if isinstance(value, list):
        return "[" + ", ".join(computed_text(v) for v in value) + "]"
    if isinstance(value, int):
        return str(value)
    return format(value, ".8g")


def _elements(count: int) -> str:
    return f"{count} element{'' if count == 1 else 's'}"


def _finite(x: object) -> bool:
    return isinstance(x, int) or (isinstance(x, float) and math.isfinite(x))


def check(written: Written, computed: object) -> str | None:
    """None when `computed` rounds to `written`; else the mismatch, worded for the author (each
    value quoted: a long vector is cut, `quoted`)."""
    text, shown = quoted(written.text), computed_text(computed)
    if written.vector != isinstance(computed, list):
        what = "a vector" if written.vector else "one number"
        got = f"a vector of {len(computed)}" if isinstance(computed, list) else "one number"
        return f"written {text} is {what}, computed {quoted(shown)} is {got}"
    values = computed if written.vector else [computed]
    if len(values) != len(written.items):
        return (
            f"written {text} has {_elements(len(written.items))}, "
            f"computed {quoted(shown)} has {len(values)}"
        )
    rounded, same = [], True
    for item, value in zip(written.items, values, strict=True):
        if not _finite(value):
            return f"written {text}, computed {quoted(shown)} (not a finite number)"
        r = item.round(value)
        rounded.append(item.format(r))
        same = same and r == item.value
    if same:
        return None
    shown_round = "[" + ", ".join(rounded) + "]" if written.vector else rounded[0]
    if shown_round == shown:  # exact at the written precision: nothing to add
        return f"written {text}, computed {quoted(shown)}"
    return f"written {text}, computed {quoted(shown)} (rounds to {quoted(shown_round)})"


def rewrite(written: Written, computed: object) -> str:
    """The written text updated to `computed` at the same precision (for `nox -s update_numbers`)."""
    values = computed if written.vector else [computed]
    if len(values) != len(written.items) or not all(_finite(v) for v in values):
        raise ValueError(
            f"cannot rewrite {quoted(written.text)} to {quoted(computed_text(computed))}"
        )
    parts = [item.format(item.round(v)) for item, v in zip(written.items, values, strict=True)]
    return "[" + ", ".join(parts) + "]" if written.vector else parts[0]
