"""Launch links: on each page that runs code, a button per service of the `launch` option, which
opens the page's notebook there (Colab, Binder, …), in the page's language.

`launch` maps a service to a URL template; `{path}` is filled with the notebook's path in the
published site, URL-quoted: `chapters/x.ipynb` for `docs/chapters/x.md`, `notebooks/y.ipynb` for
the notebook page `docs/notebooks/y.ipynb`, a translated edition's under its folder
(`en/chapters/x.ipynb`). A service whose template is empty shows no button (a CI fills it in).
They are links, never fetches, so the offline check passes; print leaves them out
(`llmbook-web-only`, editions/print_form.py).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from llmbook.core.errors import quoted

if TYPE_CHECKING:  # the options' check imports this module: it imports nothing of the build
    from llmbook.core.i18n import Locale
    from llmbook.execute.stages.plan import Plan
    from llmbook.site.site import Site

__all__ = ["SERVICES", "launch_buttons", "launch_links", "launch_problem", "notebook_path"]

# The services' own names (a name, not a word to translate); any other key is shown as written.
SERVICES = {
    "binder": "Binder",
    "codespaces": "Codespaces",
    "colab": "Colab",
    "deepnote": "Deepnote",
    "jupyterlite": "JupyterLite",
    "kaggle": "Kaggle",
    "nbviewer": "nbviewer",
    "sagemaker": "SageMaker Studio Lab",
}
EXAMPLE = "https://colab.research.google.com/github/OWNER/REPO/blob/notebooks/{path}"
_FIELD = re.compile(r"\{([^{}]*)\}")


def launch_problem(value: Any) -> tuple[str, str, str | None] | None:
    """What is wrong with a `launch` value: (problem, fix, the service it is about, if one);
    None when nothing is."""
    if not isinstance(value, Mapping):
        kind = type(value).__name__
        return (
            f"`launch` maps each service to a URL template, not a {kind} ({quoted(repr(value))})",
            f'write it as a mapping, e.g. `launch: {{colab: "{EXAMPLE}"}}`',
            None,
        )
    for service, template in value.items():
        problem = _template_problem(str(service), template)
        if problem is not None:
            return (*problem, str(service))
    return None


def _template_problem(service: str, template: Any) -> tuple[str, str] | None:
    if template is None or template == "":  # no button for this service (yet)
        return None
    where = f"`launch: {service}`"
    if not isinstance(template, str):
        return (
            f"{where} is a {type(template).__name__}, not a URL template",
            f'write one URL in quotes, e.g. `{service}: "{EXAMPLE}"`',
        )
    if urlsplit(template.strip()).scheme not in ("http", "https") or "//" not in template:
        return (
            f"{where} is not an http(s) address: {quoted(repr(template))}",
            "write the service's whole address, starting with `https://`",
        )
    fields = _FIELD.findall(template)
    unknown = [f for f in fields if f != "path"]
    if unknown:
        return (
            f"{where} has the placeholder `{{{unknown[0]}}}`, which llmbook does not fill: "
            "it fills only `{path}`, the notebook's path in the published site",
            "write that part of the address out (your repository, your branch), and keep `{path}`",
        )
    if "path" not in fields:
        return (
            f"{where} has no `{{path}}`, so every page's button would open the same address",
            "put `{path}` where the service takes the notebook's path, e.g. "
            f'`{service}: "{EXAMPLE}"`',
        )
    return None


def runs_code(plan: Plan | None) -> bool:
    """Whether the page's plan runs at least one block: a page with a notebook to launch."""
    return plan is not None and plan.page.execute and any(b.runs for b in plan.page.blocks)


def notebook_path(uri: str, edition: str = "") -> str:
    """The notebook's path in the published site: the page's (`uri`, relative to docs/) with
    `.ipynb`, under a translated edition's folder (`edition`: `en`) when there is one."""
    path = posixpath.splitext(uri)[0] + ".ipynb"
    return f"{edition}/{path}" if edition else path


def launch_buttons(templates: Mapping[str, Any], path: str, locale: Locale) -> str:
    """One button per service with a template, `{path}` filled with `path` (URL-quoted)."""
    links = []
    for service, template in templates.items():
        if not template:
            continue
        name = SERVICES.get(str(service), str(service))
        url = template.strip().replace("{path}", quote(path))
        text, title = locale.ui("launch", service=name), locale.ui("launch_title", service=name)
        links.append(
            f'<a class="md-button llmbook-launch__button" href="{escape(url)}" '
            f'title="{escape(title)}" target="_blank" rel="noopener">{escape(text)}</a>'
        )
    if not links:
        return ""
    return f'<p class="llmbook-launch llmbook-web-only">{" ".join(links)}</p>\n'


def launch_links(site: Site, src: str) -> str:
    """The launch buttons of page `src` ("" where `launch` is unset or the page runs nothing)."""
    from llmbook.site.page_notebook import notebook_of  # here: config.py imports this module

    templates = site.options.get("launch")
    plan = site.report.plans.get(src)
    if not templates or not runs_code(plan):
        return ""
    # a notebook page is its own notebook; a Markdown page's is the one page_notebook.py writes
    uri = site.project.uri(src) if plan.page.cells is not None else notebook_of(site, src)
    if uri is None:
        return ""
    return launch_buttons(templates, notebook_path(uri, site.project.translating), site.locale)
