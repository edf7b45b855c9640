import pytest

from llmkit import PRESETS, ModelConfig


class TestModelConfig:
    def test_head_dim_derived(self):
        assert ModelConfig.llama2_7b().head_dim == 128
        assert ModelConfig.tiny().head_dim == 32

    def test_presets_match_published_configs(self):
        # From the released params.json / config.json of each model.
        c = PRESETS["llama2-70b"]
        assert (
            c.hidden_size,
            c.num_hidden_layers,
            c.num_attention_heads,
            c.num_key_value_heads,
            c.intermediate_size,
        ) == (8192, 80, 64, 8, 28672)
        c = PRESETS["llama3-8b"]
        assert (c.vocab_size, c.num_key_value_heads, c.rope_theta, c.intermediate_size) == (
            128256,
            8,
            500000.0,
            14336,
        )
        assert set(PRESETS) == {"tiny", "medium", "llama2-7b", "llama2-70b", "llama3-8b"}

    def test_named_constructors_are_the_table_rows(self):
        for name, config in PRESETS.items():
            assert getattr(ModelConfig, name.replace("-", "_"))() is config
            assert ModelConfig.preset(name) is config

    def test_unknown_preset(self):
        with pytest.raises(
            ValueError,
            match=r"^no preset 'llama9'; presets: tiny, medium, llama2-7b, llama2-70b, llama3-8b$",
        ):
            ModelConfig.preset("llama9")

    def test_medium_is_the_benchmark_config(self):
        c = ModelConfig.medium()
        assert (
            c.vocab_size,
            c.hidden_size,
            c.num_hidden_layers,
            c.num_attention_heads,
            c.num_key_value_heads,
            c.intermediate_size,
        ) == (32000, 768, 12, 12, 4, 2048)

    def test_num_groups(self):
        assert ModelConfig.llama2_70b().num_groups == 8

    def test_heads_not_divisible(self):
        with pytest.raises(
            ValueError,
            match=r"num_attention_heads \(8\) must be divisible by num_key_value_heads \(3\)",
        ):
            ModelConfig.tiny().replace(num_key_value_heads=3)

    def test_odd_head_dim(self):
        with pytest.raises(ValueError, match="head_dim must be even for RoPE.*got 7"):
            ModelConfig.tiny().replace(head_dim=7)

    def test_bad_choice(self):
        with pytest.raises(
            ValueError, match="norm_position must be one of 'pre', 'post', got 'middle'"
        ):
            ModelConfig.tiny().replace(norm_position="middle")

    def test_hidden_not_divisible(self):
        with pytest.raises(ValueError, match=r"hidden_size \(250\) is not divisible"):
            ModelConfig.tiny().replace(hidden_size=250)

    def test_replace_rederives_head_dim(self):
        assert ModelConfig.tiny().replace(hidden_size=512).head_dim == 64
