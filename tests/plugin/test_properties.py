"""Properties over generated chapters: no author word is lost, and bad input only raises AuthorError."""

from __future__ import annotations

from directive_helpers import render_page, visible_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from llmbook.core.errors import AuthorError

_CJK = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所"
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz" + _CJK, min_size=2, max_size=7)


class Chapter:
    """Source lines plus the words an author wrote (everything but directive syntax)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.words: list[str] = []

    def text(self, words: list[str]) -> str:
        self.words.extend(words)
        return " ".join(words)


def words(n: int = 4):
    return st.lists(WORD, min_size=1, max_size=n)


@st.composite
def element(draw, chapter: Chapter, depth: int) -> None:
    kinds = [
        "paragraph",
        "code",
        "box",
        "quiz",
        "interview",
        "tabs",
        "related",
        "shapeflow",
        "demo",
        "card",
    ]
    kind = draw(st.sampled_from(kinds if depth < 2 else kinds[:2]))
    out = chapter.lines
    if kind == "paragraph":
        out += [chapter.text(draw(words(6))), ""]
    elif kind == "code":
        out += ["```text", chapter.text(draw(words())), "```", ""]
    elif kind == "box":
        name = draw(
            st.sampled_from(
                [
                    "unfold",
                    "fold",
                    "warning",
                    "math",
                    "key",
                    "hint",
                    "background",
                    "insight",
                    "objectives",
                ]
            )
        )
        out.append(f":::{name} {chapter.text(draw(words(3)))}")
        for _ in range(draw(st.integers(1, 2))):
            draw(element(chapter, depth + 1))
        out.append(":::")
    elif kind == "quiz":
        options = draw(st.integers(2, 6))
        out += [":::quiz", chapter.text(draw(words())), ""]
        out += [f"{'ABCDEF'[i]}. {chapter.text(draw(words(3)))}" for i in range(options)]
        out += [
            "",
            f"答案: {'ABCDEF'[draw(st.integers(0, options - 1))]}",
            f"解析: {chapter.text(draw(words()))}",
            ":::",
        ]
    elif kind == "interview":
        out.append(f":::interview {chapter.text(draw(words(2)))}")
        for _ in range(draw(st.integers(1, 3))):
            out += [
                chapter.text(draw(words())),
                "",
                ":::answer",
                chapter.text(draw(words())),
                ":::",
            ]
        out.append(":::")
    elif kind == "tabs":
        out.append(":::tabs")
        for _ in range(draw(st.integers(1, 3))):
            out.append(f":::tab {chapter.text(draw(words(2)))}")
            draw(element(chapter, depth + 1))
            out.append(":::")
        out.append(":::")
    elif kind == "related":
        out += [
            ":::related",
            f"{chapter.text(draw(words(1)))} | {', '.join(chapter.text([w]) for w in draw(words(3)))}",
            ":::",
        ]
    elif kind == "shapeflow":
        out += [
            ":::shapeflow",
            chapter.text(draw(words())),
            "x [B, S, d] × W [d, d_ff] → [B, S, d_ff]",
            ":::",
        ]
    elif kind == "demo":
        out += [
            f":::demo test-demo {chapter.text(draw(words(2)))}",
            chapter.text(draw(words())),
            ":::",
        ]
    else:
        number = len([line for line in out if line.startswith(":::card ")]) + 1
        out += [
            f":::card {number} {chapter.text(draw(words(3)))}",
            ":::walkthrough " + chapter.text(draw(words(2))),
        ]
        for _ in range(draw(st.integers(1, 3))):
            out += [f":::step {chapter.text(draw(words(2)))}", chapter.text(draw(words())), ":::"]
        out += [":::", ":::"]
    out.append("")


@st.composite
def chapters(draw) -> Chapter:
    chapter = Chapter()
    for _ in range(draw(st.integers(1, 6))):
        draw(element(chapter, 0))
    return chapter


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chapters())
def test_every_author_word_reaches_the_page(chapter):
    page = visible_text(render_page("\n".join(chapter.lines)).replace("<", "\n<"))
    assert ":::" not in page
    missing = [word for word in chapter.words if word not in page]
    assert not missing, missing


_LINES = st.sampled_from(
    [
        ":::",
        ":::quiz",
        ":::unfold 标题",
        ":::interview 问",
        ":::answer",
        ":::tabs",
        ":::tab t",
        ":::bogus",
        "::: ",
        ":::demo test-demo 演示",
        ":::demo nope x",
        ":::related",
        "a | b, c",
        ":::shapeflow",
        "x [B, S] ⊕ y [B, T] → [B, S]",
        "q [B, H, 1, d] × k [B, H, d, t] → s [B, H, 1, t]",
        "[B, ?]",
        "A. 一",
        "B. 二",
        "B. 三",
        "答案: B",
        "答案: Z",
        "解析: 因为",
        "```",
        "~~~~",
        "$$",
        "$x$",
        "",
        "正文 text",
        ":::card 1 卡",
        ":::card x",
        ":::progress",
        ":::step s",
        ":::walkthrough w",
        ":::showcase",
        "    :::key 缩进",
        ":::chain c",
        "1. 步骤",
        "[[x = 2.1]]",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=25))
def test_the_parser_only_ever_raises_author_errors(lines):
    try:
        render_page("\n".join(lines))
    except AuthorError:
        pass
