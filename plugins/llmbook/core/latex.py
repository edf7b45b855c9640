"""One formula, LaTeX → MathML: latex2mathml, plus the fixes its output needs to look right in browsers.

latex2mathml writes what MathML allows, but browsers (MathML Core: Chromium, Firefox, Safari) then
render some of it unlike TeX. Each fix below names what TeX does and what we write instead.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

from llmbook.core.store import Store, key, llmbook_hash, version
from llmbook.core.store_namespaces import FORMULAS

__all__ = ["FormulaError", "kept_mathml", "latex_to_mathml"]

_NS = "{http://www.w3.org/1998/Math/MathML}"

# Big operators: TeX puts their limits under/over in display style and beside them inline. MathML
# Core does the same for <munder>/<mover> whose base has movablelimits="true"; <msub> never does.
_BIG_OPERATORS = set("∑∏∐⋂⋃⨀⨁⨂⨄⨆⋀⋁") | set("lim max min sup inf det Pr gcd argmax argmin".split())
# TeX's ordinary symbols that latex2mathml writes as <mo>, which browsers space like operators.
_ORDINARY = {"⊤": "normal", "⊥": "normal", "∞": "normal", "∇": None, "∂": None, "′": None}
_ORDINARY.update(dict.fromkeys("…⋯⋮⋱"))  # \dots: an operand, so the `+` after it stays binary
# latex2mathml's <mi>, fixed to the operator TeX means.
_AS_OPERATOR = {"~": "∼", ":": ":", "⟨": "⟨", "⟩": "⟩"}
# Function names (\sin, \log, …): TeX puts a thin space between one and an ordinary argument.
_FUNCTIONS = set(
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln lg exp arg dim ker hom deg".split()
)
# Named widths from MathML 3 that MathML Core (and so Chromium) dropped; TeX's mu = 1/18 em.
_NAMED_SPACES = {
    name: f"{sign}{eighteenths / 18:.4f}em"
    for eighteenths, base in enumerate(
        ("", "veryverythin", "verythin", "thin", "medium", "thick", "verythick", "veryverythick")
    )
    if base
    for sign, name in (("", f"{base}mathspace"), ("-", f"negative{base}mathspace"))
}
# mathvariant values other than "normal" are not in MathML Core (Chromium ignores them): write the
# Unicode mathematical letters instead. (first capital, first small, first digit, exceptions)
_ALPHABETS = {
    "bold": (0x1D400, 0x1D41A, 0x1D7CE, {}),
    "italic": (0x1D434, 0x1D44E, None, {"h": "ℎ"}),
    "bold-italic": (0x1D468, 0x1D482, None, {}),
    "script": (0x1D49C, 0x1D4B6, None, dict(zip("BEFHILMRego", "ℬℰℱℋℐℒℳℛℯℊℴ", strict=True))),
    "fraktur": (0x1D504, 0x1D51E, None, dict(zip("CHIRZ", "ℭℌℑℜℨ", strict=True))),
    "double-struck": (0x1D538, 0x1D552, 0x1D7D8, dict(zip("CHNPQRZ", "ℂℍℕℙℚℝℤ", strict=True))),
    "sans-serif": (0x1D5A0, 0x1D5BA, 0x1D7E2, {}),
    "monospace": (0x1D670, 0x1D68A, 0x1D7F6, {}),
}
_TEXT_ESCAPES = {"\\_": "_", "\\%": "%", "\\&": "&", "\\#": "#", "\\$": "$", "\\{": "{", "\\}": "}"}
_ENVIRONMENTS = {"aligned": "align*", "gathered": "gather*", "alignedat": "align*"}
_UNKNOWN_COMMAND = re.compile(r"^\\[A-Za-z]+$")
_COMMENT = re.compile(r"(?<!\\)%")


class FormulaError(ValueError):
    """A formula latex2mathml cannot convert, or converts into something wrong; says why."""


def kept_mathml(latex: str, *, display: bool, store: Store | None = None) -> str:
    """`latex_to_mathml`, its results kept in the store's "formulas" namespace: an edited page
    converts only its new formulas. A formula that does not convert is never kept."""
    if store is None or not store.enabled:
        return latex_to_mathml(latex, display=display)
    memo = store.memo(FORMULAS, key(latex, display, version("latex2mathml"), llmbook_hash()))
    kept = memo.get()
    if kept is None:
        kept = latex_to_mathml(latex, display=display)
        memo.put(kept)
    return kept


@functools.lru_cache(maxsize=4096)  # a pure function: `mkdocs serve` rebuilds reuse formulas
def latex_to_mathml(latex: str, *, display: bool) -> str:
    """The MathML of one formula (`display` for `$$…$$`); FormulaError when it does not convert."""
    if _COMMENT.search(latex):
        raise FormulaError(
            "`%` starts a LaTeX comment and hides the rest of the formula; write `\\%`"
        )
    for env, replacement in _ENVIRONMENTS.items():
        # latex2mathml 3.81 reads aligned/gathered as one row with literal `&`; align* is a table.
        latex = latex.replace(f"\\begin{{{env}}}", f"\\begin{{{replacement}}}")
        latex = latex.replace(f"\\end{{{env}}}", f"\\end{{{replacement}}}")
    latex = re.sub(r"\\operatorname\*?\{([^{}]*)\}", _operatorname, latex)
    try:
        raw = convert(latex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises a dozen exception types, several not its own
        detail = str(exc) or type(exc).__name__
        raise FormulaError(
            f"latex2mathml cannot convert it ({type(exc).__name__}: {detail})"
        ) from exc
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:  # latex2mathml wrote something that is not XML
        raise FormulaError(f"latex2mathml produced invalid MathML ({exc})") from exc
    _strip_namespace(root)
    _fix(root)
    root.set("xmlns", "http://www.w3.org/1998/Math/MathML")
    return ET.tostring(root, encoding="unicode")


def _operatorname(match: re.Match[str]) -> str:
    # latex2mathml writes an empty <mo/> and italic letters for \operatorname; upright text is right.
    name = match.group(1).replace("\\,", "\u2009").replace("\\!", "")
    return f"\\text{{{name}}}"


def _strip_namespace(root: ET.Element) -> None:
    for element in root.iter():
        if element.tag.startswith(_NS):
            element.tag = element.tag[len(_NS) :]


def _fix(root: ET.Element) -> None:
    for element in list(root.iter()):
        text = element.text or ""
        if element.tag in {"mi", "mo", "mn"} and _UNKNOWN_COMMAND.match(text):
            raise FormulaError(f"unknown command `{text}`")
        if element.tag == "mtext":
            _fix_text(element)
        elif element.tag == "mspace" and element.get("width") in _NAMED_SPACES:
            element.set("width", _NAMED_SPACES[element.get("width", "")])
        elif element.tag in {"mi", "mn"} and element.get("mathvariant") in _ALPHABETS:
            element.text = _math_letters(text, element.attrib.pop("mathvariant"))
        elif element.tag == "mi" and text in _AS_OPERATOR:
            element.tag, element.text = "mo", _AS_OPERATOR[text]
            if text == ":":  # TeX: a relation, a thick space (5mu) on each side; <mi> has none
                element.set("lspace", "0.2778em")
                element.set("rspace", "0.2778em")
        elif element.tag == "mo" and text in _ORDINARY and not element.attrib:
            element.tag = "mi"
            if _ORDINARY[text]:
                element.set("mathvariant", _ORDINARY[text])
        elif element.tag == "mrow" and len(element) == 1 and element[0].tag == "mo":
            element[0].set("lspace", "0")  # TeX: `{,}` or `{=}` is an ordinary symbol, unspaced
            element[0].set("rspace", "0")
        elif element.tag == "mo" and text == "/":
            element.set("lspace", "0")  # TeX: `/` is ordinary, no space around it
            element.set("rspace", "0")
    for parent in list(root.iter()):
        _fix_primes(parent)
        _fix_limits(parent)
        _fix_children(parent)
        _tighten_scripts(parent)


def _fix_text(element: ET.Element) -> None:
    text = element.text or ""
    for escaped, plain in _TEXT_ESCAPES.items():
        text = text.replace(escaped, plain)  # inside \text, `\_` is an underscore, not `\_`
    # Browsers trim a token's edge spaces; TeX keeps them (`x \text{ if } y`).
    stripped = text.strip(" ")
    if stripped != text:
        lead, trail = len(text) - len(text.lstrip(" ")), len(text) - len(text.rstrip(" "))
        text = "\u00a0" * lead + stripped + "\u00a0" * trail
    element.text = text


def _math_letters(text: str, variant: str) -> str:
    capital, small, digit, exceptions = _ALPHABETS[variant]

    def letter(char: str) -> str:
        if char in exceptions:
            return exceptions[char]
        if "A" <= char <= "Z":
            return chr(capital + ord(char) - ord("A"))
        if "a" <= char <= "z":
            return chr(small + ord(char) - ord("a"))
        if digit is not None and "0" <= char <= "9":
            return chr(digit + ord(char) - ord("0"))
        return char

    return "".join(letter(char) for char in text)


def _fix_primes(element: ET.Element) -> None:
    """`x'`: the prime glyph (U+2032) is already drawn raised and small; as a superscript it shrinks
    and rises a second time. Set it after its base at full size, as TeX's \\prime looks."""
    scripts = list(element)
    if element.tag == "msup" and len(scripts) == 2 and _prime(scripts[1]) is not None:
        element.remove(scripts[1])
        element.append(_prime(scripts[1]))
        element.tag = "mrow"
    elif element.tag == "msubsup" and len(scripts) == 3 and _prime(scripts[2]) is not None:
        base, _sub, script = scripts
        element.remove(base)
        element.remove(script)
        primed = ET.Element("mrow")
        primed.extend([base, _prime(script)])
        element.tag = "msub"
        element.insert(0, primed)


def _prime(script: ET.Element) -> ET.Element | None:
    """A plain <mi> holding the primes `script` consists of (′ ″ ‴), or None."""
    parts = list(script) if script.tag == "mrow" else [script]
    if not parts or any(part.tag not in {"mi", "mo"} or len(part) for part in parts):
        return None
    text = "".join(part.text or "" for part in parts)
    if text and set(text) <= set("′″‴⁗"):
        prime = ET.Element("mi")
        prime.text = text
        return prime
    return None


def _fix_limits(element: ET.Element) -> None:
    """`\\sum_i` in display style: the index under the sign, as TeX sets it."""
    scripted = {"msub": "munder", "msup": "mover", "msubsup": "munderover"}
    if element.tag not in {*scripted, *scripted.values()} or len(element) < 2:
        return
    base = element[0]
    if base.tag == "mo" and (base.text or "") in _BIG_OPERATORS:
        element.tag = scripted.get(element.tag, element.tag)
        base.set("movablelimits", "true")


def _tighten_scripts(element: ET.Element) -> None:
    """TeX sets no operator spaces in sub- and superscripts (`x_{t+1}`); browsers keep them."""
    if element.tag not in {"msub", "msup", "msubsup", "munder", "mover", "munderover"}:
        return
    for script in list(element)[1:]:
        for operator in script.iter("mo"):
            operator.attrib.setdefault("lspace", "0")
            operator.attrib.setdefault("rspace", "0")


def _fix_children(parent: ET.Element) -> None:
    children = list(parent)
    for index, child in enumerate(children):
        text = child.text or ""
        previous = children[index - 1] if index else None
        following = children[index + 1] if index + 1 < len(children) else None
        if child.tag == "mo" and text in {"−", "+", "±"} and _starts_operand(previous):
            # TeX: a sign after an opening bracket, a comma or a relation is unary, no spaces.
            child.set("form", "prefix")
            child.set("lspace", "0")
            child.set("rspace", "0")
        elif child.tag in {"mi", "mo"} and len(text) > 1 and text.isalpha() and not child.attrib:
            if child.tag == "mo" and text not in _BIG_OPERATORS and text not in {"mod"}:
                child.tag = "mi"  # \operatorname-like words: upright names, not spaced operators
            if (text in _FUNCTIONS or child.tag == "mi") and _is_ordinary(following):
                space = ET.Element("mspace", {"width": "0.1667em"})  # TeX: Op then Ord, 3mu
                parent.insert(list(parent).index(child) + 1, space)


def _starts_operand(previous: ET.Element | None) -> bool:
    if previous is None:
        return True
    if previous.tag != "mo":
        return False
    closing = previous.get("form") == "postfix" or (previous.text or "") in {
        ")",
        "]",
        "}",
        "|",
        "′",
        "!",
    }
    return not closing


def _is_ordinary(element: ET.Element | None) -> bool:
    if element is None:
        return False
    if element.tag in {"mi", "mn"}:
        return True
    return (
        element.tag in {"msub", "msup", "msubsup"}
        and len(element) > 0
        and element[0].tag in {"mi", "mn"}
    )
