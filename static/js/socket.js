/* The page's socket: connect, reconnect with backoff, and hand each message to P.emit
   (plus "connected" on every (re)connect, so a page can catch up on what it missed). */
(function () {
  "use strict";
  var P = window.ChoicePortal;
  var delays = [500, 1000, 2000, 5000, 10000];
  var attempt = 0;

  function status(text) { P.setText(document.getElementById("connection"), text); }
  // "open" while the socket is up: what a test (or a style) waits on before it counts on live news
  function live(state) { document.documentElement.setAttribute("data-live", state); }

  function connect() {
    if (!P.config.ws_path) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + P.config.ws_path);
    socket.addEventListener("open", function () { attempt = 0; live("open"); status(""); P.emit("connected"); });
    socket.addEventListener("message", function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      P.emit(message.type, message);
    });
    socket.addEventListener("close", function (event) {
      live("closed");
      if (event.code === 4401) { location.reload(); return; }  // signed out: show the sign-in page
      if (event.code === 4404) { P.emit("gone"); return; }
      if (event.code === 4410) { status(""); return; }  // the question is over: nothing more comes
      if (event.code === 4409) {  // a newer page of this link or session took its place
        status(P.t("Live updates stopped: this page is open in too many tabs. Reload to resume."));
        return;
      }
      status(P.t("Reconnecting…"));
      setTimeout(connect, delays[Math.min(attempt++, delays.length - 1)]);
    });
  }
  document.addEventListener("DOMContentLoaded", connect);
})();
