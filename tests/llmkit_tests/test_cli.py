"""`python -m llmkit generate`: a tiny Llama checkpoint folder with a locally trained byte-level
BPE tokenizer and a chat template; the streamed text must be the decode of what llmkit.generate
produces greedily from the template's prompt ids, and user mistakes must end in one line."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
pytest.importorskip("jinja2")

import llmkit  # noqa: E402
from llmkit.cli import main  # noqa: E402
from llmkit.prompt import TextStream, chat_template, eos_ids, render_chat  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SPECIAL = ["<s>", "</s>", "<|user|>", "<|assistant|>", "<|end|>"]
TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}<|end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)
PROMPT = "Tell me a story about the brave robot."
N = 12
STATS = re.compile(
    r"llmkit: (\d+) tokens in \d+\.\d\d s \(\d+\.\d tok/s(, decode \d+\.\d tok/s)?\); "
    r"prompt (\d+) tokens, prefill \d+\.\d\d s\n"
)


def _tokenizer() -> "tokenizers.Tokenizer":
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    lines = [
        "The quick brown fox jumps over the lazy dog.",
        "Héllo wörld, naïve café: 日本語のテキスト 🙂",
        "Tell me a story about a brave little robot.",
    ]
    tok.train_from_iterator(lines * 5, trainer)
    # Raw (--no-chat) prompts get a BOS from the post-processor, as Llama's tokenizer does.
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A", special_tokens=[("<s>", tok.token_to_id("<s>"))]
    )
    return tok


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("ckpt")
    tok = _tokenizer()
    tok.save(str(folder / "tokenizer.json"))
    # An old-style AddedToken dict for eos: the CLI must read both spellings.
    eos = {"__type": "AddedToken", "content": "</s>", "lstrip": False, "normalized": False,
           "rstrip": False, "single_word": False, "special": True}  # fmt: skip
    tok_config = {"chat_template": TEMPLATE, "bos_token": "<s>", "eos_token": eos}
    (folder / "tokenizer_config.json").write_text(json.dumps(tok_config), encoding="utf-8")
    config = transformers.LlamaConfig(
        vocab_size=tok.get_vocab_size(),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=1,
        initializer_range=0.3,  # peaked logits: greedy output varies instead of repeating
    )
    torch.manual_seed(0)
    transformers.LlamaForCausalLM(config).save_pretrained(folder, safe_serialization=True)
    return folder


@pytest.fixture(scope="module")
def tok(checkpoint) -> "tokenizers.Tokenizer":
    return tokenizers.Tokenizer.from_file(str(checkpoint / "tokenizer.json"))


def _chat_ids(checkpoint: Path, prompt: str) -> list[int]:
    """The prompt ids transformers' own chat-template code gives (an independent reference)."""
    fast = transformers.PreTrainedTokenizerFast.from_pretrained(checkpoint)
    messages = [{"role": "user", "content": prompt}]
    return list(fast.apply_chat_template(messages, add_generation_prompt=True)["input_ids"])


def _greedy(checkpoint: Path, prompt_ids: list[int], n: int = N) -> list[int]:
    """llmkit.generate's greedy new ids, without any EOS handling."""
    model = llmkit.from_pretrained(checkpoint)
    out = llmkit.generate(model, torch.tensor([prompt_ids]), n)
    return out[0, len(prompt_ids) :].tolist()


def _until(ids: list[int], stop: set[int]) -> list[int]:
    return next((ids[:i] for i, t in enumerate(ids) if t in stop), ids)


def _run(*args: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `python -m llmkit generate ARGS` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    cmd = [sys.executable, "-m", "llmkit", "generate", *args]
    # Bytes, not text=True: universal newlines would turn a generated "\r" into "\n".
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=120)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def test_stream_pieces_join_to_the_decode_without_broken_characters(tok) -> None:
    ids = tok.encode("Héllo wörld, 日本語のテキスト 🙂 fox", add_special_tokens=False).ids

    class Pieces(list):  # a stdout that keeps each write
        write, flush = list.append, lambda self: None

    pieces = Pieces()
    stream = TextStream(tok, pieces)
    for token in ids:
        stream.add(token)
    stream.finish()
    assert "".join(pieces) == tok.decode(ids)
    assert not any("\ufffd" in piece for piece in pieces)
    assert len([p for p in pieces if p]) > 5  # streamed, not written at the end


def test_chat_prompt_stream_equals_greedy_decode(checkpoint, tok, capsys, monkeypatch) -> None:
    prompt_ids = _chat_ids(checkpoint, PROMPT)
    expected = tok.decode(_until(_greedy(checkpoint, prompt_ids), {1}))
    calls, real = [], llmkit.generate
    monkeypatch.setattr(llmkit, "generate", lambda *a, **k: calls.append((a, k)) or real(*a, **k))
    assert main(["generate", str(checkpoint), PROMPT, "--max-new-tokens", str(N)]) == 0
    (_, input_ids, max_new), kwargs = calls[0]
    assert input_ids.tolist() == [prompt_ids] and max_new == N
    assert kwargs["eos_token_id"] == [1] and kwargs["temperature"] == 0.0
    out, err = capsys.readouterr()
    assert out == expected + "\n"
    stats = STATS.fullmatch(err)
    assert stats and int(stats.group(3)) == len(prompt_ids)


def test_no_chat_encodes_the_raw_prompt_with_bos(checkpoint, tok, capsys, monkeypatch) -> None:
    calls, real = [], llmkit.generate
    monkeypatch.setattr(llmkit, "generate", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    assert main(["generate", str(checkpoint), PROMPT, "--max-new-tokens", "3", "--no-chat"]) == 0
    raw = tok.encode(PROMPT).ids
    assert raw[0] == 0 and calls[0].tolist() == [raw] != [_chat_ids(checkpoint, PROMPT)]
    assert capsys.readouterr().out == tok.decode(_until(_greedy(checkpoint, raw, 3), {1})) + "\n"


def test_module_entry_point(checkpoint, tok) -> None:
    prompt = "Héllo wörld 🙂"
    prompt_ids = _chat_ids(checkpoint, prompt)
    status, out, err = _run(str(checkpoint), prompt, "--max-new-tokens", str(N), "--device", "cpu")
    assert status == 0, err
    assert out == tok.decode(_until(_greedy(checkpoint, prompt_ids), {1})) + "\n"
    assert STATS.fullmatch(err), err


def test_eos_from_generation_config_stops_the_stream(checkpoint, tok, tmp_path, capsys) -> None:
    folder = shutil.copytree(checkpoint, tmp_path / "ckpt")
    new = _greedy(folder, _chat_ids(folder, PROMPT))
    # The first token greedy decoding produces that it did not produce before, at step k >= 2.
    k = next(i for i in range(2, N) if new[i] not in new[:i])
    config = {"eos_token_id": [new[k], 2]}
    (folder / "generation_config.json").write_text(json.dumps(config), encoding="utf-8")
    assert main(["generate", str(folder), PROMPT, "--max-new-tokens", str(N)]) == 0
    out, err = capsys.readouterr()
    assert out == tok.decode(new[:k]) + "\n"
    assert STATS.fullmatch(err).group(1) == str(k + 1)  # the EOS was produced, not printed


def test_eos_ids_fall_back_to_config_then_tokenizer(tmp_path, tok) -> None:
    assert eos_ids(tmp_path, {"eos_token_id": 4}, {}, tok) == [4]
    assert eos_ids(tmp_path, {}, {"eos_token": {"content": "<|end|>"}}, tok) == [4]
    assert eos_ids(tmp_path, {}, {}, tok) == []
    (tmp_path / "generation_config.json").write_text('{"eos_token_id": [1, 4]}')
    assert eos_ids(tmp_path, {"eos_token_id": 2}, {}, tok) == [1, 4]


def test_named_templates_use_default_and_raise_exception_is_a_usage_error(tmp_path) -> None:
    named = [{"name": "tool_use", "template": "x"}, {"name": "default", "template": TEMPLATE}]
    template = chat_template(tmp_path, {"chat_template": named})
    assert render_chat(template, "hi", "<s>", "</s>") == "<s><|user|>\nhi<|end|>\n<|assistant|>\n"
    (tmp_path / "chat_template.jinja").write_text("{{ messages[0]['content'] }}")  # newer layout
    assert chat_template(tmp_path, {"chat_template": named}) == "{{ messages[0]['content'] }}"
    with pytest.raises(Exception, match=r"^chat template failed: no system role; pass --no-chat"):
        render_chat("{{ raise_exception('no system role') }}", "hi", None, None)


def test_missing_folder_and_tokenizer_are_one_line_errors(checkpoint, tmp_path, capsys) -> None:
    missing = tmp_path / "nope"
    assert main(["generate", str(missing), PROMPT]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err
        == f"llmkit: error: {missing}: no such folder; PATH is a Hugging Face checkpoint folder "
        "or a .gguf file\n"
    )
    folder = shutil.copytree(checkpoint, tmp_path / "ckpt")
    (folder / "tokenizer.json").unlink()
    status, out, err = _run(str(folder), PROMPT)
    assert (status, out) == (2, "")
    assert err == (
        f"llmkit: error: {folder / 'tokenizer.json'} not found; the checkpoint folder needs "
        "config.json, tokenizer.json and *.safetensors (download them together)\n"
    )


def test_too_long_prompt_names_the_fix(checkpoint, capsys) -> None:
    prompt_len = len(_chat_ids(checkpoint, PROMPT))
    assert main(["generate", str(checkpoint), PROMPT, "--max-new-tokens", "200"]) == 2
    assert capsys.readouterr().err == (
        f"llmkit: error: prompt ({prompt_len} tokens) + --max-new-tokens 200 = {prompt_len + 200} "
        "exceed the model's 128 positions (max_position_embeddings in config.json); "
        f"pass --max-new-tokens {128 - prompt_len} or less\n"
    )
    long_prompt = " ".join(["brave robot"] * 80)
    long_len = len(_chat_ids(checkpoint, long_prompt))
    assert main(["generate", str(checkpoint), long_prompt, "--max-new-tokens", "4"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"llmkit: error: prompt ({long_len} tokens) + --max-new-tokens 4 = {long_len + 4} exceed "
        "the model's 128 positions (max_position_embeddings in config.json); shorten the prompt\n"
    )
