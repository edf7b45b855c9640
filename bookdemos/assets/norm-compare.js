/* LayerNorm vs RMSNorm widget: every intermediate of both norms on an editable 4-vector; the bars
   bookdemos/norm_compare.py drew resized to the current x, LayerNorm(x) and RMSNorm(x). */
(window.llmbookDemos = window.llmbookDemos || []).push(["norm-compare", function (kit) {
  "use strict";
  var fmt = kit.fmt;
  var LN_EPS = 1e-5, RMS_EPS = 1e-6;

  function vec(v) { return "[" + v.map(fmt).join(", ") + "]"; }
  function mean(v) { return v.reduce(function (a, b) { return a + b; }, 0) / v.length; }

  // Each series' bars on a y range of ±max(1, |largest value|), as Python drew the seed's.
  function resize(stage, series) {
    var lim = 1;
    Object.keys(series).forEach(function (k) { series[k].forEach(function (v) { lim = Math.max(lim, Math.abs(v)); }); });
    var plot = kit.plot(stage.querySelector("[data-plot]"), [-lim, lim]), zero = plot.py(0);
    Object.keys(series).forEach(function (key) {
      stage.querySelectorAll('[data-series="' + key + '"] rect').forEach(function (bar, i) {
        var v = isFinite(series[key][i]) ? series[key][i] : 0;
        kit.set(bar, { y: plot.py(Math.max(v, 0)), height: Math.max(0.5, Math.abs(plot.py(v) - zero)) });
      });
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
      resize(stage, { x: x, ln: ln, rms: rn });
    }
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    update();
  }

  return init;
}]);
