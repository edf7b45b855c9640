import pytest
import torch

from llmkit import RotaryEmbedding, Transformer


@pytest.fixture
def model(tiny_config, device):
    return Transformer(tiny_config).to(device).eval()


class TestTransformer:
    def test_tied_embeddings_share_storage(self, tiny_config):
        model = Transformer(tiny_config.replace(tie_word_embeddings=True))
        assert model.lm_head.weight is model.embed.weight

    def test_one_rope_for_all_layers(self, model):
        """The model looks the angles up once per forward; no layer holds tables of its own."""
        ropes = [m for m in model.modules() if isinstance(m, RotaryEmbedding)]
        assert ropes == [model.rope]

    def test_last_only(self, model, device):
        ids = torch.randint(0, 97, (2, 6), device=device)
        with torch.no_grad():
            torch.testing.assert_close(model(ids, last_only=True), model(ids)[:, -1:])

    def test_bf16(self, tiny_config, device):
        model = Transformer(tiny_config).to(device=device, dtype=torch.bfloat16).eval()
        out = model.generate(torch.zeros(1, 3, dtype=torch.long, device=device), 4)
        assert out.shape == (1, 7) and out.device.type == device.type
