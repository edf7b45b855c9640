"""What a build writes into the site besides its pages: the files pages link (one SVG file per
figure, one PNG or JPEG per displayed image, each named by its content) and each notebook page's
download (the notebook with this build's outputs). An engine with an end-of-build hook writes them
at the end (`write`); one without (Zensical) gets each file written as soon as a page links it
(`figures_dir`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.utils import get_relative_url

from llmbook.core.assets import SITE_PREFIX
from llmbook.execute.shell.display_html import FileUrl
from llmbook.execute.stages.notebook import executed_notebook
from llmbook.execute.stages.notebook_outputs import run_outputs
from llmbook.execute.stages.report import Report
from llmbook.core.i18n import Locale
from llmbook.core.page_ref import PageRef
from llmbook.core.project import Project
from llmbook.core.store import Store, bytes_digest

__all__ = ["BuildOutputs", "figure_path"]


def figure_path(content: bytes, suffix: str) -> str:
    """`assets/llmbook/figures/<hash>.<suffix>`: the same figure or image is one file."""
    return f"{SITE_PREFIX}/figures/{bytes_digest(content)[:24]}.{suffix}"


@dataclass
class BuildOutputs:
    project: Project
    store: Store
    locale: Locale  # the build's: a figure without a title described in its words
    figures: dict[str, bytes] = field(default_factory=dict)  # site path → content
    figures_dir: Path | None = None  # where a linked figure is written at once (no end hook)

    def keep_figure(self, path: str, content: bytes) -> None:
        self.figures[path] = content
        if self.figures_dir is not None:
            target = self.figures_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)

    def file_url(self, page: PageRef, linked: list[str] | None) -> FileUrl:
        """How `page` links a figure or image (each one linked is added to `linked`)."""

        def url(content: bytes, suffix: str) -> str:
            path = figure_path(content, suffix)
            self.keep_figure(path, content)
            if linked is not None:
                linked.append(path)
            return get_relative_url(path, page.url)

        return url

    def write(self, report: Report) -> None:
        """The figures, and each notebook page's download: the notebook with this build's outputs."""
        site_dir = self.project.site_dir
        for path, content in sorted(self.figures.items()):
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        for src in report.notebooks:
            self.write_notebook(report, src)

    def write_notebook(self, report: Report, src: str) -> str:
        """Notebook page `src`'s download, written where the page's notebook is in the site (a
        translation's: where its source's is); its site path."""
        notebook = report.notebooks[src]
        plan = report.plans.get(src)
        outputs = {}
        if plan is not None and plan.result is not None:
            for pos, run in plan.result.blocks.items():
                cell = plan.page.cell_of(plan.page.blocks[pos].line)
                outputs[cell] = run_outputs(run, self.locale)
        uri = self.project.uri(src)
        target = self.project.site_dir / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(executed_notebook(notebook, outputs, store=self.store), encoding="utf-8")
        return uri
