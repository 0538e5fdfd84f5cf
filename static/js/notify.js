/* Browser notifications: permission asked only on a click, shown only when the tab is hidden. */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  var supported = "Notification" in window;

  P.notify = function (body) {
    if (!supported || !P.config.notifications || !document.hidden) return;
    if (Notification.permission !== "granted") return;
    try { new Notification(P.t("Choice portal"), { body: body, tag: "choice-" + P.config.interaction_id }); }
    catch (e) { /* some browsers only allow notifications from a service worker */ }
  };

  function offer() {
    var button = document.querySelector("[data-enable-notifications]");
    if (!button || !supported || !P.config.notifications) return;
    button.hidden = Notification.permission !== "default";
    if (button.dataset.ready) return;
    button.dataset.ready = "1";
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { button.hidden = true; });
    });
  }
  document.addEventListener("DOMContentLoaded", offer);
  document.addEventListener("htmx:afterSwap", offer);
})();
