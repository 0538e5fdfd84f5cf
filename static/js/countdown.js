/* The countdown: the server says when the deadline is (and what time it is there); the page
   words it locally between its pushes, as choice/web/views/time_left.py does on the server
   (same catalog messages, same CLDR names through Intl.DateTimeFormat): a far deadline is
   its date and time, looked at again once a minute; the last ten minutes tick (mm:ss), the
   last minute in the attention colour. Announced politely twice at most: when ten minutes
   are left and at the last minute. Notifies a hidden tab near the end. */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  var TICKING_FROM = 600, URGENT_FROM = 60;
  var deadline = null, skew = 0, timer = null, lastShown = null, warned = false, expiredSent = false;

  function element() { return document.querySelector("[data-testid=countdown]"); }

  function secondsLeft() { return Math.max(0, Math.ceil((deadline - (Date.now() + skew)) / 1000)); }

  function two(n) { return ("0" + n).slice(-2); }

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var mm = (h ? two(m) : String(m)) + ":" + two(s);
    return h ? h + ":" + mm : mm;
  }

  /* "due 14:05", "due tomorrow 14:05", "due Tue 3 Dec 14:05": the deadline's local date and
     time (minutes cut), in the page's language. */
  function dueWords(deadlineMs) {
    var due = new Date(deadlineMs), now = new Date(Date.now() + skew);
    var time = two(due.getHours()) + ":" + two(due.getMinutes());
    var days = Math.round((new Date(due.getFullYear(), due.getMonth(), due.getDate()) -
                           new Date(now.getFullYear(), now.getMonth(), now.getDate())) / 864e5);
    if (days <= 0) return P.t("due {time}", { time: time });
    if (days === 1) return P.t("due tomorrow {time}", { time: time });
    var lang = document.documentElement.lang || "en";
    var date = P.t("{weekday} {day} {month}", {
      weekday: new Intl.DateTimeFormat(lang, { weekday: "short" }).format(due),
      day: due.getDate(),
      month: new Intl.DateTimeFormat(lang, { month: "short" }).format(due)
    });
    return P.t("due {date} {time}", { date: date, time: time });
  }

  /* "9:47 left" with the time in its own element: the sentence's order is the language's
     (剩余 9:47). Built once when the clock starts; each tick changes only the digits. */
  function showClock(text, seconds) {
    var clock = text.querySelector("[data-countdown-clock]");
    if (!clock) {
      clock = document.createElement("span");
      clock.className = "countdown-time";
      clock.setAttribute("data-countdown-clock", "");
      clock.setAttribute("data-testid", "countdown-clock");
      var around = P.t("{time} left").split("{time}");
      text.textContent = "";
      text.append(around[0] || "", clock, around.slice(1).join("{time}"));
    }
    P.setText(clock, format(seconds));
  }

  function announce(el, seconds) {
    if (lastShown === null) return;  // just loaded or moved: the page already says it
    var text = lastShown > URGENT_FROM && seconds <= URGENT_FROM && seconds > 0
      ? P.nt("{n} minute left", "{n} minutes left", 1)
      : lastShown > TICKING_FROM && seconds <= TICKING_FROM && seconds > URGENT_FROM
      ? P.nt("{n} minute left", "{n} minutes left", 10)
      : null;
    if (text) P.setText(el.querySelector("[data-countdown-announce]"), text);
  }

  function show(el, seconds) {
    var text = el.querySelector("[data-countdown-text]");
    if (seconds > TICKING_FROM) {
      P.setText(text, dueWords(deadline));
    } else {
      showClock(text, seconds);
    }
    el.setAttribute("data-form", seconds > TICKING_FROM ? "due" : "clock");
    el.classList.toggle("urgent", seconds > 0 && seconds <= URGENT_FROM);
    el.classList.toggle("expired", seconds === 0);
  }

  function tick() {
    clearTimeout(timer);
    var el = element();
    if (!el || deadline === null) return;
    var seconds = secondsLeft();
    if (seconds !== lastShown) {
      show(el, seconds);
      announce(el, seconds);
      lastShown = seconds;
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
    if (seconds === 0) return;
    // the next whole second; while far, the moment the clock starts or a minute, whichever
    // is first (the date's words change at midnight, a minute at most late)
    var toSecond = 1000 - ((Date.now() + skew - deadline) % 1000 + 1000) % 1000 + 5;
    var wait = seconds > TICKING_FROM ? Math.min(60000, toSecond + (seconds - TICKING_FROM - 1) * 1000) : toSecond;
    timer = setTimeout(tick, wait);
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
  document.addEventListener("htmx:afterSwap", function () {
    if (deadline === null) { start(); return; }
    lastShown = null;  // a swap may bring the server's words back: word them again
    tick();
  });
  P.countdownSeconds = function () { return deadline === null ? null : secondsLeft(); };
})();
