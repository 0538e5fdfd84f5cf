/* A participant's page (/d/<secret>), live: the socket brings the same update to every open
   page (new comments, the tally, the people) as server-rendered fragments swapped in
   by id; the comment being typed and the vote being chosen are never touched. When the
   question ends the whole discussion is refetched, read-only; a withdrawn link reloads
   (and shows what the link opens now: nothing). Without script the forms still post. */
(function () {
  "use strict";
  var P = window.ChoicePortal;

  function root() { return document.getElementById("discussion"); }
  function isOpenHere() { var el = root(); return !!el && el.getAttribute("data-open") === "true"; }
  function path(suffix) {
    var lang = P.config.lang ? "?lang=" + encodeURIComponent(P.config.lang) : "";
    return P.config.discussion_path + suffix + lang;
  }

  /* A comment can arrive twice (the poster's own reply and the socket) or out of order (a
     refetch racing an update): keep one of each, in the order they were written ("Show
     earlier", not a comment, stays first). */
  function tidyThread() {
    var list = document.getElementById("thread-list");
    if (!list) return;
    var seen = {}, items = [], sorted = true, last = -1;
    Array.prototype.forEach.call(list.querySelectorAll(":scope > [data-comment-id]"), function (item) {
      var id = +item.getAttribute("data-comment-id");
      if (seen[id]) { item.remove(); return; }
      seen[id] = true;
      if (id < last) sorted = false;
      last = Math.max(last, id);
      items.push(item);
    });
    if (!sorted) {
      items.sort(function (a, b) { return a.getAttribute("data-comment-id") - b.getAttribute("data-comment-id"); });
      items.forEach(function (item) { list.appendChild(item); });
    }
  }

  function apply(html) {
    var el = root();
    if (!el || !html) return;
    P.placeOutOfBand(html);
    tidyThread();
    document.dispatchEvent(new CustomEvent("choice:discussion-updated"));
  }

  function reloadAll() {
    if (root()) P.load(path("/partial"), { target: root() });
  }

  function newestShown() {
    var items = document.querySelectorAll("#thread-list > [data-comment-id]");
    return items.length ? items[items.length - 1].getAttribute("data-comment-id") : null;
  }

  var catching = false;
  function catchUp() {  // after a (re)connect: what moved while the socket was away
    if (!root() || catching) return;
    catching = true;
    var live = path("/live"), after = newestShown();
    if (after) live += (live.indexOf("?") < 0 ? "?" : "&") + "after=" + encodeURIComponent(after);
    P.load(live, { target: root(), swap: "none" }).then(done, done);
    function done() { catching = false; tidyThread(); }
  }

  P.on("discussion", function (m) {
    if (!isOpenHere()) return;
    if (m.deadline) P.followDeadline(m.deadline.expires_at_ms, m.deadline.server_now_ms);
    apply(m.html);
  });
  P.on("deadline", function (m) {
    if (!isOpenHere()) return;
    if (m.status === "deferred") return;  // set aside, still open: no deadline runs
    if (!P.isOpen(m.status)) { reloadAll(); return; }
    P.followDeadline(m.expires_at_ms, m.server_now_ms);
  });
  P.on("closed", function () { if (isOpenHere()) reloadAll(); });
  P.on("refresh", function () { if (isOpenHere()) catchUp(); });
  P.on("connected", function () { if (isOpenHere()) catchUp(); });
  P.on("gone", function () { if (root()) window.location.reload(); });
  document.addEventListener("htmx:afterSwap", function () { if (root()) tidyThread(); });
})();
