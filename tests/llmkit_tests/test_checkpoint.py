"""from_pretrained: a local Hugging Face checkpoint folder (safetensors, single or sharded) loaded
on the meta device straight into its dtype, equal to transformers' LlamaForCausalLM."""

import json
import re

import pytest
import torch

transformers = pytest.importorskip("transformers")

from llmkit import Transformer, config_from_json, from_pretrained  # noqa: E402

# The small shape every family is tested at (GQA: 4 query heads, 2 KV heads).
DIMS = dict(
    vocab_size=512,
    hidden_size=128,
    intermediate_size=344,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=64,
    bos_token_id=None,
    eos_token_id=None,
    pad_token_id=None,
)


def _hf(tie: bool = False, rope: dict | None = None, **extra) -> "transformers.LlamaForCausalLM":
    config = transformers.LlamaConfig(
        **DIMS,
        rope_parameters=rope or {"rope_type": "default", "rope_theta": 10000.0},
        tie_word_embeddings=tie,
        **extra,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM._from_config(config, attn_implementation="sdpa")
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
    return model.eval()


def _logits(model, ids):
    with torch.no_grad():
        out = model(ids)
    return out.logits if hasattr(out, "logits") else out


@pytest.mark.parametrize("shard", [None, "60KB"], ids=["single", "sharded"])
@pytest.mark.parametrize("tie", [False, True], ids=["untied", "tied"])
def test_logits_equal_transformers(tmp_path, shard, tie) -> None:
    hf = _hf(tie=tie)
    hf.save_pretrained(
        tmp_path, safe_serialization=True, **({"max_shard_size": shard} if shard else {})
    )
    if shard:
        assert (tmp_path / "model.safetensors.index.json").is_file()
    ours = from_pretrained(tmp_path)
    ids = torch.randint(0, 512, (2, 20))
    torch.testing.assert_close(_logits(ours, ids), _logits(hf, ids), atol=1e-5, rtol=1e-5)
    assert (ours.lm_head.weight is ours.embed.weight) == tie


def test_weights_load_straight_into_the_requested_dtype(tmp_path) -> None:
    hf = _hf()
    hf.save_pretrained(tmp_path, safe_serialization=True)
    ours = from_pretrained(tmp_path, dtype=torch.bfloat16)
    assert {p.dtype for p in ours.parameters()} == {torch.bfloat16}
    assert all(p.device.type == "cpu" for p in ours.parameters())
    # RoPE tables are in no checkpoint: recomputed (float32), equal to a normally built model's.
    reference = Transformer(ours.config)
    assert ours.rope.cos.dtype == torch.float32
    torch.testing.assert_close(ours.rope.cos, reference.rope.cos, atol=0, rtol=0)
    torch.testing.assert_close(ours.rope.sin, reference.rope.sin, atol=0, rtol=0)
    hf_bf16 = hf.to(torch.bfloat16)
    ids = torch.randint(0, 512, (1, 12))
    torch.testing.assert_close(_logits(ours, ids), _logits(hf_bf16, ids), atol=3e-2, rtol=3e-2)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"hidden_act": "gelu"}, "hidden_act='gelu'"),
        ({"attention_bias": True}, "attention_bias=True"),
        ({"mlp_bias": True}, "mlp_bias=True"),
        ({"model_type": "gemma"}, "model_type='gemma'"),
        (
            {"rope_parameters": {"rope_type": "longrope", "rope_theta": 5e5, "factor": 8.0}},
            "rope_type 'longrope'",
        ),
        (
            {"rope_parameters": {"rope_type": "yarn", "rope_theta": 1e4, "factor": 4.0, "foo": 1}},
            "rope option(s) ['foo'] of rope_type 'yarn'",
        ),
        ({"partial_rotary_factor": 0.5}, "partial_rotary_factor != 1"),
    ],
)
def test_options_llmkit_does_not_model_are_refused_by_name(change, named) -> None:
    data = json.loads(_hf().config.to_json_string())
    data.update(change)
    with pytest.raises(ValueError, match="^config.json: " + re.escape(named)):
        config_from_json(data)


def test_a_folder_without_safetensors_is_a_clear_error(tmp_path) -> None:
    _hf().config.save_pretrained(tmp_path)
    with pytest.raises(FileNotFoundError, match="no model.safetensors"):
        from_pretrained(tmp_path)


@pytest.mark.parametrize(
    "rope",
    [
        {"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0},
        {
            "rope_type": "llama3",
            "rope_theta": 500000.0,
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 16,
        },
    ],
    ids=["linear", "llama3"],
)
def test_rope_scalings_equal_transformers(tmp_path, rope) -> None:
    """Llama 3.1/3.2 checkpoints (llama3) and position interpolation (linear), as HF computes them;
    a short original context puts the llama3 blend band inside this small head's frequencies."""
    hf = _hf(rope=rope)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    ours = from_pretrained(tmp_path)
    assert ours.config.rope_scaling["type"] == rope["rope_type"]
    ids = torch.randint(0, 512, (2, 60))
    torch.testing.assert_close(_logits(ours, ids), _logits(hf, ids), atol=1e-5, rtol=1e-5)


def _assert_equal_to_transformers(hf, tmp_path):  # noqa: ANN001, ANN202
    """Save `hf`, load it with from_pretrained: logits within 1e-5, 12 cached greedy tokens equal."""
    hf.save_pretrained(tmp_path, safe_serialization=True)
    ours = from_pretrained(tmp_path)
    ids = torch.randint(0, 512, (2, 24))
    torch.testing.assert_close(_logits(ours, ids), _logits(hf, ids), atol=1e-5, rtol=1e-5)
    with torch.no_grad():
        ref = hf.generate(ids[:1, :8], max_new_tokens=12, do_sample=False)
    assert torch.equal(ours.generate(ids[:1, :8], max_new_tokens=12, use_cache=True), ref)
    return ours


def test_qwen2_with_qkv_biases_equals_transformers(tmp_path) -> None:
    config = transformers.Qwen2Config(
        **DIMS, rope_parameters={"rope_type": "default", "rope_theta": 1000000.0}
    )
    torch.manual_seed(0)
    hf = transformers.Qwen2ForCausalLM._from_config(config, attn_implementation="sdpa").eval()
    with torch.no_grad():  # biases away from 0, so a dropped bias shows
        for name, p in hf.named_parameters():
            if name.endswith("proj.bias"):
                p.copy_(0.5 * torch.randn_like(p))
    ours = _assert_equal_to_transformers(hf, tmp_path)
    assert ours.config.qkv_bias and ours.layers[0].attn.o_proj.bias is None


def test_qwen2_sliding_window_is_refused() -> None:
    data = {"model_type": "qwen2", "use_sliding_window": True, "vocab_size": 8}
    with pytest.raises(ValueError, match="^config.json: use_sliding_window=True is not supported"):
        config_from_json(data)


def test_qwen3_with_per_head_qk_norm_equals_transformers(tmp_path) -> None:
    config = transformers.Qwen3Config(
        **DIMS,
        head_dim=48,  # Qwen3 sets head_dim apart from hidden_size / heads
        rope_parameters={"rope_type": "default", "rope_theta": 1000000.0},
    )
    torch.manual_seed(0)
    hf = transformers.Qwen3ForCausalLM._from_config(config, attn_implementation="sdpa").eval()
    with torch.no_grad():  # norm gains away from 1, so a missing q/k norm shows
        for name, p in hf.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.3 * torch.randn_like(p))
    ours = _assert_equal_to_transformers(hf, tmp_path)
    assert ours.config.qk_norm and ours.config.head_dim == 48
