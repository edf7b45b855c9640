"""The source's results given to its translation: the code runs once, as the source's page,
and each of the translation's blocks and bound numbers gets the result of its counterpart (the
n-th block that runs; a bound number, the same expression in the paired section)."""

from __future__ import annotations

import bisect

from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.run import RunResult
from llmbook.translate.fingerprint import Section

__all__ = ["translated_result"]


def translated_result(
    translation: PageSource,
    source: PageSource,
    result: RunResult,
    pairs: list[tuple[Section, Section]],
) -> RunResult:
    ours = [pos for pos, b in enumerate(translation.blocks) if b.runs]
    theirs = [pos for pos, b in enumerate(source.blocks) if b.runs]
    blocks = {t: result.blocks[s] for t, s in zip(ours, theirs, strict=False) if s in result.blocks}
    values: list[object] = []
    source_of = _section_finder([s for s, _ in pairs])
    translation_of = _section_finder([t for _, t in pairs])
    taken: set[int] = set()
    for b in translation.bound:
        section = translation_of(b.line)
        match = None
        for i, candidate in enumerate(source.bound):
            if i not in taken and candidate.expr == b.expr and source_of(candidate.line) == section:
                match = i
                break
        if match is None or match >= len(result.values):
            values.append(None)  # no counterpart: the correspondence reported it
            continue
        taken.add(match)
        values.append(result.values[match])
    return RunResult(blocks=blocks, values=values, used=dict(result.used), record=result.record)


def _section_finder(sections: list[Section]):
    """line → the index of the paired section it lies in (-1 before the first)."""
    lines = [s.line for s in sections]

    def find(line: int) -> int:
        return bisect.bisect_right(lines, line) - 1

    return find
