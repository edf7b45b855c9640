"""The tokenizer a GGUF file describes, as a `tokenizers.Tokenizer`, and its chat template and
special tokens.

A GGUF has no tokenizer.json: it stores the vocabulary (`tokenizer.ggml.tokens`, each token's id
is its index), the BPE merges ("a b", best first), each token's type (3: control, such as
<|im_end|>; 4: user-defined; 6: a byte, <0x0A>) and which regex splits text before BPE
(`tokenizer.ggml.pre`, a name llama.cpp maps to its regexes). Two kinds are rebuilt: byte-level BPE
(`tokenizer.ggml.model` = "gpt2": GPT-2, SmolLM, Llama 3, Qwen) and SentencePiece BPE ("llama":
Llama 2, Mistral), whose merges follow from each token's score (a higher score merges first) and
whose unknown characters fall back to byte tokens.
"""

from __future__ import annotations

__all__ = ["PRE_TOKENIZERS", "chat_template", "special_token", "stop_ids", "tokenizer_from_gguf"]

# The splits before BPE, as llama.cpp's llama-vocab.cpp lists them per `tokenizer.ggml.pre`.
_GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
_LLAMA3 = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2 = _LLAMA3.replace(r"\p{N}{1,3}", r"\p{N}")  # one digit at a time
# name -> (regexes applied in turn, ignore_merges: a word already in the vocabulary is one token)
PRE_TOKENIZERS = {
    "default": ([_GPT2], False),
    "gpt-2": ([_GPT2], False),
    "smollm": ([r"\p{N}", _GPT2], False),  # digits alone, then GPT-2's split
    "starcoder": ([r"\p{N}", _GPT2], False),
    "llama-bpe": ([_LLAMA3], True),  # Llama 3
    "llama3": ([_LLAMA3], True),
    "llama-v3": ([_LLAMA3], True),
    "smaug-bpe": ([_LLAMA3], False),
    "qwen2": ([_QWEN2], False),
    "deepseek-r1-qwen": ([_QWEN2], False),
}
_CONTROL, _USER_DEFINED = 3, 4


def tokenizer_from_gguf(metadata: dict):
    """A `tokenizers.Tokenizer` equal to the file's; ValueError naming what is not supported."""
    from tokenizers import (
        Regex,
        Tokenizer,
        decoders,
        models,
        pre_tokenizers,
    )

    kind, pre = metadata.get("tokenizer.ggml.model"), metadata.get("tokenizer.ggml.pre", "default")
    if kind == "llama":
        return _sentencepiece(metadata)
    if kind != "gpt2":
        raise ValueError(
            f"GGUF tokenizer.ggml.model={kind!r} is not supported by llmkit (supported: 'gpt2', "
            "byte-level BPE; 'llama', SentencePiece BPE)"
        )
    if pre not in PRE_TOKENIZERS:
        raise ValueError(
            f"GGUF tokenizer.ggml.pre={pre!r} is not supported by llmkit (supported: "
            f"{', '.join(PRE_TOKENIZERS)})"
        )
    tokens = metadata["tokenizer.ggml.tokens"]
    merges = [tuple(merge.split(" ", 1)) for merge in metadata.get("tokenizer.ggml.merges", ())]
    regexes, ignore_merges = PRE_TOKENIZERS[pre]
    vocab = {token: index for index, token in enumerate(tokens)}
    tokenizer = Tokenizer(models.BPE(vocab, merges, ignore_merges=ignore_merges))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(regex), behavior="isolated") for regex in regexes]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    tokenizer.decoder = decoders.ByteLevel()
    _add_special_tokens(tokenizer, metadata)
    _add_bos(tokenizer, metadata, vocab, default=False)
    return tokenizer


def _add_special_tokens(tokenizer, metadata: dict) -> None:
    """Control and user-defined tokens are matched whole in the text, before the split."""
    from tokenizers import AddedToken

    tokens = metadata["tokenizer.ggml.tokens"]
    types = metadata.get("tokenizer.ggml.token_type") or [1] * len(tokens)
    for kind_of, add in (
        (_CONTROL, tokenizer.add_special_tokens),
        (_USER_DEFINED, tokenizer.add_tokens),
    ):
        special = kind_of == _CONTROL
        add(
            [
                AddedToken(token, special=special, normalized=False)
                for token, kind in zip(tokens, types, strict=True)
                if kind == kind_of
            ]
        )


def _add_bos(tokenizer, metadata: dict, vocab: dict, default: bool) -> None:
    from tokenizers import processors

    bos = special_token(metadata, "bos")
    if metadata.get("tokenizer.ggml.add_bos_token", default) and bos is not None:
        tokenizer.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A {bos} $B", special_tokens=[(bos, vocab[bos])]
        )


def _sentencepiece(metadata: dict):
    """SentencePiece BPE: "▁" for a space (one before the text, unless add_space_prefix is
    false), merges by the score of the token they make, bytes <0xNN> for what is not in the
    vocabulary; BOS added unless add_bos_token says otherwise (llama.cpp's default)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tokens, scores = metadata["tokenizer.ggml.tokens"], metadata.get("tokenizer.ggml.scores")
    vocab = {token: index for index, token in enumerate(tokens)}
    if "tokenizer.ggml.merges" in metadata:
        merges = [tuple(merge.split(" ", 1)) for merge in metadata["tokenizer.ggml.merges"]]
    else:  # every split of a token into two tokens, best-scored result first
        if scores is None:
            raise ValueError("GGUF: a SentencePiece vocabulary with neither merges nor scores")
        candidates = [
            (score, token[:cut], token[cut:])
            for token, score in zip(tokens, scores, strict=True)
            for cut in range(1, len(token))
            if token[:cut] in vocab and token[cut:] in vocab
        ]
        candidates.sort(key=lambda c: (-c[0], -len(c[1]), -len(c[2])))  # stable: ids break ties
        merges = [(left, right) for _, left, right in candidates]
    unknown = special_token(metadata, "unknown") or "<unk>"
    tokenizer = Tokenizer(
        models.BPE(vocab, merges, unk_token=unknown, fuse_unk=True, byte_fallback=True)
    )
    prefix = metadata.get("tokenizer.ggml.add_space_prefix", True)
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="first" if prefix else "never", split=False
    )
    steps = [decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()]
    tokenizer.decoder = decoders.Sequence(
        steps + ([decoders.Strip(content=" ", left=1, right=0)] if prefix else [])
    )
    _add_special_tokens(tokenizer, metadata)
    _add_bos(tokenizer, metadata, vocab, default=True)
    return tokenizer


def special_token(metadata: dict, name: str) -> str | None:
    """The text of a special token (name: bos, eos, eot, unknown, padding), or None."""
    index = metadata.get(f"tokenizer.ggml.{name}_token_id")
    return None if index is None else metadata["tokenizer.ggml.tokens"][index]


def stop_ids(metadata: dict) -> list[int]:
    """Ids that end a reply: EOS, and the end-of-turn / end-of-message tokens where given."""
    names = ("eos", "eot", "eom")
    ids = [metadata.get(f"tokenizer.ggml.{name}_token_id") for name in names]
    return list(dict.fromkeys(i for i in ids if i is not None))


def chat_template(metadata: dict) -> str | None:
    """The file's default chat template (`tokenizer.chat_template`), or None."""
    return metadata.get("tokenizer.chat_template") or None
