/* KV-cache widget: a generation stepper (with/without cache) and a KV-cache memory estimator. */
(window.llmbookDemos = window.llmbookDemos || []).push(["kv-cache", function (kit) {
  "use strict";
  var el = kit.el;
  var GPU_BYTES = 80e9; // one 80 GB accelerator, the scale of the memory bar

  function token(cls, label, title) {
    var span = document.createElement("span");
    span.className = "llmbook-kv__token " + cls;
    span.textContent = label;
    span.title = title;
    return span;
  }

  // Step s feeds the model len tokens without a cache; with one, the prompt once, then one token.
  // Each row's data-text-new / data-text-old titles its fresh and its past tokens.
  function showStep(root, out, p, s) {
    var len = p + s - 1;
    out("nc_step", String(len));
    out("c_step", String(s === 1 ? p : 1));
    out("nc_total", String(s * p + s * (s - 1) / 2));
    out("c_total", String(p + s - 1));
    var rowN = root.querySelector('[data-role="tokens-nocache"]'), rowC = root.querySelector('[data-role="tokens-cache"]');
    rowN.textContent = "";
    rowC.textContent = "";
    for (var i = 0; i < len; i++) {
      var fresh = s === 1 || i === len - 1;
      var label = (i < p ? "p" : "t") + (i < p ? i + 1 : i - p + 1);
      rowN.appendChild(fresh ? token("is-new", label + "★", kit.text(rowN, "new")) : token("is-recomputed", label + "↻", kit.text(rowN, "old")));
      rowC.appendChild(fresh ? token("is-new", label + "★", kit.text(rowC, "new")) : token("is-cached", label + "✓", kit.text(rowC, "old")));
    }
  }

  // The cache of n bytes against one accelerator's memory; one drawing unit per CSS pixel (up to
  // 600): on a phone the bar gets shorter, its text no smaller. The stage's data-text-gpu and
  // data-text-share are its labels.
  function drawBar(stage, n) {
    while (stage.firstChild) stage.removeChild(stage.firstChild);
    var width = Math.round(Math.max(300, Math.min(600, stage.getBoundingClientRect().width || 600)));
    stage.setAttribute("viewBox", "0 0 " + width + " 70");
    var full = Math.max(n, GPU_BYTES), w = width - 40;
    stage.appendChild(el("rect", { x: 20, y: 18, width: w, height: 22, fill: "none", stroke: "currentColor", "stroke-opacity": 0.4 }));
    stage.appendChild(el("rect", { x: 20, y: 18, width: Math.max(1, w * n / full), height: 22, fill: kit.color(n > GPU_BYTES ? "red" : "blue") }));
    var gx = 20 + w * GPU_BYTES / full;
    stage.appendChild(el("line", { x1: gx, x2: gx, y1: 10, y2: 48, stroke: "currentColor", "stroke-width": 2 }));
    var nearEdge = gx > width - 50; // the label ends at the line rather than running off the stage
    stage.appendChild(el("text", { x: gx, y: 62, "font-size": 11, "text-anchor": nearEdge ? "end" : "middle", fill: "currentColor" }, kit.text(stage, "gpu")));
    stage.appendChild(el("text", { x: 22, y: 12, "font-size": 11, fill: "currentColor" },
      kit.text(stage, "share", { percent: (100 * n / GPU_BYTES).toFixed(1) })));
  }

  function init(root) {
    var inputs = kit.inputs(root);
    var config = kit.json(root, "config");
    var stage = root.querySelector('[data-role="stage"]');
    function int(name) { return parseInt(inputs[name].value, 10); }
    var out = kit.output(root);

    function updateStepper() {
      kit.showValues(root, inputs);
      showStep(root, out, int("p"), int("step"));
    }

    function updateMemory() {
      var n = 2 * int("L") * int("kvh") * int("hd") * int("S") * int("dtype") * int("B");
      if (!(n >= 0)) { out("bytes", "—"); out("gb", "—"); out("gib", "—"); return; } // an emptied field
      out("bytes", n.toLocaleString("en-US"));
      out("gb", (n / 1e9).toFixed(2));
      out("gib", (n / Math.pow(2, 30)).toFixed(2));
      drawBar(stage, n);
    }

    inputs.preset.addEventListener("change", function () {
      var d = config.presets[inputs.preset.value];
      if (!d) return;
      inputs.L.value = d.L; inputs.kvh.value = d.kvh; inputs.hd.value = d.hd;
    });
    ["L", "kvh", "hd"].forEach(function (name) {
      inputs[name].addEventListener("input", function () { inputs.preset.value = "custom"; });
    });
    kit.onWidthChange(root, stage, updateMemory);
    root.addEventListener("input", function () { updateStepper(); updateMemory(); });
    root.addEventListener("change", function () { updateStepper(); updateMemory(); });
    function move(delta) {
      var s = Math.min(int("step") + delta, parseInt(inputs.step.max, 10));
      inputs.step.value = Math.max(1, s);
      updateStepper();
    }
    root.querySelector('[data-action="prev"]').addEventListener("click", function () { move(-1); });
    root.querySelector('[data-action="next"]').addEventListener("click", function () { move(1); });
    updateStepper();
    updateMemory();
  }

  return init;
}]);
