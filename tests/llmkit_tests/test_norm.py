import pytest
import torch
import torch.nn.functional as F

from llmkit import RMSNorm, layer_norm, rms_norm


class TestRMSNorm:
    @pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-6), (torch.bfloat16, 1e-2)])
    def test_equals_torch_rmsnorm(self, device, dtype, tol):
        x = torch.randn(3, 5, 64, device=device, dtype=dtype) * 3
        ours = RMSNorm(64, eps=1e-6).to(device=device, dtype=dtype)
        ref = torch.nn.RMSNorm(64, eps=1e-6).to(device=device, dtype=dtype)
        with torch.no_grad():
            w = torch.rand(64, device=device) + 0.5
            ours.weight.copy_(w)
            ref.weight.copy_(w)
        out = ours(x)
        assert out.dtype == dtype and out.device.type == device.type
        # bf16: both round once or twice to bf16 (relative step 2^-8)
        torch.testing.assert_close(out.float(), ref(x).float(), atol=tol, rtol=tol)

    def test_closed_form(self):
        x = torch.tensor([[3.0, 4.0]])
        # mean(x^2) = 12.5
        torch.testing.assert_close(rms_norm(x, eps=0.0), x / 12.5**0.5)

    def test_eps_inside_sqrt(self):
        y = rms_norm(torch.zeros(1, 4), eps=1e-6)
        assert torch.equal(y, torch.zeros(1, 4))

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    def test_cast_before_weight(self, dtype):
        # HF order: normalize in fp32, cast to the input dtype, then multiply by the weight.
        x = torch.randn(4, 32).to(dtype)
        w = (torch.rand(32) + 0.5).to(dtype)
        x32 = x.float()
        expected = w * (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + 1e-6)).to(dtype)
        assert torch.equal(rms_norm(x, w), expected)
        module = RMSNorm(32).to(dtype)  # the module takes PyTorch's fused kernel
        with torch.no_grad():
            module.weight.copy_(w)
        torch.testing.assert_close(
            module(x), expected, atol=0, rtol=2**-7 if dtype == torch.bfloat16 else 1e-6
        )


class TestLayerNorm:
    def test_equals_functional(self, device):
        x = torch.randn(4, 48, device=device) * 2 + 1
        w, b = torch.randn(48, device=device), torch.randn(48, device=device)
        torch.testing.assert_close(
            layer_norm(x, w, b), F.layer_norm(x, (48,), w, b, 1e-5), atol=1e-5, rtol=1e-5
        )
