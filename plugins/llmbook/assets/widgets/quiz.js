/* llmbook quiz widget: options become buttons with per-option feedback; the explanation opens
   after the right answer. Without this script the quiz still reads correctly: the options are a
   list and the answer with its explanation sits in a closed <details>. Plain JS, no network. */
(window.llmbookWidgets = window.llmbookWidgets || []).push(["quiz", function () {
  "use strict";
  // The page's language (Material writes theme.language into <html lang>): Chinese, else English.
  var zh = /^zh/i.test(document.documentElement.lang || "zh");
  var text = zh
    ? { right: "：正确", wrong: "：不对", solved: "✓ 回答正确：", tryAgain: " 不对，再想想。" }
    : { right: ": correct", wrong: ": wrong", solved: "✓ Correct: ", tryAgain: " is wrong, think again." };

  function choose(quiz, option) {
    var answer = quiz.getAttribute("data-answer");
    var letter = option.getAttribute("data-letter");
    var feedback = quiz.querySelector(".llmbook-quiz__feedback");
    var button = option.querySelector("button");
    if (quiz.classList.contains("is-solved") || option.classList.contains("is-wrong")) return;
    if (letter === answer) {
      option.classList.add("is-correct");
      button.setAttribute("aria-label", letter + text.right);
      quiz.classList.add("is-solved");
      feedback.textContent = text.solved + letter;
      feedback.className = "llmbook-quiz__feedback is-correct";
      quiz.querySelectorAll(".llmbook-quiz__option button").forEach(function (b) {
        b.setAttribute("aria-disabled", "true");
      });
      var details = quiz.querySelector(".llmbook-quiz__answer");
      if (details) details.open = true;
    } else {
      option.classList.add("is-wrong");
      button.setAttribute("aria-disabled", "true");
      button.setAttribute("aria-label", letter + text.wrong);
      feedback.textContent = "✗ " + letter + text.tryAgain;
      feedback.className = "llmbook-quiz__feedback is-wrong";
    }
  }

  function onKey(event, buttons) {
    var index = buttons.indexOf(event.target);
    if (index < 0) return;
    var step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    buttons[(index + step + buttons.length) % buttons.length].focus();
  }

  function setup(quiz) {
    if (quiz.hasAttribute("data-llmbook-ready")) return;
    quiz.setAttribute("data-llmbook-ready", "");
    quiz.classList.add("llmbook-quiz--js");
    var buttons = [];
    quiz.querySelectorAll(".llmbook-quiz__option").forEach(function (option) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "llmbook-quiz__choice";
      while (option.firstChild) button.appendChild(option.firstChild);
      var mark = document.createElement("span");
      mark.className = "llmbook-quiz__mark";
      mark.setAttribute("aria-hidden", "true");
      button.appendChild(mark);
      option.appendChild(button);
      button.addEventListener("click", function () { choose(quiz, option); });
      buttons.push(button);
    });
    quiz.addEventListener("keydown", function (event) { onKey(event, buttons); });
  }

  function init() {
    document.querySelectorAll("[data-llmbook-quiz]").forEach(setup);
  }

  return init; // kit.js runs it on every page
}]);
