/* llmbook lesson cards: a "标记为已完成" toggle per card, kept in localStorage (keyed by page and
   card, so it works from file://), and the page's "k / N 卡片已完成" progress. Plain JS. */
(window.llmbookWidgets = window.llmbookWidgets || []).push(["cards", function () {
  "use strict";
  var PREFIX = "llmbook:card-done:";

  function load(key) {
    try { return window.localStorage.getItem(PREFIX + key) === "1"; } catch (error) { return false; }
  }

  function save(key, done) {
    try {
      if (done) window.localStorage.setItem(PREFIX + key, "1");
      else window.localStorage.removeItem(PREFIX + key);
    } catch (error) { /* storage disabled: the toggle still works for this visit */ }
  }

  function show(card, done) {
    var button = card.querySelector(".llmbook-card__done");
    card.classList.toggle("is-done", done);
    button.setAttribute("aria-pressed", done ? "true" : "false");
    var zh = /^zh/i.test(document.documentElement.lang || "zh");  // Material's theme.language
    var undo = zh ? "✓ 已完成（点击撤销）" : "✓ Done (click to undo)";
    button.textContent = done ? undo : (zh ? "标记为已完成" : "Mark as done");
  }

  function update() {
    var cards = document.querySelectorAll("[data-llmbook-card]");
    var done = 0;
    cards.forEach(function (card) { if (card.classList.contains("is-done")) done += 1; });
    document.querySelectorAll("[data-llmbook-progress]").forEach(function (progress) {
      progress.querySelector(".llmbook-progress__done").textContent = String(done);
      progress.querySelector(".llmbook-progress__bar").value = done;
    });
  }

  function setup(card) {
    if (card.hasAttribute("data-llmbook-ready")) return;
    card.setAttribute("data-llmbook-ready", "");
    var key = card.getAttribute("data-llmbook-card");
    var button = card.querySelector(".llmbook-card__done");
    button.hidden = false;
    show(card, load(key));
    button.addEventListener("click", function () {
      var done = !card.classList.contains("is-done");
      save(key, done);
      show(card, done);
      update();
    });
  }

  function init() {
    document.querySelectorAll("[data-llmbook-card]").forEach(setup);
    update();
  }

  return init; // kit.js runs it on every page
}]);
