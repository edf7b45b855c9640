"""`:::exercise TITLE {#id}` holding one `:::solution` — an exercise and its worked solution, as
sphinx-exercise gives Jupyter Book.

The book numbers exercises per chapter like figures (`练习 10-1`, `Exercise 10-1`: the locale's
`references.exercise`) and checks the references to them (`[练习 10-2](#ex-b)`): `NUMBERED`
tells the book layer which kind of part it is, and the book writes the number at the title's
start. On the web the solution is folded; in print the solutions go to the page's end, after
the quiz answers. A translation keeps each exercise and its id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.core.i18n import Locale
from llmbook.directives.base import FORBIDDEN, REQUIRED, Context, Directive
from llmbook.directives.box import box_close, box_open
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage, folded
from llmbook.directives.options import an_id, split_options
from llmbook.directives.printing import new_tag, print_box

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = ["Exercise", "Solution"]


class Exercise(Directive):
    NAME = "exercise"
    ARGUMENT = REQUIRED
    FLOW = True
    NUMBERED = "exercise"  # the kind of numbered part it is (book/parts.py)
    OPTIONS = {"id": ("", an_id)}
    CLASSES = ("llmbook-exercise", "llmbook-exercise__number")
    MARKS = {"exercise": "exercise"}
    WORDS = ("print_solutions",)
    SOLUTIONS_RANK = 20  # after the quiz's answer key

    def validate(self, node: Block, ctx: Context) -> None:
        if not self.title(node):
            raise ctx.error(
                node.line,
                ":::exercise needs a title before its {#id}",
                f'write it after the name, e.g. "{self.example(ctx)}"',
            )
        solutions = node.blocks("solution")
        if not solutions:
            raise ctx.error(
                node.line,
                ":::exercise has no :::solution",
                "add a :::solution block inside it, after the question, with the worked answer",
            )
        if len(solutions) > 1:
            raise ctx.error(
                solutions[1].line,
                f":::exercise holds {len(solutions)} :::solution blocks (lines "
                f"{', '.join(str(s.line) for s in solutions)})",
                "keep one :::solution per exercise: merge them",
            )

    def render(self, node: Block, ctx: Context) -> list[str]:
        anchor = node.options.get("id")
        attrs = f' id="{anchor}"' if anchor else ""
        title = ctx.inline(self.title(node))
        opening = box_open("example", title, collapse=None, extra="llmbook-exercise", attrs=attrs)
        return ctx.wrap(node, opening, box_close(None), ctx.children(node))

    def marks(self, text: str, *, opener: bool, locale: Locale) -> list[tuple[str, str]]:
        """Each exercise, by its id: a translation keeps the exercise and its label."""
        if not opener:
            return []
        ids = [value for name, value in split_options(text)[1] if name == "id"]
        return [("exercise", f"#{ids[0]}" if ids else "(unlabelled)")]

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """The question stays; each solution goes to the page's end, under its exercise's
        number."""
        solved = []
        for exercise in soup.select(".llmbook-exercise"):
            solution = exercise.select_one("details.llmbook-solution")
            if solution is None:
                continue
            solution.extract()
            number = exercise.select_one(".llmbook-exercise__number")
            label = number.get_text(strip=True) if number is not None else ""
            summary = solution.find("summary", recursive=False)
            if summary is not None:
                summary.decompose()
            heading = new_tag(soup, "p")
            heading.append(new_tag(soup, "strong", label or page.ui("solution")))
            solved.append([heading, *solution.contents])
        if solved:
            box = print_box(soup, "success", page.ui("print_solutions"))
            box["class"] = ["llmbook-box", "llmbook-solutions"]
            for parts in solved:
                box.extend(list(parts))
            page.add_end(self.SOLUTIONS_RANK, box)


class Solution(Directive):
    """`:::solution` — the worked solution of its exercise, folded on the web."""

    NAME = "solution"
    ARGUMENT = FORBIDDEN
    FLOW = True
    PARENTS = ("exercise",)
    CLASSES = ("llmbook-solution",)
    WORDS = ("solution",)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Folded, as on the web: the reader tries the exercise first."""
        return folded(page.ui("solution"), page.children(node))

    def render(self, node: Block, ctx: Context) -> list[str]:
        opening = box_open(
            "success", ctx.ui("solution"), collapse="closed", extra="llmbook-solution"
        )
        return ctx.wrap(node, opening, box_close("closed"), ctx.children(node))
