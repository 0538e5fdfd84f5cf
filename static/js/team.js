/* The owner's team side: the widen dialog (htmx loads the form into a <dialog>; without
   script the same form is a page of its own), copy buttons for the links it shows once,
   the team panel kept live, reminders, and the settings' "add a row". */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function dialog() { return document.getElementById("widen-dialog"); }

  function showsLinks(box) { return !!box.querySelector("[data-testid=widen-invited]"); }

  function closeDialog() {
    var box = dialog();
    if (box && box.open) box.close();
  }

  function watchDialog() {
    var box = dialog();
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    box.addEventListener("cancel", function (event) {
      if (showsLinks(box)) event.preventDefault();  // Esc must not lose links shown only once
    });
    box.addEventListener("close", function () {
      var widened = showsLinks(box);
      var body = document.getElementById("widen-dialog-body");
      if (body) body.textContent = "";  // the links leave the page with the dialog
      if (widened) P.reloadInteraction();
    });
  }
  document.addEventListener("DOMContentLoaded", watchDialog);

  document.addEventListener("htmx:afterSwap", function (event) {
    var box = dialog();
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;  // who asked
    if (box && event.target && event.target.id === "widen-dialog-body" && from && !box.contains(from)) {
      if (!box.open) box.showModal();
      var first = box.querySelector("[data-testid=widen-names], [data-testid=copy-link], [data-testid=widen-done]");
      if (first) first.focus();
    }
    Array.prototype.forEach.call(document.querySelectorAll("[data-copy][hidden]"),
      function (button) { button.hidden = false; });
  });
  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest("[data-dialog-close]");
    if (close && dialog() && dialog().contains(close)) { event.preventDefault(); closeDialog(); return; }
    var copy = event.target.closest && event.target.closest("[data-copy]");
    if (copy) copyLink(copy);
    var add = event.target.closest && event.target.closest("[data-team-add]");
    if (add) addTeamRow(add);
  });
  document.addEventListener("choice:widen-cancelled", function () {
    closeDialog();
    P.toast(P.t("Nothing was widened."));
  });

  function copyLink(button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    input.select();
    function copied() { P.setText(button, P.t("Copied")); }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(copied, function () { input.select(); });
    }
  }

  /* The team panel: one refresh at a time, and a change meanwhile refreshes once more. */
  var loading = false, again = false;
  function refreshTeam() {
    var live = document.getElementById("team-live");
    var root = P.interaction();
    if (!live || !root) return;
    if (loading) { again = true; return; }
    loading = true;
    var id = root.getAttribute("data-interaction-id");
    P.load("/choice/" + encodeURIComponent(id) + "/team", { target: live }).then(settled, settled);
  }
  function settled() {
    loading = false;
    document.dispatchEvent(new CustomEvent("choice:team-updated"));
    if (again) { again = false; refreshTeam(); }
  }
  /* The panel comes back from the first comment it shows (the owner may have brought
     earlier ones in): sent with a refresh, the owner's comment and a withdrawal. */
  var PANEL = /^\/choice\/[^/]+\/(team|comment|participants\/[^/]+\/withdraw)$/;
  document.addEventListener("htmx:configRequest", function (event) {
    var first = document.querySelector("#owner-thread > [data-comment-id]");
    if (first && PANEL.test(event.detail.path.split("?")[0])) {
      event.detail.parameters.set("since", first.getAttribute("data-comment-id"));
    }
  });
  P.on("team", function (m) {
    var root = P.interaction();
    if (root && root.getAttribute("data-interaction-id") === m.interaction_id) refreshTeam();
  });
  P.on("connected", function () { if (document.getElementById("team-live")) refreshTeam(); });

  P.on("reminder", function (m) {
    if (m.reason && m.reason !== "discussion_idle") return;  // a waiting question: list.js
    P.notify(P.t("Still waiting on the team: {title}", { title: m.title || "" }), m.path);
    var root = P.interaction();
    var line = document.querySelector("[data-testid=team-reminder]");
    if (root && line && root.getAttribute("data-interaction-id") === m.interaction_id) {
      P.setText(line, P.t("Still waiting on the team discussion."));
      line.hidden = false;
      return;
    }
    P.toast(P.t("Still waiting on the team: {title}", { title: m.title || "" }),
      { href: m.path, text: P.t("Open") });
  });

  function addTeamRow(button) {
    var form = button.closest("form");
    var blank = form && form.querySelector("[data-team-blank]");
    if (!blank) return;
    var row = blank.cloneNode(true);
    Array.prototype.forEach.call(row.querySelectorAll("input"), function (input) { input.value = ""; });
    blank.parentNode.appendChild(row);
    var name = row.querySelector("input");
    if (name) name.focus();
  }
  function offerAddRow() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-team-add][hidden]"),
      function (button) { button.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", offerAddRow);
  document.addEventListener("htmx:afterSwap", offerAddRow);
})();
