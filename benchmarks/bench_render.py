"""Rendering cost of the plugin: the seed chapter built through llmbook vs a plain Material build.

Both builds take the same text, seed chapter 000 (tests/data/seed_000.txt):
  llmbook  the project's mkdocs.yml: directives, MathML, offline check, assets (the page has
           `execute: false`, so this measures rendering; execution is bench_build.py's subject)
  plain    the same mkdocs.yml without the llmbook plugin (Material, search with jieba, offline,
           the other plugins); the directives rewritten as plain admonitions
           (`:::warning T` → `!!! warning "T"`), math left as text
The llmbook build is measured twice, against its on-disk cache (LLMBOOK_CACHE_DIR, here a temp dir):
  warm     the cache filled by a previous build (in a separate process), as in every build after the
           first one: demo frames are read back, no demo module and no torch is imported
           (`warm_build_imported_torch` records whether it was)
  cold     an empty cache before every build and the demos' in-memory caches cleared, so every
           demo frame is computed again (torch itself is imported once, by the dropped warm-up build)
Each variant is built in-process --repeats times after one warm-up build (imports and jieba's
dictionary load are paid once, as in `mkdocs serve`); the median wall time is reported.
Target: llmbook <= 1.5 x plain. Measures and reports (benchmarks/results/render.json and a line
per variant); never fails on time.

    python benchmarks/bench_render.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "tests" / "data" / "seed_000.txt"
RESULTS = ROOT / "benchmarks" / "results" / "render.json"
TARGET = 1.5
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_OPEN = re.compile(r"^:::(?P<name>[\w-]+)\s*(?P<title>.*)$")
_KINDS = {
    "warning": "warning",
    "math": "abstract",
    "key": "success",
    "interview": "question",
    "answer": "info",
    "quiz": "question",
    "fold": "note",
    "unfold": "tip",
}


def to_admonitions(text: str) -> str:
    """The chapter with every `:::` block as a Material admonition (indented body), code untouched."""
    out, depth, fence = [], 0, None
    for line in text.split("\n"):
        fenced = _FENCE.match(line)
        if fence is not None or fenced:
            if fence is None:
                fence = fenced.group(1)
            elif (
                fenced
                and fenced.group(1).startswith(fence)
                and not line.strip()[len(fenced.group(1)) :]
            ):
                fence = None
            out.append("    " * depth + line if line else line)
            continue
        opening = _OPEN.match(line)
        if opening:
            kind = _KINDS.get(opening.group("name"), "note")
            title = opening.group("title").replace('"', "'")
            out.append(
                "    " * depth + f'!!! {kind} "{title}"'
                if title
                else "    " * depth + f"!!! {kind}"
            )
            out.append("")
            depth += 1
        elif line.strip() == ":::" and depth:
            depth -= 1
            out.append("")
        else:
            out.append("    " * depth + line if line else line)
    return "\n".join(out)


def _site(root: Path, text: str, *, plain: bool) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# 首页\n", encoding="utf-8")
    (docs / "seed.md").write_text(text, encoding="utf-8")
    config: dict = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "docs_dir": str(docs),
        "site_dir": str(root / "site"),
    }
    config["nav"] = [{"首页": "index.md"}, {"第十章": "seed.md"}]
    if plain:
        # Every plugin of the project except ours, so only llmbook's own cost differs.
        config["plugins"] = [
            p for p in _project_plugins() if "llmbook" not in (p if isinstance(p, str) else p)
        ]
    path = root / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


_STAGES = ("parse_directives", "render_math", "render_directives", "check_site")


def _project_plugins() -> list:
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as source:
        return yaml_load(source)["plugins"]


def _time_stages() -> dict[str, float]:
    """Wrap the plugin's stages (as plugin.py calls them) to add up the time each one takes."""
    import llmbook.adapters.mkdocs.plugin as plugin

    spent = dict.fromkeys(_STAGES, 0.0)

    def timed(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start

        return wrapper

    for name in _STAGES:
        setattr(plugin, name, timed(name, getattr(plugin, name)))
    return spent


def _forget_demo_values() -> None:
    """Clear the demo modules' in-memory caches (functools) so a cold build computes every value."""
    for name, module in list(sys.modules.items()):
        if name.startswith("bookdemos."):  # the book's demos (mkdocs.yml: `demos`)
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _time_builds(
    config_file: Path,
    repeats: int,
    spent: dict[str, float] | None = None,
    before_each: Callable[[], None] | None = None,
) -> tuple[list[float], dict[str, float]]:
    """Wall times of the builds after the warm-up, and the plugin's stage times per build."""
    times = []
    for run in range(repeats + 1):  # the first build warms imports and caches; it is dropped
        if spent is not None and run == 1:
            spent.update(dict.fromkeys(spent, 0.0))
        if before_each is not None:
            before_each()
        config = load_config(str(config_file))
        start = time.perf_counter()
        build(config)
        times.append(time.perf_counter() - start)
        config.plugins.on_shutdown()
    stages = {name: total / repeats for name, total in (spent or {}).items()}
    return times[1:], stages


def _fill_cache(config_file: Path, cache_dir: Path) -> None:
    """One build in a separate process, so this process's warm builds start without torch."""
    env = dict(os.environ, LLMBOOK_CACHE_DIR=str(cache_dir), LLMBOOK_CACHE="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config_file)],
        check=True,
        env=env,
        cwd=ROOT,
    )


def _variant(times: list[float], stages: dict[str, float] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"median_s": statistics.median(times), "runs_s": times}
    if stages is not None:
        out["stage_s"] = stages
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    os.chdir(ROOT)  # jieba_dict_user in mkdocs.yml is relative to the project root
    os.environ.pop("LLMBOOK_CACHE", None)
    seed = SEED.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        ours = _site(Path(tmp, "llmbook"), "---\nexecute: false\n---\n" + seed, plain=False)
        plain = _site(Path(tmp, "plain"), to_admonitions(seed), plain=True)
        plain_times, _ = _time_builds(plain, args.repeats)
        spent = _time_stages()

        warm_dir = Path(tmp, "cache-warm")
        _fill_cache(ours, warm_dir)
        os.environ["LLMBOOK_CACHE_DIR"] = str(warm_dir)
        warm_times, warm_stages = _time_builds(ours, args.repeats, spent)
        warm_torch = "torch" in sys.modules

        cold_dirs = iter(range(args.repeats + 1))

        def empty_cache() -> None:
            os.environ["LLMBOOK_CACHE_DIR"] = str(Path(tmp, f"cache-cold-{next(cold_dirs)}"))
            _forget_demo_values()

        cold_times, cold_stages = _time_builds(ours, args.repeats, spent, before_each=empty_cache)
        os.environ.pop("LLMBOOK_CACHE_DIR", None)
    plain_s = statistics.median(plain_times)
    result: dict[str, Any] = {
        "benchmark": "render",
        "page": "seed 000 (tests/data/seed_000.txt), execution off",
        "repeats": args.repeats,
        "plain_material_s": plain_s,
        "plain_runs_s": plain_times,
        "llmbook_warm": _variant(warm_times, warm_stages),
        "llmbook_cold": _variant(cold_times, cold_stages),
        "warm_build_imported_torch": warm_torch,
        "target_ratio": TARGET,
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
        },
    }
    for name in ("warm", "cold"):
        variant = result[f"llmbook_{name}"]
        variant["ratio"] = variant["median_s"] / plain_s
        variant["within_target"] = variant["ratio"] <= TARGET
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"plain Material build  {plain_s * 1000:8.1f} ms  (median of {args.repeats})")
    for name in ("warm", "cold"):
        variant = result[f"llmbook_{name}"]
        print(
            f"llmbook build, {name}   {variant['median_s'] * 1000:8.1f} ms  "
            f"ratio {variant['ratio']:5.2f} x  (target <= {TARGET} x: "
            f"{'met' if variant['within_target'] else 'NOT met'})"
        )
        for stage, seconds in variant["stage_s"].items():
            print(f"  of which {stage:<18} {seconds * 1000:8.1f} ms")
    print(f"warm build imported torch: {warm_torch}  -> {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
