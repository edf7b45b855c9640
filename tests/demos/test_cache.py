"""The on-disk cache of rendered demo frames (llmbook.demos.cache) and its wiring into the plugin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from llmbook.demos import cache as demo_cache
from llmbook.demos import get_demo
from llmbook.demos.cache import DemoCache, frame_key, source_paths, sources_digest
from llmbook.demos.norm_compare import NormCompareDemo
from llmbook.store import Store, read_entry
from sites import build, write_config, write_pages

# The cheapest demo to render; every test here renders it at most a few times.
DEMO = "norm-compare"
TITLE = "交互：RMSNorm 与 LayerNorm"
DESCRIPTION = "<p>拖动滑块，看两种归一化。</p>"


@pytest.fixture(autouse=True)
def _quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LLMBOOK_CACHE", "LLMBOOK_CACHE_DIR", "LLMBOOK_EXECUTE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # builds stamp no date of their own


@pytest.fixture
def fresh_frame() -> str:
    """The frame rendered without any cache: the reference every cached frame must equal."""
    demo = get_demo(DEMO)
    assert demo is not None
    return demo.render_html(TITLE, DESCRIPTION)


class RenderedAgain(BaseException):
    """Not an Exception: the build's last resort (crash.py) must not turn it into its error."""


def _forbid_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object) -> str:
        raise RenderedAgain("the demo was rendered again instead of read from the cache")

    monkeypatch.setattr(NormCompareDemo, "figure_svg", boom)


def _entries(root: Path) -> list[Path]:
    return sorted((root / "demos").glob("*.text"))


def _cache(root: Path) -> tuple[DemoCache, Store]:
    """A demo cache over its own store (one build's), and the store that counts its reads."""
    store = Store(root)
    return DemoCache(store), store


def _hits_misses(store: Store) -> tuple[int, int]:
    hits, misses = store.counts.get("demos", [0, 0])
    return hits, misses


def test_a_hit_returns_the_stored_frame_without_rendering(tmp_path, monkeypatch, fresh_frame):
    cold, store = _cache(tmp_path)
    assert cold.render(DEMO, TITLE, DESCRIPTION) == fresh_frame
    assert _hits_misses(store) == (0, 1)
    assert len(_entries(tmp_path)) == 1

    _forbid_rendering(monkeypatch)
    warm, store = _cache(tmp_path)  # a later build
    assert warm.render(DEMO, TITLE, DESCRIPTION) == fresh_frame
    assert _hits_misses(store) == (1, 0)


def test_title_and_description_are_part_of_the_key(tmp_path, monkeypatch):
    cache, store = _cache(tmp_path)
    first = cache.render(DEMO, TITLE, DESCRIPTION)
    other_title = cache.render(DEMO, "另一个标题", DESCRIPTION)
    other_text = cache.render(DEMO, TITLE, "<p>另一段说明</p>")
    assert _hits_misses(store) == (0, 3)
    assert "另一个标题" in other_title and "另一个标题" not in first
    assert "另一段说明" in other_text
    assert len(_entries(tmp_path)) == 3


def test_key_follows_sources_llmkit_language_title_and_description():
    base = dict(sources="s", llmkit="h", language="zh")
    key = frame_key(DEMO, TITLE, DESCRIPTION, **base)
    assert frame_key(DEMO, TITLE, DESCRIPTION, **base) == key
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"sources": "s2"})) != key
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"llmkit": "h2"})) != key
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"language": "en"})) != key
    assert frame_key(DEMO, "T2", DESCRIPTION, **base) != key
    assert frame_key(DEMO, TITLE, "<p>x</p>", **base) != key
    assert frame_key("rope", TITLE, DESCRIPTION, **base) != key
    # the key holds the language the demo writes in: zh-TW is Chinese, fr English
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"language": "zh-TW"})) == key
    english = frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"language": "en"}))
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"language": "fr"})) == english


def test_each_language_has_its_own_frame(tmp_path, monkeypatch, fresh_frame):
    cache, store = _cache(tmp_path)
    english = cache.render(DEMO, TITLE, DESCRIPTION, "en")
    assert english == get_demo(DEMO, "en").render_html(TITLE, DESCRIPTION) != fresh_frame
    assert cache.render(DEMO, TITLE, DESCRIPTION, "zh") == fresh_frame
    assert _hits_misses(store) == (0, 2) and len(_entries(tmp_path)) == 2

    _forbid_rendering(monkeypatch)  # a later build of either edition reads its own frame
    warm, store = _cache(tmp_path)
    assert warm.render(DEMO, TITLE, DESCRIPTION, "en") == english
    assert warm.render(DEMO, TITLE, DESCRIPTION) == fresh_frame
    assert _hits_misses(store) == (2, 0)


def test_sources_are_the_demo_module_and_the_shared_drawing_modules():
    names = [p.name for p in source_paths("kv-cache")]
    assert names == ["kv_cache.py", "base.py", "svg.py", "layout.py", "controls.py"]
    assert all(p.is_file() for p in source_paths("kv-cache"))


@pytest.mark.parametrize(
    "demo_id", ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
)
def test_every_llmbook_module_a_demo_draws_with_is_a_source(demo_id):
    # A module missing here would leave a stale frame in the cache when it changes.
    names = {p.name for p in source_paths(demo_id)}
    own = source_paths(demo_id)[0].read_text(encoding="utf-8")
    imported = set(re.findall(r"^from llmbook\.demos\.(\w+) import", own, re.M))
    assert {f"{m}.py" for m in imported} <= names | {"catalog.py"}


def test_sources_digest_changes_with_any_file(tmp_path):
    files = [tmp_path / "demo.py", tmp_path / "svg.py"]
    for f in files:
        f.write_text("X = 1\n", encoding="utf-8")
    first = sources_digest(files)
    assert sources_digest(files) == first
    files[1].write_text("X = 2\n", encoding="utf-8")
    assert sources_digest(files) != first


def test_a_changed_demo_source_renders_again(tmp_path, monkeypatch, fresh_frame):
    module = tmp_path / "src" / "norm_compare.py"
    module.parent.mkdir()
    module.write_text("# version 1\n", encoding="utf-8")
    monkeypatch.setattr(demo_cache, "source_paths", lambda demo_id: [module])
    _cache(tmp_path)[0].render(DEMO, TITLE, DESCRIPTION)

    module.write_text("# version 2\n", encoding="utf-8")
    again, store = _cache(tmp_path)
    assert again.render(DEMO, TITLE, DESCRIPTION) == fresh_frame
    assert _hits_misses(store) == (0, 1)


def test_a_changed_llmkit_renders_again(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_cache, "llmkit_hash", lambda: "llmkit-1")
    _cache(tmp_path)[0].render(DEMO, TITLE, DESCRIPTION)
    same, store = _cache(tmp_path)
    same.render(DEMO, TITLE, DESCRIPTION)
    assert _hits_misses(store) == (1, 0)

    monkeypatch.setattr(demo_cache, "llmkit_hash", lambda: "llmkit-2")
    changed, store = _cache(tmp_path)
    changed.render(DEMO, TITLE, DESCRIPTION)
    assert _hits_misses(store) == (0, 1)


@pytest.mark.parametrize(
    "content",
    [
        "{not json",  # half-written
        "",  # empty
        "[1, 2]",  # not an entry
        json.dumps({"key": "someone else's key", "html": "<p>stale</p>"}),
        json.dumps({"html": "<p>no key</p>"}),
    ],
)
def test_a_corrupt_or_foreign_entry_is_ignored_and_rebuilt(tmp_path, content, fresh_frame):
    _cache(tmp_path)[0].render(DEMO, TITLE, DESCRIPTION)
    (entry,) = _entries(tmp_path)
    entry.write_text(content, encoding="utf-8")

    cache, store = _cache(tmp_path)
    assert cache.render(DEMO, TITLE, DESCRIPTION) == fresh_frame
    assert _hits_misses(store) == (0, 1)
    assert read_entry(entry).value == fresh_frame
    assert not [p for p in (tmp_path / "demos").iterdir() if p.name.startswith(".tmp-")]


# -- wiring: the plugin's build --------------------------------------------------------------------

PAGE = f":::demo {DEMO} {TITLE}\n拖动滑块，看两种归一化。\n:::\n"


def _build(root: Path, plugin_options: str = "", theme: str = "") -> str:
    """Build a one-page site with the llmbook plugin; the page's HTML."""
    write_pages(root / "docs", {"index.md": PAGE})
    config = write_config(
        root,
        f"site_name: t\nsite_dir: site\nuse_directory_urls: false\n{theme}"
        f"plugins:\n  - llmbook:\n      offline_check: false\n{plugin_options}",
    )
    return build(config, in_process=True).page()


def test_the_build_fills_the_cache_and_a_second_build_reads_it(tmp_path, monkeypatch):
    cold = _build(tmp_path)
    assert f'data-demo="{DEMO}"' in cold
    assert len(_entries(tmp_path / ".llmbook-cache")) == 1

    _forbid_rendering(monkeypatch)
    assert _build(tmp_path) == cold


def test_an_english_build_renders_and_keeps_the_english_frame(tmp_path, monkeypatch):
    theme = "theme: {name: mkdocs, language: en}\n"
    english = _build(tmp_path, theme=theme)
    assert "The interactive demo needs JavaScript" in english and "交互演示" not in english
    chinese = _build(tmp_path)
    assert "交互演示需要浏览器启用 JavaScript" in chinese
    assert len(_entries(tmp_path / ".llmbook-cache")) == 2  # side by side, one per language

    _forbid_rendering(monkeypatch)
    assert _build(tmp_path, theme=theme) == english


def test_the_build_uses_llmbook_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "elsewhere"))
    _build(tmp_path)
    assert len(_entries(tmp_path / "elsewhere")) == 1
    assert not (tmp_path / ".llmbook-cache").exists()


@pytest.mark.parametrize("switch", ["env", "config"])
def test_the_cache_is_off_with_llmbook_cache_0_or_cache_false(tmp_path, monkeypatch, switch):
    options = ""
    if switch == "env":
        monkeypatch.setenv("LLMBOOK_CACHE", "0")
    else:
        options = "      cache: false\n"
    _build(tmp_path, options)
    assert not (tmp_path / ".llmbook-cache").exists()

    # Nothing stored, so the next build must render again.
    _forbid_rendering(monkeypatch)
    with pytest.raises(RenderedAgain, match="rendered again"):
        _build(tmp_path, options)


def test_a_warm_build_imports_neither_torch_nor_the_demos(tmp_path):
    """Validating and rendering a page whose frame is cached, in a fresh process."""
    DemoCache(Store(tmp_path / "cache")).render(DEMO, TITLE, "<p>拖动滑块，看两种归一化。</p>")
    script = textwrap.dedent(
        f"""
        import sys
        from llmbook.demos.cache import DemoCache
        from llmbook.store import Store
        from llmbook.directives import parse_directives, render_directives
        from llmbook.stash import engine_stash

        page = {PAGE!r}
        parse_directives(page, src="docs/p.md", locale=ZH)
        store = Store({str(tmp_path / "cache")!r})
        cache = DemoCache(store)
        stash, restore = engine_stash()
        html = restore(render_directives(page, src="docs/p.md", stash=stash, demo_cache=cache, locale=ZH))
        assert store.counts == {{"demos": [1, 0]}}, store.counts
        assert 'data-demo="{DEMO}"' in html
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "llmkit")
                        or m.startswith("llmbook.demos.norm"))
        print(loaded)
        """
    )
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
