/* LayerNorm vs RMSNorm widget: every intermediate of both norms on an editable 4-vector. */
(window.llmbookDemos = window.llmbookDemos || []).push(["norm-compare", function (kit) {
  "use strict";
  var el = kit.el, fmt = kit.fmt;
  var LN_EPS = 1e-5, RMS_EPS = 1e-6;

  function vec(v) { return "[" + v.map(fmt).join(", ") + "]"; }
  function mean(v) { return v.reduce(function (a, b) { return a + b; }, 0) / v.length; }

  function draw(svg, groups) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var top = 15, h = 150, lim = 1;
    groups.forEach(function (g) { g.values.forEach(function (v) { lim = Math.max(lim, Math.abs(v)); }); });
    var zero = top + h / 2, scale = (h / 2) / lim;
    svg.appendChild(el("line", { x1: 10, x2: 290, y1: zero, y2: zero, stroke: "currentColor", "stroke-opacity": 0.5 }));
    for (var i = 0; i < 4; i++) {
      groups.forEach(function (g, j) {
        var v = g.values[i], x = 14 + i * 70 + j * 20, y = v >= 0 ? zero - v * scale : zero;
        svg.appendChild(el("rect", { x: x, y: y, width: 17, height: Math.max(0.5, Math.abs(v) * scale), fill: g.color }));
      });
      svg.appendChild(el("text", { x: 44 + i * 70, y: top + h + 18, "font-size": 10, "text-anchor": "middle", fill: "currentColor" }, "x[" + i + "]"));
    }
    groups.forEach(function (g, j) {
      svg.appendChild(el("rect", { x: 14 + j * 95, y: 0, width: 9, height: 9, fill: g.color }));
      svg.appendChild(el("text", { x: 27 + j * 95, y: 9, "font-size": 10, fill: "currentColor" }, g.name));
    });
  }

  function init(root) {
    var inputs = kit.inputs(root);
    var stage = root.querySelector('[data-role="stage"]');
    var out = kit.output(root);

    function update() {
      kit.showValues(root, inputs);
      var x = [0, 1, 2, 3].map(function (i) { return parseFloat(inputs["x" + i].value); });
      var mu = mean(x), centered = x.map(function (v) { return v - mu; });
      var variance = mean(centered.map(function (v) { return v * v; }));
      var std = Math.sqrt(variance + LN_EPS);
      var ln = centered.map(function (v) { return v / std; });
      var ms = mean(x.map(function (v) { return v * v; })), rms = Math.sqrt(ms + RMS_EPS);
      var rn = x.map(function (v) { return v / rms; });
      out("ln_mean", fmt(mu)); out("ln_centered", vec(centered)); out("ln_var", fmt(variance));
      out("ln_std", fmt(std)); out("ln_y", vec(ln));
      out("rms_ms", fmt(ms)); out("rms_rms", fmt(rms)); out("rms_y", vec(rn));
      draw(stage, [{ name: "x", values: x, color: "#8a8a8a" }, { name: "LayerNorm", values: ln, color: "#f08c00" },
        { name: "RMSNorm", values: rn, color: "#1e88e5" }]);
    }
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    update();
  }

  return init;
}]);
