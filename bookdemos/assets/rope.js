/* RoPE widget: rotate q by m·θ and k by n·θ and show their dot product; the arrows
   bookdemos/rope.py drew are turned to the input and rotated vectors. */
(window.llmbookDemos = window.llmbookDemos || []).push(["rope", function (kit) {
  "use strict";
  var fmt = kit.fmt;

  function rotate(v, a) {
    var c = Math.cos(a), s = Math.sin(a);
    return [c * v[0] - s * v[1], s * v[0] + c * v[1]];
  }

  // Python drew each arrow along +x, one radius long: turn it to v's direction (none for v = 0).
  function point(stage, name, v) {
    var a = Math.atan2(v[1], v[0]), shown = Math.hypot(v[0], v[1]) > 0;
    kit.mark(stage, name).setAttribute("transform", "rotate(" + (-a * 180 / Math.PI) + ")" + (shown ? "" : " scale(0)"));
    var label = kit.mark(stage, name + "-label");
    if (label) kit.set(label.firstChild, { x: 115 * Math.cos(a), y: -115 * Math.sin(a) + 4 });
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
      out("qrot", "[" + fmt(qr[0]) + ", " + fmt(qr[1]) + "]");
      out("krot", "[" + fmt(kr[0]) + ", " + fmt(kr[1]) + "]");
      out("dot", fmt(qr[0] * kr[0] + qr[1] * kr[1]));
      out("rel", String(m - n));
      point(stage, "q", q);
      point(stage, "k", k);
      point(stage, "qrot", qr);
      point(stage, "krot", kr);
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
