"""The speed guard CI runs (benchmarks/speed_guard.py): its verdict on given times, and a real
run that fails on builds slowed on purpose (an MkDocs hook that sleeps after every build, a
Markdown extension that sleeps once in every Zensical build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from speed_guard import limits_of, ratios, report, too_slow  # noqa: E402

FAST = {
    "warm": [1.0, 0.9, 1.2],
    "plain": [1.3, 1.2, 1.1],
    "edit": [0.45],
    "edit_plain": [0.6],
    "zensical": [1.1, 1.3, 1.2],
    "zensical_plain": [1.0, 1.1, 1.0],
}
LIMITS = limits_of(1.0, 0.8, 1.2)


def test_the_verdict_is_the_median_ratio_against_each_limit() -> None:
    assert ratios(FAST) == pytest.approx({"warm": 1.0 / 1.2, "edit": 0.75, "zensical": 1.2})
    assert too_slow(FAST, LIMITS) == []
    assert too_slow({**FAST, "edit": [0.5]}, LIMITS) == ["edit"]  # 0.83x: the edit's limit is 0.8
    assert report({**FAST, "edit": [0.5]}, LIMITS, 6).split("\n")[-1] == (
        "speed guard FAILED: edit above 0.80x plain MkDocs"
    )
    assert "0.83x (limit 0.80x)" in report({**FAST, "edit": [0.5]}, LIMITS, 6)


def test_zensical_has_a_line_and_a_limit_of_its_own() -> None:
    slow = {**FAST, "zensical": [1.4], "warm": [1.3]}
    assert too_slow(slow, LIMITS) == ["warm", "zensical"]
    lines = report(slow, LIMITS, 6).split("\n")
    assert lines[3].startswith("  zensical llmbook   1.40 s, plain Zensical   1.00 s: 1.40x")
    assert "(limit 1.20x)" in lines[3]
    assert lines[-1] == (
        "speed guard FAILED: warm above 1.00x plain MkDocs; zensical above 1.20x plain Zensical"
    )
    assert too_slow({**FAST, "zensical": [1.15]}, LIMITS) == []  # 1.15x: under its 1.2x


def test_without_zensical_its_line_says_so() -> None:
    mkdocs = {k: v for k, v in FAST.items() if not k.startswith("zensical")}
    assert list(ratios(mkdocs)) == ["warm", "edit"]
    lines = report(mkdocs, LIMITS, 6).split("\n")
    assert lines[-2:] == [
        "  zensical not measured: Zensical is not installed",
        "speed guard passed",
    ]


@pytest.mark.slow
def test_it_fails_builds_slowed_on_purpose(tmp_path: Path) -> None:
    pytest.importorskip("zensical")
    hook = tmp_path / "slow_hook.py"
    hook.write_text("import time\n\ndef on_post_build(config):\n    time.sleep(6)\n", "utf-8")
    extension = tmp_path / "slow_extension.py"
    extension.write_text(
        "import time\nfrom markdown import Extension\n\nSLEPT = []\n\n\n"
        "class Slow(Extension):\n"
        "    def extendMarkdown(self, md):\n"
        "        pass\n\n\n"
        "def makeExtension(**kwargs):\n"
        "    if not SLEPT:  # once per build\n"
        "        SLEPT.append(time.sleep(6))\n"
        "    return Slow(**kwargs)\n",
        "utf-8",
    )
    done = subprocess.run(
        [
            *(sys.executable, "benchmarks/speed_guard.py", "--repeats", "1"),
            *("--hook", str(hook), "--extension", str(extension)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert (
        "speed guard FAILED: warm above 1.00x, edit above 0.80x plain MkDocs; "
        "zensical above 1.20x plain Zensical"
    ) in done.stdout
