/* SwiGLU widget: the scalar steps gate = SiLU(x·W1), value = x·W3, hidden, output; SiLU vs ReLU. */
(window.llmbookDemos = window.llmbookDemos || []).push(["swiglu", function (kit) {
  "use strict";
  var el = kit.el, fmt = kit.fmt;
  var X0 = 40, Y0 = 15, W = 245, H = 190, XMIN = -5, XMAX = 5, YMIN = -1, YMAX = 5;

  function sigmoid(z) { return 1 / (1 + Math.exp(-z)); }
  function silu(z) { return z * sigmoid(z); }
  function px(x) { return X0 + (x - XMIN) / (XMAX - XMIN) * W; }
  function py(y) { return Y0 + H - (y - YMIN) / (YMAX - YMIN) * H; }
  function curve(f) {
    var pts = [];
    for (var i = 0; i <= 100; i++) {
      var x = XMIN + (XMAX - XMIN) * i / 100, y = Math.max(YMIN, Math.min(YMAX, f(x)));
      pts.push(px(x).toFixed(1) + "," + py(y).toFixed(1));
    }
    return pts.join(" ");
  }

  function drawAxes(svg) {
    [-1, 0, 1, 2, 3, 4, 5].forEach(function (t) {
      svg.appendChild(el("line", { x1: X0, x2: X0 + W, y1: py(t), y2: py(t), stroke: "currentColor", "stroke-opacity": t === 0 ? 0.5 : 0.12 }));
      svg.appendChild(el("text", { x: X0 - 5, y: py(t) + 4, "font-size": 10, "text-anchor": "end", fill: "currentColor" }, String(t)));
    });
    [-4, -2, 0, 2, 4].forEach(function (t) {
      svg.appendChild(el("line", { x1: px(t), x2: px(t), y1: Y0, y2: Y0 + H, stroke: "currentColor", "stroke-opacity": t === 0 ? 0.5 : 0.12 }));
      svg.appendChild(el("text", { x: px(t), y: Y0 + H + 14, "font-size": 10, "text-anchor": "middle", fill: "currentColor" }, String(t)));
    });
    svg.appendChild(el("polyline", { points: curve(function (x) { return Math.max(0, x); }), fill: "none", stroke: "#8a8a8a", "stroke-width": 1.6, "stroke-dasharray": "5 3" }));
    svg.appendChild(el("polyline", { points: curve(silu), fill: "none", stroke: "#1e88e5", "stroke-width": 2.4 }));
    svg.appendChild(el("text", { x: X0 + 6, y: Y0 + 12, "font-size": 11, fill: "#1e88e5" }, "SiLU"));
    svg.appendChild(el("text", { x: X0 + 6, y: Y0 + 26, "font-size": 11, fill: "#8a8a8a" }, "ReLU"));
  }

  function init(root) {
    var inputs = kit.inputs(root);
    var stage = root.querySelector('[data-role="stage"]');
    drawAxes(stage);
    var marks = el("g", {});
    stage.appendChild(marks);
    function val(name) { return parseFloat(inputs[name].value); }
    function out(name, v) { root.querySelector('[data-out="' + name + '"]').textContent = fmt(v); }

    function update() {
      kit.showValues(root, inputs);
      var x = val("x"), z = x * val("w1"), gate = silu(z), value = x * val("w3"), hidden = gate * value;
      out("pre", z);
      out("sigma", sigmoid(z));
      out("gate", gate);
      out("value", value);
      out("hidden", hidden);
      out("output", hidden * val("w2"));
      out("relu", Math.max(0, z));
      while (marks.firstChild) marks.removeChild(marks.firstChild);
      var zc = Math.max(XMIN, Math.min(XMAX, z));
      marks.appendChild(el("line", { x1: px(zc), x2: px(zc), y1: Y0, y2: Y0 + H, stroke: "currentColor", "stroke-opacity": 0.35, "stroke-dasharray": "3 3" }));
      marks.appendChild(el("circle", { cx: px(zc), cy: py(Math.max(YMIN, Math.min(YMAX, silu(zc)))), r: 5, fill: "#1e88e5" }));
      marks.appendChild(el("circle", { cx: px(zc), cy: py(Math.min(YMAX, Math.max(0, zc))), r: 4, fill: "none", stroke: "#8a8a8a", "stroke-width": 2 }));
      marks.appendChild(el("text", { x: px(zc), y: Y0 + H + 28, "font-size": 10.5, "text-anchor": "middle", fill: "currentColor" }, "z = x·W₁ = " + fmt(z)));
    }
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    update();
  }

  return init;
}]);
