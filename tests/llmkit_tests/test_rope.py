import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from llmkit import (
    ROPE_VARIANTS,
    RotaryEmbedding,
    apply_rope,
    half_split_from_interleaved,
    interleaved_from_half_split,
    rope_frequencies,
    rotary_embedding,
    rotate_2d,
)
from llmkit.config import ROPE_SCALINGS


class TestFrequencies:
    def test_closed_form(self):
        torch.testing.assert_close(
            rope_frequencies(8, base=10000.0), torch.tensor([1.0, 0.1, 0.01, 0.001])
        )

    def test_odd_head_dim(self):
        with pytest.raises(ValueError, match="RoPE needs an even, positive head_dim.*got 7"):
            rope_frequencies(7)


class TestRotate2d:
    @pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 2, -2.0])
    def test_equals_matrix_exponential(self, angle):
        v = torch.tensor([0.6, -1.7], dtype=torch.float64)
        generator = torch.tensor([[0.0, -angle], [angle, 0.0]], dtype=torch.float64)
        torch.testing.assert_close(rotate_2d(v, angle), torch.linalg.matrix_exp(generator) @ v)


def _complex_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Reference (RoFormer / Meta): adjacent pairs as complex numbers times e^{i m theta}."""
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    rot = torch.polar(
        torch.ones(len(positions), d // 2, dtype=torch.float64), positions.double()[:, None] * theta
    )
    z = torch.view_as_complex(x.double().reshape(*x.shape[:-1], d // 2, 2))
    return torch.view_as_real(z * rot).flatten(-2)


class TestRotaryEmbedding:
    def test_interleaved_equals_complex_reference(self, device):
        rope = RotaryEmbedding(16, 64, interleaved=True).to(device)
        x = torch.randn(2, 3, 10, 16, device=device)
        pos = torch.arange(20, 30, device=device)
        torch.testing.assert_close(
            rope.rotate(x, pos).double().cpu(),
            _complex_rope(x.cpu(), pos.cpu()),
            atol=1e-5,
            rtol=1e-5,
        )

    def test_half_split_equals_reference_after_permutation(self, device):
        # Half-split pairs dim i with i + d/2: reorder to adjacent pairs, apply the reference.
        rope = RotaryEmbedding(16, 64).to(device)
        x = torch.randn(1, 2, 5, 16, device=device)
        pos = torch.arange(5, device=device)
        out = rope.rotate(x, pos).cpu()
        as_pairs = lambda t: torch.stack(t.chunk(2, -1), -1).flatten(-2)  # noqa: E731
        torch.testing.assert_close(
            as_pairs(out).double(),
            _complex_rope(as_pairs(x.cpu()), pos.cpu()),
            atol=1e-5,
            rtol=1e-5,
        )

    @settings(max_examples=40, deadline=None)
    @given(
        m=st.integers(0, 200),
        n=st.integers(0, 200),
        shift=st.integers(0, 50),
        seed=st.integers(0, 2**16),
        interleaved=st.booleans(),
    )
    def test_dot_product_depends_only_on_offset(self, m, n, shift, seed, interleaved):
        gen = torch.Generator().manual_seed(seed)
        q, k = torch.randn(2, 1, 1, 1, 32, generator=gen)
        rope = RotaryEmbedding(32, 256, interleaved=interleaved)

        def dot(a, b):
            return (rope.rotate(q, torch.tensor([a])) * rope.rotate(k, torch.tensor([b]))).sum()  # noqa: E731

        torch.testing.assert_close(dot(m, n), dot(m + shift, n + shift), atol=1e-4, rtol=1e-4)
        if m >= n:
            torch.testing.assert_close(dot(m, n), dot(m - n, 0), atol=1e-4, rtol=1e-4)

    def test_conventions_agree_after_weight_permutation(self, device):
        heads, d, hidden = 4, 16, 32
        wq, wk = torch.randn(2, heads * d, hidden, device=device)
        x = torch.randn(1, 7, hidden, device=device)
        pos = torch.arange(7, device=device)

        def scores(wq, wk, interleaved):
            rope = RotaryEmbedding(d, 32, interleaved=interleaved).to(device)
            q = (x @ wq.T).view(1, 7, heads, d).transpose(1, 2)
            k = (x @ wk.T).view(1, 7, heads, d).transpose(1, 2)
            return rope.rotate(q, pos) @ rope.rotate(k, pos).transpose(-1, -2)

        meta = scores(wq, wk, interleaved=True)
        hf = scores(
            half_split_from_interleaved(wq, heads), half_split_from_interleaved(wk, heads), False
        )
        torch.testing.assert_close(hf, meta, atol=1e-4, rtol=1e-5)
        assert torch.equal(
            interleaved_from_half_split(half_split_from_interleaved(wq, heads), heads), wq
        )

    def test_position_beyond_table(self):
        rope = RotaryEmbedding(8, 64)
        with pytest.raises(
            ValueError, match=r"position 64 is outside the RoPE table \(max_seq_len=64\)"
        ):
            rope(torch.tensor([63, 64]))

    def test_linear_scaling_interpolates_positions(self):
        plain = RotaryEmbedding(8, 64)
        scaled = rotary_embedding(8, 64, scaling={"type": "linear", "factor": 4.0})
        torch.testing.assert_close(scaled(torch.tensor([40]))[0], plain(torch.tensor([10]))[0])

    def test_ntk_scaling_slows_lowest_frequency_by_factor(self):
        d, s = 8, 4.0
        scaled = rotary_embedding(d, 4, scaling={"type": "ntk", "factor": s})
        plain = rope_frequencies(d)
        angles = torch.atan2(
            scaled.sin[1, : d // 2], scaled.cos[1, : d // 2]
        )  # position 1: theta_i
        torch.testing.assert_close(angles[0], plain[0])  # highest frequency untouched
        torch.testing.assert_close(angles[-1], plain[-1] / s, atol=1e-6, rtol=1e-4)

    def test_one_class_per_scaling(self):
        scalings = {
            None: None,
            "linear": {"type": "linear", "factor": 2.0},
            "ntk": {"type": "ntk", "factor": 2.0},
            "dynamic": {"type": "dynamic", "factor": 2.0},
            "llama3": {"type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                       "high_freq_factor": 4.0, "original_max_position_embeddings": 8},
            "yarn": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4},
        }  # fmt: skip
        assert set(ROPE_VARIANTS) == set(scalings) == {None, *ROPE_SCALINGS}
        for kind, cls in ROPE_VARIANTS.items():
            rope = rotary_embedding(8, 16, scaling=scalings[kind])
            assert type(rope) is cls and rope.scaling == scalings[kind]
            assert (
                torch.isfinite(rope.cos).all() and torch.isfinite(rope(torch.arange(16))[0]).all()
            )

    def test_a_class_refuses_another_scaling(self):
        with pytest.raises(
            ValueError,
            match=r"^RotaryEmbedding implements rope_scaling type None, got \{'type': 'linear', "
            r"'factor': 2.0\}; rotary_embedding\(\.\.\., scaling=\.\.\.\) picks the class$",
        ):
            RotaryEmbedding(8, 16, scaling={"type": "linear", "factor": 2.0})

    def test_tables_are_not_rounded_by_model_dtype_changes(self):
        exact = RotaryEmbedding(8, 16)
        for dtype in (torch.bfloat16, torch.float16, torch.float64):
            moved = RotaryEmbedding(8, 16).to(dtype)
            assert torch.equal(moved.cos, exact.cos) and torch.equal(moved.sin, exact.sin)
        assert "cos_bits" not in exact.state_dict()  # recomputed, never saved with the weights

    def test_tables_stay_float32_under_bf16(self):
        rope = RotaryEmbedding(8, 16).to(torch.bfloat16)
        assert rope.cos.dtype == torch.float32
        q = torch.randn(1, 1, 3, 8, dtype=torch.bfloat16)
        cos, sin = rope(torch.arange(3))
        assert apply_rope(q, cos, sin).dtype == torch.bfloat16
