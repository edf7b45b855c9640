"""Every demo registers, renders well-formed markup, and is deterministic."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest
import torch
from demo_helpers import BOOK, BOOK_ASSETS, IDS, KIT_ASSETS, ROOT, get_demo, json_blocks, parse_svg
from llmbook.demos.svg import COLORS, color_variables, json_script

SVG = "{http://www.w3.org/2000/svg}"
WIDGET_SCRIPTS = sorted(KIT_ASSETS.parent.glob("widgets/*.js"))
# The demos whose stage Python draws (controls.stage) and whose script only moves its marks.
STAGED = ["norm-compare", "pre-post-norm", "rope", "swiglu"]


def test_the_six_demos_are_registered():
    assert BOOK.known_ids() == sorted(IDS)
    assert get_demo("no-such-demo") is None


@pytest.mark.parametrize("demo_id", IDS)
def test_figure_is_a_labelled_svg(rendered, demo_id):
    # The wide drawing, then its phone panels (demos/layout.py): each one a labelled image.
    svgs = parse_svg(f"<div>{rendered[demo_id]['figure']}</div>").findall(f".//{SVG}svg")
    assert len(svgs) >= 3 and svgs[0].get("class").endswith("llmbook-demo__svg--wide")
    for root in svgs:
        assert root.get("role") == "img" and root.get("aria-label")
        assert root.find(f"{SVG}title").text == root.get("aria-label")
    # Only currentColor or explicit colours; no scripts or external references in the figure.
    assert (
        "<script" not in rendered[demo_id]["figure"] and "href" not in rendered[demo_id]["figure"]
    )


@pytest.mark.parametrize("demo_id", IDS)
def test_widget_has_its_grid_and_inputs(rendered, demo_id):
    markup = rendered[demo_id]["widget"]
    assert markup.startswith(
        f'<div class="llmbook-widget" data-widget="{demo_id}" style="{color_variables()}">'
    )
    grid = json_blocks(markup)["grid"]
    assert len(grid["cases"]) >= 6
    names_in = set(re.findall(r'data-in="(\w+)"', markup))
    names_out = set(re.findall(r'data-out="(\w+)"', markup))
    for case in grid["cases"]:
        assert set(case["in"]) <= names_in, case["in"]
        assert set(case["out"]) <= names_out, case["out"]
        assert set(case["out"]) <= set(grid["tol"])


@pytest.mark.parametrize("demo_id", IDS)
def test_render_html_wraps_figure_and_widget(demo_id):
    html = get_demo(demo_id).render_html("标题 <b>", "<p>说明</p>")
    assert html.startswith(f'<figure class="llmbook-demo" data-demo="{demo_id}">')
    assert "标题 &lt;b&gt;" in html and "<p>说明</p>" in html
    assert html.count('<div class="llmbook-demo__figure"><svg') == 1


@pytest.mark.parametrize("demo_id", IDS)
def test_each_demo_ships_a_script_that_queues_its_own_id(demo_id):
    script = (BOOK_ASSETS / f"{demo_id}.js").read_text(encoding="utf-8")
    queued = re.findall(
        r'window\.llmbookDemos \|\| \[\]\)\.push\(\["([\w-]+)", function \(kit\)', script
    )
    assert queued == [demo_id]  # kit.js starts it on figure.llmbook-demo[data-demo="<id>"] only
    assert "http" not in script  # nothing fetched; the SVG namespace lives in kit.js


def test_kit_starts_each_id_on_its_own_figures_in_any_load_order():
    kit = (KIT_ASSETS / "kit.js").read_text(encoding="utf-8")
    assert """'figure.llmbook-demo[data-demo="' + id + '"] .llmbook-widget'""" in kit
    assert "var queued = window.llmbookDemos || [];" in kit  # scripts loaded before kit.js
    assert "window.llmbookDemos = { push: startDemo };" in kit  # and after it
    assert "var queuedWidgets = window.llmbookWidgets || [];" in kit
    assert "window.llmbookWidgets = { push: startWidget };" in kit
    assert "http://" not in kit.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in kit


def test_json_script_cannot_be_closed_by_its_data():
    nasty = {"s": "</script><!-- & <b>", "n": [1.5, -2]}
    markup = json_script(nasty, "grid")
    body = markup[len('<script type="application/json" data-role="grid">') : -len("</script>")]
    assert "<" not in body and ">" not in body and "&" not in body
    assert json.loads(body) == nasty


def test_rendering_does_not_depend_on_global_rng(rendered):
    # The figures come from llmkit under fixed seeds: a different global RNG state changes nothing.
    from bookdemos import kv_cache, pre_post_norm

    kv_cache.projection_counts.cache_clear()
    kv_cache._call_sizes.cache_clear()
    kv_cache._tiny_model.cache_clear()
    pre_post_norm.measured_grad_norms.cache_clear()
    torch.manual_seed(12345)
    for demo_id in IDS:
        demo = get_demo(demo_id)
        assert demo.figure_svg() == rendered[demo_id]["figure"], demo_id
        assert demo.widget_html() == rendered[demo_id]["widget"], demo_id


@pytest.mark.slow
def test_rendering_is_byte_identical_across_processes(rendered):
    code = (
        "import hashlib, sys\n"
        "from pathlib import Path\n"
        "from llmbook.demos import DemoCatalog\n"
        "from llmbook.core.i18n import load_locale\n"
        "book = DemoCatalog.load(['bookdemos'], root=sys.argv[1])\n"
        "zh = load_locale('zh', Path(sys.argv[1]) / 'locales')\n"
        "for i in book.known_ids():\n"
        "    d = book.demo(i, zh)\n"
        "    print(i, hashlib.sha256((d.figure_svg() + d.widget_html()).encode()).hexdigest())\n"
    )
    env_out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin", **_python_path()},
    )
    here = {
        i: hashlib.sha256((r["figure"] + r["widget"]).encode()).hexdigest()
        for i, r in rendered.items()
    }
    there = dict(line.split() for line in env_out.stdout.splitlines())
    assert there == here


def _python_path() -> dict[str, str]:
    """The test's own PYTHONPATH (a checkout run without installing it), if it has one."""
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}


def test_colors_reach_the_scripts_as_css_variables_written_once():
    assert color_variables() == ";".join(f"--llmbook-c-{n}:{v}" for n, v in COLORS.items())
    for script in [*KIT_ASSETS.glob("*.js"), *BOOK_ASSETS.glob("*.js"), *WIDGET_SCRIPTS]:
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"#[0-9a-fA-F]{3,8}\b", text), f"{script.name} writes a colour"
        for name in re.findall(r'kit\.color\(\s*"(\w+)"', text):
            assert name in COLORS, (script.name, name)


@pytest.mark.parametrize("script", WIDGET_SCRIPTS, ids=lambda p: p.name)
def test_each_page_widget_starts_through_kit(script):
    text = script.read_text(encoding="utf-8")
    queued = re.findall(r'window\.llmbookWidgets \|\| \[\]\)\.push\(\["([\w-]+)", function', text)
    assert queued == [script.stem]
    # one start-up path: no script waits for the page on its own
    assert "DOMContentLoaded" not in text and "document$" not in text


@pytest.mark.parametrize("demo_id", STAGED)
def test_the_stage_is_drawn_in_python_and_the_script_only_moves_its_marks(rendered, demo_id):
    markup = rendered[demo_id]["widget"]
    stage = re.search(r'<svg [^>]*data-role="stage".*?</svg>', markup, re.S).group(0)
    svg = parse_svg(stage)
    assert svg.get("role") == "img" and svg.find(f"{SVG}title").text == svg.get("aria-label")
    groups = list(svg.iter(f"{SVG}g"))
    marks = {g.get("data-mark") or g.get("data-series") for g in groups} - {None}
    script = (BOOK_ASSETS / f"{demo_id}.js").read_text(encoding="utf-8")
    if "kit.plot(" in script:
        assert [g for g in groups if g.get("data-plot")], "no plot map for the script"
    # every mark the script moves was drawn by Python, and the script draws no element of its own
    used = set(re.findall(r'(?:mark|point)\((?:stage, )?"([\w-]+)"', script))
    for keys in re.findall(r"resize\(stage, \{(.*?)\}\)", script):
        used |= set(re.findall(r"(\w+):", keys))
    assert used and used <= marks, used - marks
    assert "kit.el(" not in script and "appendChild" not in script
