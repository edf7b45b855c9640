/* Keyboard reach and legibility the theme leaves out: a region that scrolls sideways (a wide
   formula, a row of tab labels, a wide figure) becomes focusable so arrow keys scroll it; the label
   of the focused tab shows the focus ring (Material hides the radio input that holds focus); an
   executed figure on a narrow screen keeps its labels legible and scrolls instead of shrinking. */
(window.llmbookWidgets = window.llmbookWidgets || []).push(["a11y", function () {
  "use strict";
  var SCROLLERS = ".llmbook-math--display, .tabbed-labels, figure.llmbook-figure";
  // An executed matplotlib figure is never shown below this share of its own size: its 8 pt labels
  // (the smallest the book uses) stay 9 px tall; a narrower column scrolls it sideways instead.
  var FIGURE_MIN_SCALE = 0.85;

  function sizeFigures() {
    document.querySelectorAll("figure.llmbook-figure > img").forEach(function (img) {
      if (!img.naturalWidth) return;
      var column = img.parentElement.parentElement.clientWidth;
      var least = Math.ceil(img.naturalWidth * FIGURE_MIN_SCALE);
      img.style.width = least > column ? least + "px" : "";
      img.style.maxWidth = least > column ? "none" : "";
    });
  }

  function markScrollers() {
    document.querySelectorAll(SCROLLERS).forEach(function (region) {
      var scrolls = region.scrollWidth > region.clientWidth + 1;
      if (scrolls && !region.hasAttribute("tabindex")) {
        region.tabIndex = 0;
        region.classList.add("llmbook-scroll");
        if (!region.hasAttribute("aria-label") && !region.getAttribute("role")) {
          region.setAttribute("role", "group");
          var zh = /^zh/i.test(document.documentElement.lang || "zh");  // the page's language
          var tabs = region.classList.contains("tabbed-labels");
          region.setAttribute("aria-label", zh ? (tabs ? "标签页" : "可横向滚动的内容") : (tabs ? "Tabs" : "Scrollable content"));
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
    // Only a keyboard focus shows the ring, as :focus-visible does (a click on a label does not).
    var keyboard = event.type === "focusin" && input.matches(":focus-visible");
    if (label) label.classList.toggle("llmbook-tab-focus", keyboard);
  }

  function layout() {
    sizeFigures();
    markScrollers();
  }

  function init() {
    layout();
    document.querySelectorAll("figure.llmbook-figure > img").forEach(function (img) {
      if (!img.complete) img.addEventListener("load", layout);
    });
  }

  document.addEventListener("focusin", onFocus);
  document.addEventListener("focusout", onFocus);
  window.addEventListener("resize", layout);
  return init; // kit.js runs it on every page
}]);
