"""KV cache: a stepper of recomputed K/V projections with and without the cache, and a memory estimator."""

from __future__ import annotations

import functools

import torch

import llmkit
from llmbook.demos.base import Demo, register
from llmbook.demos.controls import button, grid_script, number, output, select, slider, widget
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

__all__ = ["KVCacheDemo", "MODEL_PRESETS", "projection_counts"]

MODEL_PRESETS = ("llama2-7b", "llama2-70b", "llama3-8b")
DTYPES = (("2", "FP16 / BF16（2 字节）"), ("4", "FP32（4 字节）"), ("1", "INT8 / FP8（1 字节）"))
FIGURE_STEPS = 8


@functools.lru_cache(maxsize=1)
def _tiny_model() -> llmkit.Transformer:
    with torch.random.fork_rng():  # the weights do not matter for counting; keep the caller's RNG
        torch.manual_seed(0)
        return llmkit.Transformer(llmkit.ModelConfig.tiny()).eval()


@functools.lru_cache(maxsize=16)
def _call_sizes(prompt_len: int, use_cache: bool, steps: int) -> tuple[int, ...]:
    """Token positions layer 0's k_proj projects in each forward of one `steps`-token generation.

    Recorded by a hook beside llmkit's own count (which they must add up to). Greedy decoding makes
    the first n forwards of a longer run those of an n-token run, so one run serves every step.
    """
    model = _tiny_model()
    sizes: list[int] = []
    k_proj = model.layers[0].attn.k_proj
    handle = k_proj.register_forward_hook(lambda module, args, out: sizes.append(out.shape[-2]))
    try:
        with torch.no_grad():
            total = llmkit.count_kv_projections(model, prompt_len, steps, use_cache=use_cache)
    finally:
        handle.remove()
    if sum(sizes) != total or len(sizes) != steps:
        raise RuntimeError(f"k_proj calls {sizes} do not add up to llmkit's count {total}")
    return tuple(sizes)


@functools.lru_cache(maxsize=64)
def projection_counts(prompt_len: int, steps: int) -> dict[str, int]:
    """K/V projections measured by llmkit on the tiny model: at step `steps` and in total so far."""
    if steps < 1:
        raise ValueError(f"steps counts generated tokens from 1, got {steps}")
    run = max(steps, FIGURE_STEPS)  # one run per prompt length covers the figure and the stepper
    nc = _call_sizes(prompt_len, False, run)[:steps]
    c = _call_sizes(prompt_len, True, run)[:steps]
    return {"nc_step": nc[-1], "c_step": c[-1], "nc_total": sum(nc), "c_total": sum(c)}


def _preset_dims(name: str) -> dict[str, int]:
    cfg = llmkit.PRESETS[name]
    return {
        "L": cfg.num_hidden_layers,
        "kvh": cfg.num_key_value_heads,
        "hd": cfg.head_dim,
        "hq": cfg.num_attention_heads,
    }


def _memory_out(L: int, kvh: int, hd: int, S: int, B: int, dtype: int) -> dict[str, float]:
    n = llmkit.kv_cache_bytes(L, kvh, hd, S, bytes_per_elem=dtype, batch_size=B)
    return {"bytes": n, "gb": n / 1e9, "gib": n / 2**30}


@register
class KVCacheDemo(Demo):
    ID = "kv-cache"

    def figure_svg(self) -> str:
        return two_layouts(
            (780, 310),
            "KV Cache：每步重算的 K/V 投影数，以及显存随序列长度的增长",
            [
                Panel("每步重算的 K/V 投影数：无缓存与有缓存", (0, 0, 400, 310)),
                Panel("三个预设模型的 KV Cache 显存随序列长度的增长", (400, 0, 380, 310)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        steps = list(range(1, FIGURE_STEPS + 1))
        counts = [projection_counts(1, n) for n in steps]
        p = Plot(c, (50, 55, 300, 190), (0.5, FIGURE_STEPS + 0.5), (0, FIGURE_STEPS))
        p.axes(
            steps,
            [0, 2, 4, 6, 8],
            xlabel="生成步骤（提示长度 1）",
            ylabel="本步 K/V 投影的 token 数",
            title="llmkit 实测：第 0 层 k_proj 的调用",
        )
        for n, cnt in zip(steps, counts, strict=True):
            for j, (key, color) in enumerate(
                (("nc_step", COLORS["red"]), ("c_step", COLORS["green"]))
            ):
                x = p.px(n) - 13 + j * 13
                c.rect(x, p.py(cnt[key]), 12, p.py(0) - p.py(cnt[key]), fill=color, stroke=None)
        last = counts[-1]
        p.legend(
            70,
            72,
            [
                (f"无缓存：累计 {last['nc_total']}", COLORS["red"]),
                (f"有缓存：累计 {last['c_total']}", COLORS["green"]),
            ],
        )

        lengths = [0, 2048, 4096, 6144, 8192]
        largest = max(
            llmkit.kv_cache_bytes_for(llmkit.PRESETS[n], lengths[-1]) for n in MODEL_PRESETS
        )
        top = int(largest / 1e9) + 1
        q = Plot(c, (470, 55, 280, 190), (0, 8192), (0, top))
        q.axes(
            lengths,
            list(range(top + 1)),
            xlabel="序列长度 S（FP16，batch = 1）",
            ylabel="KV Cache（GB）",
            title="显存 = 2·L·H_kv·d_head·S·字节数",
            fmt_x=lambda v: f"{int(v) // 1024}K" if v else "0",
        )
        colors = (COLORS["blue"], COLORS["orange"], COLORS["purple"])
        for name, color in zip(MODEL_PRESETS, colors, strict=True):
            gb = [llmkit.kv_cache_bytes_for(llmkit.PRESETS[name], s) / 1e9 for s in lengths]
            q.series(lengths, gb, color, dots=True)
        entries = []
        for name, color in zip(MODEL_PRESETS, colors, strict=True):
            d = _preset_dims(name)
            gb = llmkit.kv_cache_bytes_for(llmkit.PRESETS[name], 4096) / 1e9
            entries.append((f"{name}（H_kv={d['kvh']}）4K: {num(gb, 2)} GB", color))
        q.legend(485, 72, entries)

    def widget_html(self) -> str:
        tol = {"nc_step": 0, "c_step": 0, "nc_total": 0, "c_total": 0, "bytes": 0}
        tol |= {"gb": 6e-3, "gib": 6e-3}
        body = (
            _stepper_html() + _memory_html() + grid_script(tol, _stepper_cases() + _memory_cases())
        )
        config = {"presets": {name: _preset_dims(name) for name in MODEL_PRESETS}}
        return widget(self.ID, body, config=config)


def _stepper_cases() -> list[dict]:
    """llmkit's counts for prompts of 1–3 tokens, steps 1–6."""
    return [
        {"in": {"p": p, "step": n}, "out": projection_counts(p, n)}
        for p in (1, 2, 3)
        for n in range(1, 7)
    ]


def _memory_cases() -> list[dict]:
    """The cache size for each preset at four (S, batch, bytes) settings, and three custom models."""
    cases = []
    for name in MODEL_PRESETS:
        d = _preset_dims(name)
        for S, B, dt in ((4096, 1, 2), (32768, 8, 2), (2048, 4, 1), (8192, 2, 4)):
            cases.append(
                {
                    "in": {"preset": name, "S": S, "B": B, "dtype": dt},
                    "out": _memory_out(d["L"], d["kvh"], d["hd"], S, B, dt),
                }
            )
    for L, kvh, hd, S, B, dt in (
        (12, 12, 64, 1024, 1, 4),
        (4, 2, 32, 512, 3, 2),
        (126, 8, 128, 131072, 16, 1),
    ):
        cases.append(
            {
                "in": {"L": L, "kvh": kvh, "hd": hd, "S": S, "B": B, "dtype": dt},
                "out": _memory_out(L, kvh, hd, S, B, dt),
            }
        )
    return cases


def _stepper_html() -> str:
    return (
        "<h4>① 逐步生成：无缓存 vs 有缓存</h4>"
        '<div class="llmbook-widget__controls">'
        + slider("p", "提示长度", 1, 4, 1, 1)
        + slider("step", "生成第几步", 1, 8, 1, 1)
        + '<div class="llmbook-widget__buttons">'
        + button("prev", "上一步")
        + button("next", "下一步")
        + "</div></div>"
        '<div class="llmbook-widget__cols">'
        '<div><h4>无缓存：历史全部重算 ↻</h4><div data-role="tokens-nocache"></div>'
        + output("nc_step", "本步投影")
        + output("nc_total", "累计投影")
        + "</div>"
        '<div><h4>有缓存：只算新 token</h4><div data-role="tokens-cache"></div>'
        + output("c_step", "本步投影")
        + output("c_total", "累计投影")
        + "</div></div>"
        '<p class="llmbook-widget__note">缓存省掉的是历史 token 的投影与前向重算；新 token 的 Query '
        "仍要和全部历史 K 做点积，注意力的工作量仍随上下文线性增长。</p>"
    )


def _memory_html() -> str:
    d7 = _preset_dims("llama2-7b")
    presets = [("custom", "自定义")] + [(n, n) for n in MODEL_PRESETS]
    return (
        "<h4>② 显存估算器</h4>"
        '<div class="llmbook-widget__controls">'
        + select("preset", "模型预设", presets, "llama2-7b")
        + number("L", "层数 L", d7["L"], 1, 1)
        + number("kvh", "KV head 数 H_kv", d7["kvh"], 1, 1)
        + number("hd", "head 维度 d_head", d7["hd"], 1, 1)
        + number("S", "序列长度 S", 4096, 1, 1)
        + number("B", "batch", 1, 1, 1)
        + select("dtype", "数据类型", list(DTYPES), "2")
        + "</div>"
        '<div class="llmbook-widget__results">'
        + output("bytes", "KV Cache", "字节")
        + output("gb", "≈", "GB")
        + output("gib", "=", "GiB")
        + "</div>"
        '<svg class="llmbook-widget__stage llmbook-widget__stage--wide" data-role="stage" '
        'viewBox="0 0 600 70" role="img" aria-label="与各预设模型的显存对比"></svg>'
    )
