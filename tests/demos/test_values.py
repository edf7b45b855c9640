"""The values the build embeds (grids and figures) equal llmkit and independent closed forms."""

from __future__ import annotations

import itertools
import math

import pytest
import torch
import torch.nn.functional as F
from demo_helpers import json_blocks, layouts, unescape_text

import llmkit
from bookdemos import kv_cache, mha_gqa, pre_post_norm

TOL = 1e-6  # float32 llmkit vs float64 closed forms


def test_rope_grid_matches_closed_form_rotation(grids):
    for case in grids["rope"]["cases"]:
        i, o = case["in"], case["out"]
        a, b = math.radians(i["m"] * i["theta"]), math.radians(i["n"] * i["theta"])
        q = (
            i["qx"] * math.cos(a) - i["qy"] * math.sin(a),
            i["qx"] * math.sin(a) + i["qy"] * math.cos(a),
        )
        k = (
            i["kx"] * math.cos(b) - i["ky"] * math.sin(b),
            i["kx"] * math.sin(b) + i["ky"] * math.cos(b),
        )
        assert o["qrot"] == pytest.approx(q, abs=TOL) and o["krot"] == pytest.approx(k, abs=TOL)
        # q'·k' = qᵀ R((n − m)θ) k: only the relative position enters.
        d = math.radians((i["n"] - i["m"]) * i["theta"])
        rel = i["qx"] * (math.cos(d) * i["kx"] - math.sin(d) * i["ky"]) + i["qy"] * (
            math.sin(d) * i["kx"] + math.cos(d) * i["ky"]
        )
        assert o["dot"] == pytest.approx(rel, abs=TOL)
        assert o["rel"] == i["m"] - i["n"]


def test_rope_figure_has_the_seed_example(rendered):
    for layout in layouts(rendered["rope"]["figure"]):
        text = unescape_text(layout)
        assert text.count("q′·k′ = 0.707") == 2 and "q′·k′ = 0 " in text + " "


def test_swiglu_grid_matches_closed_form(grids):
    for case in grids["swiglu"]["cases"]:
        i, o = case["in"], case["out"]
        z = i["x"] * i["w1"]
        gate = z / (1 + math.exp(-z))
        assert o["gate"] == pytest.approx(gate, abs=TOL)
        assert o["gate"] == pytest.approx(
            float(F.silu(torch.tensor(z, dtype=torch.float64))), abs=TOL
        )
        assert o["value"] == pytest.approx(i["x"] * i["w3"], abs=TOL)
        assert o["output"] == pytest.approx(gate * i["x"] * i["w3"] * i["w2"], abs=TOL)
        assert o["relu"] == max(0.0, z)


def test_swiglu_figure_shows_computed_not_seed_rounding(rendered):
    # The seed rounds σ(1.5) first (1.5 × 0.818 = 1.227); the exact SiLU(1.5) is 1.2264.
    for layout in layouts(rendered["swiglu"]["figure"]):
        text = unescape_text(layout)
        assert "= 1.226" in text and "= 0.981" in text and "= 1.177" in text


def test_norm_grid_matches_torch_functional(grids):
    for case in grids["norm-compare"]["cases"]:
        x = torch.tensor([case["in"][f"x{i}"] for i in range(4)], dtype=torch.float64)
        o = case["out"]
        ln = F.layer_norm(x, (4,), eps=1e-5)
        rms = F.rms_norm(x, (4,), eps=1e-6)
        assert o["ln_y"] == pytest.approx(ln.tolist(), abs=1e-5)
        assert o["rms_y"] == pytest.approx(rms.tolist(), abs=1e-5)
        assert o["ln_var"] == pytest.approx(float(x.var(unbiased=False)), abs=TOL)
        assert o["rms_rms"] == pytest.approx(math.sqrt(float((x * x).mean()) + 1e-6), abs=TOL)


def test_norm_figure_has_the_seed_example(rendered):
    for layout, value in itertools.product(
        layouts(rendered["norm-compare"]["figure"]),
        (
            "0.365",
            "0.73",
            "1.095",
            "1.461",
            "-1.342",
            "-0.447",
            "RMS = √(mean(x²)+ε) = 2.739",
        ),
    ):
        assert value in unescape_text(layout)


def test_kv_counts_match_the_closed_form(grids):
    stepper = [c for c in grids["kv-cache"]["cases"] if "p" in c["in"]]
    assert len(stepper) == 18
    for case in stepper:
        p, s, o = case["in"]["p"], case["in"]["step"], case["out"]
        assert o == {
            "nc_step": p + s - 1,
            "c_step": p if s == 1 else 1,
            "nc_total": s * p + s * (s - 1) // 2,
            "c_total": p + s - 1,
        }
    # The seed's table: prompt 1, 4 new tokens -> 10 vs 4, measured by llmkit.
    assert kv_cache.projection_counts(1, 4) == {
        "nc_step": 4,
        "c_step": 1,
        "nc_total": 10,
        "c_total": 4,
    }


def test_kv_memory_grid_matches_the_formula_and_presets(grids, rendered):
    memory = [c for c in grids["kv-cache"]["cases"] if "S" in c["in"]]
    assert len(memory) >= 12
    for case in memory:
        i = dict(case["in"])
        if "preset" in i:
            cfg = llmkit.PRESETS[i["preset"]]
            i.update(L=cfg.num_hidden_layers, kvh=cfg.num_key_value_heads, hd=cfg.head_dim)
        n = 2 * i["L"] * i["kvh"] * i["hd"] * i["S"] * i["dtype"] * i["B"]
        assert case["out"]["bytes"] == n
        assert case["out"]["gb"] == pytest.approx(n / 1e9) and case["out"]["gib"] == pytest.approx(
            n / 2**30
        )
    seed = [c for c in memory if c["in"].get("preset") == "llama2-7b" and c["in"]["S"] == 4096]
    assert seed[0]["out"]["bytes"] == 2_147_483_648  # the seed's "≈ 2.1 GB"
    for layout in layouts(rendered["kv-cache"]["figure"]):
        assert "累计 36" in layout and "累计 8" in layout


def test_mha_gqa_wiring_and_sizes(grids, rendered):
    for case in grids["mha-gqa"]["cases"]:
        cfg = llmkit.PRESETS[case["in"]["model"]]
        heads, kvh, seq = cfg.num_attention_heads, case["in"]["kvh"], case["in"]["S"]
        per_head = 2 * cfg.num_hidden_layers * cfg.head_dim * seq * 2
        assert case["out"]["bytes"] == per_head * kvh
        assert case["out"]["mha_gb"] == pytest.approx(per_head * heads / 1e9)
        assert case["out"]["group"] == heads // kvh
        if "wiring" in case:
            assert case["wiring"] == [h // (heads // kvh) for h in range(heads)]
    wide, narrow = (unescape_text(layout) for layout in layouts(rendered["mha-gqa"]["figure"]))
    for label in ("2.15 GB（MHA 的 1/1）", "0.54 GB（MHA 的 1/4）", "0.07 GB（MHA 的 1/32）"):
        assert label in wide
    for label in ("32）：2.15 GB（1/1）", "8）：0.54 GB（1/4）", "1）：0.07 GB（1/32）"):
        assert label in narrow


def test_mha_gqa_script_draws_llmkits_measured_wiring(rendered):
    # The widget's script draws the wiring from its config: one measured list per offered H_kv.
    models = json_blocks(rendered["mha-gqa"]["widget"])["config"]["models"]
    assert sorted(models) == sorted(mha_gqa.MODELS)
    for name, model in models.items():
        heads = llmkit.PRESETS[name].num_attention_heads
        assert sorted(model["wiring"], key=int) == [str(d) for d in model["divisors"]]
        for kvh, wiring in model["wiring"].items():
            assert wiring == [h // (heads // int(kvh)) for h in range(heads)], (name, kvh)


def test_kv_head_measurement_detects_a_wrong_grouping():
    # The measurement is not a restatement of h // g: interleaved grouping would give another answer.
    assert mha_gqa.kv_head_of_query(8, 2) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert mha_gqa.kv_head_of_query(8, 2) != [h % 2 for h in range(8)]


def test_pre_post_grid_is_llmkits_measurement(grids):
    cases = {c["in"]["depth"]: c["out"] for c in grids["pre-post-norm"]["cases"]}
    assert sorted(cases) == list(pre_post_norm.DEPTHS)
    for pos in ("pre", "post"):
        fresh = llmkit.grad_norm_by_depth(pos, [1, 12])
        assert [cases[1][pos], cases[12][pos]] == pytest.approx(fresh, rel=1e-6)
    for out in cases.values():
        assert out["ratio"] == pytest.approx(out["pre"] / out["post"])


@pytest.mark.parametrize(("p", "s"), [(1, 1), (1, 8), (2, 3), (3, 6), (2, 11)])
def test_kv_counts_from_one_run_equal_separate_generations(p, s):
    # The demo reads every step off one recorded run; separate llmkit counts must agree exactly.
    model = kv_cache._tiny_model()

    def total(n: int, use_cache: bool) -> int:
        with torch.no_grad():
            return llmkit.count_kv_projections(model, p, n, use_cache=use_cache) if n else 0

    assert kv_cache.projection_counts(p, s) == {
        "nc_step": total(s, False) - total(s - 1, False),
        "c_step": total(s, True) - total(s - 1, True),
        "nc_total": total(s, False),
        "c_total": total(s, True),
    }


def test_rope_scores_equal_one_rotation_at_a_time():
    # The vectorised grid must give bit-identical values to rotating each (distance, pair) alone.
    from bookdemos import rope

    distances = [0, 2, 7, 50, 200]
    mean, single = rope.relative_scores(distances)
    ones = torch.ones(2, dtype=torch.float64)
    freqs = llmkit.rope_frequencies(rope.HEAD_DIM).double()
    for i, delta in enumerate(distances):
        per_pair = [float(llmkit.rotate_2d(ones, delta * float(f)) @ ones) / 2 for f in freqs]
        assert mean[i] == sum(per_pair) / len(per_pair)
        assert single[i] == per_pair[rope.SINGLE_PAIR]
