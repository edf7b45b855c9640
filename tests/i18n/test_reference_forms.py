"""How each shipped language writes and reads its book's parts: every reference it writes is read
back with its number, in running text too, and the words that only look like one are not; titles
that number a page, ordinals, and a shape flow's grouping note."""

from __future__ import annotations

import pytest

from .conftest import KINDS, LANGUAGES, NUMBERS, found_references, shipped


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_reference_written_is_read_back_with_its_number(code: str, kind: str) -> None:
    locale = shipped(code)
    for number in NUMBERS[kind]:
        written = locale.part_text(kind, number)
        for text in (written, f"({written}, x)"):
            assert (kind, number, written) in found_references(locale, text), text


# Running text: the lower-case forms, abbreviations, a full stop after the number, a space
# between the number and a Japanese word.
@pytest.mark.parametrize(
    ("code", "text", "kind", "number"),
    [
        ("fr", "comme le montre la section 2.1.", "section", "2.1"),
        ("fr", "voir le chapitre 3.", "chapter", "3"),
        ("fr", "dans la leçon 4, puis", "lesson", "4"),
        ("fr", "la figure 3-1 montre", "figure", "3-1"),
        ("fr", "le tableau 3-2 donne", "table", "3-2"),
        ("fr", "d'après l'équation (3.1)", "equation", "3.1"),
        ("fr", "d’après l’Equation (3.1)", "equation", "3.1"),
        ("de", "wie in Abschnitt 2.1 gezeigt", "section", "2.1"),
        ("de", "siehe Kapitel 3.", "chapter", "3"),
        ("de", "siehe Abschn. 2.1", "section", "2.1"),
        ("de", "siehe Kap. 3", "chapter", "3"),
        ("de", "in Abb. 3-1", "figure", "3-1"),
        ("de", "in Tab. 3-2", "table", "3-2"),
        ("de", "aus Gl. (3.4) folgt", "equation", "3.4"),
        ("es", "como se vio en la sección 2.1.", "section", "2.1"),
        ("es", "ver el capítulo 3.", "chapter", "3"),
        ("es", "en la lección 4, luego", "lesson", "4"),
        ("es", "la figura 3-1 muestra", "figure", "3-1"),
        ("es", "la tabla 3-2 da", "table", "3-2"),
        ("es", "de la ecuación (3.4) sale", "equation", "3.4"),
        ("es", "de la Ec. (3.4) sale", "equation", "3.4"),
        ("ja", "第 3 章で見たように", "chapter", "3"),
        ("ja", "3.2 節の結果", "section", "3.2"),
        ("ja", "第2節を参照", "section", "2"),
        ("ja", "レッスン3で", "lesson", "3"),
        ("ja", "図 3-1 に示す", "figure", "3-1"),
        ("ja", "表3-2のとおり", "table", "3-2"),
        ("ja", "式（3.4）より", "equation", "3.4"),
        ("ja", "数式(3.4)より", "equation", "3.4"),
    ],
)
def test_references_in_running_text_are_read(code: str, text: str, kind: str, number: str) -> None:
    assert [(k, n) for k, n, _ in found_references(shipped(code), text)] == [(kind, number)]


# Words that hold a reference's word but name no part: 代表 (representative), 公式 (official,
# formula), 方程式 (equation, the word), 意图/意図 (intention), 地图/地図 (map), 発表
# (announcement), 図表 (charts), 一覧表 (list), 様式 (form), a word's tail (Unterabschnitt), a
# longer number (`Chapter 3.2` names no chapter).
@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("zh", "三个代表 3 条"),
        ("zh", "他的意图 2 次落空"),
        ("zh", "地图 3 张"),
        ("zh", "列表 2 项"),
        ("ja", "代表 3 名が参加"),
        ("ja", "公式(3.1)発表"),
        ("ja", "方程式(3.1)を解く"),
        ("ja", "様式（2）に記入"),
        ("ja", "意図 2 が明確"),
        ("ja", "地図 3 枚"),
        ("ja", "発表 2 件"),
        ("ja", "図表 3 点"),
        ("ja", "一覧表 2 部"),
        ("ja", "表現 3 種"),
        ("ja", "全 12 章"),
        ("ja", "3 節"),
        ("fr", "la sous-section 2"),
        ("fr", "le chapitre 3.2"),
        ("de", "im Unterabschnitt 2"),
        ("de", "Kapitel 3.2"),
        ("es", "la subsección 2"),
        ("es", "el capítulo 3.2"),
    ],
)
def test_words_that_name_no_part_are_no_reference(code: str, text: str) -> None:
    assert found_references(shipped(code), text) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_grouping_note_llmbook_writes_is_read_back(code: str) -> None:
    """The broadcast note names its grouping as an author writes one: pasted into a shape flow,
    it is read with the same N."""
    locale = shipped(code)
    note = locale.ui("shapeflow_broadcast", kv=2, q=8, group=4)
    ((pattern, quote, numbers),) = locale.groupings
    assert pattern.search(note).group("n") == "4"
    assert "{n}" in quote and numbers


@pytest.mark.parametrize(
    ("code", "text", "word", "value"),
    [
        ("fr", "toutes les quatre têtes Q partagent une tête K/V", "quatre", 4),
        ("fr", "chaque groupe de 4 têtes de requête partage une tête K/V", "4", None),
        ("de", "je vier Q-Köpfe teilen sich einen K/V-Kopf", "vier", 4),
        ("de", "jeweils 4 Query-Heads teilen sich einen K/V-Head", "4", None),
        ("es", "cada cuatro cabezas Q comparten una cabeza K/V", "cuatro", 4),
        ("ja", "四つの Q ヘッドで K/V ヘッドを共有", "四", 4),
        ("ja", "4 個の Q ヘッドごとに 1 つの K/V ヘッドを共有", "4", None),
    ],
)
def test_a_grouping_note_with_its_number_as_a_word(code, text, word, value) -> None:
    ((pattern, _, numbers),) = shipped(code).groupings
    assert pattern.search(text).group("n") == word
    assert numbers.get(word) == value


def test_a_head_count_is_no_grouping_note() -> None:
    ((pattern, _, _),) = shipped("ja").groupings
    assert pattern.search("8 個の Q ヘッドへブロードキャスト") is None


@pytest.mark.parametrize(
    ("code", "title", "kind", "number"),
    [
        ("fr", "Chapitre 3 : l'attention", "chapter", "3"),
        ("fr", "Leçon 2 : les cinq améliorations", "lesson", "2"),
        ("de", "Kapitel 3: Attention", "chapter", "3"),
        ("de", "Lektion 2: Fünf Verbesserungen", "lesson", "2"),
        ("es", "Capítulo 3: la atención", "chapter", "3"),
        ("es", "Lección 2: cinco mejoras", "lesson", "2"),
        ("ja", "第3章 アテンション", "chapter", "3"),
        ("ja", "第 2 課：五つの改良", "lesson", "2"),
    ],
)
def test_a_title_numbers_its_page(code: str, title: str, kind: str, number: str) -> None:
    found = [
        (k, m.group("number")) for k, p in shipped(code).title_patterns if (m := p.search(title))
    ]
    assert found == [(kind, number)]


@pytest.mark.parametrize(
    ("code", "before", "after"),
    [
        ("fr", "Étape ", ""),
        ("fr", "la carte ", ""),
        ("fr", "", "e étape"),
        ("fr", "", "re leçon"),
        ("de", "Schritt ", ""),
        ("de", "", ". Kapitel"),
        ("es", "Paso ", ""),
        ("es", "", ".º paso"),
        ("es", "", "er paso"),
        ("ja", "第", ""),
        ("ja", "ステップ ", ""),
        ("ja", "", "番目"),
    ],
)
def test_words_around_a_number_make_it_an_ordinal(code: str, before: str, after: str) -> None:
    ahead, behind = shipped(code).ordinal_patterns
    assert ahead.search(before) if before else behind.search(after)


@pytest.mark.parametrize(
    ("code", "after"), [("fr", " euros"), ("de", ". Danach"), ("es", " pasos"), ("ja", " 個")]
)
def test_a_quantity_is_no_ordinal(code: str, after: str) -> None:
    _, behind = shipped(code).ordinal_patterns
    assert behind.search(after) is None
