"""The speed guard CI runs (.ci/run, after the tests): the book's warm build and a prose-edit
rebuild against plain MkDocs on the same docs, and the warm `zensical build --clean` against
plain Zensical on the same docs, in the same run, interleaved, median of --repeats; it fails
(exit 1) when a ratio is above its limit: --limit for MkDocs' warm build (1.0 is generous to a
shared machine's noise and still catches a feature that makes every build pay: a bibliography
parsed on every build made the warm build 2.5x), --edit-limit for the prose edit (0.8: an edit
re-converts only the section it touched, adapters/mkdocs/partial.py), --zensical-limit for
Zensical's (1.2: Zensical's own build is faster, so llmbook's fixed costs weigh more). Without Zensical installed its line is
left out, and said so.

    python benchmarks/speed_guard.py [--pages 6] [--repeats 3] [--limit 1.0] [--edit-limit 0.8]
                                     [--zensical-limit 1.2] [--hook FILE] [--extension FILE]

--hook adds an MkDocs hook file to the MkDocs llmbook build only, --extension a Python-Markdown
extension module to the Zensical llmbook build only (the guard's own test slows each with a
`time.sleep`). Builds run as bench_build.py runs them, on a copy of the project.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import book, build, edit  # noqa: E402

EDITED = "docs/chapters/ch10-modern-llm.md"
ZENSICAL = "mkdocs-zensical.yml"  # the llmbook build's config for Zensical (mkdocs.yml, or more)
# Each ratio: (llmbook's runs, plain's runs, the engine it is measured against).
PAIRS = {
    "warm": ("warm", "plain", "MkDocs"),
    "edit": ("edit", "edit_plain", "MkDocs"),
    "zensical": ("zensical", "zensical_plain", "Zensical"),
}


def measure(root: Path, repeats: int, zensical: bool) -> dict[str, list[float]]:
    cache = root / "cache"
    build("mkdocs", root, cache, "mkdocs.yml")  # fills the caches: every later build is warm
    build("mkdocs", root, cache, "mkdocs-plain.yml")
    if zensical:  # Zensical's pages rendered and converted once (the results are MkDocs')
        build("zensical", root, cache, ZENSICAL)
        build("zensical", root, cache, "mkdocs-plain.yml")
    runs: dict[str, list[float]] = {name: [] for pair in PAIRS.values() for name in pair[:2]}
    for n in range(repeats):  # interleaved: a slow moment of the machine hits both sides
        runs["warm"].append(build("mkdocs", root, cache, "mkdocs.yml")[0])
        runs["plain"].append(build("mkdocs", root, cache, "mkdocs-plain.yml")[0])
        # a new place each time, so no edit finds what an earlier one left in a cache
        runs["edit"].append(edit("mkdocs", root, cache, "mkdocs.yml", EDITED, n))
        runs["edit_plain"].append(edit("mkdocs", root, cache, "mkdocs-plain.yml", EDITED, n))
        if zensical:
            runs["zensical"].append(build("zensical", root, cache, ZENSICAL)[0])
            runs["zensical_plain"].append(build("zensical", root, cache, "mkdocs-plain.yml")[0])
    return {name: values for name, values in runs.items() if values}


def ratios(runs: Mapping[str, list[float]]) -> dict[str, float]:
    """llmbook over the plain engine, median over median: the warm build and the edit under
    MkDocs, the warm build under Zensical (where measured)."""
    median = {name: statistics.median(values) for name, values in runs.items() if values}
    return {
        name: median[ours] / median[plain]
        for name, (ours, plain, _) in PAIRS.items()
        if ours in median and plain in median
    }


def too_slow(runs: Mapping[str, list[float]], limits: Mapping[str, float]) -> list[str]:
    return [name for name, ratio in ratios(runs).items() if ratio > limits[name]]


def limits_of(limit: float, edit_limit: float, zensical_limit: float) -> dict[str, float]:
    return {"warm": limit, "edit": edit_limit, "zensical": zensical_limit}


def report(runs: Mapping[str, list[float]], limits: Mapping[str, float], pages: int) -> str:
    count = len(runs["warm"])
    lines = [f"speed guard, {pages} pages, median of {count}:"]
    for name, ratio in ratios(runs).items():
        ours, plain, engine = PAIRS[name]
        lines.append(
            f"  {name:8s} llmbook {statistics.median(runs[ours]):6.2f} s, plain {engine} "
            f"{statistics.median(runs[plain]):6.2f} s: {ratio:.2f}x (limit {limits[name]:.2f}x)"
            f"  (runs {runs[ours]} / {runs[plain]})"
        )
    if "zensical" not in runs:
        lines.append("  zensical not measured: Zensical is not installed")
    slow = too_slow(runs, limits)
    failed = []
    for engine in ("MkDocs", "Zensical"):
        above = [f"{name} above {limits[name]:.2f}x" for name in slow if PAIRS[name][2] == engine]
        if above:
            failed.append(f"{', '.join(above)} plain {engine}")
    lines.append(f"speed guard FAILED: {'; '.join(failed)}" if failed else "speed guard passed")
    return "\n".join(lines)


def _slowed(root: Path, hook: Path | None, extension: Path | None) -> None:
    """The llmbook builds' configs with the test's slowing hook (MkDocs) and extension
    (Zensical); mkdocs-zensical.yml is mkdocs.yml without them."""
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    zensical = text
    if extension is not None:  # importable from the book's folder, where Zensical runs
        shutil.copy2(extension, root / extension.name)
        entry = "markdown_extensions:\n"
        zensical = text.replace(entry, f"{entry}  - {extension.stem}\n", 1)
    (root / ZENSICAL).write_text(zensical, encoding="utf-8")
    if hook is not None:
        config.write_text(text + f"hooks:\n  - {hook.resolve()}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.0, help="MkDocs' warm build")
    parser.add_argument("--edit-limit", type=float, default=0.8, help="MkDocs' prose edit")
    parser.add_argument("--zensical-limit", type=float, default=1.2, help="Zensical's build")
    parser.add_argument("--hook", type=Path, default=None, help="a hook for the MkDocs build")
    parser.add_argument(
        "--extension", type=Path, default=None, help="an extension for the Zensical build"
    )
    args = parser.parse_args(argv)
    zensical = importlib.util.find_spec("zensical") is not None
    with tempfile.TemporaryDirectory(prefix="llmbook-guard-") as folder:
        root = book(Path(folder) / "book", args.pages)
        _slowed(root, args.hook, args.extension)
        runs = measure(root, args.repeats, zensical)
    limits = limits_of(args.limit, args.edit_limit, args.zensical_limit)
    print(report(runs, limits, args.pages))
    return 1 if too_slow(runs, limits) else 0


if __name__ == "__main__":
    sys.exit(main())
