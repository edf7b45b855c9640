"""`:::quiz` — a multiple-choice question rendered as a widget.

Body: the question (Markdown), options `A.` … (2 to 6, lettered in order), the answer line and
the explanation in the page's language's keywords (`Answer: X`, `答案: X`, `Réponse : X`, then
`Explanation: …`; the locale's `quiz`), the explanation possibly continuing on the next lines. Without JavaScript the options are a list and
the answer with its explanation sits in a closed <details>; quiz.js makes the options buttons with
per-option feedback. The answer key is kept out of Material's search index (`data-search-exclude`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from llmbook.core.errors import quoted
from llmbook.core.i18n import Locale
from llmbook.directives.base import FORBIDDEN, Context, Directive, escape
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage, folded, titled
from llmbook.directives.printing import PrintPage, new_tag, print_box

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

__all__ = ["OPTION", "Quiz", "QuizData", "parse_quiz"]

OPTION = re.compile(r"^\s*(?P<letter>[A-Z])[.．、]\s*(?P<text>.*)$")
# The answer and explanation lines start with the page's language's words (`Answer: B`,
# `答案: B`, `Réponse : B`; English's are read everywhere): the locale's `quiz` keywords.
_LETTERS = "ABCDEF"


@dataclass
class QuizData:
    question: list[str] = field(default_factory=list)
    options: list[tuple[str, str, int]] = field(default_factory=list)  # (letter, text, line)
    answer: str = ""
    explanation: list[str] = field(default_factory=list)
    # the file lines of each part: what a notebook form shows of them (notebook.py)
    question_lines: list[int] = field(default_factory=list)
    option_lines: list[list[int]] = field(default_factory=list)
    explanation_lines: list[int] = field(default_factory=list)


def parse_quiz(node: Block, ctx: Context) -> QuizData:
    """Split a quiz body into its parts; raise AuthorError when one is missing or wrong."""
    data = QuizData()
    answer_line = 0
    answer_word, explanation_word = _words(ctx)
    stage = "question"
    for number, line in node.text_lines():
        option, answer, explanation = (
            OPTION.match(line),
            ctx.locale.quiz_answer.match(line),
            ctx.locale.quiz_explanation.match(line),
        )
        if answer and stage in ("question", "options"):
            data.answer, answer_line, stage = answer.group("letter").upper(), number, "answer"
        elif explanation and stage != "explanation":
            data.explanation.append(explanation.group("text"))
            data.explanation_lines.append(number)
            stage = "explanation"
        elif option and stage in ("question", "options"):
            _add_option(data, option.group("letter"), option.group("text"), number, ctx)
            data.option_lines.append([number])
            stage = "options"
        elif stage == "question":
            data.question.append(line)
            data.question_lines.append(number)
        elif stage == "options" and line.strip():
            letter, text, first = data.options[-1]
            data.options[-1] = (letter, f"{text} {line.strip()}", first)
            data.option_lines[-1].append(number)
        elif stage == "explanation":
            data.explanation.append(line)
            data.explanation_lines.append(number)
        elif line.strip():
            raise ctx.error(
                number,
                f"quiz line {quoted(repr(line.strip()))} after {answer_word} is neither "
                f"{explanation_word} nor part of it",
                f'start the explanation with "{explanation_word}: …" right after the '
                f"{answer_word} line",
            )
    _check(node, data, answer_line, ctx)
    return data


def _add_option(data: QuizData, letter: str, text: str, number: int, ctx: Context) -> None:
    for seen, _, first in data.options:
        if seen == letter:
            raise ctx.error(
                number,
                f"quiz option {letter} appears twice (lines {first} and {number})",
                "give every option its own letter: A, B, C, …",
            )
    expected = _LETTERS[len(data.options)] if len(data.options) < len(_LETTERS) else None
    if letter != expected:
        raise ctx.error(
            number,
            f"quiz option {letter} is out of order: expected {expected or 'at most 6 options'}",
            "letter the options A, B, C, … in order (2 to 6 options)",
        )
    data.options.append((letter, text.strip(), number))


def _after(pattern: re.Pattern[str], line: str, written: str) -> str:
    """The text of a line after its option letter or keyword (`written`, as parsed, when the
    line shown no longer starts so)."""
    found = pattern.match(line)
    return found.group("text").strip() if found is not None else written


def _words(ctx: Context) -> tuple[str, str]:
    """The page's language's words for the answer and explanation lines (`Answer`, `答案`)."""
    return ctx.locale.quiz_word("answer"), ctx.locale.quiz_word("explanation")


def _check(node: Block, data: QuizData, answer_line: int, ctx: Context) -> None:
    answer_word, explanation_word = _words(ctx)
    if not "".join(data.question).strip():
        raise ctx.error(
            node.line, "quiz has no question", "write the question on the lines before option A."
        )
    if len(data.options) < 2:
        raise ctx.error(
            node.line,
            f"quiz has {len(data.options)} option(s); it needs 2 to 6",
            'write each option on its own line: "A. …", "B. …"',
        )
    if not answer_line:
        raise ctx.error(
            node.line,
            f"quiz has no {answer_word} line",
            f'add a line "{answer_word}: X" after the options, X being the correct option\'s letter',
        )
    letters = [letter for letter, _, _ in data.options]
    if data.answer not in letters:
        raise ctx.error(
            answer_line,
            f"quiz answer {quoted(repr(data.answer))} is not one of its options "
            f"{', '.join(letters)}",
            f"write one of {', '.join(letters)} after {answer_word}:",
        )
    if not "".join(data.explanation).strip():
        raise ctx.error(
            answer_line,
            f"quiz has no {explanation_word} line",
            f'add "{explanation_word}: …" after the {answer_word} line, saying why the answer is '
            "right",
        )


class Quiz(Directive):
    NAME = "quiz"
    ARGUMENT = FORBIDDEN
    NESTED = ()
    CLASSES = ("llmbook-quiz",)
    MARKS = {"answer": "quiz answer"}
    WORDS = ("quiz", "quiz_options", "quiz_answer_summary", "quiz_key", "print_quiz",
             "print_key", "print_key_item")  # fmt: skip
    KEY_RANK = 10  # its answer key ends the page first

    def marks(self, text: str, *, opener: bool, locale: Locale) -> list[tuple[str, str]]:
        """Its options' letters and its answer."""
        option, answer = OPTION.match(text), locale.quiz_answer.match(text)
        found = [("answer", f"option {option.group('letter')}")] if option and not opener else []
        if answer and not opener:
            found.append(("answer", f"answer {answer.group('letter')}"))
        return found

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Question and options stay; each answer and its explanation go to the page's key."""
        key: list[Tag] = []
        for number, quiz in enumerate(soup.select(".llmbook-quiz"), start=1):
            answer = quiz.select_one(".llmbook-quiz__answer")
            explanation = quiz.select_one(".llmbook-quiz__explanation")
            item = new_tag(soup, "li")
            answer_text = page.ui(
                "print_key_item", number=number, answer=quiz.get("data-answer", "")
            )
            item.append(new_tag(soup, "strong", answer_text))
            if explanation is not None:
                item.extend(list(explanation.extract().contents))
            key.append(item)
            for gone in [answer, quiz.select_one(".llmbook-quiz__feedback")]:
                if gone is not None:
                    gone.decompose()
            title = quiz.find("p", class_="admonition-title")
            if title is not None:
                title.string = page.ui("print_quiz", number=number)
        if key:
            box = print_box(soup, "success", page.ui("print_key"))
            box["class"] = ["llmbook-box", "llmbook-answer-key"]
            answers = new_tag(soup, "ol")
            answers.extend(key)
            box.append(answers)
            page.add_end(self.KEY_RANK, box)

    def validate(self, node: Block, ctx: Context) -> None:
        node.data = parse_quiz(node, ctx)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Its question, its options as a list, and its answer with the explanation folded."""
        data = node.data
        assert isinstance(data, QuizData), "a quiz is validated before it is shown"
        options = [
            f"- **{letter}.** {_after(OPTION, page.line(numbers[0]), text)}"
            + "".join(f" {page.line(n).strip()}" for n in numbers[1:])
            for (letter, text, _), numbers in zip(data.options, data.option_lines, strict=True)
        ]
        first, *rest = data.explanation_lines
        explanation = page.locale.quiz_explanation
        answer = [
            f"{page.ui('quiz_key')}**{data.answer}**",
            "",
            _after(explanation, page.line(first), data.explanation[0]),
            *(page.line(n) for n in rest),
        ]
        question = [page.line(n) for n in data.question_lines]
        body = [*question, "", *options, *folded(page.ui("quiz_answer_summary"), answer)]
        return titled(page.ui("quiz"), body)

    def render(self, node: Block, ctx: Context) -> list[str]:
        data = node.data if isinstance(node.data, QuizData) else parse_quiz(node, ctx)
        quiz_id = f"llmbook-quiz-{ctx.unique()}"
        head = (
            f'<div class="admonition question llmbook-quiz" id="{quiz_id}" data-llmbook-quiz'
            f' data-answer="{escape(data.answer)}"><p class="admonition-title">{ctx.ui("quiz")}</p>'
            '<div class="llmbook-quiz__question">'
        )
        options = "".join(
            f'<li class="llmbook-quiz__option" data-letter="{escape(letter)}">'
            f'<span class="llmbook-quiz__letter">{escape(letter)}.</span> '
            f'<span class="llmbook-quiz__text">{ctx.inline(text)}</span></li>'
            for letter, text, _ in data.options
        )
        tail = (
            f'</div><ol class="llmbook-quiz__options" aria-label="{ctx.ui("quiz_options")}">'
            f"{options}</ol>"
            '<p class="llmbook-quiz__feedback" role="status" aria-live="polite"></p>'
            '<details class="llmbook-quiz__answer" data-search-exclude>'
            f"<summary>{ctx.ui('quiz_answer_summary')}</summary>"
            f'<p class="llmbook-quiz__key">{ctx.ui("quiz_key")}<strong>{escape(data.answer)}</strong></p>'
            f'<div class="llmbook-quiz__explanation">{ctx.fragment(chr(10).join(data.explanation))}</div>'
            "</details></div>"
        )
        return ctx.wrap(node, head, tail, data.question)
