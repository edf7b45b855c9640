"""Lesson 3, the notebook and the home page: the lesson format kept from the seed, bound numbers
against references independent of llmkit, the seed's errors kept off the page.

The executor (tests/plugin, and pytest's collection of docs/) checks each binding against llmkit;
here the same written values are checked against closed forms computed with `math` only, so a bug
in llmkit cannot hide behind a binding that merely agrees with it.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import yaml
from book_locales import ZH
from llmbook.directives import parse_directives
from llmbook.execute.numbers.precision import check, parse_written
from page_text import PageText

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "lessons" / "lesson03-five-upgrades.md"
TEXT = PAGE.read_text(encoding="utf-8")
LINES = TEXT.split("\n")
NOTEBOOK = ROOT / "docs" / "notebooks" / "llama-kv-cache.ipynb"
INDEX = ROOT / "docs" / "index.md"


PAGE_TEXT = PageText(TEXT)
_outside_fences, _bindings, _written = (
    PAGE_TEXT.outside_fences,
    PAGE_TEXT.bindings,
    PAGE_TEXT.written,
)


# --- the lesson format -------------------------------------------------------------------------


def test_six_cards_each_with_hint_background_tabbed_walkthrough_and_insight():
    doc = parse_directives(TEXT, src="docs/lessons/lesson03-five-upgrades.md", locale=ZH)
    cards = doc.blocks("card")
    assert [c.arg.split()[0] for c in cards] == ["1", "2", "3", "4", "5", "6"]
    for card in cards:
        assert [b.name for b in card.blocks()] == ["hint", "background", "walkthrough", "insight"]
        steps = card.blocks("walkthrough")[0].blocks("step")
        assert len(steps) >= 3, card.arg
        assert all(s.arg.startswith(f"Step {i}：") for i, s in enumerate(steps, 1)), card.arg
    assert [b.name for b in doc.blocks()][:3] == ["objectives", "chain", "progress"]


def test_objectives_list_each_goal_once_and_the_chain_has_six_steps():
    doc = parse_directives(TEXT, src="docs/lessons/lesson03-five-upgrades.md", locale=ZH)
    goals = [t for _, t in doc.blocks("objectives")[0].text_lines() if re.match(r"\d+\. ", t)]
    assert len(goals) == 3  # the seed printed goals 2 and 3 twice
    assert len({g.split(". ", 1)[1] for g in goals}) == 3
    steps = [t for _, t in doc.blocks("chain")[0].text_lines() if re.match(r"\d+\. ", t)]
    assert [s.split(".")[0] for s in steps] == ["1", "2", "3", "4", "5", "6"]


def test_many_bound_numbers_and_every_citation_names_its_source():
    bound = [b for b in _bindings() if b.expr is not None]
    cited = [b for b in _bindings() if b.source is not None]
    assert len(bound) >= 60
    keys = {b.source.split(",")[0] for b in cited}  # each cites its bibliography entry
    assert {"@shazeer2019fast", "@shazeer2020glu", "@zhang2019rmsnorm"} <= keys
    assert all("|" not in b.body for b in _bindings())


def test_illustrative_perplexities_are_labelled_and_not_bound():
    table = TEXT[TEXT.index("| 激活函数 | 验证 PPL（示意） |") :]
    table = table[: table.index("\n\n")]
    for value in ("9.7", "8.9", "8.5"):
        assert f"| [[~{value}]] |" in table  # marked illustrative: shown with a 示意 label
    illustrative = [b for b in _bindings() if b.written in ("9.7", "8.9", "8.5")]
    assert illustrative and all(b.illustrative for b in illustrative)  # never bound nor cited


# --- written values against closed forms (math only) -------------------------------------------

_PE = {p: (math.sin(p), math.cos(p)) for p in (1, 2, 3)}
_A1 = [0.5 + _PE[1][0], 0.3 + _PE[1][1], 0.8]  # 我 at position 1
_A3 = [0.7 + _PE[3][0], 0.1 + _PE[3][1], 0.6]  # 你 at position 3
_B1 = [0.7 + _PE[1][0], 0.1 + _PE[1][1], 0.6]
_B3 = [0.5 + _PE[3][0], 0.3 + _PE[3][1], 0.8]
_X = [1.2, -0.8, 0.5, -1.5]
_MU = sum(_X) / 4
_SIGMA = math.sqrt(sum((x - _MU) ** 2 for x in _X) / 4)
_RMS = math.sqrt(sum(x * x for x in _X) / 4)


def _rot(angle):
    return (
        0.8 * math.cos(angle) - 0.6 * math.sin(angle),
        0.6 * math.cos(angle) + 0.8 * math.sin(angle),
    )


def _kv(layers, kv_heads, head_dim, seq, nbytes=2):
    return 2 * layers * kv_heads * head_dim * seq * nbytes


def _swiglu_hidden(dim, multiple_of=256):
    hidden = int(2 * (4 * dim) / 3)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


REFERENCES = [
    ("A[0]", _A1),
    ("A[2]", _A3),
    ("B[0]", _B1),
    ("B[2]", _B3),
    ("dot_a", sum(a * b for a, b in zip(_A1, _A3, strict=True))),
    ("dot_b", sum(a * b for a, b in zip(_B1, _B3, strict=True))),
    ("added.tolist()", [0.8 + math.sin(1), 0.6 + math.cos(1)]),
    ("added.norm().item()", math.hypot(0.8 + math.sin(1), 0.6 + math.cos(1))),
    ("degrees(added)", math.degrees(math.atan2(0.6 + math.cos(1), 0.8 + math.sin(1)))),
    ("degrees(v)", math.degrees(math.atan2(0.6, 0.8))),
    ("x1", _rot(0.01)[0]),
    ("y1", _rot(0.01)[1]),
    ("x3", _rot(0.03)[0]),
    ("y3", _rot(0.03)[1]),
    ("dot_rot", math.cos(0.02)),
    ("math.cos(0.99)", 0.5486898605815875),
    ("freqs[-1].item()", 10000 ** (-126 / 128)),
    ("at_512 / KB", 511 * 8 * 4 * 64 * 2 * 2 / 1024),
    ("at_512 / MB", 511 * 8 * 4 * 64 * 2 * 2 / 1024**2),
    ("mha / MB", _kv(32, 32, 128, 1024) / 2**20),
    ("gqa / MB", _kv(32, 8, 128, 1024) / 2**20),
    ("mqa / MB", _kv(32, 1, 128, 1024) / 2**20),
    ("mha", _kv(32, 32, 128, 1024)),
    ("save_mqa", 31 / 32),
    ("save_gqa", 3 / 4),
    ("ppl_mqa / ppl_mha - 1", 30.2 / 29.9 - 1),
    ("mu", _MU),
    ("sigma", _SIGMA),
    ("ln_out.tolist()", [(x - _MU) / _SIGMA for x in _X]),
    ("ms", sum(x * x for x in _X) / 4),
    ("rms", _RMS),
    ("rms_out.tolist()", [x / _RMS for x in _X]),
    ("silu_out.tolist()", [h / (1 + math.exp(-h)) for h in (0.6, -0.3, 0.9, -0.2)]),
    ("gate[1].item()", 1 / (1 + math.exp(0.3))),
    ("ffn_swiglu", _swiglu_hidden(4096)),
    ("params_swiglu", 3 * 4096 * _swiglu_hidden(4096)),
    ("halves[24]", 2.0**-24),
    ("halves[32]", 2.0**-32),
    ("mha_70 / 1e9", _kv(80, 64, 128, 4096) / 1e9),
    ("gqa_70 / 1e9", _kv(80, 8, 128, 4096) / 1e9),
]


@pytest.mark.parametrize(("expr", "reference"), REFERENCES, ids=[e for e, _ in REFERENCES])
def test_written_value_matches_an_independent_reference(expr, reference):
    assert check(parse_written(_written(expr)), reference) is None


def test_the_seeds_errors_are_not_on_the_page():
    assert (
        _written("dot_a") == "0.860"
    )  # the seed mixed rounded (0.858) and unrounded (1.026) inputs
    assert _written("halves[24]") == "6.0e-8"  # the seed wrote 5.9 × 10⁻⁸
    assert "511 KB × 8层 = 4 MB" not in TEXT
    # A single RoPE frequency is periodic: the page must not claim that it decays with distance.
    assert "点积随着距离衰减" not in TEXT
    assert "math.cos(6.28)" in TEXT
    # LayerNorm is per token: the chain must not sell RMSNorm as "少一次跨卡同步".
    chain = TEXT[TEXT.index(":::chain") : TEXT.index(":::progress")]
    assert "跨卡" not in chain


# --- the notebook, the home page, mkdocs.yml ---------------------------------------------------


def test_notebook_checks_the_cache_ships_without_outputs_and_prints_no_timing():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert markdown[0].startswith("# ")
    assert (
        "count_kv_projections" in code and "torch.equal" in code and "num_key_value_heads" in code
    )
    assert "Noto Sans CJK SC" in code
    # A page must be the same on every build: nothing measures wall-clock time.
    assert "perf_counter" not in code and "import time" not in code
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    # Its prose numbers are bound like any page's.
    assert sum(m.count("[[") for m in markdown) >= 15


def _mkdocs_config() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # !ENV, !!python/…
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def test_the_notebook_is_a_page_of_our_engine_and_every_page_is_listed():
    config = _mkdocs_config()
    names = [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]
    assert "mkdocs-jupyter" not in names and "llmbook" in names  # no Jupyter kernel per build
    targets = [next(iter(entry.values())) for entry in config["nav"]]
    for path in ("index.md", "lessons/lesson03-five-upgrades.md", "notebooks/llama-kv-cache.ipynb"):
        assert path in targets


def test_home_page_links_every_chapter_and_explains_offline_reading():
    text = INDEX.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (ROOT / "docs" / target).is_file(), target
    for path in (
        "chapters/ch10-modern-llm.md",
        "lessons/lesson03-five-upgrades.md",
        "notebooks/llama-kv-cache.ipynb",
    ):
        assert f"]({path})" in text
    assert "site/index.html" in text and "file://" in text
