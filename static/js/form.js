/* The answer form: min/max explained before submit, single-submit picks, keyboard use. */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function typedSomething(form) {
    return Array.prototype.some.call(form.querySelectorAll("textarea"),
      function (area) { return area.value.trim() !== ""; });
  }

  function check(form, quiet) {
    var hint = form.querySelector("[data-testid=selection-hint]");
    var submit = form.querySelector("[data-testid=submit]");
    if (!submit) return;
    var min = +form.dataset.min || 0, max = +form.dataset.max || 0;
    var mode = form.dataset.mode;
    var picked = form.querySelectorAll("input[name=selected]:checked").length;
    var custom = form.querySelector("[name=custom_input]");
    var wrote = custom && custom.value.trim() !== "";
    var message = "";
    if (mode === "text_input") {
      message = "";
    } else if (picked > max) {
      message = P.nt("Choose at most {n} option", "Choose at most {n} options", max);
    } else if (mode === "hybrid" && !wrote && picked === 0) {
      message = P.t("Choose an option or write an answer");
    } else if (!(mode === "hybrid" && wrote) && picked < min) {
      message = P.nt("Choose at least {n} option", "Choose at least {n} options", min);
    }
    P.setText(hint, quiet ? "" : message);  // explain only once the human has started
    submit.disabled = message !== "";
  }

  function autoSubmit(form, input) {
    if (form.dataset.singleSubmit !== "true" || input.type !== "radio") return;
    if (typedSomething(form)) {  // never submit over text the human has started typing
      P.setText(form.querySelector("[data-testid=selection-hint]"),
        P.t("You have typed something: press Submit when ready"));
      return;
    }
    var flag = document.createElement("input");
    flag.type = "hidden"; flag.name = "submission"; flag.value = "auto";
    form.appendChild(flag);
    form.requestSubmit(form.querySelector("[data-testid=submit]"));
  }

  function init(root) {
    var form = (root || document).querySelector("#choice-form[data-mode]");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("input", function () { check(form); });
    form.addEventListener("change", function (event) {
      check(form);
      if (event.target.name === "selected") autoSubmit(form, event.target);
    });
    form.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey) ||
          event.key === "Enter" && target.name === "selected") {
        event.preventDefault();
        var submit = form.querySelector("[data-testid=submit]");
        if (submit && !submit.disabled) form.requestSubmit(submit);
      }
    });
    check(form, !form.querySelector("[data-testid=form-errors]"));
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || document.querySelector("dialog[open]")) return;
    var cancel = document.querySelector("[data-testid=cancel]");
    if (!cancel) return;
    cancel.open = true;
    // an options-only question has no reason box: the button takes the focus instead
    var note = cancel.querySelector("textarea") || cancel.querySelector("button");
    if (note) note.focus();
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSwap", function () { init(document); });
  P.initForm = init;
  P.checkForm = check;
})();
