import sys

import pytest
import torch

from llmkit import StaticKVCache, Transformer
from llmkit.generate import decode_n_tokens, decode_one_token, generate, prefill


@pytest.fixture
def model(tiny_config, device):
    return Transformer(tiny_config).to(device).eval()


class TestGenerate:
    @pytest.mark.parametrize("kv_heads", [4, 2, 1])
    def test_cache_kinds_agree_with_no_cache(self, tiny_config, device, kv_heads):
        model = Transformer(tiny_config.replace(num_key_value_heads=kv_heads)).to(device).eval()
        prompt = torch.randint(0, 97, (2, 5), device=device)
        ref, ref_logits = model.generate(prompt, 12, cache=None, return_logits=True)
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
        with pytest.raises(
            ValueError, match="cache must be 'static', 'concat' or None, got 'paged'"
        ):
            model.generate(torch.zeros(1, 5, dtype=torch.long, device=device), 2, cache="paged")


def test_one_compiled_graph_serves_every_decode_step(tiny_config):
    """Tensor positions + index_copy_: the static-cache step compiles once, without graph breaks."""
    model = Transformer(tiny_config).eval()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def step(tokens, positions, cache):
        return model.forward_fixed(tokens, positions, cache)[:, -1]

    torch._dynamo.reset()
    compiled = torch.compile(step, fullgraph=True, backend=backend, dynamic=False)
    prompt = torch.randint(0, 97, (1, 4))
    cache = StaticKVCache(tiny_config, 1, 14)
    out, positions = torch.cat((prompt, torch.zeros(1, 10, dtype=torch.long)), 1), torch.arange(14)
    with torch.no_grad():  # a greedy loop: eager prefill, then the compiled step
        logits = model(prompt, 0, cache)[:, -1]
        for t in range(4, 14):
            out[:, t] = logits.argmax(-1)
            if t + 1 < 14:
                logits = compiled(out[:, t : t + 1], positions[t : t + 1], cache)
    assert torch.equal(out, generate(model, prompt, 10))
    assert len(graphs) == 1


def test_result_is_an_ordinary_tensor(model, device):
    out = model.generate(torch.zeros(1, 2, dtype=torch.long, device=device), 3)
    assert not out.is_inference()
    out[0, 0] = 1  # callers may edit what they get back


class TestCompiledDecodeStep:
    """generate(compile=...) compiles model.decode_step once per model: fixed shapes over the
    model's own cache buffers, for padded batches and for a rolling sliding-window cache."""

    @staticmethod
    def _counting(monkeypatch):
        graphs = []

        def backend(gm, example_inputs):
            graphs.append(gm)
            return gm.forward

        def compiled_step(model, mode=True):
            steps = model.__dict__.setdefault("_test_steps", {})
            if mode not in steps:
                steps[mode] = torch.compile(
                    model.decode_step, fullgraph=True, dynamic=False, backend=backend
                )
            return steps[mode]

        # llmkit.generate is also the function's name: patch the module itself
        monkeypatch.setattr(sys.modules["llmkit.generate"], "compiled_step", compiled_step)
        return graphs

    @pytest.mark.parametrize("window", [None, 5], ids=["static", "rolling"])
    def test_one_graph_serves_every_step_and_call(self, tiny_config, monkeypatch, window):
        model = Transformer(tiny_config.replace(sliding_window=window)).eval()
        graphs = self._counting(monkeypatch)
        torch._dynamo.reset()
        ids = torch.randint(1, 97, (2, 8))
        mask = torch.ones_like(ids)
        mask[1, :3] = 0  # the second row is 5 tokens, left-padded
        first = generate(model, ids, 12, attention_mask=mask, compile=True)
        cache = model.kv_cache
        second = generate(model, ids.flip(0), 12, attention_mask=mask.flip(0), compile=True)
        assert len(graphs) == 1
        assert model.kv_cache is cache  # the buffers the graph was made for, reused
        assert torch.equal(first, generate(model, ids, 12, attention_mask=mask))
        assert torch.equal(second, generate(model, ids.flip(0), 12, attention_mask=mask.flip(0)))

    def test_cache_is_the_models_own_buffers(self, tiny_config):
        model = Transformer(tiny_config).to(torch.bfloat16).eval()
        generate(model, torch.zeros(1, 4, dtype=torch.long), 4)
        buffers = dict(model.named_buffers())
        assert buffers["kv_cache.k0"].dtype == torch.bfloat16
        assert "kv_cache.k0" not in model.state_dict()  # never saved with the weights
        cache = model.kv_cache
        generate(model, torch.zeros(1, 6, dtype=torch.long), 2)  # fits: reused
        assert model.kv_cache is cache
        generate(model, torch.zeros(2, 6, dtype=torch.long), 2)  # another batch size: replaced
        assert model.kv_cache is not cache and model.kv_cache.batch_size == 2

    @pytest.mark.slow
    def test_inductor_compiled_step_equals_eager(self, tiny_config):
        """The real compiler (inductor), padded batch, sliding window."""
        model = Transformer(tiny_config.replace(sliding_window=5)).eval()
        ids = torch.randint(1, 97, (2, 8))
        mask = torch.ones_like(ids)
        mask[0, :2] = 0
        torch._dynamo.reset()
        got = generate(model, ids, 12, attention_mask=mask, compile=True)
        assert torch.equal(got, generate(model, ids, 12, attention_mask=mask))


def test_eos_stops_each_row_and_streams(tiny_config):
    model = Transformer(tiny_config).eval()
    ids = torch.randint(1, 97, (2, 5))
    free = generate(model, ids, 10)
    eos = int(free[0, 5 + 3])  # what row 0 picks at its 4th step
    streamed = []
    out = generate(model, ids, 10, eos_token_id=eos, on_token=lambda t: streamed.append(t.clone()))
    assert torch.equal(torch.stack(streamed, dim=1), out[:, 5:])
    for row in range(2):
        new = free[row, 5:].tolist()
        stop = new.index(eos) + 1 if eos in new else len(new)
        assert out[row, 5 : 5 + stop].tolist() == new[:stop]
        assert set(out[row, 5 + stop :].tolist()) <= {eos}  # finished rows repeat EOS
    assert out.shape[1] == 5 + 10 or all(eos in row for row in out[:, 5:].tolist())


def test_static_cache_follows_the_model_dtype(tiny_config):
    """A hand-built StaticKVCache without a dtype takes the dtype of the first K written."""
    model = Transformer(tiny_config).to(torch.bfloat16).eval()
    cache = StaticKVCache(tiny_config, 1, 16)
    with torch.no_grad():
        model(torch.zeros(1, 3, dtype=torch.long), 0, cache)
    assert cache.k[0].dtype == torch.bfloat16
    fixed = StaticKVCache(tiny_config, 1, 16, dtype=torch.float32)
    with pytest.raises(
        ValueError,
        match="the KV cache holds torch.float32 on cpu but the model writes torch.bfloat16",
    ):
        with torch.no_grad():
            model(torch.zeros(1, 3, dtype=torch.long), 0, fixed)


def test_the_named_phases_compose_to_generate(tiny_config):
    """prefill, then decode_one_token per new token, sampled by decode_n_tokens: generate's tokens."""
    model = Transformer(tiny_config).eval()
    prompt = torch.randint(1, 97, (2, 5))
    out = torch.cat((prompt, torch.zeros(2, 7, dtype=torch.long)), dim=1)
    cache = StaticKVCache(tiny_config, 2, 12)

    def greedy(logits):
        return logits.argmax(-1)

    greedy.done = False
    with torch.no_grad():
        logits = prefill(model, prompt, cache, None)
        torch.testing.assert_close(logits, model(prompt)[:, -1])

        def next_logits(pos):
            return decode_one_token(model, out[:, pos : pos + 1], pos, cache, None)

        n, kept = decode_n_tokens(next_logits, out, 5, logits, greedy, keep_logits=True)
    assert n == 7 and len(kept) == 7
    assert torch.equal(out, generate(model, prompt, 7))


def test_forward_refuses_tensor_positions(tiny_config):
    model = Transformer(tiny_config).eval()
    with pytest.raises(
        TypeError,
        match=r"^Transformer.forward takes the chunk's first position as an int; for tensor "
        r"positions \(fixed shapes, compiled\) call model.forward_fixed\(ids, positions, cache\)$",
    ):
        model(torch.zeros(1, 1, dtype=torch.long), torch.tensor([3]))
