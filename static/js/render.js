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
    if (!root) return;
    P.load("/choice/" + encodeURIComponent(root.getAttribute("data-interaction-id")) + "/partial",
      { target: root });
  };
  document.addEventListener("choice:settings-saved", function () { P.reloadInteraction(); });

  // A long prompt on a phone pushes the options off the first screen: fold it (CSS clamps
  // `.prompt.folded`) and show its "Show more", which unfolds it for good.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 760px)") : null;
  function fold() {
    var more = document.querySelector("[data-prompt-more]");
    var prompt = more && document.getElementById(more.getAttribute("aria-controls"));
    if (!prompt || !narrow || !narrow.matches || prompt.classList.contains("unfolded")) return;
    prompt.classList.add("folded");
    more.hidden = prompt.scrollHeight <= prompt.clientHeight + 1;
    if (more.hidden) prompt.classList.remove("folded");
  }
  document.addEventListener("click", function (event) {
    var more = event.target.closest && event.target.closest("[data-prompt-more]");
    if (!more) return;
    var prompt = document.getElementById(more.getAttribute("aria-controls"));
    if (prompt) { prompt.classList.remove("folded"); prompt.classList.add("unfolded"); }
    more.setAttribute("aria-expanded", "true");
    more.hidden = true;
    if (prompt) { prompt.setAttribute("tabindex", "-1"); prompt.focus(); }
  });
  document.addEventListener("htmx:afterSwap", fold);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fold);
  else fold();
})();
