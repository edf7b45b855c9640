"""Every supported family and RoPE scaling against its transformers class, built from a small random
config and loaded with from_pretrained: logits within 1e-5 (fp32), 24 greedy tokens identical, and
batched left-padded generation identical to HF generate with the same padding."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from test_checkpoint import DIMS as _SHAPE  # noqa: E402 (the shape every family is tested at)

from llmkit import from_pretrained, generate  # noqa: E402

DIMS = {k: v for k, v in _SHAPE.items() if k != "max_position_embeddings"}

# name: (config class, model class, config options). Short original contexts put every scaling's
# interesting band inside this small head's frequencies and inside the tested lengths.
FAMILIES = {
    "llama-default": ("LlamaConfig", "LlamaForCausalLM", {"max_position_embeddings": 128}),
    "llama-linear": (
        "LlamaConfig",
        "LlamaForCausalLM",
        {
            "max_position_embeddings": 128,
            "rope_parameters": {"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0},
        },
    ),
    "llama-dynamic": (  # the base grows once a sequence passes 24 positions
        "LlamaConfig",
        "LlamaForCausalLM",
        {
            "max_position_embeddings": 24,
            "rope_parameters": {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 4.0},
        },
    ),
    "llama-yarn": (
        "LlamaConfig",
        "LlamaForCausalLM",
        {
            "max_position_embeddings": 128,
            "rope_parameters": {
                "rope_type": "yarn",
                "rope_theta": 10000.0,
                "factor": 8.0,
                "original_max_position_embeddings": 16,
            },
        },
    ),
    "llama-llama3": (
        "LlamaConfig",
        "LlamaForCausalLM",
        {
            "max_position_embeddings": 128,
            "rope_parameters": {
                "rope_type": "llama3",
                "rope_theta": 500000.0,
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 16,
            },
        },
    ),
    "qwen2": (
        "Qwen2Config",
        "Qwen2ForCausalLM",
        {
            "max_position_embeddings": 128,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1e6},
        },
    ),
    "qwen3": (
        "Qwen3Config",
        "Qwen3ForCausalLM",
        {
            "max_position_embeddings": 128,
            "head_dim": 48,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1e6},
        },
    ),
    "mistral": (  # a window of 7, far shorter than the sequences tested
        "MistralConfig",
        "MistralForCausalLM",
        {"max_position_embeddings": 128, "sliding_window": 7},
    ),
}

PROMPT, NEW = 12, 24  # 36 positions: past dynamic NTK's 24 and Mistral's window


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def pair(request, tmp_path_factory):
    """(name, HF model, llmkit model loaded from HF's own save_pretrained folder)."""
    config_name, model_name, options = FAMILIES[request.param]
    config = getattr(transformers, config_name)(**DIMS, **options)
    torch.manual_seed(0)
    hf = getattr(transformers, model_name)._from_config(config, attn_implementation="sdpa").eval()
    with torch.no_grad():  # norms and biases away from their init, so a dropped one shows
        for name, p in hf.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.3 * torch.randn_like(p))
            elif name.endswith("bias"):
                p.copy_(0.5 * torch.randn_like(p))
    folder = tmp_path_factory.mktemp(request.param)
    hf.save_pretrained(folder, safe_serialization=True)
    return request.param, hf, from_pretrained(folder)


def _hf_generate(hf, ids, mask=None):
    with torch.no_grad():
        return hf.generate(
            ids,
            attention_mask=torch.ones_like(ids) if mask is None else mask,
            max_new_tokens=NEW,
            min_new_tokens=NEW,
            do_sample=False,
            pad_token_id=0,
        )


def test_logits_equal_transformers(pair) -> None:
    name, hf, ours = pair
    ids = torch.randint(0, 512, (2, PROMPT + NEW))
    with torch.no_grad():
        expected = hf(ids).logits
    torch.testing.assert_close(ours(ids), expected, atol=1e-5, rtol=1e-5)


def test_greedy_tokens_equal_transformers(pair) -> None:
    name, hf, ours = pair
    ids = torch.randint(0, 512, (1, PROMPT))
    expected = _hf_generate(hf, ids)
    assert torch.equal(generate(ours, ids, NEW), expected)
    assert torch.equal(generate(ours, ids, NEW, cache="concat"), expected)


def test_left_padded_batch_equals_transformers(pair) -> None:
    """Rows of 12, 7 and 3 tokens share a batch; each row also equals its own unpadded run."""
    name, hf, ours = pair
    lengths = [PROMPT, 7, 3]
    ids = torch.randint(1, 512, (len(lengths), PROMPT))
    mask = torch.zeros_like(ids)
    for row, n in enumerate(lengths):
        ids[row, : PROMPT - n] = 0
        mask[row, PROMPT - n :] = 1
    expected = _hf_generate(hf, ids, mask)
    got = generate(ours, ids, NEW, attention_mask=mask)
    assert torch.equal(got, expected)
    if name == "llama-dynamic":
        return  # dynamic NTK scales by the batch's longest row (HF too), so rows depend on it
    for row, n in enumerate(lengths):
        alone = generate(ours, ids[row : row + 1, PROMPT - n :], NEW)
        assert torch.equal(got[row, PROMPT - n :], alone[0])
