"""What every demo of this book shares: it computes with llmkit in torch, on one thread."""

from __future__ import annotations

import torch
from llmbook.demos import Demo

__all__ = ["BookDemo"]


class BookDemo(Demo):
    """A demo of this book: its frame drawn with torch on one thread."""

    def render_html(self, title: str, description_html: str) -> str:
        # The demos' tensors are tiny: one thread is faster and sums in a fixed order.
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return super().render_html(title, description_html)
        finally:
            torch.set_num_threads(threads)
