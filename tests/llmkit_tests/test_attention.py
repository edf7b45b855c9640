import math

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

from llmkit import Attention, RotaryEmbedding, attention_weights, causal_mask
from llmkit.attention import sdpa


def _reference(q, k, v, mask):
    """float64, K/V heads repeated explicitly (the textbook definition, not the fast path)."""
    groups = q.shape[1] // k.shape[1]
    k = k.double().repeat_interleave(groups, dim=1)
    v = v.double().repeat_interleave(groups, dim=1)
    scores = q.double() @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(-1)
    return weights @ v, weights


class TestCausalMask:
    def test_bottom_right(self):
        expected = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
        assert torch.equal(causal_mask(2, 5), expected)

    @pytest.mark.parametrize("q_len,k_len", [(1, 1), (4, 4), (3, 7), (1, 9)])
    def test_equals_shifted_tril(self, q_len, k_len):
        expected = torch.ones(q_len, k_len, dtype=torch.bool).tril(diagonal=k_len - q_len)
        assert torch.equal(causal_mask(q_len, k_len), expected)

    def test_is_causal_is_top_left_for_short_queries(self):
        # Why causal_mask exists: is_causal=True hides keys the last query chunk must see.
        q = torch.randn(1, 1, 4, 8)
        k, v = torch.randn(2, 1, 1, 6, 8).unbind(0)
        ours = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(4, 6))
        top_left = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        assert not torch.allclose(ours, top_left)


class TestAttentionPaths:
    @pytest.mark.parametrize("heads,kv_heads", [(8, 8), (8, 2), (8, 1)])
    @pytest.mark.parametrize("q_len,k_len", [(6, 6), (2, 6), (1, 6)])
    def test_fast_and_explicit_equal_reference(self, device, heads, kv_heads, q_len, k_len):
        q = torch.randn(2, heads, q_len, 16, device=device)
        k, v = torch.randn(2, 2, kv_heads, k_len, 16, device=device)
        mask = causal_mask(q_len, k_len, device=device)
        ref_out, ref_w = _reference(q, k, v, mask)
        out, w = attention_weights(q, k, v, mask)
        torch.testing.assert_close(out.double(), ref_out, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(w.double(), ref_w, atol=1e-6, rtol=1e-5)
        fast_mask = (
            None if q_len == k_len or q_len == 1 else mask
        )  # None = causal prefill / no mask
        torch.testing.assert_close(sdpa(q, k, v, fast_mask).double(), ref_out, atol=1e-5, rtol=1e-5)

    def test_module_returns_weights(self, tiny_config, device):
        attn = Attention(tiny_config).to(device)
        x = torch.randn(2, 5, tiny_config.hidden_size, device=device)
        cos_sin = RotaryEmbedding.from_config(tiny_config).to(device)(
            torch.arange(5, device=device)
        )
        out, weights = attn.forward_with_weights(x, cos_sin)
        torch.testing.assert_close(out, attn(x, cos_sin), atol=1e-5, rtol=1e-5)
        assert weights.shape == (2, tiny_config.num_attention_heads, 5, 5)
        torch.testing.assert_close(weights.sum(-1), torch.ones(2, 4, 5, device=device))
        assert torch.all(weights.triu(diagonal=1) == 0)

    def test_gqa_never_repeats_kv(self, tiny_config):
        ops = []

        class Log(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                ops.append(str(func))
                return func(*args, **(kwargs or {}))

        attn = Attention(tiny_config)
        cos_sin = RotaryEmbedding.from_config(tiny_config)(torch.arange(5))
        with torch.no_grad(), Log():
            attn(torch.randn(1, 5, tiny_config.hidden_size), cos_sin)
        assert not [op for op in ops if "repeat" in op or "expand" in op]

    def test_projection_shapes(self, tiny_config):
        attn = Attention(tiny_config.replace(num_key_value_heads=1))
        assert attn.k_proj.weight.shape == (16, 64)  # one KV head of 16 dims (MQA)
        assert attn.q_proj.weight.shape == (64, 64)
