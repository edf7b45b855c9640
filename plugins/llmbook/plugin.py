"""The name the `mkdocs.plugins` entry point gives (`llmbook.plugin:LLMBookPlugin`): the MkDocs
adapter's plugin, which lives in `adapters/mkdocs/plugin.py`."""

from llmbook.adapters.mkdocs.plugin import LLMBookPlugin

__all__ = ["LLMBookPlugin"]
