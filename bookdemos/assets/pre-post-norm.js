/* Pre-/Post-Norm widget: forward vs backward path on both blocks; the gradient norms llmkit
   measured at build time, read from the config and marked on the curve bookdemos/pre_post_norm.py drew. */
(window.llmbookDemos = window.llmbookDemos || []).push(["pre-post-norm", function (kit) {
  "use strict";

  function init(root) {
    var data = kit.json(root, "config");
    var depthInput = root.querySelector('[data-in="depth"]');
    var stage = root.querySelector('[data-role="stage"]');
    var plot = kit.plot(stage.querySelector("[data-plot]"));
    var out = kit.output(root);
    function mark(name) { return kit.mark(stage, name).firstChild; }

    function update() {
      var i = data.depths.indexOf(parseInt(depthInput.value, 10)), x = plot.px(data.depths[i]);
      out("pre", data.pre[i].toFixed(2));
      out("post", data.post[i].toFixed(2));
      out("ratio", (data.pre[i] / data.post[i]).toFixed(2));
      kit.set(mark("depth-line"), { x1: x, x2: x });
      kit.set(mark("pre-dot"), { cx: x, cy: plot.py(data.pre[i]) });
      kit.set(mark("post-dot"), { cx: x, cy: plot.py(data.post[i]) });
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
