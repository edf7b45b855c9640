/* A glossary term ({term}`GQA`) is a link to its entry on the glossary page, its definition in the
   link's title. With this script the title becomes a popover (the term's names as the build wrote
   them in data-name, in the site's language, and its definition) shown on hover and on keyboard
   focus, named by the link's aria-describedby; Escape closes it, and it stays
   open while the pointer moves onto it (WCAG 1.4.13). The link still goes to the glossary page. */
(window.llmbookWidgets = window.llmbookWidgets || []).push(["terms", function () {
  "use strict";

  var tip = null, owner = null, hideTimer = 0;

  function hide() {
    window.clearTimeout(hideTimer);
    if (tip) tip.remove();
    if (owner) owner.removeAttribute("aria-describedby");
    tip = owner = null;
  }

  function hideSoon() {
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, 150);
  }

  function show(term) {
    if (owner === term) { window.clearTimeout(hideTimer); return; }
    hide();
    tip = document.createElement("span");
    tip.className = "llmbook-term-tip";
    tip.id = "llmbook-term-tip";
    tip.setAttribute("role", "tooltip");
    var name = document.createElement("strong");
    name.textContent = term.dataset.name;
    var definition = document.createElement("span");
    definition.textContent = term.dataset.definition;
    tip.append(name, definition);
    tip.addEventListener("mouseenter", function () { window.clearTimeout(hideTimer); });
    tip.addEventListener("mouseleave", hideSoon);
    document.body.appendChild(tip);
    var box = term.getBoundingClientRect(), width = tip.offsetWidth;
    var left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8));
    tip.style.left = left + window.scrollX + "px";
    tip.style.top = box.bottom + window.scrollY + 4 + "px";
    term.setAttribute("aria-describedby", tip.id);
    owner = term;
  }

  function boot() {
    hide(); // instant navigation swapped the page
    document.querySelectorAll("a.llmbook-term").forEach(function (term) {
      if (term.dataset.llmbookTip) return;
      term.dataset.llmbookTip = "1";
      term.removeAttribute("title"); // the popover says it; no second, native tooltip
      term.addEventListener("mouseenter", function () { show(term); });
      term.addEventListener("mouseleave", hideSoon);
      term.addEventListener("focus", function () { show(term); });
      term.addEventListener("blur", hide);
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") hide();
  });
  return boot; // kit.js runs it on every page
}]);
