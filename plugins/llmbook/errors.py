"""The one error type an author can cause: it names the page and line and says how to fix it."""

from __future__ import annotations

from mkdocs.exceptions import PluginError

__all__ = ["AuthorError"]


class AuthorError(PluginError):
    """A mistake in a chapter's source. Stops the build as `path/to/page.md:LINE: what. Fix: how.`"""

    def __init__(self, src: str, line: int, message: str, fix: str | None = None) -> None:
        self.src = src
        self.line = line
        self.problem = message
        self.fix = fix
        text = f"{src}:{line}: {message}"
        if fix:
            text += f" Fix: {fix}"
        super().__init__(text)
