/* Attention: a notification and a chime when the trigger setting says (always, the window not
   focused, the tab hidden, never); a click on one opens its question. The tab's title and icon
   count the waiting questions. Permission is asked only on a click. */
(function () {
  "use strict";
  var P = window.ChoicePortal, N = window.Notification, A = window.AudioContext, audio;

  function due(when) {
    return when === "always" || when !== "never" &&
      (document.hidden || when === "unfocused" && !document.hasFocus());
  }

  function chime(volume) {  // two soft notes, a fifth apart, fading out
    try {
      audio = audio || new A();
      audio.resume();
      [523, 784].forEach(function (hz, i) {
        var at = audio.currentTime + i * 0.16, osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = hz;
        gain.gain.setValueAtTime(volume / 400, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.8);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 0.8);
      });
    } catch (e) { /* no audio here */ }
  }

  /* `path`: the question's page, opened on a click (none: this page's question). */
  P.notify = function (body, path) {
    if (!due(P.config.notifications)) return;
    if (A && P.config.sound) chime(P.config.sound);
    if (!N || N.permission !== "granted") return;
    try {
      var shown = new N(P.t("Choice portal"), { body: body, tag: "choice-" + (path || P.config.interaction_id) });
      shown.onclick = function () {
        window.focus();
        shown.close();
        if (path && path !== location.pathname) location.assign(path);
      };
    } catch (e) { /* some browsers only allow notifications from a service worker */ }
  };

  var title;
  function update() {
    var list = document.getElementById("interaction-list"), icon = document.querySelector("link[rel=icon]");
    if (!list) return;
    var n = +list.getAttribute("data-waiting");
    title = title || document.title;
    document.title = (n ? "(" + n + ") " : "") + title;
    if (icon) icon.href = n ? "data:image/svg+xml," + encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' " +
      "viewBox='0 0 32 32'><circle cx='16' cy='16' r='16' fill='#2f5d8a'/><text x='16' y='23' " +
      "text-anchor='middle' fill='#fff' font-family='sans-serif' font-size='20'>" +
      (n > 9 ? "9+" : n) + "</text></svg>") : "data:,";
    var button = document.querySelector("[data-enable-notifications]");
    if (!button || !N || P.config.notifications === "never") return;
    button.hidden = N.permission !== "default";
    button.onclick = function () { N.requestPermission().then(function () { button.hidden = true; }); };
  }
  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:afterSwap", update);
  document.addEventListener("pointerdown", function () {  // browsers let audio start on a click
    if (A && P.config.sound) try { (audio = audio || new A()).resume(); } catch (e) { /* none */ }
  });
})();
