import pytest
import torch

from llmkit import ConcatKVCache, StaticKVCache, Transformer
from llmkit.attention import build_mask


def _chunks(model, ids, cache, use_kv_len=False):
    """Prefill 5 tokens, a 3-token chunk at offset 5, then single tokens. use_kv_len: forward
    from an int start (only the filled slots are read); else forward_fixed at tensor positions
    (the whole cache, masked)."""
    bounds = [0, 5, 8, *range(9, ids.shape[1] + 1)]

    def chunk(a: int, b: int):
        if use_kv_len:
            return model(ids[:, a:b], a, cache)
        return model.forward_fixed(ids[:, a:b], torch.arange(a, b, device=ids.device), cache)

    logits = [chunk(a, b) for a, b in zip(bounds, bounds[1:], strict=False)]
    return torch.cat(logits, dim=1)


class TestCachedDecoding:
    @pytest.mark.parametrize("kv_heads", [4, 2, 1])  # MHA, GQA, MQA
    @pytest.mark.parametrize("kind", ["static", "static-kv-len", "concat"])
    def test_equals_recomputation(self, tiny_config, device, kv_heads, kind):
        config = tiny_config.replace(num_key_value_heads=kv_heads)
        model = Transformer(config).to(device).eval()
        ids = torch.randint(0, config.vocab_size, (2, 12), device=device)
        cache = (
            StaticKVCache(config, 2, 16, torch.float32, device)
            if kind.startswith("static")
            else ConcatKVCache(config)
        )
        with torch.no_grad():
            full = model(ids)
            cached = _chunks(model, ids, cache, use_kv_len=kind != "static")
        torch.testing.assert_close(cached, full, atol=1e-5, rtol=1e-5)

    def test_static_cache_reuse_after_reset_by_position(self, tiny_config):
        model = Transformer(tiny_config).eval()
        cache = StaticKVCache(tiny_config, 1, 16)
        a, b = torch.randint(0, 97, (2, 1, 10))
        with torch.no_grad():
            _chunks(model, a, cache)  # fill with another sequence first
            torch.testing.assert_close(_chunks(model, b, cache), model(b), atol=1e-5, rtol=1e-5)


class TestStaticKVCache:
    def test_layout_and_bytes(self, tiny_config, device):
        cache = StaticKVCache(tiny_config, 3, 20, torch.bfloat16, device)
        assert len(cache.k) == tiny_config.num_hidden_layers
        assert cache.k[0].shape == (3, 2, 20, 16)
        assert cache.k[0].dtype == torch.bfloat16 and cache.k[0].device.type == device.type
        assert cache.nbytes == 2 * 2 * 3 * 2 * 20 * 16 * 2

    def test_written_in_place(self, tiny_config):
        cache = StaticKVCache(tiny_config, 1, 8)
        ptr = cache.k[1].data_ptr()
        k = torch.randn(1, 2, 2, 16)
        out_k, _ = cache.update(1, torch.tensor([3, 4]), k, k)
        assert out_k.data_ptr() == ptr
        assert torch.equal(cache.k[1][:, :, 3:5], k)
        assert torch.count_nonzero(cache.k[1][:, :, :3]) == 0

    def test_overflow(self, tiny_config):
        cache = StaticKVCache(tiny_config, 1, 8)
        with pytest.raises(ValueError, match=r"KV cache overflow: writing position 8 .*max_len=8"):
            cache.check(7, 8)  # what the model asks before any layer writes

    def test_model_checks_overflow_before_writing(self, tiny_config):
        model = Transformer(tiny_config)
        cache = StaticKVCache(tiny_config, 1, 4)
        with pytest.raises(ValueError, match="KV cache overflow: writing position 5"):
            model(torch.zeros(1, 3, dtype=torch.long), 3, cache)

    def test_mask_by_position(self, tiny_config):
        """The mask the model builds over the whole buffer (a compiled step's fixed shapes)."""
        cache = StaticKVCache(tiny_config, 1, 5)
        expected = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 0]], dtype=torch.bool)
        positions = torch.tensor([2, 3])
        assert torch.equal(build_mask(positions, cache.key_slots(positions)), expected)


class TestConcatKVCache:
    def test_grows_and_counts_bytes(self, tiny_config):
        cache = ConcatKVCache(tiny_config)
        k = torch.randn(1, 2, 3, 16)
        for layer in range(2):
            cache.update(layer, torch.arange(3), k, k)
        assert len(cache) == 3 and cache.nbytes == 2 * 2 * 3 * 2 * 16 * 4

    def test_append_only(self, tiny_config):
        cache = ConcatKVCache(tiny_config)
        k = torch.randn(1, 2, 3, 16)
        for layer in range(2):
            cache.update(layer, torch.arange(3), k, k)
        with pytest.raises(ValueError, match="holds 3 positions, got a write at position 5"):
            cache.check(5, 5)  # what the model asks before any layer writes


def test_rope_table_overflow_in_model(tiny_config):
    model = Transformer(tiny_config)
    with pytest.raises(
        ValueError, match=r"position 64 is outside the RoPE table \(max_seq_len=64\)"
    ):
        model(torch.zeros(1, 2, dtype=torch.long), 63)


def test_a_following_cache_moves_its_slots_with_its_buffers(tiny_config):
    """dtype=None: the first write decides dtype and device, of K/V and of the slot index alike
    (else key_slots would stay behind on the old device and the mask could not be built)."""
    cache = StaticKVCache(tiny_config, 1, 8)
    k = torch.empty(1, 2, 1, 16, dtype=torch.bfloat16, device="meta")
    cache.update(0, torch.tensor([0], device="meta"), k, k)
    assert cache.k[0].device.type == "meta" and cache.k[0].dtype == torch.bfloat16
    assert cache.key_slots(torch.tensor([0], device="meta")).device.type == "meta"
