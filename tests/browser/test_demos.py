"""The six demo widgets on chapter 10, driven in Chromium from file://.

For each demo the build embeds llmkit's values for a grid of inputs (`data-role="grid"`). The test
sets every input of a case the way a reader would (fill a number or range, pick an option), reads
what the widget displays, and compares it with llmkit's value. Tolerance: each display rounds to a
fixed number of decimals, so the grid states half a unit of the last shown digit plus margin
(6e-4 for three decimals, 6e-3 for two) and 0 for integers; the test refuses anything looser.

The chapter is loaded once per module; before each test its six widgets are rendered afresh from
the built page (demo_widgets.py), so no test sees what another one set.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from demo_widgets import READY, close, rerender, set_case, set_input, shown, widget
from playwright.sync_api import Locator, Page

CHAPTER = "chapters/ch10-modern-llm.html"
IDS = ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
MAX_TOL = 6e-3

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def loaded_chapter(open_shared_page) -> Page:
    """Chapter 10, loaded once for the module."""
    page = open_shared_page(CHAPTER)
    page.wait_for_function(READY)
    return page


@pytest.fixture
def chapter(loaded_chapter, site_dir) -> Page:
    """The chapter with its six widgets as a fresh load shows them (re-rendered from the build)."""
    loaded_chapter.llmbook_errors.clear()  # each test sees the errors of its own steps
    rerender(loaded_chapter, (site_dir / CHAPTER).read_text(encoding="utf-8"))
    return loaded_chapter


@pytest.mark.parametrize("demo_id", IDS)
def test_widget_matches_llmkit_on_the_grid(chapter, demo_id):
    root = widget(chapter, demo_id)
    grid = json.loads(root.locator('script[data-role="grid"]').text_content())
    assert grid["cases"] and all(0 <= t <= MAX_TOL for t in grid["tol"].values())
    wrong = []
    for case in grid["cases"]:
        state = set_case(root, case["in"])
        for name, want in case["out"].items():
            got = shown(root, name, state)
            if not close(got, want, grid["tol"][name]):
                wrong.append(f"{case['in']}: {name} shows {got}, llmkit {want}")
    assert not wrong, "\n".join(wrong[:20])
    assert chapter.llmbook_errors == []


def test_rope_both_plus_one_keeps_the_dot_product(chapter):
    root = widget(chapter, "rope")
    for name, value in {
        "m": 3,
        "n": 1,
        "theta": 30,
        "qx": 0.6,
        "qy": 0.8,
        "kx": 1,
        "ky": -0.5,
    }.items():
        set_input(root, name, value)
    dot, q_before = shown(root, "dot"), shown(root, "qrot")
    for step in range(1, 4):
        root.locator('[data-action="both-plus"]').click()
        assert root.locator('[data-in="m"]').input_value() == str(3 + step)
        assert root.locator('[data-in="n"]').input_value() == str(1 + step)
        assert shown(root, "dot") == dot and shown(root, "rel") == 2
    assert shown(root, "qrot") != q_before  # the vectors did turn


def test_kv_cache_stepper_and_presets(chapter):
    root = widget(chapter, "kv-cache")
    set_input(root, "p", 1)
    set_input(root, "step", 1)
    for _ in range(3):
        root.locator('[data-action="next"]').click()
    assert (shown(root, "nc_total"), shown(root, "c_total")) == (10, 4)  # the seed's 1+2+3+4 vs 4
    assert root.locator('[data-role="tokens-nocache"] .is-recomputed').count() == 3
    assert root.locator('[data-role="tokens-cache"] .is-cached').count() == 3
    set_input(root, "preset", "llama2-70b")
    assert root.locator('[data-in="L"]').input_value() == "80"
    assert root.locator('[data-in="kvh"]').input_value() == "8"
    root.locator('[data-in="S"]').fill("")  # an emptied field shows a dash, not NaN
    assert root.locator('[data-out="bytes"]').inner_text() == "—"
    assert chapter.llmbook_errors == []


def test_mha_gqa_wiring_follows_the_groups(chapter):
    root = widget(chapter, "mha-gqa")
    grid = json.loads(root.locator('script[data-role="grid"]').text_content())
    checked = 0
    for case in (c for c in grid["cases"] if "wiring" in c):
        set_case(root, case["in"])
        lines = root.locator('[data-role="stage"] line[data-q]').evaluate_all(
            "ls => ls.map(l => [+l.dataset.q, +l.dataset.kv])"
        )
        assert sorted(lines) == [[q, kv] for q, kv in enumerate(case["wiring"])], case["in"]
        checked += 1
    assert checked >= 10
    set_input(root, "model", "llama2-70b")
    root.locator('[data-action="mqa"]').click()
    assert root.locator('[data-in="kvh"]').input_value() == "1"
    assert shown(root, "group") == 64
    assert (
        root.locator('[data-role="stage"] line[data-kv="0"]').count()
        == root.locator('[data-role="stage"] line[data-q]').count()
    )


def test_pre_post_norm_residual_path_is_green_and_gradient_toggles(chapter):
    root = widget(chapter, "pre-post-norm")
    strokes = root.locator('[data-role="blocks"] [data-part="residual"] line').evaluate_all(
        "ls => ls.map(l => getComputedStyle(l).stroke)"
    )
    assert strokes and set(strokes) == {"rgb(46, 157, 79)"}
    grad = root.locator('[data-role="blocks"] [data-part="grad"]').first
    assert not grad.is_visible()
    root.locator('[data-action="backward"]').click()
    assert grad.is_visible()
    root.locator('[data-action="forward"]').click()
    assert not grad.is_visible()


@pytest.mark.parametrize("demo_id", ["norm-compare", "swiglu"])
def test_widget_responds_to_its_slider(chapter, demo_id):
    root = widget(chapter, demo_id)
    name, out = ("x0", "rms_y") if demo_id == "norm-compare" else ("x", "output")
    set_input(root, name, 1)
    before = shown(root, out)
    set_input(root, name, 2)
    assert shown(root, out) != before


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_each_demo(open_page, dark):
    page = open_page(CHAPTER, dark=dark)
    page.wait_for_function(
        "document.querySelectorAll('figure.llmbook-demo .llmbook-widget[data-ready]').length === 6"
    )
    # Material's sticky header would cover the top of a figure scrolled into view.
    page.add_style_tag(content=".md-header, .md-tabs { visibility: hidden !important; }")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for demo_id in IDS:
        figure = page.locator(f'figure.llmbook-demo[data-demo="{demo_id}"]')
        path = SHOTS / f"demo-{demo_id}{'-dark' if dark else ''}.png"
        figure.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
    assert page.llmbook_errors == []


def _plot(root: Locator):
    """px, py of the plot Python drew on the widget's stage (svg.Plot.mapping)."""
    plot = json.loads(root.locator('[data-role="stage"] [data-plot]').get_attribute("data-plot"))
    (x0, y0, w, h), (xlo, xhi), (ylo, yhi) = plot["box"], plot["xlim"], plot["ylim"]
    return (
        lambda x: x0 + (x - xlo) / (xhi - xlo) * w,
        lambda y: y0 + h - (y - ylo) / (yhi - ylo) * h,
    )


def _mark(root: Locator, name: str, attr: str) -> float:
    element = root.locator(f'[data-role="stage"] [data-mark="{name}"] > *').first
    return float(element.get_attribute(attr))


def _cases(root: Locator) -> list[dict]:
    return json.loads(root.locator('script[data-role="grid"]').text_content())["cases"]


def test_swiglu_marks_sit_on_llmkits_values(chapter):
    # The script moves the marks Python drew: after each change they sit at llmkit's z, SiLU(z)
    # and ReLU(z) on the curves Python drew, in the drawing's own units.
    root = widget(chapter, "swiglu")
    px, py = _plot(root)
    checked = 0
    for case in _cases(root):
        out = case["out"]
        if not (-5 <= out["pre"] <= 5 and -1 <= out["gate"] <= 5):
            continue  # clamped to the plot's edge
        set_case(root, case["in"])
        assert _mark(root, "z-line", "x1") == pytest.approx(px(out["pre"]), abs=0.01)
        assert _mark(root, "silu-dot", "cy") == pytest.approx(py(out["gate"]), abs=0.01)
        assert _mark(root, "relu-dot", "cy") == pytest.approx(py(out["relu"]), abs=0.01)
        checked += 1
    assert checked >= 10


def test_pre_post_norm_marks_sit_on_the_measured_curve(chapter):
    root = widget(chapter, "pre-post-norm")
    px, py = _plot(root)
    for case in _cases(root):
        set_case(root, {"depth": case["in"]["depth"]})
        assert _mark(root, "depth-line", "x1") == pytest.approx(px(case["in"]["depth"]), abs=0.01)
        assert _mark(root, "pre-dot", "cy") == pytest.approx(py(case["out"]["pre"]), abs=0.01)
        assert _mark(root, "post-dot", "cy") == pytest.approx(py(case["out"]["post"]), abs=0.01)


def test_norm_compare_bars_have_llmkits_heights(chapter):
    root = widget(chapter, "norm-compare")
    half = json.loads(root.locator('[data-role="stage"] [data-plot]').get_attribute("data-plot"))
    half = half["box"][3] / 2  # the bars share one zero line in the middle of the plot
    for case in _cases(root):
        set_case(root, case["in"])
        x = [case["in"][f"x{i}"] for i in range(4)]
        series = {"x": x, "ln": case["out"]["ln_y"], "rms": case["out"]["rms_y"]}
        lim = max(1.0, *(abs(v) for values in series.values() for v in values))
        for key, values in series.items():
            heights = root.locator(f'[data-series="{key}"] rect').evaluate_all(
                "rs => rs.map(r => +r.getAttribute('height'))"
            )
            want = [max(0.5, abs(v) * half / lim) for v in values]
            assert heights == pytest.approx(want, abs=0.01), (case["in"], key)


def test_rope_arrows_point_along_llmkits_rotations(chapter):
    root = widget(chapter, "rope")
    for case in _cases(root):
        set_case(root, case["in"])
        for name in ("qrot", "krot"):
            x, y = case["out"][name]
            turn = root.locator(f'[data-mark="{name}"]').get_attribute("transform")
            angle = float(re.fullmatch(r"rotate\((-?[\d.e-]+)\)", turn).group(1))
            want = -math.degrees(math.atan2(y, x))
            assert (angle - want + 180) % 360 - 180 == pytest.approx(0, abs=0.01), case["in"]


def test_colours_come_from_the_widgets_css_variables(chapter):
    # A JS-drawn bar is painted var(--llmbook-c-blue): it computes to svg.COLORS' blue.
    root = widget(chapter, "mha-gqa")
    fills = root.locator('[data-role="stage"] rect').evaluate_all(
        "rs => rs.map(r => getComputedStyle(r).fill)"
    )
    assert "rgb(30, 136, 229)" in fills  # #1e88e5
    assert chapter.llmbook_errors == []
