"""The corpus download fails the tests that need it with what to do, never skips them."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import jupyter_corpus
from .jupyter_corpus import fetch


def test_a_download_that_fails_says_how_to_give_the_sdist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jupyter_corpus, "SDISTS", {"nbclient": ("0.0.0.999", "0" * 64)})
    with pytest.raises(pytest.fail.Exception) as failed:
        fetch(tmp_path)
    message = str(failed.value)
    assert message.startswith("could not download the sdist nbclient==0.0.0.999 from PyPI")
    assert "put nbclient-0.0.0.999.tar.gz into a folder and name that folder in" in message
    assert "$LLMBOOK_JUPYTER_CORPUS" in message


def test_an_sdist_that_is_not_the_pinned_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jupyter_corpus, "SDISTS", {"nbclient": ("0.11.0", "0" * 64)})
    (tmp_path / "sdists").mkdir()
    (tmp_path / "sdists" / "nbclient-0.11.0.tar.gz").write_bytes(b"not the sdist")
    with pytest.raises(pytest.fail.Exception) as failed:
        fetch(tmp_path)
    assert "nbclient-0.11.0.tar.gz has SHA-256 " in str(failed.value)
    assert str(failed.value).endswith("Fix: delete it and run the tests again.")
