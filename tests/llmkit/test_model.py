import pytest
import torch

from llmkit import Transformer


@pytest.fixture
def model(tiny_config, device):
    return Transformer(tiny_config).to(device).eval()


class TestTransformer:
    def test_tied_embeddings_share_storage(self, tiny_config):
        model = Transformer(tiny_config.replace(tie_word_embeddings=True))
        assert model.lm_head.weight is model.embed.weight

    def test_rope_shared_by_layers(self, model):
        assert all(layer.attn.rope is model.rope for layer in model.layers)

    def test_last_only(self, model, device):
        ids = torch.randint(0, 97, (2, 6), device=device)
        with torch.no_grad():
            torch.testing.assert_close(model(ids, last_only=True), model(ids)[:, -1:])

    def test_bf16(self, tiny_config, device):
        model = Transformer(tiny_config).to(device=device, dtype=torch.bfloat16).eval()
        out = model.generate(torch.zeros(1, 3, dtype=torch.long, device=device), 4)
        assert out.shape == (1, 7) and out.device.type == device.type


class TestGenerate:
    @pytest.mark.parametrize("kv_heads", [4, 2, 1])
    def test_cache_kinds_agree_with_no_cache(self, tiny_config, device, kv_heads):
        model = Transformer(tiny_config.replace(num_key_value_heads=kv_heads)).to(device).eval()
        prompt = torch.randint(0, 97, (2, 5), device=device)
        ref, ref_logits = model.generate(prompt, 12, use_cache=False, return_logits=True)
        for kind in ("static", "concat"):
            out, logits = model.generate(prompt, 12, cache=kind, return_logits=True)
            assert torch.equal(out, ref)
            torch.testing.assert_close(logits, ref_logits, atol=1e-5, rtol=1e-5)
        assert torch.equal(ref[:, :5], prompt)

    def test_step_logits_are_the_forward_logits(self, model, device):
        prompt = torch.randint(0, 97, (1, 4), device=device)
        out, logits = model.generate(prompt, 6, return_logits=True)
        with torch.no_grad():
            full = model(out[:, :-1])[:, 3:]
        torch.testing.assert_close(logits, full, atol=1e-5, rtol=1e-5)
        assert torch.equal(out[:, 4:], full.argmax(-1))

    def test_sampling_is_reproducible_with_a_generator(self, model, device):
        prompt = torch.zeros(1, 2, dtype=torch.long, device=device)
        runs = [model.generate(prompt, 20, temperature=1.0, top_k=10,
                               generator=torch.Generator(device).manual_seed(7)) for _ in range(2)]
        assert torch.equal(*runs)

    def test_top_k_restricts_choices(self, model, device):
        prompt = torch.zeros(4, 2, dtype=torch.long, device=device)
        gen = torch.Generator(device).manual_seed(1)
        out, logits = model.generate(prompt, 16, temperature=2.0, top_k=3, generator=gen, return_logits=True)
        top3 = logits.topk(3, dim=-1).indices  # [B, N, 3]
        assert torch.all((top3 == out[:, 2:, None]).any(-1))

    def test_top_k_one_is_greedy(self, model, device):
        prompt = torch.zeros(1, 2, dtype=torch.long, device=device)
        greedy = model.generate(prompt, 8)
        sampled = model.generate(prompt, 8, temperature=0.7, top_k=1, generator=torch.Generator(device).manual_seed(3))
        assert torch.equal(greedy, sampled)

    def test_too_long(self, model, device):
        with pytest.raises(ValueError, match=r"= 65 positions exceed the RoPE table \(max_position_embeddings=64\)"):
            model.generate(torch.zeros(1, 5, dtype=torch.long, device=device), 60)

    def test_unknown_cache(self, model, device):
        with pytest.raises(ValueError, match="cache must be 'static' or 'concat', got 'paged'"):
            model.generate(torch.zeros(1, 5, dtype=torch.long, device=device), 2, cache="paged")
