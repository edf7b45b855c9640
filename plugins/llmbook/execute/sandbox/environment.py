"""The environment a page's code sees: an allowlist, never the build's whole environment.

CI builds pull requests in jobs that hold deploy tokens; a page that prints `os.environ` would
publish them with the site. A page's process gets only what running Python, PyTorch and
matplotlib needs (locale, paths, temp and cache folders, thread and device settings); a name that
looks like a credential is dropped even there. `execute_env` (mkdocs.yml, or a page's front
matter) passes more names through, credentials included, because an author named them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = ["ALLOWED", "ALLOWED_PREFIXES", "looks_secret", "page_environment", "valid_name"]

ALLOWED = frozenset(
    {
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ",
        "TMPDIR", "TEMP", "TMP", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
        "LD_LIBRARY_PATH", "SOURCE_DATE_EPOCH", "MPLBACKEND", "MPLCONFIGDIR",
    }
)  # fmt: skip
# Locale, XDG folders, Python, BLAS/OpenMP threads, CUDA and torch, Hugging Face's folders.
ALLOWED_PREFIXES = (
    "LC_", "XDG_", "PYTHON", "OMP_", "MKL_", "OPENBLAS_", "CUDA_", "NVIDIA_", "CUBLAS_",
    "CUDNN_", "NCCL_", "TORCH", "PYTORCH_", "TRITON_", "HF_", "TRANSFORMERS_", "HUGGINGFACE_",
)  # fmt: skip
_SECRET = re.compile(r"TOKEN|SECRET|PASSW|KEY|CREDENTIAL|AUTH|COOKIE|PRIVATE|SESSION", re.I)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def looks_secret(name: str) -> bool:
    """`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `HF_TOKEN`, `PGPASSWORD`…"""
    return _SECRET.search(name) is not None


def valid_name(name: object) -> bool:
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def page_environment(environ: Mapping[str, str], extra: Iterable[str] = ()) -> dict[str, str]:
    """The allowlisted part of `environ`, without credentials, plus the names in `extra`."""
    named = set(extra)
    return {
        name: value
        for name, value in environ.items()
        if name in named
        or ((name in ALLOWED or name.startswith(ALLOWED_PREFIXES)) and not looks_secret(name))
    }
