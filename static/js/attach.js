/* Attaching files to the answer: the picker, drag-and-drop and pasting an image hand the
   files to files.js, loaded on first use (a page nobody attaches to never loads it). A
   change made elsewhere (another tab, the terminal's `a`) refreshes the list. Without
   script the section stays hidden: choosing a file needs it. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document, waiting = [], loading = 0;

  function box() { return doc.querySelector("[data-answer-files]"); }
  function use(fn) {
    if (P.files) return fn(P.files);
    waiting.push(fn);
    if (loading) return;
    loading = 1;
    var script = doc.createElement("script");
    script.src = P.config.files_script;
    script.onload = function () { loading = 0; waiting.splice(0).forEach(function (f) { f(P.files); }); };
    script.onerror = function () { loading = 0; waiting = []; };
    doc.head.appendChild(script);
  }
  function send(files) { if (files.length) use(function (f) { f.add(files); }); }
  function hasFiles(event) {
    return event.dataTransfer && [].indexOf.call(event.dataTransfer.types || [], "Files") >= 0;
  }
  function dropping(on) { var b = box(); if (b) b.classList.toggle("dropping", on); }
  function show() { var b = box(); if (b) b.hidden = false; }

  doc.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches("[data-file-input]")) return;
    var files = [].slice.call(input.files);
    input.value = "";
    send(files);
  });
  doc.addEventListener("paste", function (event) {
    var files = [].slice.call(event.clipboardData && event.clipboardData.files || []);
    if (!files.length || !box()) return;  // text pastes as text
    event.preventDefault();
    send(files);
  });
  doc.addEventListener("dragover", function (event) {
    if (box() && hasFiles(event)) { event.preventDefault(); dropping(true); }
  });
  doc.addEventListener("dragleave", function (event) { if (!event.relatedTarget) dropping(false); });
  doc.addEventListener("drop", function (event) {
    if (!box() || !hasFiles(event)) return;
    event.preventDefault();
    dropping(false);
    send([].slice.call(event.dataTransfer.files));
  });
  doc.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-remove-file]");
    if (button) use(function (f) { f.remove(button.dataset.removeFile); });
  });
  doc.addEventListener("DOMContentLoaded", show);
  doc.addEventListener("htmx:afterSwap", show);
  /* The list as the server has it now. One fetch at a time, and one more if asked
     meanwhile: two in flight could land in the wrong order and show an older list. */
  var fetching = null, again = 0;
  P.refreshFiles = function () {
    var b = box();
    if (!b) return Promise.resolve();
    if (fetching) { again = 1; return fetching; }
    function done() {
      fetching = null;
      if (again) { again = 0; return P.refreshFiles(); }
    }
    fetching = P.load(b.dataset.answerFiles, { target: b.querySelector("ul") }).then(done, done);
    return fetching;
  };
  P.on("draft", function (message) { if (message.files) P.refreshFiles(); });
})();
