"""From the user's text to prompt ids and back, for `python -m llmkit generate`: the checkpoint's
chat template (rendered as transformers renders it), its stop tokens, and the streamed text of
the generated ids."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

__all__ = [
    "UsageError",
    "TextStream",
    "chat_template",
    "eos_ids",
    "read_json",
    "render_chat",
    "token_text",
]


class UsageError(Exception):
    """A mistake the user can fix; main prints it as one line and exits with status 2."""


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except ValueError as error:
        raise UsageError(f"{path}: not valid JSON ({error})") from error


def token_text(value) -> str | None:
    """tokenizer_config.json spells a special token as "</s>" or {"content": "</s>", ...}."""
    if isinstance(value, dict):
        return value.get("content")
    return value if isinstance(value, str) else None


def chat_template(folder: Path, tok_config: dict) -> str | None:
    """The checkpoint's default chat template, or None. Newer uploads keep it in its own file."""
    file = folder / "chat_template.jinja"
    if file.is_file():
        return file.read_text(encoding="utf-8")
    template = tok_config.get("chat_template")
    if isinstance(template, list):  # named templates: [{"name": ..., "template": ...}]
        template = {t.get("name"): t.get("template") for t in template}.get("default")
    return template or None


def render_chat(template: str, prompt: str, bos_token: str | None, eos_token: str | None) -> str:
    """One user turn rendered the way transformers' apply_chat_template renders it."""
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message):
        raise TemplateError(message)

    # A template is code from the download: the sandbox keeps it from touching Python objects.
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)  # Llama 3.1 uses it
    try:
        return env.from_string(template).render(
            messages=[{"role": "user", "content": prompt}],
            add_generation_prompt=True,
            bos_token=bos_token or "",
            eos_token=eos_token or "",
        )
    except TemplateError as error:
        raise UsageError(f"chat template failed: {error}; pass --no-chat to skip it") from error


def eos_ids(folder: Path, config: dict, tok_config: dict, tokenizer) -> list[int]:
    """Stop tokens: generation_config.json, else config.json, else the tokenizer's eos_token."""
    for data in (read_json(folder / "generation_config.json"), config):
        value = data.get("eos_token_id")
        if value is not None:
            return [value] if isinstance(value, int) else list(value)
    token = token_text(tok_config.get("eos_token"))
    token_id = tokenizer.token_to_id(token) if token else None
    return [] if token_id is None else [token_id]


class TextStream:
    """Writes the text of generated ids as they arrive.

    Each step decodes all new ids and writes the part not yet written, so the pieces join to
    exactly tokenizer.decode(ids): spaces that depend on the neighbour come out right, and a
    text ending in U+FFFD (a UTF-8 character split across tokens) waits for the next token.
    """

    def __init__(self, tokenizer, out) -> None:
        self.tokenizer, self.out = tokenizer, out
        self.ids: list[int] = []
        self.written, self.stopped = "", False

    def add(self, token_id: int) -> None:
        self.ids.append(token_id)
        text = self.tokenizer.decode(self.ids)
        if text.startswith(self.written) and not text.endswith("\ufffd"):
            self._write(text)

    def finish(self) -> None:
        self._write(self.tokenizer.decode(self.ids))

    def _write(self, text: str) -> None:
        self.out.write(text[len(self.written) :])
        self.out.flush()
        self.written = text
