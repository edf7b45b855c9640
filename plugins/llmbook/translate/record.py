"""What a translation was made from, kept in its front matter (a notebook's: its metadata
`llmbook.translation`), and what changed in its source since.

    translation:
      source: ch10-modern-llm.md
      format: 2
      digest: 646608b075b7
      sections:
      - {heading: '## 10.1 KV Cache {#kv-cache}', code: e3b0c442, numbers: …, parts: …, prose: …}

`python -m llmbook.translate mark` writes it; the build and `status` compare it with the source
now. Each change is named: a section added, removed or renamed, or in one section its code, its
bound numbers (their expressions: a value the source writes is checked against its computation,
not against the translation), its parts (labels, directives, quiz answers, citations, terms) or
its prose. A record of an older format (1: its numbers' digests held the written values) is
compared on everything but the numbers, and `mark` writes it anew.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import yaml

from llmbook.translate.fingerprint import GROUPS, Fingerprint, heading_id

__all__ = ["FORMAT", "Change", "changes", "make_record", "with_record"]

RECORD_KEY = "translation"
FORMAT = 2  # the record's format: what its digests digest (a record without it: 1)
_GROUP_NAMES = {
    "code": "code changed",
    "numbers": "numbers changed",
    "parts": "parts changed (labels, directives, quiz answers, citations or terms)",
    "prose": "prose changed",
}


@dataclass(frozen=True)
class Change:
    kind: str  # "added", "removed", "renamed", "code", "numbers", "parts", "prose", "unmarked"
    text: str  # `section added: "## 10.9 …"`

    @property
    def prose_only(self) -> bool:
        return self.kind == "prose"


def make_record(source: Fingerprint, source_name: str) -> dict[str, Any]:
    return {
        "source": source_name,
        "format": FORMAT,
        "digest": source.digest,
        "sections": [
            {"heading": s.heading, **{g: s.digest(g) for g in (*GROUPS, "prose")}}
            for s in source.sections
        ],
    }


def changes(record: Any, source: Fingerprint) -> list[Change]:
    """What changed in the source since `record` (a translation's front matter); [] when
    nothing did; one `unmarked` change when the record is missing or unreadable."""
    if not isinstance(record, dict) or not isinstance(record.get("sections"), list):
        return [Change("unmarked", "the translation records no source (it was never marked)")]
    current = record.get("format") == FORMAT
    if current and record.get("digest") == source.digest:
        return []
    groups = (
        (*GROUPS, "prose") if current else tuple(g for g in (*GROUPS, "prose") if g != "numbers")
    )
    old = [s for s in record["sections"] if isinstance(s, dict)]
    new = [
        {"heading": s.heading, **{g: s.digest(g) for g in (*GROUPS, "prose")}, "at": s.line}
        for s in source.sections
    ]
    found: list[Change] = []
    matcher = SequenceMatcher(a=[_key(s) for s in old], b=[_key(s) for s in new], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for a, b in zip(old[i1:i2], new[j1:j2], strict=True):
                found += _section_changes(a, b, source, groups)
            continue
        found += [Change("removed", f"section removed: {_title(a)}") for a in old[i1:i2]]
        found += [
            Change("added", f"section added: {_title(b)} ({source.location(b['at'])})")
            for b in new[j1:j2]
        ]
    if not found and current:  # the digest moved, no section did (the page's start, say)
        found.append(Change("prose", "prose changed"))
    return found


def _section_changes(
    a: dict, b: dict, source: Fingerprint, groups: tuple[str, ...]
) -> list[Change]:
    found, where = [], source.location(b["at"])
    if a.get("heading") != b["heading"]:
        found.append(Change("renamed", f"section renamed: {_title(a)} → {_title(b)} ({where})"))
    for group in groups:
        if a.get(group) != b[group]:
            found.append(Change(group, f"{_GROUP_NAMES[group]} in {_title(b)} ({where})"))
    return found


def _key(section: dict) -> str:
    """A section's identity across edits: its explicit id, else its heading."""
    heading = str(section.get("heading") or "")
    found = heading_id(heading)
    return "#" + found if found else heading


def _title(section: dict) -> str:
    return '"' + (str(section.get("heading") or "") or "(the page's start)") + '"'


# -- writing the record ----------------------------------------------------------------------

_FENCE = re.compile(r"^-{3}\s*$")


def with_record(text: str, record: dict[str, Any], *, notebook: bool = False) -> str:
    """The translation's file with `record` as its front matter's `translation` (other keys
    kept, in their order); a notebook's in its metadata."""
    if notebook:
        data = json.loads(text)
        data.setdefault("metadata", {}).setdefault("llmbook", {})[RECORD_KEY] = record
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.replace("\r\n", "\n").split("\n")
    new = _yaml_lines(record)
    if lines and _FENCE.match(lines[0]):
        end = next(
            (i for i in range(1, len(lines)) if re.match(r"^(-{3}|\.{3})\s*$", lines[i])), None
        )
        if end is not None:
            kept = _without_key(lines[1:end], RECORD_KEY)
            lines = ["---", *kept, *new, *lines[end:]]
            return newline.join(lines)
    return newline.join(["---", *new, "---", *lines])


def _yaml_lines(record: dict[str, Any]) -> list[str]:
    """The record as YAML, one line per section (JSON strings are YAML's double-quoted ones)."""
    lines = [f"{RECORD_KEY}:"]
    keys = ("source", "format", "digest")
    lines += [f"  {k}: {json.dumps(record[k], ensure_ascii=False)}" for k in keys]
    lines.append("  sections:")
    for section in record["sections"]:
        fields = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in section.items())
        lines.append(f"  - {{{fields}}}")
    assert yaml.safe_load("\n".join(lines))[RECORD_KEY] == record
    return lines


def _without_key(lines: list[str], name: str) -> list[str]:
    """Front matter lines without the top-level key `name` and its value (the lines under it)."""
    kept, skipping = [], False
    for line in lines:
        if line and line[0] not in " \t-#":
            skipping = line.split(":", 1)[0].strip() == name
        if not skipping:
            kept.append(line)
    return kept
