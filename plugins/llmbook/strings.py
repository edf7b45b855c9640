"""Every text llmbook writes into a page, in the site's language (`theme.language`): one table,
looked up by key. Chinese is the book's own language; any other language gets English."""

from __future__ import annotations

__all__ = ["STRINGS", "book_language", "ui"]

STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "output": "输出",
        "stderr": "标准错误",
        "show_code": "显示代码",
        "show_cell": "显示单元格",
        "show_output": "显示输出",
        "not_run_norun": "此代码仅作展示，构建时未运行",
        "not_run_skip": "此代码已标记跳过（pytest.mark.skip），构建时未运行",
        "checked_title": "{expr} = {value}（构建时计算并核对）",
        "drift_title": "与计算不符：{mismatch}",
        "unchecked_title": "未核对：本页代码运行失败，{expr} 没有算出来",
        "cited_title": "引用值，未经计算：{source}",
        "cited_source": "（{source}）",
        "illustrative_title": "示意数字：用来说明道理，不是计算或测量的结果",
        "illustrative": "示意",
        "output_cut": "输出过长，后面的 {count} 个字符未显示（上限见 mkdocs.yml 的 execute_output_limit）。",
        "footer_checked": "本页 {count} 个数字由构建时执行的代码核对",
        "footer_cited": "{count} 个引自文献",
        "footer_illustrative": "{count} 个为示意",
        "footer_unaccounted": "{count} 个尚未标注来源",
        "footer_join": "，",
        "footer_end": "。",
        "widget_note": "这里原是一个 Jupyter 交互控件（widget），它需要运行中的内核；"
        "静态页面显示的是它的文本形式。",
        "image_alt": "代码输出的图像",
        "notebook_download": "下载本页的 Jupyter 笔记本（.ipynb，含构建时的输出）",
        "quiz": "小测验",
        "languages": "语言",
        "untranslated": "本页还没有中文译本：下面是它的原文。",
        "quiz_options": "选项",
        "quiz_answer_summary": "答案与解析",
        "quiz_key": "答案：",
        "card_done": "标记为已完成",
        "progress": "卡片完成进度",
        "progress_done": "卡片已完成",
        "box_warning": "注意",
        "box_background": "知识背景",
        "box_hint": "提示",
        "box_answer": "查看答案",
        "print_answer": "答：",
        "print_quiz": "小测验 {number}",
        "print_key": "小测验答案",
        "print_key_item": "第 {number} 题：{answer}",
        "print_online": "交互版本见本书网站。",
        "print_contents": "目录",
        "print_page": "（第 {number} 页）",
        "print_card_number": "、",
        "editions": "下载本书：",
        "figure_cell": "第 {cell} 个单元格画的图",
        "figure_axis": "{name} 轴：{text}",
        "figure_join": "；",
        "edition_pdf": "PDF 版（A4，可打印）",
        "edition_epub": "EPUB 版（电子书阅读器）",
    },
    "en": {
        "output": "Output",
        "stderr": "Standard error",
        "show_code": "Show code",
        "show_cell": "Show cell",
        "show_output": "Show output",
        "not_run_norun": "This code is shown only; it did not run at build time",
        "not_run_skip": "This code is marked skipped (pytest.mark.skip); it did not run at build time",
        "checked_title": "{expr} = {value} (computed and checked at build time)",
        "drift_title": "Differs from the computation: {mismatch}",
        "unchecked_title": "Not checked: the page's code failed, {expr} was not computed",
        "cited_title": "Cited value, not computed: {source}",
        "cited_source": " ({source})",
        "illustrative_title": "Illustrative number: it explains, it is no computation or measurement",
        "illustrative": "illustrative",
        "output_cut": "Output too long: the last {count} characters are not shown (the limit is "
        "execute_output_limit in mkdocs.yml).",
        "footer_checked": "{count} numbers on this page are checked by code run at build time",
        "footer_cited": "{count} cited from the literature",
        "footer_illustrative": "{count} illustrative",
        "footer_unaccounted": "{count} without a stated source yet",
        "footer_join": ", ",
        "footer_end": ".",
        "widget_note": "A Jupyter widget was here: it needs a running kernel, so the static page "
        "shows its text form.",
        "image_alt": "An image the code made",
        "notebook_download": "Download this page's Jupyter notebook (.ipynb, with the build's "
        "outputs)",
        "quiz": "Quiz",
        "languages": "Languages",
        "untranslated": "This page has not been translated into English yet: it is shown in Chinese, the language it was written in.",
        "quiz_options": "Options",
        "quiz_answer_summary": "Answer and explanation",
        "quiz_key": "Answer: ",
        "card_done": "Mark as done",
        "progress": "Cards done",
        "progress_done": "cards done",
        "box_warning": "Note",
        "box_background": "Background",
        "box_hint": "Hint",
        "box_answer": "Show the answer",
        "print_answer": "Answer: ",
        "print_quiz": "Quiz {number}",
        "print_key": "Answers to the quizzes",
        "print_key_item": "Quiz {number}: {answer}",
        "print_online": "The interactive version is on the book's website.",
        "print_contents": "Contents",
        "print_page": " (p. {number})",
        "print_card_number": ". ",
        "editions": "Download the book: ",
        "figure_cell": "Figure drawn by cell {cell}",
        "figure_axis": "{name} axis: {text}",
        "figure_join": "; ",
        "edition_pdf": "PDF (A4, printable)",
        "edition_epub": "EPUB (e-readers)",
    },
}


def book_language(language: str | None) -> str:
    """The table's language for a site's `theme.language`: `zh`, `zh-TW`… → zh; none → zh (the
    book's own); any other → en."""
    if not language or language.lower().startswith("zh"):
        return "zh"
    return "en"


def ui(language: str, key: str, **fields: object) -> str:
    """The text `key` in `language` (a `book_language`), its `{fields}` filled in."""
    text = STRINGS[book_language(language)][key]
    return text.format(**fields) if fields else text
