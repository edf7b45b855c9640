/* Where a number comes from, on hover (its title) and on tap or Enter (a small popover with the
   same text): a checked number shows its expression and computed value, a cited one its source,
   an illustrative one that it is illustrative. Works from file://, needs nothing else. */
(function () {
  "use strict";

  function closeTips(except) {
    document.querySelectorAll(".llmbook-num-tip").forEach(function (tip) {
      if (tip !== except) tip.remove();
    });
  }

  function toggle(num) {
    var next = num.nextElementSibling;
    var open = next && next.classList.contains("llmbook-num-tip");
    closeTips();
    if (open) return;
    var tip = document.createElement("span");
    tip.className = "llmbook-num-tip";
    tip.setAttribute("role", "tooltip");
    tip.textContent = num.getAttribute("title") || "";
    num.after(tip);
  }

  function boot() {
    document.querySelectorAll(".llmbook-num").forEach(function (num) {
      if (num.dataset.llmbookTip) return;
      num.dataset.llmbookTip = "1";
      num.tabIndex = 0;
      num.setAttribute("role", "button");
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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
