/* What every widget script shares, and its one start-up path. Scripts load in any order (an
   engine lists them in its own order), so each queues itself and kit.js starts it:
   - a page widget queues [name, factory] on window.llmbookWidgets: factory(kit) runs once and the
     function it returns runs on every page shown (Material's document$, else once parsed);
   - a demo queues [id, factory] on window.llmbookDemos: factory(kit) runs once a figure of that id
     is on the page, and the init function it returns runs once per widget of that id.
   A demo's stage is drawn by Python (demos/controls.py): a script moves its data-mark elements
   over the plot's data-plot map and paints with var(--llmbook-c-NAME), never a colour of its own;
   the words it writes are the page's, read with text() from data-text-NAME attributes. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var PAINTS = { fill: true, stroke: true };

  var kit = {
    el: function (name, attrs, text) {
      var node = kit.set(document.createElementNS(SVGNS, name), attrs);
      if (text !== undefined) node.textContent = text;
      return node;
    },
    // A paint given as var(--…) goes into the style: SVG's presentation attributes take no var().
    set: function (node, attrs) {
      Object.keys(attrs).forEach(function (k) {
        var value = String(attrs[k]);
        if (PAINTS[k] && value.indexOf("var(") === 0) node.style.setProperty(k, value);
        else node.setAttribute(k, value);
      });
      return node;
    },
    color: function (name) { return "var(--llmbook-c-" + name + ")"; }, // svg.COLORS, by name
    // The words the node's data-text-NAME attribute holds (controls.texts), each {field} filled
    // in; a missing attribute is an error, not a blank.
    text: function (node, name, fields) {
      var text = node.getAttribute("data-text-" + name);
      if (text === null) throw new Error("no data-text-" + name + " on " + node.outerHTML.slice(0, 80));
      Object.keys(fields || {}).forEach(function (k) { text = text.split("{" + k + "}").join(String(fields[k])); });
      return text;
    },
    mark: function (stage, name) { return stage.querySelector('[data-mark="' + name + '"]'); },
    json: function (root, role) {
      return JSON.parse(root.querySelector('script[data-role="' + role + '"]').textContent);
    },
    // px(x), py(y) of the Python plot whose map the node's data-plot holds (svg.Plot.mapping);
    // `ylim` replaces its y range (a script that rescales to what it shows).
    plot: function (node, ylim) {
      var map = JSON.parse(node.getAttribute("data-plot")), box = map.box, xl = map.xlim;
      var yl = ylim || map.ylim;
      return {
        xlim: xl, ylim: yl,
        px: function (x) { return box[0] + (x - xl[0]) / (xl[1] - xl[0]) * box[2]; },
        py: function (y) { return box[1] + box[3] - (y - yl[0]) / (yl[1] - yl[0]) * box[3]; },
      };
    },
    clamp: function (v, lo, hi) { return Math.max(lo, Math.min(hi, v)); },
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

  function onEveryPage(run) {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(run); // Material's instant navigation swaps pages without a reload
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", run);
    } else {
      run();
    }
  }

  function startWidget(entry) {
    var onPage = entry[1](kit);
    if (typeof onPage === "function") onEveryPage(function () { onPage(); });
  }

  function startDemo(entry) {
    var id = entry[0], factory = entry[1], init = null;
    onEveryPage(function () {
      document.querySelectorAll('figure.llmbook-demo[data-demo="' + id + '"] .llmbook-widget').forEach(function (root) {
        if (root.dataset.ready) return;
        init = init || factory(kit);
        init(root);
        root.dataset.ready = "1";
      });
    });
  }

  var queuedWidgets = window.llmbookWidgets || [];
  window.llmbookWidgets = { push: startWidget };
  queuedWidgets.forEach(startWidget);
  var queued = window.llmbookDemos || [];
  window.llmbookDemos = { push: startDemo };
  queued.forEach(startDemo);
})();
