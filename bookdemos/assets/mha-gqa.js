/* MHA/GQA/MQA widget: query heads wired to their shared K/V head, and KV-cache size bars. */
(window.llmbookDemos = window.llmbookDemos || []).push(["mha-gqa", function (kit) {
  "use strict";
  var el = kit.el;
  var PALETTE = ["blue", "orange", "green", "purple"].map(kit.color);

  function bytes(m, kvh, seq) { return 2 * m.L * kvh * m.hd * seq * 2; } // FP16, batch 1

  // Query heads wired to their K/V group, and the cache of MHA, the current H_kv and MQA as bars,
  // labelled with the stage's data-text-current and data-text-row.
  function draw(stage, m, kvh, seq) {
    while (stage.firstChild) stage.removeChild(stage.firstChild);
    // One drawing unit per CSS pixel (up to 640): on a phone the drawing narrows, its text stays.
    var width = Math.round(Math.max(300, Math.min(640, stage.getBoundingClientRect().width || 640)));
    stage.setAttribute("viewBox", "0 0 " + width + " 250");
    var hq = m.hq, wiring = m.wiring[String(kvh)], w = width - 40, x0 = 30, barMax = width - 220;
    var r = Math.min(7, w / hq / 2.5);
    stage.appendChild(el("text", { x: 4, y: 34, "font-size": 11, fill: "currentColor" }, "Q"));
    stage.appendChild(el("text", { x: 4, y: 104, "font-size": 11, fill: "currentColor" }, "KV"));
    for (var i = 0; i < hq; i++) {
      var j = wiring[i], color = PALETTE[j % PALETTE.length]; // llmkit's measured K/V head
      var qx = x0 + (i + 0.5) * w / hq, kx = x0 + (j + 0.5) * w / kvh;
      stage.appendChild(el("line", { x1: qx, y1: 36, x2: kx, y2: 92, stroke: color, "stroke-width": 1.2, "data-q": i, "data-kv": j }));
      stage.appendChild(el("circle", { cx: qx, cy: 30, r: r, fill: color }));
    }
    for (var k = 0; k < kvh; k++) {
      var bw = Math.max(3, Math.min(22, w / kvh - 3));
      stage.appendChild(el("rect", { x: x0 + (k + 0.5) * w / kvh - bw / 2, y: 92, width: bw, height: 16, rx: 2, fill: PALETTE[k % PALETTE.length] }));
    }
    var full = bytes(m, hq, seq) || 1, rows = [["MHA", hq], [kit.text(stage, "current"), kvh], ["MQA", 1]];
    rows.forEach(function (row, n) {
      var b = bytes(m, row[1], seq), y = 140 + n * 34;
      stage.appendChild(el("text", { x: 60, y: y + 15, "font-size": 11, "text-anchor": "end", fill: "currentColor" }, kit.text(stage, "row", { name: row[0], count: row[1] })));
      stage.appendChild(el("rect", { x: 68, y: y, width: Math.max(1, barMax * b / full), height: 20, fill: kit.color(n === 1 ? "blue" : "gray") }));
      stage.appendChild(el("text", { x: 74 + barMax * b / full, y: y + 15, "font-size": 11, fill: "currentColor" }, (b / 1e9).toFixed(2) + " GB"));
    });
  }

  function init(root) {
    var inputs = kit.inputs(root);
    var models = kit.json(root, "config").models;
    var stage = root.querySelector('[data-role="stage"]');
    var out = kit.output(root);
    function model() { return models[inputs.model.value]; }

    function fillOptions() { // each option labelled by the select's data-text-option
      var m = model();
      inputs.kvh.textContent = "";
      m.divisors.forEach(function (d) {
        var o = document.createElement("option");
        o.value = String(d);
        o.textContent = kit.text(inputs.kvh, "option", { count: d, kind: d === m.hq ? "MHA" : d === 1 ? "MQA" : "GQA" });
        inputs.kvh.appendChild(o);
      });
      inputs.kvh.value = String(m.kvh);
    }

    function update() {
      var m = model(), kvh = parseInt(inputs.kvh.value, 10), seq = parseInt(inputs.S.value, 10);
      var b = bytes(m, kvh, seq);
      if (!(seq > 0)) { seq = 0; b = 0; } // an emptied length field draws an empty cache
      out("group", String(m.hq / kvh));
      out("bytes", b.toLocaleString("en-US"));
      out("gb", (b / 1e9).toFixed(2));
      out("mha_gb", (bytes(m, m.hq, seq) / 1e9).toFixed(2));
      out("mqa_gb", (bytes(m, 1, seq) / 1e9).toFixed(2));
      root.querySelectorAll("[data-action]").forEach(function (btn) {
        var target = { mha: m.hq, gqa: 8, mqa: 1 }[btn.dataset.action];
        btn.setAttribute("aria-pressed", String(target === kvh));
      });
      draw(stage, m, kvh, seq);
    }

    // A new model offers other H_kv: its options are in place before update() runs on this event.
    inputs.model.addEventListener("input", fillOptions);
    inputs.model.addEventListener("change", fillOptions);
    kit.onWidthChange(root, stage, update);
    root.addEventListener("input", update);
    root.addEventListener("change", update);
    root.querySelectorAll("[data-action]").forEach(function (btn) {
      btn.addEventListener("click", function () {
        inputs.kvh.value = String({ mha: model().hq, gqa: 8, mqa: 1 }[btn.dataset.action]);
        update();
      });
    });
    fillOptions();
    update();
  }

  return init;
}]);
