"""A translation checked against its source, section by section: the same headings (level,
section number, explicit id), and in each section the same code (only comments may change), the
same bound numbers (their expressions: the number each writes is checked against the computed
value, a drift at the translation's line), labelled parts, directives, quiz answers, citations
and terms. Each missing or extra one is an error at the translation's line, naming the source's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from llmbook.core.errors import AuthorError, quoted
from llmbook.translate.fingerprint import KINDS, Fingerprint, Mark, Section

__all__ = ["Correspondence", "correspond"]


@dataclass
class Correspondence:
    """The sections paired (source, translation) and what does not correspond."""

    pairs: list[tuple[Section, Section]] = field(default_factory=list)
    errors: list[AuthorError] = field(default_factory=list)


def correspond(translation: Fingerprint, source: Fingerprint) -> Correspondence:
    found = Correspondence()
    ours, theirs = translation.sections, source.sections
    matcher = SequenceMatcher(a=[s.key for s in theirs], b=[t.key for t in ours], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for s, t in zip(theirs[i1:i2], ours[j1:j2], strict=True):
                if s.key != t.key:
                    found.errors.append(_heading_error(translation.src, t, source, s))
                found.pairs.append((s, t))
            continue
        # Where it goes: before the translation's next section, else after its last one.
        if j1 < len(ours):
            here, where = ours[j1].line, "here (before this line)"
        else:
            here, where = (
                (ours[-1].line, "after this section, at the page's end") if ours else (1, "here")
            )
        for s in theirs[i1:i2]:
            found.errors.append(
                AuthorError(
                    translation.src,
                    here,
                    f"the source's section {_quoted(s.title)} ({source.location(s.line)}) "
                    "has no counterpart in the translation",
                    f"translate it {where}, with the source's heading level, section number "
                    "and {#id}",
                )
            )
        for t in ours[j1:j2]:
            found.errors.append(
                AuthorError(
                    translation.src,
                    t.line,
                    f"the section {_quoted(t.title)} has no counterpart in the source {source.src}",
                    "a translation has its source's sections only: remove it, or give it the "
                    "heading level, number and {#id} of the source's section it translates",
                )
            )
    for s, t in found.pairs:
        found.errors += _code(translation.src, t, source, s)
        for kind in KINDS:
            if kind not in ("code", "output"):
                found.errors += _marks(kind, translation.src, t, source, s)
    found.errors.sort(key=lambda e: e.line)
    return found


def _heading_error(src: str, t: Section, source: Fingerprint, s: Section) -> AuthorError:
    differ = []
    if t.level != s.level:
        differ.append(f"level {t.level}, the source's {s.level}")
    if t.number != s.number:
        differ.append(f"section number {t.number or '(none)'}, the source's {s.number or '(none)'}")
    if t.id != s.id:
        differ.append(
            f"id {'#' + t.id if t.id else '(none)'}, the source's {'#' + s.id if s.id else '(none)'}"
        )
    return AuthorError(
        src,
        t.line,
        f"this heading does not match its source's {_quoted(s.title)} "
        f"({source.location(s.line)}): {'; '.join(differ)}",
        "give it the source's heading level, section number and {#id}; translate only its text",
    )


def _code(src: str, t: Section, source: Fingerprint, s: Section) -> list[AuthorError]:
    """The section's code, block by block in order (results are the source's, by position)."""
    ours, theirs = t.of("code", "output"), s.of("code", "output")
    errors = []
    matcher = SequenceMatcher(
        a=[m.value for m in theirs], b=[m.value for m in ours], autojunk=False
    )
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for a, b in zip(theirs[i1:i2], ours[j1:j2], strict=True):
                errors.append(
                    AuthorError(
                        src,
                        b.line,
                        f"this {KINDS[b.kind]} differs from its source's "
                        f"({source.location(a.line)}): a translation runs its source's code, "
                        "and only comments may be translated",
                        f"copy the block from {source.location(a.line)} and translate only "
                        "its comments",
                    )
                )
            continue
        for a in theirs[i1:i2]:
            where = ours[j1].line if j1 < len(ours) else t.line
            errors.append(_missing(src, where, source, a, t))
        for b in ours[j1:j2]:
            errors.append(_extra(src, b, s))
    return errors


def _marks(kind: str, src: str, t: Section, source: Fingerprint, s: Section) -> list[AuthorError]:
    """One kind of mark, as a multiset: English may order a section's sentences its own way. A
    bound number pairs by its expression: what it writes is checked against the computed value
    (a drift, at the translation's line)."""
    ours, theirs = t.of(kind), s.of(kind)
    missing = Counter(m.value for m in theirs) - Counter(m.value for m in ours)
    extra = Counter(m.value for m in ours) - Counter(m.value for m in theirs)
    errors = []
    for a in theirs:
        if missing[a.value] > 0:
            missing[a.value] -= 1
            errors.append(_missing(src, t.line, source, a, t))
    for b in reversed(ours):
        if extra[b.value] > 0:
            extra[b.value] -= 1
            errors.append(_extra(src, b, s))
    return errors


def _missing(src: str, line: int, source: Fingerprint, mark: Mark, t: Section) -> AuthorError:
    return AuthorError(
        src,
        line,
        f"the source's {KINDS[mark.kind]} {_shown(mark)} ({source.location(mark.line)}) is "
        f"missing from the section {_quoted(t.title)}",
        "carry it over from the source into this section"
        + (" unchanged" if mark.kind in ("code", "number") else ""),
    )


def _extra(src: str, mark: Mark, s: Section) -> AuthorError:
    return AuthorError(
        src,
        mark.line,
        f"this {KINDS[mark.kind]} {_shown(mark)} is not in its source's section {_quoted(s.title)}",
        "remove it, or add it to the source first (a translation says what its source says)",
    )


def _shown(mark: Mark) -> str:
    if mark.kind == "directive":
        return f"`:::{mark.value}`"
    if mark.kind in ("code", "output"):
        return f"`{quoted(mark.shown, 60)}`" if mark.shown else ""
    if mark.kind == "answer":
        return f"`{quoted(mark.shown)}`"
    if mark.kind == "label":
        return quoted(mark.value)
    return f"`{quoted(mark.shown)}`"


def _quoted(title: str) -> str:
    return f'"{quoted(title)}"'
