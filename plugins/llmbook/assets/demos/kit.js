/* What every demo widget shares: SVG and number helpers, its inputs and outputs, redrawing on a
   width change, and start-up. A demo script queues [id, factory] on window.llmbookDemos, in any
   load order; once the page is parsed, factory(kit) runs once and the init function it returns
   runs once per widget of that id. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";

  var kit = {
    el: function (name, attrs, text) {
      var node = document.createElementNS(SVGNS, name);
      Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      if (text !== undefined) node.textContent = text;
      return node;
    },
    fmt: function (x) {
      if (!isFinite(x)) return "—"; // an emptied or invalid input field
      var s = x.toFixed(3);
      return s === "-0.000" ? "0.000" : s;
    },
    inputs: function (root) { // the widget's [data-in] controls by name
      var inputs = {};
      root.querySelectorAll("[data-in]").forEach(function (i) { inputs[i.dataset.in] = i; });
      return inputs;
    },
    output: function (root) { // out(name, text) fills the [data-out] element of that name
      return function (name, text) { root.querySelector('[data-out="' + name + '"]').textContent = text; };
    },
    showValues: function (root, inputs) { // each [data-show] echoes its input's value
      root.querySelectorAll("[data-show]").forEach(function (o) { o.textContent = inputs[o.dataset.show].value; });
    },
    // redraw() when the stage's width changes (a rotated phone), in the next frame so the new
    // height is not a resize inside the observer's own callback.
    onWidthChange: function (root, stage, redraw) {
      if (!window.ResizeObserver) return;
      var drawnWidth = stage.getBoundingClientRect().width;
      new ResizeObserver(function () {
        var now = stage.getBoundingClientRect().width;
        if (Math.round(now) === Math.round(drawnWidth)) return;
        drawnWidth = now;
        window.requestAnimationFrame(redraw);
      }).observe(root);
    },
  };

  function start(entry) {
    var id = entry[0], factory = entry[1], init = null;
    function boot() {
      document.querySelectorAll('figure.llmbook-demo[data-demo="' + id + '"] .llmbook-widget').forEach(function (root) {
        if (root.dataset.ready) return;
        init = init || factory(kit);
        init(root);
        root.dataset.ready = "1";
      });
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
    else boot();
  }

  var queued = window.llmbookDemos || [];
  window.llmbookDemos = { push: start };
  queued.forEach(start);
})();
