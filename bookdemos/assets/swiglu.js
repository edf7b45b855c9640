/* SwiGLU widget: the scalar steps gate = SiLU(x·W1), value = x·W3, hidden, output; the current z
   marked on the SiLU and ReLU curves that bookdemos/swiglu.py drew. */
(window.llmbookDemos = window.llmbookDemos || []).push(["swiglu", function (kit) {
  "use strict";
  var fmt = kit.fmt, clamp = kit.clamp;

  function sigmoid(z) { return 1 / (1 + Math.exp(-z)); }
  function silu(z) { return z * sigmoid(z); }

  function init(root) {
    var inputs = kit.inputs(root);
    var stage = root.querySelector('[data-role="stage"]');
    var plot = kit.plot(stage.querySelector("[data-plot]"));
    var out = kit.output(root);
    function val(name) { return parseFloat(inputs[name].value); }
    function mark(name) { return kit.mark(stage, name).firstChild; }

    function place(z) {
      var zc = clamp(z, plot.xlim[0], plot.xlim[1]), x = plot.px(zc);
      kit.set(mark("z-line"), { x1: x, x2: x });
      kit.set(mark("silu-dot"), { cx: x, cy: plot.py(clamp(silu(zc), plot.ylim[0], plot.ylim[1])) });
      kit.set(mark("relu-dot"), { cx: x, cy: plot.py(clamp(Math.max(0, zc), plot.ylim[0], plot.ylim[1])) });
      kit.set(mark("z-label"), { x: x }).textContent = "z = x·W₁ = " + fmt(z);
    }

    function update() {
      kit.showValues(root, inputs);
      var x = val("x"), z = x * val("w1"), gate = silu(z), value = x * val("w3"), hidden = gate * value;
      out("pre", fmt(z));
      out("sigma", fmt(sigmoid(z)));
      out("gate", fmt(gate));
      out("value", fmt(value));
      out("hidden", fmt(hidden));
      out("output", fmt(hidden * val("w2")));
      out("relu", fmt(Math.max(0, z)));
      if (isFinite(z)) place(z);
    }
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    update();
  }

  return init;
}]);
