"""The same book written as other editors save it: CRLF line ends, tab indentation, and trailing
whitespace (blank lines of spaces, a space after prose lines). Python-Markdown reads each as the
original (tabs expand to 4 columns), so each must build into the same site.

`rewrite(folder, variant)` rewrites every Markdown page under `folder` and the cells of every
notebook in place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["VARIANTS", "rewrite"]

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def tabs(text: str) -> str:
    """Each leading run of four spaces as a tab (expanded back to four columns)."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        out.append("\t" * (indent // 4) + " " * (indent % 4) + body)
    return "\n".join(out)


def trailing(text: str) -> str:
    """Blank lines as eight spaces; a space after every prose line (outside fences), where
    Markdown ignores it (two would be a line break)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip():
            out.append(" " * 8)
        elif fenced or _FENCE.match(line) or line.endswith(" "):
            out.append(line)
        else:
            out.append(line + " ")
    return "\n".join(out)


VARIANTS: dict[str, Callable[[str], str]] = {"crlf": crlf, "tabs": tabs, "trailing": trailing}


def rewrite(folder: Path, variant: str) -> None:
    change = VARIANTS[variant]
    for path in folder.rglob("*.md"):
        path.write_bytes(change(path.read_text(encoding="utf-8")).encode("utf-8"))
    for path in folder.rglob("*.ipynb"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for cell in data["cells"]:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = change(source)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
