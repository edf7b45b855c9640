"""llmkit.Linear: nn.Linear in eager code; traced by torch.compile on a one-row CPU input, a
multiply-and-sum reduction instead of a BLAS call, equal to F.linear within fp32 rounding."""

import pytest
import torch
import torch.nn.functional as F
from torch._inductor.utils import run_and_get_code

from llmkit import Linear, Transformer, generate


def _layer(bias: bool) -> Linear:
    layer = Linear(48, 40, bias=bias)
    with torch.no_grad():
        layer.weight.normal_()
        if bias:
            layer.bias.normal_()
    return layer


def _blas_calls(code: str) -> int:
    """How many matrix products the generated code hands to BLAS (extern_kernels.mm/addmm/bmm)."""
    return sum(code.count(f"extern_kernels.{op}(") for op in ("mm", "addmm", "bmm"))


def _compiled_code(layer: Linear, x: torch.Tensor) -> tuple[torch.Tensor, str]:
    torch._dynamo.reset()
    with torch.no_grad():
        out, code = run_and_get_code(torch.compile(layer, fullgraph=True, dynamic=False), x)
    return out, "\n".join(code)


@pytest.mark.parametrize("bias", [False, True], ids=["plain", "bias"])
def test_eager_is_nn_linear(bias):
    layer = _layer(bias)
    assert isinstance(layer, torch.nn.Linear)
    for shape in [(1, 1, 48), (3, 5, 48)]:
        x = torch.randn(shape)
        assert torch.equal(layer(x), F.linear(x, layer.weight, layer.bias))
    assert list(layer.state_dict()) == (["weight", "bias"] if bias else ["weight"])


@pytest.mark.slow
@pytest.mark.parametrize("bias", [False, True], ids=["plain", "bias"])
def test_compiled_one_row_is_a_reduction_equal_to_f_linear(bias):
    layer = _layer(bias)
    x = torch.randn(1, 1, 48)
    out, code = _compiled_code(layer, x)
    assert _blas_calls(code) == 0  # inductor's own reduction kernel instead
    expected = F.linear(
        x.double(), layer.weight.double(), None if not bias else layer.bias.double()
    )
    torch.testing.assert_close(out.double(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_compiled_bf16_row_is_as_accurate_as_blas():
    """bf16 products are summed in fp32 (inductor upcasts), as BLAS does: the compiled row is no
    further from the exact product than eager F.linear, or than one bf16 rounding."""
    layer = _layer(False).to(torch.bfloat16)
    x = torch.randn(1, 1, 48).to(torch.bfloat16)
    out, code = _compiled_code(layer, x)
    assert _blas_calls(code) == 0
    exact = F.linear(x.double(), layer.weight.double())
    with torch.no_grad():
        blas_error = (F.linear(x, layer.weight).double() - exact).abs().max()
    one_rounding = 2**-8 * exact.abs().max()  # bf16 keeps 8 significant bits
    assert (out.double() - exact).abs().max() <= max(blas_error, one_rounding)


@pytest.mark.slow
def test_compiled_many_rows_keep_blas():
    layer = _layer(False)
    x = torch.randn(2, 3, 48)
    out, code = _compiled_code(layer, x)
    assert _blas_calls(code) == 1
    torch.testing.assert_close(out, F.linear(x, layer.weight), rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_compiled_batch_one_decode_equals_eager(tiny_config):
    """The whole compiled decode step of one sequence (every projection and the LM head streamed)
    picks the same greedy tokens as eager decoding."""
    model = Transformer(tiny_config).eval()
    ids = torch.randint(1, 97, (1, 7))
    torch._dynamo.reset()
    with torch.no_grad():
        (got, code) = run_and_get_code(lambda: generate(model, ids, 12, compile=True))
    assert _blas_calls("\n".join(code)) == 0
    assert torch.equal(got, generate(model, ids, 12))
