/* The countdown: the server says when the deadline is (and what time it is there); the page
   ticks locally between its pushes. Announces milestones politely (every 5 minutes, the last
   minute, 10 seconds left: never twice within a minute but for the 10 s) and warns near the
   end. */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  var deadline = null, skew = 0, timer = null, lastShown = null, warned = false, expiredSent = false;

  function element() { return document.querySelector("[data-testid=countdown]"); }

  function secondsLeft() { return Math.max(0, Math.ceil((deadline - (Date.now() + skew)) / 1000)); }

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var mm = (h ? ("0" + m).slice(-2) : String(m)) + ":" + ("0" + s).slice(-2);
    return h ? h + ":" + mm : mm;
  }
  P.clock = format;  // the list's time left reads the same (list.js)

  function announce(el, seconds) {
    var text = seconds === 60 || seconds > 60 && seconds % 300 === 0
      ? P.nt("{n} minute left", "{n} minutes left", seconds / 60)
      : seconds === 10 ? P.nt("{n} second left", "{n} seconds left", seconds)
      : null;
    if (text) P.setText(el.querySelector("[data-countdown-announce]"), text);
  }

  function tick() {
    var el = element();
    if (!el || deadline === null) return;
    var seconds = secondsLeft();
    if (seconds !== lastShown) {
      lastShown = seconds;
      P.setText(el.querySelector("[data-countdown-text]"), format(seconds));
      el.classList.toggle("urgent", seconds > 0 && seconds <= 10);
      el.classList.toggle("expired", seconds === 0);
      announce(el, seconds);
      var title = (document.querySelector("[data-testid=title]") || {}).textContent || "";
      if (seconds > 0 && seconds <= 10 && !warned) {
        warned = true;
        P.notify(P.nt("{n} second left to answer: {title}", "{n} seconds left to answer: {title}",
          seconds, { title: title }));
      }
      if (seconds === 0 && !expiredSent) {
        expiredSent = true;
        P.notify(P.t("Time ran out: {title}", { title: title }));
      }
    }
    timer = setTimeout(tick, 1000 - ((Date.now() + skew - deadline) % 1000 + 1000) % 1000 + 5);
  }

  function follow(expiresAtMs, serverNowMs) {
    if (serverNowMs) skew = serverNowMs - Date.now();
    if (deadline !== expiresAtMs) { warned = false; expiredSent = false; }
    deadline = expiresAtMs;
    lastShown = null;
    clearTimeout(timer);
    tick();
  }

  /* Still open: pending, or widened to the team (the owner may answer at any time). */
  P.isOpen = function (status) { return status === "pending" || status === "widened"; };
  P.followDeadline = function (expiresAtMs, serverNowMs) {
    var el = element();
    if (el) el.setAttribute("data-expires-at", expiresAtMs);
    follow(expiresAtMs, serverNowMs);
  };
  P.on("deadline", function (m) {
    var root = P.interaction();
    if (!root || root.getAttribute("data-interaction-id") !== m.interaction_id) return;
    if (!P.isOpen(m.status)) {  // over, or deferred: once, not on every reconnect
      if (root.getAttribute("data-status") !== m.status) P.reloadInteraction();
      return;
    }
    P.followDeadline(m.expires_at_ms, m.server_now_ms);
    // just widened or taken up again (the list follows by itself: list.js)
    if (root.getAttribute("data-status") !== m.status) P.reloadInteraction();
  });
  P.on("status", function (m) {
    var root = P.interaction();
    if (root && root.getAttribute("data-interaction-id") === m.interaction_id &&
        root.getAttribute("data-status") !== m.status) P.reloadInteraction();
  });
  function start() {
    var el = element();
    if (el) follow(+el.getAttribute("data-expires-at"), P.config.server_now_ms);
  }
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", function () { if (deadline === null) start(); else tick(); });
  P.countdownSeconds = function () { return deadline === null ? null : secondsLeft(); };
})();
