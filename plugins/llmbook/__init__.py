"""llmbook: the MkDocs plugin that renders, executes and proves the chapters of the book."""

__all__ = ["__version__"]
__version__ = "0.1.0"
