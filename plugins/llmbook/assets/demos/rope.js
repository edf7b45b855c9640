/* RoPE widget: rotate q by m·θ and k by n·θ, show both vectors and their dot product. */
(window.llmbookDemos = window.llmbookDemos || []).push(["rope", function (kit) {
  "use strict";
  var el = kit.el, fmt = kit.fmt;

  function rotate(v, a) {
    var c = Math.cos(a), s = Math.sin(a);
    return [c * v[0] - s * v[1], s * v[0] + c * v[1]];
  }
  function arrow(svg, v, color, dashed, label) {
    var r = 100, x = r * v[0], y = -r * v[1], a = Math.atan2(y, x);
    svg.appendChild(el("line", { x1: 0, y1: 0, x2: x, y2: y, stroke: color, "stroke-width": dashed ? 1.5 : 3,
      "stroke-dasharray": dashed ? "4 3" : "none", "stroke-opacity": dashed ? 0.55 : 1 }));
    var pts = [[x, y]];
    [-1, 1].forEach(function (side) {
      var b = a + Math.PI + side * 0.4;
      pts.push([x + 9 * Math.cos(b), y + 9 * Math.sin(b)]);
    });
    svg.appendChild(el("polygon", { points: pts.map(function (p) { return p.join(","); }).join(" "),
      fill: color, "fill-opacity": dashed ? 0.55 : 1 }));
    if (label) {
      var t = el("text", { x: x * 1.15, y: y * 1.15 + 4, "text-anchor": "middle", "font-size": 12, fill: color });
      t.textContent = label;
      svg.appendChild(t);
    }
  }

  function init(root) {
    var inputs = kit.inputs(root);
    var stage = root.querySelector('[data-role="stage"]');
    var defaults = {};
    Object.keys(inputs).forEach(function (k) { defaults[k] = inputs[k].value; });
    function val(name) { return parseFloat(inputs[name].value); }
    var out = kit.output(root);

    function update() {
      kit.showValues(root, inputs);
      var m = val("m"), n = val("n"), theta = val("theta") * Math.PI / 180;
      var q = [val("qx"), val("qy")], k = [val("kx"), val("ky")];
      var qr = rotate(q, m * theta), kr = rotate(k, n * theta);
      var dot = qr[0] * kr[0] + qr[1] * kr[1];
      out("qrot", "[" + fmt(qr[0]) + ", " + fmt(qr[1]) + "]");
      out("krot", "[" + fmt(kr[0]) + ", " + fmt(kr[1]) + "]");
      out("dot", fmt(dot));
      out("rel", String(m - n));
      while (stage.firstChild) stage.removeChild(stage.firstChild);
      stage.appendChild(el("circle", { cx: 0, cy: 0, r: 100, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }));
      stage.appendChild(el("line", { x1: -120, y1: 0, x2: 120, y2: 0, stroke: "currentColor", "stroke-opacity": 0.2 }));
      stage.appendChild(el("line", { x1: 0, y1: -120, x2: 0, y2: 120, stroke: "currentColor", "stroke-opacity": 0.2 }));
      var scale = function (v) { var l = Math.hypot(v[0], v[1]) || 1; return [v[0] / l, v[1] / l]; };
      arrow(stage, scale(q), "#1e88e5", true, "");
      arrow(stage, scale(k), "#e53935", true, "");
      arrow(stage, scale(qr), "#1e88e5", false, "q′");
      arrow(stage, scale(kr), "#e53935", false, "k′");
    }

    root.addEventListener("input", update);
    root.addEventListener("change", update);
    root.querySelector('[data-action="both-plus"]').addEventListener("click", function () {
      // Both move by one: m − n is unchanged. At the slider's end, first slide both back together.
      var m = val("m"), n = val("n"), limit = parseFloat(inputs.m.max), back = Math.min(m, n);
      if (Math.max(m, n) >= limit) { m -= back; n -= back; }
      if (Math.max(m, n) < limit) { m += 1; n += 1; }
      inputs.m.value = m;
      inputs.n.value = n;
      update();
    });
    root.querySelector('[data-action="reset"]').addEventListener("click", function () {
      Object.keys(defaults).forEach(function (k) { inputs[k].value = defaults[k]; });
      update();
    });
    update();
  }

  return init;
}]);
