"""fuse_projections: opt-in, replaces the separate q/k/v and gate/up weights (no second copy) and
computes the same function."""

import pytest
import torch

from llmkit import (
    Attention,
    FusedAttention,
    FusedSwiGLU,
    SwiGLU,
    Transformer,
    count_kv_projections,
    fuse_projections,
    generate,
)


def _bytes(model) -> int:
    return sum(p.numel() * p.element_size() for p in model.parameters())


@pytest.mark.parametrize("variant", ["plain", "qkv_bias", "qk_norm"])
def test_fused_model_equals_unfused(tiny_config, device, variant):
    config = tiny_config.replace(**({} if variant == "plain" else {variant: True}))
    model = Transformer(config).to(device).eval()
    with torch.no_grad():  # biases and norm gains away from their init, so a dropped one shows
        for name, p in model.named_parameters():
            if name.endswith("bias") or "q_norm" in name or "k_norm" in name:
                p.add_(0.3 * torch.randn_like(p))
    ids = torch.randint(0, 97, (2, 9), device=device)
    with torch.no_grad():
        expected, tokens = model(ids), generate(model, ids[:, :4], 8)
    before = _bytes(model)
    fuse_projections(model)
    separate = (".q_proj.", ".k_proj.", ".v_proj.", ".w1.", ".w3.")
    for layer in model.layers:
        assert type(layer.attn) is FusedAttention and type(layer.ffn) is FusedSwiGLU
        assert not [n for n, _ in layer.named_parameters() if any(s in n for s in separate)]
    assert _bytes(model) == before  # replaced, not copied
    with torch.no_grad():
        torch.testing.assert_close(model(ids), expected, atol=1e-5, rtol=1e-5)
    assert torch.equal(generate(model, ids[:, :4], 8), tokens)


def test_fusion_is_opt_in(tiny_config):
    model = Transformer(tiny_config).eval()
    assert type(model.layers[0].attn) is Attention and type(model.layers[0].ffn) is SwiGLU
    assert not any("qkv_proj" in name or "gate_up" in name for name, _ in model.named_parameters())
    # count_kv_projections hooks k_proj, which an unfused model keeps.
    assert count_kv_projections(model, 2, 3, use_cache=True) == 4


def test_fusing_twice_changes_nothing(tiny_config):
    model = fuse_projections(Transformer(tiny_config).eval())
    weight = model.layers[0].attn.qkv_proj.weight
    assert fuse_projections(model).layers[0].attn.qkv_proj.weight is weight
