"""from_pretrained: a local Hugging Face checkpoint folder (safetensors, single or sharded) loaded
on the meta device straight into its dtype, equal to transformers' LlamaForCausalLM."""

import json
import re

import pytest
import torch

transformers = pytest.importorskip("transformers")

from llmkit import Transformer, config_from_json, from_hf, from_pretrained  # noqa: E402
from llmkit.checkpoint import read_safetensors  # noqa: E402

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


def test_qwen2_sliding_window_is_refused() -> None:
    data = {"model_type": "qwen2", "use_sliding_window": True, "vocab_size": 8}
    with pytest.raises(ValueError, match="^config.json: use_sliding_window=True is not supported"):
        config_from_json(data)


def test_meta_loading_equals_eager_loading_exactly(tmp_path) -> None:
    """from_pretrained (meta build, assign, RoPE recomputed) = an eagerly built model given the same
    weights by load_state_dict: every tensor and the logits bit for bit."""
    hf = _hf()
    hf.save_pretrained(tmp_path, safe_serialization=True)
    meta = from_pretrained(tmp_path)
    eager = from_hf(hf)
    for (name, a), (_, b) in zip(
        meta.state_dict().items(), eager.state_dict().items(), strict=True
    ):
        assert torch.equal(a, b), name
    assert torch.equal(meta.rope.cos, eager.rope.cos) and torch.equal(meta.rope.sin, eager.rope.sin)
    ids = torch.randint(0, 512, (2, 30))
    assert torch.equal(_logits(meta, ids), _logits(eager, ids))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16, torch.int64])
def test_safetensors_reader_equals_the_safetensors_package(tmp_path, dtype) -> None:
    from safetensors.torch import load_file, save_file

    tensors = {
        "a": (torch.randn(3, 5) * 100).to(dtype),
        "b.weight": (torch.randn(7) * 100).to(dtype),
        "empty": torch.zeros(0, 4, dtype=dtype),
    }
    save_file(tensors, tmp_path / "x.safetensors", metadata={"format": "pt"})
    expected = load_file(tmp_path / "x.safetensors")
    got = dict(read_safetensors(tmp_path / "x.safetensors", dtype, torch.device("cpu")))
    assert got.keys() == expected.keys()
    for name, tensor in expected.items():
        assert got[name].dtype == tensor.dtype and torch.equal(got[name], tensor), name


_PEAK = """
import json, sys, torch, llmkit

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

# Before the baseline: kernels, and the ~80 MB of code torch imports on first use of `meta` (once
# per process, whatever the model's size).
torch.ones(1000) @ torch.ones(1000)
with torch.device("meta"):
    llmkit.Transformer(llmkit.ModelConfig.tiny())
open("/proc/self/clear_refs", "w").write("5")  # restart the peak (VmHWM) from here
baseline = status("VmRSS:")
model = llmkit.from_pretrained(sys.argv[1], dtype=torch.bfloat16)
weights = sum(p.numel() * p.element_size() for p in model.parameters())
print(json.dumps({"weights": weights, "peak_over_baseline": status("VmHWM:") - baseline}))
"""


@pytest.mark.slow
def test_peak_host_memory_of_a_sharded_bf16_checkpoint(tmp_path) -> None:
    """A 120 MB bf16 checkpoint in 8 shards loads with at most 1.2x its size of extra memory."""
    import subprocess
    import sys

    config = transformers.LlamaConfig(
        **{
            **DIMS,
            "vocab_size": 8192,
            "hidden_size": 1024,
            "intermediate_size": 2816,
            "num_hidden_layers": 4,
            "num_attention_heads": 8,
        }
    )
    hf = transformers.LlamaForCausalLM._from_config(config, dtype=torch.bfloat16)
    hf.save_pretrained(tmp_path, safe_serialization=True, max_shard_size="16MB")
    del hf
    assert len(list(tmp_path.glob("*.safetensors"))) >= 8
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(tmp_path)], capture_output=True, text=True, check=True
    )
    result = json.loads(done.stdout)
    assert result["weights"] > 100e6
    assert result["peak_over_baseline"] <= 1.2 * result["weights"], result
