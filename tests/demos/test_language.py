"""Each demo in the page's language: an English page's demos show no Chinese (figures, controls,
aria text, the words their scripts write), and the Chinese ones are the book's as they were.

`zh_strings.json` holds every Chinese string the demos showed before they learned English (text
nodes and attributes, in order): the Chinese edition must keep showing exactly these.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from demo_helpers import BOOK, BOOK_LOCALES, CJK, IDS, ROOT, get_demo, shown_strings
from demo_helpers import BOOK_ASSETS as ASSETS
from llmbook.core.i18n import load_locale
from llmbook.demos import DemoError

GOLDEN = json.loads((Path(__file__).parent / "zh_strings.json").read_text(encoding="utf-8"))
TEXT_ATTRIBUTE = re.compile(r'data-text-([\w-]+)="([^"]*)"')


@pytest.mark.parametrize("demo_id", IDS)
@pytest.mark.parametrize("part", ["figure", "widget"])
def test_an_english_demo_shows_no_chinese(rendered_en, demo_id, part):
    markup = rendered_en[demo_id][part]
    chinese = [(where, text) for where, text in shown_strings(markup) if CJK.search(text)]
    assert chinese == []
    assert not CJK.search(markup)  # nor in its JSON (config, grid)


@pytest.mark.parametrize("demo_id", IDS)
def test_an_english_frame_keeps_the_authors_title_and_description(demo_id):
    frame = get_demo(demo_id, "en").render_html("Interactive <b>", "<p>说明</p>")
    assert '<figcaption class="llmbook-demo__title">Interactive &lt;b&gt;</figcaption>' in frame
    assert "<p>说明</p>" in frame  # the author's words, as written
    assert [t for _, t in shown_strings(frame) if CJK.search(t)] == ["说明"]


@pytest.mark.parametrize("demo_id", IDS)
@pytest.mark.parametrize("part", ["figure", "widget"])
def test_the_chinese_demo_is_unchanged(rendered, demo_id, part):
    shown = [f"{w}: {t}" for w, t in shown_strings(rendered[demo_id][part]) if CJK.search(t)]
    shown = [s for s in shown if not re.match(r"[\w-]+@data-text-", s)]  # words for the scripts
    assert shown == GOLDEN[demo_id][part]


def test_the_scripts_chinese_words_are_the_ones_they_wrote(rendered):
    words = {
        demo_id: dict(TEXT_ATTRIBUTE.findall(rendered[demo_id]["widget"]))
        for demo_id in ("kv-cache", "mha-gqa")
    }
    assert words["kv-cache"] == {
        "new": "新 token：本步计算",
        "old": "历史 token：直接读缓存",  # the cached row's (the row without a cache says 再算)
        "gpu": "一张 80 GB 显卡",
        "share": "占 80 GB 的 {percent}%",
    }
    assert "历史 token：再算一遍 K/V" in rendered["kv-cache"]["widget"]
    assert words["mha-gqa"] == {
        "option": "{count}（{kind}）",
        "current": "当前",
        "row": "{name}（{count}）",
    }


@pytest.mark.parametrize("demo_id", IDS)
def test_the_two_tables_say_the_same_things(demo_id):
    # Every text in both languages (both render: `rendered`, `rendered_en`), the English one in
    # English.
    table = {code: locale.section("demos")[demo_id] for code, locale in BOOK_LOCALES.items()}
    assert sorted(table) == ["en", "zh"] and table["zh"].keys() == table["en"].keys()
    assert [key for key, text in table["en"].items() if CJK.search(text)] == []


def test_a_language_without_the_demos_words_fails_at_the_first_word():
    """The words are the book's: a French edition of this book would need its own."""
    demo = BOOK.demo("norm-compare", load_locale("fr", ROOT / "locales"))
    with pytest.raises(DemoError) as caught:
        demo.figure_svg()
    assert str(caught.value).startswith("has no word ")
    assert str(caught.value).endswith(
        "in the language 'fr' Fix: add it under `demos: norm-compare:` in fr.yml of the folder "
        "the llmbook option `locales` names (docs/guide/en/languages.md)"
    )


@pytest.mark.parametrize("script", sorted(ASSETS.glob("*.js")), ids=lambda p: p.name)
def test_the_scripts_hold_no_words_of_their_own(script):
    assert not CJK.search(script.read_text(encoding="utf-8"))


@pytest.mark.parametrize("demo_id", ["kv-cache", "mha-gqa"])
@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_word_a_script_writes_is_on_its_widget(rendered, rendered_en, demo_id, language):
    script = (ASSETS / f"{demo_id}.js").read_text(encoding="utf-8")
    used = set(re.findall(r'kit\.text\([\w.]+, "([\w-]+)"', script))
    markup = (rendered if language == "zh" else rendered_en)[demo_id]["widget"]
    written = {name for name, _ in TEXT_ATTRIBUTE.findall(markup)}
    assert used and used <= written, used - written
    for name, text in TEXT_ATTRIBUTE.findall(markup):
        fields = _fields(text)
        assert all(f"{field}:" in script or f"{field} :" in script for field in fields), name


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}
