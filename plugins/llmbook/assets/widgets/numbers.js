/* Where a number comes from, on hover (its title) and on tap or Enter (a small popover with the
   same text): a checked number shows its expression and computed value, a cited one its source,
   an illustrative one that it is illustrative. Works from file://, needs nothing else. */
(window.llmbookWidgets = window.llmbookWidgets || []).push(["numbers", function () {
  "use strict";

  var count = 0;

  function closeTips() {
    document.querySelectorAll(".llmbook-num-tip").forEach(function (tip) { tip.remove(); });
    document.querySelectorAll('.llmbook-num[aria-expanded="true"]').forEach(function (num) {
      num.setAttribute("aria-expanded", "false");
    });
  }

  function toggle(num) {
    var open = num.getAttribute("aria-expanded") === "true";
    closeTips();
    if (open) return;
    var tip = document.createElement("span");
    tip.className = "llmbook-num-tip";
    tip.id = num.getAttribute("aria-controls");
    // A status region: a screen reader reads the source when it opens, and focus stays put.
    tip.setAttribute("role", "status");
    tip.textContent = num.getAttribute("title") || "";
    num.after(tip);
    num.setAttribute("aria-expanded", "true");
  }

  function boot() {
    document.querySelectorAll(".llmbook-num").forEach(function (num) {
      if (num.dataset.llmbookTip) return;
      num.dataset.llmbookTip = "1";
      num.tabIndex = 0;
      num.setAttribute("role", "button");
      num.setAttribute("aria-expanded", "false");
      num.setAttribute("aria-controls", "llmbook-num-tip-" + (count += 1));
      num.addEventListener("click", function (event) {
        event.stopPropagation();
        toggle(num);
      });
      num.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          toggle(num);
        } else if (event.key === "Escape") {
          closeTips();
        }
      });
    });
  }

  document.addEventListener("click", function () { closeTips(); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeTips();
  });
  return boot; // kit.js runs it on every page
}]);
