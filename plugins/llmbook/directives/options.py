"""A directive's typed options, as pymdown-extensions' blocks declare them: `OPTIONS = {name:
(default, validator)}`, written after the title in braces, `:::exercise TITLE {#ex-kv}` (`#x`
is the option `id`; `key=value` any other). A validator turns the text into its value or raises
ValueError saying what it expects."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["ATTRS", "Validator", "a_choice", "a_flag", "an_id", "split_options"]

Validator = Callable[[str], Any]
# the argument's trailing `{…}`
ATTRS = re.compile(r"\s*\{(?P<body>[^{}]*)\}\s*$")
_ID = re.compile(r"[A-Za-z][\w:-]*")


def an_id(text: str) -> str:
    """An anchor id, as a reference links it: a letter, then letters, digits, `-`, `_`, `:`."""
    if not _ID.fullmatch(text):
        raise ValueError("an id is a letter, then letters, digits, -, _ or :")
    return text


def a_flag(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError("it is true or false")
    return text == "true"


def a_choice(*choices: str) -> Validator:
    def choose(text: str) -> str:
        if text not in choices:
            raise ValueError(f"it is one of {', '.join(choices)}")
        return text

    return choose


def split_options(argument: str) -> tuple[str, list[tuple[str, str]]]:
    """The title, and the (name, text) of each option written in its trailing braces."""
    found = ATTRS.search(argument)
    if found is None:
        return argument, []
    pairs = []
    for item in found.group("body").split():
        if item.startswith("#"):
            pairs.append(("id", item[1:]))
        else:
            name, _, text = item.partition("=")
            pairs.append((name, text.strip("\"'")))
    return argument[: found.start()].strip(), pairs
