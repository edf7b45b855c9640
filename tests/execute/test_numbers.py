"""The validate stage: a computed value against the written value at its written precision."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from llmbook.execute.numbers.precision import check, parse_written, rewrite, to_plain


@pytest.mark.parametrize(
    ("written", "computed"),
    [
        ("2.1", 2.147483648),  # one decimal, half-up
        ("2.2", 2.15),  # the tie goes up (2.15 is printed 2.15, not 2.1499…)
        ("-1.34", -1.335),  # ties of negatives go away from zero
        ("0.707", 0.70710678),
        ("0.730", 0.7302),  # trailing zeros are precision
        ("10", 10.4),  # an integer is checked at whole units
        ("2,147,483,648", 2**31),  # thousands separators
        ("1,234.5", 1234.45),
        ("75%", 0.7549),  # % = /100, at whole percents
        ("12.5%", 0.12549),
        ("2.3e-10", 2.25e-10),  # e-notation = significant digits (2 here)
        ("2.30e-10", 2.2999e-10),  # three significant digits
        ("1.0e4", 9960),  # rounding up renormalises 9.96e3 -> 1.0e4
        ("[0.365, 0.730, 1.095, 1.461]", [0.3651, 0.7302, 1.0953, 1.4607]),
        ("[-1, 2]", [-1.2, 1.5]),
        ("\u22121.34", -1.34),  # a typographic minus
    ],
)
def test_matches_at_written_precision(written: str, computed: object) -> None:
    assert check(parse_written(written), computed) is None


@pytest.mark.parametrize(
    ("written", "computed", "message"),
    [
        ("2.2", 2.147483648, "written 2.2, computed 2.1474836 (rounds to 2.1)"),
        ("2.1", 2.15, "written 2.1, computed 2.15 (rounds to 2.2)"),
        ("10", 10.5, "written 10, computed 10.5 (rounds to 11)"),
        (
            "2,147,483,647",
            2**31,
            "written 2,147,483,647, computed 2147483648 (rounds to 2,147,483,648)",
        ),
        ("75%", 0.755, "written 75%, computed 0.755 (rounds to 76%)"),
        ("2.3e-10", 2.35e-10, "written 2.3e-10, computed 2.35e-10 (rounds to 2.4e-10)"),
        ("9.9e3", 9960, "written 9.9e3, computed 9960 (rounds to 1.0e4)"),
        (
            "[0.365, 0.731]",
            [0.3651, 0.7302],
            "written [0.365, 0.731], computed [0.3651, 0.7302] (rounds to [0.365, 0.730])",
        ),
        ("[1, 2]", [1, 2, 3], "written [1, 2] has 2 elements, computed [1, 2, 3] has 3"),
        ("2.1", [2.1], "written 2.1 is one number, computed [2.1] is a vector of 1"),
        ("[2.1]", 2.1, "written [2.1] is a vector, computed 2.1 is one number"),
        ("0.707", float("nan"), "written 0.707, computed nan (not a finite number)"),
    ],
)
def test_mismatch_messages(written: str, computed: object, message: str) -> None:
    assert check(parse_written(written), computed) == message


@pytest.mark.parametrize(
    "written", ["abc", "2.1 GB", "1,23", "1e3%", "[]", "[1, x]", "1,000e3", ""]
)
def test_not_a_number(written: str) -> None:
    with pytest.raises(ValueError):
        parse_written(written)


def test_tensors_and_arrays_become_plain_numbers() -> None:
    assert to_plain(torch.tensor(2.5)) == 2.5
    assert to_plain(torch.tensor([1, 2])) == [1, 2]
    assert to_plain(np.float32(0.5)) == 0.5
    assert to_plain((np.int64(3), 4.0)) == [3, 4.0]
    # numpy's float64 is a float subclass: it comes back a plain float (kept plans need no numpy)
    assert [type(v) for v in to_plain([np.float64(0.5), np.int64(3), np.float32(1.0)])] == [
        float,
        int,
        float,
    ]
    for bad in (True, "2.1", None, {"a": 1}):
        with pytest.raises(TypeError):
            to_plain(bad)


@pytest.mark.parametrize(
    ("written", "computed", "new"),
    [
        ("2.2", 2.147483648, "2.1"),
        ("0.731", 0.7302, "0.730"),
        ("75%", 0.755, "76%"),
        ("2.3e-10", 2.35e-10, "2.4e-10"),
        ("2,147,483,647", 2**31, "2,147,483,648"),
        ("[0.365, 0.731]", [0.3651, 0.7302], "[0.365, 0.730]"),
    ],
)
def test_rewrite_keeps_the_written_style(written: str, computed: object, new: str) -> None:
    assert rewrite(parse_written(written), computed) == new
    assert check(parse_written(new), computed) is None


@pytest.mark.parametrize(
    ("written", "computed", "message"),
    [
        ("524k", 523_600, None),  # 523.6 thousands rounds to 524
        ("524k", 523_400, "written 524k, computed 523400 (rounds to 523k)"),
        ("128K", 131_072, "written 128K, computed 131072 (rounds to 131K)"),
        ("6.7B", 6_738_415_616, None),
        ("1.5M", 1_549_999, None),
        ("2T", 2.4e12, None),
    ],
)
def test_magnitude_letters_scale_and_keep_the_written_precision(
    written: str, computed: object, message: str | None
) -> None:
    assert check(parse_written(written), computed) == message


def test_rewrite_keeps_the_magnitude_letter() -> None:
    assert rewrite(parse_written("524k"), 131_072) == "131k"
    assert rewrite(parse_written("6.7B"), 8.03e9) == "8.0B"


@pytest.mark.parametrize("written", ["524kB", "1e3k", "5%k", "k"])
def test_not_a_magnitude(written: str) -> None:
    with pytest.raises(ValueError):
        parse_written(written)
