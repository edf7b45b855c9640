"""Shared fixtures for the llmkit tests: devices, seeds, a tiny config."""

from __future__ import annotations

import pytest
import torch

from llmkit import ModelConfig

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.fixture(params=DEVICES)
def device(request) -> torch.device:
    return torch.device(request.param)


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


@pytest.fixture
def tiny_config() -> ModelConfig:
    """Small enough for every test: 2 layers, GQA with groups of 2, head_dim 16."""
    return ModelConfig(
        vocab_size=97,
        hidden_size=64,
        intermediate_size=96,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
