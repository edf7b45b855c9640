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
