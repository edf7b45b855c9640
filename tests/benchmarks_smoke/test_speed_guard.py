"""The speed guard CI runs (benchmarks/speed_guard.py): its verdict on given times, and a real
run that fails on a build slowed on purpose (an MkDocs hook that sleeps after every build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from speed_guard import ratios, report, too_slow  # noqa: E402

FAST = {"warm": [1.0, 0.9, 1.2], "plain": [1.3, 1.2, 1.1], "edit": [0.5], "edit_plain": [0.6]}


LIMITS = {"warm": 1.0, "edit": 0.8}


def test_the_verdict_is_the_median_ratio_against_each_lines_limit() -> None:
    assert ratios(FAST) == pytest.approx({"warm": 1.0 / 1.2, "edit": 0.5 / 0.6})
    assert too_slow(FAST, {"warm": 1.0, "edit": 1.0}) == []
    assert too_slow(FAST, LIMITS) == ["edit"]  # 0.83x: the edit's limit is 0.8
    assert too_slow({**FAST, "edit": [0.4]}, LIMITS) == []
    assert report({**FAST, "edit": [0.7]}, LIMITS, 6).split("\n")[-1] == (
        "speed guard FAILED: edit above 0.80x plain MkDocs"
    )
    assert "0.83x (limit 0.80x)" in report(FAST, LIMITS, 6)


@pytest.mark.slow
def test_it_fails_a_build_slowed_on_purpose(tmp_path: Path) -> None:
    hook = tmp_path / "slow_hook.py"
    hook.write_text("import time\n\ndef on_post_build(config):\n    time.sleep(6)\n", "utf-8")
    done = subprocess.run(
        [sys.executable, "benchmarks/speed_guard.py", "--repeats", "1", "--hook", str(hook)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "speed guard FAILED: warm above 1.00x, edit above 1.00x plain MkDocs" in done.stdout
