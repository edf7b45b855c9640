/* Pre-/Post-Norm widget: forward vs backward path on both blocks; the measured gradient by depth. */
(window.llmbookDemos = window.llmbookDemos || []).push(["pre-post-norm", function (kit) {
  "use strict";
  var el = kit.el;
  var X0 = 45, Y0 = 15, W = 240, H = 150;


  function init(root) {
    var data = JSON.parse(root.querySelector('script[data-role="config"]').textContent);
    var depthInput = root.querySelector('[data-in="depth"]');
    var stage = root.querySelector('[data-role="stage"]');
    var xmax = data.depths[data.depths.length - 1];
    var ymax = 10 * (Math.floor(Math.max.apply(null, data.pre.concat(data.post)) / 10) + 1);
    function px(x) { return X0 + x / xmax * W; }
    function py(y) { return Y0 + H - y / ymax * H; }
    var out = kit.output(root);

    function line(values, color, dash) {
      var pts = data.depths.map(function (d, i) { return px(d).toFixed(1) + "," + py(values[i]).toFixed(1); });
      stage.appendChild(el("polyline", { points: pts.join(" "), fill: "none", stroke: color, "stroke-width": 2, "stroke-dasharray": dash }));
    }

    function update() {
      var i = data.depths.indexOf(parseInt(depthInput.value, 10));
      out("pre", data.pre[i].toFixed(2));
      out("post", data.post[i].toFixed(2));
      out("ratio", (data.pre[i] / data.post[i]).toFixed(2));
      while (stage.firstChild) stage.removeChild(stage.firstChild);
      for (var t = 0; t <= ymax; t += 10) {
        stage.appendChild(el("line", { x1: X0, x2: X0 + W, y1: py(t), y2: py(t), stroke: "currentColor", "stroke-opacity": 0.15 }));
        stage.appendChild(el("text", { x: X0 - 5, y: py(t) + 4, "font-size": 10, "text-anchor": "end", fill: "currentColor" }, String(t)));
      }
      [0, 8, 16, 24, 32].forEach(function (d) {
        stage.appendChild(el("text", { x: px(d), y: Y0 + H + 14, "font-size": 10, "text-anchor": "middle", fill: "currentColor" }, String(d)));
      });
      stage.appendChild(el("text", { x: X0 + W / 2, y: Y0 + H + 30, "font-size": 10.5, "text-anchor": "middle", fill: "currentColor" }, "层数"));
      line(data.pre, "#2e9d4f", "none");
      line(data.post, "#e53935", "5 3");
      var d = data.depths[i];
      stage.appendChild(el("line", { x1: px(d), x2: px(d), y1: Y0, y2: Y0 + H, stroke: "currentColor", "stroke-opacity": 0.4, "stroke-dasharray": "3 3" }));
      stage.appendChild(el("circle", { cx: px(d), cy: py(data.pre[i]), r: 5, fill: "#2e9d4f" }));
      stage.appendChild(el("circle", { cx: px(d), cy: py(data.post[i]), r: 5, fill: "#e53935" }));
    }

    function mode(name) {
      root.dataset.mode = name;
      root.querySelectorAll("[data-action]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(b.dataset.action === name));
      });
    }
    root.querySelectorAll("[data-action]").forEach(function (b) {
      b.addEventListener("click", function () { mode(b.dataset.action); });
    });
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    mode("forward");
    update();
  }

  return init;
}]);
