"""The on-disk cache of rendered demo frames (llmbook.demos.cache) and its wiring into the plugin:
a frame is kept under a key of what draws it, the demo's own packages and what it computes with
(its registration's DEPENDS), never a package named by the plugin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from book_locales import with_section
from demo_helpers import BOOK, BOOK_LOCALES, ROOT, get_demo
from llmbook.core.i18n import load_locale
from llmbook.core.store import Store, read_entry
from llmbook.demos import DemoCatalog, DemoFrames
from llmbook.demos import cache as demo_cache
from llmbook.demos.cache import frame_key, shared_paths, sources_digest
from sites import build, write_config, write_pages
from tiny_demos import forget_tiny_demos, tiny_locale, write_tiny_demos

from bookdemos.norm_compare import NormCompareDemo

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


def _cache(root: Path, catalog: DemoCatalog = BOOK) -> tuple[DemoFrames, Store]:
    """The book's demos over their own store (one build's), and the store that counts its reads."""
    store = Store(root)
    return DemoFrames(catalog, store), store


def _hits_misses(store: Store) -> tuple[int, int]:
    hits, misses = store.counts.get("demos", [0, 0])
    return hits, misses


def test_a_hit_returns_the_stored_frame_without_rendering(tmp_path, monkeypatch, fresh_frame):
    cold, store = _cache(tmp_path)
    assert cold.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"]) == fresh_frame
    assert _hits_misses(store) == (0, 1)
    assert len(_entries(tmp_path)) == 1

    _forbid_rendering(monkeypatch)
    warm, store = _cache(tmp_path)  # a later build
    assert warm.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"]) == fresh_frame
    assert _hits_misses(store) == (1, 0)


def test_title_and_description_are_part_of_the_key(tmp_path, monkeypatch):
    cache, store = _cache(tmp_path)
    first = cache.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"])
    other_title = cache.render(DEMO, "另一个标题", DESCRIPTION, BOOK_LOCALES["zh"])
    other_text = cache.render(DEMO, TITLE, "<p>另一段说明</p>", BOOK_LOCALES["zh"])
    assert _hits_misses(store) == (0, 3)
    assert "另一个标题" in other_title and "另一个标题" not in first
    assert "另一段说明" in other_text
    assert len(_entries(tmp_path)) == 3


def test_key_follows_code_language_title_and_description():
    zh, en = BOOK_LOCALES["zh"], BOOK_LOCALES["en"]
    base = dict(code="c", locale=zh)
    key = frame_key(DEMO, TITLE, DESCRIPTION, **base)
    assert frame_key(DEMO, TITLE, DESCRIPTION, **base) == key
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"code": "c2"})) != key
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"locale": en})) != key
    assert frame_key(DEMO, "T2", DESCRIPTION, **base) != key
    assert frame_key(DEMO, TITLE, "<p>x</p>", **base) != key
    assert frame_key("rope", TITLE, DESCRIPTION, **base) != key
    # the key holds the words the demo writes (zh-TW reads zh's) and changes with any of them
    zh_tw = load_locale("zh-TW", ROOT / "locales")
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"locale": zh_tw})) == key
    changed = with_section(zh, "demos", {**zh.section("demos"), DEMO: {}})
    assert frame_key(DEMO, TITLE, DESCRIPTION, **(base | {"locale": changed})) != key


def test_each_language_has_its_own_frame(tmp_path, monkeypatch, fresh_frame):
    cache, store = _cache(tmp_path)
    english = cache.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["en"])
    assert english == get_demo(DEMO, "en").render_html(TITLE, DESCRIPTION) != fresh_frame
    assert cache.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"]) == fresh_frame
    assert _hits_misses(store) == (0, 2) and len(_entries(tmp_path)) == 2

    _forbid_rendering(monkeypatch)  # a later build of either edition reads its own frame
    warm, store = _cache(tmp_path)
    assert warm.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["en"]) == english
    assert warm.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"]) == fresh_frame
    assert _hits_misses(store) == (2, 0)


def test_the_shared_sources_are_the_plugins_drawing_modules():
    assert [p.name for p in shared_paths()] == ["base.py", "svg.py", "layout.py", "controls.py"]
    assert all(p.is_file() for p in shared_paths())


@pytest.mark.parametrize("module", sorted((ROOT / "bookdemos").glob("*.py")), ids=lambda p: p.name)
def test_every_plugin_module_a_demo_draws_with_is_a_source(module):
    # A module missing here would leave a stale frame in the cache when it changes.
    names = {p.stem for p in shared_paths()}
    imported = set(
        re.findall(r"^from llmbook\.demos\.(\w+) import", module.read_text("utf-8"), re.M)
    )
    assert imported <= names


def test_the_code_key_covers_the_demos_packages_and_what_it_depends_on(monkeypatch):
    frames = DemoFrames(BOOK)
    entry = BOOK.entries[DEMO]
    assert entry.packages == ("bookdemos",) and entry.depends == ("llmkit", "torch")
    first = frames.code_key(DEMO)
    assert frames.code_key(DEMO) == first and frames.code_key("nothing") == "unknown"
    for package in ("bookdemos", "llmkit", "torch"):
        changed = {package: "another version"}
        monkeypatch.setattr(
            demo_cache, "package_hash", lambda name, changed=changed: changed.get(name, name)
        )
        assert DemoFrames(BOOK).code_key(DEMO) != first, package


def test_sources_digest_changes_with_any_file(tmp_path):
    files = [tmp_path / "demo.py", tmp_path / "svg.py"]
    for f in files:
        f.write_text("X = 1\n", encoding="utf-8")
    first = sources_digest(files)
    assert sources_digest(files) == first
    files[1].write_text("X = 2\n", encoding="utf-8")
    assert sources_digest(files) != first


def _tiny(root: Path, monkeypatch: pytest.MonkeyPatch) -> DemoFrames:
    """A later build's demos of the tiny book (tests/tiny_demos.py) in `root`, read anew."""
    forget_tiny_demos(monkeypatch)
    catalog = DemoCatalog.load(["tinydemos"], root=root)
    return DemoFrames(catalog, Store(root / "cache"))


@pytest.mark.parametrize("edited", ["tinydep/__init__.py", "tinydemos/tiny.py"])
def test_an_edited_package_of_the_demo_renders_it_again(tmp_path, monkeypatch, edited):
    """What the demo computes with (its DEPENDS) or its own package changed: drawn anew."""
    write_tiny_demos(tmp_path, monkeypatch)
    frames = _tiny(tmp_path, monkeypatch)
    assert "<svg>小 1</svg>" in frames.render("tiny", TITLE, DESCRIPTION, tiny_locale("zh"))
    again = _tiny(tmp_path, monkeypatch)
    assert "<svg>小 1</svg>" in again.render("tiny", TITLE, DESCRIPTION, tiny_locale("zh"))
    assert again.store.counts["demos"] == [1, 0]

    path = tmp_path / edited
    old, new = ("VALUE = 1", "VALUE = 2") if "tinydep" in edited else ("VALUE}", "VALUE}!")
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    changed = _tiny(tmp_path, monkeypatch)
    frame = changed.render("tiny", TITLE, DESCRIPTION, tiny_locale("zh"))
    assert changed.store.counts["demos"] == [0, 1]
    assert ("<svg>小 2</svg>" if "tinydep" in edited else "<svg>小 1!</svg>") in frame


def test_a_page_notes_the_code_of_each_demo_it_shows(tmp_path, monkeypatch):
    write_tiny_demos(tmp_path, monkeypatch)
    frames, noted = _tiny(tmp_path, monkeypatch), []
    frames.recording(noted).render("tiny", TITLE, DESCRIPTION, tiny_locale("zh"))
    assert noted == [["tiny", frames.code_key("tiny")]]
    assert frames.still_current(noted)
    (tmp_path / "tinydep" / "__init__.py").write_text("VALUE = 3\n", encoding="utf-8")
    assert not _tiny(tmp_path, monkeypatch).still_current(noted)


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
    _cache(tmp_path)[0].render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"])
    (entry,) = _entries(tmp_path)
    entry.write_text(content, encoding="utf-8")

    cache, store = _cache(tmp_path)
    assert cache.render(DEMO, TITLE, DESCRIPTION, BOOK_LOCALES["zh"]) == fresh_frame
    assert _hits_misses(store) == (0, 1)
    assert read_entry(entry).value == fresh_frame
    assert not [p for p in (tmp_path / "demos").iterdir() if p.name.startswith(".tmp-")]


# -- wiring: the plugin's build --------------------------------------------------------------------

PAGE = f":::demo {DEMO} {TITLE}\n拖动滑块，看两种归一化。\n:::\n"


def _build(root: Path, plugin_options: str = "", theme: str = "") -> str:
    """Build a one-page site with the llmbook plugin and the book's demos; the page's HTML."""
    write_pages(root / "docs", {"index.md": PAGE})
    config = write_config(
        root,
        f"site_name: t\nsite_dir: site\nuse_directory_urls: false\n{theme}"
        f"plugins:\n  - llmbook:\n      offline_check: false\n      demos: [bookdemos]\n      locales: {ROOT / 'locales'}\n"
        f"{plugin_options}",
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
    chinese = _build(tmp_path, theme="theme: {name: mkdocs, language: zh}\n")
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
    DemoFrames(BOOK, Store(tmp_path / "cache")).render(
        DEMO, TITLE, "<p>拖动滑块，看两种归一化。</p>", BOOK_LOCALES["zh"]
    )
    script = textwrap.dedent(
        f"""
        import sys
        from llmbook.demos import DemoCatalog, DemoFrames
        from llmbook.core.store import Store
        from llmbook.directives import parse_directives, render_directives
        from llmbook.core.stash import engine_stash
        from llmbook.core.i18n import load_locale
        from pathlib import Path

        ZH = load_locale("zh", Path({str(ROOT / "locales")!r}))
        page = {PAGE!r}
        store = Store({str(tmp_path / "cache")!r})
        demos = DemoFrames(DemoCatalog.load(["bookdemos"], root={str(ROOT)!r}), store)
        parse_directives(page, src="docs/p.md", locale=ZH, demos=demos)
        stash, restore = engine_stash()
        html = restore(
            render_directives(page, src="docs/p.md", stash=stash, demos=demos, locale=ZH)
        )
        assert store.counts == {{"demos": [1, 0]}}, store.counts
        assert 'data-demo="{DEMO}"' in html
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "llmkit")
                        or m.startswith("bookdemos."))
        print(loaded)
        """
    )
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
