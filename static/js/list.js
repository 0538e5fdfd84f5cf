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

  // Each open line's time left ticks here; it turns urgent in its last minute. The list is
  // swapped whole on refresh, so every tick looks the lines up again.
  var skew = P.config && P.config.server_now_ms ? P.config.server_now_ms - Date.now() : 0;
  function tickLines() {
    var lines = document.querySelectorAll("#interaction-list [data-expires-at]");
    for (var i = 0; i < lines.length; i++) {
      var left = Math.max(0, Math.ceil((+lines[i].getAttribute("data-expires-at") - Date.now() - skew) / 1000));
      if (P.clock) P.setText(lines[i].querySelector("[data-list-clock]"), P.clock(left));
      lines[i].classList.toggle("urgent", left <= 60);
    }
  }
  setInterval(tickLines, 1000);
  tickLines();

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
