"""The inference-only fused QKV / gate-up weights must never serve stale weights."""

import torch

from llmkit import Transformer, count_kv_projections


def test_fused_weights_follow_in_place_updates(tiny_config, device):
    model = Transformer(tiny_config).to(device).eval()
    ids = torch.randint(0, 97, (2, 6), device=device)
    with torch.inference_mode():
        model(ids)  # builds the fused copies
    with torch.no_grad():
        for layer in model.layers:
            layer.attn.k_proj.weight.mul_(1.5)
            layer.ffn.w3.weight.add_(0.01)
    with torch.inference_mode():
        fused = model(ids)
    reference = model(ids)  # grad enabled: the separate Linears
    assert model.layers[0].attn._qkv._weight is not None
    torch.testing.assert_close(fused, reference.detach(), atol=1e-5, rtol=1e-5)


def test_fused_weights_dropped_on_dtype_change(tiny_config):
    model = Transformer(tiny_config).eval()
    ids = torch.randint(0, 97, (1, 5))
    with torch.inference_mode():
        model(ids)
        model.to(torch.float64)
        assert model.layers[0].attn._qkv._weight is None
        assert model(ids).dtype == torch.float64


def test_hooks_disable_fusion(tiny_config):
    # count_kv_projections hooks k_proj: the fused path would hide those calls.
    model = Transformer(tiny_config).eval()
    assert count_kv_projections(model, 2, 3, use_cache=True) == 4
