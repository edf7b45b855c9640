"""llmkit against Hugging Face transformers' LlamaForCausalLM (random tiny weights, offline)."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from llmkit import from_hf, load_hf_state_dict  # noqa: E402
from llmkit.hf import config_from_hf, llmkit_to_hf_state_dict  # noqa: E402

PROMPT_LEN, NEW_TOKENS = 8, 32


def _hf_model(kv_heads: int, attn: str, device) -> "transformers.LlamaForCausalLM":
    config = transformers.LlamaConfig(
        vocab_size=1000,
        hidden_size=256,
        intermediate_size=688,
        num_hidden_layers=4,
        num_attention_heads=8,
        num_key_value_heads=kv_heads,
        max_position_embeddings=128,
        rms_norm_eps=1e-6,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=None,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM._from_config(config, attn_implementation=attn)
    with torch.no_grad():  # norm gains away from 1, so a swapped or missing norm weight shows
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
    return model.to(device).eval()


@pytest.fixture(
    params=[(2, "eager"), (2, "sdpa"), (1, "sdpa"), (8, "sdpa")],
    ids=["gqa-eager", "gqa-sdpa", "mqa", "mha"],
)
def pair(request, device):
    kv_heads, attn = request.param
    hf = _hf_model(kv_heads, attn, device)
    return hf, from_hf(hf)


class TestAgainstHF:
    def test_logits_batch(self, pair, device):
        hf, ours = pair
        ids = torch.randint(0, 1000, (3, 24), device=device)
        with torch.no_grad():
            expected = hf(ids).logits
            got = ours(ids)
        torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)

    @pytest.mark.slow
    def test_greedy_tokens_and_step_logits(self, pair, device):
        hf, ours = pair
        prompt = torch.randint(0, 1000, (2, PROMPT_LEN), device=device)
        ref = hf.generate(
            prompt,
            attention_mask=torch.ones_like(prompt),
            max_new_tokens=NEW_TOKENS,
            do_sample=False,
            eos_token_id=None,
            pad_token_id=0,
            output_logits=True,
            return_dict_in_generate=True,
        )
        for cache in ("static", "concat"):
            tokens, logits = ours.generate(prompt, NEW_TOKENS, cache=cache, return_logits=True)
            assert torch.equal(tokens, ref.sequences)
            torch.testing.assert_close(logits, torch.stack(ref.logits, dim=1), atol=1e-5, rtol=1e-5)

    def test_config_mapping(self, pair):
        hf, ours = pair
        c = ours.config
        assert (c.num_key_value_heads, c.head_dim, c.intermediate_size) == (
            hf.config.num_key_value_heads,
            32,
            688,
        )


class TestStateDict:
    def test_names_round_trip(self, device):
        hf = _hf_model(2, "sdpa", device)
        ours = from_hf(hf)
        back = llmkit_to_hf_state_dict(ours.state_dict())
        assert set(back) == set(hf.state_dict())
        for name, tensor in hf.state_dict().items():
            assert torch.equal(back[name], tensor), name

    def test_unknown_name(self, device):
        hf = _hf_model(2, "sdpa", device)
        ours = from_hf(hf)
        sd = dict(hf.state_dict())
        sd["model.layers.0.block_sparse_moe.gate.weight"] = torch.ones(4)
        with pytest.raises(
            ValueError,
            match="no mapping for parameter 'model.layers.0.block_sparse_moe.gate.weight'",
        ):
            load_hf_state_dict(ours, sd)

    def test_unsupported_rope_refused(self):
        config = transformers.LlamaConfig(
            vocab_size=10,
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            rope_parameters={
                "rope_type": "longrope",
                "rope_theta": 1e4,
                "factor": 2.0,
                "short_factor": [1.0] * 4,
                "long_factor": [1.0] * 4,
            },
        )
        with pytest.raises(ValueError, match="^config.json: rope_type 'longrope' is not supported"):
            config_from_hf(config)


def test_interleaved_model_with_permuted_weights_equals_hf(device):
    """Meta checkpoints use adjacent RoPE pairs: permuting q/k rows back must give HF's logits."""
    from llmkit import Transformer, interleaved_from_half_split

    hf = _hf_model(2, "sdpa", device)
    ours = from_hf(hf)
    meta = Transformer(ours.config.replace(rope_interleaved=True)).to(device).eval()
    sd = ours.state_dict()
    for name in list(sd):
        if name.endswith(("q_proj.weight", "k_proj.weight")):
            heads = 8 if "q_proj" in name else 2
            sd[name] = interleaved_from_half_split(sd[name], heads)
    meta.load_state_dict(sd)
    ids = torch.randint(0, 1000, (2, 16), device=device)
    with torch.no_grad():
        torch.testing.assert_close(meta(ids), hf(ids).logits, atol=1e-5, rtol=1e-5)
        meta.load_state_dict(ours.state_dict())  # same convention change without the permutation
        assert not torch.allclose(meta(ids), hf(ids).logits, atol=1e-3)
