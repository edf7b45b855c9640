import pytest

from llmkit import Transformer, count_kv_projections


@pytest.mark.parametrize(
    "prompt_len,new,without,with_cache",
    [
        (1, 4, 10, 4),  # 1 + 2 + 3 + 4 vs one each
        (3, 5, 3 + 4 + 5 + 6 + 7, 3 + 4),
    ],
)
def test_kv_projections(tiny_config, prompt_len, new, without, with_cache):
    model = Transformer(tiny_config).eval()
    assert count_kv_projections(model, prompt_len, new, use_cache=False) == without
    assert count_kv_projections(model, prompt_len, new, use_cache=True) == with_cache
    assert not model.layers[0].attn.k_proj._forward_hooks  # the hook is removed
