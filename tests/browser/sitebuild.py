"""Build a site for a test: the project's own, or a small one from given pages on the project's config.

Each build runs `mkdocs build --strict` in a subprocess from the project root (jieba's user
dictionary path is relative to it, and jieba's state is global), with the execution cache off,
through tests/sites.py.
"""

from __future__ import annotations

from pathlib import Path

from sites import ROOT, build, build_project_site, project_config, write_config, write_pages

__all__ = ["FIXTURE_NAV", "FIXTURE_PAGES", "ROOT", "build_project_site", "build_site", "site_pages"]

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


# The execution cache off and one thread per build: two test workers share two cores.
_OPTIONS = {"strict": True, "cache": False, "cwd": ROOT, "env": {"OMP_NUM_THREADS": "1"}}


def build_site(
    root: Path, pages: dict[str, str], *, nav: list | None = None, extra: dict | None = None
) -> Path:
    """A site of `pages` ({"a/b.md": markdown}) on the project's mkdocs.yml; returns its site/ dir."""
    # Fixture prose is not the book: its numbers are reported, not required to be accounted.
    write_pages(
        root / "docs",
        {
            rel: text if text.startswith("---\n") else "---\nnumbers: report\n---\n" + text
            for rel, text in pages.items()
        },
    )
    nav = nav if nav is not None else [{Path(p).stem: p} for p in pages]
    config = write_config(root, project_config(root / "docs", nav, **(extra or {})))
    return build(config, site=root / "site", **_OPTIONS).ok().site


def site_pages(site: Path) -> list[str]:
    """Every HTML page of a built site (relative, sorted), its theme's assets left out."""
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if "assets" not in p.relative_to(site).parts
    )
