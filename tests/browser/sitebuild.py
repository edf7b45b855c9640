"""Build a site for a test: the project's own, or a small one from given pages on the project's config.

Each build runs `mkdocs build --strict` in a subprocess from the project root (jieba's user
dictionary path is relative to it, and jieba's state is global), with the execution cache off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

__all__ = ["FIXTURE_NAV", "FIXTURE_PAGES", "ROOT", "build_project_site", "build_site"]

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "tests" / "data" / "seed_000.txt"


def _seed_math() -> str:
    """Every display formula of the seed chapter, and its lines with inline math, as plain Markdown."""
    lines, out, inside = SEED.read_text(encoding="utf-8").split("\n"), [], False
    for line in lines:
        if line.strip() == "$$":
            inside = not inside
            out.append(line)
            if not inside:
                out.append("")
        elif inside or ("$" in line and not line.startswith("|")):
            out.append(line + ("" if inside else "\n"))
    return "\n".join(out)


# A small book for tests that must not depend on the chapters being written: Chinese prose for
# search (terms in mid-sentence), nested folders for relative links, and the seed's formulas.
FIXTURE_PAGES = {
    "index.md": "# 测试首页\n\n这是一本测试用的小书，见[归一化](chapters/norm.md)与[注意力](chapters/attention.md)。\n",
    "chapters/norm.md": (
        "# RMSNorm\n\n## 只算均方根\n\nRMSNorm 只除以均方根而不减均值，比 LayerNorm 少一次归约。\n\n"
        "$$\n\\text{RMS}(x) = \\sqrt{\\frac{1}{d}\\sum_i x_i^2}\n$$\n\n"
        "## 前置归一化\n\n现代模型几乎都用前置归一化，训练更稳定。\n\n"
        "## 代价 $O(d)$\n\n每个 token 只做一次长度为 $d$ 的归约。\n"
    ),
    "chapters/attention.md": (
        "# 分组查询注意力\n\n多个查询头共享一组键值缓存，这就是分组查询注意力（GQA）。"
        "每个查询头仍算自己的注意力，它介于标准做法和多查询注意力之间。\n\n"
        "$$\n\\text{MHA}: H_{kv} = H_q, \\qquad \\text{GQA}: H_{kv} = H_q / g\n$$\n"
    ),
    "chapters/math.md": "# 公式\n\n" + _seed_math(),
}
FIXTURE_NAV = [
    {"首页": "index.md"},
    {
        "章节": [
            {"归一化": "chapters/norm.md"},
            {"注意力": "chapters/attention.md"},
            {"公式": "chapters/math.md"},
        ]
    },
]


def _run_mkdocs(config_file: Path, site_dir: Path) -> None:
    env = {**os.environ, "LLMBOOK_CACHE": "0", "OMP_NUM_THREADS": "1"}
    cmd = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--strict",
        "-f",
        str(config_file),
        "-d",
        str(site_dir),
    ]
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(
            f"mkdocs build failed ({config_file}):\n{result.stdout}\n{result.stderr}"
        )


def build_project_site(site_dir: Path) -> Path:
    """The project's site (mkdocs.yml as is) built into `site_dir`."""
    _run_mkdocs(ROOT / "mkdocs.yml", site_dir)
    return site_dir


def build_site(
    root: Path, pages: dict[str, str], *, nav: list | None = None, extra: dict | None = None
) -> Path:
    """A site of `pages` ({"a/b.md": markdown}) on the project's mkdocs.yml; returns its site/ dir."""
    docs = root / "docs"
    for rel, text in pages.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        # Fixture prose is not the book: its numbers are reported, not required to be accounted.
        if not text.startswith("---\n"):
            text = "---\nnumbers: report\n---\n" + text
        (docs / rel).write_text(text, encoding="utf-8")
    # INHERIT merges mappings and replaces lists: only these keys change.
    config = {"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": str(docs)}
    config["nav"] = nav if nav is not None else [{Path(p).stem: p} for p in pages]
    config.update(extra or {})
    config_file = root / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    site_dir = root / "site"
    _run_mkdocs(config_file, site_dir)
    return site_dir
