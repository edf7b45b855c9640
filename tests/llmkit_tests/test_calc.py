import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

import llmkit.attention
from llmkit import (
    PRESETS,
    ConcatKVCache,
    ModelConfig,
    StaticKVCache,
    Transformer,
    attention_weights,
    flops_per_token,
    kv_cache_bytes,
    kv_cache_bytes_for,
    param_count,
)


class TestKVCacheBytes:
    def test_llama2_7b_public_figure(self):
        assert kv_cache_bytes(32, 32, 128, 4096, bytes_per_elem=2) == 2_147_483_648
        assert kv_cache_bytes_for(PRESETS["llama2-7b"], 4096) == 2_147_483_648

    @pytest.mark.parametrize("name", sorted(PRESETS))
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_equals_static_cache_allocation(self, name, dtype):
        config = PRESETS[name]
        cache = StaticKVCache(config, batch_size=2, max_len=1024, dtype=dtype, device="meta")
        elem = torch.finfo(dtype).bits // 8
        assert cache.nbytes == kv_cache_bytes_for(config, 1024, elem, batch_size=2)


class TestParamCount:
    @pytest.mark.parametrize(
        "config",
        [
            *PRESETS.values(),
            ModelConfig.tiny().replace(tie_word_embeddings=True),
            ModelConfig.tiny().replace(norm_position="post", norm_type="layer", ffn_type="relu"),
        ],
    )
    def test_equals_model_parameters(self, config):
        with torch.device("meta"):
            model = Transformer(config)
        assert param_count(config) == sum(p.numel() for p in model.parameters())

    def test_llama2_7b(self):
        assert param_count(PRESETS["llama2-7b"]) == 6_738_415_616  # the released checkpoint's count


class TestFlopsPerToken:
    @pytest.mark.parametrize("kv_heads", [1, 2, 4])
    def test_equals_flop_counter_on_a_decode_step(self, tiny_config, kv_heads, monkeypatch):
        # FlopCounterMode does not see inside the fused CPU attention kernel: route attention
        # through the explicit matmul path so every multiply-add is counted.
        monkeypatch.setattr(
            llmkit.attention, "sdpa", lambda q, k, v, mask: attention_weights(q, k, v, mask)[0]
        )
        config = tiny_config.replace(num_key_value_heads=kv_heads)
        model = Transformer(config).eval()
        cache = ConcatKVCache(config)
        seq_len = 12
        with torch.no_grad():
            model(torch.zeros(1, seq_len - 1, dtype=torch.long), 0, cache)
            with FlopCounterMode(display=False) as counter:
                model(torch.zeros(1, 1, dtype=torch.long), seq_len - 1, cache)
        assert counter.get_total_flops() == flops_per_token(config, seq_len)
