/* Rendering helpers: text only (never innerHTML with data), toasts, the interaction's root. */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  P.interaction = function () { return document.getElementById("interaction"); };
  P.setText = function (el, text) { if (el && el.textContent !== text) el.textContent = text; };
  P.toast = function (message, link) {
    var box = document.getElementById("toasts");
    if (!box) return;
    var toast = document.createElement("div");
    toast.className = "toast";
    toast.setAttribute("data-testid", "toast");
    toast.textContent = message;
    if (link) {
      var a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.text;
      toast.appendChild(a);
    }
    box.appendChild(toast);
    setTimeout(function () { toast.remove(); }, 12000);
  };
  P.reloadInteraction = function () {
    var root = P.interaction();
    if (!root || !window.htmx) return;
    var id = root.getAttribute("data-interaction-id");
    window.htmx.ajax("GET", "/choice/" + encodeURIComponent(id) + "/partial",
      { target: "#interaction", swap: "outerHTML" });
  };
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 401) window.location.reload();
  });
  document.addEventListener("choice:settings-saved", function () { P.reloadInteraction(); });
})();
