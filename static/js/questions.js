/* Several questions on one page: the live "2 of 3 answered" and its chips, and the keyboard
   flow (a pick in a one-choice question or Enter in a text answer moves to the next
   unanswered question, then to the submit button). Native radio keys stay as they are. */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function answered(section) {
    var text = section.querySelector("[data-answer-text]");
    return !!section.querySelector("input:checked") || !!(text && text.value.trim());
  }

  function progress(form) {
    var sections = form.querySelectorAll("[data-testid=question]"), done = 0;
    Array.prototype.forEach.call(sections, function (section) {
      var yes = answered(section);
      if (yes) done++;
      var chip = form.querySelector("[data-testid=question-chip][data-question='" +
        section.dataset.question + "']");
      if (chip) chip.classList.toggle("answered", yes);
    });
    P.setText(form.querySelector("[data-testid=progress-text]"),
      P.nt("{answered} of {n} answered", "{answered} of {n} answered", sections.length,
        { answered: done }));
  }

  /* Scrolling glides, unless the person asked their system for less motion. */
  function scrollTo(el, block) {
    var still = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ block: block, behavior: still ? "auto" : "smooth" });
  }

  function focusQuestion(section) {
    var target = section.querySelector("input:checked") ||
      section.querySelector("input, [data-answer-text]");
    scrollTo(section, "start");
    (target || section).focus({ preventScroll: true });
  }

  function advance(form, from) {
    var sections = Array.prototype.slice.call(form.querySelectorAll("[data-testid=question]"));
    var at = sections.indexOf(from);
    var order = sections.slice(at + 1).concat(sections.slice(0, at));
    var next = order.filter(function (section) { return !answered(section); })[0];
    if (next) { focusQuestion(next); return; }
    var submit = form.querySelector("[data-testid=submit]");
    scrollTo(submit, "center");
    submit.focus({ preventScroll: true });
  }

  function init(root) {
    var form = (root || document).querySelector("#choice-form[data-questions]");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("input", function () { progress(form); });
    form.addEventListener("change", function () { progress(form); });
    form.addEventListener("click", function (event) {
      var target = event.target;
      // a pointer's pick (detail > 0; arrow keys also "click", with detail 0)
      if (target.type === "radio" && event.detail > 0) advance(form, target.closest("section"));
      var chip = target.closest("[data-testid=question-chip]");
      if (chip) {
        event.preventDefault();
        focusQuestion(form.querySelector("#q-" + chip.dataset.question));
      }
    });
    form.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.key !== "Enter" || event.isComposing) return;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        form.requestSubmit(form.querySelector("[data-testid=submit]"));
      } else if (target.name && /\.selected$/.test(target.name) ||
                 target.hasAttribute("data-answer-text") && !event.shiftKey) {
        event.preventDefault();
        advance(form, target.closest("section"));
      }
    });
    progress(form);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSwap", function () { init(document); });
})();
