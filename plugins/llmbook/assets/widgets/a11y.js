/* Keyboard reach for what the theme leaves out: a region that scrolls sideways (a wide formula, a
   row of tab labels, a wide figure) becomes focusable so arrow keys scroll it, and the label of the
   focused tab shows the focus ring (Material hides the radio input that actually holds focus). */
(function () {
  "use strict";
  var SCROLLERS = ".llmbook-math--display, .tabbed-labels, .llmbook-figure__scroll";

  function markScrollers() {
    document.querySelectorAll(SCROLLERS).forEach(function (region) {
      var scrolls = region.scrollWidth > region.clientWidth + 1;
      if (scrolls && !region.hasAttribute("tabindex")) {
        region.tabIndex = 0;
        region.classList.add("llmbook-scroll");
        if (!region.hasAttribute("aria-label") && !region.getAttribute("role")) {
          region.setAttribute("role", "group");
          region.setAttribute("aria-label", region.classList.contains("tabbed-labels") ? "标签页" : "可横向滚动的内容");
        }
      } else if (!scrolls && region.classList.contains("llmbook-scroll")) {
        region.removeAttribute("tabindex");
        region.classList.remove("llmbook-scroll");
      }
    });
  }

  function labelOf(input) {
    return input.id ? document.querySelector('label[for="' + input.id + '"]') : null;
  }

  function onFocus(event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.closest(".tabbed-set")) return;
    var label = labelOf(input);
    if (label) label.classList.toggle("llmbook-tab-focus", event.type === "focusin");
  }

  function init() {
    markScrollers();
  }

  document.addEventListener("focusin", onFocus);
  document.addEventListener("focusout", onFocus);
  window.addEventListener("resize", markScrollers);
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
