"""The last resort: an exception that is no author error (a bug of llmbook's) is reported as one
error of the page it happened on, with its traceback kept in a file to report, and the build
fails without a Python traceback while the other pages still report.

    docs/x.md: internal error in llmbook while checking the page: RuntimeError: … (traceback
    written to .llmbook-cache/crash-1a2b3c4d5e6f.txt; please report it)
"""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Iterator
from pathlib import Path

from llmbook.core.errors import AuthorError, LLMBookError, Located
from llmbook.core.store import cache_folder, key, write_atomic

__all__ = ["InternalError", "internal_error", "reported_as_internal"]


class InternalError(AuthorError):
    """A bug of llmbook's met on page `src` (line 0: it names no line of the page)."""

    def __init__(self, src: str, stage: str, error: str, crash_file: str) -> None:
        self.stage, self.error, self.crash_file = stage, error, crash_file
        problem = (
            f"internal error in llmbook while {stage}: {error} "
            f"(traceback written to {crash_file}; please report it)"
        )
        self.src, self.line, self.problem, self.fix = src, 0, problem, None
        self.place = "0"
        LLMBookError.__init__(self, f"{src}: {problem}")

    def locate(self, src: str, page: Located | None) -> InternalError:
        return self  # it names no line of the page

    def __reduce__(self) -> tuple:
        return (type(self), (self.src, self.stage, self.error, self.crash_file))


def internal_error(
    src: str, stage: str, error: BaseException, *, root: str | os.PathLike[str], folder: str
) -> InternalError:
    """`error` as the page's internal error; its traceback written to `<folder>/crash-<id>.txt`
    under the project `root` (the cache folder, whether or not the cache is on)."""
    text = "".join(traceback.format_exception(error))
    name = f"crash-{key(src, stage, text)[:12]}.txt"
    shown = cache_folder(folder)
    with contextlib.suppress(OSError):  # a read-only project still gets the message
        write_atomic(Path(root) / shown / name, f"{src}: while {stage}\n\n{text}".encode())
    first = str(error).strip().split("\n")[0]
    return InternalError(src, stage, f"{type(error).__name__}: {first}", f"{shown}/{name}")


@contextlib.contextmanager
def reported_as_internal(
    src: str, stage: str, *, root: str | os.PathLike[str], folder: str
) -> Iterator[None]:
    """Raise any exception but the core's own errors as `InternalError` of page `src`."""
    try:
        yield
    except LLMBookError:
        raise
    except Exception as error:
        raise internal_error(src, stage, error, root=root, folder=folder) from error
