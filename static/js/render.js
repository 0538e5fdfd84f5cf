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
  // An action the portal refused without a fragment to show (htmx swaps nothing on these):
  // say so, or the click seems to do nothing.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr) return;
    if (xhr.status === 401) { window.location.reload(); return; }
    if (xhr.status === 503) {
      P.toast(P.t("The portal is busy right now. Try again in a moment."));
    } else if (xhr.status >= 500) {
      P.toast(P.t("Something went wrong on the portal. Reload the page and try again."));
    }
  });
  document.addEventListener("choice:settings-saved", function () { P.reloadInteraction(); });
})();
