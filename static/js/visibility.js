/* Option visibility (docs/guides/browser.md): "Hide" on an option folds it under "N hidden options" (never
   the last one shown, never a picked one), "Show them all again" brings them back; what a
   question hides is posted to /choice/{id}/hidden-options, which remembers the labels for
   the next questions (the page renders those folded from the start). An option picked in
   the fold (or put back there by a draft) opens it: nothing is sent that is not shown. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document;

  function fold(fieldset) { return fieldset.querySelector("[data-hidden-options]"); }
  function rows(box) { return box.querySelector("[data-hidden-rows]"); }
  function shownRows(fieldset) { return fieldset.querySelectorAll(":scope > .option"); }

  function update(box) {
    var n = rows(box).children.length;
    box.hidden = n === 0;
    if (n === 0) box.open = false;
    P.setText(box.querySelector("[data-hidden-count]"),
      P.nt("{n} hidden option", "{n} hidden options", n, { n: n }));
  }

  // A row goes back before the first shown row with a later place in the question.
  function putBack(fieldset, row) {
    var at = +row.getAttribute("data-index"), box = fold(fieldset);
    var later = [].filter.call(shownRows(fieldset), function (other) {
      return +other.getAttribute("data-index") > at;
    })[0];
    fieldset.insertBefore(row, later || box);
  }

  function save(fieldset) {
    var root = P.interaction(), section = fieldset.closest("[data-question-id]");
    if (!root) return;
    var body = new URLSearchParams();
    if (section) body.append("question", section.getAttribute("data-question-id"));
    [].forEach.call(rows(fold(fieldset)).children, function (row) {
      body.append("hidden", row.getAttribute("data-option-id"));
    });
    fetch("/choice/" + encodeURIComponent(root.getAttribute("data-interaction-id")) + "/hidden-options",
      { method: "POST", body: body, credentials: "same-origin" }).catch(function () {});
  }

  function hide(button) {
    var row = button.closest(".option"), fieldset = row.closest("fieldset"), box = fold(fieldset);
    if (row.querySelector("input:checked")) return;
    if (shownRows(fieldset).length <= 1) {
      P.toast(P.t("This is the last option shown: it cannot be hidden."));
      return;
    }
    var next = row.nextElementSibling;
    var focus = next && next.classList.contains("option") ? next.querySelector("input") : box.querySelector("summary");
    var later = [].filter.call(rows(box).children, function (other) {
      return +other.getAttribute("data-index") > +row.getAttribute("data-index");
    })[0];
    rows(box).insertBefore(row, later || null);
    update(box);
    if (focus) focus.focus();
    save(fieldset);
  }

  function showAll(button) {
    var box = button.closest("[data-hidden-options]"), fieldset = box.closest("fieldset");
    [].slice.call(rows(box).children).forEach(function (row) { putBack(fieldset, row); });
    update(box);
    var first = fieldset.querySelector(".option input");
    if (first) first.focus();
    save(fieldset);
  }

  function offer() {
    [].forEach.call(doc.querySelectorAll("[data-hide-option][hidden], [data-show-options][hidden]"),
      function (button) { button.hidden = false; });
  }

  function openIfPicked() {
    [].forEach.call(doc.querySelectorAll("[data-hidden-options]:not([open])"), function (box) {
      if (box.querySelector("input:checked")) box.open = true;
    });
  }

  doc.addEventListener("click", function (event) {
    var hideButton = event.target.closest && event.target.closest("[data-hide-option]");
    if (hideButton) { hide(hideButton); return; }
    var show = event.target.closest && event.target.closest("[data-show-options]");
    if (show) showAll(show);
  });
  doc.addEventListener("input", openIfPicked);
  doc.addEventListener("change", openIfPicked);
  doc.addEventListener("htmx:afterSwap", offer);
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", offer);
  else offer();
})();
