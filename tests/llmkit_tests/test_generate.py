import pytest
import torch

from llmkit import Transformer
from llmkit.generate import generate


@pytest.fixture
def model(tiny_config, device):
    return Transformer(tiny_config).to(device).eval()


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
        runs = [
            model.generate(
                prompt,
                20,
                temperature=1.0,
                top_k=10,
                generator=torch.Generator(device).manual_seed(7),
            )
            for _ in range(2)
        ]
        assert torch.equal(*runs)

    def test_top_k_restricts_choices(self, model, device):
        prompt = torch.zeros(4, 2, dtype=torch.long, device=device)
        gen = torch.Generator(device).manual_seed(1)
        out, logits = model.generate(
            prompt, 16, temperature=2.0, top_k=3, generator=gen, return_logits=True
        )
        top3 = logits.topk(3, dim=-1).indices  # [B, N, 3]
        assert torch.all((top3 == out[:, 2:, None]).any(-1))

    def test_top_k_one_is_greedy(self, model, device):
        prompt = torch.zeros(1, 2, dtype=torch.long, device=device)
        greedy = model.generate(prompt, 8)
        sampled = model.generate(
            prompt, 8, temperature=0.7, top_k=1, generator=torch.Generator(device).manual_seed(3)
        )
        assert torch.equal(greedy, sampled)

    def test_too_long(self, model, device):
        with pytest.raises(
            ValueError, match=r"= 65 positions exceed the RoPE table \(max_position_embeddings=64\)"
        ):
            model.generate(torch.zeros(1, 5, dtype=torch.long, device=device), 60)

    def test_unknown_cache(self, model, device):
        with pytest.raises(ValueError, match="cache must be 'static' or 'concat', got 'paged'"):
            model.generate(torch.zeros(1, 5, dtype=torch.long, device=device), 2, cache="paged")


def test_one_compiled_graph_serves_every_decode_step(tiny_config):
    """Tensor positions + index_copy_: the static-cache step compiles once, without graph breaks."""
    model = Transformer(tiny_config).eval()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def step(tokens, positions, cache):
        return model(tokens, positions, cache, check=False)[:, -1]

    torch._dynamo.reset()
    compiled = torch.compile(step, fullgraph=True, backend=backend, dynamic=False)
    prompt = torch.randint(0, 97, (1, 4))
    out = generate(model, prompt, 10, step_fn=compiled)
    assert torch.equal(out, generate(model, prompt, 10))
    assert len(graphs) == 1


def test_result_is_an_ordinary_tensor(model, device):
    out = model.generate(torch.zeros(1, 2, dtype=torch.long, device=device), 3)
    assert not out.is_inference()
    out[0, 0] = 1  # callers may edit what they get back
