/* The owner's decision panel, live: when the review changes (the agent's candidate, the
   fallback, the quorum) the panel is refetched, unless the owner is busy in it (text typed, Edit
   or Defer open): then only a notice (with "Use it") and the quorum line move, and what
   they are doing stays as it is. Also
   the countdown to the review's fallback. Without script the forms post and the
   page offers "Check again". */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function panel() { return document.getElementById("decision-panel"); }

  /* The owner is in the middle of something: text typed, or an Edit / Defer opened. */
  function busy(box) {
    return box.querySelector("details[open]") !== null ||
      Array.prototype.some.call(box.querySelectorAll("textarea"), function (area) {
        return area.value !== area.defaultValue;
      });
  }

  var loading = false, again = false;
  function refresh() {
    var box = panel(), root = P.interaction();
    if (!box || !root) return;
    if (loading) { again = true; return; }
    loading = true;
    var path = "/choice/" + encodeURIComponent(root.getAttribute("data-interaction-id")) + "/decision";
    var request = busy(box)
      ? P.load(path + "?keep=true", { target: box, swap: "none" })
      : P.load(path, { target: box });
    request.then(settled, settled);
  }
  function settled() {
    loading = false;
    document.dispatchEvent(new CustomEvent("choice:decision-updated"));
    if (again) { again = false; refresh(); }
  }
  var KEEP = /[?&]keep=true\b/;  // the notice-only reply: it swaps only out-of-band parts
  /* The owner opened Edit or Defer (or typed) while a whole-panel refresh was on its way:
     that reply is not swapped in over what they are doing; the notice-only one follows. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var box = panel();
    if (box && event.detail.requestConfig.elt === box && event.detail.target === box &&
        !KEEP.test(event.detail.requestConfig.path) && busy(box)) {
      event.preventDefault();
      again = true;
    }
  });
  P.on("decision", function (m) {
    var root = P.interaction();
    if (root && root.getAttribute("data-interaction-id") === m.interaction_id) refresh();
  });
  var connections = 0;  // the first is the page's own load: it is already up to date
  P.on("connected", function () { if (connections++ && panel()) refresh(); });  // while away

  /* The fallback's countdown: "m:ss" until the owner writes the answer without the agent. */
  function format(seconds) { return Math.floor(seconds / 60) + ":" + ("0" + seconds % 60).slice(-2); }
  function tick() {
    var due = document.querySelector("[data-due-at-ms]");
    if (due) {
      if (!due.dataset.skew) due.dataset.skew = String(+due.getAttribute("data-server-now-ms") - Date.now());
      var left = Math.max(0, Math.ceil((+due.getAttribute("data-due-at-ms") - Date.now() - +due.dataset.skew) / 1000));
      P.setText(due, format(left));
    }
    setTimeout(tick, 1000);
  }
  document.addEventListener("DOMContentLoaded", tick);
})();
