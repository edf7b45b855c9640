"""The bibliography file: entries read with pybtex, labelled author–year as the book writes
them, listed with title, venue, year and links; a malformed file fails at its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from book_locales import ZH
from llmbook.book.bibliography import Bibliography, load_bibliography
from llmbook.core.errors import AuthorError

BIB = r"""
@misc{shazeer2020glu,
  title = {{GLU} Variants Improve Transformer},
  author = {Shazeer, Noam},
  year = {2020},
  eprint = {2002.05202},
  archivePrefix = {arXiv},
}

@inproceedings{zhang2019rmsnorm,
  title = {Root Mean Square Layer Normalization},
  author = {Zhang, Biao and Sennrich, Rico},
  booktitle = {Advances in Neural Information Processing Systems 32},
  year = {2019},
}

@inproceedings{ainslie2023gqa,
  title = {{GQA}: Training Generalized Multi-Query Transformer Models},
  author = {Ainslie, Joshua and Lee-Thorp, James and de Jong, Michiel and Lebr{\'o}n, Federico},
  booktitle = {EMNLP 2023},
  year = {2023},
  doi = {10.18653/v1/2023.emnlp-main.298},
}

@misc{touvron2023llama,
  title = {{LLaMA}: Open and Efficient Foundation Language Models},
  author = {Touvron, Hugo and others},
  year = {2023},
}

@misc{touvron2023llama2,
  title = {Llama 2: Open Foundation and Fine-Tuned Chat Models},
  author = {Touvron, Hugo and Martin, Louis and Stone, Kevin},
  year = {2023},
}
"""


def load(tmp_path: Path, text: str = BIB) -> Bibliography:
    path = tmp_path / "references.bib"
    path.write_text(text, encoding="utf-8")
    return load_bibliography(path, "docs/references.bib")


def test_labels_by_number_of_authors(tmp_path: Path) -> None:
    entries = load(tmp_path).entries
    assert entries["shazeer2020glu"].label == "Shazeer, 2020"
    assert entries["zhang2019rmsnorm"].label == "Zhang & Sennrich, 2019"
    assert entries["ainslie2023gqa"].label == "Ainslie et al., 2023"


def test_and_others_is_et_al_and_one_label_twice_gets_letters(tmp_path: Path) -> None:
    entries = load(tmp_path).entries
    assert entries["touvron2023llama"].label == "Touvron et al., 2023a"
    assert entries["touvron2023llama2"].label == "Touvron et al., 2023b"


def test_fields_are_plain_text_and_lines_are_known(tmp_path: Path) -> None:
    entry = load(tmp_path).entries["ainslie2023gqa"]
    assert entry.title == "GQA: Training Generalized Multi-Query Transformer Models"
    assert entry.family == ("Ainslie", "Lee-Thorp", "de Jong", "Lebrón")
    assert (entry.venue, entry.year, entry.doi, entry.line) == (
        "EMNLP 2023",
        "2023",
        "10.18653/v1/2023.emnlp-main.298",
        17,
    )


def test_an_entry_in_the_list(tmp_path: Path) -> None:
    entries = load(tmp_path).entries
    assert entries["shazeer2020glu"].html(ZH) == (
        "Shazeer, N. (2020). <cite>GLU Variants Improve Transformer</cite>. "
        '<a href="https://arxiv.org/abs/2002.05202">arXiv:2002.05202</a>'
    )
    assert (
        entries["ainslie2023gqa"]
        .html(ZH)
        .startswith("Ainslie, J., Lee-Thorp, J., de Jong, M., Lebrón, F. (2023). <cite>GQA")
    )


def test_author_year_order(tmp_path: Path) -> None:
    keys = [e.key for e in load(tmp_path).in_order()]
    assert keys == [
        "ainslie2023gqa",
        "shazeer2020glu",
        "touvron2023llama",
        "touvron2023llama2",
        "zhang2019rmsnorm",
    ]


def test_nearest_and_likely_keys(tmp_path: Path) -> None:
    bibliography = load(tmp_path)
    assert bibliography.nearest("shazer2020glu")[0] == "shazeer2020glu"
    assert bibliography.likely("Zhang & Sennrich 2019") == ["zhang2019rmsnorm"]


def test_a_malformed_file_fails_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as raised:
        load(tmp_path, BIB + "\n@misc{broken,\n  title = {x\n")
    assert str(raised.value).startswith("docs/references.bib:")
    assert "the bibliography is no valid BibTeX" in str(raised.value)


def test_an_entry_without_a_year_fails_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as raised:
        load(tmp_path, "\n@misc{k,\n  title = {T},\n  author = {A, B},\n}\n")
    assert str(raised.value) == (
        "docs/references.bib:2: the entry k has no year "
        "Fix: give every entry its title, author and year (and a DOI or arXiv id)"
    )
