"""Chapter 10: structure kept from the seed, bound numbers against references independent of llmkit,
and every visible code block runnable on its own.

The executor (tests/plugin) checks each binding against llmkit; here the same written values are
checked against closed forms computed with `math`/numpy only, so a bug in llmkit cannot hide behind a
binding that merely agrees with it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from llmbook.execute.numbers.precision import check, parse_written
from page_text import PageText

PAGE = Path(__file__).resolve().parents[2] / "docs" / "chapters" / "ch10-modern-llm.md"
TEXT = PAGE.read_text(encoding="utf-8")
LINES = TEXT.split("\n")

# From the seed chapter (shared/seeds/000_620776bf451fbb2e.txt): demo IDs in order, shapeflow lines.
SEED_DEMOS = ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
SEED_SHAPEFLOWS = [
    "生成第 t 步：K_past [B, H_kv, t−1, d_head] ⊕ K_new [B, H_kv, 1, d_head] → K [B, H_kv, t, d_head]",
    "Q_new [B, H_q, 1, d_head] × Kᵀ [B, H_kv, d_head, t] → scores [B, H_q, 1, t]",
    "MHA：Q [B, 32, S, d] × Kᵀ [B, 32, d, S] → scores [B, 32, S, S]",
    "GQA：Q [B, 32, S, d] → 每 4 个 Q head 共用 K/V [B, 8, S, d]（广播匹配）",
    "x [B, S, d] × W₁ [d, d_ff] → SiLU → [B, S, d_ff]（门）",
    "x [B, S, d] × W₃ [d, d_ff] → [B, S, d_ff]（内容）",
    "门 ⊙ 内容 → [B, S, d_ff] × W₂ [d_ff, d] → [B, S, d]",
]
SEED_DIRECTIVES = {
    "unfold",
    "shapeflow",
    "warning",
    "demo",
    "fold",
    "interview",
    "answer",
    "math",
    "key",
    "quiz",
    "related",
}


PAGE_TEXT = PageText(TEXT)
_outside_fences, _bindings, _written = (
    PAGE_TEXT.outside_fences,
    PAGE_TEXT.bindings,
    PAGE_TEXT.written,
)


def test_sections_10_1_to_10_8_in_order():
    heads = re.findall(r"^## (10\.\d)", TEXT, flags=re.M)
    assert heads == [f"10.{i}" for i in range(1, 9)]


def test_demo_ids_are_the_seeds_in_order():
    assert re.findall(r"^:::demo (\S+) ", TEXT, flags=re.M) == SEED_DEMOS


def test_shapeflows_keep_the_seed_lines():
    lines, inside = [], False
    for _, line in _outside_fences():
        if line.startswith(":::shapeflow"):
            inside = True
        elif inside and line == ":::":
            inside = False
        elif inside:
            lines.append(line)
    assert lines == SEED_SHAPEFLOWS


def test_every_seed_directive_kind_is_used_and_six_quizzes_are_complete():
    kinds = set(re.findall(r"^:::(\w[\w-]*)", TEXT, flags=re.M))
    assert SEED_DIRECTIVES <= kinds
    quizzes = re.findall(r"^:::quiz\n(.*?)\n:::$", TEXT, flags=re.M | re.S)
    assert len(quizzes) == 6
    for body in quizzes:
        options = re.findall(r"^([A-D])\. ", body, flags=re.M)
        assert options == ["A", "B", "C", "D"]
        assert re.search(r"^答案: [A-D]$", body, flags=re.M) and re.search(
            r"^解析: .+", body, flags=re.M
        )


def test_bindings_are_many_well_formed_and_pipe_free():
    bound = [b for b in _bindings() if b.expr is not None]
    cited = [b for b in _bindings() if b.source is not None]
    assert len(bound) >= 80, len(bound)
    assert len(cited) >= 3
    for b in bound:
        parse_written(b.written)  # raises on a value that is not a number or a vector
        assert "|" not in b.body, f"line {b.line}: a pipe inside a binding breaks tables"


def _rms_norm(x, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    return x / np.sqrt((x**2).mean() + eps)


def _layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean()) / np.sqrt(x.var() + eps)


def _llama_ffn(d, multiple_of=256, multiplier=None):
    hidden = int(2 * 4 * d / 3)
    if multiplier is not None:
        hidden = int(multiplier * hidden)
    return multiple_of * math.ceil(hidden / multiple_of)


def _llama_params(vocab, d, layers, heads, kv_heads, ff):
    head_dim = d // heads
    per_layer = 2 * d * d + 2 * d * kv_heads * head_dim + 3 * d * ff + 2 * d
    return 2 * vocab * d + layers * per_layer + d


_THETA128 = 10000.0 ** (-np.arange(0, 128, 2) / 128)
_SIG15 = 1 / (1 + math.exp(-1.5))
_X = [1.0, 2.0, 3.0, 4.0]
_GRID = np.linspace(-5, 0, 500001)

# (binding expression on the page, independent reference value)
REFERENCES = [
    ("kv7", 2 * 32 * 32 * 128 * 4096 * 2),
    ("kv7_gb", 2 * 32 * 32 * 128 * 4096 * 2 / 1e9),
    ("kv7_gib", 2.0),
    ("kv7_b8_gb", 8 * 2 * 32 * 32 * 128 * 4096 * 2 / 1e9),
    ("kv7_per_token_kb", 2 * 32 * 32 * 128 * 2 / 1e3),
    ("kv_gqa / 1e9", 2 * 32 * 8 * 128 * 4096 * 2 / 1e9),
    ("kv_mqa / 1e9", 2 * 32 * 1 * 128 * 4096 * 2 / 1e9),
    ("mqa_saving", 31 / 32),
    ("kv70_gb", 2 * 80 * 8 * 128 * 4096 * 2 / 1e9),
    ("proj_nocache", 1 + 2 + 3 + 4),
    ("proj32_nocache", 32 * 33 // 2),
    ("weights7_gb", 2 * _llama_params(32000, 4096, 32, 32, 32, 11008) / 1e9),
    ('r70["params"]', _llama_params(32000, 8192, 80, 64, 8, 28672) / 1e9),
    ('r3["params"]', _llama_params(128256, 4096, 32, 32, 8, 14336) / 1e9),
    ("q_1", [math.cos(math.pi / 4), math.sin(math.pi / 4)]),
    ("q_2", [math.cos(math.pi / 2), math.sin(math.pi / 2)]),
    ("dot_21", math.cos(math.pi / 4)),
    ("dot_20", math.cos(math.pi / 2)),
    ("slowest_period", 2 * math.pi / _THETA128[-1]),
    ("decay_16", float(np.cos(16 * _THETA128).mean())),
    ("decay_256", float(np.cos(256 * _THETA128).mean())),
    ("decay_4096", float(np.cos(4096 * _THETA128).mean())),
    ("rms4", math.sqrt(7.5)),
    ("rms_out", _rms_norm(_X).tolist()),
    ("ln_out", _layer_norm(_X).tolist()),
    ("std4", math.sqrt(1.25)),
    ("small_inside", _rms_norm(np.array(_X) * 1e-3).tolist()),
    ("small_outside", (np.array(_X) * 1e-3 / (math.sqrt(7.5) * 1e-3 + 1e-6)).tolist()),
    ("toy[24]", 0.7**24),
    ("1 + toy[12]", 1 + 0.7**12),
    ("sig_15", _SIG15),
    ("gate_s", 1.5 * _SIG15),
    ("hidden_s", 1.5 * _SIG15 * 0.8),
    ("out_s", 1.5 * _SIG15 * 0.8 * 1.2),
    ("silu_min", float((_GRID / (1 + np.exp(-_GRID))).min())),
    ("ff_exact", 8 / 3 * 4096),
    ("ff_llama", _llama_ffn(4096)),
    ("ff_llama3", _llama_ffn(4096, 1024, 1.3)),
    ("ff_llama70", _llama_ffn(8192, 4096, 1.3)),
    ("ff_param_ratio", 3 * 11008 / (8 * 4096) - 1),
    # exercise 10-1: LLaMA-2-70B's cache (80 layers, 8 KV heads of 128, S 4096, FP16) at batch 8
    ("kv70_gb * cfg70.num_groups", 2 * 80 * 8 * 128 * 4096 * 2 * 8 / 1e9),
]


@pytest.mark.parametrize(("expr", "reference"), REFERENCES, ids=[e for e, _ in REFERENCES])
def test_written_value_matches_an_independent_reference(expr, reference):
    assert check(parse_written(_written(expr)), reference) is None


def test_the_seeds_rounding_errors_are_not_on_the_page():
    # The seed wrote 1.460 (RMSNorm), 1.227/0.982/1.178 (SwiGLU chain); exact values differ.
    assert _written("rms_out").endswith("1.461]")
    assert (_written("gate_s"), _written("hidden_s"), _written("out_s")) == (
        "1.226",
        "0.981",
        "1.177",
    )


def _visible_blocks() -> list[tuple[int, str]]:
    blocks, buf, start, lang = [], [], 0, None
    for no, line in enumerate(LINES, 1):
        if lang is None and line.startswith("```"):
            lang, start, buf = line[3:].strip(), no, []
        elif lang is not None and line.strip() == "```":
            if lang == "python":
                blocks.append((start, "\n".join(buf)))
            lang = None
        elif lang is not None:
            buf.append(line)
    return blocks


@pytest.mark.parametrize(
    ("start", "code"), _visible_blocks(), ids=lambda v: str(v) if isinstance(v, int) else ""
)
def test_every_shown_block_runs_on_its_own(start, code, monkeypatch):
    """A reader can copy any shown block into a fresh interpreter: imports included, no hidden state."""
    from llmbook.execute.shell.figures import (
        figure_context,  # the build's matplotlib settings (CJK font)
    )

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    namespace: dict = {"__name__": "__main__"}
    with figure_context():
        exec(compile(code, f"{PAGE.name}:{start}", "exec"), namespace)


def test_the_chapter_and_its_translation_hold_the_gqa_exercise_with_its_solution():
    english = PAGE.with_name("ch10-modern-llm.en.md").read_text(encoding="utf-8")
    for text in (TEXT, english):
        exercises = re.findall(r"^:::exercise (.+) \{#(ex-[\w-]+)\}$", text, flags=re.M)
        assert [label for _, label in exercises] == ["ex-gqa-batch"]
        assert text.count("\n:::solution\n") == 1
