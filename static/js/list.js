/* The question list stays live: it refreshes on changes, and a new question is announced
   here (or opened, when this tab has nothing else to answer) instead of in a new tab. */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function refresh() {
    var list = document.getElementById("interaction-list");
    if (list && window.htmx) window.htmx.trigger(list, "choice:refresh");
  }

  function idle() {
    var root = P.interaction();
    return !root || root.getAttribute("data-status") !== "pending";
  }

  P.on("list", refresh);
  P.on("created", function (m) {
    refresh();
    if (m.interface !== "web") return;
    P.notify(P.t("New question: {title}", { title: m.title || "" }));
    if (idle()) { window.location.assign(m.path); return; }
    P.toast(P.t("New question: {title}", { title: m.title || "" }), { href: m.path, text: P.t("Open") });
  });
})();
