import pytest
import torch
import torch.nn.functional as F

from llmkit import GELUFFN, ReLUFFN, SwiGLU, silu, swiglu_hidden_dim


class TestSwiGLUHiddenDim:
    @pytest.mark.parametrize(
        "dim,multiple_of,mult,expected",
        [
            (4096, 256, None, 11008),  # LLaMA-2-7B
            (5120, 256, None, 13824),  # LLaMA-2-13B
            (8192, 4096, 1.3, 28672),  # LLaMA-2-70B
            (4096, 1024, 1.3, 14336),  # LLaMA-3-8B
        ],
    )
    def test_published_widths(self, dim, multiple_of, mult, expected):
        assert swiglu_hidden_dim(dim, multiple_of, mult) == expected

    def test_parameters_match_relu_ffn(self):
        swiglu = SwiGLU(512, swiglu_hidden_dim(512, multiple_of=1))
        relu = ReLUFFN(512, 4 * 512)
        n = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
        assert abs(n(swiglu) - n(relu)) / n(relu) < 0.01


class TestFFNs:
    def test_silu(self, device):
        x = torch.linspace(-6, 6, 101, device=device)
        torch.testing.assert_close(silu(x), F.silu(x))

    def test_swiglu_closed_form(self, device):
        ffn = SwiGLU(16, 40).to(device)
        x = torch.randn(2, 3, 16, device=device)
        w1, w2, w3 = ffn.w1.weight, ffn.w2.weight, ffn.w3.weight
        gate = x @ w1.T
        expected = ((gate / (1 + torch.exp(-gate))) * (x @ w3.T)) @ w2.T
        torch.testing.assert_close(ffn(x), expected, atol=1e-5, rtol=1e-5)

    @pytest.mark.parametrize("cls,act", [(ReLUFFN, F.relu), (GELUFFN, F.gelu)])
    def test_two_matrix_ffns(self, cls, act):
        ffn = cls(16, 64)
        x = torch.randn(5, 16)
        torch.testing.assert_close(ffn(x), act(x @ ffn.w1.weight.T) @ ffn.w2.weight.T)
