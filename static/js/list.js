/* The question list stays live: it refreshes on changes, and a new question is announced
   here (or opened, when this tab has nothing else to answer) instead of in a new tab; so
   are the reminders of a question still waiting. */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  // The sidebar refreshes the list itself (base.html: hx-trigger, one request at a time):
  // a change only says so.
  function refresh() { htmx.trigger(document.body, "choice:list-changed"); }

  function idle() {
    var root = P.interaction();
    return !root || !P.isOpen(root.getAttribute("data-status"));
  }

  // The line of a question whose state arrived (this page's own: deferred, widened, over)
  // refreshes when it shows another status. Not "when the page's question changed": the
  // page's own action may have swapped it in before the message came, and the line stayed.
  function stale(m) {
    var line = document.querySelector('[data-testid=list-item][data-interaction-id="' +
                                      CSS.escape(m.interaction_id || "") + '"]');
    return line !== null && line.getAttribute("data-status") !== m.status;
  }

  // Each open line's time left ("in 25 min", as choice/web/views/time_left.py words it): a
  // line's words change at most once a minute, so the lines are looked at when the next one's
  // minute turns, never every second. The list is swapped whole on refresh (with the
  // server's words), so every look finds the lines again. The last minute is urgent.
  var skew = P.config && P.config.server_now_ms ? P.config.server_now_ms - Date.now() : 0;
  var URGENT_FROM = 60, timer = null;
  function timeLeftWords(seconds) {
    var minutes = Math.max(1, Math.ceil(seconds / 60));
    if (minutes < 60) return P.nt("in {n} min", "in {n} min", minutes);
    var hours = Math.floor(seconds / 3600 + 0.5);
    return P.nt("in {n} h", "in {n} h", hours);
  }
  function updateLines() {
    var lines = document.querySelectorAll(".item-left[data-expires-at]"), wait = 60;
    for (var i = 0; i < lines.length; i++) {
      var left = Math.max(0, (+lines[i].getAttribute("data-expires-at") - Date.now() - skew) / 1000);
      P.setText(lines[i], timeLeftWords(left));
      lines[i].classList.toggle("urgent", left > 0 && Math.ceil(left) <= URGENT_FROM);
      if (left > 0) wait = Math.min(wait, left % 60 || 60);  // when this line's minute turns
    }
    clearTimeout(timer);
    timer = setTimeout(updateLines, wait * 1000 + 20);
  }
  updateLines();
  document.addEventListener("htmx:afterSwap", updateLines);  // a refreshed list among them

  P.on("list", refresh);
  P.on("status", refresh);  // this page's own question finished: its badge changes too
  P.on("deadline", function (m) { if (stale(m)) refresh(); });
  P.on("created", function (m) {
    refresh();
    if (m.interface !== "web") return;
    P.notify(P.t("New question: {title}", { title: m.title || "" }), m.path);
    if (idle()) { window.location.assign(m.path); return; }
    P.toast(P.t("New question: {title}", { title: m.title || "" }), { href: m.path, text: P.t("Open") });
  });
  // Team mode: another member widened their question to this one (sockets.py): it joins
  // the list's "Widened to you", and the page says so with a link to take part.
  P.on("widened_to_you", function (m) {
    refresh();
    var text = P.t("Widened to you: {title}", { title: m.title || "" });
    P.notify(text, m.path);
    P.toast(text, { href: m.path, text: P.t("Open") });
  });
  // An agent waits at its own prompt (`choice hook` heard its Notification hook): no
  // question here to open, so the notice says where: the agent's terminal, in that project.
  P.on("agent_waiting", function (m) {
    var who = { agent: m.agent || P.t("An agent"), project: m.project || "" };
    var text = m.waiting_for === "permission"
      ? (m.project ? P.t("{agent} asks for a permission in its terminal ({project})", who)
                   : P.t("{agent} asks for a permission in its terminal", who))
      : (m.project ? P.t("{agent} is waiting for you in its terminal ({project})", who)
                   : P.t("{agent} is waiting for you in its terminal", who));
    P.notify(text + (m.message ? ": " + m.message : ""), location.pathname);
    P.toast(text + (m.message ? ": " + m.message : ""));
  });
  // A question nobody opened, or its last minute (`choice/reminders/waiting.py`); team ones: team.js.
  P.on("reminder", function (m) {
    if (m.reason !== "unopened" && m.reason !== "deadline") return;
    var title = { title: m.title || "" }, root = P.interaction();
    var text = m.reason === "deadline" ? P.nt("{n} second left to answer: {title}",
      "{n} seconds left to answer: {title}", m.seconds_left, title)
      : P.t("Still waiting for your answer: {title}", title);
    P.notify(text, m.path);
    if (!root || root.getAttribute("data-interaction-id") !== m.interaction_id) {
      P.toast(text, { href: m.path, text: P.t("Open") });
    }
  });
})();
